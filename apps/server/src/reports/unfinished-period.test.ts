import { describe, expect, it } from 'vitest';
import type { ResultColumn } from '@stockwise/contract';
import { firstPeriodCut, unfinishedPeriod } from './unfinished-period.ts';

const date = (name: string): ResultColumn => ({ name, type: 'date', db_type: 'date' });
const units: ResultColumn = { name: 'units_sold', type: 'number', db_type: 'int8' };

describe('the period a result has not finished', () => {
  it('is the month of the day the report ran, when the monthly rows reach it', () => {
    const rows = ['2026-10-01', '2026-11-01', '2026-12-01'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([date('month'), units], rows, '2026-12-03')).toEqual({ field: 'month', value: '2026-12-01', unit: 'month', from: '2026-12-01', through: '2026-12-03', ends: 'today' });
    // On the first of the month, the month holds that one day.
    expect(unfinishedPeriod([date('month'), units], rows, '2026-12-01')).toMatchObject({ value: '2026-12-01', through: '2026-12-01', ends: 'today' });
    // Long rows (month, category, units): every row of the month is in it.
    const byCategory = rows.flatMap((row) => [{ ...row, category: 'A' }, { ...row, category: 'B' }]);
    expect(unfinishedPeriod([date('month'), { name: 'category', type: 'text', db_type: 'text' }, units], byCategory, '2026-12-03')).toMatchObject({ field: 'month', value: '2026-12-01' });
  });

  it('is none when the months end before it, or run past it (a forecast, not a history)', () => {
    const finished = ['2026-10-01', '2026-11-01'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([date('month'), units], finished, '2026-12-03')).toBeNull();
    const ahead = ['2026-11-01', '2026-12-01', '2027-01-01'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([date('month'), units], ahead, '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([date('month'), units], [], '2026-12-03')).toBeNull();
  });

  it('reads a period from a timestamp at midnight (date_trunc without ::date), named by the value as the rows hold it; a moment of the day is none', () => {
    const stamp = (name: string, type: 'timestamp' | 'timestamptz'): ResultColumn => ({ name, type: 'datetime', db_type: type });
    const months = ['2026-10-01 00:00:00', '2026-11-01 00:00:00', '2026-12-01 00:00:00'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([stamp('month', 'timestamp'), units], months, '2026-12-03')).toEqual({ field: 'month', value: '2026-12-01 00:00:00', unit: 'month', from: '2026-12-01', through: '2026-12-03', ends: 'today' });
    // timestamptz in the run's UTC session.
    const zoned = ['2026-07-01 00:00:00+00', '2026-10-01 00:00:00+00'].map((quarter) => ({ quarter, units_sold: 10 }));
    expect(unfinishedPeriod([stamp('quarter', 'timestamptz'), units], zoned, '2026-12-03')).toMatchObject({ value: '2026-10-01 00:00:00+00', unit: 'quarter', from: '2026-10-01' });
    // Moments: a time of day is when something happened, not a period.
    const moments = ['2026-12-01 09:30:00', '2026-12-03 14:05:00'].map((created_at) => ({ created_at, units_sold: 1 }));
    expect(unfinishedPeriod([stamp('created_at', 'timestamp'), units], moments, '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([stamp('day', 'timestamp'), units], moments.map(({ created_at }) => ({ day: created_at, units_sold: 1 })), '2026-12-03')).toBeNull();
  });

  it('reads months and quarters written as text (to_char) by their words, and leaves other text alone', () => {
    const text = (name: string): ResultColumn => ({ name, type: 'text', db_type: 'text' });
    const rowsOf = (name: string, values: string[]) => values.map((value) => ({ [name]: value, units_sold: 1 }));
    for (const written of [['2026-11', '2026-12'], ['Nov 2026', 'Dec 2026'], ['November  2026', 'December  2026'], ['2026-11-01', '2026-12-01']]) {
      expect(unfinishedPeriod([text('month'), units], rowsOf('month', written), '2026-12-03'), written.join()).toEqual({ field: 'month', value: written[1], unit: 'month', from: '2026-12-01', through: '2026-12-03', ends: 'today' });
    }
    // Any column name: the words say months. Newest first, as text sorts "Dec" before "Nov": the days decide.
    expect(unfinishedPeriod([text('period'), units], rowsOf('period', ['Dec 2026', 'Nov 2026']), '2026-12-03')).toMatchObject({ value: 'Dec 2026', unit: 'month' });
    expect(unfinishedPeriod([text('period'), units], rowsOf('period', ['Dec 2026', 'Jan 2027']), '2026-12-03')).toBeNull();
    for (const written of [['2026 Q3', '2026 Q4'], ['2026-Q3', '2026-Q4'], ['Q3 2026', 'Q4 2026']]) {
      expect(unfinishedPeriod([text('quarter'), units], rowsOf('quarter', written), '2026-12-03'), written.join()).toMatchObject({ value: written[1], unit: 'quarter', from: '2026-10-01' });
    }
    // "2026-05" is also to_char's ISO week 5: in a column named for weeks it is no month.
    expect(unfinishedPeriod([text('week'), units], rowsOf('week', ['2026-04', '2026-05']), '2026-02-03')).toBeNull();
    // Words that are no period, forms mixed, months past their twelfth: none.
    expect(unfinishedPeriod([text('category'), units], rowsOf('category', ['Garden', 'Dec 2026']), '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([text('month'), units], rowsOf('month', ['2026-11-01', 'Dec 2026']), '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([text('code'), units], rowsOf('code', ['2026-13', '2026-12']), '2026-12-03')).toBeNull();
    // A column of words before the period is passed over.
    expect(unfinishedPeriod([text('category'), text('month'), units], [{ category: 'Garden', month: 'Dec 2026', units_sold: 1 }], '2026-12-03')).toMatchObject({ field: 'month' });
  });

  it("is the period holding the report's own last day when its date filter ends before today, up to that day only", () => {
    // "Units sold by week last month" on 4 December: its filter ends on Monday 30 November.
    const weeks = ['2026-11-23', '2026-11-30'].map((week) => ({ week, units_sold: 5 }));
    expect(unfinishedPeriod([date('week'), units], weeks, '2026-12-04', '2026-11-30')).toEqual({ field: 'week', value: '2026-11-30', unit: 'week', from: '2026-11-30', through: '2026-11-30', ends: 'report' });
    // A week that ends on the report's last day is whole; so is last month, by month.
    expect(unfinishedPeriod([date('week'), units], weeks, '2026-12-07', '2026-12-06')).toBeNull();
    expect(unfinishedPeriod([date('month'), units], [{ month: '2026-11-01', units_sold: 5 }], '2026-12-04', '2026-11-30')).toBeNull();
    // Rows of a later period than the report's last day: the filter is on another column, nothing is said.
    expect(unfinishedPeriod([date('week'), units], [...weeks, { week: '2026-12-07', units_sold: 1 }], '2026-12-09', '2026-11-30')).toBeNull();
    // A filter that ends today or later leaves today's period the one under way.
    expect(unfinishedPeriod([date('week'), units], weeks, '2026-12-03', '2026-12-31')).toMatchObject({ through: '2026-12-03', ends: 'today' });
    expect(unfinishedPeriod([date('day'), units], [{ day: '2026-11-30', units_sold: 1 }], '2026-12-04', '2026-11-30')).toBeNull();
  });

  it('is the week (Monday first) of the day the report ran, in a column named for weeks', () => {
    const rows = ['2026-11-16', '2026-11-23', '2026-11-30'].map((week) => ({ week, units_sold: 5 }));
    // Thursday 3 December: the week began on Monday 30 November.
    expect(unfinishedPeriod([date('week'), units], rows, '2026-12-03')).toEqual({ field: 'week', value: '2026-11-30', unit: 'week', from: '2026-11-30', through: '2026-12-03', ends: 'today' });
    expect(unfinishedPeriod([date('week'), units], rows, '2026-12-07')).toBeNull();
    // Mondays in a column not named for weeks may be days.
    expect(unfinishedPeriod([date('day'), units], rows.map(({ week, units_sold }) => ({ day: week, units_sold })), '2026-12-03')).toBeNull();
  });

  it('is the quarter of the day the report ran, in a column named for quarters; else its first months are months', () => {
    const rows = ['2026-04-01', '2026-07-01', '2026-10-01'].map((quarter) => ({ quarter, units_sold: 90 }));
    expect(unfinishedPeriod([date('quarter'), units], rows, '2026-12-03')).toEqual({ field: 'quarter', value: '2026-10-01', unit: 'quarter', from: '2026-10-01', through: '2026-12-03', ends: 'today' });
    // On 3 October the quarter is still Q4, not the month of October.
    expect(unfinishedPeriod([date('order_quarter'), units], rows.map(({ quarter, units_sold }) => ({ order_quarter: quarter, units_sold })), '2026-10-03')).toMatchObject({ unit: 'quarter', from: '2026-10-01' });
    // The same values named for months are months: on 3 December none of them is under way.
    expect(unfinishedPeriod([date('month'), units], rows.map(({ quarter, units_sold }) => ({ month: quarter, units_sold })), '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([date('quarter'), units], rows.slice(0, 2), '2026-12-03')).toBeNull();
  });

  it('is the year of the day the report ran, as extract(year) gives it (a number) or date_trunc (1 January)', () => {
    const years = [2024, 2025, 2026].map((year) => ({ year, units_sold: 1000 }));
    expect(unfinishedPeriod([{ name: 'year', type: 'number', db_type: 'int4' }, units], years, '2026-12-03')).toEqual({ field: 'year', value: 2026, unit: 'year', from: '2026-01-01', through: '2026-12-03', ends: 'today' });
    const truncated = ['2025-01-01', '2026-01-01'].map((sales_year) => ({ sales_year, units_sold: 1000 }));
    expect(unfinishedPeriod([date('sales_year'), units], truncated, '2026-12-03')).toEqual({ field: 'sales_year', value: '2026-01-01', unit: 'year', from: '2026-01-01', through: '2026-12-03', ends: 'today' });
    expect(unfinishedPeriod([{ name: 'year', type: 'number', db_type: 'int4' }, units], years.slice(0, 2), '2026-12-03')).toBeNull();
    // A number not named for years is a figure, however much it looks like one.
    expect(unfinishedPeriod([{ name: 'units', type: 'number', db_type: 'int4' }], [{ units: 2026 }, { units: 2025 }], '2026-12-03')).toBeNull();
  });

  it("is today's row of a daily history (its sales not all in yet), in a column named for days or dates", () => {
    const days = ['2026-12-01', '2026-12-02', '2026-12-03'].map((day) => ({ day, units_sold: 1 }));
    expect(unfinishedPeriod([date('day'), units], days, '2026-12-03')).toEqual({ field: 'day', value: '2026-12-03', unit: 'day', from: '2026-12-03', through: '2026-12-03', ends: 'today' });
    expect(unfinishedPeriod([date('sale_date'), units], days.map(({ day, units_sold }) => ({ sale_date: day, units_sold })), '2026-12-03')).toMatchObject({ unit: 'day', value: '2026-12-03' });
    // Ending yesterday (today's sales not in at all), or running into days ahead (a projection): none.
    expect(unfinishedPeriod([date('day'), units], days.slice(0, 2), '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([date('date'), units], [...days, { day: '2026-12-04', units_sold: 1 }].map(({ day, units_sold }) => ({ date: day, units_sold })), '2026-12-03')).toBeNull();
    // A date not named for days (the day a product runs out) is no daily breakdown.
    expect(unfinishedPeriod([date('runs_out_on'), units], days.map(({ day }) => ({ runs_out_on: day, units_sold: 1 })), '2026-12-03')).toBeNull();
  });

  it("names the first period when the report's own first day falls inside it: the days from then only", () => {
    // "Units sold by month since 15 March", run on 3 December: March holds 15–31 Mar.
    const months = ['2026-03-01', '2026-04-01', '2026-12-01'].map((month) => ({ month, units_sold: 10 }));
    expect(firstPeriodCut([date('month'), units], months, '2026-12-03', '2026-03-15')).toEqual({ field: 'month', value: '2026-03-01', unit: 'month', from: '2026-03-15', through: '2026-03-31' });
    // A report that ends inside that period, or a run on a day inside it, stops its days there.
    expect(firstPeriodCut([date('month'), units], months.slice(0, 1), '2026-12-03', '2026-03-15', '2026-03-20')).toMatchObject({ from: '2026-03-15', through: '2026-03-20' });
    expect(firstPeriodCut([date('month'), units], months.slice(0, 1), '2026-03-18', '2026-03-15')).toMatchObject({ through: '2026-03-18' });
    // Weeks: Wednesday 4 March starts the week of Monday 2 March.
    expect(firstPeriodCut([date('week'), units], [{ week: '2026-03-02', units_sold: 1 }, { week: '2026-03-09', units_sold: 1 }], '2026-12-03', '2026-03-04')).toEqual({ field: 'week', value: '2026-03-02', unit: 'week', from: '2026-03-04', through: '2026-03-08' });
    // Years from extract(year): 2026 since 15 March.
    expect(firstPeriodCut([{ name: 'year', type: 'number', db_type: 'int4' }, units], [{ year: 2026, units_sold: 1 }], '2026-12-03', '2026-03-15')).toMatchObject({ value: 2026, unit: 'year', from: '2026-03-15', through: '2026-12-03' });
  });

  it('names no first period when the report starts on a period\'s first day, starts nowhere or later than today, breaks down by day, or has rows before it', () => {
    const months = ['2026-03-01', '2026-04-01'].map((month) => ({ month, units_sold: 10 }));
    expect(firstPeriodCut([date('month'), units], months, '2026-12-03', '2026-03-01')).toBeNull();
    expect(firstPeriodCut([date('month'), units], months, '2026-12-03', null)).toBeNull();
    expect(firstPeriodCut([date('month'), units], months, '2026-03-10', '2026-03-15')).toBeNull();
    expect(firstPeriodCut([date('day'), units], [{ day: '2026-03-15', units_sold: 1 }], '2026-12-03', '2026-03-15')).toBeNull();
    // A row of February: the filter is on another column than the months.
    expect(firstPeriodCut([date('month'), units], [{ month: '2026-02-01', units_sold: 1 }, ...months], '2026-12-03', '2026-03-15')).toBeNull();
    // The rows begin later than the period holding the first day: that period has no row to name.
    expect(firstPeriodCut([date('month'), units], months.slice(1), '2026-12-03', '2026-03-15')).toBeNull();
  });
});
