// Dates that record what happened — a sale, a stock count — lie between 1970 and tomorrow (a till
// a time zone ahead of the server's UTC day). One sale typed 31/12/2099 made every product's
// forecast start in 2100 (the day after the newest sale); a column of small numbers mapped to the
// date was read as Excel serials, sales of January 1900. Deliveries' expected dates are plans and
// may lie ahead. By the database table (data.sales, data.stock_snapshots), which forecasts read.
const RECORDED_DATES = new Map([
  ['sales', 'date'],
  ['stock_snapshots', 'date'],
]);
const EARLIEST_RECORDED_DATE = '1970-01-01';

/** The column of `table` (by its database name) whose dates record what happened, if it has one. */
export const recordedDateColumn = (table: string): string | undefined => RECORDED_DATES.get(table);

/** Why `day` (YYYY-MM-DD) cannot be a recorded date, or null when it can. */
export function recordedDateProblem(day: string, now = new Date()): string | null {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
  if (day > tomorrow) return `${day} is in the future: sales and stock counts are dated when they happened (today at the latest).`;
  if (day < EARLIEST_RECORDED_DATE) return `${day} is before ${EARLIEST_RECORDED_DATE}: too early to be a sale or a stock count of this shop.`;
  return null;
}
