// What a product has on hand now, the Forecasting header's figure (ADR 0030, amendment 2026-12-04):
// written with each forecast by the run's worker threads, so the report's lists and the dashboard's
// total show it without walking every product's history on each read. Null: never counted. The
// forecasts stored before this column get the product's latest count, the figure the lists showed
// until now, until the next run (nightly, or after an import) writes the walked one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results add column on_hand float8, add column on_hand_counted float8, add column on_hand_counted_on date`.execute(db);
  await sql`
    update forecast_results f set on_hand = k.stock_level, on_hand_counted = k.stock_level, on_hand_counted_on = k.date
    from (select distinct on (product_id) product_id, stock_level, date from data.stock_snapshots order by product_id, date desc) k
    where k.product_id = f.product_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results drop column on_hand, drop column on_hand_counted, drop column on_hand_counted_on`.execute(db);
}
