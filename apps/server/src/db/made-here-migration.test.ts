// Migration 0720 (ADR 0194) on a database whose catalogue already holds the products' columns and a
// variation of products: both tables get a nullable boolean made_here, its definition listed after the
// supplier's terms, stored rows keep their values (and are not made here), and going back removes it.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0720 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-made-here' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds made_here to products and its variations after the minimum order, and takes it away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0710-forecast-tasks-of-a-list-of-products')).error).toBeUndefined();
    const stored = [
      { key: 'product_code', type: 'CharField' },
      { key: 'supplier', type: 'CharField' },
      { key: 'lead_time_days', type: 'IntegerField' },
      { key: 'order_multiple', type: 'DecimalField' },
      { key: 'min_order_quantity', type: 'DecimalField' },
      { key: 'units_sold_30d', type: 'query', query_name: 'units_sold_last_30_days' },
    ];
    // The variation's own order: its terms before the supplier (a shop moved them).
    const variation = [stored[0], stored[3], stored[4], stored[1], stored[2], stored[5]];
    await sql`update data_tables set columns = ${JSON.stringify(stored)}::jsonb where name = 'products'`.execute(db);
    await sql`create table data.products_v1 (like data.products)`.execute(db);
    await sql`insert into data_tables (name, encoded_name, base_table, parent_id, variation_number, columns) values ('products #1', 'products_v1', 'products', 1, 1, ${JSON.stringify(variation)}::jsonb)`.execute(db);
    await db.insertInto('data.products').values({ product_code: 'CRO-1', name: 'Croissant', current_stock: 0, unit_cost: 0.9, lead_time_days: 1 }).execute();
    await sql`insert into data.products_v1 (id, product_code, name, current_stock, unit_cost, lead_time_days) values (99, 'LAT-1', 'Latte', 0, 0.5, 14)`.execute(db);

    expect((await migrator.migrateTo('0720-products-made-here')).error).toBeUndefined();
    const keys = async () => (await sql<{ name: string; keys: string[] }>`select name, array(select c->>'key' from jsonb_array_elements(columns) with ordinality e(c, at) order by at) as keys from data_tables where name like 'products%' order by name`.execute(db)).rows;
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'supplier', 'lead_time_days', 'order_multiple', 'min_order_quantity', 'made_here', 'units_sold_30d'] },
      // After the last of the supplier's columns, wherever the shop put them.
      { name: 'products #1', keys: ['product_code', 'order_multiple', 'min_order_quantity', 'supplier', 'lead_time_days', 'made_here', 'units_sold_30d'] },
    ]);
    const definition = (await sql<{ c: unknown }>`select c from data_tables, jsonb_array_elements(columns) c where name = 'products' and c->>'key' = 'made_here'`.execute(db)).rows[0]?.c;
    expect(definition).toEqual({ key: 'made_here', label: 'Made here (not ordered)', type: 'BooleanField' });
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'made_here'), table).toBe('boolean');
    // Stored rows are bought products until marked; the column takes true, false and none.
    expect(await db.selectFrom('data.products').select(['product_code', 'made_here']).execute()).toEqual([{ product_code: 'CRO-1', made_here: null }]);
    expect((await sql<{ made_here: boolean | null }>`select made_here from data.products_v1`.execute(db)).rows).toEqual([{ made_here: null }]);
    await db.updateTable('data.products').set({ made_here: true }).execute();
    expect(await db.selectFrom('data.products').select('made_here').executeTakeFirst()).toEqual({ made_here: true });
    // Back: the definitions and the columns go, the rows with their other values kept.
    expect((await migrator.migrateTo('0710-forecast-tasks-of-a-list-of-products')).error).toBeUndefined();
    expect(await keys()).toEqual([
      { name: 'products', keys: stored.map((c) => c.key) },
      { name: 'products #1', keys: variation.map((c) => c!.key) },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'made_here'), table).toBeUndefined();
    expect(await db.selectFrom('data.products').select(['product_code', 'lead_time_days']).execute()).toEqual([{ product_code: 'CRO-1', lead_time_days: 1 }]);
  });
});
