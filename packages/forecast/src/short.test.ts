import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectOrderedBands } from './bands.test-data.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';
import { poissonMixtureQuantile, poissonQuantile } from './short.ts';

const DAY_MS = 86_400_000;
const day = (t: number): string => new Date(Date.parse('2020-01-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);

function ok(input: ProductForecastInput): ProductForecast {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

describe('histories too short or too empty for models', () => {
  it('forecasts a new product (no sales rows) as zero with a wide band, labelled as no history', () => {
    const result = ok({ sales: [], today: '2026-03-01', horizon: 10, stock: [{ ds: '2026-03-01', stock_level: 40 }] });
    expect(result.model.history).toBe('none');
    expect(result.forecast[0]).toMatchObject({ ds: '2026-03-01', yhat: 0, yhat_lower: 0 });
    expect(result.forecast[0]!.yhat_upper).toBeGreaterThan(0);
    expect(result.model.backtest.mase).toBeNull();
    expect(result.stock).toHaveLength(10);
  });

  it('forecasts a few days of history as their level, with a band that is not zero-width', () => {
    const result = ok({ sales: [3, 3, 3, 3, 3].map((y, t) => ({ ds: day(t), y })), horizon: 7 });
    expect(result.model.history).toBe('short');
    expect(result.model.description).toMatch(/^Only 5 days of history: too little to find a pattern/);
    for (const row of result.forecast) {
      expect(row.yhat).toBeCloseTo(3, 9);
      expect(row.yhat_upper).toBeGreaterThan(row.yhat_upper_80);
      expect(row.yhat_upper_80).toBeGreaterThan(3);
    }
  });

  it('does not let one launch-day or bulk order set the level of a short history', () => {
    const launch = ok({ sales: [30, 2, 1].map((y, t) => ({ ds: day(t), y })), horizon: 60, stock: [{ ds: day(2), stock_level: 5 }] });
    // 30 counts as three times the median selling day (2): (6 + 2 + 1) / 3.
    expect(launch.forecast[0]!.yhat).toBeCloseTo(3, 9);
    // Lead time 14 + review period 30 at ~3 a day and a safety stock, not the 11 a day of the plain mean.
    expect(launch.reorder.orderQuantity).toBeGreaterThan(44 * 3);
    expect(launch.reorder.orderQuantity).toBeLessThan(44 * 6);
    // Days alike, or a product that took off and kept selling, keep their plain mean.
    expect(ok({ sales: [4, 6, 5, 20, 25].map((y, t) => ({ ds: day(t), y })), horizon: 7 }).forecast[0]!.yhat).toBeCloseTo(12, 9);
  });

  it('counts a day a new product sold out on as demand of at least what it sold', () => {
    // Twenty in stock, all sold on the first day: not "no sales", but at least twenty a day.
    const soldOut = ok({ sales: [{ ds: day(0), y: 20 }], stock: [{ ds: day(0), stock_level: 0 }], horizon: 30 });
    expect(soldOut.model.history).toBe('short');
    expect(soldOut.forecast[0]!.yhat).toBeCloseTo(20, 9);
    expect(soldOut.model.description).toMatch(/^Only 1 day of history: .* It sold out on 1 of them/);
    expect(soldOut.stockouts.length).toBeGreaterThan(0);
    expect(soldOut.reorder.orderQuantity).toBeGreaterThan(20 * 14);
    // Sold out later, after days of 6: its 2 units were a shortage, not a quiet day; the days out of stock with no sale say nothing.
    const stock = [{ ds: day(0), stock_level: 20 }, { ds: day(3), stock_level: 0 }];
    const later = ok({ sales: [6, 6, 6, 2].map((y, t) => ({ ds: day(t), y })), stock, today: day(6), horizon: 7 });
    expect(later.forecast[0]!.yhat).toBeCloseTo(6, 9);
  });

  it('forecasts only zeros as zero, with a band that narrows as the zeros go on', () => {
    const upper = (days: number) => ok({ sales: Array.from({ length: days }, (_, t) => ({ ds: day(t), y: 0 })), horizon: 3 }).forecast[0]!;
    expect(upper(5)).toMatchObject({ yhat: 0, yhat_lower: 0 });
    expect(upper(5).yhat_upper).toBeGreaterThan(upper(400).yhat_upper);
  });

  it("forecasts a new product at the median first-weeks demand of its category's new products, with the mixture's band", () => {
    const rates = [0.5, 1, 2, 2.5, 3, 4, 8];
    const result = ok({ sales: [], today: '2026-03-01', horizon: 10, newItemPrior: { rates, scope: 'category' } });
    expect(result.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(result.model.description).toMatch(/its category's new products/);
    for (const row of result.forecast) {
      expect(row.yhat).toBe(2.5);
      expect(row.yhat_upper).toBe(poissonMixtureQuantile(rates, 0.975));
      expect(row.yhat_upper_80).toBe(poissonMixtureQuantile(rates, 0.9));
      expect(row.yhat_lower).toBe(0);
    }
    // Wider than one Poisson at the median: products differ more than days do.
    expect(result.forecast[0]!.yhat_upper).toBeGreaterThan(poissonQuantile(2.5, 0.975));
    const flat = ok({ sales: [], today: '2026-03-01', horizon: 10, newItemPrior: { rates: [], scope: 'catalogue' } });
    expect(flat.forecast[0]).toMatchObject({ yhat: 0, yhat_upper: 3 });
  });

  it('forecasts a product listed for four weeks or more without a sale as unsold, not new: zero over those days', () => {
    const prior = { rates: [3, 4, 5, 6, 7], scope: 'category' as const };
    const stock = [{ ds: '2026-03-01', stock_level: 0 }];
    const unsold = ok({ sales: [], today: '2026-03-01', listedSince: '2025-08-13', horizon: 30, stock, newItemPrior: prior });
    // Not "intermittent": it has not sold at all, and no model found a way it sells.
    expect(unsold.model).toMatchObject({ name: 'Zero', history: 'full', demandClass: 'none', patterns: [] });
    expect(unsold.model.description).toMatch(/^No sales in the 200 days of history/);
    expect(unsold.forecast.every((row) => row.yhat === 0)).toBe(true);
    // Nothing on hand and nothing expected to sell: no stockout, nothing to order.
    expect(unsold.stockouts).toEqual([]);
    expect(unsold.reorder).toMatchObject({ orderQuantity: 0, orderBy: null });
    // Listed under four weeks ago: still new, forecast from its category's launches.
    const recent = ok({ sales: [], today: '2026-03-01', listedSince: '2026-02-02', horizon: 30, stock, newItemPrior: prior });
    expect(recent.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(recent.forecast[0]!.yhat).toBe(5);
    expect(forecastProduct({ sales: [], today: '2026-03-01', listedSince: 'last year' })).toMatchObject({ code: 'invalid_input' });
  });

  it('refuses a new-item prior that is not rates', () => {
    expect(forecastProduct({ sales: [], newItemPrior: { rates: [-1], scope: 'category' } })).toMatchObject({ code: 'invalid_input' });
    expect(forecastProduct({ sales: [], newItemPrior: { rates: [1], scope: 'shop' } as never })).toMatchObject({ code: 'invalid_input' });
  });

  it('covers a Poisson mixture as stated', () => {
    // Rates 1 and 9, equally likely: P(X ≤ k) = ½·F1(k) + ½·F9(k).
    const cdf = (k: number) => [1, 9].reduce((sum, rate) => sum + 0.5 * Array.from({ length: k + 1 }, (_, i) => Math.exp(-rate) * rate ** i / factorial(i)).reduce((a, b) => a + b, 0), 0);
    for (const p of [0.1, 0.5, 0.9, 0.975]) {
      const k = poissonMixtureQuantile([1, 9], p);
      expect(cdf(k)).toBeGreaterThanOrEqual(p);
      if (k > 0) expect(cdf(k - 1)).toBeLessThan(p);
    }
  });

  it('poissonQuantile matches the distribution', () => {
    // Normal approximation at rate 2,000: 2,000 ± 1.96·√2,000 ≈ 2,000 ± 88.
    expect(Math.abs(poissonQuantile(2000, 0.975) - 2088)).toBeLessThanOrEqual(2);
    expect(poissonQuantile(1, 0.975)).toBe(3);
    expect(poissonQuantile(1, 0.9)).toBe(2);
    expect(poissonQuantile(0.01, 0.975)).toBe(0);
    expect(poissonQuantile(0, 0.99)).toBe(0);
  });
});

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

// One day to several years; zeros, spikes, returns (negative days) and gaps (missing rows).
const day$ = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 30 }) },
  { weight: 4, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -50, max: -1 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
const history$ = fc.record({
  values: fc.oneof(fc.array(day$, { minLength: 0, maxLength: 40 }), fc.array(day$, { minLength: 40, maxLength: 1500 })),
  horizon: fc.integer({ min: 1, max: 120 }),
  stock: fc.option(fc.integer({ min: -20, max: 1000 }), { nil: undefined }),
  yearlyProfile: fc.option(fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })), { minLength: 366, maxLength: 366 }), { nil: undefined }),
});

// A catalogue whose January sells 0.6 of its December (by day of a leap year: 0–30 is January).
const JANUARY_LOW = Array.from({ length: 366 }, (_, position) => (position <= 30 ? 0.6 : 1));
// Sold since Thursday 3 December 2026, in a shop closed on Sundays.
const threeDays = (extra: Partial<ProductForecastInput> = {}): ProductForecast =>
  ok({ sales: [5, 6, 6].map((y, t) => ({ ds: `2026-12-0${3 + t}`, y })), today: '2026-12-06', horizon: 90, closedWeekdays: [0], ...extra });
const inMonth = (result: ProductForecast, month: string) => result.forecast.filter((row) => row.ds.startsWith(month) && new Date(`${row.ds}T00:00:00Z`).getUTCDay() !== 0);

describe("a short history in a catalogue with a yearly pattern (ADR 0201 F10)", () => {
  it("follows the catalogue's year from the level of its days: January below December, the band with it", () => {
    const result = threeDays({ yearlyProfile: JANUARY_LOW });
    expect(result.model).toMatchObject({ name: 'RecentMean', history: 'short', patterns: ['closed_days', 'yearly'] });
    expect(result.model.description).toMatch(/follows its category's yearly pattern/);
    for (const row of inMonth(result, '2026-12')) expect(row.yhat).toBeCloseTo(17 / 3, 9);
    for (const row of inMonth(result, '2027-01')) expect(row.yhat).toBeCloseTo(0.6 * (17 / 3), 9);
    const [december, january] = [inMonth(result, '2026-12')[0]!, inMonth(result, '2027-01')[0]!];
    expect(january.yhat_upper).toBeLessThan(december.yhat_upper);
    expect(january.yhat_upper_80).toBeLessThan(december.yhat_upper_80);
    // Whole units stay whole, rounded outward.
    expect(Number.isInteger(january.yhat_upper) && Number.isInteger(january.yhat_lower_80)).toBe(true);
    expectOrderedBands(result.forecast);
    // Closed on Sundays: nothing forecast on them.
    for (const row of result.forecast.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() === 0)) expect([row.yhat, row.yhat_upper]).toEqual([0, 0]);
  });

  it('reads the days it sold against the pattern on those days: sold in a low, forecast higher after it', () => {
    const january = ok({ sales: [3, 3, 3].map((y, t) => ({ ds: `2027-01-0${4 + t}`, y })), horizon: 60, yearlyProfile: JANUARY_LOW });
    expect(january.forecast.find((row) => row.ds === '2027-01-20')!.yhat).toBeCloseTo(3, 9);
    expect(january.forecast.find((row) => row.ds === '2027-02-10')!.yhat).toBeCloseTo(5, 9);
  });

  it('is unchanged without a pattern, and where the pattern gives its days no level', () => {
    const flat = threeDays();
    expect(flat.model.patterns).toEqual(['closed_days']);
    for (const row of flat.forecast) expect(row.yhat).toBeCloseTo(new Date(`${row.ds}T00:00:00Z`).getUTCDay() === 0 ? 0 : 17 / 3, 9);
    const nothingInDecember = Array.from({ length: 366 }, (_, position) => (position >= 335 ? 0 : 1));
    expect(threeDays({ yearlyProfile: nothingInDecember }).forecast).toEqual(flat.forecast);
  });

  it("leaves a seasonal category's new product to its category's season", () => {
    const categorySeason = { category: 'Gifts', from: '11-01', to: '12-24' };
    const seasonal = threeDays({ yearlyProfile: JANUARY_LOW, categorySeason });
    expect(seasonal.forecast).toEqual(threeDays({ categorySeason }).forecast);
  });
});

describe('any history gets a forecast', () => {
  it('finite, non-negative, ordered bands for every length, with zeros, spikes, returns and gaps, with or without a yearly pattern', () => {
    fc.assert(
      fc.property(history$, ({ values, horizon, stock, yearlyProfile }) => {
        const sales = values.flatMap((y, t) => (y === null ? [] : [{ ds: day(t), y }]));
        const result = ok({ sales, horizon, today: day(values.length), ...(stock === undefined ? {} : { stock: [{ ds: day(values.length), stock_level: stock }] }), ...(yearlyProfile ? { yearlyProfile } : {}) });
        expect(result.forecast).toHaveLength(horizon);
        expectOrderedBands(result.forecast);
        // Advice that agrees with itself: an expected stockout comes with an order in time, and an order-by date with a quantity.
        const expected = result.stockouts.find((stockout) => stockout.type === 'stockForecast');
        if (expected) expect(result.reorder.orderBy !== null && result.reorder.orderBy <= expected.date && result.reorder.orderQuantity > 0).toBe(true);
        if (result.reorder.orderBy !== null) expect(result.reorder.orderQuantity).toBeGreaterThan(0);
        for (const row of result.stock) for (const value of [row.stock_level, row.stock_lower, row.stock_upper]) expect(Number.isFinite(value)).toBe(true);
        for (const value of Object.values(result.reorder)) if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
        // What is stored must survive JSON: no NaN or Infinity turned into null where a number is promised.
        expect(JSON.parse(JSON.stringify(result.forecast))).toEqual(result.forecast);
      }),
      { numRuns: 40 },
    );
  });
});
