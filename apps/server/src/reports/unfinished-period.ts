// Which period of a result has not ended on the day its report ran (docs/api.md "Report charts"):
// today, or the week, month, quarter or year that holds it, read from a column's name and values as
// charts read them (periodOfValues: dates, timestamps at midnight, year numbers, months and quarters
// written as text), when the rows reach that period and no further. Its bar or point holds a few
// days (today: the sales in so far), not a whole period: charts say so.
import { periodOfValues, periodStartOf, type ColumnKind, type ResultColumn, type ResultRow, type UnfinishedPeriod } from '@stockwise/contract';
import { startOf } from '../plain-words/period.ts';

/** The kinds of column a period can be written in. */
const PERIOD_KINDS: ReadonlySet<ColumnKind> = new Set(['date', 'datetime', 'number', 'text']);

/**
 * The first column that breaks rows down by a calendar period, and the row value of today's period
 * when the rows run up to it. Rows of a later period (a forecast, a projection) mean the result is
 * not a history that stops today: nothing is named then.
 */
export function unfinishedPeriod(columns: readonly ResultColumn[], rows: readonly ResultRow[], today: string): UnfinishedPeriod | null {
  for (const column of columns) {
    if (!PERIOD_KINDS.has(column.type)) continue;
    const values = rows.map((row) => row[column.name]).filter((value) => value !== null && value !== undefined);
    const unit = periodOfValues(column.name, values);
    if (!unit) continue;
    const from = unit === 'day' ? today : startOf(unit, today);
    const starts = values.map(periodStartOf);
    const at = starts.indexOf(from);
    const reaches = at >= 0 && starts.every((start) => start !== null && start <= from);
    return reaches ? { field: column.name, value: values[at] as string | number, unit, from, through: today } : null;
  }
  return null;
}
