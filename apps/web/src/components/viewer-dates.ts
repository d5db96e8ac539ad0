// The viewer's way of writing a day with numbers (ADR 0167 and its amendment "a person's own date
// order"): their own choice in Profile, else their browser's languages. How the Data screen and the
// shop's closed days read dates typed into them, and what their placeholders and hints show. en-US
// types 11/30/2026; en-GB and en-AU 30/11/2026; de 30.11.2026; ISO reads in every order.
import { dateOrderOfLanguage, dayInPattern, dayPatternOfLanguage, DEFAULT_DATE_ORDER, ISO_DAY_PATTERN, type DateOrder, type DateOrderPreference, type DayPattern } from '@stockwise/contract';
import { useAccountStore } from '../stores/account.ts';

export type ViewerDates = { order: DateOrder; pattern: DayPattern };
/** The browser's own way, with the language it comes from (null: none of its languages has calendar data). */
export type BrowserDates = ViewerDates & { language: string | null };

const browserLanguages = () => (navigator.languages.length ? navigator.languages : [navigator.language]);
const knownBrowsers = new Map<string, BrowserDates>();
const knownViewers = new Map<string, ViewerDates>();

/** The order and pattern of the browser's first language that has calendar data; day first (DD.MM.YYYY) without one. */
export function browserDates(languages: readonly string[] = browserLanguages()): BrowserDates {
  const key = languages.join(',');
  let dates = knownBrowsers.get(key);
  if (!dates) {
    const tag = languages.find((language) => dateOrderOfLanguage(language) !== null) ?? null;
    dates = tag ? { order: dateOrderOfLanguage(tag) ?? DEFAULT_DATE_ORDER, pattern: dayPatternOfLanguage(tag), language: tag } : { order: DEFAULT_DATE_ORDER, pattern: 'DD.MM.YYYY', language: null };
    knownBrowsers.set(key, dates);
  }
  return dates;
}

/**
 * The viewer's order and pattern: the browser's for `browser`; for a chosen order the browser
 * language's pattern when it writes that order with a separator the readers take (en-GB day first
 * `DD/MM/YYYY`, de `DD.MM.YYYY`), else slashes (en-US day first `DD/MM/YYYY`, ja month first `MM/DD/YYYY`).
 * One object per choice and languages, so a component may depend on it.
 */
export function viewerDates(preference: DateOrderPreference = useAccountStore.getState().dateOrder, languages: readonly string[] = browserLanguages()): ViewerDates {
  const key = `${preference}|${languages.join(',')}`;
  let dates = knownViewers.get(key);
  if (!dates) {
    const browser = browserDates(languages);
    const keepsBrowsers = preference === 'browser' || (preference === browser.order && browser.pattern !== ISO_DAY_PATTERN);
    const order = preference === 'browser' ? browser.order : preference;
    dates = { order, pattern: keepsBrowsers ? browser.pattern : order === 'day-first' ? 'DD/MM/YYYY' : 'MM/DD/YYYY' };
    knownViewers.set(key, dates);
  }
  return dates;
}

/** `viewerDates()` in a component: drawn again when the person changes their choice. */
export const useViewerDates = (): ViewerDates => viewerDates(useAccountStore((state) => state.dateOrder));

/** Examples of dates written in a pattern, for placeholders and hints: a day, a month alone (never with a dash: that is a range), a range. */
export function dateExamples(pattern: DayPattern): { day: string; from: string; month: string; range: string } {
  const [day, from] = [dayInPattern('2026-11-30', pattern), dayInPattern('2026-11-01', pattern)];
  const separator = pattern === 'YYYY-MM-DD' ? null : pattern.charAt(2) === '-' ? '.' : pattern.charAt(2);
  return { day, from, month: separator ? `11${separator}2026` : '2026-11', range: `${from}..${day}` };
}
