import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, pendingMigrations, type DatabaseTarget } from './database.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function persistentTarget(backend: (typeof backends)[number]): Promise<DatabaseTarget> {
  const database = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-disk', { namePrefix: 'stockwise-db' });
  cleanups.push(database.drop);
  return database.target;
}

describe.each(backends)('database on %s', (backend) => {
  it('migrates fully and keeps data across a restart', async () => {
    const target = await persistentTarget(backend);
    const first = await openDatabase(target);
    await migrateToLatest(first.db);
    expect(await pendingMigrations(first.db)).toEqual([]);
    await first.db.insertInto('data.products').values({ product_code: 'P-1', name: 'Kept', current_stock: 5, unit_cost: 1.25, lead_time_days: 3 }).execute();
    await first.close();

    const second = await openDatabase(target);
    await migrateToLatest(second.db);
    const row = await second.db.selectFrom('data.products').select(['product_code', 'unit_cost']).executeTakeFirst();
    await second.close();
    expect(row).toEqual({ product_code: 'P-1', unit_cost: 1.25 });
  });

  it('reads dates as YYYY-MM-DD and bigint ids as numbers on both drivers', async () => {
    const database = await openDatabase(await persistentTarget(backend));
    await migrateToLatest(database.db);
    const { id } = await database.db.insertInto('data.products').values({ product_code: 'P-2', name: 'Dated', current_stock: 0, unit_cost: 0, lead_time_days: 1 }).returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('data.sales').values({ product_id: id, date: '2026-01-31', quantity: 4 }).execute();
    const sale = await database.db.selectFrom('data.sales').select(['product_id', 'date']).executeTakeFirstOrThrow();
    await database.close();
    expect(sale).toEqual({ product_id: id, date: '2026-01-31' });
    expect(typeof id).toBe('number');
  });
});
