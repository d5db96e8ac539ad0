// Products that sell but were never counted have no stock projection, so no order advice (docs/adr/0144):
// the catalogue summary counts them for the dashboard's stock-count task.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary add column unknown_stock_count integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from tasks where kind = 'count_stock'`.execute(db);
  await sql`alter table dashboard_catalogue_summary drop column unknown_stock_count`.execute(db);
}
