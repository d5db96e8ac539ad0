// The date field's calendar (DayField): its month's weeks, the day the arrow keys move to, and the
// picked day written as the field is typed — in the viewer's pattern (ADR 0161 amendment 2026-12-04,
// ADR 0167; shared with Settings → Shop's closed days, ADR 0171's amendment "a date picker").
import { readTypedDay, type DateOrder } from '@stockwise/contract';

const DAY_MS = 86_400_000;
const isoOf = (date: Date) => date.toISOString().slice(0, 10);
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The day the field's text names (in the viewer's order or ISO), or null while it names none. */
export function dayOfText(text: string, order: DateOrder): string | null {
  const read = readTypedDay(text, order);
  return 'problem' in read ? null : read.day;
}

export const addDays = (day: string, days: number) => isoOf(new Date(dateOf(day).getTime() + days * DAY_MS));

const fullDate = new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "Monday 28 December 2026": what a screen reader says of a calendar's day, weekday and all, in the app's day-month-year words. */
export function fullDay(day: string): string {
  const parts = Object.fromEntries(fullDate.formatToParts(dateOf(day)).map((part) => [part.type, part.value]));
  return `${parts['weekday']} ${parts['day']} ${parts['month']} ${parts['year']}`;
}

/** The same day of another month, the month's last where it has fewer days (31 Jan + 1 month → 28 Feb). */
export function addMonths(day: string, months: number): string {
  const date = dateOf(day);
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(date.getUTCDate(), last));
  return isoOf(first);
}

/** The weeks (Monday first, as the shops' calendars) of the month holding `day`; null where a week reaches into the next or last month. */
export function monthWeeks(day: string): (string | null)[][] {
  const first = `${day.slice(0, 7)}-01`;
  const lead = (dateOf(first).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let at = first; at.slice(0, 7) === first.slice(0, 7); at = addDays(at, 1)) cells.push(at);
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** Where a key moves the calendar's focused day (arrows a day or a week, Page Up/Down a month, Home/End the week's ends); null for other keys. */
export function movedDay(day: string, key: string): string | null {
  const weekday = (dateOf(day).getUTCDay() + 6) % 7;
  switch (key) {
    case 'ArrowLeft':
      return addDays(day, -1);
    case 'ArrowRight':
      return addDays(day, 1);
    case 'ArrowUp':
      return addDays(day, -7);
    case 'ArrowDown':
      return addDays(day, 7);
    case 'PageUp':
      return addMonths(day, -1);
    case 'PageDown':
      return addMonths(day, 1);
    case 'Home':
      return addDays(day, -weekday);
    case 'End':
      return addDays(day, 6 - weekday);
    default:
      return null;
  }
}
