// What a supplier sells (docs/adr/0183): a product's case size — orders come in whole multiples of
// it, 24 to a carton, 2.5 kg to a wheel — and the supplier's minimum order; either may be none
// (null). Both above 0, which the tables' CHECK rules say so that the Data screen and an import
// refuse 0 or less as the field's mistake (tables/column-minimums.ts reads the rules). The columns
// are added to products and its variations (copies of its columns), and their definitions to the
// catalogue's stored columns, after the lead time, so the Data screen shows and edits them and an
// import can fill them. A fresh database has no definitions yet: they come from the configuration
// at start. Adding nullable columns without a default changes the catalogue only: no table is rewritten.
import { sql, type Kysely } from 'kysely';

const DEFINITIONS = [
  { key: 'order_multiple', label: 'Case size', type: 'DecimalField', max_digits: 14, decimal_places: 3 },
  { key: 'min_order_quantity', label: 'Minimum order', type: 'DecimalField', max_digits: 14, decimal_places: 3 },
];

/** Runs `statement` (`%1$I`: the table, `%2$I`: the column) for each of products' tables and each column, where `when` the column exists (or not). */
const eachProductsColumn = (db: Kysely<unknown>, when: 'missing' | 'present', statement: string) =>
  sql`
    do $$
    declare t record; c text;
    begin
      for t in select encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        foreach c in array array['order_multiple', 'min_order_quantity'] loop
          if ${sql.raw(when === 'missing' ? 'not exists' : 'exists')} (select 1 from information_schema.columns where table_schema = 'data' and table_name = t.encoded_name and column_name = c) then
            execute format(${sql.lit(statement)}, t.encoded_name, c);
          end if;
        end loop;
      end loop;
    end $$`.execute(db);

export async function up(db: Kysely<unknown>): Promise<void> {
  // Only where missing: a shop that added a column of one of these names to the configuration keeps it as it is, rows and rules.
  await eachProductsColumn(db, 'missing', 'alter table data.%1$I add column %2$I numeric(14, 3) check (%2$I > 0)');
  // After lead_time_days (or last, in a catalogue without it), where the supplier's other term is read.
  await sql`
    update data_tables set columns = (
      select jsonb_agg(c order by at) from (
        select c, at::numeric as at from jsonb_array_elements(columns) with ordinality as e(c, at)
        union all
        select d, coalesce((select at from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' = 'lead_time_days'), jsonb_array_length(columns)) + place::numeric / 10
        from jsonb_array_elements(${JSON.stringify(DEFINITIONS)}::jsonb) with ordinality as defs(d, place)
        where not exists (select 1 from jsonb_array_elements(columns) c where c->>'key' = d->>'key')
      ) ordered
    )
    where (name = 'products' or base_table = 'products') and jsonb_array_length(columns) > 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select coalesce(jsonb_agg(c order by at), '[]'::jsonb) from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' not in ('order_multiple', 'min_order_quantity')
    )
    where (name = 'products' or base_table = 'products') and jsonb_array_length(columns) > 0`.execute(db);
  await eachProductsColumn(db, 'present', 'alter table data.%1$I drop column %2$I');
}
