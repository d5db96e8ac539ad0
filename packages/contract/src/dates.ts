// The app's one way of writing a day for people, day first: "7 Dec 2026" (the assistant's and the
// report writer's words, the dashboard's tasks; ADR 0108, amended). Shared so the screens that show
// the server's sentences beside their own tables and figures write days as those sentences do.

export const SHORT_MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day without its year, where the year goes without saying (a day in the coming week): "8 Dec". */
export function formatDayOfMonth(day: string): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${SHORT_MONTH_NAMES[month - 1]}`;
}

/** A day (YYYY-MM-DD) as people read it: "3 Nov 2026". */
export const formatDay = (day: string): string => `${formatDayOfMonth(day)} ${day.slice(0, 4)}`;

/** Whether text is a day in ISO form (YYYY-MM-DD), as the API writes days. */
export const isIsoDay = (text: unknown): text is string => typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text);
