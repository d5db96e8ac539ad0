// Products made in the shop (docs/adr/0194): a café's flat whites, croissants and banana bread are
// made here, nothing is bought for them, so the order lists, their warnings and the stock-count
// tasks leave them out; they are still forecast. A nullable boolean: blank (null) or false is "not
// made here", true is made here; no default, so an import leaving it blank is not said to have
// used one. The column is added to products and its variations (copies of its columns), and its
// definition to the catalogue's stored columns after the supplier's terms (the minimum order), so
// the Data screen shows and edits it and an import can fill it. A fresh database has no
// definitions yet: they come from the configuration at start. No table is rewritten.
import { sql, type Kysely } from 'kysely';

const DEFINITION = '{"key": "made_here", "label": "Made here (not ordered)", "type": "BooleanField"}';

/** `alter table … <change>` of data.products and each of its variations. */
const alterProductsTables = (db: Kysely<unknown>, change: 'add column if not exists made_here boolean' | 'drop column if exists made_here') =>
  sql`
    do $$
    declare t record;
    begin
      for t in select encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        execute format('alter table data.%I ${sql.raw(change)}', t.encoded_name);
      end loop;
    end $$`.execute(db);

export async function up(db: Kysely<unknown>): Promise<void> {
  // `if not exists`: a shop that added a `made_here` column of its own to the configuration keeps it.
  await alterProductsTables(db, 'add column if not exists made_here boolean');
  // After the last of the supplier's columns (the minimum order, else the case size, the lead time, the supplier), or last.
  await sql`
    update data_tables set columns = (
      select jsonb_agg(c order by at) from (
        select c, at::numeric as at from jsonb_array_elements(columns) with ordinality as e(c, at)
        union all
        select ${DEFINITION}::jsonb, coalesce((select max(at) from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' in ('supplier', 'lead_time_days', 'order_multiple', 'min_order_quantity')) + 0.5, jsonb_array_length(columns) + 0.5)
      ) ordered
    )
    where (name = 'products' or base_table = 'products') and jsonb_array_length(columns) > 0
      and not exists (select 1 from jsonb_array_elements(columns) c where c->>'key' = 'made_here')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select coalesce(jsonb_agg(c order by at), '[]'::jsonb) from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' <> 'made_here'
    )
    where (name = 'products' or base_table = 'products') and columns @> '[{"key": "made_here"}]'::jsonb`.execute(db);
  await alterProductsTables(db, 'drop column if exists made_here');
}
