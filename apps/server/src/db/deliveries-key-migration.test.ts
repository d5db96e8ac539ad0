// Migration 0670 (ADR 0182, amendment 2026-12-06): a database that repeated a product's delivery day
// when 0020 ran has no unique key on the deliveries. Cleaned up since, it gets the key; still
// repeating a day, it keeps every row as it is and no key; run twice, it changes nothing more.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';

describe.each(backends)('migration 0670 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-deliveries-key' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  const hasKey = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from pg_indexes where schemaname = 'data' and indexname = 'deliveries_product_expected_date'`.execute(database.db)).rows[0]!.n === 1;
  const deliveries = async () =>
    (await sql<{ expected_date: string; quantity: number; status: string }>`select expected_date::text as expected_date, quantity::float8 as quantity, status from data.deliveries order by id`.execute(database.db)).rows;

  it('keys the deliveries once no day repeats, keeps every repeated one otherwise, and runs again harmlessly', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0660-growth-per-unit')).error).toBeUndefined();
    // A database as 0020 left it when its deliveries repeated a day: no key.
    await sql`drop index data.deliveries_product_expected_date`.execute(db);
    const { id } = await db.insertInto('data.products').values({ product_code: 'HWB-24', name: 'Hot-water bottle', current_stock: 8, unit_cost: 3.1, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();
    const repeated = [
      { product_id: id, expected_date: '2027-01-04', quantity: 10, status: 'scheduled' as const },
      { product_id: id, expected_date: '2027-01-04', quantity: 5, status: 'received' as const },
    ];
    await db.insertInto('data.deliveries').values(repeated).execute();

    await migrations['0670-deliveries-keyed-once-the-days-are-single']!.up(db);
    expect(await hasKey()).toBe(false);
    expect(await deliveries()).toEqual([
      { expected_date: '2027-01-04', quantity: 10, status: 'scheduled' },
      { expected_date: '2027-01-04', quantity: 5, status: 'received' },
    ]);

    // Its owner moved the second to the day it came: the migration keys the table.
    await sql`update data.deliveries set expected_date = '2027-01-05' where status = 'received'`.execute(db);
    expect((await migrator.migrateTo('0670-deliveries-keyed-once-the-days-are-single')).error).toBeUndefined();
    expect(await hasKey()).toBe(true);
    expect(await deliveries()).toHaveLength(2);
    await expect(db.insertInto('data.deliveries').values({ ...repeated[0]!, expected_date: '2027-01-05' }).execute()).rejects.toThrow(/duplicate key/);
    // A database that kept 0020's key, or ran this twice, is left as it is.
    await migrations['0670-deliveries-keyed-once-the-days-are-single']!.up(db);
    expect(await hasKey()).toBe(true);
  });
});
