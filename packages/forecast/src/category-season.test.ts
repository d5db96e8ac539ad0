import { describe, expect, it } from 'vitest';
import { catalogueCalendar } from './calendar.ts';
import { dayNumber, formatDay } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';

// A garden centre's Christmas range: every tree and wreath sells from 20 November to Christmas Eve,
// nothing the rest of the year (QA5 #18). A line added on 4 December has no history of its own.
const TODAY = '2026-12-04';
const CHRISTMAS = { category: 'Christmas', from: '11-20', to: '12-24' };
const forecastOf = (input: ProductForecastInput): ProductForecast => {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
};
const rows = (result: ProductForecast, from: string, to: string) => result.forecast.filter((row) => row.ds >= from && row.ds <= to);

describe("a product with little or no history of its own in a category sold in one season only", () => {
  it("forecasts a new product at its prior's level in the category's season and nothing after it", () => {
    const newItemPrior = { rates: [20, 25, 30], scope: 'catalogue' as const };
    const result = forecastOf({ sales: [], today: TODAY, horizon: 120, newItemPrior, categorySeason: CHRISTMAS });
    expect(result.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    for (const row of rows(result, '2026-12-04', '2026-12-24')) expect(row.yhat).toBe(25);
    // From Christmas Day to the next 20 November: nothing, with no band either (not 28.9 a day in January).
    const after = rows(result, '2026-12-25', '2027-04-02');
    expect(after).toHaveLength(99);
    for (const row of after) expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    expect(result.model.description).toContain('New product in a seasonal category: Christmas sells 20 Nov–24 Dec only, so nothing is forecast outside those dates.');
    // No order for the weeks that sell nothing: at most the season's remaining three weeks.
    expect(result.reorder.orderQuantity).toBeLessThanOrEqual(25 * 21 + 60);
  });

  it("forecasts a new product of such a category before its season as nothing until the season starts", () => {
    const result = forecastOf({ sales: [], today: '2026-10-01', horizon: 90, newItemPrior: { rates: [4], scope: 'category' }, categorySeason: CHRISTMAS });
    expect(rows(result, '2026-10-01', '2026-11-19').every((row) => row.yhat === 0 && row.yhat_upper === 0)).toBe(true);
    expect(rows(result, '2026-11-20', '2026-12-24').every((row) => row.yhat === 4)).toBe(true);
  });

  it("stops a short history's level when the category's season ends", () => {
    // Ten days of sales, 5 or 6 a day, up to the day before today.
    const sales = Array.from({ length: 10 }, (_, i) => ({ ds: formatDay(dayNumber('2026-11-24') + i), y: 5 + (i % 2) }));
    const result = forecastOf({ sales, today: TODAY, horizon: 90, categorySeason: CHRISTMAS });
    expect(result.model).toMatchObject({ name: 'RecentMean', history: 'short' });
    for (const row of rows(result, '2026-12-04', '2026-12-24')) expect(row.yhat).toBeCloseTo(5.5, 9);
    for (const row of rows(result, '2026-12-25', '2027-03-03')) expect(row).toMatchObject({ yhat: 0, yhat_upper: 0, yhat_upper_80: 0 });
    expect(result.model.description).toContain('Christmas sells 20 Nov–24 Dec only');
  });

  it('leaves a product with a full history to its own season', () => {
    // Sold all year round for two years, in a category said to be seasonal: its own pattern counts.
    const sales = Array.from({ length: 730 }, (_, i) => ({ ds: formatDay(dayNumber('2024-12-04') + i), y: 3 }));
    const result = forecastOf({ sales, today: TODAY, horizon: 60, categorySeason: CHRISTMAS });
    expect(rows(result, '2026-12-25', '2027-02-01').every((row) => row.yhat > 2)).toBe(true);
    expect(result.model.description).not.toContain('Christmas');
  });

  it('refuses a season that is not two month-days', () => {
    const result = forecastProduct({ sales: [], today: TODAY, categorySeason: { category: 'Christmas', from: 'November', to: '12-24' } });
    expect(result).toMatchObject({ code: 'invalid_input', error: "categorySeason must be { category, from: 'MM-DD', to: 'MM-DD' }." });
  });
});

describe("the catalogue calendar's category seasons", () => {
  const FIRST = dayNumber('2024-12-04');
  const days = 730;
  const christmas = Float64Array.from({ length: days }, (_, t) => {
    const date = formatDay(FIRST + t).slice(5);
    return date >= '11-20' && date <= '12-24' ? 8 : 0;
  });
  const tools = new Float64Array(days).fill(10);

  it('keeps the dates of each category sold in one season only, and none for a year-round one', () => {
    const calendar = catalogueCalendar(
      new Map([
        ['Christmas', { firstDay: FIRST, totals: christmas }],
        ['Tools', { firstDay: FIRST, totals: tools }],
      ]),
    );
    expect(calendar.categorySeasons).toEqual({ Christmas: { from: '11-20', to: '12-24' } });
  });

  it("reads a season across the new year, and a category mostly sold in one season with a few units outside it", () => {
    const winter = christmas.map((units, t) => (formatDay(FIRST + t).slice(5) <= '01-10' ? 8 : units));
    winter[200] = 3;
    expect(catalogueCalendar(new Map([['Winter', { firstDay: FIRST, totals: winter }]])).categorySeasons).toEqual({ Winter: { from: '11-20', to: '01-10' } });
  });
});
