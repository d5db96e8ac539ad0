// The reorder_advice view gains what a buyer orders by (ADR 0184, amendment 2026-12-06): the
// product's supplier — trimmed, a blank one none, as the order lists read it — and the supplier's
// terms the stored advice was made under (ADR 0183): the case size (order_multiple), the minimum
// order, and the quantity the forecast needed before they rounded it up (the forecast stores it as
// orderQuantityNeeded only where the terms made the order larger; otherwise it is the order quantity).
// Columns added at the end: `create or replace` keeps the view's other columns as they are.
import { sql, type Kysely } from 'kysely';
import { adviceColumns } from './0330-reorder-advice-from-the-forecasts-first-day.ts';

/** The view's columns after this migration, which the later ones keep first (0740's down makes the view of this one again). */
export const supplierAdviceColumns = sql`${adviceColumns}, f.forecast_start,
           nullif(btrim(p.supplier), '') as supplier,
           (f.reorder ->> 'orderMultiple')::float8 as order_multiple,
           (f.reorder ->> 'minOrderQuantity')::float8 as min_order_quantity,
           coalesce((f.reorder ->> 'orderQuantityNeeded')::float8, (f.reorder ->> 'orderQuantity')::float8) as order_quantity_needed`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace view data.reorder_advice as ${supplierAdviceColumns}
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // A view cannot lose columns in place: it is made again as migration 0330 left it.
  await sql`drop view data.reorder_advice`.execute(db);
  await sql`create view data.reorder_advice as ${adviceColumns}, f.forecast_start
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);
}
