import { describe, expect, it } from 'vitest';
import { dayNumber, easterSunday, formatDay, weekdayOf } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';
import { seasonOf } from './season-only.ts';

// Hot cross buns as a café sells them (ADR 0193 F5): from 1 February to Easter Sunday, a few a day,
// more on Saturdays, more in Holy Week and most on Good Friday; none the rest of the year.
const bunsOn = (day: number): number => {
  const year = Number(formatDay(day).slice(0, 4));
  const easter = easterSunday(year);
  if (day < dayNumber(`${year}-02-01`) || day > easter) return 0;
  if (day === easter - 2) return 19;
  return 3 + (weekdayOf(day) === 6 ? 2 : 0) + (easter - day <= 7 ? 5 : 0);
};

/** Sales rows from the first sale in `firstYear` to the day before `today`, each day's units by `unitsOn`. */
function salesOf(firstYear: number, today: string, unitsOn: (day: number) => number = bunsOn): { ds: string; y: number }[] {
  const sales: { ds: string; y: number }[] = [];
  for (let day = dayNumber(`${firstYear}-02-01`); day < dayNumber(today); day++) {
    const units = unitsOn(day);
    if (units > 0) sales.push({ ds: formatDay(day), y: units });
  }
  return sales;
}

const forecastOf = (input: ProductForecastInput): ProductForecast => {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
};
const total = (result: ProductForecast, from: number, to: number) => result.forecast.filter((row) => row.ds >= formatDay(from) && row.ds <= formatDay(to)).reduce((sum, row) => sum + row.yhat, 0);
const horizonTo = (today: string, last: string) => dayNumber(last) - dayNumber(today) + 1;

describe('a season that ends at Easter (ADR 0188, amended; ADR 0193 F5)', () => {
  it('stops after Easter 2027 from one season ending on Easter 2025, and sells up to it', () => {
    // A shop's first year: its export starts at the first sale, 1 Feb 2025, and the next season has begun.
    const today = '2026-02-11';
    const result = forecastOf({ sales: salesOf(2025, today), horizon: horizonTo(today, '2027-05-31'), today });
    expect(result.model.name).toBe('YearlyNaive');
    expect(result.model.description).toMatch(/^Sells in its season only \(1 Feb–Easter Sunday\): /);
    for (const year of [2026, 2027]) {
      const easter = easterSunday(year);
      // Nothing from Easter Monday to the end of May: 2027's Easter is 28 March, 2025's was 20 April.
      expect(total(result, easter + 1, dayNumber(`${year}-05-31`)), `after Easter ${year}`).toBe(0);
      // Holy Week sells, Good Friday most: last year's Holy Week read a year on by Easter, not by date.
      const week = result.forecast.filter((row) => row.ds >= formatDay(easter - 6) && row.ds <= formatDay(easter));
      expect(week.every((row) => row.yhat > 0), `Holy Week ${year}`).toBe(true);
      const peak = week.reduce((best, row) => (row.yhat > best.yhat ? row : best));
      expect(peak.ds, `peak ${year}`).toBe(formatDay(easter - 2));
    }
  });

  it('moves with Easter from two seasons with different Easters (20 April 2025, 5 April 2026)', () => {
    const today = '2026-12-07';
    const sales = salesOf(2025, today);
    const result = forecastOf({ sales, horizon: 180, today });
    expect(result.model.description).toMatch(/^Sells in its season only \(1 Feb–Easter Sunday\): /);
    // ADR 0193 F5: 3–19 a day from 30 March to 11 April 2027; now nothing after Easter Sunday (28 March).
    expect(total(result, dayNumber('2027-03-29'), dayNumber('2027-06-04'))).toBe(0);
    // The season's units, at about last year's pace (2026's season was shorter: 1 February to 5 April).
    const season2027 = total(result, dayNumber('2027-02-01'), dayNumber('2027-03-28'));
    const days2027 = dayNumber('2027-03-28') - dayNumber('2027-02-01') + 1;
    let sold2026 = 0;
    for (let day = dayNumber('2026-02-01'); day <= easterSunday(2026); day++) sold2026 += bunsOn(day);
    const days2026 = easterSunday(2026) - dayNumber('2026-02-01') + 1;
    expect(season2027 / days2027).toBeGreaterThan(0.85 * (sold2026 / days2026));
    expect(season2027 / days2027).toBeLessThan(1.25 * (sold2026 / days2026));
    // Good Friday 2027 (26 March) is the season's busiest day, as Good Friday was in both years.
    const peak = result.forecast.reduce((best, row) => (row.yhat > best.yhat ? row : best));
    expect(peak.ds).toBe('2027-03-26');
    // The season's end is read from Easter, its start (1 February) from the calendar.
    const values = new Float64Array(dayNumber(today) - dayNumber('2025-02-01'));
    for (const sale of sales) values[dayNumber(sale.ds) - dayNumber('2025-02-01')] = sale.y;
    expect(seasonOf(values, () => false, dayNumber('2025-02-01'))).toMatchObject({ easter: { to: 0 } });
    expect(seasonOf(values, () => false, dayNumber('2025-02-01'))!.easter!.from).toBeUndefined();
  });

  it('keeps a season that ends on a calendar date, though Easter fell on it one year (20 April both years)', () => {
    const today = '2026-12-07';
    const untilApril20 = (day: number) => {
      const ds = formatDay(day);
      return ds.slice(5) >= '02-01' && ds.slice(5) <= '04-20' ? 4 + (weekdayOf(day) === 6 ? 2 : 0) : 0;
    };
    const result = forecastOf({ sales: salesOf(2025, today, untilApril20), horizon: 180, today });
    expect(result.model.description).toMatch(/^Sells in its season only \(1 Feb–20 Apr\): /);
    // Easter 2027 is 28 March: the season still runs to 20 April.
    const april = result.forecast.filter((row) => row.ds >= '2027-03-29' && row.ds <= '2027-04-20');
    expect(april.every((row) => row.yhat > 0)).toBe(true);
    expect(total(result, dayNumber('2027-04-21'), dayNumber('2027-06-04'))).toBe(0);
  });

  it('starts the season at Easter when it began on Easter Monday in both years', () => {
    // Outdoor furniture in a garden centre, say: from Easter Monday to 30 June.
    const fromEasterMonday = (day: number) => {
      const ds = formatDay(day);
      return day >= easterSunday(Number(ds.slice(0, 4))) + 1 && ds.slice(5) <= '06-30' ? 4 + (weekdayOf(day) === 6 ? 2 : 0) : 0;
    };
    const today = '2026-12-07';
    const result = forecastOf({ sales: salesOf(2025, today, fromEasterMonday), horizon: 240, today });
    expect(result.model.description).toMatch(/^Sells in its season only \(Easter Monday–30 Jun\): /);
    // Easter 2027 is 28 March: selling from the 29th, a week earlier than 2026's 6 April; nothing before.
    expect(total(result, dayNumber('2026-12-08'), dayNumber('2027-03-28'))).toBe(0);
    expect(result.forecast.filter((row) => row.ds >= '2027-03-29' && row.ds <= '2027-06-30').every((row) => row.yhat > 0)).toBe(true);
    expect(total(result, dayNumber('2027-07-01'), dayNumber('2027-08-04'))).toBe(0);
  });

  it('keeps a Christmas season on its dates', () => {
    const today = '2026-12-01';
    const christmas = (day: number) => {
      const ds = formatDay(day);
      return ds.slice(5) >= '11-20' && ds.slice(5) <= '12-24' ? 5 : 0;
    };
    const sales: { ds: string; y: number }[] = [];
    for (let day = dayNumber('2024-11-20'); day < dayNumber(today); day++) if (christmas(day) > 0) sales.push({ ds: formatDay(day), y: christmas(day) });
    const values = new Float64Array(dayNumber(today) - dayNumber('2024-11-20'));
    for (const sale of sales) values[dayNumber(sale.ds) - dayNumber('2024-11-20')] = sale.y;
    const season = seasonOf(values, () => false, dayNumber('2024-11-20'));
    expect(season).not.toBeNull();
    expect(season!.easter).toBeUndefined();
    const result = forecastOf({ sales, horizon: 90, today });
    expect(result.model.description).toMatch(/^Sells in its season only \(20 Nov–24 Dec\): /);
    expect(result.forecast.filter((row) => row.ds >= '2026-12-01' && row.ds <= '2026-12-24').every((row) => row.yhat === 5)).toBe(true);
    expect(total(result, dayNumber('2026-12-25'), dayNumber('2027-02-28'))).toBe(0);
  });

  it('ends the season at Easter in every forecast year, whichever two Easters the history had', () => {
    // Property over the calendar: two seasons ending at Easter in years y and y + 1, forecast into y + 2.
    for (let year = 2019; year <= 2034; year++) {
      const today = `${year + 1}-12-07`;
      const result = forecastOf({ sales: salesOf(year, today), horizon: horizonTo(today, `${year + 2}-05-31`), today });
      const easter = easterSunday(year + 2);
      // (From 31 January after a 29 February: the year is read as 365 days, as for any season.)
      expect(result.model.description, String(year)).toMatch(/\((1 Feb|31 Jan)–Easter Sunday\)/);
      expect(total(result, easter + 1, dayNumber(`${year + 2}-05-31`)), `after Easter ${year + 2}`).toBe(0);
      // Good Friday is the busiest day of the forecast year's season, as it was in both years.
      const season = result.forecast.filter((row) => row.ds >= `${year + 2}-01-01` && row.ds <= `${year + 2}-12-31`);
      expect(season.reduce((best, row) => (row.yhat > best.yhat ? row : best)).ds, `Good Friday ${year + 2}`).toBe(formatDay(easter - 2));
      expect(result.forecast.filter((row) => row.ds >= formatDay(easter - 13) && row.ds <= formatDay(easter)).every((row) => row.yhat > 0), `the fortnight to Easter ${year + 2}`).toBe(true);
    }
  });
});
