// Only an integration's replace looks sales parts up by their source (ADR 0164,
// removeOwnPartsOfEarlierRuns), and only its parts carry a run. Indexing every part by source made a
// file import keep one more index entry per product-day written, all under the same few values; the
// index now holds the parts of runs alone, so a file's parts cost the table and its key only
// (docs/performance.md, "Sales kept per source").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sales_sources_source`.execute(db);
  await sql`create index sales_sources_of_runs on sales_sources (source) where run is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sales_sources_of_runs`.execute(db);
  await sql`create index sales_sources_source on sales_sources (source)`.execute(db);
}
