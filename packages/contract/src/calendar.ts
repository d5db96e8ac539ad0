// Days of the calendar, for every place that reads a date a person wrote: the row validator (API,
// row form), the file import and the Data screen's filters. One rule and one wording for a day
// that does not exist, so `2026-02-30` gets the same answer wherever it is typed.

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in `month` (1–12) of `year`; 0 for a month that does not exist. */
export function daysInMonth(year: number, month: number): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) return 0;
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export const isCalendarDay = (year: number, month: number, day: number) => Number.isInteger(day) && year >= 1 && day >= 1 && day <= daysInMonth(year, month);

/** Why a year, month and day are no day of the calendar: `February 2026 has 28 days`. */
export function whyNotACalendarDay(year: number, month: number, day: number): string {
  if (daysInMonth(year, month) === 0) return 'a year has 12 months';
  if (day < 1) return 'days start at 1';
  return `${MONTH_NAMES[month - 1]} ${year} has ${daysInMonth(year, month)} days`;
}

/** Why `text`, written as year, month and day, is not a day of the calendar: `2026-02-30 is not a real date: February 2026 has 28 days.` */
export function notACalendarDay(text: string, year: number, month: number, day: number): string {
  return `${text} is not a real date: ${whyNotACalendarDay(year, month, day)}.`;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Null for a real day written YYYY-MM-DD; otherwise what is wrong with `text`. */
export function isoDayProblem(text: string): string | null {
  const match = ISO_DAY.exec(text);
  if (!match) return 'Expected a date as YYYY-MM-DD.';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCalendarDay(year, month, day) ? null : notACalendarDay(text, year, month, day);
}
