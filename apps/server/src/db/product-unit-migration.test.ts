// Migration 0630 (ADR 0177) on a database whose catalogue already holds the products' columns: the
// products table and its variation get a `unit` column, their definitions list it after the current
// stock, and going back removes both.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0630 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-product-unit' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds the unit to products and its variations after the current stock, and takes it away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0620-quantities-by-weight-or-length')).error).toBeUndefined();
    const stored = [
      { key: 'product_code', type: 'CharField' },
      { key: 'current_stock', type: 'DecimalField', max_digits: 14, decimal_places: 3 },
      { key: 'lead_time_days', type: 'IntegerField' },
    ];
    await sql`update data_tables set columns = ${JSON.stringify(stored)}::jsonb where name = 'products'`.execute(db);
    await sql`create table data.products_v1 (like data.products)`.execute(db);
    await sql`insert into data_tables (name, encoded_name, base_table, parent_id, variation_number, columns) values ('products #1', 'products_v1', 'products', 1, 1, ${JSON.stringify(stored)}::jsonb)`.execute(db);
    const { id } = await db.insertInto('data.products').values({ product_code: 'CHE-001', name: 'Cheddar', current_stock: 8.5, unit_cost: 9.8, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();

    expect((await migrator.migrateTo('0630-products-have-a-unit')).error).toBeUndefined();
    const keys = async () => (await sql<{ name: string; keys: string[] }>`select name, array(select c->>'key' from jsonb_array_elements(columns) with ordinality e(c, at) order by at) as keys from data_tables where name like 'products%' order by name`.execute(db)).rows;
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'current_stock', 'unit', 'lead_time_days'] },
      { name: 'products #1', keys: ['product_code', 'current_stock', 'unit', 'lead_time_days'] },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'unit'), table).toBe('character varying(12)');
    await db.updateTable('data.products').set({ unit: 'kg' }).where('id', '=', id).execute();
    expect(await db.selectFrom('data.products').select(['unit', 'current_stock']).execute()).toEqual([{ unit: 'kg', current_stock: 8.5 }]);

    expect((await migrator.migrateTo('0620-quantities-by-weight-or-length')).error).toBeUndefined();
    expect(await keys()).toEqual([
      { name: 'products', keys: ['product_code', 'current_stock', 'lead_time_days'] },
      { name: 'products #1', keys: ['product_code', 'current_stock', 'lead_time_days'] },
    ]);
    for (const table of ['data.products', 'data.products_v1']) expect(await columnType(database, table, 'unit'), table).toBeUndefined();
  });
});
