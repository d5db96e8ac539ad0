// Migration 0620 (ADR 0176) on a database with whole-unit data: the quantities become numeric(14, 3)
// with their values kept, the catalogue's definitions of the columns say DecimalField (a product
// variation's copy too), the order-advice view reads on as before, and 0.25 is stored exactly.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { columnType } from '../testing/column-type.ts';

describe.each(backends)('migration 0620 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-quantities' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('keeps whole-unit data, makes every quantity numeric(14, 3) and its definition DecimalField, and stores 0.25 exactly', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0570-sales-imports-can-be-undone')).error).toBeUndefined();
    // As a database made before stores the catalogue: the definitions of the configuration of then.
    const whole = (key: string) => ({ key, label: key, type: 'IntegerField' });
    await sql`update data_tables set columns = ${JSON.stringify([{ key: 'product_code', type: 'CharField' }, whole('current_stock'), whole('lead_time_days')])}::jsonb where name = 'products'`.execute(db);
    await sql`update data_tables set columns = ${JSON.stringify([{ key: 'product_id', type: 'ForeignKey', related_table: 'products' }, whole('quantity')])}::jsonb where name = 'sales'`.execute(db);
    const { id } = await db.insertInto('data.products').values({ product_code: 'Q-1', name: 'Cheddar', current_stock: 7, unit_cost: 2, lead_time_days: 3 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values({ product_id: id, date: '2026-12-01', quantity: 3 }).execute();
    await sql`insert into sales_sources (sales_id, source, quantity) select id, 'file:Till', quantity from data.sales`.execute(db);

    await migrateToLatest(db);
    for (const [table, column] of [
      ['data.products', 'current_stock'],
      ['data.sales', 'quantity'],
      ['data.stock_snapshots', 'stock_level'],
      ['data.deliveries', 'quantity'],
      ['sales_sources', 'quantity'],
      ['sales_parts_before_run', 'previous_quantity'],
      ['sales_parts_before_import', 'previous_part'],
    ] as const) {
      expect(await columnType(database, table, column), `${table}.${column}`).toBe('numeric(14,3)');
    }
    const definitions = await sql<{ name: string; columns: { key: string; type: string; decimal_places?: number; max_digits?: number }[] }>`select name, columns from data_tables where name in ('products', 'sales') order by name`.execute(db);
    expect(definitions.rows.map(({ name, columns }) => [name, columns.filter((c) => ['current_stock', 'quantity', 'lead_time_days'].includes(c.key)).map(({ key, type, max_digits, decimal_places }) => [key, type, max_digits, decimal_places])])).toEqual([
      ['products', [['current_stock', 'DecimalField', 14, 3], ['lead_time_days', 'IntegerField', undefined, undefined]]],
      ['sales', [['quantity', 'DecimalField', 14, 3]]],
    ]);
    expect(await sql`select p.current_stock, s.quantity::text as quantity from data.products p join data.sales s on s.product_id = p.id`.execute(db).then((r) => r.rows)).toEqual([{ current_stock: 7, quantity: '3.000' }]);
    expect(await sql`select product_code, current_stock from data.reorder_advice`.execute(db).then((r) => r.rows)).toEqual([]);

    await sql`update data.sales set quantity = quantity + 0.1 + 0.2 - 3`.execute(db);
    expect(await sql`select quantity::text as quantity from data.sales`.execute(db).then((r) => r.rows)).toEqual([{ quantity: '0.300' }]);
  });
});
