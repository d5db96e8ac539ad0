// A product's unit (docs/adr/0177): what its quantities count — kg, m, l, box — as the shop writes
// it, up to 12 characters; none (null) is pieces. A weight, length or volume makes the forecast
// order it to the gram before its first decimal sale. The column is added to products and its
// variations (copies of its columns), and its definition to the catalogue's stored columns, after
// the current stock, so the Data screen shows and edits it and an import can fill it. A fresh
// database has no definitions yet: they come from the configuration at start, unit included.
// Adding a nullable column without a default changes the catalogue only: no table is rewritten.
import { sql, type Kysely } from 'kysely';

const DEFINITION = '{"key": "unit", "label": "Unit", "type": "CharField", "max_length": 12}';

/** `alter table … <change>` of data.products and each of its variations. */
const alterProductsTables = (db: Kysely<unknown>, change: 'add column if not exists unit varchar(12)' | 'drop column if exists unit') =>
  sql`
    do $$
    declare t record;
    begin
      for t in select encoded_name from data_tables where name = 'products' or base_table = 'products' loop
        execute format('alter table data.%I ${sql.raw(change)}', t.encoded_name);
      end loop;
    end $$`.execute(db);

export async function up(db: Kysely<unknown>): Promise<void> {
  // `if not exists`: a shop that added a `unit` column of its own to the configuration keeps it.
  await alterProductsTables(db, 'add column if not exists unit varchar(12)');
  // After current_stock (or last, in a catalogue without it), where the stock's figure is read.
  await sql`
    update data_tables set columns = (
      select jsonb_agg(c order by at) from (
        select c, at::numeric as at from jsonb_array_elements(columns) with ordinality as e(c, at)
        union all
        select ${DEFINITION}::jsonb, coalesce((select at from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' = 'current_stock'), jsonb_array_length(columns)) + 0.5
      ) ordered
    )
    where (name = 'products' or base_table = 'products') and jsonb_array_length(columns) > 0
      and not exists (select 1 from jsonb_array_elements(columns) c where c->>'key' = 'unit')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select coalesce(jsonb_agg(c order by at), '[]'::jsonb) from jsonb_array_elements(columns) with ordinality as e(c, at) where c->>'key' <> 'unit'
    )
    where (name = 'products' or base_table = 'products') and columns @> '[{"key": "unit"}]'::jsonb`.execute(db);
  await alterProductsTables(db, 'drop column if exists unit');
}
