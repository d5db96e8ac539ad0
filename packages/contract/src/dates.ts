// The app's one way of writing a day for people, day first: "7 Dec 2026" (the assistant's and the
// report writer's words, the dashboard's tasks, the Forecasting screen; ADR 0108, amended, and ADR
// 0162). Shared so the screens that show the server's sentences beside their own tables and figures
// write days as those sentences do.
import { z } from 'zod';

export const SHORT_MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day without its year, where the year goes without saying (a day in the coming week): "8 Dec". */
export function formatDayOfMonth(day: string): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${SHORT_MONTH_NAMES[month - 1]}`;
}

/** A day (YYYY-MM-DD) as people read it: "3 Nov 2026". */
export const formatDay = (day: string): string => `${formatDayOfMonth(day)} ${day.slice(0, 4)}`;

/** Days from `from` to `to` (YYYY-MM-DD) as people read them: "1–31 Oct 2026", "30 Nov–6 Dec 2026", "28 Dec 2025–3 Jan 2026", or one day. */
export function formatDayRange(from: string, to: string): string {
  if (from === to) return formatDay(from);
  const [fromYear, fromMonth, fromDay] = from.split('-').map(Number) as [number, number, number];
  const [toYear, toMonth] = to.split('-').map(Number) as [number, number, number];
  if (fromYear !== toYear) return `${formatDay(from)}–${formatDay(to)}`;
  if (fromMonth !== toMonth) return `${fromDay} ${SHORT_MONTH_NAMES[fromMonth - 1]}–${formatDay(to)}`;
  return `${fromDay}–${formatDay(to)}`;
}

/** A month (YYYY-MM, or any day of it) as people read it, short enough for a chart's axis: "Dec 2026". */
export const formatMonth = (month: string): string => `${SHORT_MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

const momentOf = (moment: string | Date) => (typeof moment === 'string' ? new Date(moment) : moment);

// The words stay English; only the clock is the viewer's: 24-hour where their locale reads one (en-GB,
// de, nl: "19:48"), AM/PM where it does (en-US: "7:48 PM"). `locale` is the browser's when not given.
const clockFormats = new Map<string, Intl.DateTimeFormat>();
function clockFormat(seconds: boolean, locale: string | undefined): Intl.DateTimeFormat {
  const hourCycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle ?? 'h12';
  const key = `${hourCycle}:${seconds}`;
  let format = clockFormats.get(key);
  if (!format) clockFormats.set(key, (format = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle })));
  return format;
}

/** A moment's time on the viewer's own clock: "3:04 PM" or "15:04" (with `seconds`, "3:04:05 PM" / "15:04:05"). */
export const formatClockTime = (moment: string | Date, seconds = false, locale?: string): string => clockFormat(seconds, locale).format(momentOf(moment));

/** A moment (an ISO timestamp or a Date) as people read it, its day and time on the viewer's own clock: "7 Dec 2026, 3:04 PM" or "7 Dec 2026, 15:04". */
export function formatMoment(moment: string | Date, seconds = false, locale?: string): string {
  const at = momentOf(moment);
  const localDay = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  return `${formatDay(localDay)}, ${formatClockTime(at, seconds, locale)}`;
}

/** Whether text is a day in ISO form (YYYY-MM-DD), as the API writes days. */
export const isIsoDay = (text: unknown): text is string => typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text);

/**
 * A request's `time_zone` (query): the viewer's (the browser's) IANA zone, whose day is "today" for
 * what the request reads or records; the server refuses one that is not a zone (ADR 0030), and
 * takes the shop's zone in effect without one (ADR 0173's amendment).
 */
export const timeZoneQuery = z.object({ time_zone: z.string().optional() });

/** The calendar day (YYYY-MM-DD) `time` falls on in `timeZone` (an IANA name): a shop's "today" where it is. */
export function dayInTimeZone(time: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
