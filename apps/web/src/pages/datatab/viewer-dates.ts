// The viewer's way of writing a day with numbers, from the browser's languages (ADR 0167): how the
// Data screen reads dates typed into its filters and row form, and what its placeholders and hints
// show. en-US types 11/30/2026; en-GB and en-AU 30/11/2026; de 30.11.2026; ISO reads in every order.
import { dateOrderOfLanguage, dayInPattern, dayPatternOfLanguage, DEFAULT_DATE_ORDER, type DateOrder, type DayPattern } from '@stockwise/contract';

export type ViewerDates = { order: DateOrder; pattern: DayPattern };

const known = new Map<string, ViewerDates>();

/** The order and pattern of the browser's first language that has calendar data; day first (DD.MM.YYYY) without one. */
export function viewerDates(languages: readonly string[] = navigator.languages.length ? navigator.languages : [navigator.language]): ViewerDates {
  const key = languages.join(',');
  let dates = known.get(key);
  if (!dates) {
    const tag = languages.find((language) => dateOrderOfLanguage(language) !== null);
    dates = tag ? { order: dateOrderOfLanguage(tag) ?? DEFAULT_DATE_ORDER, pattern: dayPatternOfLanguage(tag) } : { order: DEFAULT_DATE_ORDER, pattern: 'DD.MM.YYYY' };
    known.set(key, dates);
  }
  return dates;
}

/** Examples of dates written in a pattern, for placeholders and hints: a day, a month alone (never with a dash: that is a range), a range. */
export function dateExamples(pattern: DayPattern): { day: string; from: string; month: string; range: string } {
  const [day, from] = [dayInPattern('2026-11-30', pattern), dayInPattern('2026-11-01', pattern)];
  const separator = pattern === 'YYYY-MM-DD' ? null : pattern.charAt(2) === '-' ? '.' : pattern.charAt(2);
  return { day, from, month: separator ? `11${separator}2026` : '2026-11', range: `${from}..${day}` };
}
