import { sql } from 'kysely';
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

describe.each(backends)('sales history on %s (migration 0160)', (backend) => {
  it('reads a product’s sales from the index alone, and upserts a day’s sales as before', async () => {
    const database = await openDatabase(await persistentTarget(backend));
    await migrateToLatest(database.db);
    const { db } = database;
    const { id } = await db.insertInto('data.products').values({ product_code: 'P-3', name: 'Sold', current_stock: 0, unit_cost: 0, lead_time_days: 1 }).returning('id').executeTakeFirstOrThrow();
    await sql`insert into data.sales (product_id, date, quantity) select ${id}, d::date, 2 from generate_series(date '2026-01-01', date '2026-03-31', interval '1 day') as d`.execute(db);
    await sql`insert into data.sales (product_id, date, quantity) values (${id}, date '2026-01-01', 5) on conflict (product_id, date) do update set quantity = excluded.quantity`.execute(db);
    await sql`vacuum data.sales`.execute(db);
    const plan = await db.transaction().execute(async (trx) => {
      // The planner would take a table this small whole; the question is only what the index can answer.
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select date, quantity from data.sales where product_id = ${id} and date >= date '2026-01-01'`.execute(trx);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    const sold = await db.selectFrom('data.sales').select((eb) => eb.fn.sum<number>('quantity').as('units')).where('product_id', '=', id).executeTakeFirstOrThrow();
    await database.close();
    expect(plan).toContain('Index Only Scan using sales_product_id_date_key');
    expect(Number(sold.units)).toBe(90 * 2 + 3);
  });
});
