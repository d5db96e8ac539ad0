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
/** The columns a made_here definition goes after: the supplier and its terms. */
const SUPPLIER_KEYS = sql.raw(`array['supplier', 'lead_time_days', 'order_multiple', 'min_order_quantity']`);

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per products table (the base and each variation): the column — `if not exists`, so a shop's own
  // made_here column is kept — and, where the catalogue lists columns and not yet this one, its
  // definition after the last of the supplier's columns, or last.
  await sql`
    do $$
    declare t record; place int;
    begin
      for t in select id, encoded_name, columns from data_tables where name = 'products' or base_table = 'products' loop
        execute format('alter table data.%I add column if not exists made_here boolean', t.encoded_name);
        continue when coalesce(jsonb_array_length(t.columns), 0) = 0 or t.columns @> '[{"key": "made_here"}]'::jsonb;
        select coalesce(max(at), jsonb_array_length(t.columns)) into place from jsonb_array_elements(t.columns) with ordinality e(c, at) where c->>'key' = any(${SUPPLIER_KEYS});
        update data_tables set columns = coalesce((select jsonb_agg(c order by at) from jsonb_array_elements(t.columns) with ordinality e(c, at) where at <= place), '[]'::jsonb)
          || ${sql.raw(`'${DEFINITION}'`)}::jsonb
          || coalesce((select jsonb_agg(c order by at) from jsonb_array_elements(t.columns) with ordinality e(c, at) where at > place), '[]'::jsonb)
          where id = t.id;
      end loop;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The definitions and the columns go, with the values written in them.
  await sql`
    do $$
    declare t record;
    begin
      for t in select id, encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        update data_tables set columns = columns - (select (at - 1)::int from jsonb_array_elements(columns) with ordinality e(c, at) where c->>'key' = 'made_here' limit 1)
          where id = t.id and columns @> '[{"key": "made_here"}]'::jsonb;
        execute format('alter table data.%I drop column if exists made_here', t.encoded_name);
      end loop;
    end $$`.execute(db);
}
