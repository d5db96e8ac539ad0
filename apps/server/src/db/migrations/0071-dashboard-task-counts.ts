// The generated tasks' counts, computed with the catalogue summary after each forecast run instead
// of on every dashboard read (the products-without-sales count probes the sales of every product).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary add column reorder_count integer not null default 0`.execute(db);
  await sql`alter table dashboard_catalogue_summary add column no_sales_count integer not null default 0`.execute(db);
  await sql`alter table dashboard_catalogue_summary add column last_sale date`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary drop column last_sale`.execute(db);
  await sql`alter table dashboard_catalogue_summary drop column no_sales_count`.execute(db);
  await sql`alter table dashboard_catalogue_summary drop column reorder_count`.execute(db);
}
