// Which period of a result has not ended on the day its report ran (docs/api.md "Report charts"):
// today, or the week, month, quarter or year that holds it, read from a column's name and values as
// charts read them (periodOfValues: dates, timestamps at midnight, year numbers, months and quarters
// written as text), when the rows reach that period and no further. Its bar or point holds a few
// days (today: the sales in so far), not a whole period: charts say so. When the report's own date
// filter ends first (`ends`: "by week last month" stops on 30 Nov), the period that holds that last
// day is the one cut short, and it holds its days up to then: "to date" would be wrong.
import { periodOfValues, periodStartOf, type ColumnKind, type FirstPeriodCut, type ResultColumn, type ResultRow, type UnfinishedPeriod } from '@stockwise/contract';
import { addDays, startOf, type CalendarUnit } from '../plain-words/period.ts';

/** The kinds of column a period can be written in. */
const PERIOD_KINDS: ReadonlySet<ColumnKind> = new Set(['date', 'datetime', 'number', 'text']);

/**
 * The first column that breaks rows down by a calendar period, and the row value of the period cut
 * short — today's, or the one holding the report's own last day (`ends`, before today) — when the
 * rows run up to it. Rows of a later period (a forecast, a projection) mean the result is not a
 * history that stops there: nothing is named then. A period whose last day is the report's own is
 * whole: nothing is named either.
 */
export function unfinishedPeriod(columns: readonly ResultColumn[], rows: readonly ResultRow[], today: string, ends: string | null = null): UnfinishedPeriod | null {
  const cut = ends !== null && ends < today;
  const last = cut ? ends : today;
  const breakdown = periodColumn(columns, rows);
  if (!breakdown) return null;
  const { column, values, unit } = breakdown;
  const from = unit === 'day' ? last : startOf(unit, last);
  if (cut && (unit === 'day' || startOf(unit, addDays(last, 1)) !== from)) return null;
  const starts = values.map(periodStartOf);
  const at = starts.indexOf(from);
  const reaches = at >= 0 && starts.every((start) => start !== null && start <= from);
  return reaches ? { field: column.name, value: values[at] as string | number, unit, from, through: last, ends: cut ? 'report' : 'today' } : null;
}

/** The first column that breaks rows down by a calendar period, with its values and unit. */
function periodColumn(columns: readonly ResultColumn[], rows: readonly ResultRow[]) {
  for (const column of columns) {
    if (!PERIOD_KINDS.has(column.type)) continue;
    const values = rows.map((row) => row[column.name]).filter((value) => value !== null && value !== undefined);
    const unit = periodOfValues(column.name, values);
    if (unit) return { column, values, unit };
  }
  return null;
}

/**
 * The first period of the rows when the report's own first day (`starts`) falls inside it, after
 * its first day: it holds the days from then only ("by month since 15 March": March from the 15th).
 * As for the last period, the rows must begin at that period and hold none earlier (an earlier row
 * means the filter is on another column); a day is never cut, nor a period the filter starts on.
 */
export function firstPeriodCut(columns: readonly ResultColumn[], rows: readonly ResultRow[], today: string, starts: string | null, ends: string | null = null): FirstPeriodCut | null {
  if (starts === null || starts > today) return null;
  const breakdown = periodColumn(columns, rows);
  if (!breakdown || breakdown.unit === 'day') return null;
  const { column, values } = breakdown;
  const unit = breakdown.unit as CalendarUnit;
  const from = startOf(unit, starts);
  if (from === starts) return null;
  const periodStarts = values.map(periodStartOf);
  const at = periodStarts.indexOf(from);
  if (at < 0 || !periodStarts.every((start) => start !== null && start >= from)) return null;
  // Its last day counted: the period's own, or the report's or today when earlier.
  const last = ends !== null && ends < today ? ends : today;
  let through = starts;
  while (through < last && startOf(unit, addDays(through, 1)) === from) through = addDays(through, 1);
  return { field: column.name, value: values[at] as string | number, unit, from: starts, through };
}
