import { describe, expect, it } from 'vitest';
import type { ResultColumn } from '@stockwise/contract';
import { unfinishedPeriod } from './unfinished-period.ts';

const date = (name: string): ResultColumn => ({ name, type: 'date', db_type: 'date' });
const units: ResultColumn = { name: 'units_sold', type: 'number', db_type: 'int8' };

describe('the period a result has not finished', () => {
  it('is the month of the day the report ran, when the monthly rows reach it', () => {
    const rows = ['2026-10-01', '2026-11-01', '2026-12-01'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([date('month'), units], rows, '2026-12-03')).toEqual({ field: 'month', value: '2026-12-01', unit: 'month', through: '2026-12-03' });
    // On the first of the month, the month holds that one day.
    expect(unfinishedPeriod([date('month'), units], rows, '2026-12-01')).toMatchObject({ value: '2026-12-01', through: '2026-12-01' });
    // Long rows (month, category, units): every row of the month is in it.
    const byCategory = rows.flatMap((row) => [{ ...row, category: 'A' }, { ...row, category: 'B' }]);
    expect(unfinishedPeriod([date('month'), { name: 'category', type: 'text', db_type: 'text' }, units], byCategory, '2026-12-03')).toMatchObject({ field: 'month', value: '2026-12-01' });
  });

  it('is none when the months end before it, or the rows are days', () => {
    const finished = ['2026-10-01', '2026-11-01'].map((month) => ({ month, units_sold: 10 }));
    expect(unfinishedPeriod([date('month'), units], finished, '2026-12-03')).toBeNull();
    const days = ['2026-12-01', '2026-12-02', '2026-12-03'].map((day) => ({ day, units_sold: 1 }));
    expect(unfinishedPeriod([date('day'), units], days, '2026-12-03')).toBeNull();
    // A month written as text (to_char) is not read as a date.
    expect(unfinishedPeriod([{ name: 'month', type: 'text', db_type: 'text' }, units], [{ month: '2026-12-01', units_sold: 1 }], '2026-12-03')).toBeNull();
    expect(unfinishedPeriod([date('month'), units], [], '2026-12-03')).toBeNull();
  });

  it('is the week (Monday first) of the day the report ran, in a column named for weeks', () => {
    const rows = ['2026-11-16', '2026-11-23', '2026-11-30'].map((week) => ({ week, units_sold: 5 }));
    // Thursday 3 December: the week began on Monday 30 November.
    expect(unfinishedPeriod([date('week'), units], rows, '2026-12-03')).toEqual({ field: 'week', value: '2026-11-30', unit: 'week', through: '2026-12-03' });
    expect(unfinishedPeriod([date('week'), units], rows, '2026-12-07')).toBeNull();
    // Mondays in a column not named for weeks may be days.
    expect(unfinishedPeriod([date('day'), units], rows.map(({ week, units_sold }) => ({ day: week, units_sold })), '2026-12-03')).toBeNull();
  });
});
