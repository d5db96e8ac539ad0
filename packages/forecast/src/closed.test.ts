import { describe, expect, it } from 'vitest';
import { closedWeekdays, closedWeekdaysOf } from './closed.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';
import { ets, NON_SEASONAL_FORMS } from './models/ets.ts';
import { deseasonalized } from './seasonality.ts';

const DAY_MS = 86_400_000;
const start = Date.parse('2025-01-06T00:00:00Z'); // a Monday
const day = (t: number): string => new Date(start + t * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (ds: string) => (new Date(`${ds}T00:00:00Z`).getUTCDay() + 6) % 7; // 0 = Monday

function ok(input: ProductForecastInput): ProductForecast {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

// Deterministic noise, so the test does not depend on a seed.
const noise = (t: number) => ((t * 7919) % 11) - 5;

describe('closed days', () => {
  it('forecasts a weekday with no sales for months as zero, with a zero band, and keeps the weekly total', () => {
    // Closed on Saturdays and Sundays; busier on Fridays.
    const values = Array.from({ length: 280 }, (_, t) => (t % 7 >= 5 ? 0 : Math.max(0, (t % 7 === 4 ? 40 : 25) + noise(t))));
    const result = ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 28 });
    for (const row of result.forecast) {
      if (weekdayOf(row.ds) >= 5) expect([row.yhat, row.yhat_lower, row.yhat_upper, row.yhat_lower_80, row.yhat_upper_80]).toEqual([0, 0, 0, 0, 0]);
      else expect(row.yhat).toBeGreaterThan(15);
    }
    const weekly = result.forecast.slice(0, 28).reduce((sum, row) => sum + row.yhat, 0) / 4;
    const historyWeekly = values.slice(-56).reduce((a, b) => a + b, 0) / 8;
    expect(weekly / historyWeekly).toBeGreaterThan(0.9);
    expect(weekly / historyWeekly).toBeLessThan(1.1);
  });

  it("keeps the open days' level in a weekday-adjusted model: the closed days' zeros are not demand", () => {
    // Closed on Sundays (and on Saturdays too), busier on Fridays.
    for (const closedPositions of [[6], [5, 6]]) {
      const values = Float64Array.from({ length: 364 }, (_, t) => (closedPositions.includes(t % 7) ? 0 : (t % 7 === 4 ? 14 : 10) + noise(t) / 5));
      const model = deseasonalized(ets(NON_SEASONAL_FORMS[0]!), [7]).fit(values, values.length);
      const forecast = model.predict(values, values.length, 28);
      const openMean = (series: Float64Array) => {
        const open = [...series].filter((_, t) => !closedPositions.includes(t % 7));
        return open.reduce((a, b) => a + b, 0) / open.length;
      };
      // Before, the zeros went into the adjusted level: a seventh (two sevenths) too low.
      expect(openMean(forecast) / openMean(values.subarray(-84))).toBeCloseTo(1, 1);
      forecast.forEach((units, j) => (closedPositions.includes(j % 7) ? expect(units).toBeLessThan(0.01) : expect(units).toBeGreaterThan(9)));
    }
  });

  it('closes a weekday on which the shop stopped trading, once the stretch is long enough', () => {
    // Open every day for a year, then no more Saturday sales for the last twelve weeks.
    const values = Array.from({ length: 450 }, (_, t) => (t >= 366 && t % 7 === 5 ? 0 : 20 + noise(t)));
    const result = ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 14 });
    for (const row of result.forecast) if (weekdayOf(row.ds) === 5) expect(row.yhat_upper).toBe(0);
  });

  it('does not close the empty weekdays of a slow seller (they are chance, not a closed shop)', () => {
    // One sale on about one day in five: many weekdays are empty for weeks at a time.
    const values = Array.from({ length: 280 }, (_, t) => ((t * 37) % 5 === 0 ? 1 : 0));
    expect(closedWeekdays(Float64Array.from(values), new Uint8Array(values.length).fill(1)).some(Boolean)).toBe(false);
  });

  it('does not close a weekday that merely sells less', () => {
    const values = Float64Array.from({ length: 200 }, (_, t) => (t % 7 === 6 ? 3 : 30));
    expect(closedWeekdays(values, new Uint8Array(200).fill(1))).toEqual([false, false, false, false, false, false, false]);
  });
});

describe("the business's closed weekdays (the catalogue's calendar)", () => {
  const SUNDAY = 0;
  const sundaysOf = (result: ProductForecast) => result.forecast.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() === SUNDAY);
  const expectClosedSundays = (result: ProductForecast) => {
    const sundays = sundaysOf(result);
    expect(sundays.length).toBeGreaterThan(0);
    for (const row of sundays) expect([row.yhat, row.yhat_lower, row.yhat_upper, row.yhat_lower_80, row.yhat_upper_80]).toEqual([0, 0, 0, 0, 0]);
    expect(result.model.patterns).toContain('closed_days');
  };
  const total = (result: ProductForecast) => result.forecast.reduce((sum, row) => sum + row.yhat, 0);

  it("closes a slow seller's Sundays, which its own few sales cannot show, and keeps about its total", () => {
    // A sale on about one open day in seven; the shop (day 0 a Monday) never trades on Sundays.
    const values = Array.from({ length: 280 }, (_, t) => (t % 7 !== 6 && (t * 7919) % 13 < 2 ? 1 : 0));
    const input = { sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 28 };
    const alone = ok(input);
    expect(sundaysOf(alone).some((row) => row.yhat > 0)).toBe(true);
    const inShop = ok({ ...input, closedWeekdays: [SUNDAY] });
    expectClosedSundays(inShop);
    // Its Sundays' share goes to the open days; the models, now scored on open days only, may differ a little.
    expect(total(inShop) / total(alone)).toBeGreaterThan(0.9);
    expect(total(inShop) / total(alone)).toBeLessThan(1.1);
  });

  it('closes Sundays for a product with a few days of history and for one without any', () => {
    // Friday, Saturday, (closed) Sunday and Monday.
    const fewDays = ok({ sales: [4, 3, 0, 5].map((y, t) => ({ ds: day(t + 4), y })), horizon: 21, closedWeekdays: [SUNDAY] });
    expect(fewDays.model.history).toBe('short');
    expectClosedSundays(fewDays);
    // The average open day: the closed Sunday's zero is not demand (it was 12 / 4 days, then 7/6 of that).
    expect(fewDays.forecast.find((row) => row.yhat > 0)?.yhat).toBeCloseTo(12 / 3, 6);
    // And says so: three days of history count, not the four of the calendar.
    expect(fewDays.model.description).toMatch(/^Only 3 days of history \(4 on the calendar; closed days and days out of stock without a sale left out\): /);
    // Thursday to Saturday, no Sunday yet: their average, not 7/6 of it (8 a day, before).
    const threeDays = ok({ sales: [6, 6, 6].map((y, t) => ({ ds: day(t + 3), y })), horizon: 14, closedWeekdays: [SUNDAY] });
    expectClosedSundays(threeDays);
    for (const row of threeDays.forecast) if (new Date(`${row.ds}T00:00:00Z`).getUTCDay() !== SUNDAY) expect(row.yhat).toBe(6);
    const noHistory = ok({ sales: [], today: day(0), horizon: 21, closedWeekdays: [SUNDAY], newItemPrior: { rates: [0.5, 1, 2], scope: 'catalogue' } });
    expect(noHistory.model.history).toBe('none');
    expectClosedSundays(noHistory);
    // Their open days' bounds (the new product's scaled up by the closed days' share) are whole units.
    for (const row of [...fewDays.forecast, ...noHistory.forecast]) for (const bound of [row.yhat_lower, row.yhat_lower_80, row.yhat_upper_80, row.yhat_upper]) expect(Number.isInteger(bound)).toBe(true);
    expect(Math.max(...fewDays.forecast.map((row) => row.yhat_upper))).toBeGreaterThan(fewDays.forecast[0]!.yhat);
  });

  it('changes nothing when the business trades every day, and refuses weekdays out of 0–6', () => {
    const values = Array.from({ length: 120 }, (_, t) => 10 + noise(t));
    const input = { sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 14 };
    expect(ok({ ...input, closedWeekdays: [] }).forecast).toEqual(ok(input).forecast);
    for (const closedWeekdays of [[7], [1.5], ['0']]) expect(forecastProduct({ ...input, closedWeekdays } as ProductForecastInput)).toMatchObject({ code: 'invalid_input' });
  });
});

describe("a product's own closed weekday in a shop that trades every day (QA6 #14)", () => {
  const FIRST_DAY = start / DAY_MS;
  const TWELVE_WEEKS = 84;
  const everyDayObserved = new Uint8Array(TWELVE_WEEKS).fill(1);
  // The catalogue's calendar known, no weekday closed: every weekday trades.
  const TRADES_EVERY_DAY: number[] = [];

  /** Park–Miller: the same products on every run. */
  function generator(seed: number) {
    let state = seed;
    const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
    const poisson = (rate: number) => {
      let k = 0;
      let p = Math.exp(-rate);
      let cumulative = p;
      const u = uniform();
      while (u > cumulative) {
        k++;
        p *= rate / k;
        cumulative += p;
      }
      return k;
    };
    return { uniform, poisson };
  }
  /** Twelve weeks of `products` products, each day's units drawn by `sold`. */
  const catalogueOf = (products: number, seed: number, sold: (random: ReturnType<typeof generator>, rate: number) => number) => {
    const random = generator(seed);
    return Array.from({ length: products }, () => {
      const rate = 0.5 + 0.5 * random.uniform();
      return Float64Array.from({ length: TWELVE_WEEKS }, () => sold(random, rate));
    });
  };
  const withClosedWeekday = (catalogue: Float64Array[], businessWeekdays?: number[]) => catalogue.filter((values) => closedWeekdaysOf(values, everyDayObserved, FIRST_DAY, businessWeekdays).some(Boolean));

  it('closes no weekday of thousands of slow sellers (0.5–1 unit a day) by chance', () => {
    const slowSellers = [1, 2, 3].flatMap((seed) => catalogueOf(2000, seed * 7919, (random, rate) => random.poisson(rate)));
    // Their own sales alone (no calendar): about 3 in 1,000 get a weekday empty for twelve weeks and closed.
    const byChance = withClosedWeekday(slowSellers);
    expect(byChance.length).toBeGreaterThan(6);
    expect(withClosedWeekday(slowSellers, TRADES_EVERY_DAY)).toEqual([]);
    // Forecast with the catalogue's calendar, such a product has no zero weekday and no closed days.
    const falselyClosed = byChance[0]!;
    const sales = [...falselyClosed].map((y, t) => ({ ds: day(t), y }));
    expect(ok({ sales, horizon: 28 }).model.patterns).toContain('closed_days');
    const inShop = ok({ sales, horizon: 28, closedWeekdays: TRADES_EVERY_DAY });
    expect(inShop.model.patterns).not.toContain('closed_days');
    for (const row of inShop.forecast) expect(row.yhat).toBeGreaterThan(0.2);
  });

  it("closes no weekday of a product sold a pack at a time, whose units overstate its selling days", () => {
    // Six units on one day in four to one in two (1.5–3 units a day): 18–36 units expected on each
    // weekday over twelve weeks, but only three to six selling days, so an empty weekday is common:
    // about one product in twenty, by their own sales alone.
    const packSellers = catalogueOf(2000, 4242, (random, rate) => (random.uniform() < rate / 2 ? 6 : 0));
    expect(withClosedWeekday(packSellers).length).toBeGreaterThan(50);
    expect(withClosedWeekday(packSellers, TRADES_EVERY_DAY)).toEqual([]);
  });

  it('still closes a weekday a product never sells on, Monday to Friday only or not on Wednesdays, at a decent rate', () => {
    const random = generator(31337);
    // Day 0 is a Monday: positions 5, 6 are Saturday and Sunday, 2 Wednesday.
    for (const [rate, closedPositions] of [[2, [5, 6]], [3, [2]]] as const) {
      const values = Array.from({ length: 280 }, (_, t) => ((closedPositions as readonly number[]).includes(t % 7) ? 0 : random.poisson(rate)));
      const closed = closedWeekdaysOf(Float64Array.from(values), new Uint8Array(values.length).fill(1), FIRST_DAY, TRADES_EVERY_DAY);
      expect(closed.flatMap((shut, position) => (shut ? [position] : []))).toEqual(closedPositions);
      const result = ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 28, closedWeekdays: TRADES_EVERY_DAY });
      for (const row of result.forecast) if ((closedPositions as readonly number[]).includes(weekdayOf(row.ds))) expect(row.yhat_upper).toBe(0);
      expect(result.model.patterns).toContain('closed_days');
    }
  });

  it("still closes a slow seller's Sundays when the whole shop is closed on them", () => {
    const random = generator(777);
    // Day 0 is a Monday; the shop never trades on Sundays (position 6).
    const values = Array.from({ length: 280 }, (_, t) => (t % 7 === 6 ? 0 : random.poisson(0.5)));
    const result = ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 28, closedWeekdays: [0] });
    for (const row of result.forecast) {
      if (weekdayOf(row.ds) === 6) expect([row.yhat, row.yhat_lower, row.yhat_upper]).toEqual([0, 0, 0]);
      else expect(row.yhat).toBeGreaterThan(0.2);
    }
  });
});

describe('patterns a buyer is told about', () => {
  it('names closed days and the weekly shape, and nothing for a short history', () => {
    const values = Array.from({ length: 280 }, (_, t) => (t % 7 >= 5 ? 0 : Math.max(0, (t % 7 === 4 ? 40 : 25) + noise(t))));
    const patterns = ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 7 }).model.patterns;
    expect(patterns).toContain('closed_days');
    expect(patterns).toContain('weekly');
    expect(ok({ sales: [{ ds: day(0), y: 2 }], horizon: 7 }).model.patterns).toEqual([]);
  });

  it('names an intermittent seller', () => {
    const values = Array.from({ length: 200 }, (_, t) => ((t * 37) % 5 === 0 ? 1 : 0));
    expect(ok({ sales: values.map((y, t) => ({ ds: day(t), y })), horizon: 7 }).model.patterns).toContain('intermittent');
  });
});
