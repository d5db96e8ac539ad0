// Migration 0690 (ADR 0184, amendment 2026-12-06): the report writer's reorder_advice view names each
// product's supplier (trimmed, a blank one none) and the supplier's terms its advice was made under —
// case size, minimum order, and what the forecast needed before them — after the columns it had, and
// going back leaves the view as it was.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';

const BEFORE = ['product_id', 'product_code', 'product_name', 'current_stock', 'reorder_point', 'safety_stock', 'order_quantity', 'order_by', 'lead_time_days', 'stockout_date', 'generated_at', 'forecast_start'];
const ADDED = ['supplier', 'order_multiple', 'min_order_quantity', 'order_quantity_needed'];

describe.each(backends)('migration 0690 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-advice-supplier' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds the supplier, its case size and minimum order and the need before them to reorder_advice, after its columns, and takes them away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const columns = async () => (await sql<{ name: string }>`select attname as name from pg_attribute where attrelid = 'data.reorder_advice'::regclass and attnum > 0 and not attisdropped order by attnum`.execute(db)).rows.map((row) => row.name);
    expect((await migrator.migrateTo('0690-reorder-advice-names-the-supplier-and-its-terms')).error).toBeUndefined();
    expect(await columns()).toEqual([...BEFORE, ...ADDED]);

    const inserted = await db
      .insertInto('data.products')
      .values([
        { product_code: 'CASE-24', name: 'Tea lights', current_stock: 5, unit_cost: 1, lead_time_days: 7, supplier: ' Acme Wholesale ', order_multiple: 24, min_order_quantity: 48 },
        { product_code: 'LOOSE-1', name: 'Hot-water bottle', current_stock: 8, unit_cost: 3.1, lead_time_days: 7, supplier: '  ' },
      ])
      .returning(['id', 'product_code'])
      .execute();
    const idOf = (code: string) => inserted.find((row) => row.product_code === code)?.id as number;
    const start = '2026-12-06';
    await storeCatalogueAdvice(db, [
      { productId: idOf('CASE-24'), forecastStart: start, stockouts: [], reorder: { reorderPoint: 10, safetyStock: 2, orderQuantity: 48, orderQuantityNeeded: 40, orderMultiple: 24, minOrderQuantity: 48, orderBy: start, leadTimeDays: 7, serviceLevel: 0.95 } },
      // Terms that changed nothing (or none at all): the need is the order.
      { productId: idOf('LOOSE-1'), forecastStart: start, stockouts: [], reorder: { reorderPoint: 4, safetyStock: 1, orderQuantity: 6, orderBy: start, leadTimeDays: 7, serviceLevel: 0.95 } },
    ]);
    const read = () => sql<Record<string, unknown>>`select product_code, order_quantity, ${sql.join(ADDED.map((column) => sql.ref(column)))} from data.reorder_advice order by product_code`.execute(db);
    expect((await read()).rows).toEqual([
      { product_code: 'CASE-24', order_quantity: 48, supplier: 'Acme Wholesale', order_multiple: 24, min_order_quantity: 48, order_quantity_needed: 40 },
      { product_code: 'LOOSE-1', order_quantity: 6, supplier: null, order_multiple: null, min_order_quantity: null, order_quantity_needed: 6 },
    ]);

    expect((await migrator.migrateTo('0680-products-have-a-supplier')).error).toBeUndefined();
    expect(await columns()).toEqual(BEFORE);
    expect((await sql<{ order_quantity: number }>`select order_quantity from data.reorder_advice order by product_code`.execute(db)).rows).toEqual([{ order_quantity: 48 }, { order_quantity: 6 }]);

    expect((await migrator.migrateTo('0690-reorder-advice-names-the-supplier-and-its-terms')).error).toBeUndefined();
    expect(await columns()).toEqual([...BEFORE, ...ADDED]);
    expect((await read()).rows.map((row) => row.supplier)).toEqual(['Acme Wholesale', null]);
  });
});
