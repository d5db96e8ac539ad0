import { describe, expect, it } from 'vitest';
import { CATALOGUE_PROFILE, catalogueCalendar, type DailyTotals } from './calendar.ts';
import { dayNumber, formatDay } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast } from './index.ts';
import { poisson, random } from './simulate.test-data.ts';

// A boutique's catalogue (ADR 0195 F9, F10): a summer dress in five sizes, a winter jumper in four, a
// top that sells all year; a few units a size each month, from 1 October 2025 to 5 December 2026 —
// one summer, too little per size for its own season, and each category under two units a day.
const FIRST = dayNumber('2025-10-01');
const DAYS = dayNumber('2026-12-05') - FIRST + 1;
const TODAY = '2026-12-06';
const SUMMER = [0.2, 0.3, 0.6, 1, 1.6, 2.2, 2.4, 1.8, 0.9, 0.4, 0.2, 0.3];
const WINTER = [2.2, 1.6, 0.9, 0.5, 0.3, 0.2, 0.2, 0.3, 0.7, 1.4, 2, 2.6];
const ALL_YEAR = Array.from({ length: 12 }, () => 1);

interface Line {
  code: string;
  category: string;
  daily: number[];
}

function catalogue(): Line[] {
  const next = random(20251001);
  const line = (code: string, category: string, perDay: number, season: number[]): Line => ({
    code,
    category,
    daily: Array.from({ length: DAYS }, (_, t) => poisson(perDay * season[Number(formatDay(FIRST + t).slice(5, 7)) - 1]!, next)),
  });
  return [
    ...['8', '10', '12', '14', '16'].map((size) => line(`DRESS-${size}`, 'Dresses', 0.09, SUMMER)),
    ...['S', 'M', 'L', 'XL'].map((size) => line(`JUMPER-${size}`, 'Knitwear', 0.12, WINTER)),
    ...['S', 'M', 'L'].map((size) => line(`TOP-${size}`, 'Tops', 0.25, ALL_YEAR)),
  ];
}

function forecastsOf(lines: Line[]): Map<string, ProductForecast> {
  const categories = new Map<string | null, DailyTotals>();
  for (const { category, daily } of lines) {
    const group = categories.get(category) ?? { firstDay: FIRST, totals: new Float64Array(DAYS) };
    daily.forEach((units, t) => (group.totals[t]! += units));
    categories.set(category, group);
  }
  const calendar = catalogueCalendar(categories);
  return new Map(
    lines.map(({ code, category, daily }) => {
      const yearlyProfile = calendar.yearlyProfiles[category] ?? calendar.yearlyProfiles[CATALOGUE_PROFILE];
      const result = forecastProduct({ sales: daily.map((y, t) => ({ ds: formatDay(FIRST + t), y })), today: TODAY, horizon: 300, ...(yearlyProfile ? { yearlyProfile } : {}) });
      if (isForecastError(result)) throw new Error(result.error);
      return [code, result];
    }),
  );
}

const units = (result: ProductForecast, from: string, to: string) => result.forecast.filter((row) => row.ds >= from && row.ds <= to).reduce((sum, row) => sum + row.yhat, 0);

describe("a category's season for sizes that sell a few units each", () => {
  const lines = catalogue();
  const forecasts = forecastsOf(lines);

  const ofCategory = (prefix: string, from: string, to: string) => [...forecasts].filter(([code]) => code.startsWith(prefix)).reduce((sum, [, result]) => sum + units(result, from, to), 0);

  it('has each category under two units a day and each size a few units a month (the premise)', () => {
    for (const category of ['Dresses', 'Knitwear']) {
      const sizes = lines.filter((line) => line.category === category);
      expect(sizes.flatMap((line) => line.daily).reduce((a, b) => a + b, 0) / DAYS, category).toBeLessThan(1);
      for (const size of sizes) expect(size.daily.reduce((a, b) => a + b, 0), size.code).toBeLessThan(60);
    }
  });

  it("forecasts the summer dresses low from December to March and several times higher in June to August, by their category's pattern", () => {
    // Validation chooses per size: most follow the category's pattern (the others stay flat, as before).
    const dresses = [...forecasts].filter(([code]) => code.startsWith('DRESS-'));
    expect(dresses.filter(([, result]) => result.model.name.includes('PooledYearly')).length).toBeGreaterThanOrEqual(4);
    expect(ofCategory('DRESS-', '2027-06-01', '2027-08-31')).toBeGreaterThan(3 * ofCategory('DRESS-', '2026-12-06', '2027-03-31'));
    for (const [code, result] of dresses) {
      if (result.model.name === 'PooledYearly') expect(units(result, '2027-06-01', '2027-08-31'), code).toBeGreaterThan(4 * units(result, '2026-12-06', '2027-03-31'));
    }
  });

  it('forecasts the winter jumpers higher from December to February than in June to August', () => {
    expect(ofCategory('JUMPER-', '2026-12-06', '2027-02-28')).toBeGreaterThan(3 * ofCategory('JUMPER-', '2027-06-01', '2027-08-31'));
    for (const [code, result] of forecasts) {
      if (code.startsWith('JUMPER-') && result.model.name === 'PooledYearly') expect(units(result, '2026-12-06', '2027-02-28'), code).toBeGreaterThan(5 * units(result, '2027-06-01', '2027-08-31'));
    }
  });

  it("leaves a category that sells all year without a season", () => {
    const top = forecasts.get('TOP-M')!;
    const winter = units(top, '2026-12-06', '2027-02-28');
    const summer = units(top, '2027-06-01', '2027-08-31');
    expect(summer / winter).toBeGreaterThan(0.6);
    expect(summer / winter).toBeLessThan(1.6);
  });
});
