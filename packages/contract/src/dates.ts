// The app's one way of writing a day for people, day first: "7 Dec 2026" (the assistant's and the
// report writer's words, the dashboard's tasks, the Forecasting screen; ADR 0108, amended, and ADR
// 0162). Shared so the screens that show the server's sentences beside their own tables and figures
// write days as those sentences do.

export const SHORT_MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day without its year, where the year goes without saying (a day in the coming week): "8 Dec". */
export function formatDayOfMonth(day: string): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${SHORT_MONTH_NAMES[month - 1]}`;
}

/** A day (YYYY-MM-DD) as people read it: "3 Nov 2026". */
export const formatDay = (day: string): string => `${formatDayOfMonth(day)} ${day.slice(0, 4)}`;

/** A month (YYYY-MM, or any day of it) as people read it, short enough for a chart's axis: "Dec 2026". */
export const formatMonth = (month: string): string => `${SHORT_MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

const clockTime = new Intl.DateTimeFormat('en', { timeStyle: 'short' });
const clockTimeWithSeconds = new Intl.DateTimeFormat('en', { timeStyle: 'medium' });
const momentOf = (moment: string | Date) => (typeof moment === 'string' ? new Date(moment) : moment);

/** A moment's time on the viewer's own clock: "3:04 PM" (with `seconds`, "3:04:05 PM"). */
export const formatClockTime = (moment: string | Date, seconds = false): string => (seconds ? clockTimeWithSeconds : clockTime).format(momentOf(moment));

/** A moment (an ISO timestamp or a Date) as people read it, its day and time on the viewer's own clock: "7 Dec 2026, 3:04 PM". */
export function formatMoment(moment: string | Date, seconds = false): string {
  const at = momentOf(moment);
  const localDay = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  return `${formatDay(localDay)}, ${formatClockTime(at, seconds)}`;
}

/** Whether text is a day in ISO form (YYYY-MM-DD), as the API writes days. */
export const isIsoDay = (text: unknown): text is string => typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text);

/** The calendar day (YYYY-MM-DD) `time` falls on in `timeZone` (an IANA name): a shop's "today" where it is. */
export function dayInTimeZone(time: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
