// Migration 0750 (ADR 0200) on a database whose catalogue already holds the products' columns and a
// variation of products: both tables get a nullable boolean not_stocked, its definition listed after
// made_here, stored rows keep their values (and are stocked), and going back removes it.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0750 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-not-stocked' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds not_stocked to products and its variations after made_here, and takes it away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0740-reorder-advice-says-made-here')).error).toBeUndefined();
    const stored = [
      { key: 'product_code', type: 'CharField' },
      { key: 'supplier', type: 'CharField' },
      { key: 'made_here', type: 'BooleanField' },
      { key: 'units_sold_30d', type: 'query', query_name: 'units_sold_last_30_days' },
    ];
    // The variation's own order: made here first, the supplier last (a shop moved them).
    const variation = [stored[0], stored[2], stored[3], stored[1]];
    await sql`update data_tables set columns = ${JSON.stringify(stored)}::jsonb where name = 'products'`.execute(db);
    await sql`create table data.products_v1 (like data.products)`.execute(db);
    await sql`insert into data_tables (name, encoded_name, base_table, parent_id, variation_number, columns) values ('products #1', 'products_v1', 'products', 1, 1, ${JSON.stringify(variation)}::jsonb)`.execute(db);
    await db.insertInto('data.products').values({ product_code: 'SERV_DEL', name: 'Delivery Charge', current_stock: 0, unit_cost: 0, lead_time_days: 14 }).execute();
    await sql`insert into data.products_v1 (id, product_code, name, current_stock, unit_cost, lead_time_days) values (99, 'PAP_A4', 'Copier Paper', 0, 3, 5)`.execute(db);

    expect((await migrator.migrateTo('0750-products-not-stocked')).error).toBeUndefined();
    const keys = async () => (await sql<{ name: string; keys: string[] }>`select name, array(select c->>'key' from jsonb_array_elements(columns) with ordinality e(c, at) order by at) as keys from data_tables where name like 'products%' order by name`.execute(db)).rows;
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'supplier', 'made_here', 'not_stocked', 'units_sold_30d'] },
      // After the last of the supplier's columns and made_here, wherever the shop put them.
      { name: 'products #1', keys: ['product_code', 'made_here', 'units_sold_30d', 'supplier', 'not_stocked'] },
    ]);
    const definition = (await sql<{ c: unknown }>`select c from data_tables, jsonb_array_elements(columns) c where name = 'products' and c->>'key' = 'not_stocked'`.execute(db)).rows[0]?.c;
    expect(definition).toEqual({ key: 'not_stocked', label: 'Not stocked (a service or fee)', type: 'BooleanField' });
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'not_stocked'), table).toBe('boolean');
    // Stored rows are stocked until marked; the column takes true, false and none.
    expect(await db.selectFrom('data.products').select(['product_code', 'not_stocked']).execute()).toEqual([{ product_code: 'SERV_DEL', not_stocked: null }]);
    expect((await sql<{ not_stocked: boolean | null }>`select not_stocked from data.products_v1`.execute(db)).rows).toEqual([{ not_stocked: null }]);
    await db.updateTable('data.products').set({ not_stocked: true }).execute();
    expect(await db.selectFrom('data.products').select('not_stocked').executeTakeFirst()).toEqual({ not_stocked: true });
    // Back: the definitions and the columns go, the rows with their other values kept; made_here stays.
    expect((await migrator.migrateTo('0740-reorder-advice-says-made-here')).error).toBeUndefined();
    expect(await keys()).toEqual([
      { name: 'products', keys: stored.map((c) => c.key) },
      { name: 'products #1', keys: variation.map((c) => c!.key) },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'not_stocked'), table).toBeUndefined();
    expect(await columnType(database, 'data.products', 'made_here')).toBe('boolean');
    expect(await db.selectFrom('data.products').select(['product_code', 'lead_time_days']).execute()).toEqual([{ product_code: 'SERV_DEL', lead_time_days: 14 }]);
  });
});
