// Migration 0650 (ADR 0183) on a database whose catalogue already holds the products' columns: the
// products table and its variation get a case size and a minimum order, each refusing 0 or less,
// their definitions list them after the lead time, and going back removes them.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0650 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-case-size' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds the case size and the minimum order to products and its variations after the lead time, above 0, and takes them away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0630-products-have-a-unit')).error).toBeUndefined();
    const stored = [
      { key: 'product_code', type: 'CharField' },
      { key: 'lead_time_days', type: 'IntegerField' },
      { key: 'units_sold_30d', type: 'query', query_name: 'units_sold_last_30_days' },
    ];
    await sql`update data_tables set columns = ${JSON.stringify(stored)}::jsonb where name = 'products'`.execute(db);
    await sql`create table data.products_v1 (like data.products)`.execute(db);
    await sql`insert into data_tables (name, encoded_name, base_table, parent_id, variation_number, columns) values ('products #1', 'products_v1', 'products', 1, 1, ${JSON.stringify(stored)}::jsonb)`.execute(db);
    const { id } = await db.insertInto('data.products').values({ product_code: 'HWB-24', name: 'Hot-water bottle', current_stock: 8, unit_cost: 3.1, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();

    expect((await migrator.migrateTo('0650-products-have-a-case-size-and-minimum-order')).error).toBeUndefined();
    const keys = async () => (await sql<{ name: string; keys: string[] }>`select name, array(select c->>'key' from jsonb_array_elements(columns) with ordinality e(c, at) order by at) as keys from data_tables where name like 'products%' order by name`.execute(db)).rows;
    const withTerms = ['product_code', 'lead_time_days', 'order_multiple', 'min_order_quantity', 'units_sold_30d'];
    expect(await keys()).toEqual([
      { name: 'products', keys: withTerms },
      { name: 'products #1', keys: withTerms },
    ]);
    const labels = (await sql<{ label: string }>`select c->>'label' as label from data_tables, jsonb_array_elements(columns) c where name = 'products' and c->>'key' in ('order_multiple', 'min_order_quantity')`.execute(db)).rows;
    expect(labels.map((row) => row.label)).toEqual(['Case size', 'Minimum order']);
    for (const table of ['data.products', 'data.products_v1']) {
      for (const column of ['order_multiple', 'min_order_quantity']) expect(await columnType(database, table, column), `${table}.${column}`).toBe('numeric(14,3)');
    }
    await db.updateTable('data.products').set({ order_multiple: 2.5, min_order_quantity: 10 }).where('id', '=', id).execute();
    expect(await db.selectFrom('data.products').select(['order_multiple', 'min_order_quantity']).execute()).toEqual([{ order_multiple: 2.5, min_order_quantity: 10 }]);
    // The tables' own rule: 0 or less is refused whoever writes it.
    for (const values of [{ order_multiple: 0 }, { min_order_quantity: -1 }]) {
      await expect(db.updateTable('data.products').set(values).where('id', '=', id).execute()).rejects.toThrow(/check constraint/);
    }
    // Back: the definitions and the columns go, their rules with them.
    expect((await migrator.migrateTo('0630-products-have-a-unit')).error).toBeUndefined();
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'lead_time_days', 'units_sold_30d'] },
      { name: 'products #1', keys: ['product_code', 'lead_time_days', 'units_sold_30d'] },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'order_multiple'), table).toBeUndefined();
  });
});
