// The dashboard's tasks after the QA pass (docs/adr/0144): products that sell but were never counted
// have no stock projection, so no order advice — the catalogue summary counts them for a stock-count
// task; and the reorder task counts the orders due soon, so it keeps the order-by dates of the list
// (read against today's date when the dashboard is read, not when the forecast ran).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary add column unknown_stock_count integer not null default 0`.execute(db);
  await sql`alter table dashboard_catalogue_summary add column reorder_order_by text[] not null default '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from tasks where kind = 'count_stock'`.execute(db);
  await sql`alter table dashboard_catalogue_summary drop column reorder_order_by`.execute(db);
  await sql`alter table dashboard_catalogue_summary drop column unknown_stock_count`.execute(db);
}
