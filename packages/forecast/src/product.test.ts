import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectOrderedBands } from './bands.test-data.ts';
import { forecastBatch, forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';

const DAY_MS = 86_400_000;
const day = (t: number): string => new Date(Date.parse('2025-01-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);
const salesOf = (values: number[]) => values.map((y, t) => ({ ds: day(t), y }));

function ok(input: ProductForecastInput): ProductForecast {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

const weeklySales = (days: number, level = 20): number[] => Array.from({ length: days }, (_, t) => Math.round(level * (t % 7 >= 5 ? 1.6 : 1) + ((t * 7) % 5)));

describe('forecastProduct', () => {
  it('produces horizon rows with ordered 80% and 95% bands and a Prophet-style shape', () => {
    const result = ok({ sales: salesOf(weeklySales(200)), horizon: 30 });
    expect(result.forecast).toHaveLength(30);
    expect(result.forecast[0]!.ds).toBe(day(200));
    for (const row of result.forecast) {
      expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat_lower_80);
      expect(row.yhat_lower_80).toBeLessThanOrEqual(row.yhat);
      expect(row.yhat).toBeLessThanOrEqual(row.yhat_upper_80);
      expect(row.yhat_upper_80).toBeLessThanOrEqual(row.yhat_upper);
    }
    expect(result.model.demandClass).toBe('smooth');
    expect(result.backtest.length).toBeGreaterThan(0);
    expect(result.model.backtest.mase).toBeGreaterThanOrEqual(0);
  });

  it('learns the weekday pattern', () => {
    const result = ok({ sales: salesOf(weeklySales(210)), horizon: 14 });
    const weekend = result.forecast.filter((row) => [5, 6].includes((Date.parse(row.ds) / DAY_MS - Date.parse(day(0)) / DAY_MS) % 7));
    const weekday = result.forecast.filter((row) => ![5, 6].includes((Date.parse(row.ds) / DAY_MS - Date.parse(day(0)) / DAY_MS) % 7));
    const average = (rows: { yhat: number }[]): number => rows.reduce((s, r) => s + r.yhat, 0) / rows.length;
    expect(average(weekend)).toBeGreaterThan(1.3 * average(weekday));
  });

  it('follows the yearly wave when there are two years or more of history', () => {
    const truth = (t: number): number => 30 + 12 * Math.sin((2 * Math.PI * t) / 365.25) + (t % 7 === 5 ? 6 : 0);
    const result = ok({ sales: salesOf(Array.from({ length: 800 }, (_, t) => Math.round(truth(t)))), horizon: 90 });
    const error = result.forecast.reduce((sum, row, j) => sum + Math.abs(row.yhat - truth(800 + j)), 0) / 90;
    const flatError = result.forecast.reduce((sum, _, j) => sum + Math.abs(truth(799) - truth(800 + j)), 0) / 90;
    expect(error).toBeLessThan(flatError / 2);
  });

  it('treats out-of-stock days as censored, not as zero demand', () => {
    const values = Array.from({ length: 120 }, (_, t) => (t >= 90 ? 0 : 10));
    const stock = [{ ds: day(0), stock_level: 500 }, { ds: day(90), stock_level: 0 }];
    const censored = ok({ sales: salesOf(values), stock, horizon: 7 });
    const naive = ok({ sales: salesOf(values), horizon: 7 });
    expect(censored.forecast[0]!.yhat).toBeGreaterThan(8);
    expect(naive.forecast[0]!.yhat).toBeLessThan(censored.forecast[0]!.yhat);
  });

  it('ends a zero count at the next sale or delivery: a shop that restocked without counting again keeps its sales', () => {
    // Counted empty on day 30, restocked, never counted again; it sells 10 a day from then on, up from 5.
    const values = Array.from({ length: 150 }, (_, t) => (t < 30 ? 5 : t === 30 ? 2 : 10));
    const stock = [{ ds: day(0), stock_level: 100 }, { ds: day(30), stock_level: 0 }];
    const restocked = ok({ sales: salesOf(values), stock, horizon: 7 });
    // Read as out of stock ever since, its 120 days of 10 were replaced by the 5 of before.
    expect(restocked.forecast[0]!.yhat).toBeGreaterThan(9);
    expect(restocked.forecast[0]!.yhat).toBeLessThan(11);
    // A delivery ends it too: the days after it with no sale are quiet days, not days out of stock.
    const quiet = Array.from({ length: 120 }, (_, t) => (t < 30 ? 5 : 0));
    const delivered = ok({ sales: salesOf(quiet), stock: [{ ds: day(29), stock_level: 0 }], deliveries: [{ ds: day(31), quantity: 50 }], horizon: 7 });
    expect(delivered.forecast[0]!.yhat).toBeLessThan(1);
    expect(ok({ sales: salesOf(quiet), stock: [{ ds: day(29), stock_level: 0 }], horizon: 7 }).forecast[0]!.yhat).toBeGreaterThan(4);
  });

  it('forecasts a product that sold out every day it sold at its sales rate, not at zero (ADR 0138)', () => {
    // Twenty delivered every Monday and sold out that day; counted empty each Monday evening. Every
    // other day is out of stock: no day shows demand, but twenty a week is its floor.
    const values = Array.from({ length: 140 }, (_, t) => (t % 7 === 0 ? 20 : 0));
    const stock = values.flatMap((units, t) => (units > 0 ? [{ ds: day(t), stock_level: 0 }] : []));
    const deliveries = values.flatMap((units, t) => (units > 0 ? [{ ds: day(t), quantity: 20 }] : []));
    const result = ok({ sales: salesOf(values), stock, deliveries, horizon: 28, leadTimeDays: 7 });
    expect(result.model.name).toBe('RecentMean');
    expect(result.forecast[0]!.yhat).toBeCloseTo(20 / 7, 6);
    expect(result.model.description).toMatch(/^It sold out on every day it sold \(20 days in 140 days\)/);
    expect(result.reorder.orderQuantity).toBeGreaterThan(0);
    for (const row of result.forecast) expect(row.yhat_upper).toBeGreaterThan(row.yhat);
  });

  it('a product out of stock already runs out on the first day demand is expected, with an order to place that day', () => {
    const sales = salesOf(new Array<number>(100).fill(10));
    for (const onHand of [0, -3]) {
      const result = ok({ sales, stock: [{ ds: day(99), stock_level: onHand }], horizon: 20, leadTimeDays: 5 });
      expect(result.stockouts).toEqual([
        { date: day(100), type: 'stockForecast' },
        { date: day(100), type: 'stockLowerBound' },
      ]);
      expect(result.reorder.orderBy).toBe(day(100));
      expect(result.reorder.orderQuantity).toBeGreaterThan(50);
    }
    // A delivery on the third day refills it; the next stockout is a crossing as any other.
    const refilled = ok({ sales, stock: [{ ds: day(99), stock_level: 0 }], deliveries: [{ ds: day(102), quantity: 60 }], horizon: 20, leadTimeDays: 5 });
    const expected = refilled.stockouts.filter((s) => s.type === 'stockForecast').map((s) => s.date);
    expect(expected).toEqual([day(100), day(105)]);
  });

  it('an empty shelf with no demand expected does not run out; what it may sell is covered by its safety stock (ADR 0113)', () => {
    const result = ok({ sales: salesOf(new Array<number>(100).fill(0)), stock: [{ ds: day(99), stock_level: 0 }], horizon: 30, leadTimeDays: 5 });
    expect(result.stockouts.filter((s) => s.type === 'stockForecast')).toEqual([]);
    expect(result.stockouts).toEqual([{ date: day(100), type: 'stockLowerBound' }]);
    expect(result.reorder.orderQuantity).toBe(result.reorder.safetyStock);
    expect(result.reorder.orderBy).toBe(day(100));
  });

  it('projects stock from the last snapshot, adds deliveries and reports stockouts', () => {
    const sales = salesOf(new Array<number>(100).fill(10));
    const result = ok({ sales, stock: [{ ds: day(99), stock_level: 55 }], deliveries: [{ ds: day(110), quantity: 100 }], horizon: 20, leadTimeDays: 3 });
    expect(result.stock[0]!.stock_level).toBeCloseTo(55 - result.forecast[0]!.yhat, 6);
    const stockout = result.stockouts.find((s) => s.type === 'stockForecast');
    expect(stockout?.date).toBe(day(105));
    expect(result.stockouts.some((s) => s.type === 'stockLowerBound')).toBe(true);
    expect(result.reorder.orderBy).not.toBeNull();
    expect(result.reorder.orderBy! <= day(103)).toBe(true);
    expect(result.reorder.reorderPoint).toBeGreaterThanOrEqual(30);
    expect(result.reorder.orderQuantity).toBeGreaterThan(0);
  });

  it('takes a snapshot counted on the first forecast day as the opening stock', () => {
    const result = ok({ sales: salesOf(new Array<number>(60).fill(4)), stock: [{ ds: day(60), stock_level: 40 }], horizon: 5 });
    expect(result.stock[0]!.stock_level).toBeCloseTo(40 - result.forecast[0]!.yhat, 6);
  });

  it("takes a count dated up to two days after the first forecast day (a writer's day ahead of the shop's) as the opening stock, the latest first; a later one is not history yet", () => {
    const sales = salesOf(new Array<number>(60).fill(4));
    for (const ahead of [1, 2]) {
      const result = ok({ sales, stock: [{ ds: day(59), stock_level: 90 }, { ds: day(60 + ahead), stock_level: 40 }], horizon: 5 });
      expect(result.stock[0]!.stock_level).toBeCloseTo(40 - result.forecast[0]!.yhat, 6);
    }
    const both = ok({ sales, stock: [{ ds: day(62), stock_level: 30 }, { ds: day(61), stock_level: 40 }], horizon: 5 });
    expect(both.stock[0]!.stock_level).toBeCloseTo(30 - both.forecast[0]!.yhat, 6);
    const later = ok({ sales, stock: [{ ds: day(59), stock_level: 90 }, { ds: day(63), stock_level: 40 }], horizon: 5 });
    expect(later.stock[0]!.stock_level).toBeCloseTo(90 - later.forecast[0]!.yhat, 6);
  });

  it('applies a learnt promotion uplift to future promotion days', () => {
    const promotions = Array.from({ length: 12 }, (_, k) => day(10 + 14 * k));
    const values = Array.from({ length: 180 }, (_, t) => (promotions.includes(day(t)) ? 30 : 10));
    const future = day(185);
    const result = ok({ sales: salesOf(values), horizon: 10, regressors: { events: [{ name: 'promo', dates: [...promotions, future] }] } });
    const promoted = result.forecast.find((row) => row.ds === future)!;
    const normal = result.forecast.find((row) => row.ds === day(184))!;
    expect(promoted.yhat).toBeGreaterThan(1.8 * normal.yhat);
  });

  it('classifies and forecasts a slow intermittent seller with a rate, not zeros', () => {
    const values = Array.from({ length: 300 }, (_, t) => (t % 5 === 0 ? 2 : 0));
    const result = ok({ sales: salesOf(values), horizon: 10 });
    expect(['intermittent', 'lumpy']).toContain(result.model.demandClass);
    expect(result.forecast[0]!.yhat).toBeGreaterThan(0.2);
    expect(result.forecast[0]!.yhat).toBeLessThan(0.8);
  });

  it('gives whole-unit bands to sales counted in units, continuous ones to sales in kilograms', () => {
    const units = Array.from({ length: 300 }, (_, t) => [0, 0, 1, 0, 2, 0, 0, 1, 3][(t * 5) % 9]!);
    const counted = ok({ sales: salesOf(units), horizon: 14 });
    const weighed = ok({ sales: salesOf(units.map((y) => y * 0.37)), horizon: 14 });
    const bounds = (result: ProductForecast): number[] => result.forecast.flatMap((row) => [row.yhat_lower, row.yhat_upper, row.yhat_lower_80, row.yhat_upper_80]);
    expect(counted.model.demandClass).toBe('intermittent');
    for (const [bound, row] of bounds(counted).map((b, i) => [b, counted.forecast[Math.floor(i / 4)]!] as const)) expect(Number.isInteger(bound) || bound === row.yhat).toBe(true);
    expect(bounds(weighed).some((bound) => !Number.isInteger(bound))).toBe(true);
  });

  it('keeps a product sold by measure (its unit a weight) continuous and orders it to the gram, though every sale so far was whole (ADR 0177)', () => {
    const units = Array.from({ length: 300 }, (_, t) => [0, 0, 1, 0, 2, 0, 0, 1, 3][(t * 5) % 9]!);
    const input: ProductForecastInput = { sales: salesOf(units), horizon: 30, stock: [{ ds: day(299), stock_level: 3 }] };
    const byPiece = ok(input);
    const byMeasure = ok({ ...input, soldByMeasure: true });
    const bounds = (result: ProductForecast): number[] => result.forecast.flatMap((row) => [row.yhat_lower, row.yhat_upper, row.yhat_lower_80, row.yhat_upper_80]);
    expect(bounds(byMeasure).some((bound) => !Number.isInteger(bound))).toBe(true);
    expect(Number.isInteger(byPiece.reorder.orderQuantity) && Number.isInteger(byPiece.reorder.reorderPoint)).toBe(true);
    expect(byMeasure.reorder.orderQuantity).toBeGreaterThan(0);
    for (const quantity of [byMeasure.reorder.orderQuantity, byMeasure.reorder.reorderPoint]) expect(Math.round(quantity * 1000) / 1000).toBe(quantity);
    expect(Number.isInteger(byMeasure.reorder.orderQuantity) && Number.isInteger(byMeasure.reorder.reorderPoint)).toBe(false);
  });

  it.each([
    ['not an array', { sales: 'x' as unknown as [] }],
    ['bad dates only', { sales: [{ ds: 'yesterday', y: 1 }] }],
    ['impossible date', { sales: [{ ds: '2025-02-30', y: 1 }] }],
    ['bad horizon', { sales: salesOf([1, 2]), horizon: -3 }],
    ['bad service level', { sales: salesOf([1, 2]), serviceLevel: 1.5 }],
  ])('returns a typed error for %s', (_, input) => {
    const result = forecastProduct(input as ProductForecastInput);
    expect(isForecastError(result)).toBe(true);
    if (isForecastError(result)) expect(result.code).toMatch(/invalid_input|no_data/);
  });

  it.each([
    ['a single point', [7]],
    ['all zeros', new Array<number>(100).fill(0)],
    ['NaN and negative values', [5, Number.NaN, -3, 6, 4, Number.NaN, 5, 6, 7, 5, 4, 6]],
    ['a very long series', weeklySales(4000)],
  ])('gives a sensible forecast for %s', (_, values) => {
    const result = ok({ sales: salesOf(values), horizon: 14 });
    expect(result.forecast).toHaveLength(14);
    for (const row of result.forecast) {
      expect(Number.isFinite(row.yhat)).toBe(true);
      expect(row.yhat_lower).toBeGreaterThanOrEqual(0);
    }
  });

  it('takes sales as columns of day numbers and units, and rejects columns of different lengths', () => {
    const firstDay = Date.parse('2025-01-01T00:00:00Z') / DAY_MS;
    expect(ok({ sales: { firstDay, days: [0, 59], units: [5, 5] }, horizon: 3 }).forecast[0]!.ds).toBe('2025-03-02');
    expect(forecastProduct({ sales: { firstDay, days: [0, 59], units: [5] }, horizon: 3 })).toMatchObject({ code: 'invalid_input' });
    expect(forecastProduct({ sales: { firstDay: 0.5, days: [], units: [] }, horizon: 3 })).toMatchObject({ code: 'invalid_input' });
  });

  it('fills gaps in dates with zero sales', () => {
    const result = ok({ sales: [{ ds: '2025-01-01', y: 5 }, { ds: '2025-03-01', y: 5 }], horizon: 3 });
    expect(result.forecast[0]!.ds).toBe('2025-03-02');
    expect(result.forecast[0]!.yhat).toBeLessThan(5);
  });
});

const productInput = fc.record({
  values: fc.array(fc.oneof(fc.nat({ max: 50 }), fc.constantFrom(0, 0, 0)), { minLength: 1, maxLength: 200 }),
  horizon: fc.integer({ min: 1, max: 60 }),
  stock: fc.option(fc.integer({ min: -10, max: 500 }), { nil: undefined }),
  delivery: fc.option(fc.record({ offset: fc.integer({ min: 1, max: 60 }), quantity: fc.integer({ min: 0, max: 200 }) }), { nil: undefined }),
});

describe('forecastProduct properties', () => {
  it('bands are ordered, finite, non-negative and the horizon is right', () => {
    fc.assert(
      fc.property(productInput, ({ values, horizon }) => {
        const result = ok({ sales: salesOf(values), horizon });
        expect(result.forecast).toHaveLength(horizon);
        expectOrderedBands(result.forecast);
      }),
      { numRuns: 60 },
    );
  });

  it('forecasts sales given as columns as the same sales given as rows (gaps, returns, unknown days)', () => {
    const firstDay = Date.parse('2025-01-01T00:00:00Z') / DAY_MS;
    const sale = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.constant(Number.NaN), fc.double({ min: 0, max: 9, noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), sale), { maxLength: 300 }), fc.integer({ min: 1, max: 30 }), (pairs, horizon) => {
        const today = day(401);
        const rows = ok({ sales: pairs.map(([t, y]) => ({ ds: day(t), y })), horizon, today });
        const columns = ok({ sales: { firstDay, days: pairs.map(([t]) => t), units: pairs.map(([, y]) => y) }, horizon, today });
        expect(columns).toEqual(rows);
      }),
      { numRuns: 40 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(productInput, ({ values, horizon }) => {
        const input = { sales: salesOf(values), horizon };
        expect(JSON.stringify(forecastProduct(input))).toBe(JSON.stringify(forecastProduct(structuredClone(input))));
      }),
      { numRuns: 30 },
    );
  });

  it('stock projection: level = last snapshot − cumulative yhat + cumulative deliveries', () => {
    fc.assert(
      fc.property(productInput, ({ values, horizon, stock, delivery }) => {
        const snapshot = stock ?? 100;
        const last = values.length - 1;
        const deliveries = delivery ? [{ ds: day(last + delivery.offset), quantity: delivery.quantity }] : [];
        const result = ok({ sales: salesOf(values), horizon, stock: [{ ds: day(last), stock_level: snapshot }], deliveries });
        let demand = 0;
        let incoming = 0;
        result.stock.forEach((row, j) => {
          demand += result.forecast[j]!.yhat;
          if (delivery && j + 1 === delivery.offset) incoming += delivery.quantity;
          expect(row.stock_level).toBeCloseTo(snapshot - demand + incoming, 6);
          expect(row.stock_lower).toBeLessThanOrEqual(row.stock_level + 1e-9);
          expect(row.stock_upper).toBeGreaterThanOrEqual(row.stock_level - 1e-9);
        });
        for (const stockout of result.stockouts) {
          const index = result.stock.findIndex((row) => row.ds === stockout.date);
          const level = (j: number): number => (j < 0 ? snapshot : stockout.type === 'stockForecast' ? result.stock[j]!.stock_level : result.stock[j]!.stock_lower);
          expect(level(index)).toBeLessThanOrEqual(0);
          if (level(index - 1) > 0) continue;
          // Out already at the start: the first day demand meets the empty shelf, nothing before it.
          expect(snapshot).toBeLessThanOrEqual(0);
          expect(level(index)).toBeLessThan(level(index - 1));
          for (let j = 0; j < index; j++) expect(level(j)).toBeGreaterThanOrEqual(level(j - 1));
          for (let j = 0; j < index; j++) expect(level(j)).toBeLessThanOrEqual(0);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('forecastBatch', () => {
  it('matches forecastProduct and keeps input order across worker threads', async () => {
    const inputs = Array.from({ length: 12 }, (_, i) => ({ sales: salesOf(weeklySales(120, 5 + i)), horizon: 14 }));
    const progress: number[] = [];
    const results = await forecastBatch(inputs, { workers: 2, chunkSize: 3, onProgress: (done) => progress.push(done) });
    expect(results.map((r) => JSON.stringify(r))).toEqual(inputs.map((input) => JSON.stringify(forecastProduct(input))));
    expect(progress.at(-1)).toBe(12);
  });

  it('runs inline with one worker and gives the same results', async () => {
    const inputs = Array.from({ length: 5 }, (_, i) => ({ sales: salesOf(weeklySales(60, 3 + i)), horizon: 7 }));
    const results = await forecastBatch(inputs, { workers: 1, chunkSize: 2 });
    expect(results).toEqual(inputs.map((input) => forecastProduct(input)));
  });
});
