// Migration 0680 (ADR 0184) on a database whose catalogue already holds the products' columns: the
// products table and its variation get a supplier, its definition listed before the lead time, and
// going back removes it.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0680 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-supplier' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds the supplier to products and its variations before the lead time, and takes it away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0660-growth-per-unit')).error).toBeUndefined();
    const stored = [
      { key: 'product_code', type: 'CharField' },
      { key: 'unit_cost', type: 'DecimalField' },
      { key: 'lead_time_days', type: 'IntegerField' },
      { key: 'order_multiple', type: 'DecimalField' },
    ];
    await sql`update data_tables set columns = ${JSON.stringify(stored)}::jsonb where name = 'products'`.execute(db);
    await sql`create table data.products_v1 (like data.products)`.execute(db);
    await sql`insert into data_tables (name, encoded_name, base_table, parent_id, variation_number, columns) values ('products #1', 'products_v1', 'products', 1, 1, ${JSON.stringify(stored.slice(0, 2))}::jsonb)`.execute(db);
    const { id } = await db.insertInto('data.products').values({ product_code: 'HWB-24', name: 'Hot-water bottle', current_stock: 8, unit_cost: 3.1, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();

    expect((await migrator.migrateTo('0680-products-have-a-supplier')).error).toBeUndefined();
    const keys = async () => (await sql<{ name: string; keys: string[] }>`select name, array(select c->>'key' from jsonb_array_elements(columns) with ordinality e(c, at) order by at) as keys from data_tables where name like 'products%' order by name`.execute(db)).rows;
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'unit_cost', 'supplier', 'lead_time_days', 'order_multiple'] },
      // A variation without a lead time: last.
      { name: 'products #1', keys: ['product_code', 'unit_cost', 'supplier'] },
    ]);
    const definition = (await sql<{ c: unknown }>`select c from data_tables, jsonb_array_elements(columns) c where name = 'products' and c->>'key' = 'supplier'`.execute(db)).rows[0]?.c;
    expect(definition).toEqual({ key: 'supplier', label: 'Supplier', type: 'CharField', max_length: 200 });
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'supplier'), table).toBe('character varying(200)');
    expect(await db.selectFrom('data.products').select('supplier').execute()).toEqual([{ supplier: null }]);
    await db.updateTable('data.products').set({ supplier: 'Acme Wholesale' }).where('id', '=', id).execute();
    expect(await db.selectFrom('data.products').select('supplier').execute()).toEqual([{ supplier: 'Acme Wholesale' }]);

    expect((await migrator.migrateTo('0660-growth-per-unit')).error).toBeUndefined();
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'unit_cost', 'lead_time_days', 'order_multiple'] },
      { name: 'products #1', keys: ['product_code', 'unit_cost'] },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'supplier'), table).toBeUndefined();
  });
});
