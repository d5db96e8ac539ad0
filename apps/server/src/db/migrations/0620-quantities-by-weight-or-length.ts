// Quantities by weight or length (docs/adr/0176): sales, stock counts, deliveries and the products'
// current stock hold up to 3 decimal places (0.25 kg of cheddar, 12.5 m of cable), exactly:
// numeric(14, 3), never a float. The sales ledger's parts and their before-images follow, and the
// catalogue's column definitions say DecimalField (3 places) so the Data screen's form and filters
// and the import read 0.25. A table's variations (copies of its columns) change with it. A fresh
// database has no definitions yet: they come from the configuration at start, already decimal.
// The change rewrites each table (every row, its indexes): minutes for tens of millions of sales,
// under a lock that stops reads and writes of the table meanwhile (docs/operations.md).
import { sql, type Kysely } from 'kysely';

const QUANTITY = 'numeric(14, 3)';

/** The quantity columns of the shipped data tables (and of their variations). */
const DATA_COLUMNS: [table: string, column: string][] = [
  ['products', 'current_stock'],
  ['sales', 'quantity'],
  ['stock_snapshots', 'stock_level'],
  ['deliveries', 'quantity'],
];

/** The app tables that keep parts of data.sales.quantity, or stock counts as they were (an undo's before-images). */
const APP_COLUMNS: [table: string, columns: string[]][] = [
  ['sales_sources', ['quantity']],
  ['sales_parts_before_run', ['previous_quantity']],
  ['sales_parts_before_import', ['written', 'previous_part', 'replaced']],
  ['stock_counts_before_import', ['written', 'previous']],
];

/**
 * Each data table named here and each of its variations: the column's stored type (when it is
 * `from`: a shop may have changed it already) and its catalogue definition.
 */
async function changeDataColumns(db: Kysely<unknown>, from: string, to: string, definition: string, fromField: string): Promise<void> {
  for (const [table, column] of DATA_COLUMNS) {
    await sql`
      do $$
      declare t record;
      begin
        for t in select encoded_name from data_tables where name = ${sql.lit(table)} or base_table = ${sql.lit(table)} loop
          if exists (select 1 from information_schema.columns where table_schema = 'data' and table_name = t.encoded_name and column_name = ${sql.lit(column)} and data_type = ${sql.lit(from)}) then
            execute format('alter table data.%I alter column %I type ${sql.raw(to)}', t.encoded_name, ${sql.lit(column)});
          end if;
        end loop;
      end $$`.execute(db);
    await sql`
      update data_tables set columns = (
        select jsonb_agg(case when c->>'key' = ${column} and c->>'type' = ${fromField} then (c - 'max_digits' - 'decimal_places') || ${definition}::jsonb else c end order by at)
        from jsonb_array_elements(columns) with ordinality as e(c, at)
      )
      where (name = ${table} or base_table = ${table}) and jsonb_array_length(columns) > 0`.execute(db);
  }
}

/**
 * Changes the columns' type: the view data.reorder_advice reads products.current_stock, and a column
 * a view reads cannot change its type under it, so the view is dropped and made again as it was.
 */
async function changeColumns(db: Kysely<unknown>, to: { from: string; type: string; definition: string; fromField: string }): Promise<void> {
  const view = await sql<{ definition: string }>`select pg_get_viewdef('data.reorder_advice'::regclass) as definition`.execute(db);
  await sql`drop view data.reorder_advice`.execute(db);
  await changeDataColumns(db, to.from, to.type, to.definition, to.fromField);
  for (const [table, columns] of APP_COLUMNS) {
    await sql`alter table ${sql.id(table)} ${sql.join(columns.map((c) => sql`alter column ${sql.id(c)} type ${sql.raw(to.type)}`))}`.execute(db);
  }
  await sql`create view data.reorder_advice as ${sql.raw(view.rows[0]?.definition ?? '')}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await changeColumns(db, { from: 'integer', type: QUANTITY, definition: '{"type": "DecimalField", "max_digits": 14, "decimal_places": 3}', fromField: 'IntegerField' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to whole units: a fraction is rounded (half away from zero), as a cast to integer does.
  await changeColumns(db, { from: 'numeric', type: 'integer', definition: '{"type": "IntegerField"}', fromField: 'DecimalField' });
}
