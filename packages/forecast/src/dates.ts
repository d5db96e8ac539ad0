// Dates are whole UTC days. Working in day numbers avoids DST and time-zone drift.
// Parsing and formatting are done arithmetically (Hinnant's civil-date algorithms):
// a catalogue run converts millions of dates, and Date/toISOString dominated the profile.

/** Month names as a buyer reads them, January first. */
export const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A month-day 'MM-DD' as a buyer reads it: '12-28' is "28 Dec". */
export const monthDayText = (monthDay: string) => `${Number(monthDay.slice(3))} ${MONTH_NAMES[Number(monthDay.slice(0, 2)) - 1]}`;

/** Day number since 1970-01-01, or NaN when `ds` is not a real 'YYYY-MM-DD' date. */
export function dayNumber(ds: unknown): number {
  if (typeof ds !== 'string' || ds.length < 10) return NaN;
  if (ds.charCodeAt(4) !== 45 || ds.charCodeAt(7) !== 45 || (ds.length > 10 && ds[10] !== 'T' && ds[10] !== ' ')) return NaN;
  const year = digits(ds, 0, 4);
  const month = digits(ds, 5, 7);
  const day = digits(ds, 8, 10);
  if (Number.isNaN(year) || Number.isNaN(month) || Number.isNaN(day)) return NaN;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  return daysFromCivil(year, month, day);
}

/** Weekday of a day number: 0 = Sunday … 6 = Saturday, as Date.getUTCDay (day 0, 1970-01-01, was a Thursday). */
export function weekdayOf(dayNumberValue: number): number {
  return (((dayNumberValue + 4) % 7) + 7) % 7;
}

export function formatDay(dayNumberValue: number): string {
  const z = dayNumberValue + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

// The windows of labels made last, by first day: a catalogue's products share their forecast and
// backtest days, so each thread formats those dates once instead of once per product.
const labelWindows = new Map<number, string[]>();
const LABEL_WINDOWS_KEPT = 4;

/** formatDay of `count` consecutive days from `firstDay`; the array is shared, not to be changed. */
export function dayLabels(firstDay: number, count: number): readonly string[] {
  const kept = labelWindows.get(firstDay);
  if (kept && kept.length >= count) return kept;
  const labels = Array.from({ length: count }, (_, j) => formatDay(firstDay + j));
  if (!kept && labelWindows.size >= LABEL_WINDOWS_KEPT) labelWindows.delete(labelWindows.keys().next().value!);
  labelWindows.set(firstDay, labels);
  return labels;
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return NaN;
    value = value * 10 + code;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Easter Sunday of a Gregorian year, as a day number (the anonymous Gregorian algorithm: Meeus, Jones, Butcher). */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return dayNumber(`${year}-${month < 10 ? '0' : ''}${month}-${date < 10 ? '0' : ''}${date}`);
}
