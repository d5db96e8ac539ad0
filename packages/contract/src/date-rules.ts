// Which days a shop's dates can be, by the database table that holds them (data.sales,
// data.stock_snapshots, data.deliveries), the same for an import, an integration run and the Data
// screen's form. Dates that record what happened — a sale, a stock count — lie between 1970 and
// tomorrow (a till a time zone ahead of the server's UTC day): one sale typed 31/12/2099 made every
// forecast start in 2100. A delivery's expected date is a plan: it may lie ahead, but not more than
// five years (a year typed 2126 for 2026), nor before 1970 (1215 for 2015).
export type DateRuleKind = 'recorded' | 'planned';
export type DateRule = { column: string; kind: DateRuleKind };

const DATE_RULES = new Map<string, DateRule>([
  ['sales', { column: 'date', kind: 'recorded' }],
  ['stock_snapshots', { column: 'date', kind: 'recorded' }],
  ['deliveries', { column: 'expected_date', kind: 'planned' }],
]);
export const EARLIEST_DATE = '1970-01-01';
export const PLANNED_YEARS_AHEAD = 5;

/** The date column of `table` (by its database name) with a rule, and which rule, if it has one. */
export const dateRuleOf = (table: string): DateRule | undefined => DATE_RULES.get(table);

const utcDay = (now: Date, days: number, years = 0) => new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);

/** The first and last day (YYYY-MM-DD) a date under `kind` can be. */
export function dateRange(kind: DateRuleKind, now = new Date()): { earliest: string; latest: string } {
  return { earliest: EARLIEST_DATE, latest: kind === 'recorded' ? utcDay(now, 1) : utcDay(now, 0, PLANNED_YEARS_AHEAD) };
}

/**
 * Why a day (YYYY-MM-DD) cannot be a date under `kind`, or null when it can, with `now`'s range
 * worked out once: a file's million lines are checked against one range (working it out per line
 * built two Dates and a string each, a second of a million-line import).
 */
export function dateRuleChecker(kind: DateRuleKind, now = new Date()): (day: string) => string | null {
  const { earliest, latest } = dateRange(kind, now);
  if (kind === 'recorded') {
    return (day) => {
      if (day > latest) return `${day} is in the future: sales and stock counts are dated when they happened (today at the latest).`;
      if (day < earliest) return `${day} is before ${earliest}: too early to be a sale or a stock count of this shop.`;
      return null;
    };
  }
  return (day) => {
    if (day > latest) return `${day} is more than ${PLANNED_YEARS_AHEAD} years ahead: check the year.`;
    if (day < earliest) return `${day} is before ${earliest}: check the year.`;
    return null;
  };
}

/** Why `day` (YYYY-MM-DD) cannot be a date under `kind`, or null when it can. */
export const dateRuleProblem = (kind: DateRuleKind, day: string, now = new Date()): string | null => dateRuleChecker(kind, now)(day);
