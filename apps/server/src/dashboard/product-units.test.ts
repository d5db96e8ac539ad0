// The dashboard of a deli that sells cheese by the kg and jars by the piece (ADR 0177, amendment
// 2026-12-06 (2)): the stock projection and the monthly growth one unit at a time, beside the spec's
// figures that add every unit. Figures checked against arithmetic done by hand here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { refreshCatalogueSummary, upsertProductSummaries } from './repo.ts';
import { summariseForecast } from './summary.ts';

const FORECAST_START = '2025-11-21';
const DAY_MS = 86_400_000;
const MONTHS = ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04'];
/** Days from 2025-11-21 to each month end. */
const DAYS = [10, 41, 72, 100, 131, 161];
const BAND_Z = 1.281552;
const day = (offset: number) => new Date(Date.parse(`${FORECAST_START}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

/** A flat forecast: `perDay` a day for 90 days (then the same), a 95 % band of ± 1.96 σ. */
const flatForecast = (perDay: number, sigma: number) => ({
  forecast: Array.from({ length: 90 }, (_, i) => ({ ds: day(i), yhat: perDay, yhat_lower: perDay - 1.959964 * sigma, yhat_upper: perDay + 1.959964 * sigma, yhat_lower_80: 0, yhat_upper_80: 0 })),
  stockouts: [],
  reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: 0, orderBy: null, leadTimeDays: 14, serviceLevel: 0.95 },
});

/** Points of a medium line and its daily demand variance, where the band stays under the stock there could be. */
const points = (medium: number[], dailyVariance: number, places: number) => {
  const rounded = (value: number) => Math.round(value * 10 ** places) / 10 ** places;
  return MONTHS.map((month, i) => {
    const spread = BAND_Z * Math.sqrt(dailyVariance * (DAYS[i] as number));
    return { month, medium: rounded(medium[i] as number), high: rounded((medium[i] as number) + spread), low: rounded(Math.max(0, (medium[i] as number) - spread)) };
  });
};

describe.each(backends)('a dashboard of kilos and pieces on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const dashboard = async () => {
    const response = await server.request('/api/dashboard/', { token });
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as DashboardResponse;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'viewer' })).access;
    const db = server.database.db;
    const add = async (code: string, unit: string | null, counts: [string, number][]) => {
      const { id } = await db.insertInto('data.products').values({ product_code: code, name: `Product ${code}`, unit, current_stock: 0, unit_cost: 1, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('data.stock_snapshots').values(counts.map(([date, stock_level]) => ({ product_id: id, date, stock_level }))).execute();
      return id;
    };
    // Jars: 300 a month before, 400 now; 2 a day, σ 1; 50 arriving on 15 Dec.
    const jar = await add('JAR', null, [['2025-10-01', 300], ['2025-11-20', 400]]);
    // Cheddar: 25 kg a month before, 20.3 kg now; 0.1 kg a day, σ 0.02 kg.
    const cheddar = await add('CHE', 'kg', [['2025-10-01', 25], ['2025-11-20', 20.3]]);
    // Brie, its unit written otherwise: the same unit; counted only now (not growth), no forecast.
    await add('BRI', ' KG ', [['2025-11-20', 5]]);
    // Pencils, their unit written "Stk" as a German till's file writes it: pieces; 100 both times, no forecast.
    await add('PEN', 'Stk', [['2025-10-01', 100], ['2025-11-20', 100]]);
    await db.insertInto('data.deliveries').values({ product_id: jar, expected_date: '2025-12-15', quantity: 50 }).execute();
    await upsertProductSummaries(db, [
      { productId: jar, forecastStart: FORECAST_START, ...summariseForecast(flatForecast(2, 1), FORECAST_START) },
      { productId: cheddar, forecastStart: FORECAST_START, ...summariseForecast(flatForecast(0.1, 0.02), FORECAST_START) },
    ]);
    await refreshCatalogueSummary(db);
  });
  afterAll(() => server.stop());

  it('projects each unit apart, pieces first, a unit of measure to a tenth, and keeps the spec\'s projection of every unit added', async () => {
    const result = await dashboard();
    // Jars: 400 − 2 a day, + 50 from December: 380, 368, 306, 250, 188, 128; and the 100 pencils.
    const jars = [480, 468, 406, 350, 288, 228];
    // Kilos: 20.3 − 0.1 a day, + Brie's 5: 24.3, 21.2, 18.1, 15.3, 12.2, 9.2.
    const kilos = [24.3, 21.2, 18.1, 15.3, 12.2, 9.2];
    expect(result.stockProjectionByUnit.map(({ unit, products }) => [unit?.toLowerCase() ?? null, products])).toEqual([
      [null, 2],
      ['kg', 2],
    ]);
    expect(result.stockProjectionByUnit[0]?.points).toEqual(points(jars, 1, 0));
    expect(result.stockProjectionByUnit[1]?.points).toEqual(points(kilos, 0.02 ** 2, 1));
    // The spec's field: both added, the band of the demand of both, whole figures (as before units).
    expect(result.stockProjection).toEqual(points(jars.map((jar, i) => jar + (kilos[i] as number)), 1 + 0.02 ** 2, 0));
  });

  it('says the growth of each unit apart, beside the one figure of every unit added', async () => {
    const stats = (await dashboard()).inventoryStats;
    // Jars and pencils 400 → 500: +25 %; cheddar 25 → 20.3 kg: −18.8 %; Brie was not counted a month before, so is in neither.
    expect(stats?.growthByUnit.map(({ unit, percent }) => [unit?.toLowerCase() ?? null, percent])).toEqual([
      [null, 25],
      ['kg', -18.8],
    ]);
    // The spec's figure: 425 → 520.3, +22.4 %.
    expect(stats?.monthlyGrowth).toBe(22.4);
  });

  it('leaves out a unit without a month of stock history', async () => {
    const db = server.database.db;
    await db.deleteFrom('data.stock_snapshots').where('date', '=', '2025-10-01').where('stock_level', '=', 25).execute();
    await refreshCatalogueSummary(db);
    const stats = (await dashboard()).inventoryStats;
    expect(stats?.growthByUnit).toEqual([{ unit: null, percent: 25 }]);
    expect(stats?.monthlyGrowth).toBe(25);
  });
});
