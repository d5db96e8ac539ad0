// An order covers its lead time and the review period after it is placed (ADR 0072): one due near
// the horizon's end is still computed from the whole cover, so a stored 90-day run orders what a
// longer look orders (ADR 0165, amendment on order cover), while what is shown stays the horizon's.
import { describe, expect, it } from 'vitest';
import { forecastProduct, isForecastError } from './index.ts';
import { poisson, random } from './simulate.test-data.ts';
import type { ProductForecast, ProductForecastInput } from './types.ts';

const DAY_MS = 86_400_000;
const FIRST = Date.parse('2024-01-01T00:00:00Z');
const dayText = (t: number) => new Date(FIRST + t * DAY_MS).toISOString().slice(0, 10);
const HISTORY_DAYS = 730;

/** Two years of a steady 20 a day (Poisson), counted `stock` on the last history day. */
function steadySeller(stock: number, options: Partial<ProductForecastInput> = {}): ProductForecastInput {
  const next = random(11);
  return {
    sales: Array.from({ length: HISTORY_DAYS }, (_, t) => ({ ds: dayText(t), y: poisson(20, next) })),
    stock: [{ ds: dayText(HISTORY_DAYS - 1), stock_level: stock }],
    leadTimeDays: 14,
    reviewPeriodDays: 30,
    ...options,
  };
}

function forecastOf(input: ProductForecastInput): ProductForecast {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('an order whose cover passes the horizon', () => {
  it('orders for its whole lead time and review period, as a longer look does', () => {
    // About 1,600 on hand lasts some 80 days: the order is due near the 90th, its cover ends near the 124th.
    const input = steadySeller(1_600);
    const stored = forecastOf({ ...input, horizon: 90 });
    const longer = forecastOf({ ...input, horizon: 365 });
    const orderDay = stored.forecast.findIndex((row) => row.ds === stored.reorder.orderBy);
    expect(orderDay).toBeGreaterThan(90 - 14 - 30);
    expect(stored.reorder).toEqual(longer.reorder);
    // The need: the demand over the 44 days from the order-by day (the 365-day look's days past
    // the 90 included) and the safety stock, less what is left that day.
    const demand = sum(longer.forecast.slice(orderDay, orderDay + 44).map((row) => row.yhat));
    const left = longer.stock[orderDay - 1]!.stock_level;
    // Within 1: the advice's safety stock is rounded up to a whole unit.
    expect(Math.abs(stored.reorder.orderQuantity - (demand + stored.reorder.safetyStock - left))).toBeLessThanOrEqual(1);
    expect(stored.reorder.orderQuantity).toBeGreaterThan(30 * 20 * 0.9);
  });

  it('shows the horizon only: the forecast, the stock and the stockouts of the days asked for', () => {
    const input = steadySeller(1_600);
    const stored = forecastOf({ ...input, horizon: 90 });
    const longer = forecastOf({ ...input, horizon: 365 });
    expect(stored.forecast).toHaveLength(90);
    expect(stored.stock).toHaveLength(90);
    expect(stored.forecast).toEqual(longer.forecast.slice(0, 90));
    expect(stored.stock).toEqual(longer.stock.slice(0, 90));
    expect(stored.stockouts.length).toBeGreaterThan(0);
    expect(stored.stockouts).toEqual(longer.stockouts.filter((stockout) => stockout.date <= stored.forecast.at(-1)!.ds));
  });

  it('keeps the reorder point over the whole lead time when the horizon is shorter than it', () => {
    const input = steadySeller(300, { leadTimeDays: 21 });
    const week = forecastOf({ ...input, horizon: 7 });
    expect(week.forecast).toHaveLength(7);
    // 21 days of about 20, not the 7 days shown (a 7-day run validates its models over 7 days, so
    // its figures are its own, not a 90-day run's).
    expect(week.reorder.reorderPoint).toBeGreaterThan(21 * 20 * 0.9);
    expect(week.reorder.orderQuantity).toBeGreaterThan((21 + 30) * 20 * 0.9 - 300);
    expect(week.reorder).toMatchObject({ orderBy: dayText(HISTORY_DAYS) });
  });

  it('names only the closed days within the horizon', () => {
    // A closed day 101 days ahead: past a 90-day horizon, within the cover of an order due by its end.
    const input = steadySeller(1_600, { closedDates: [dayText(HISTORY_DAYS + 100)] });
    expect(forecastOf({ ...input, horizon: 90 }).model.description).not.toContain('Closed on');
    expect(forecastOf({ ...input, horizon: 120 }).model.description).toContain('Closed on 10 Apr, as the shop was in past years.');
  });
});
