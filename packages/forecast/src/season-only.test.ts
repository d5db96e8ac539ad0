import { describe, expect, it } from 'vitest';
import { dayNumber, formatDay } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';
import type { EngineResult } from './engine.ts';
import { isSeasonOnly, offSeasonBands, onSeasonDates, seasonOf } from './season-only.ts';

// A small shop's Christmas lights, as its till export shows them: sold from mid-November to Christmas
// Eve at a rate that climbs through the season, busier on Saturdays, closed on Sundays, a few units a
// day at most and none the rest of the year; two years of history up to the end of November.
const FIRST = dayNumber('2024-12-02');
const TODAY = '2026-12-01';
const inSeason = (ds: string) => (ds.slice(5, 7) === '11' && Number(ds.slice(8)) >= 15) || (ds.slice(5, 7) === '12' && Number(ds.slice(8)) <= 24);

/** A Poisson count of rate `rate` from a seeded generator (deterministic across runs). */
function poissonDraws(seed: number): (rate: number) => number {
  let state = seed;
  const uniform = () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  return (rate) => {
    let count = 0;
    for (let p = uniform(); p > Math.exp(-rate); p *= uniform()) count++;
    return count;
  };
}

function christmasLights(seed = 7, first = FIRST): { ds: string; y: number }[] {
  const draw = poissonDraws(seed);
  const sales: { ds: string; y: number }[] = [];
  for (let day = first; day < dayNumber(TODAY); day++) {
    const ds = formatDay(day);
    const weekday = new Date(day * 86_400_000).getUTCDay();
    if (weekday === 0 || !inSeason(ds)) continue;
    const seasonDay = day - dayNumber(`${ds.slice(0, 4)}-11-15`);
    const units = draw((0.3 + 0.12 * seasonDay) * (weekday === 6 ? 1.6 : 1));
    if (units > 0) sales.push({ ds, y: units });
  }
  return sales;
}

// As a catalogue run passes them: the business's closed dates over the history and the horizon.
const CLOSED_DATES = ['2024-12-25', '2024-12-26', '2025-12-25', '2025-12-26', '2026-12-25', '2026-12-26'];

const forecastOf = (input: ProductForecastInput): ProductForecast => {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
};
const total = (result: ProductForecast, from: string, to: string) => result.forecast.filter((row) => row.ds >= from && row.ds <= to).reduce((sum, row) => sum + row.yhat, 0);
const sold = (sales: ProductForecastInput['sales'], from: string, to: string) => (sales as { ds: string; y: number }[]).filter((sale) => sale.ds >= from && sale.ds <= to).reduce((sum, sale) => sum + sale.y, 0);

describe('an item sold in its season only', () => {
  it("forecasts last year's season and nothing after it, with bands a count's size", () => {
    const sales = christmasLights();
    const result = forecastOf({ sales, horizon: 90, today: TODAY, closedWeekdays: [0], closedDates: CLOSED_DATES, stock: [{ ds: '2026-11-30', stock_level: 5 }], leadTimeDays: 21 });
    expect(result.model.name).toBe('YearlyNaive');
    // Said as a season, with its months: not a steady yearly wave, nor intermittent for its empty off-season days.
    expect(result.model.patterns).toContain('season_only');
    expect(result.model.patterns).not.toContain('yearly');
    expect(result.model.patterns).not.toContain('intermittent');
    expect(result.model.description).toMatch(/^Sells in its season only \(16 Nov–24 Dec\): the forecast follows last year's season, scaled to this year's level, and is zero outside it\./);
    // Most of last December's units, not the half a blend with level models gave (35 of 77 in a shop's data).
    expect(total(result, '2026-12-01', '2026-12-24')).toBeGreaterThan(0.7 * sold(sales, '2025-12-01', '2025-12-24'));
    // Nothing after Christmas Eve: neither last year's weeks past the season nor its closed days, whose
    // values are imputed, carry it on.
    expect(total(result, '2026-12-25', '2027-02-28')).toBe(0);
    // The shop's Sundays and holidays in the season are closed days, nothing sold and nothing to sell.
    const closedDays = result.forecast.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() === 0 || CLOSED_DATES.includes(row.ds));
    expect(closedDays.length).toBeGreaterThan(12);
    for (const row of closedDays) expect(row).toMatchObject({ yhat: 0, yhat_upper: 0 });
    // A season's day of three or four units is not certain to be three or four: at least a Poisson count's spread.
    for (const row of result.forecast.filter((row) => row.yhat >= 3)) {
      expect(row.yhat_upper_80 - row.yhat_lower_80).toBeGreaterThanOrEqual(3);
      expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat_lower_80);
      expect(row.yhat_upper).toBeGreaterThanOrEqual(row.yhat_upper_80);
    }
    // Out of stock within days, in the middle of its season: an order, now, for what sells from its
    // arrival on 22 December to Christmas Eve (the shelf's empty days before it are lost sales, not
    // December's whole demand less the 5 on hand, as before: 30 units or more).
    expect(result.stockouts.length).toBeGreaterThan(0);
    expect(result.reorder.orderBy).toBe(TODAY);
    const fromArrival = total(result, '2026-12-22', '2026-12-31');
    expect(fromArrival).toBeGreaterThan(8);
    expect(result.reorder.orderQuantity).toBeGreaterThanOrEqual(Math.floor(fromArrival));
    expect(result.reorder.orderQuantity).toBeLessThanOrEqual(Math.ceil(fromArrival + result.reorder.safetyStock));
    expect(result.reorder.orderQuantity).toBeLessThan(total(result, '2026-12-01', '2026-12-24') - 5);
    expect(result.reorder.tooLateForSeason).toBeUndefined();
  });

  it("forecasts a shop's first year's Christmas item, its season begun again, at last December's pace", () => {
    // A shop's first export starts at its first sale, on 1 Dec 2025: 190 units in December, nothing
    // since, and 7 on the first of December again. Stock 30, 30 days to deliver.
    const december = Array.from({ length: 23 }, (_, i) => ({ ds: formatDay(dayNumber('2025-12-01') + i), y: [6, 8, 9][i % 3]! + (i > 15 ? 2 : 0) }));
    const sales = [...december, { ds: '2026-12-01', y: 7 }];
    const result = forecastOf({ sales, horizon: 90, today: '2026-12-02', stock: [{ ds: '2026-12-01', stock_level: 30 }], leadTimeDays: 30 });
    expect(result.model.name).toBe('YearlyNaive');
    expect(result.model.description).toMatch(/^Sells in its season only \(1 Dec–23 Dec\): /);
    expect(total(result, '2026-12-02', '2026-12-24')).toBeGreaterThan(0.7 * sold(sales, '2025-12-02', '2025-12-24'));
    expect(total(result, '2027-01-10', '2027-02-28')).toBe(0);
    // Runs out within days, long before a delivery could come; one ordered now comes on 1 January, after
    // the season: no order (it was December's whole demand less the 30 on hand), and next season's
    // buying starts 30 days before 1 December 2027.
    expect(result.stockouts.find((stockout) => stockout.type === 'stockForecast')!.date < '2026-12-10').toBe(true);
    expect(result.reorder).toMatchObject({ orderQuantity: 0, orderBy: null, tooLateForSeason: { arrives: '2027-01-01', seasonFrom: '2026-12-01', seasonTo: '2026-12-23', nextOrderFrom: '2027-11-01' } });
  });

  describe('an order counts only the demand from its arrival on (QA5 #5)', () => {
    // Christmas trees: 5 a day from 15 November to Christmas Eve since 2024, nothing otherwise; 4 December, 20 on hand.
    const trees: { ds: string; y: number }[] = [];
    for (let day = dayNumber('2024-11-15'); day < dayNumber('2026-12-04'); day++) if (inSeason(formatDay(day))) trees.push({ ds: formatDay(day), y: 5 });
    const treesWith = (leadTimeDays: number) => forecastOf({ sales: trees, horizon: 90, today: '2026-12-04', stock: [{ ds: '2026-12-03', stock_level: 20 }], leadTimeDays });

    it('orders nothing when the order arrives after the season, says when next season’s buying starts, and keeps the stockout', () => {
      const result = treesWith(28);
      // The season's level now, nothing after it: the shelf runs dry on 7 December either way.
      expect(total(result, '2026-12-04', '2026-12-24')).toBeCloseTo(105, 6);
      expect(total(result, '2026-12-25', '2027-03-03')).toBe(0);
      expect(result.stockouts.find((stockout) => stockout.type === 'stockForecast')?.date).toBe('2026-12-07');
      // 28 days on is 1 January: it sells nothing until 15 November 2027 (the old advice: 105 now).
      expect(result.reorder).toMatchObject({ orderQuantity: 0, orderBy: null });
      expect(result.reorder.tooLateForSeason).toEqual({ arrives: '2027-01-01', seasonFrom: '2026-11-15', seasonTo: '2026-12-24', nextOrderFrom: '2027-10-18' });
    });

    it('orders what sells from the arrival to the season’s end, not the days before it', () => {
      // 16 days on: 20 December, five days of the season left at 5 a day; nothing left on the shelf then.
      const result = treesWith(16);
      expect(result.reorder.orderBy).toBe('2026-12-04');
      expect(result.reorder.orderQuantity).toBeGreaterThanOrEqual(25);
      expect(result.reorder.orderQuantity).toBeLessThanOrEqual(25 + result.reorder.safetyStock);
      expect(result.reorder.tooLateForSeason).toBeUndefined();
    });
  });

  it("sizes the safety stock of an order placed before the season from the season's days, not today's empty ones", () => {
    // The lights on 15 October, three seasons sold: the lead time's days (to 5 November) forecast
    // nothing with no spread, which gave a buffer of nothing for a season of 1–8 units a day.
    const TODAY_OCTOBER = '2026-10-15';
    const sales = christmasLights(7, dayNumber('2023-11-01')).filter((sale) => sale.ds < TODAY_OCTOBER);
    const result = forecastOf({ sales, horizon: 90, today: TODAY_OCTOBER, closedDates: CLOSED_DATES, stock: [{ ds: '2026-10-14', stock_level: 60 }], leadTimeDays: 21 });
    expect(result.model.patterns).toContain('season_only');
    // z(0.95) · σ · √21 with σ at least a Poisson count's spread on days of 1–8 units: 7 or more.
    expect(result.reorder.safetyStock).toBeGreaterThanOrEqual(7);
    // With it, the order is placed earlier and carries the buffer (before: nothing, order 46 by 22 November).
    expect(result.reorder.orderBy! < '2026-11-20').toBe(true);
    expect(result.reorder.orderQuantity).toBeGreaterThanOrEqual(46 + 7);
  });

  it("names its last season's first and last days, not their months: a season that ran to 3 December does not read as selling in December", () => {
    // Bulbs sold 1 September to 30 November in both years, the web shop's last three this week (QA5 #17).
    const sales: { ds: string; y: number }[] = [];
    for (let day = dayNumber('2024-12-04'); day < dayNumber('2026-12-04'); day++) {
      const ds = formatDay(day);
      if (['09', '10', '11'].includes(ds.slice(5, 7))) sales.push({ ds, y: 2 });
    }
    sales.push(...['2026-12-01', '2026-12-02', '2026-12-03'].map((ds) => ({ ds, y: 3 })));
    const result = forecastOf({ sales, horizon: 60, today: '2026-12-04' });
    expect(result.model.description).toMatch(/^Sells in its season only \(1 Sep–3 Dec\): /);
    expect(total(result, '2026-12-04', '2026-12-31')).toBe(0);
  });

  it("keeps the off-season's bands at the off-season's own spread: none for an item that never sold then", () => {
    // A busier shop's lights: three times as many.
    const lights = christmasLights().map((sale) => ({ ...sale, y: 3 * sale.y }));
    const input = { horizon: 90, today: TODAY, closedWeekdays: [0], closedDates: CLOSED_DATES };
    // Past the season's last day (Christmas Eve; the closed days after it, which the history fills in)
    // and a week's margin for a season that ends late.
    const afterSeason = (result: ProductForecast) => result.forecast.filter((row) => row.ds >= '2027-01-08');
    for (const row of afterSeason(forecastOf({ ...input, sales: lights }))) expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
  });

  it("gives the off-season the spread of the item's own off-season days", () => {
    // Two years from 1 January 2025: 6 a day in the last 65 days of each (28 October to 31 December), and
    // one unit on every tenth day in mid-year (one off-season day in twenty).
    const values = Float64Array.from({ length: 730 }, (_, t) => (t % 365 >= 300 ? 6 : t % 365 >= 100 && t % 365 < 250 && t % 10 === 0 ? 1 : 0));
    const season = seasonOf(values);
    expect(season).toEqual({ start: 300, days: 65 });
    const horizon = 320;
    const band = () => ({ lower: new Float64Array(horizon).fill(0), upper: new Float64Array(horizon).fill(5) });
    const bands = new Map([
      [0.8, band()],
      [0.95, band()],
    ]);
    const result = { mean: new Float64Array(horizon), bands, continuousBands: bands } as unknown as EngineResult;
    offSeasonBands(result, values, season!, onSeasonDates(season!, dayNumber('2025-01-01'), values.length));
    // The forecast starts on 1 January 2027, the day after the season's last: off season from its first
    // day to 27 October (day 300), then the season's dates again, whose bands stay as they were.
    expect([...bands.get(0.95)!.upper]).toEqual([...new Array<number>(300).fill(1), ...new Array<number>(20).fill(5)]);
    expect([...bands.get(0.8)!.upper]).toEqual([...new Array<number>(300).fill(0), ...new Array<number>(20).fill(5)]);
  });

  it('needs two seasons that agree, enough units, and nothing much outside the season', () => {
    const lights = Float64Array.from({ length: 728 }, (_, t) => (inSeason(formatDay(FIRST + t)) ? 3 : 0));
    expect(isSeasonOnly(lights)).toBe(true);
    // One season only (the history starts after the first one) and the next one begun on time: a shop's first year.
    const upTo = (day: string) => dayNumber(day) - FIRST;
    expect(isSeasonOnly(lights.subarray(300))).toBe(true);
    // …but not before the next one has begun: a burst that did not come back is no season.
    expect(isSeasonOnly(lights.subarray(300, upTo('2026-11-08')))).toBe(false);
    // …nor when what sells now is out of last year's season.
    const summer = lights.slice(300, upTo('2026-08-31'));
    summer.fill(2, summer.length - 5);
    expect(isSeasonOnly(summer)).toBe(false);
    // Its season a week longer than the 13 weeks at most: a unit on every off-season day is no season's day.
    const trickle = lights.map((units) => (units > 0 ? 100 : 1));
    expect(seasonOf(trickle)!.days).toBeLessThanOrEqual(91 + 2 * 7);
    // A handful of units a year can fall anywhere.
    expect(isSeasonOnly(lights.map((units) => units / 10))).toBe(false);
    // Sold all year, more in its season: seasonal, not season-only.
    expect(isSeasonOnly(lights.map((units) => units + 0.5))).toBe(false);
    // Last year's season in spring, the year before's at Christmas: two seasons that do not agree.
    const moved = lights.map((units, t) => (t < 364 ? units : formatDay(FIRST + t).slice(5, 7) === '04' ? 3 : 0));
    expect(isSeasonOnly(moved)).toBe(false);
  });

  // Four a day from 1 to 24 December every year since 2023, nothing else, no closed days.
  const sellingTo24th = (first: string, today: string) => {
    const sales: { ds: string; y: number }[] = [];
    for (let day = dayNumber(first); day < dayNumber(today); day++) if (formatDay(day).slice(5, 7) === '12' && formatDay(day).slice(8) <= '24') sales.push({ ds: formatDay(day), y: 4 });
    return sales;
  };
  const decemberTo24th = (today: string, { first = '2023-12-01', closedDates = [] as string[] } = {}) => forecastOf({ sales: sellingTo24th(first, today), horizon: 60, today, closedDates });
  const daysOf = (result: ProductForecast, from: string, to: string) => result.forecast.filter((row) => row.ds >= from && row.ds <= to);

  it("forecasts nothing after the season's last selling day a year on, nor before its first, and the season's level on every day between", () => {
    const result = decemberTo24th('2026-11-25');
    expect(result.model.patterns).toEqual(['season_only']);
    // Last year's same weekday is a day later (25 December for the 24th, 26th for Christmas Day), and its
    // week either side reached back into the season: 2 units on the 25th and 26th, 2–4 on 27–30 November.
    for (const row of [...daysOf(result, '2026-11-25', '2026-11-30'), ...daysOf(result, '2026-12-25', '2027-01-23')]) {
      expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    }
    // The season itself at 4 a day on every day, its edges and Christmas Eve too: each day reads last
    // year's same weekday and a week either side on the season's dates only. (Until this change the
    // week either side counted 28 November and 25 December 2025, outside the season, as zeros: 8/3 on
    // 4–6 and 17–19 December, and Christmas Eve, whose same weekday last year was Christmas Day, 2.)
    const season = daysOf(result, '2026-12-01', '2026-12-24');
    expect(season).toHaveLength(24);
    for (const row of season) expect(row.yhat).toBeCloseTo(4, 9);
    for (const row of season) expect(row.yhat_upper_80).toBeGreaterThan(row.yhat);
  });

  it('ends the season on its last selling day, not on the closed days after it, whose values are made up', () => {
    // Closed on 25 and 26 December in the history (filled in from the same weekday a week or more either
    // side: four units), the horizon's holidays not given.
    const closedDates = ['2023-12-25', '2023-12-26', '2024-12-25', '2024-12-26', '2025-12-25', '2025-12-26'];
    const result = decemberTo24th('2026-11-25', { closedDates });
    // Christmas Eve reads last year's Christmas Day, closed and made up as four, which is no season's day: it
    // reads the 18th.
    for (const row of daysOf(result, '2026-12-01', '2026-12-24')) expect(row.yhat).toBeCloseTo(4, 9);
    expect(daysOf(result, '2026-12-25', '2027-01-23').every((row) => row.yhat === 0 && row.yhat_upper === 0)).toBe(true);
  });

  it("keeps the off-season's own sales as its level: a summer market's few units come back, the season's do not", () => {
    // Two units on 20 June each year besides the season: its off-season level, a day read a year back.
    const sales = [...sellingTo24th('2023-12-01', '2026-11-25'), ...['2024-06-20', '2025-06-20', '2026-06-20'].map((ds) => ({ ds, y: 2 }))];
    const result = forecastOf({ sales, horizon: 240, today: '2026-11-25' });
    expect(result.model.patterns).toEqual(['season_only']);
    expect(total(result, '2027-06-13', '2027-06-27')).toBeGreaterThan(0);
    expect(total(result, '2026-12-25', '2027-06-12')).toBe(0);
  });

  it('reads the season by its dates: a 29 February in the year does not end it on the 23rd', () => {
    // Last year (2027) to this one's season (2028) is 366 days: 24 December 2028 is 365 days after 23 December 2027.
    const result = decemberTo24th('2028-12-01', { first: '2025-12-01' });
    expect(daysOf(result, '2028-12-24', '2028-12-24')[0]!.yhat).toBeGreaterThan(0);
    expect(daysOf(result, '2028-12-25', '2029-01-29').every((row) => row.yhat === 0)).toBe(true);
  });

  it('keeps the January days of a season that runs through the new year, and none past it', () => {
    // Three a day from 10 December to 20 January, since December 2024.
    const sales: { ds: string; y: number }[] = [];
    for (let day = dayNumber('2024-12-10'); day < dayNumber('2026-12-01'); day++) {
      const ds = formatDay(day);
      if ((ds.slice(5, 7) === '12' && ds.slice(8) >= '10') || (ds.slice(5, 7) === '01' && ds.slice(8) <= '20')) sales.push({ ds, y: 3 });
    }
    const result = forecastOf({ sales, horizon: 90, today: '2026-12-01' });
    expect(result.model.patterns).toEqual(['season_only']);
    expect(daysOf(result, '2026-12-01', '2026-12-09').every((row) => row.yhat === 0)).toBe(true);
    // Every day from 10 December to 20 January at three a day, its first and last too.
    const season = daysOf(result, '2026-12-10', '2027-01-20');
    expect(season).toHaveLength(42);
    for (const row of season) expect(row.yhat).toBeCloseTo(3, 9);
    expect(daysOf(result, '2027-01-21', '2027-02-28').every((row) => row.yhat === 0 && row.yhat_upper === 0)).toBe(true);
  });
  it("keeps a gap in last year's season a gap: a fortnight without sales forecasts low, not the season's level", () => {
    // Four a day on 1–6 and 22–24 December every year since 2023, nothing from the 7th to the 21st.
    const sales = sellingTo24th('2023-12-01', '2026-11-25').filter((sale) => sale.ds.slice(8) <= '06' || sale.ds.slice(8) >= '22');
    const result = forecastOf({ sales, horizon: 60, today: '2026-11-25' });
    expect(result.model.patterns).toEqual(['season_only']);
    // The gap's days read last year's empty days as zeros: 13 December (last year's 14th, its week either
    // side the 7th and 21st) nothing, the others a third of the level at most.
    expect(daysOf(result, '2026-12-13', '2026-12-13')[0]!.yhat).toBe(0);
    for (const row of daysOf(result, '2026-12-07', '2026-12-20')) expect(row.yhat).toBeLessThanOrEqual(4 / 3 + 1e-9);
  });

  it("forecasts a season's total, not 6–13 % less: simulated seasons, every day a Poisson count", () => {
    // Thirty histories each of a season at the same rate every year, forecast 75 days from before the
    // season and from its middle: the forecast's total against the rates' (the season's days only).
    const items = [
      { rate: (ds: string) => (ds.slice(5) >= '12-01' && ds.slice(5) <= '12-24' ? 4 : 0), first: '2023-12-01' },
      { rate: (ds: string) => (ds.slice(5) >= '12-10' || ds.slice(5) <= '01-20' ? 3 : 0), first: '2024-12-10' },
    ];
    for (const { rate, first } of items) {
      for (const today of ['2026-11-20', '2026-12-10']) {
        let forecast = 0;
        let truth = 0;
        for (let seed = 1; seed <= 30; seed++) {
          const draw = poissonDraws(seed * 7919);
          const sales: { ds: string; y: number }[] = [];
          for (let day = dayNumber(first); day < dayNumber(today); day++) sales.push({ ds: formatDay(day), y: draw(rate(formatDay(day))) });
          const result = forecastOf({ sales: sales.filter((sale) => sale.y > 0), horizon: 75, today });
          expect(result.model.patterns).toContain('season_only');
          forecast += total(result, today, '2027-12-31');
          truth += result.forecast.reduce((sum, row) => sum + rate(row.ds), 0);
        }
        expect(Math.abs(forecast / truth - 1)).toBeLessThan(0.05);
      }
    }
  });
});
