import { describe, expect, it } from 'vitest';
import { CATALOGUE_PROFILE, catalogueCalendar, type CatalogueCalendar, type DailyTotals } from './calendar.ts';
import { dayNumber, weekdayOf } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast } from './index.ts';
import { poisson, random } from './simulate.test-data.ts';

// A wholesaler's order lines (ADR 0198 F11): closed at weekends, about six orders a day, each of one
// to four products; a product's lines come in lumps (reams of paper by the box of 30). The orders
// follow the week (`rhythm`, Sunday first), so every product's lines do, too few of them each to show it.
const FIRST = dayNumber('2025-10-01');
const DAYS = dayNumber('2026-12-04') - FIRST + 1;
const TODAY = '2026-12-07';
const MONDAY_HEAVY = [0, 1.35, 1.1, 1, 0.95, 0.6, 0];
const FLAT = [0, 1, 1, 1, 1, 1, 0];

interface Line {
  code: string;
  category: string;
  /** The units of one line: a lump of that many, or Poisson around it. */
  lump: number;
  lumpy: boolean;
  daily: Float64Array;
}

const PRODUCTS: Omit<Line, 'daily'>[] = [
  { code: 'PAPER-A4', category: 'Paper', lump: 30, lumpy: true },
  { code: 'PAPER-A3', category: 'Paper', lump: 5, lumpy: true },
  ...Array.from({ length: 10 }, (_, i) => ({ code: `FILE-${i}`, category: 'Filing', lump: 2 + (i % 4), lumpy: false })),
  ...Array.from({ length: 10 }, (_, i) => ({ code: `PEN-${i}`, category: 'Writing', lump: 3 + (i % 3), lumpy: false })),
];

function orderLines(rhythm: number[], seed: number): Line[] {
  const next = random(seed);
  const lines = PRODUCTS.map((product) => ({ ...product, daily: new Float64Array(DAYS) }));
  for (let t = 0; t < DAYS; t++) {
    const orders = poisson(6 * rhythm[weekdayOf(FIRST + t)]!, next);
    for (let order = 0; order < orders; order++) {
      const count = 1 + Math.floor(next() * 4);
      for (let i = 0; i < count; i++) {
        const line = lines[Math.floor(next() * lines.length)]!;
        line.daily[t]! += line.lumpy ? line.lump : Math.max(1, poisson(line.lump, next));
      }
    }
  }
  return lines;
}

function calendarOf(lines: Line[]): CatalogueCalendar {
  const categories = new Map<string | null, DailyTotals>();
  for (const { category, daily } of lines) {
    const group = categories.get(category) ?? { firstDay: FIRST, totals: new Float64Array(DAYS) };
    daily.forEach((units, t) => (group.totals[t]! += units));
    categories.set(category, group);
  }
  return catalogueCalendar(categories);
}

function forecastOf(line: Line, calendar: CatalogueCalendar, withProfile = true): ProductForecast {
  const weekdayProfile = calendar.weekdayProfiles?.[line.category] ?? calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
  const result = forecastProduct({
    sales: { firstDay: FIRST, days: Array.from(line.daily.keys()), units: line.daily },
    today: TODAY,
    horizon: 28,
    closedWeekdays: calendar.closedWeekdays ?? [],
    ...(withProfile && weekdayProfile ? { weekdayProfile } : {}),
  });
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

/** The mean forecast of each weekday (0 = Sunday) over the horizon. */
function byWeekday(result: ProductForecast): number[] {
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const row of result.forecast) {
    const weekday = weekdayOf(dayNumber(row.ds));
    sums[weekday]! += row.yhat;
    counts[weekday]! += 1;
  }
  return sums.map((sum, weekday) => sum / counts[weekday]!);
}

describe("a catalogue's weekday rhythm for items sold on some days only", () => {
  const lines = orderLines(MONDAY_HEAVY, 20251001);
  const calendar = calendarOf(lines);
  const paper = lines.find((line) => line.code === 'PAPER-A4')!;

  it("reads the catalogue's rhythm, and lends it to categories that only differ from it by chance", () => {
    const profile = calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
    expect(profile).toHaveLength(7);
    expect(profile![0]).toBe(0);
    expect(profile![6]).toBe(0);
    expect(profile![1]! / profile![5]!).toBeGreaterThan(1.6);
    expect(profile!.reduce((sum, value) => sum + value, 0)).toBeCloseTo(7, 1);
    // The same rhythm in every category: none has one of its own.
    expect(Object.keys(calendar.weekdayProfiles ?? {})).toEqual([CATALOGUE_PROFILE]);
  });

  it('forecasts a lumpy item more on a Monday than on a Friday, nothing at weekends', () => {
    const result = forecastOf(paper, calendar);
    expect(result.model.demandClass).toMatch(/intermittent|lumpy/);
    expect(result.model.name).toContain('PooledWeekdays');
    expect(result.model.patterns).toContain('weekly');
    const weekdays = byWeekday(result);
    expect(weekdays[1]!).toBeGreaterThan(1.3 * weekdays[5]!);
    expect(weekdays[0]).toBe(0);
    expect(weekdays[6]).toBe(0);
    for (const row of result.forecast.filter((day) => [0, 6].includes(weekdayOf(dayNumber(day.ds))))) expect(row.yhat_upper).toBe(0);
  });

  it('keeps the week\'s total where the rhythm only moves it between the days', () => {
    const total = (result: ProductForecast) => result.forecast.reduce((sum, row) => sum + row.yhat, 0);
    const patterned = forecastOf(paper, calendar);
    const withoutProfile = forecastOf(paper, calendar, false);
    expect(total(patterned) / total(withoutProfile)).toBeGreaterThan(0.8);
    expect(total(patterned) / total(withoutProfile)).toBeLessThan(1.25);
  });

  it("leaves an item sold every day to its own weekday pattern", () => {
    const busy: Line = { code: 'BUSY', category: 'Filing', lump: 1, lumpy: false, daily: new Float64Array(DAYS) };
    const next = random(7);
    busy.daily.forEach((_, t) => (busy.daily[t] = poisson(20 * MONDAY_HEAVY[weekdayOf(FIRST + t)]!, next)));
    const result = forecastOf(busy, calendar);
    expect(result.model.demandClass).toBe('smooth');
    expect(result.forecast).toEqual(forecastOf(busy, calendar, false).forecast);
  });

  it('finds no rhythm in a catalogue whose weekdays sell alike, so its forecasts are as before', () => {
    const flat = calendarOf(orderLines(FLAT, 20251001));
    expect(flat.weekdayProfiles).toEqual({});
  });

  it("gives a category whose rhythm is not the catalogue's its own", () => {
    // Writing sells mostly on Fridays, in many small lines: beyond chance, unlike the catalogue.
    const next = random(11);
    const fridays = lines.map((line) => (line.category === 'Writing' ? { ...line, daily: line.daily.map((_, t) => poisson(weekdayOf(FIRST + t) === 5 ? 30 : weekdayOf(FIRST + t) === 0 || weekdayOf(FIRST + t) === 6 ? 0 : 5, next)) } : line));
    const profiles = calendarOf(fridays).weekdayProfiles ?? {};
    expect(profiles.Writing![5]!).toBeGreaterThan(2 * profiles.Writing![1]!);
    expect(profiles[CATALOGUE_PROFILE]![5]!).toBeLessThan(profiles.Writing![5]!);
  });

  it('refuses a weekday profile that is not seven non-negative numbers', () => {
    for (const weekdayProfile of [[1, 1, 1], [1, 1, 1, 1, 1, 1, -1], [1, 1, 1, 1, 1, 1, Number.NaN]]) {
      const result = forecastProduct({ sales: [{ ds: '2026-01-01', y: 1 }], weekdayProfile });
      expect(isForecastError(result) && result.code).toBe('invalid_input');
    }
  });
});

describe('the weekday profile of a group', () => {
  it('leaves out the days the business was closed on', () => {
    // Mondays sell 40, the other weekdays 20; May Day and Christmas Day (both Fridays in 2026) nothing.
    const first = dayNumber('2026-01-02');
    const totals = Float64Array.from({ length: 364 }, (_, t) => {
      const weekday = weekdayOf(first + t);
      return weekday === 0 || weekday === 6 ? 0 : (weekday === 1 ? 40 : 20) + (t % 3) - 1;
    });
    for (const date of ['2026-05-01', '2026-12-25']) totals[dayNumber(date) - first] = 0;
    const calendar = catalogueCalendar(new Map([[null, { firstDay: first, totals }]]));
    expect(calendar.closedDates).toEqual(['05-01', '12-25']);
    const profile = calendar.weekdayProfiles![CATALOGUE_PROFILE]!;
    expect(profile[1]! / profile[3]!).toBeCloseTo(2, 2);
    // Its two empty days would make Friday 4 % quieter than Wednesday.
    expect(profile[5]! / profile[3]!).toBeCloseTo(1, 2);
  });
});
