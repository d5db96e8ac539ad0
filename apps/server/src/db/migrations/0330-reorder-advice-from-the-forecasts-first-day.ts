// The reorder_advice view gains the stored forecast's first day (forecast_start), so a report counts
// "no sales in the last 90 days" from the day the order advice counts them, the forecast's start, and
// not from today: when the latest catalogue run is some days old, the report writer's "what to
// reorder" and the Forecasting screen's order list named different products. A column added at the
// end: `create or replace` keeps the view's other columns as they are.
import { sql, type Kysely } from 'kysely';

/** The view's columns before this migration, which the later ones keep first (0690's down makes the view of this one again). */
export const adviceColumns = sql.raw(`
    select f.product_id, p.product_code, p.name as product_name, p.current_stock,
           (f.reorder ->> 'reorderPoint')::float8 as reorder_point,
           (f.reorder ->> 'safetyStock')::float8 as safety_stock,
           (f.reorder ->> 'orderQuantity')::float8 as order_quantity,
           (f.reorder ->> 'orderBy')::date as order_by,
           (f.reorder ->> 'leadTimeDays')::int as lead_time_days,
           (select min((o ->> 'date')::date) from jsonb_array_elements(f.stockouts) o where o ->> 'type' = 'stockForecast') as stockout_date,
           f.generated_at`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace view data.reorder_advice as ${adviceColumns}, f.forecast_start
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view data.reorder_advice`.execute(db);
  await sql`create view data.reorder_advice as ${adviceColumns}
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);
}
