// Public holidays that move with the weekday (docs/adr/0188): "the n-th or last <weekday> of
// <month>" (a UK bank holiday, Thanksgiving), "the last <weekday> on or before a day of <month>"
// (Victoria Day), either moved a few days on (the day after Thanksgiving), and a fixed holiday's
// substitute day when it falls on a weekend (Christmas on a Saturday, the shop shut on Monday 27th).
// Dates only: what a shop's history says about them is learned in calendar.ts.
import { formatDay, weekdayOf } from './dates.ts';

/**
 * "The n-th (1–4) or last <weekday> (0 = Sunday … 6 = Saturday) of <month> (1–12)"; with
 * `onOrBefore` (nth 'last' only), the last <weekday> on or before that day of the month (Victoria
 * Day: the last Monday on or before 24 May); with `offset`, the day that many days (−6 to 6) from
 * it (the day after Thanksgiving: 1 from the fourth Thursday of November). Both optional, so a rule
 * stored before them (ADR 0188's first form) reads as it did (ADR 0188, amendment 2026-12-06).
 */
export type NthWeekday = { month: number; weekday: number; nth: 1 | 2 | 3 | 4 | 'last'; onOrBefore?: number; offset?: number };

const MONDAY = 1;
const TUESDAY = 2;
const THURSDAY = 4;
/** The day after a rule's day: the Friday after the fourth Thursday of November. */
const DAY_AFTER = 1;
const SATURDAY = 6;
const SUNDAY = 0;

/**
 * The weekday-of-month public holidays shops commonly close on somewhere our shops trade, with what
 * a buyer calls them: the UK's and Ireland's bank holidays, the United States' and Canada's Monday
 * holidays and Thanksgiving, Australia's and New Zealand's Labour Days, King's Birthdays and the
 * Melbourne Cup, Canada's Victoria Day and the day after Thanksgiving many US offices and
 * wholesalers close on. Not per country (Stockwise knows no shop's country), as PUBLIC_HOLIDAY_MONTH_DAYS.
 * Only these are tested (ADR 0188: any other weekday of a month is never a closure).
 */
export const NTH_WEEKDAY_HOLIDAYS: readonly { rule: NthWeekday; name: string }[] = [
  { rule: { month: 1, weekday: MONDAY, nth: 3 }, name: 'Martin Luther King Jr. Day' },
  { rule: { month: 2, weekday: MONDAY, nth: 1 }, name: "St Brigid's Day" },
  { rule: { month: 2, weekday: MONDAY, nth: 3 }, name: "Presidents' Day or Family Day" },
  { rule: { month: 3, weekday: MONDAY, nth: 1 }, name: 'Labour Day in Western Australia' },
  { rule: { month: 3, weekday: MONDAY, nth: 2 }, name: 'Labour Day in Victoria or Canberra Day' },
  { rule: { month: 5, weekday: MONDAY, nth: 1 }, name: 'early May bank holiday' },
  { rule: { month: 5, weekday: MONDAY, nth: 'last', onOrBefore: 24 }, name: 'Victoria Day' },
  { rule: { month: 5, weekday: MONDAY, nth: 'last' }, name: 'spring bank holiday or Memorial Day' },
  { rule: { month: 6, weekday: MONDAY, nth: 1 }, name: 'June bank holiday' },
  { rule: { month: 6, weekday: MONDAY, nth: 2 }, name: "King's Birthday" },
  { rule: { month: 8, weekday: MONDAY, nth: 1 }, name: 'August bank holiday or Civic Holiday' },
  { rule: { month: 8, weekday: MONDAY, nth: 'last' }, name: 'summer bank holiday' },
  { rule: { month: 9, weekday: MONDAY, nth: 1 }, name: 'Labor Day' },
  { rule: { month: 10, weekday: MONDAY, nth: 1 }, name: 'Labour Day' },
  { rule: { month: 10, weekday: MONDAY, nth: 2 }, name: 'Thanksgiving in Canada or Columbus Day' },
  { rule: { month: 10, weekday: MONDAY, nth: 4 }, name: 'Labour Day in New Zealand' },
  { rule: { month: 10, weekday: MONDAY, nth: 'last' }, name: 'October bank holiday' },
  { rule: { month: 11, weekday: TUESDAY, nth: 1 }, name: 'Melbourne Cup' },
  { rule: { month: 11, weekday: THURSDAY, nth: 4 }, name: 'Thanksgiving' },
  // Not "the fourth Friday": when 1 November is a Friday (2024) that is the 22nd, Thanksgiving the 28th.
  { rule: { month: 11, weekday: THURSDAY, nth: 4, offset: DAY_AFTER }, name: 'day after Thanksgiving' },
];

/** A rule as one string, to compare and collect rules by: '8-1-last', '5-1-last<=24', '11-4-4+1'. */
export const nthWeekdayKey = (rule: NthWeekday): string =>
  `${rule.month}-${rule.weekday}-${rule.nth}${rule.onOrBefore === undefined ? '' : `<=${rule.onOrBefore}`}${rule.offset ? `${rule.offset > 0 ? '+' : ''}${rule.offset}` : ''}`;

const HOLIDAY_NAMES = new Map(NTH_WEEKDAY_HOLIDAYS.map(({ rule, name }) => [nthWeekdayKey(rule), name]));

/** Whether a day number is the rule's day: its weekday of its month, moved by its offset. */
export function isNthWeekday(day: number, rule: NthWeekday): boolean {
  const ruleDay = day - (rule.offset ?? 0);
  if (weekdayOf(ruleDay) !== rule.weekday) return false;
  const date = formatDay(ruleDay);
  if (Number(date.slice(5, 7)) !== rule.month) return false;
  const dayOfMonth = Number(date.slice(8, 10));
  if (rule.nth !== 'last') return Math.ceil(dayOfMonth / 7) === rule.nth;
  return rule.onOrBefore === undefined ? formatDay(ruleDay + 7).slice(5, 7) !== date.slice(5, 7) : dayOfMonth <= rule.onOrBefore && dayOfMonth > rule.onOrBefore - 7;
}

// Days of each month in a common year: an `onOrBefore` day every year has.
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const WEEK = 7;

/** A well-formed NthWeekday (ProductForecastInput.closedNthWeekdays, a stored calendar's). */
export function isNthWeekdayRule(rule: unknown): rule is NthWeekday {
  const { month, weekday, nth, onOrBefore, offset } = (rule ?? {}) as Partial<NthWeekday>;
  if (!(Number.isInteger(month) && month! >= 1 && month! <= 12 && Number.isInteger(weekday) && weekday! >= 0 && weekday! <= 6)) return false;
  if (!(nth === 'last' || (Number.isInteger(nth) && nth! >= 1 && nth! <= 4))) return false;
  // A week at least, so the day is always in the month; a month's own days, so it is there every year.
  const dayOk = onOrBefore === undefined || (nth === 'last' && Number.isInteger(onOrBefore) && onOrBefore >= WEEK && onOrBefore <= MONTH_DAYS[month! - 1]!);
  return dayOk && (offset === undefined || (Number.isInteger(offset) && Math.abs(offset) < WEEK));
}

const ORDINALS = { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', last: 'last' } as const;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FULL_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A rule as a buyer reads it, with the holiday's name where it is one: "the last Monday of August
 * (summer bank holiday)", "the last Monday on or before 24 May (Victoria Day)", "the Friday after
 * the fourth Thursday of November (day after Thanksgiving)".
 */
export function nthWeekdayText(rule: NthWeekday): string {
  const name = HOLIDAY_NAMES.get(nthWeekdayKey(rule));
  const month = FULL_MONTHS[rule.month - 1];
  const ruleDay = `the ${ORDINALS[rule.nth]} ${WEEKDAYS[rule.weekday]} ${rule.onOrBefore === undefined ? `of ${month}` : `on or before ${rule.onOrBefore} ${month}`}`;
  const offset = rule.offset ?? 0;
  const day = offset ? `the ${WEEKDAYS[(rule.weekday + offset + WEEK) % WEEK]} ${offset > 0 ? 'after' : 'before'} ${ruleDay}` : ruleDay;
  return `${day}${name ? ` (${name})` : ''}`;
}

/**
 * Fixed public holidays that some country moves to the next weekday when they fall on a weekend:
 * New Year's Day and 2 January, Australia, Waitangi, St Patrick's and Anzac Day, Canada Day, 4 July,
 * Veterans Day, Christmas and Boxing Day. Not the eves (24 and 31 December): no one keeps them on
 * a Monday, and taken as holidays they would take the Monday of the holiday after them.
 */
export const SUBSTITUTED_MONTH_DAYS: ReadonlySet<string> = new Set(['01-01', '01-02', '01-26', '02-06', '03-17', '04-25', '07-01', '07-04', '11-11', '12-25', '12-26']);

// A holiday's substitute comes within days of it: looking a fortnight back finds any still owed.
const SUBSTITUTE_LOOKBACK_DAYS = 14;

/** Whether a holiday on this day number moves off it: a weekend, or a weekday the business is closed on. */
export function isDayOff(day: number, closedWeekdays: readonly number[]): boolean {
  const weekday = weekdayOf(day);
  return weekday === SATURDAY || weekday === SUNDAY || closedWeekdays.includes(weekday);
}

/**
 * Calls `visit(day, holiday)` for each substitute day from `from` to `to` (day numbers, inclusive):
 * each of the `holidays` (month-days) that falls on a weekend or a weekday the business is closed
 * on (`closedWeekdays`) is kept on the first weekday after it that the business is open and that is
 * not one of `holidays` and not already another's substitute, in date order. Christmas on a Saturday
 * and Boxing Day on a Sunday: Monday 27th and Tuesday 28th; Christmas on a Sunday: Tuesday 27th
 * (Monday is Boxing Day). The same walk learns and applies them.
 */
export function substituteDays(holidays: ReadonlySet<string>, closedWeekdays: readonly number[], from: number, to: number, visit: (day: number, holiday: string) => void): void {
  if (!holidays.size) return;
  const owed: string[] = [];
  for (let day = from - SUBSTITUTE_LOOKBACK_DAYS; day <= to; day++) {
    const monthDay = formatDay(day).slice(5);
    if (holidays.has(monthDay)) {
      if (isDayOff(day, closedWeekdays)) owed.push(monthDay);
    } else if (owed.length && !isDayOff(day, closedWeekdays)) {
      const holiday = owed.shift()!;
      if (day >= from) visit(day, holiday);
    }
  }
}
