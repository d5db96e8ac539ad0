import { describe, expect, it } from 'vitest';
import { catalogueCalendar, closedDatesBetween, dayOfLeapYear, firstOpenDayFrom, type CatalogueCalendar, type DailyTotals } from './calendar.ts';
import { dayNumber, formatDay, weekdayOf } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';

// QA finding 13: a garden centre closed on Sundays every January and February, trading on Sundays
// the rest of the year, and closed on 25/26 Dec and 1 Jan.
const FIRST = dayNumber('2024-12-01');
const HISTORY_DAYS = 730; // to 30 Nov 2026
const HOLIDAYS = new Set(['12-25', '12-26', '01-01']);
const SUNDAY = 0;
const monthOf = (day: number) => Number(formatDay(day).slice(5, 7));
const inWinter = (day: number) => monthOf(day) <= 2;
const closedSunday = (day: number) => weekdayOf(day) === SUNDAY && inWinter(day);

/** The catalogue's daily units from `firstDay`: about 200 a day, none on the days `isClosed` says. */
function gardenCentre(isClosed: (day: number) => boolean, firstDay = FIRST, days = HISTORY_DAYS): DailyTotals {
  const totals = Float64Array.from({ length: days }, (_, t) => {
    const day = firstDay + t;
    return isClosed(day) || HOLIDAYS.has(formatDay(day).slice(5)) ? 0 : 200 + ((t * 37) % 40);
  });
  return { firstDay, totals };
}

const calendarOf = (totals: DailyTotals) => catalogueCalendar(new Map([['Garden', totals]]));
const sundaysOf = (dates: string[]) => dates.filter((date) => weekdayOf(dayNumber(date)) === SUNDAY);

describe("a weekday the shop closes on in some months of every year", () => {
  it('finds the Sundays closed in Jan–Feb of two years, and no closed weekday or month-day', () => {
    const calendar = calendarOf(gardenCentre(closedSunday));
    expect(calendar.closedWeekdaysInMonths).toEqual([{ weekday: SUNDAY, months: [1, 2] }]);
    expect(calendar.closedWeekdays).toEqual([]);
    expect(calendar.closedDates).toEqual(['01-01', '12-25', '12-26']);
  });

  it("closes next Jan–Feb's Sundays, not March's, among the calendar's closed dates", () => {
    const calendar = calendarOf(gardenCentre(closedSunday));
    const dates = closedDatesBetween(calendar, '2026-12-01', 120);
    expect(sundaysOf(dates)).toEqual(['2027-01-03', '2027-01-10', '2027-01-17', '2027-01-24', '2027-01-31', '2027-02-07', '2027-02-14', '2027-02-21', '2027-02-28']);
    expect(dates).toEqual(expect.arrayContaining(['2026-12-25', '2026-12-26', '2027-01-01']));
    // A delivery due on a closed Sunday comes on the Monday; one due on a Sunday in March stays.
    expect(firstOpenDayFrom(calendar, '2027-01-10')).toBe('2027-01-11');
    expect(firstOpenDayFrom(calendar, '2027-03-07')).toBe('2027-03-07');
  });

  it("reads one year's closed Jan–Feb Sundays as the rule, not as closed month-days", () => {
    // History from 1 Jun 2025 to 31 May 2026: one Jan–Feb, its nine Sundays closed. Eight weeks of
    // empty Sundays while every other day trades are no chance; the dates say nothing (4 Jan 2027
    // is a Monday).
    const calendar = calendarOf(gardenCentre(closedSunday, dayNumber('2025-06-01'), 365));
    expect(calendar.closedWeekdaysInMonths).toEqual([{ weekday: SUNDAY, months: [1, 2] }]);
    expect(calendar.closedDates).toEqual(['01-01', '12-25', '12-26']);
  });

  it('finds no rule for a Sunday closed by chance, a month of Sundays in one year, or one year of two', () => {
    const oneSunday = (day: number) => formatDay(day) === '2025-03-16';
    expect(calendarOf(gardenCentre(oneSunday)).closedWeekdaysInMonths).toEqual([]);
    // Closed on the four Sundays of August 2025 only: under six days, and August 2026 traded.
    const august = (day: number) => weekdayOf(day) === SUNDAY && formatDay(day).startsWith('2025-08');
    expect(calendarOf(gardenCentre(august)).closedWeekdaysInMonths).toEqual([]);
    // Closed on Jan–Feb Sundays in 2026 only: 2025's traded.
    const lastWinterOnly = (day: number) => closedSunday(day) && formatDay(day).startsWith('2026');
    expect(calendarOf(gardenCentre(lastWinterOnly)).closedWeekdaysInMonths).toEqual([]);
  });

  it("leaves the closed Sundays out of the yearly pattern: a steady shop's January is no low", () => {
    const profile = calendarOf(gardenCentre(closedSunday)).yearlyProfiles['Garden']!;
    for (const ds of ['2026-01-20', '2026-02-10']) expect(profile[dayOfLeapYear(dayNumber(ds))]).toBeGreaterThan(0.97);
  });

  it('is no rule in a shop too quiet for an empty Sunday to mean anything', () => {
    const { firstDay, totals } = gardenCentre(closedSunday);
    expect(calendarOf({ firstDay, totals: totals.map((units) => units / 100) }).closedWeekdaysInMonths).toEqual([]);
  });
});

describe("a product's forecast in the shop's closed months", () => {
  const calendar: CatalogueCalendar = calendarOf(gardenCentre(closedSunday));
  const HORIZON = 90; // 1 Dec 2026 to 28 Feb 2027
  /** A steady seller of the garden centre: about 2 units an open day, more on Saturdays. */
  const sales = Array.from({ length: HISTORY_DAYS }, (_, t) => {
    const day = FIRST + t;
    const closed = closedSunday(day) || HOLIDAYS.has(formatDay(day).slice(5));
    return { ds: formatDay(day), y: closed ? 0 : weekdayOf(day) === 6 ? 3 + (t % 2) : 1 + (t % 3) };
  });
  const forecastOf = (input: ProductForecastInput): ProductForecast => {
    const result = forecastProduct(input);
    if (isForecastError(result)) throw new Error(result.error);
    return result;
  };
  const input: ProductForecastInput = {
    sales,
    today: '2026-12-01',
    horizon: HORIZON,
    closedDates: closedDatesBetween(calendar, formatDay(FIRST), HISTORY_DAYS + HORIZON),
    closedWeekdaysInMonths: calendar.closedWeekdaysInMonths!,
    yearlyProfile: calendar.yearlyProfiles['Garden']!,
  };

  it('forecasts the Jan–Feb Sundays zero with a zero band, December Sundays open, and says why', () => {
    const result = forecastOf(input);
    const sundays = result.forecast.filter((row) => weekdayOf(dayNumber(row.ds)) === SUNDAY);
    for (const row of sundays.filter((row) => inWinter(dayNumber(row.ds)))) expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    for (const row of sundays.filter((row) => row.ds.startsWith('2026-12'))) expect(row.yhat).toBeGreaterThan(0.8);
    expect(result.model.description).toContain('Closed on Sundays in Jan–Feb.');
    expect(result.model.description).toContain('Closed on public holidays.');
    expect(result.model.patterns).toEqual(expect.arrayContaining(['closed_days', 'holidays']));
  });

  it("gives the open days of Jan–Feb their own demand, not the closed Sundays' share", () => {
    // Last Jan–Feb's open days sold what the shop sold then; the closed Sundays' forecast is not added to them.
    const soldLastWinter = sales.filter((row) => row.ds >= '2026-01-01' && row.ds < '2026-03-01').reduce((sum, row) => sum + row.y, 0);
    const forecastWinter = forecastOf(input).forecast.filter((row) => row.ds >= '2027-01-01').reduce((sum, row) => sum + row.yhat, 0);
    expect(forecastWinter / soldLastWinter).toBeGreaterThan(0.9);
    expect(forecastWinter / soldLastWinter).toBeLessThan(1.07);
  });

  it('says nothing of the closure when the horizon holds no closed month, and refuses a malformed rule', () => {
    const december = forecastOf({ ...input, horizon: 28 });
    expect(december.model.description).not.toContain('Sundays');
    for (const closedWeekdaysInMonths of [[{ weekday: 7, months: [1] }], [{ weekday: 0, months: [13] }], [{ weekday: 0 }], 'Sundays']) {
      expect(forecastProduct({ ...input, closedWeekdaysInMonths } as unknown as ProductForecastInput)).toEqual({
        error: 'closedWeekdaysInMonths must be a list of { weekday: 0 (Sunday) to 6, months: 1 to 12 }.',
        code: 'invalid_input',
      });
    }
  });
});

describe('a weekday closed for the last twelve weeks as in the same months of the years before', () => {
  // Closed on Sundays from November to February, two winters before this one; run on 25 Feb 2027.
  const inLongWinter = (day: number) => monthOf(day) >= 11 || monthOf(day) <= 2;
  const closedWinterSunday = (day: number) => weekdayOf(day) === SUNDAY && inLongWinter(day);
  const TODAY = dayNumber('2027-02-25');
  const HORIZON = 35; // to 31 Mar 2027

  it('reopens when those months end (March Sundays open), as it did in earlier years', () => {
    const calendar = calendarOf(gardenCentre(closedWinterSunday, FIRST, TODAY - FIRST));
    expect(calendar.closedWeekdays).toEqual([]);
    expect(calendar.closedWeekdaysInMonths).toEqual([{ weekday: SUNDAY, months: [1, 2, 11, 12] }]);
    const closed = closedDatesBetween(calendar, formatDay(TODAY), HORIZON);
    expect(sundaysOf(closed)).toEqual(['2027-02-28']);

    const sales = Array.from({ length: TODAY - FIRST }, (_, t) => {
      const day = FIRST + t;
      const shut = closedWinterSunday(day) || HOLIDAYS.has(formatDay(day).slice(5));
      return { ds: formatDay(day), y: shut ? 0 : weekdayOf(day) === 6 ? 3 + (t % 2) : 1 + (t % 3) };
    });
    const result = forecastProduct({
      sales,
      today: formatDay(TODAY),
      horizon: HORIZON,
      closedDates: closedDatesBetween(calendar, formatDay(FIRST), TODAY - FIRST + HORIZON),
      closedWeekdays: calendar.closedWeekdays,
      closedWeekdaysInMonths: calendar.closedWeekdaysInMonths!,
      yearlyProfile: calendar.yearlyProfiles['Garden']!,
    });
    if (isForecastError(result)) throw new Error(result.error);
    const marchSundays = result.forecast.filter((row) => row.ds.startsWith('2027-03') && weekdayOf(dayNumber(row.ds)) === SUNDAY);
    expect(marchSundays).toHaveLength(4);
    for (const row of marchSundays) expect(row.yhat).toBeGreaterThan(0.8);
    expect(result.forecast.find((row) => row.ds === '2027-02-28')!.yhat).toBe(0);
  });

  it('stays closed all year when no earlier year shows it trading again after such a closure', () => {
    // History from 1 Mar 2026: Sundays traded until October, closed since November; nothing says they reopen.
    const from = dayNumber('2026-03-01');
    const calendar = calendarOf(gardenCentre(closedWinterSunday, from, TODAY - from));
    expect(calendar.closedWeekdays).toEqual([SUNDAY]);
    // A shop that has always been closed on Sundays stays closed on them too.
    const always = calendarOf(gardenCentre((day) => weekdayOf(day) === SUNDAY, FIRST, TODAY - FIRST));
    expect(always.closedWeekdays).toEqual([SUNDAY]);
    expect(always.closedWeekdaysInMonths).toEqual([]);
  });
});
