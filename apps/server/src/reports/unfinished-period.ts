// Which period of a result has not ended on the day its report ran (docs/api.md "Report charts"):
// a month (every value of a date column the first of a month, as date_trunc('month') gives) or a
// week (a date column named for weeks, every value a Monday, as date_trunc('week') gives) that
// holds the run's day. Its bar or point holds a few days, not a period: charts say so.
import type { ResultColumn, ResultRow, UnfinishedPeriod } from '@stockwise/contract';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const WEEK_NAME = /(^|_)week(_|$)/i;
const DAY_MS = 86_400_000;

const dayOf = (value: string) => new Date(`${value}T00:00:00Z`);
const isFirstOfMonth = (value: string) => value.endsWith('-01');
const isMonday = (value: string) => dayOf(value).getUTCDay() === 1;

/** The first day of `today`'s month or (Monday-first) week. */
function periodStart(unit: UnfinishedPeriod['unit'], today: string): string {
  if (unit === 'month') return `${today.slice(0, 8)}01`;
  const day = dayOf(today);
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

/** The first date column that breaks rows down by month or week, and the row value of today's period if the rows reach it. */
export function unfinishedPeriod(columns: readonly ResultColumn[], rows: readonly ResultRow[], today: string): UnfinishedPeriod | null {
  for (const column of columns) {
    if (column.type !== 'date') continue;
    const values = rows.map((row) => row[column.name]).filter((value) => value !== null);
    if (!values.length || !values.every((value): value is string => typeof value === 'string' && ISO_DAY.test(value))) continue;
    const unit = values.every(isFirstOfMonth) ? 'month' : WEEK_NAME.test(column.name) && values.every(isMonday) ? 'week' : null;
    if (!unit) continue;
    const start = periodStart(unit, today);
    return values.includes(start) ? { field: column.name, value: start, unit, through: today } : null;
  }
  return null;
}
