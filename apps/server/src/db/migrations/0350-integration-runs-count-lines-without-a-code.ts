// An integration run counts the lines its mapping's skip_rows_without_code left out (a web shop's
// gift cards and shipping lines), as a file import counts them in `counts.skipped`: per batch, with
// the run's other counters, so the records fetched and the rows written add up in its log.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs add column rows_skipped integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs drop column rows_skipped`.execute(db);
}
