// Issue "Real data in": returns are negative sales, so sales quantities may be below zero; a
// delivery is identified by its product and expected date (the deliveries entity's import key),
// and rows written by an integration are noted under it (data action replace).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data.sales drop constraint if exists sales_quantity_check`.execute(db);
  // A database whose deliveries already repeat a product and day keeps them: the deliveries
  // import then says its key is not unique instead of this migration merging anyone's orders.
  await sql`
    do $$ begin
      if not exists (select 1 from data.deliveries group by product_id, expected_date having count(*) > 1) then
        create unique index deliveries_product_expected_date on data.deliveries (product_id, expected_date);
      end if;
    end $$`.execute(db);
  await sql`
    create table import_row_sources (
      table_name text not null,
      row_id bigint not null,
      source text not null,
      run text not null,
      primary key (table_name, row_id)
    )`.execute(db);
  await sql`create index import_row_sources_source on import_row_sources (table_name, source)`.execute(db);
  await sql`
    create table config_mappings (
      name text primary key,
      config jsonb not null,
      created_by bigint references users (id) on delete set null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}
