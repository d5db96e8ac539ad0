// Who a product is bought from (docs/adr/0184): the supplier's name as the shop writes it, up to 200
// characters; none (null, or blank) is "No supplier". The order lists group and filter by it and
// their download carries it, so a buyer can place one purchase order per supplier. The column is
// added to products and its variations (copies of its columns), and its definition to the
// catalogue's stored columns before the lead time (the supplier, then its terms), so the Data screen
// shows and edits it and an import can fill it. A fresh database has no definitions yet: they come
// from the configuration at start. Adding a nullable column without a default changes the catalogue
// only: no table is rewritten.
import { sql, type Kysely } from 'kysely';

const DEFINITION = '{"key": "supplier", "label": "Supplier", "type": "CharField", "max_length": 200}';

/** `alter table … <change>` of data.products and each of its variations. */
const alterProductsTables = (db: Kysely<unknown>, change: 'add column if not exists supplier varchar(200)' | 'drop column if exists supplier') =>
  sql`
    do $$
    declare t record;
    begin
      for t in select encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        execute format('alter table data.%I ${sql.raw(change)}', t.encoded_name);
      end loop;
    end $$`.execute(db);

export async function up(db: Kysely<unknown>): Promise<void> {
  // `if not exists`: a shop that added a `supplier` column of its own to the configuration keeps it.
  await alterProductsTables(db, 'add column if not exists supplier varchar(200)');
  // Before lead_time_days (or last, in a catalogue without it): the supplier, then what it takes to deliver and sells in.
  await sql`
    update data_tables set columns = (
      select jsonb_agg(c order by at) from (
        select c, at::numeric as at from jsonb_array_elements(columns) with ordinality as e(c, at)
        union all
        select ${DEFINITION}::jsonb, coalesce((select at from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' = 'lead_time_days') - 0.5, jsonb_array_length(columns) + 0.5)
      ) ordered
    )
    where (name = 'products' or base_table = 'products') and jsonb_array_length(columns) > 0
      and not exists (select 1 from jsonb_array_elements(columns) c where c->>'key' = 'supplier')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select coalesce(jsonb_agg(c order by at), '[]'::jsonb) from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' <> 'supplier'
    )
    where (name = 'products' or base_table = 'products') and columns @> '[{"key": "supplier"}]'::jsonb`.execute(db);
  await alterProductsTables(db, 'drop column if exists supplier');
}
