import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db/database.ts';
import { seedDemoData } from './seed.ts';

const today = new Date('2026-11-22T00:00:00Z');

async function seededDatabase(): Promise<AppDatabase> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { password: 'stockwise-demo', today, productCount: 60 });
  return database;
}

describe('demo data', () => {
  let first: AppDatabase;
  let second: AppDatabase;
  beforeAll(async () => {
    [first, second] = await Promise.all([seededDatabase(), seededDatabase()]);
  });
  afterAll(() => Promise.all([first.close(), second.close()]));

  const fingerprint = (database: AppDatabase) =>
    sql<{ products: number; sales: number; units: number; snapshots: number; deliveries: number }>`
      select (select count(*)::int from data.products) as products,
             (select count(*)::int from data.sales) as sales,
             (select coalesce(sum(quantity * product_id), 0)::int from data.sales) as units,
             (select coalesce(sum(stock_level), 0)::int from data.stock_snapshots) as snapshots,
             (select coalesce(sum(quantity), 0)::int from data.deliveries) as deliveries`
      .execute(database.db)
      .then((result) => result.rows[0]);

  it('is deterministic for a given day', async () => {
    expect(await fingerprint(first)).toEqual(await fingerprint(second));
  });

  it('does nothing on a database that already has data', async () => {
    expect(await seedDemoData(first.db, { password: 'stockwise-demo', today })).toMatchObject({ seeded: false });
  });

  it('covers two years of daily sales ending yesterday', async () => {
    const { rows } = await sql<{ first: string; last: string }>`select min(date)::text as first, max(date)::text as last from data.sales`.execute(first.db);
    expect(rows[0]?.last).toBe('2026-11-21');
    expect(rows[0]?.first.startsWith('2024-11')).toBe(true);
  });

  it('has weekly seasonality: Saturdays outsell Sundays', async () => {
    const { rows } = await sql<{ dow: number; units: number }>`
      select extract(isodow from date)::int as dow, sum(quantity)::int as units from data.sales group by 1`.execute(first.db);
    const units = (dow: number) => rows.find((r) => r.dow === dow)?.units ?? 0;
    expect(units(6)).toBeGreaterThan(units(7) * 1.2);
  });

  it('has intermittent slow movers, stockouts and upcoming deliveries', async () => {
    const { rows } = await sql<{ slow: number; stockouts: number; upcoming: number }>`
      select (select count(*)::int from (select product_id from data.sales group by product_id having count(*) < 365) s) as slow,
             (select count(*)::int from data.stock_snapshots where stock_level <= 0) as stockouts,
             (select count(*)::int from data.deliveries where status = 'scheduled' and expected_date >= ${'2026-11-22'}::date) as upcoming`.execute(first.db);
    expect(rows[0]?.slow).toBeGreaterThan(3);
    expect(rows[0]?.stockouts).toBeGreaterThan(0);
    expect(rows[0]?.upcoming).toBeGreaterThan(0);
  });

  it('keeps current stock equal to the last snapshot', async () => {
    const { rows } = await sql<{ mismatches: number }>`
      select count(*)::int as mismatches from data.products p
      where p.current_stock <> (select stock_level from data.stock_snapshots s where s.product_id = p.id order by date desc limit 1)`.execute(first.db);
    expect(rows[0]?.mismatches).toBe(0);
  });
});
