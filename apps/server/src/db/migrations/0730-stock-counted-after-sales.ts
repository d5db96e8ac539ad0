// Products whose only stock counts are dated after their sales data ends (ADR 0193 F9): not "no stock
// count" — they were counted — but not projected until recent sales are imported, so the dashboard's
// import task names them and the stock-count task no longer does. The catalogue summary counts them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary add column counted_after_sales_count integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary drop column counted_after_sales_count`.execute(db);
}
