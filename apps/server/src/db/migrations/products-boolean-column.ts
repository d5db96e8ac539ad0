// A nullable boolean column of the products (made_here, migration 0720; not_stocked, migration 0750):
// added to products and its variations (copies of its columns), and its definition to the
// catalogue's stored columns after the last of `after`'s keys, or last; a fresh database has no
// definitions yet (they come from the configuration at start). No table is rewritten.
import { sql, type Kysely } from 'kysely';

type ProductsColumn = { key: string; label: string; after: readonly string[] };

const keysArray = (keys: readonly string[]) => sql.raw(`array[${keys.map((key) => `'${key}'`).join(', ')}]`);

export async function addProductsColumn(db: Kysely<unknown>, column: ProductsColumn): Promise<void> {
  const definition = JSON.stringify({ key: column.key, label: column.label, type: 'BooleanField' });
  // Per products table (the base and each variation): the column — `if not exists`, so a shop's own
  // column of that name is kept — and, where the catalogue lists columns and not yet this one, its
  // definition after the last of `after`, or last.
  await sql`
    do $$
    declare t record; place int;
    begin
      for t in select id, encoded_name, columns from data_tables where name = 'products' or base_table = 'products' loop
        execute format('alter table data.%I add column if not exists %I boolean', t.encoded_name, ${sql.lit(column.key)});
        continue when coalesce(jsonb_array_length(t.columns), 0) = 0 or t.columns @> ${sql.lit(JSON.stringify([{ key: column.key }]))}::jsonb;
        select coalesce(max(at), jsonb_array_length(t.columns)) into place from jsonb_array_elements(t.columns) with ordinality e(c, at) where c->>'key' = any(${keysArray(column.after)});
        update data_tables set columns = coalesce((select jsonb_agg(c order by at) from jsonb_array_elements(t.columns) with ordinality e(c, at) where at <= place), '[]'::jsonb)
          || ${sql.lit(definition)}::jsonb
          || coalesce((select jsonb_agg(c order by at) from jsonb_array_elements(t.columns) with ordinality e(c, at) where at > place), '[]'::jsonb)
          where id = t.id;
      end loop;
    end $$`.execute(db);
}

/** The definitions and the columns go, with the values written in them. */
export async function dropProductsColumn(db: Kysely<unknown>, key: string): Promise<void> {
  await sql`
    do $$
    declare t record;
    begin
      for t in select id, encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        update data_tables set columns = columns - (select (at - 1)::int from jsonb_array_elements(columns) with ordinality e(c, at) where c->>'key' = ${sql.lit(key)} limit 1)
          where id = t.id and columns @> ${sql.lit(JSON.stringify([{ key }]))}::jsonb;
        execute format('alter table data.%I drop column if exists %I', t.encoded_name, ${sql.lit(key)});
      end loop;
    end $$`.execute(db);
}
