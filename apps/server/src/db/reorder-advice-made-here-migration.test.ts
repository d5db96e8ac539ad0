// Migration 0740 (ADR 0194, amendment 2026-12-06): the report writer's reorder_advice view says which
// products are made here — the product's column, blank read as false — after the columns it had, and
// keeps every product's row; going back leaves the view as migration 0690 left it.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';

const BEFORE = ['product_id', 'product_code', 'product_name', 'current_stock', 'reorder_point', 'safety_stock', 'order_quantity', 'order_by', 'lead_time_days', 'stockout_date', 'generated_at', 'forecast_start', 'supplier', 'order_multiple', 'min_order_quantity', 'order_quantity_needed'];

describe.each(backends)('migration 0740 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-advice-made-here' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('adds made_here to reorder_advice after its columns, true only for a product marked made here, and takes it away again', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const columns = async () => (await sql<{ name: string }>`select attname as name from pg_attribute where attrelid = 'data.reorder_advice'::regclass and attnum > 0 and not attisdropped order by attnum`.execute(db)).rows.map((row) => row.name);
    expect((await migrator.migrateTo('0740-reorder-advice-says-made-here')).error).toBeUndefined();
    expect(await columns()).toEqual([...BEFORE, 'made_here']);

    const inserted = await db
      .insertInto('data.products')
      .values([
        { product_code: 'CROISSANT', name: 'Croissant', current_stock: 4, unit_cost: 0.4, lead_time_days: 1, made_here: true },
        { product_code: 'MILK-2L', name: 'Milk 2L', current_stock: 6, unit_cost: 1.2, lead_time_days: 2, made_here: false },
        { product_code: 'BEANS-1KG', name: 'Beans 1kg', current_stock: 3, unit_cost: 9, lead_time_days: 5 },
      ])
      .returning(['id', 'product_code'])
      .execute();
    const start = '2026-12-06';
    await storeCatalogueAdvice(
      db,
      inserted.map((row) => ({ productId: row.id, forecastStart: start, stockouts: [], reorder: { reorderPoint: 8, safetyStock: 2, orderQuantity: 12, orderBy: start, leadTimeDays: 2, serviceLevel: 0.95 } })),
    );
    const read = async () => (await sql<{ product_code: string; made_here: boolean; order_quantity: number }>`select product_code, made_here, order_quantity from data.reorder_advice order by product_code`.execute(db)).rows;
    // Every stored advice is still a row (a report's stock figures read each product's forecast start here).
    expect(await read()).toEqual([
      { product_code: 'BEANS-1KG', made_here: false, order_quantity: 12 },
      { product_code: 'CROISSANT', made_here: true, order_quantity: 12 },
      { product_code: 'MILK-2L', made_here: false, order_quantity: 12 },
    ]);
    // The view reads the column live: a product marked on the Data screen moves at once.
    await db.updateTable('data.products').set({ made_here: true }).where('product_code', '=', 'BEANS-1KG').execute();
    expect((await read()).filter((row) => row.made_here).map((row) => row.product_code)).toEqual(['BEANS-1KG', 'CROISSANT']);

    expect((await migrator.migrateTo('0720-products-made-here')).error).toBeUndefined();
    expect(await columns()).toEqual(BEFORE);
    expect((await sql<{ product_code: string }>`select product_code from data.reorder_advice order by product_code`.execute(db)).rows.map((row) => row.product_code)).toEqual(['BEANS-1KG', 'CROISSANT', 'MILK-2L']);
    // Without the view reading it, the products' column can go back too.
    expect((await migrator.migrateTo('0710-forecast-tasks-of-a-list-of-products')).error).toBeUndefined();
    expect((await migrator.migrateTo('0740-reorder-advice-says-made-here')).error).toBeUndefined();
    expect(await columns()).toEqual([...BEFORE, 'made_here']);
  });
});
