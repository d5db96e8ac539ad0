// What a product has on hand at the end of the history its forecast was made from (ADR 0030,
// amendment 2026-12-04): written with each forecast by the run's worker threads, so the report's
// lists and the dashboard's total show the Forecasting header's figure without walking every
// product's history on each read. Null: no count in that history (or a forecast stored before this
// column, until the next run: the readers then fall back to the latest count).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results add column on_hand float8, add column on_hand_counted float8, add column on_hand_counted_on date`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results drop column on_hand, drop column on_hand_counted, drop column on_hand_counted_on`.execute(db);
}
