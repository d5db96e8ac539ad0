// Migration 0660 (ADR 0177, amendment 2026-12-06 (2)) on a shop that has counted stock: the dashboard's
// summary gets the growth's two sums per product unit from the counts at once, not at the next forecast
// run; going back removes them.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.ts';
import { backends, useMigratedDatabase } from '../testing/test-server.ts';

describe.each(backends)('migration 0660 on %s', (backend) => {
  // Migrated to the latest, then taken back to before 0660: a shop as it is when it upgrades.
  const database = useMigratedDatabase(backend, 'stockwise-growth-per-unit');

  it('sums the stock a month apart per unit as stored, and takes the sums away again', async () => {
    const { db } = database();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0630-products-have-a-unit')).error).toBeUndefined();
    const add = async (code: string, unit: string | null, counts: [string, number][]) => {
      const { id } = await db.insertInto('data.products').values({ product_code: code, name: code, unit, current_stock: 0, unit_cost: 1, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('data.stock_snapshots').values(counts.map(([date, stock_level]) => ({ product_id: id, date, stock_level }))).execute();
    };
    await add('JAR', null, [['2025-10-01', 300], ['2025-11-20', 400]]);
    await add('CHE', 'kg', [['2025-10-01', 25], ['2025-11-20', 20.3]]);
    // Counted only since the month-old day: in neither sum.
    await add('BRI', 'kg', [['2025-11-20', 5]]);
    await sql`insert into dashboard_catalogue_summary (id, snapshot_date, snapshot_units, previous_date, previous_units) values (1, '2025-11-20', 425.3, '2025-10-20', 325)`.execute(db);

    expect((await migrator.migrateTo('0660-growth-per-unit')).error).toBeUndefined();
    const { rows } = await sql<{ sums: { unit: string | null; now: number; before: number }[] }>`select snapshot_units_by_unit as sums from dashboard_catalogue_summary`.execute(db);
    expect([...(rows[0]?.sums ?? [])].sort((a, b) => String(a.unit).localeCompare(String(b.unit)))).toEqual([
      { unit: 'kg', now: 20.3, before: 25 },
      { unit: null, now: 400, before: 300 },
    ]);

    expect((await migrator.migrateTo('0630-products-have-a-unit')).error).toBeUndefined();
    expect((await sql<{ name: string }>`select attname as name from pg_attribute where attrelid = 'dashboard_catalogue_summary'::regclass and attname = 'snapshot_units_by_unit' and not attisdropped`.execute(db)).rows).toEqual([]);
  });
});
