// Which period of a result has not ended on the day its report ran (docs/api.md "Report charts"):
// today, or the week, month, quarter or year that holds it, read from a column's name and values as
// charts read them (periodOfValues), when the rows reach that period and no further. Its bar or
// point holds a few days (today: the sales in so far), not a whole period: charts say so.
import { periodOfValues, type ResultColumn, type ResultRow, type UnfinishedPeriod } from '@stockwise/contract';
import { startOf } from '../plain-words/period.ts';

/**
 * The first date (or year number) column that breaks rows down by a calendar period, and the row
 * value of today's period when the rows run up to it. Rows of a later period (a forecast, a
 * projection) mean the result is not a history that stops today: nothing is named then.
 */
export function unfinishedPeriod(columns: readonly ResultColumn[], rows: readonly ResultRow[], today: string): UnfinishedPeriod | null {
  for (const column of columns) {
    if (column.type !== 'date' && column.type !== 'number') continue;
    const values = rows.map((row) => row[column.name]).filter((value) => value !== null);
    const unit = periodOfValues(column.name, values);
    if (!unit) continue;
    const from = unit === 'day' ? today : startOf(unit, today);
    const value = column.type === 'number' ? Number(from.slice(0, 4)) : from;
    const reaches = values.includes(value) && values.every((other) => (other as string | number) <= value);
    return reaches ? { field: column.name, value, unit, from, through: today } : null;
  }
  return null;
}
