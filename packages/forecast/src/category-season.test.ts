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

  describe("follows the category's shape within its season (ADR 0146, amended)", () => {
    // The category's units climb from 2 on 20 November to 36 on Christmas Eve: its shape, mean 1.
    const FIRST = dayNumber('2024-11-01');
    const rising = Float64Array.from({ length: 763 }, (_, t) => {
      const date = formatDay(FIRST + t).slice(5);
      return date >= '11-20' && date <= '12-24' ? 2 + (dayNumber(`2025-${date}`) - dayNumber('2025-11-20')) : 0;
    });
    const season = catalogueCalendar(new Map([['Christmas', { firstDay: FIRST, totals: rising }]])).categorySeasons!['Christmas']!;
    const shaped = { ...CHRISTMAS, ...season };

    it('reads the rise into the calendar', () => {
      expect(season.shape).toHaveLength(35);
      expect(season.shape![0]!).toBeLessThan(0.4);
      expect(season.shape![34]!).toBeGreaterThan(1.6);
    });

    it("ramps a new product's prior up to the peak as the category does: the prior is its season's average day", () => {
      const result = forecastOf({ sales: [], today: '2026-11-01', horizon: 60, newItemPrior: { rates: [10], scope: 'category' }, categorySeason: shaped });
      const inSeason = rows(result, '2026-11-20', '2026-12-24');
      expect(inSeason[0]!.yhat).toBeLessThan(4);
      expect(inSeason[34]!.yhat).toBeGreaterThan(16);
      for (let k = 1; k < inSeason.length; k++) expect(inSeason[k]!.yhat).toBeGreaterThanOrEqual(inSeason[k - 1]!.yhat);
      const mean = inSeason.reduce((sum, row) => sum + row.yhat, 0) / inSeason.length;
      expect(mean).toBeCloseTo(10, 0);
      for (const row of inSeason) expect(row.yhat_upper).toBeGreaterThanOrEqual(row.yhat);
      expect(rows(result, '2026-12-25', '2026-12-30').every((row) => row.yhat === 0)).toBe(true);
      expect(result.model.description).toContain('so nothing is forecast outside those dates. Within them it rises and falls as the category sells.');
    });

    it("scales a short history's level from the season's days it sold on", () => {
      // Ten days from 24 November at 5–6 a day, where the category sells about a third of its
      // Christmas Eve: the days ahead sell more, as the category's do.
      const sales = Array.from({ length: 10 }, (_, i) => ({ ds: formatDay(dayNumber('2026-11-24') + i), y: 5 + (i % 2) }));
      const result = forecastOf({ sales, today: TODAY, horizon: 30, categorySeason: shaped });
      const day = (ds: string) => rows(result, ds, ds)[0]!.yhat;
      expect(day('2026-12-04')).toBeGreaterThan(5.5);
      expect(day('2026-12-24')).toBeGreaterThan(2 * 5.5);
      expect(day('2026-12-25')).toBe(0);
    });
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
    expect(result).toMatchObject({ code: 'invalid_input', error: "categorySeason must be { category, from: 'MM-DD', to: 'MM-DD', shape?: up to 366 non-negative numbers }." });
    const negative = forecastProduct({ sales: [], today: TODAY, categorySeason: { ...CHRISTMAS, shape: [1, -1] } });
    expect(negative).toMatchObject({ code: 'invalid_input' });
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
    // Eight a day on every day of the season: a flat shape, one a day of its 35.
    expect(calendar.categorySeasons).toEqual({ Christmas: { from: '11-20', to: '12-24', shape: new Array(35).fill(1) } });
  });

  it("reads a season across the new year, and a category mostly sold in one season with a few units outside it", () => {
    const winter = christmas.map((units, t) => (formatDay(FIRST + t).slice(5) <= '01-10' ? 8 : units));
    winter[200] = 3;
    expect(catalogueCalendar(new Map([['Winter', { firstDay: FIRST, totals: winter }]])).categorySeasons).toMatchObject({ Winter: { from: '11-20', to: '01-10' } });
  });
});
