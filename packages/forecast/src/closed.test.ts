import { describe, expect, it } from 'vitest';
import { closedWeekdays } from './closed.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';

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
