// A stored forecast remembers when the histories it was made from were read (ADR 0134): a run that
// read a product before a write and finishes after the product's own run (a catalogue run next to a
// Data-screen edit's single-product run; two worker processes) does not put the older data's
// forecast back over the newer one. Forecasts stored before this column are older than any read.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results add column inputs_read_at timestamptz not null default '-infinity'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results drop column inputs_read_at`.execute(db);
}
