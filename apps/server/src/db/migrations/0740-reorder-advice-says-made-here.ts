// The reorder_advice view says which products are made here (ADR 0194, amendment 2026-12-06): the
// catalogue run still stores advice for a café's croissants (the engine is not told), and the order
// lists leave them out, so a report reading the view needs to know which rows nothing is bought for.
// A column, not rows left out: the report writer's stock figures ("On hand now") read every product's
// forecast start from this view, made-here ones too, and would fall back to a product's last count
// without its row. `made_here` is the product's, blank read as false, as the order lists read it.
// A column added at the end: `create or replace` keeps the view's other columns as they are.
import { sql, type Kysely } from 'kysely';
import { supplierAdviceColumns } from './0690-reorder-advice-names-the-supplier-and-its-terms.ts';

const FROM = sql`from forecast_results f join data.products p on p.id = f.product_id`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace view data.reorder_advice as ${supplierAdviceColumns}, coalesce(p.made_here, false) as made_here ${FROM}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // A view cannot lose columns in place: it is made again as migration 0690 left it.
  await sql`drop view data.reorder_advice`.execute(db);
  await sql`create view data.reorder_advice as ${supplierAdviceColumns} ${FROM}`.execute(db);
}
