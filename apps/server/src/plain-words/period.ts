// The one reading of periods in plain words ("last month", "in October", "Q3", "since 3/11", "last 30
// days") and of windows ahead ("next week", "by 24/12"), shared by the built-in report writer (which turns a period into SQL relative to the day
// the report runs) and the built-in assistant (which answers for the period's dates). The rules are
// in docs/architecture.md, "Periods in plain words" (ADR 0141).
import { formatDay, formatDayOfMonth, formatDayRange, DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import { escapeRegExp, type Reading } from './reading.ts';
import { RETAIL_DAY_NAMES, RETAIL_DAY_WORDS, readRetailDay, retailDayIn, retailDayOf, type RetailDay } from './retail-days.ts';
import { financialYearRange, financialYearWords, hemisphereOf, readFinancialYear, seasonStartMonth, spokenFinancialYear, type FinancialYearRule, type Hemisphere, type Season } from './shop-calendar.ts';

export type Period =
  | { kind: 'last_days'; days: number }
  | { kind: 'last_months'; months: number }
  | { kind: 'this'; unit: CalendarUnit }
  | { kind: 'previous'; unit: CalendarUnit }
  | { kind: 'year'; year: number }
  | { kind: 'quarter_of_year'; year: number; quarter: number }
  /** A quarter named without a year ("Q3"): its latest occurrence that has started. */
  | { kind: 'quarter'; quarter: number }
  | { kind: 'month_of_year'; year: number; month: number }
  /** A month named without a year: its latest occurrence that has started. */
  | { kind: 'month'; month: number }
  | { kind: 'today' }
  | { kind: 'yesterday' }
  /** `retailDay`: the US retail day it was named as ("Black Friday"): a year before is that day's, not the same date's. */
  | { kind: 'day'; date: string; retailDay?: RetailDay }
  | { kind: 'since'; date: string }
  /** "By D" on a sales question: the year to date up to D (ADR 0148, amendment). */
  | { kind: 'until'; date: string }
  | { kind: 'between'; from: string; to: string }
  /**
   * A meteorological season by the year it starts in (winter 2025 is December 2025 to February 2026),
   * of the southern hemisphere when `hemisphere` says so (summer 2025 December 2025 to February 2026).
   */
  | { kind: 'season'; season: Season; year: number; hemisphere?: 'south' }
  /** The Christmas season of a year: 1–24 December, the run-up a shop sells and buys for (ADR 0148, amendment "Christmas"). */
  | { kind: 'christmas'; year: number }
  /** The Easter weekend of a year: Good Friday to Easter Monday (ADR 0148, amendment "Easter, weekends"). */
  | { kind: 'easter'; year: number }
  /** Saturday and Sunday of last (−1), this (0) or next (1) week, weeks Monday to Sunday. */
  | { kind: 'weekend'; weeks: number }
  /** "All time", "ever": every sale up to today (ADR 0148, amendment "one default for top sellers"). */
  | { kind: 'all_time' }
  /** A financial year of the viewer's country, by the year it ends in (ADR 0148, amendment 2026-12-05; `readFinancialYear`). */
  | { kind: 'financial_year'; rule: FinancialYearRule; year: number };

export type { Season };

/** Calendar units a period can be "this" or "last" of; quarters are January–March, April–June… */
export type CalendarUnit = 'week' | 'month' | 'quarter' | 'year';

/** A period's first and last day (YYYY-MM-DD, both included). */
export type DateRange = { from: string; to: string };

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/**
 * Each month's names as a shop writes them, lower-cased: the English name, the German and Dutch ones
 * where they differ (with the umlaut and without: März, Maerz, Marz; Austria's Jänner; Maart, Mei),
 * and the short forms (`short`: Oct, Okt, Dez, Mär, Mrz, Mrt), which may end in a dot. `alone`: the
 * words that read as the month with nothing before them — not "may" (as likely the verb) nor an
 * English short form ("Jan" is as likely a name); German's and Dutch's own short forms are no English word.
 */
const MONTH_SPELLINGS: { names: string[]; short: string[]; alone: string[] }[] = [
  { names: ['january', 'januar', 'jänner', 'jaenner', 'januari'], short: ['jan', 'jän'], alone: ['jän'] },
  { names: ['february', 'februar', 'februari'], short: ['feb'], alone: [] },
  { names: ['march', 'märz', 'maerz', 'marz', 'maart'], short: ['mar', 'mär', 'mrz', 'mrt'], alone: ['mär', 'mrz', 'mrt'] },
  { names: ['april'], short: ['apr'], alone: [] },
  { names: ['may', 'mai', 'mei'], short: [], alone: [] },
  { names: ['june', 'juni'], short: ['jun'], alone: [] },
  { names: ['july', 'juli'], short: ['jul'], alone: [] },
  { names: ['august', 'augustus'], short: ['aug'], alone: [] },
  { names: ['september'], short: ['sep', 'sept'], alone: [] },
  { names: ['october', 'oktober'], short: ['oct', 'okt'], alone: ['okt'] },
  { names: ['november'], short: ['nov'], alone: [] },
  { names: ['december', 'dezember'], short: ['dec', 'dez'], alone: ['dez'] },
];
/** Words as a pattern, longest first, not followed by a letter (umlauts included, which `\b` does not count). */
const wordsPattern = (words: string[]) => `(?:${[...words].sort((a, b) => b.length - a.length).join('|')})(?![a-zäöüß])`;
/** Any month's name or short form ("Oktober", "Okt.", "Oct"). */
const MONTH = wordsPattern(MONTH_SPELLINGS.flatMap(({ names, short }) => [...names, ...short.map((word) => `${word}\\.?`)]));
/** A month's name read with no word before it. */
const MONTH_ALONE = wordsPattern(MONTH_SPELLINGS.flatMap(({ names, alone }) => [...names.filter((name) => name !== 'may'), ...alone.map((word) => `${word}\\.?`)]));
/** The month (1–12) a name or short form of MONTH is. */
const monthOfName = (word: string) => {
  const spelled = word.replace(/\.$/, '');
  return MONTH_SPELLINGS.findIndex(({ names, short }) => names.includes(spelled) || short.includes(spelled)) + 1;
};
const MONTH_WITH_YEAR = new RegExp(`\\b(${MONTH}) (\\d{4})\\b`);
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, fifty: 50, hundred: 100 };
export const NUM = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|fifty|hundred)';
export const numberIn = (text: string | undefined) => (text === undefined ? null : /^\d+$/.test(text) ? Number(text) : (NUMBER_WORDS[text] ?? null));

// Dates as a shop writes them: ISO, numbers in the asker's order (3/11, 03.11.2026 day-first, 3-11-2026), or with the month's name ("3rd of Nov", "3. März").
const ORDINAL = '(?:st|nd|rd|th|\\.)?';
const DATE = `(?:\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}[/.]\\d{1,2}(?:[/.]\\d{2,4})?|\\d{1,2}-\\d{1,2}-\\d{4}|\\d{1,2}${ORDINAL}(?: of)? ${MONTH}(?:,? \\d{4})?|${MONTH} \\d{1,2}${ORDINAL}\\b(?:,? \\d{4})?)`;

const DAY_MS = 86_400_000;
const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const partsOf = (day: string) => day.split('-').map(Number) as [number, number, number];
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A real calendar day, else null. */
function realDay(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return iso(year, month, day);
}

/**
 * Which occurrence a day written without its year is: the latest that has come (a past period),
 * the next from today on (a window ahead: "order by 24/12"), or the nearer of the two ("sales by
 * 24/12": this Christmas in December, last Christmas in January; a tie goes to the past one).
 */
type Occurrence = 'past' | 'ahead' | 'nearest';

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The nearer of a day's past and next occurrences (either may be null: 29 February). */
function nearer(past: string | null, ahead: string | null, today: string): string | null {
  if (!past || !ahead) return past ?? ahead;
  return daysBetween(today, ahead) < daysBetween(past, today) ? ahead : past;
}

/** A day that falls once a year, in a given year; null when that year has none (29 February). One written with its year is that day whatever the year. */
type DayInYear = (year: number) => string | null;

/** The latest day on or before `day` that `dayIn` names (this year's or last year's). */
function onOrBefore(dayIn: DayInYear, day: string): string | null {
  const [year] = partsOf(day);
  const thisYears = dayIn(year);
  return thisYears && thisYears <= day ? thisYears : dayIn(year - 1);
}

/** The first day on or after `day` that `dayIn` names (this year's or next year's). */
function onOrAfter(dayIn: DayInYear, day: string): string | null {
  const [year] = partsOf(day);
  const thisYears = dayIn(year);
  return thisYears && thisYears >= day ? thisYears : dayIn(year + 1);
}

/** The occurrence asked for of a day that falls once a year (`dayIn`). */
function occurrenceOf(dayIn: DayInYear, today: string, mode: Occurrence): string | null {
  return mode === 'ahead' ? onOrAfter(dayIn, today) : mode === 'past' ? onOrBefore(dayIn, today) : nearer(onOrBefore(dayIn, today), onOrAfter(dayIn, today), today);
}

const occurrence = (month: number, day: number, today: string, mode: Occurrence) => occurrenceOf((year) => realDay(year, month, day), today, mode);

/** Whether a date of numbers alone has its month first: in the asker's order, but dotted dates are German and Dutch writing, day-first whatever the language. */
const monthWrittenFirst = (written: string, order: DateOrder) => order === 'month-first' && !written.includes('.');

/**
 * One date of the DATE pattern. Slashed numbers read in the asker's order (day-first unless their
 * language writes the month first: ADR 0148, amendment "dates in the viewer's order"); a pair only
 * one order makes a date of (27/11, 11/27) reads so either way.
 */
export function readDate(text: string, today: string, mode: Occurrence = 'past', order: DateOrder = DEFAULT_DATE_ORDER): string | null {
  const fullYear = (year: string) => (year.length === 2 ? 2000 + Number(year) : Number(year));
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) return realDay(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2}|\d{4}))?$/.exec(text);
  if (match) {
    let [day, month] = monthWrittenFirst(text, order) ? [Number(match[2]), Number(match[1])] : [Number(match[1]), Number(match[2])];
    if (month > 12 && day <= 12) [day, month] = [month, day];
    return match[3] ? realDay(fullYear(match[3]), month, day) : occurrence(month, day, today, mode);
  }
  match = new RegExp(`^(\\d{1,2})${ORDINAL}(?: of)? (${MONTH})(?:,? (\\d{4}))?$`).exec(text) ?? null;
  const named = match ? { day: match[1], month: match[2], year: match[3] } : null;
  match = new RegExp(`^(${MONTH}) (\\d{1,2})${ORDINAL}(?:,? (\\d{4}))?$`).exec(text);
  const spelled = named ?? (match ? { day: match[2], month: match[1], year: match[3] } : null);
  if (!spelled) return null;
  const month = monthOfName(spelled.month as string);
  if (!month) return null;
  return spelled.year ? realDay(Number(spelled.year), month, Number(spelled.day)) : occurrence(month, Number(spelled.day), today, mode);
}

/** A slashed date's numbers (day, month, year?) put day-first when the date is written month-first. */
function dayFirst(numbers: (string | undefined)[] | undefined, written: string, order: DateOrder): (string | undefined)[] | undefined {
  if (!numbers || !monthWrittenFirst(written, order)) return numbers;
  const [month, day, year] = numbers;
  return [day, month, year];
}

/** Words before a date that make two numbers one ("on 32/01"), as `readPeriod` needs them for "1.5" to be a date. */
const BEFORE_DATE = '(?:on|since|from|between|zwischen|tussen|by|before|until|till|to|and|for|am|seit|ab|bis|op|sinds|vanaf|tot)';

/**
 * A date written that is no day of the calendar, said with what is wrong: "There is no 31 November
 * 2025. November has 30 days.", "There is no month 13 (31/13/2025). A year has 12 months."; null when
 * every date written is a real day (QA5 #20). Two numbers alone read as a date only after a word
 * that dates them ("on 32/01", not "50/50 mix"); a day without a year is none only when no year has
 * it ("30/02"; "29/02" is a leap year's). Slashed numbers are read in the asker's `order`, as
 * `readDate` reads them: "11/31/2025" is 31 November month-first, month 31 day-first.
 */
export function impossibleDate(text: string, today: string, order: DateOrder = DEFAULT_DATE_ORDER): string | null {
  const dates = new RegExp(`(?<![\\w/.-])(?:(${BEFORE_DATE}) )?(${DATE})(?![\\d/.-])`, 'g');
  for (const match of text.matchAll(dates)) {
    const written = match[2] as string;
    if (readDate(written, today, 'past', order)) continue;
    const numbers = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(written)?.slice(1).reverse() ?? dayFirst(/^(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2}|\d{4}))?$/.exec(written)?.slice(1), written, order);
    const spelled = numbers ? null : (new RegExp(`^(\\d{1,2})${ORDINAL}(?: of)? (${MONTH})(?:,? (\\d{4}))?$`).exec(written) ?? new RegExp(`^(${MONTH}) (\\d{1,2})${ORDINAL}(?:,? (\\d{4}))?$`).exec(written));
    const [day, month, year] = numbers
      ? [Number(numbers[0]), Number(numbers[1]), numbers[2]]
      : spelled && /^\d/.test(spelled[1] as string)
        ? [Number(spelled[1]), monthOfName(spelled[2] as string), spelled[3]]
        : [Number(spelled?.[2]), monthOfName(spelled?.[1] as string), spelled?.[3]];
    if (numbers && !numbers[2] && !match[1]) continue;
    const fullYear = year === undefined ? null : year.length === 2 ? 2000 + Number(year) : Number(year);
    if (month < 1 || month > 12) return `There is no month ${month} (${written}). A year has 12 months.`;
    // 29 February without a year is a leap year's.
    if (fullYear === null && realDay(2024, month, day)) continue;
    const name = MONTH_NAMES[month - 1] as string;
    const inYear = fullYear === null ? '' : ` ${fullYear}`;
    if (month === 2) return `There is no ${day} ${name}${inYear}. ${name}${inYear} has ${fullYear === null ? 'at most 29' : daysInMonth(fullYear, month)} days.`;
    return `There is no ${day} ${name}${inYear}. ${name} has ${daysInMonth(2023, month)} days.`;
  }
  return null;
}

/** The longest span a question may look back or ahead over: a century ("the last 99999999 days" reached before year 1, a database error). */
const MOST_SPAN_MONTHS = 1200;
const MONTHS_IN: Record<PeriodUnit, number> = { day: 12 / 365.25, week: (7 * 12) / 365.25, month: 1, quarter: 3, year: 12 };

/** Said of "the last / next N days, weeks, months…" (English, German, Dutch) longer than a century; null when none is. */
export function spanTooLong(text: string): string | null {
  const spans = new RegExp(`\\b(?:last|past|previous|next|coming|letzten|vergangenen|nächsten|kommenden|afgelopen|laatste|vorige|volgende|komende) (\\d+) (day|week|month|quarter|year|${GERMAN_UNIT_WORDS}|${DUTCH_UNIT_WORDS})s?\\b`, 'gi');
  for (const match of text.matchAll(spans)) {
    const word = (match[2] as string).toLowerCase();
    const unit = word in MONTHS_IN ? (word as PeriodUnit) : unitOfWord(word);
    if (Number(match[1]) * MONTHS_IN[unit] > MOST_SPAN_MONTHS) {
      return `"${match[0]}" is more than a century: ask about at most the last or next 100 years (1,200 months, 36,500 days).`;
    }
  }
  return null;
}

/** "Between 1/12 and 24/12", "from 28/12/2025 to 3/1/2026": two dates, both included. */
const DATES_RANGE = new RegExp(`\\b(?:between|from|since) (${DATE}) (?:and|to|until|till|-|–) (${DATE})(?![\\d/.-])`);

/** The period the words name, or null; `today` dates a day or month written without its year. */
export function readPeriod(reading: Reading, today: string): Period | null {
  let match = reading.exec(new RegExp(`(?:last|past|previous|over the last|in the last) ${NUM} (day|week|month|quarter|year)s?`));
  if (match) return lastSpan(match[1] as string, match[2] as string);
  // A British shop's two weeks: "over the last fortnight", "the past 2 fortnights" (QA8 F14).
  match = reading.exec(new RegExp(`(?:(?:over|in|for|during) )?(?:the )?(?:last|past|previous)(?: ${NUM})? fortnights?\\b`));
  if (match) return { kind: 'last_days', days: 14 * (match[1] ? (numberIn(match[1]) as number) : 1) };
  const weekCommencing = readWeekCommencing(reading, today);
  if (weekCommencing) return weekCommencing;
  match = reading.exec(new RegExp(`\\b(?:in den |die |den )?(?:letzten|vergangenen) ${NUM} (${GERMAN_UNIT_WORDS})\\b`));
  if (match) return lastSpan(match[1] as string, unitOfWord(match[2] as string));
  match = reading.exec(new RegExp(`\\b(?:in de |de )?(?:afgelopen|laatste|vorige) ${NUM} (${DUTCH_UNIT_WORDS})\\b`));
  if (match) return lastSpan(match[1] as string, unitOfWord(match[2] as string));
  // Before "year to date" and a year alone: "financial year to date", "financial year 2025".
  const financialYear = readFinancialYear(reading, today);
  if (financialYear) return financialYear;
  match = DATES_RANGE.exec(reading.text);
  if (match) {
    const [from, to] = [readDate(match[1] as string, today, 'past', reading.dateOrder), readDate(match[2] as string, today, 'past', reading.dateOrder)];
    if (from && to) {
      reading.exec(new RegExp(escapeRegExp(match[0])));
      return from <= to ? { kind: 'between', from, to } : { kind: 'between', from: to, to: from };
    }
  }
  const namedDays = readNamedDaysRange(reading, today);
  if (namedDays) return namedDays;
  // "Sales by 24/12": the year to date up to that day, whichever 24/12 is nearer today.
  match = UNTIL_DAY.exec(reading.text);
  const until = match ? dayNamed(match[1] as string, today, 'nearest', reading.dateOrder) : null;
  if (match && until) {
    reading.exec(new RegExp(escapeRegExp(match[0])));
    return { kind: 'until', date: until };
  }
  // Before a date: "last July 4th" is the day, not "last July" and a date.
  const retailDay = readRetailDay(reading, today);
  if (retailDay) return retailDay;
  // A date standing alone needs more than "1.5" (a number with decimals) to read as one.
  match = new RegExp(`\\b(since|from|on|seit|ab|am|sinds|vanaf|op) (${DATE})(?![\\d/.-])`).exec(reading.text) ?? new RegExp(`(?<![\\w/.-])()(${DATE})(?![\\d/.-])`).exec(reading.text);
  const date = match && !(match[1] === '' && /^\d{1,2}\.\d{1,2}$/.test(match[2] as string)) ? readDate(match[2] as string, today, 'past', reading.dateOrder) : null;
  if (match && date) {
    reading.exec(new RegExp(escapeRegExp(match[0])));
    return ['since', 'from', 'seit', 'ab', 'sinds', 'vanaf'].includes(match[1] as string) ? { kind: 'since', date } : { kind: 'day', date };
  }
  const holiday = readHoliday(reading, today);
  if (holiday) return holiday;
  match = reading.exec(WEEKEND);
  if (match) return { kind: 'weekend', weeks: weekendOffset(match[1] as string) };
  // "Last Saturday", "this past Saturday", "letzten Samstag", "afgelopen zaterdag": the latest such day before today (ADR 0193).
  match = reading.exec(LAST_WEEKDAY);
  if (match) return { kind: 'day', date: lastWeekday(weekdayOfWord(match[1] as string), today) };
  const months = readMonthRange(reading, today);
  if (months) return months;
  // "Since March", "seit März (2026)", "sinds maart": from the first of the month, its latest occurrence that has started when no year is said.
  match = reading.exec(new RegExp(`\\b(?:since|seit|ab|sinds|vanaf) (${MONTH})(?: (\\d{4})\\b)?`));
  if (match) {
    const month = monthOfName(match[1] as string);
    return { kind: 'since', date: fullRangeOf(match[2] ? { kind: 'month_of_year', month, year: Number(match[2]) } : { kind: 'month', month }, today).from };
  }
  if (reading.test(/\b(?:(?:of|for|over|in) )?all[- ]time\b|\bever\b/)) return { kind: 'all_time' };
  if (reading.test(/\b(today|heute|vandaag)\b/)) return { kind: 'today' };
  if (reading.test(/\b(yesterday|gestern|gisteren)\b/)) return { kind: 'yesterday' };
  match = reading.exec(/\b(this|current) (?:calendar )?(week|month|quarter|year)\b/);
  if (match) return { kind: 'this', unit: match[2] as CalendarUnit };
  match = reading.exec(new RegExp(`\\b(?:im |in der )?(?:diese[mnrs]?|laufende[mnrs]?|aktuelle[mnrs]?) (${GERMAN_UNIT_WORDS})\\b`));
  if (match) return { kind: 'this', unit: unitOfWord(match[1] as string) as CalendarUnit };
  match = reading.exec(/\b(?:deze|dit|huidige) (week|maand|kwartaal|jaar)\b/);
  if (match) return { kind: 'this', unit: unitOfWord(match[1] as string) as CalendarUnit };
  // "This November" is this year's, "last November" last year's: the pair a shop compares ("diesen November", "letzten November").
  match = reading.exec(new RegExp(`\\b(this|last|previous|(?:im )?(?:diese[mnrs]?|letzte[mnrs]?|vorige[mnrs]?|vergangene[mnrs]?)|deze|vorig) (${MONTH})`));
  if (match) return { kind: 'month_of_year', month: monthOfName(match[2] as string), year: partsOf(today)[0] - (/^(this|(im )?diese|deze)/.test(match[1] as string) ? 0 : 1) };
  if (reading.test(/\b(year to date|ytd)\b/)) return { kind: 'this', unit: 'year' };
  if (reading.test(/\b(quarter to date|qtd)\b/)) return { kind: 'this', unit: 'quarter' };
  match = reading.exec(/\b(last|previous) (?:calendar )?(week|month|quarter|year)\b/);
  if (match) return { kind: 'previous', unit: match[2] as CalendarUnit };
  match = reading.exec(new RegExp(`\\b(?:im |in der )?(?:letzte[mnrs]?|vorige[mnrs]?|vergangene[mnrs]?) (${GERMAN_UNIT_WORDS})\\b`));
  if (match) return { kind: 'previous', unit: unitOfWord(match[1] as string) as CalendarUnit };
  match = reading.exec(/\b(?:vorige|vorig|afgelopen|verleden) (week|maand|kwartaal|jaar)\b/);
  if (match) return { kind: 'previous', unit: unitOfWord(match[1] as string) as CalendarUnit };
  const season = readSeason(reading, today);
  if (season) return season;
  const quarter = readQuarter(reading);
  if (quarter) return quarter;
  match = reading.exec(MONTH_WITH_YEAR);
  if (match) return { kind: 'month_of_year', month: monthOfName(match[1] as string), year: Number(match[2]) };
  // "may" alone is as likely the verb, "Jan" a name: the month needs a word before it that dates it.
  match = reading.exec(new RegExp(`\\b(?:in|for|during|of|over|through|im|für|während|tijdens|afgelopen) (${MONTH})`)) ?? reading.exec(new RegExp(`\\b(${MONTH_ALONE})`));
  if (match) return { kind: 'month', month: monthOfName(match[1] as string) };
  match = reading.exec(/\b(?:in|for|during|of) (\d{4})\b/) ?? reading.exec(/^ ?(\d{4})\b/);
  if (match) return { kind: 'year', year: Number(match[1]) };
  return null;
}

/** The Christmas season's days in December: from the 1st to Christmas Eve. */
const CHRISTMAS_SEASON_DAYS = { from: 1, to: 24 };
/** Days of the Christmas season a shop names (ADR 0148, amendment "Christmas"). */
const HOLIDAY_DAYS: Record<string, number> = { 'christmas eve': 24, 'christmas day': 25, 'boxing day': 26 };
/** A year said after a holiday: "2025", ", 2025", "last year", "(last year)". */
const HOLIDAY_YEAR = '(?:,? (\\d{4})\\b)?(?: \\(?(last|this) year\\)?)?';
/** "Christmas Eve (2025 / last year)", "last Boxing Day", "on Christmas Day". */
const HOLIDAY_DAY = new RegExp(`\\b(?:(?:on|at|over) )?(?:(this|last|previous) )?(christmas eve|christmas day|boxing day)\\b${HOLIDAY_YEAR}`);
/** "Last Christmas", "at Christmas (2025)", "over the Christmas period", "Christmas 2025", "this Christmas": not "Christmas" alone, which may be a category's or a product's name. */
const CHRISTMAS_SEASON = new RegExp(`(?:\\b(at|over|during) (?:the )?)?(?:\\b(this|last|previous) )?\\bchristmas(?! eve\\b| day\\b)(?: (season|period|trading))?${HOLIDAY_YEAR}`);

/** A year standing alone, not part of a code or a date ("sales 2025", "in 2025"). */
const YEAR_APART = /(?<![\w/.-])(?:in |of )?((?:19|20)\d{2})(?![\w/.-])/;

/** The first Christmas season the words name as a period ("Christmas" with a word that dates it), else null. */
function christmasSeason(text: string): RegExpExecArray | null {
  return [...text.matchAll(new RegExp(CHRISTMAS_SEASON.source, 'g'))].find((match) => match.slice(1).some(Boolean)) ?? null;
}

/** "Good Friday", "Easter Monday (2025)", "last Easter Sunday": that day, Easter Sunday's offset. */
const EASTER_DAY = new RegExp(`\\b(?:(?:on|at|over) )?(?:(this|last|previous) )?(good friday|easter saturday|easter sunday|easter monday)\\b${HOLIDAY_YEAR}`);
const EASTER_OFFSETS: Record<string, number> = { 'good friday': -2, 'easter saturday': -1, 'easter sunday': 0, 'easter monday': 1, easter: 0 };
/**
 * "Last Easter", "at / over Easter", "Easter 2025", "the Easter weekend", "Easter sales": the Easter
 * weekend. Not "Easter" alone, which may be a category's or a product's name ("Easter eggs").
 */
const EASTER_WEEKEND = new RegExp(`(?:\\b(at|over|during) (?:the )?)?(?:\\b(this|last|previous) )?\\beaster(?! saturday\\b| sunday\\b| monday\\b)(?: (weekend|period|holidays?|trading))?(?=( sales\\b)|)${HOLIDAY_YEAR}`);
const easterWeekend = (text: string) => [...text.matchAll(new RegExp(EASTER_WEEKEND.source, 'g'))].find((match) => match.slice(1).some(Boolean)) ?? null;

/**
 * Easter Sunday of a year by the Gregorian computus (the anonymous algorithm, as Meeus gives it):
 * the first Sunday after the ecclesiastical full moon on or after 21 March.
 */
export function easterSunday(year: number): string {
  const golden = year % 19;
  const [century, ofCentury] = [Math.floor(year / 100), year % 100];
  const leapCenturies = Math.floor(century / 4);
  const moonCorrection = Math.floor((century - Math.floor((century + 8) / 25) + 1) / 3);
  const epact = (19 * golden + century - leapCenturies - moonCorrection + 15) % 30;
  const weekday = (32 + 2 * (century % 4) + 2 * Math.floor(ofCentury / 4) - epact - (ofCentury % 4)) % 7;
  const late = Math.floor((golden + 11 * epact + 22 * weekday) / 451);
  const count = epact + weekday - 7 * late + 114;
  return iso(year, Math.floor(count / 31), (count % 31) + 1);
}
/** Easter Sunday's offset day (−2 Good Friday … +1 Easter Monday) of a year. */
const easterDay = (year: number, offset: number) => addDays(easterSunday(year), offset);

/** "Last weekend('s)", "this weekend", "next weekend", "letztes Wochenende", "vorig weekend": Saturday and Sunday of a week. */
export const WEEKEND = /(?<![\p{L}])(?:(?:over|at|am|an) )?(?:the )?(last|previous|past|this|next|coming|letzte[mns]?|vorige[mns]?|vergangene[mns]?|diese[mns]?|nächste[mns]?|kommende[mns]?|vorig|afgelopen|dit|volgend|komend) (?:weekend|wochenende)(?:'s)?(?![\p{L}])/u;
/** Weekdays in English, German and Dutch, Sunday first. */
const WEEKDAY_WORDS = [
  ['sunday', 'sonntag', 'zondag'],
  ['monday', 'montag', 'maandag'],
  ['tuesday', 'dienstag', 'dinsdag'],
  ['wednesday', 'mittwoch', 'woensdag'],
  ['thursday', 'donnerstag', 'donderdag'],
  ['friday', 'freitag', 'vrijdag'],
  ['saturday', 'samstag', 'sonnabend', 'zaterdag'],
];
/** "Last Saturday('s)", "this past Saturday", "on Saturday last", "letzten Samstag", "vorigen Freitag", "afgelopen zaterdag", "vorige zaterdag". */
const LAST_WEEKDAY = new RegExp(`(?<![\\p{L}])(?:(?:on|am|op) )?(?:last|this past|past|previous|letzte[mns]?|vorige[mns]?|vergangene[mns]?|afgelopen|vorig) (${WEEKDAY_WORDS.flat().join('|')})(?:'s)?(?![\\p{L}])`, 'u');
/** A weekday's word as its number, Sunday 0. */
const weekdayOfWord = (word: string) => WEEKDAY_WORDS.findIndex((words) => words.includes(word));
/** The latest day before `today` on `weekday` (Sunday 0): last Saturday on a Saturday is a week ago. */
function lastWeekday(weekday: number, today: string): string {
  const dayOfWeek = new Date(`${today}T00:00:00Z`).getUTCDay();
  return addDays(today, -(((dayOfWeek - weekday + 6) % 7) + 1));
}

/** The week a weekend's word names: last (−1), this (0), next (1). */
const weekendOffset = (word: string) => (/^(this|diese|dit)/.test(word) ? 0 : /^(next|coming|nächste|kommende|volgend|komend)/.test(word) ? 1 : -1);

/**
 * The words of a question that date it rather than name products: a holiday period ("last
 * Christmas", "at Easter 2025"), a range of named days ("between Thanksgiving and Christmas") and a
 * deadline ("before Christmas", "by Easter", "until December").
 * A category or product named "Christmas" is read from the rest ("what did we sell last Christmas"
 * is a period, "sales of Christmas" the category; ADR 0148, amendments "Christmas" and "Easter").
 */
export const datingWords = (text: string): string[] =>
  [NAMED_DAYS_RANGE.exec(text), HOLIDAY_DAY.exec(text), christmasSeason(text), EASTER_DAY.exec(text), easterWeekend(text), AHEAD_DATE.exec(text), UNTIL_MONTH_AHEAD.exec(text), UNTIL_DAY.exec(text), UNTIL_MONTH.exec(text)].flatMap((match) => (match ? [match[0]] : []));

/**
 * "Last Christmas" (the latest season that has ended: in December, last year's), "this Christmas"
 * (this year's), "at Christmas" / "over the Christmas period" (the latest that has started, as a
 * month named alone), "Christmas 2025" or "Christmas last year" (that year's: a year said is never
 * dropped); "Christmas Eve", "Christmas Day", "Boxing Day" are that day, the latest that has come
 * unless a year or "this" is said ("last Christmas Eve": the latest before today). Easter alike:
 * "Good Friday", "Easter Sunday", "Easter Monday" are that day; "last / this Easter", "at Easter",
 * "Easter 2025", "the Easter weekend" are Good Friday to Easter Monday.
 */
function readHoliday(reading: Reading, today: string): Period | null {
  const [thisYear] = partsOf(today);
  // A year said elsewhere in the question ("Boxing Day sales 2025") is the holiday's too: never dropped.
  const apart = () => reading.exec(YEAR_APART)?.[1];
  const yearOf = (said: string | undefined, relative: string | undefined) => (said ? Number(said) : relative === 'last' ? thisYear - 1 : relative === 'this' ? thisYear : null);
  const found = (match: RegExpExecArray | null) => {
    if (match) reading.exec(new RegExp(escapeRegExp(match[0])));
    return match;
  };
  const christmasDay = found(HOLIDAY_DAY.exec(reading.text));
  if (christmasDay) {
    const dayIn = (year: number) => iso(year, 12, HOLIDAY_DAYS[christmasDay[2] as string] as number);
    return { kind: 'day', date: dayIn(yearOf(christmasDay[3] ?? apart(), christmasDay[4]) ?? holidayYear(today, christmasDay[1], (year) => ({ from: dayIn(year), to: dayIn(year) }))) };
  }
  const easterDayNamed = found(EASTER_DAY.exec(reading.text));
  if (easterDayNamed) {
    const dayIn = (year: number) => easterDay(year, EASTER_OFFSETS[easterDayNamed[2] as string] as number);
    return { kind: 'day', date: dayIn(yearOf(easterDayNamed[3] ?? apart(), easterDayNamed[4]) ?? holidayYear(today, easterDayNamed[1], (year) => ({ from: dayIn(year), to: dayIn(year) }))) };
  }
  const easter = found(easterWeekend(reading.text));
  if (easter) return { kind: 'easter', year: yearOf(easter[5] ?? apart(), easter[6]) ?? holidayYear(today, easter[2], (year) => fullRangeOf({ kind: 'easter', year }, today)) };
  const season = found(christmasSeason(reading.text));
  if (season) return { kind: 'christmas', year: yearOf(season[4] ?? apart(), season[5]) ?? holidayYear(today, season[2], (year) => fullRangeOf({ kind: 'christmas', year }, today)) };
  const bankHoliday = found(BANK_HOLIDAY.exec(reading.text));
  if (bankHoliday) return latestBankHoliday(today, bankHoliday[1], bankHoliday[2]);
  return null;
}

/** "The bank holiday", "last bank holiday Monday", "over the bank holiday weekend": one not named by its season (those are retail days). */
const BANK_HOLIDAY = /\b(?:(?:on|at|over|for|during) )?(?:the )?(?:(last|previous|this) )?(?<!(?:may|spring|summer|august|whitsun|day) )bank holiday(?: (monday|weekend))?\b/;
const SATURDAY = 6;
const SUNDAY = 0;
const MONDAY = 1;
const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/**
 * England's and Wales' bank holidays of a year: a fixed one on a weekend moves to the next weekday no
 * other holiday holds (Boxing Day on a Saturday to Monday the 28th; Christmas on a Saturday to the
 * 27th and Boxing Day to the 28th). The one-off days a government adds (a jubilee, a funeral) are not known.
 */
function bankHolidaysIn(year: number): string[] {
  const held = new Set<string>();
  for (const fixed of [iso(year, 1, 1), iso(year, 12, 25), iso(year, 12, 26)]) {
    let day = fixed;
    while ([SATURDAY, SUNDAY].includes(weekdayOf(day)) || held.has(day)) day = addDays(day, 1);
    held.add(day);
  }
  const moving: RetailDay[] = ['early_may_bank_holiday', 'spring_bank_holiday', 'summer_bank_holiday'];
  return [...held, easterDay(year, -2), easterDay(year, 1), ...moving.map((day) => retailDayIn(day, year))].sort();
}

/**
 * The latest bank holiday that has come (today included; before today with "last"), a Monday one when
 * "Monday" is said; "the bank holiday weekend" is that Monday's Saturday to it (Good Friday to Easter
 * Monday at Easter). A named one (the summer bank holiday) keeps its name in the answer.
 */
function latestBankHoliday(today: string, relative: string | undefined, part: string | undefined): Period {
  const thisYear = partsOf(today)[0];
  const candidates = [...bankHolidaysIn(thisYear - 1), ...bankHolidaysIn(thisYear)]
    .filter((day) => (relative === 'last' || relative === 'previous' ? day < today : day <= today))
    .filter((day) => !part || weekdayOf(day) === MONDAY);
  const date = candidates.at(-1) as string;
  if (part === 'weekend') return { kind: 'between', from: bankHolidayWeekendStart(date), to: date };
  const named = namedBankHoliday(date);
  return named ? { kind: 'day', date, retailDay: named } : { kind: 'day', date };
}

/** A Monday bank holiday's weekend starts on its Saturday; Easter Monday's on Good Friday. */
const bankHolidayWeekendStart = (monday: string) => addDays(monday, monday === easterDay(partsOf(monday)[0], 1) ? -3 : -2);
/** The early May, spring or summer bank holiday a day is, if it is one: answers name those by their names. */
const namedBankHoliday = (date: string) => (['early_may_bank_holiday', 'spring_bank_holiday', 'summer_bank_holiday'] as const).find((day) => retailDayIn(day, partsOf(date)[0]) === date);

/**
 * "Before the next bank holiday", "by the bank holiday", "until bank holiday Monday", "before the bank
 * holiday weekend": a window ahead to the next of England's and Wales' bank holidays (today included;
 * after today with "next"), a Monday one when "Monday" or "weekend" is said. "Before" ends the day
 * before it (before the weekend: the day before its Saturday), "by" and "until" on it (on the
 * weekend's first day), "through" on its last. The answer names the day, which the words did not.
 */
function readBankHolidayAhead(reading: Reading, today: string): Ahead | null {
  const match = reading.exec(BANK_HOLIDAY_AHEAD);
  if (!match) return null;
  const [, until, next, part] = match as unknown as [string, string, string | undefined, string | undefined];
  const thisYear = partsOf(today)[0];
  const weekend = part === 'weekend';
  const date = [...bankHolidaysIn(thisYear), ...bankHolidaysIn(thisYear + 1)]
    .filter((day) => !part || weekdayOf(day) === MONDAY)
    // A window must still have days to come: "before" the day that is today, or "the next", is the following one.
    .find((day) => (weekend ? bankHolidayWeekendStart(day) : day) >= (next || until === 'before' ? addDays(today, 1) : today)) as string;
  const days = { from: weekend ? bankHolidayWeekendStart(date) : date, to: date };
  const by = until === 'before' ? addDays(days.from, -1) : until === 'through' || until === 'thru' ? days.to : days.from;
  const words = weekend ? `${until} the bank holiday weekend (${formatRange(days)})` : `${until} ${bankHolidayName(date)} on ${formatDay(date)}`;
  return { from: null, by, words, span: { through: by } };
}

/** A bank holiday as a buyer calls it: "Christmas Day", "Good Friday", "the summer bank holiday"; a substitute day is "the bank holiday". */
function bankHolidayName(date: string): string {
  const [year, month, day] = partsOf(date);
  const named = namedBankHoliday(date);
  if (named) return RETAIL_DAY_NAMES[named];
  if (date === easterDay(year, -2)) return 'Good Friday';
  if (date === easterDay(year, 1)) return 'Easter Monday';
  if (month === 1 && day === 1) return "New Year's Day";
  if (month === 12 && day === 25) return 'Christmas Day';
  if (month === 12 && day === 26) return 'Boxing Day';
  return 'the bank holiday';
}

/**
 * The year of a holiday said without one, by its days in a year: this year's ("this"), the latest
 * that has ended ("last", "previous"), else the latest that has started (as a month named alone).
 */
function holidayYear(today: string, relative: string | undefined, daysIn: (year: number) => DateRange): number {
  const [thisYear] = partsOf(today);
  if (relative === 'this') return thisYear;
  const { from, to } = daysIn(thisYear);
  return (relative === 'last' || relative === 'previous' ? today > to : today >= from) ? thisYear : thisYear - 1;
}

const YEAR_SAID = '(?: (\\d{4}))?(?!\\d)';
/** "From March to May", "von März bis Mai", "van maart tot (en met) mei", "March–May": two months, both included. */
const MONTH_RANGE = new RegExp(`(?:\\b(?:from|von|vom|van) |\\b)(${MONTH})${YEAR_SAID}(?: (?:to|until|till|through|thru|bis|tot en met|t/m|tot) | ?[-–] ?)(${MONTH})${YEAR_SAID}`);
/** "Between March and May", "zwischen März und Mai", "tussen maart en mei". */
const MONTH_BETWEEN = new RegExp(`\\b(?:between|zwischen|tussen) (${MONTH})${YEAR_SAID} (?:and|und|en) (${MONTH})${YEAR_SAID}`);
/** "Until December", "up to May", "bis Dezember", "tot (en met) december": the year up to that month's end. */
const UNTIL_MONTH = new RegExp(`\\b(?:until|till|up to|up until|bis|tot en met|t/m|tot) (${MONTH})${YEAR_SAID}`);

const lastDayOf = (year: number, month: number) => iso(year, month, daysInMonth(year, month));

/** A day a range may start or end on by its name: a holiday, a US retail day, a month's start or end ("the end of May"). */
const RANGE_DAY = `(?:the )?(?:start|beginning|end) of ${MONTH}|christmas(?: day| eve)?|boxing day|new year's(?: day| eve)?|new year|easter(?: saturday| sunday| monday)?|good friday|${RETAIL_DAY_WORDS}`;
/** One end of a range of days: a date, a named day or a month, with a year said after it or not. */
const RANGE_END = `(${DATE}|${RANGE_DAY}|${MONTH})(?:,? (\\d{4}))?`;
/**
 * "From Black Friday to Cyber Monday", "between Thanksgiving and Christmas", "from Easter to the end of
 * May (2025 / last year)": a range of days one of whose ends is named, not written as a date.
 */
const NAMED_DAYS_RANGE = new RegExp(`\\b(?:from|between|since) ${RANGE_END} (?:and|to|until|till|through|thru|-|–) ${RANGE_END}(?: \\(?(last|this) year\\)?)?(?![\\d/.-])`);

/** One end of a range as the day it is in a year: a month alone starts the range on its first day and ends it on its last. */
function rangeEnd(words: string, yearSaid: string | number | undefined, end: 'from' | 'to', order: DateOrder, today: string): DayInYear | null {
  const inYear = (dayIn: DayInYear): DayInYear => (yearSaid === undefined ? dayIn : () => dayIn(Number(yearSaid)));
  const monthEdge = new RegExp(`^(?:the )?(start|beginning|end) of (${MONTH})$`).exec(words);
  const month = monthEdge ? monthOfName(monthEdge[2] as string) : new RegExp(`^(?:${MONTH})$`).test(words) ? monthOfName(words) : 0;
  if (month) return inYear((year) => ((monthEdge ? monthEdge[1] === 'end' : end === 'to') ? lastDayOf(year, month) : iso(year, month, 1)));
  const named = NAMED_DAYS[words] ?? (HOLIDAY_DAYS[words] === undefined ? undefined : [12, HOLIDAY_DAYS[words]]);
  if (named) return inYear((year) => iso(year, named[0], named[1]));
  const easterOffset = EASTER_OFFSETS[words];
  if (easterOffset !== undefined) return inYear((year) => easterDay(year, easterOffset));
  if (new RegExp(`^(?:${RETAIL_DAY_WORDS})$`).test(words)) return inYear((year) => retailDayIn(retailDayOf(words), year));
  const dated = readDate(words, today, 'past', order);
  if (!dated) return null;
  const [, dayMonth, dayOfMonth] = partsOf(dated);
  return DATE_WITH_YEAR.test(words) ? () => dated : (year) => realDay(year, dayMonth, dayOfMonth);
}

/** A date of the DATE pattern that says its year ("3/11/25", "2025-11-03", "3 Nov 2025"). */
const DATE_WITH_YEAR = /\d{4}|\d[/.-]\d{1,2}[/.-]\d/;

/**
 * A range of days with a named end ("from Black Friday to Cyber Monday"): its first day the latest
 * that has come (or in the year said, or said of its last day), its last day the first on or after
 * it — "between Thanksgiving and Christmas" in December 2026 is 26 Nov–25 Dec 2026, under way until
 * Christmas; "last year" after the range is the year before's (ADR 0148, amendment 2026-12-05).
 * Two months alone are `readMonthRange`'s; two dates are read before this.
 */
function readNamedDaysRange(reading: Reading, today: string): Period | null {
  const match = NAMED_DAYS_RANGE.exec(reading.text);
  if (!match) return null;
  const [, fromWords, fromYear, toWords, toYear, relative] = match as unknown as [string, string, string | undefined, string, string | undefined, string | undefined];
  const monthAlone = new RegExp(`^(?:${MONTH})$`);
  if (monthAlone.test(fromWords) && monthAlone.test(toWords)) return null;
  const relativeYear = relative ? partsOf(today)[0] - (relative === 'last' ? 1 : 0) : undefined;
  const [start, end] = [rangeEnd(fromWords, fromYear ?? relativeYear, 'from', reading.dateOrder, today), rangeEnd(toWords, toYear, 'to', reading.dateOrder, today)];
  if (!start || !end) return null;
  // Only the last day's year said ("from Black Friday to Cyber Monday 2025"): the first is the latest before it.
  const lastSaidAlone = (toYear !== undefined || DATE_WITH_YEAR.test(toWords)) && fromYear === undefined && relativeYear === undefined && !DATE_WITH_YEAR.test(fromWords);
  const from = lastSaidAlone ? onOrBefore(start, end(0) as string) : onOrBefore(start, today);
  const to = from && onOrAfter(end, from);
  if (!from || !to) return null;
  reading.exec(new RegExp(escapeRegExp(match[0])));
  return from <= to ? { kind: 'between', from, to } : { kind: 'between', from: to, to: from };
}

/**
 * A range of months (ADR 0148, amendment "ranges of months"): the first month's latest occurrence
 * that has started (or its year said), to the next occurrence of the last month from it — over a
 * year end the November before the February; a range under way ends today, as any period does.
 * "Until" a month is the year up to its end: this year's once the month has started, else the one
 * whose end is nearer today, as "by 24/12" picks its day (in January "until December" is last year's).
 */
function readMonthRange(reading: Reading, today: string): Period | null {
  const [thisYear, thisMonth] = partsOf(today);
  const range = reading.exec(MONTH_RANGE) ?? reading.exec(MONTH_BETWEEN);
  if (range) {
    const [first, last] = [monthOfName(range[1] as string), monthOfName(range[3] as string)];
    const [firstSaid, lastSaid] = [range[2] ? Number(range[2]) : null, range[4] ? Number(range[4]) : null];
    const startYear = firstSaid ?? (lastSaid !== null ? lastSaid - (first > last ? 1 : 0) : first <= thisMonth ? thisYear : thisYear - 1);
    const endYear = lastSaid ?? startYear + (last < first ? 1 : 0);
    const [from, to] = [iso(startYear, first, 1), lastDayOf(endYear, last)];
    return from <= to ? { kind: 'between', from, to } : { kind: 'between', from: iso(endYear, last, 1), to: lastDayOf(startYear, first) };
  }
  const until = reading.exec(UNTIL_MONTH);
  if (!until) return null;
  const month = monthOfName(until[1] as string);
  const year = until[2] ? Number(until[2]) : month <= thisMonth ? thisYear : partsOf(nearer(lastDayOf(thisYear - 1, month), lastDayOf(thisYear, month), today) as string)[0];
  return { kind: 'between', from: iso(year, 1, 1), to: lastDayOf(year, month) };
}

/**
 * A German shop's units of time, in any number and case ("Tag", "Tagen", "Woche", "Monats",
 * "Quartale", "Jahres"), as the period and breakdown readings take them (ADR 0148, amendment "German words").
 */
const GERMAN_UNIT_WORDS = 'tage?n?|tages|wochen?|monate?n?|monats|quartale?n?|quartals|jahre?n?|jahres';
/** A Dutch shop's ("dag", "dagen", "weken", "maanden", "kwartaal", "jaren"; ADR 0148, amendment "Dutch words"). */
const DUTCH_UNIT_WORDS = 'dagen|dag|weken|week|maanden|maand|kwartalen|kwartaal|jaren|jaar';
const UNIT_STEMS: [string, PeriodUnit][] = [['tag', 'day'], ['woche', 'week'], ['monat', 'month'], ['quartal', 'quarter'], ['jahr', 'year'], ['dag', 'day'], ['we', 'week'], ['maand', 'month'], ['kwarta', 'quarter'], ['ja', 'year'], ['day', 'day'], ['month', 'month']];
/** The unit a word of time names, in English, German or Dutch. */
const unitOfWord = (word: string): PeriodUnit => (UNIT_STEMS.find(([stem]) => word.startsWith(stem)) as [string, PeriodUnit])[1];
/** "In den nächsten 30 Tagen", "die kommenden 2 Wochen": a German shop's days ahead (`readHorizon`). */
const GERMAN_HORIZON = new RegExp(`(?<![\\p{L}])(?:in den |die |den |innerhalb der )?(?:nächsten|kommenden) ${NUM} (tage?n?|wochen?|monate?n?)(?![\\p{L}])`, 'u');
/** "Nächste Woche", "im kommenden Monat": the next calendar unit. */
const GERMAN_NEXT = /(?<![\p{L}])(?:im |in der )?(?:nächste[mnrs]?|kommende[mnrs]?) (woche|monat|quartal|jahr)(?![\p{L}])/u;
/** "De komende 30 dagen", "binnen 2 weken": a Dutch shop's days ahead. */
const DUTCH_HORIZON = new RegExp(`(?<![\\p{L}])(?:in de |de |binnen de )?(?:komende|volgende|binnen) ${NUM} (dagen|dag|weken|week|maanden|maand)(?![\\p{L}])`, 'u');
/** "Volgende week", "komende maand", "volgend jaar". */
const DUTCH_NEXT = /(?<![\p{L}])(?:volgende|volgend|komende|komend) (week|maand|kwartaal|jaar)(?![\p{L}])/u;

/** "The last N days / weeks / months / quarters / years": N whole days, or N months, before today. */
function lastSpan(count: string, unit: string): Period {
  const n = numberIn(count) as number;
  if (unit === 'day') return { kind: 'last_days', days: n };
  if (unit === 'week') return { kind: 'last_days', days: n * 7 };
  return { kind: 'last_months', months: n * { month: 1, quarter: 3, year: 12 }[unit as 'month' | 'quarter' | 'year'] };
}

/** Words asking what has not sold: "no sales", "not sold", "haven't we sold", "didn't sell"… (both readers' one list). */
export const NOT_SOLD =
  /\b(no|zero|without( any)?|not any)\s+sales\b|\bnot (been )?sold\b|\b(have|has|had) ?(n'?t|not)( (we|they|it|you))?( been)? sold\b|\b(did|do|does) ?(n'?t|not)( (we|they|it|you))? sell\b|\bnever sold\b|\bnot selling\b/;

/** The days a question about products that have not sold looks back over when it names none (the dashboard's "no sales in 90 days" too). */
export const NO_SALES_DAYS = 90;
export const NO_SALES_PERIOD: Period = { kind: 'last_days', days: NO_SALES_DAYS };

/**
 * The period top sellers (a ranking of products or categories by sales) cover when the question
 * names none: what sells now, as a till's or Shopify's product report opens, for the assistant, its
 * model's tool and the report writer alike (ADR 0148, amendment "one default for top sellers").
 */
export const TOP_SELLERS_PERIOD: Period = { kind: 'last_days', days: 30 };

/**
 * "Not sold in 60 days", "no sales for 8 weeks", "haven't sold in 3 months": on a question about
 * what has not sold, "in N days" looks back over the last N, never ahead. Null when no such span is said.
 */
export function readQuietSpan(reading: Reading): Period | null {
  const match = reading.exec(new RegExp(`\\b(?:in|for|over|within) (?:the )?${NUM} (day|week|month|quarter|year)s?\\b`));
  return match ? lastSpan(match[1] as string, match[2] as string) : null;
}

/** Units sales are totalled by when a question asks for the best or worst of them. */
export type PeriodUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';
/** "The best month", "worst week", "busiest day": sales by that unit, best (desc) or worst (asc) first. */
export type BestPeriod = { unit: PeriodUnit; direction: 'desc' | 'asc' };

export function readBestPeriod(reading: Reading): BestPeriod | null {
  const match = reading.exec(/\b(best|top|busiest|strongest|highest|biggest|worst|slowest|quietest|weakest|lowest)(?:[- ]selling)? (day|week|month|quarter|year)s?\b/);
  if (!match) return null;
  return { unit: match[2] as PeriodUnit, direction: /^(worst|slowest|quietest|weakest|lowest)$/.test(match[1] as string) ? 'asc' : 'desc' };
}

/**
 * Sales broken down by a calendar unit, a row (a point) each: "by quarter", "per month", "quarterly",
 * "week by week", "daily", "annual"; "trend" and "over time" by month. "Average daily" and "daily
 * average" are a measure, not a breakdown. The report writer's breakdown and the assistant's (ADR 0141).
 */
const BREAKDOWN_WORDS: [PeriodUnit, RegExp][] = [
  ['week', /\b(by|per|each|every) week\b|\bweekly\b|\bweek by week\b|\b(pro|je|nach) wochen?\b|\bwöchentlich\b|\bwekelijks\b/],
  ['month', /\b(by|per|each|every) month\b|\bmonthly\b|\bmonth by month\b|\b(pro|je|nach) monat(en)?\b|\bmonatlich\b|\bper maand\b|\bmaandelijks\b/],
  ['quarter', /\b(by|per|each|every) quarter\b|\bquarterly\b|\bquarter by quarter\b|\b(pro|je|nach) quartal(en)?\b|\bvierteljährlich\b|\bquartalsweise\b|\bper kwartaal\b/],
  ['day', /\b(by|per|each|every) day\b(?! on average)|(?<!\b(average|avg) )\bdaily\b(?! average)|\bday by day\b|\b(pro|je|nach) tag(en)?\b|\btäglich\b|\bper dag\b|\bdagelijks\b/],
  ['year', /\b(by|per|each|every) year\b|\byearly\b|\bannual(ly)?\b|\byear by year\b|\b(pro|je|nach) jahr(en)?\b|\bjährlich\b|\bper jaar\b|\bjaarlijks\b/],
  ['month', /\btrend\b|\bover time\b/],
];

export const readBreakdown = (reading: Reading): PeriodUnit | null => BREAKDOWN_WORDS.find(([, words]) => reading.test(words))?.[0] ?? null;

/** Two periods set side by side, the earlier first (the change is from it to the later one). */
export type Comparison = { earlier: Period; later: Period };

/**
 * "Compare this November with last November", "sales this month vs last month", "December 2025
 * against December 2024": a period on each side of the word that sets them side by side. "With",
 * "to" and "and" do so only after "compare"; "vs", "versus", "against" always. Null unless both
 * sides name a period.
 */
export function readComparison(reading: Reading, today: string): Comparison | null {
  const compare = /\bcompare(d|s)?\b|\bcomparison\b/.test(reading.text);
  const separator = (compare ? /\b(?:vs\.?|versus|against|compared (?:to|with)|than|with|to|and)(?= )/ : /\b(?:vs\.?|versus|against|compared (?:to|with)|than)(?= )/).exec(reading.text);
  if (!separator) return null;
  const sides = [reading.part(0, separator.index), reading.part(separator.index + separator[0].length, reading.text.length)] as const;
  const first = readPeriod(sides[0].trial(), today);
  // "Last week vs the week before": the later side named by the earlier one (ADR 0189).
  const before = first && readPeriodBefore(sides[1].trial(), first, today);
  const second = before || readPeriod(sides[1].trial(), today);
  if (!first || !second) return null;
  readPeriod(sides[0], today);
  if (before) readPeriodBefore(sides[1], first, today);
  else readPeriod(sides[1], today);
  // "Did we sell more last month than the month before?": the word "than" compares.
  if (separator[0] === 'than') reading.test(/\b(?:more|less|fewer|better|worse|higher|lower)\b/);
  reading.exec(new RegExp(`\\b${escapeRegExp(separator[0])}(?= )`));
  reading.test(/\bcompare(d|s)?\b|\bcomparison\b/);
  const [earlier, later] = [sameSpanLastYear(first, second, today), sameSpanLastYear(second, first, today)];
  if (earlier !== first || later !== second) reading.test(SAME_SPAN);
  return comparisonOf(earlier, later, today);
}

/**
 * "The week before", "the month before (last)", "the previous quarter", "the prior week", "the year
 * earlier", "the one before", "the period before": the span before a period the question named first
 * (`periodBefore`), a unit said or not.
 */
const BEFORE_PERIOD = /\b(?:the |a )?(?:(?:previous|prior|preceding) (day|week|month|quarter|year|period|one)|(day|week|month|quarter|year|period|one) (?:before(?: (?:that|it|last))?|prior|earlier))\b/;

/**
 * The period said as the one before `period` ("the week before", "the previous month"; `BEFORE_PERIOD`),
 * its words used; null when the words say none or `period` has none before it (all time).
 */
export function readPeriodBefore(reading: Reading, period: Period, today: string): Period | null {
  const match = BEFORE_PERIOD.exec(reading.text);
  if (!match) return null;
  const unit = match[1] ?? match[2];
  const before = periodBefore(period, unit === 'period' || unit === 'one' ? null : (unit as CalendarUnit | 'day'), today);
  if (before) reading.exec(BEFORE_PERIOD);
  return before;
}

/** The calendar unit a range is one whole of (a week Monday to Sunday), else null. */
function wholeUnitOf(range: DateRange): CalendarUnit | null {
  return (['year', 'quarter', 'month', 'week'] as const).find((unit) => startOf(unit, range.from) === range.from && addDays(shift(unit, range.from, 1), -1) === range.to) ?? null;
}

/**
 * The span just before a period (ADR 0189): one `unit` ending the day before it starts ("the week
 * before" last week is the week before that, "the month before" October is September); without a
 * unit, the span of the same length — the calendar week, month, quarter or year before a whole one,
 * last year's Christmas or Easter, the weekend a week before. Named as a buyer reads it ("last week",
 * "November 2026"); null for all time, which has nothing before it.
 */
export function periodBefore(period: Period, unit: CalendarUnit | 'day' | null, today: string): Period | null {
  if (period.kind === 'all_time') return null;
  const range = fullRangeOf(period, today);
  if (unit === 'day') return periodOfRange({ from: addDays(range.from, -1), to: addDays(range.from, -1) }, today);
  if (unit) return periodOfRange({ from: shift(unit, range.from, -1), to: addDays(range.from, -1) }, today);
  if (period.kind === 'christmas' || period.kind === 'easter' || period.kind === 'financial_year') return { ...period, year: period.year - 1 };
  if (period.kind === 'weekend') return periodOfRange({ from: addDays(range.from, -7), to: addDays(range.to, -7) }, today);
  const whole = wholeUnitOf(range);
  if (whole) return periodOfRange({ from: shift(whole, range.from, -1), to: addDays(range.from, -1) }, today);
  // Whole months (a season, "from March to May"): as many months before.
  const months = range.from.endsWith('-01') && addDays(range.to, 1).endsWith('-01') ? monthsBetween(range.from, addDays(range.to, 1)) : 0;
  if (months) return periodOfRange({ from: shift('month', range.from, -months), to: addDays(range.from, -1) }, today);
  return periodOfRange({ from: addDays(range.from, -(daysBetween(range.from, range.to) + 1)), to: addDays(range.from, -1) }, today);
}

const monthsBetween = (from: string, to: string) => {
  const [[fromYear, fromMonth], [toYear, toMonth]] = [partsOf(from), partsOf(to)];
  return (toYear - fromYear) * 12 + toMonth - fromMonth;
};

/** Days as the period a buyer calls them: yesterday, last week (month…), a month, quarter or year by its name, a day, else the days. */
function periodOfRange(range: DateRange, today: string): Period {
  if (range.from === range.to && range.from === addDays(today, -1)) return { kind: 'yesterday' };
  const previous = (['week', 'month', 'quarter', 'year'] as const).find((unit) => {
    const last = fullRangeOf({ kind: 'previous', unit }, today);
    return last.from === range.from && last.to === range.to;
  });
  if (previous) return { kind: 'previous', unit: previous };
  if (range.from === range.to) return { kind: 'day', date: range.from };
  const [year, month] = partsOf(range.from);
  switch (wholeUnitOf(range)) {
    case 'year':
      return { kind: 'year', year };
    case 'quarter':
      return { kind: 'quarter_of_year', year, quarter: Math.ceil(month / 3) };
    case 'month':
      return { kind: 'month_of_year', year, month };
    default:
      return { kind: 'between', from: range.from, to: range.to };
  }
}

/** "The same month last year", "the same days": words that only say the span is matched. */
const SAME_SPAN = /\b(?:the )?same (?:days?|weeks?|months?|quarters?|period|season|time)(?: of)?\b/;

/**
 * "This month compared with last year": against a span shorter than a year, "last year" is the same
 * span a year before it (1–3 Dec 2025 against 1–3 Dec 2026), not the whole year before — whose
 * first days the like-for-like cut would take (1–3 Jan 2025; QA5 #9). A week is the one 52 weeks
 * earlier, so its days are the same weekdays. `period` is returned as it is otherwise.
 */
function sameSpanLastYear(period: Period, other: Period, today: string): Period {
  if (!(period.kind === 'previous' && period.unit === 'year')) return period;
  const range = fullRangeOf(other, today);
  const [year, month] = partsOf(range.from);
  // Black Friday last year is last year's Black Friday (29 Nov 2024 against 28 Nov 2025), not the same date.
  if (other.kind === 'day' && other.retailDay) return { kind: 'day', date: retailDayIn(other.retailDay, year - 1), retailDay: other.retailDay };
  switch (other.kind) {
    case 'this':
    case 'previous':
      if (other.unit === 'year') return period;
      if (other.unit === 'month') return { kind: 'month_of_year', year: year - 1, month };
      if (other.unit === 'quarter') return { kind: 'quarter_of_year', year: year - 1, quarter: Math.ceil(month / 3) };
      return { kind: 'between', from: addDays(range.from, -364), to: addDays(range.to, -364) };
    case 'month':
    case 'month_of_year':
      return { kind: 'month_of_year', year: year - 1, month };
    case 'quarter':
    case 'quarter_of_year':
      return { kind: 'quarter_of_year', year: year - 1, quarter: Math.ceil(month / 3) };
    case 'season':
      return { ...other, year: other.year - 1 };
    case 'christmas':
      return { kind: 'christmas', year: other.year - 1 };
    case 'easter':
      return { kind: 'easter', year: other.year - 1 };
    case 'financial_year':
      return { ...other, year: other.year - 1 };
    case 'weekend':
      return { kind: 'between', from: addDays(range.from, -364), to: addDays(range.to, -364) };
    case 'year':
    case 'all_time':
      return period;
    default:
      return range.to.slice(0, 4) === range.from.slice(0, 4) || range.to < addDays(range.from, 366) ? { kind: 'between', from: shift('year', range.from, -1), to: shift('year', range.to, -1) } : period;
  }
}

/** Two periods said in either order, the earlier first: the one that starts first (a model's tool gets them so too). */
export function comparisonOf(first: Period, second: Period, today: string): Comparison {
  const later = fullRangeOf(first, today).from > fullRangeOf(second, today).from;
  return later ? { earlier: second, later: first } : { earlier: first, later: second };
}

/**
 * A comparison's days like for like: while the later period is under way ("this month" on the 3rd)
 * it runs up to the last day with sales (today's may not be in yet), and the earlier is cut to as
 * many days from its start (1–2 Nov against 1–2 Dec), so a month so far is not set against a whole
 * month. Null once the later has ended.
 */
export function sameDaysSoFar(comparison: Comparison, today: string, lastSalesDay: string | null): { earlier: DateRange; later: DateRange } | null {
  const later = fullRangeOf(comparison.later, today);
  if (!(later.from <= today && later.to > today)) return null;
  const through = lastSalesDay === null || lastSalesDay > today ? today : lastSalesDay < later.from ? later.from : lastSalesDay;
  const earlier = fullRangeOf(comparison.earlier, today);
  const to = addDays(earlier.from, daysBetween(later.from, through));
  return { earlier: { from: earlier.from, to: to < earlier.to ? to : earlier.to }, later: { from: later.from, to: through } };
}

const seasonRange = (season: Season, year: number, hemisphere: Hemisphere = 'north'): DateRange => {
  const from = iso(year, seasonStartMonth(season, hemisphere), 1);
  return { from, to: addDays(shift('month', from, 3), -1) };
};

/**
 * "Last winter" (the latest that has ended), "this summer" (this year's; in January and February
 * "this winter" is the one under way), "winter 2025" (December 2025 to February 2026), "in the
 * autumn" (the latest that has started); "fall" is autumn. Seasons are of the asker's hemisphere,
 * by their time zone (`hemisphereOf`): in Melbourne "this summer" in January is December to February.
 */
function readSeason(reading: Reading, today: string): Period | null {
  const match = reading.exec(/\b(?:(this|last|previous|the last) )?(spring|summer|autumn|fall|winter)(?:'?s)?(?: (\d{4})(?:[–/-]\d{2})?)?\b/);
  if (!match) return null;
  const season: Season = match[2] === 'fall' ? 'autumn' : (match[2] as Season);
  const hemisphere = hemisphereOf(reading.timeZone);
  const of = (year: number): Period => (hemisphere === 'south' ? { kind: 'season', season, year, hemisphere } : { kind: 'season', season, year });
  if (match[3]) return of(Number(match[3]));
  const [year, month] = partsOf(today);
  const candidates = [year, year - 1, year - 2].map((start) => ({ start, range: seasonRange(season, start, hemisphere) }));
  // The season that starts in December and runs over the year end is under way in January and February.
  const overYearEnd = seasonStartMonth(season, hemisphere) === 12;
  const chosen =
    match[1] === 'this'
      ? { start: overYearEnd && month <= 2 ? year - 1 : year }
      : match[1]
        ? candidates.find(({ range }) => range.to < today)
        : candidates.find(({ range }) => range.from <= today);
  return of((chosen as { start: number }).start);
}

/** A season as words read back as the same season: "winter 2025–26", "summer 2026" (in the south "summer 2025–26", "winter 2026"). */
const seasonWords = ({ season, year, hemisphere = 'north' }: { season: Season; year: number; hemisphere?: Hemisphere }) =>
  seasonStartMonth(season, hemisphere) === 12 ? `${season} ${year}–${String((year + 1) % 100).padStart(2, '0')}` : `${season} ${year}`;

const QUARTER_WORDS: Record<string, number> = { q1: 1, q2: 2, q3: 3, q4: 4, first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };
const YEAR_THEN_QUARTER = /\b(\d{4}) (q[1-4])\b/;
const QUARTER_THEN_YEAR = /\b(q[1-4]|(?:first|second|third|fourth|1st|2nd|3rd|4th) quarter)(?:,? (?:of )?(\d{4}))?\b/;

/** "Q3", "Q3 2026", "2026 Q3", "the third quarter (of 2026)": a calendar quarter, with its year or without. */
function quarterIn(reading: Reading): { quarter: number; year: number | null } | null {
  const match = reading.exec(YEAR_THEN_QUARTER) ?? reading.exec(QUARTER_THEN_YEAR);
  if (!match) return null;
  const [word, year] = /^\d{4}$/.test(match[1] as string) ? [match[2] as string, match[1]] : [match[1] as string, match[2]];
  return { quarter: QUARTER_WORDS[word.replace(/ quarter$/, '')] as number, year: year ? Number(year) : null };
}

function readQuarter(reading: Reading): Period | null {
  const named = quarterIn(reading);
  if (!named) return null;
  return named.year ? { kind: 'quarter_of_year', quarter: named.quarter, year: named.year } : { kind: 'quarter', quarter: named.quarter };
}

/** A window ahead ("in the next 30 days", "within 2 weeks"), in days; null when the words name none. */
export function readHorizon(reading: Reading): number | null {
  const match = reading.exec(new RegExp(`\\b(?:next|coming|within|in|over the next) ${NUM} (day|week|month)s?\\b`)) ?? reading.exec(GERMAN_HORIZON) ?? reading.exec(DUTCH_HORIZON);
  if (!match) return null;
  const n = numberIn(match[1] as string) as number;
  const unit = unitOfWord(match[2] as string);
  return unit === 'day' ? n : unit === 'week' ? n * 7 : n * 30;
}

/**
 * Days still to come, due by their last day (`by`); `from` is where they start, null for "by 24/12"
 * (overdue included). `span` is the window as said, for SQL that stays relative to the day it runs.
 */
export type Ahead = { from: string | null; by: string; words: string; span: AheadSpan };
/**
 * A month or quarter named without a year (`year` null) is its next occurrence, the current one
 * included; `this` is today or the rest of this week, month…; `dates` are fixed days that start after
 * the day they were read.
 */
export type AheadSpan =
  | { days: number }
  | { next: CalendarUnit }
  | { through: string }
  | { month: number; year: number | null }
  | { quarter: number; year: number | null }
  | { this: CalendarUnit | 'day' }
  | { dates: DateRange };

/**
 * A window ahead, as an order or stock-out question names it: "the next 14 days", "next week",
 * "next month", "by 24/12", "before 20 December" (the day before), "in January", "Q1 2027". A date,
 * month or quarter without a year is its next occurrence from today on. Null when the words name
 * none (ADR 0148).
 */
export function readAhead(reading: Reading, today: string): Ahead | null {
  return readComing(reading, today) ?? readDayAhead(reading, today) ?? readMonthOrQuarterAhead(reading, today);
}

/** "The next 14 days", "next week / month / quarter / year": days from today or the next calendar unit. */
function readComing(reading: Reading, today: string): (Ahead & { from: string }) | null {
  const days = readHorizon(reading);
  if (days !== null) return windowOf({ days }, today);
  // "The end of next month" is a day (`readDayAhead`), not the month.
  const match = reading.exec(/(?<!end of )\bnext (week|month|quarter|year)\b/);
  if (match) return windowOf({ next: match[1] as CalendarUnit }, today);
  const local = reading.exec(GERMAN_NEXT) ?? reading.exec(DUTCH_NEXT);
  return local ? windowOf({ next: unitOfWord(local[1] as string) as CalendarUnit }, today) : null;
}

/**
 * "By 24/12", "before Christmas" (the day before), "until Black Friday", "till Easter", "through the
 * end of the month", "until December": from today to that day, both included (ADR 0148, amendment
 * "until a named day"); the day's next occurrence, a month's its last day. A day named, not written
 * as a date, is said by its name ("until Black Friday").
 */
function readDayAhead(reading: Reading, today: string): Ahead | null {
  const month = reading.exec(UNTIL_MONTH_AHEAD);
  if (!month) return readNamedDayAhead(reading, today) ?? readBankHolidayAhead(reading, today);
  const named = monthOfName(month[2] as string);
  const [thisYear, thisMonth] = partsOf(today);
  const year = month[3] ? Number(month[3]) : named >= thisMonth ? thisYear : thisYear + 1;
  const by = lastDayOf(year, named);
  return { from: null, by, words: `${month[1]} ${MONTH_NAMES[named - 1]} ${year}`, span: { through: by } };
}

/** A day a window runs to, written or named: "by 24/12", "before Christmas", "until Black Friday", "through the end of the month". */
function readNamedDayAhead(reading: Reading, today: string): Ahead | null {
  const match = AHEAD_DATE.exec(reading.text);
  // The end of a range of dates ("from 1/1/2027 until 10/1/2027") is the range's, read as a period.
  const range = DATES_RANGE.exec(reading.text);
  if (match && range && match.index > range.index && match.index < range.index + range[0].length) return null;
  const date = match ? dayNamed(match[2] as string, today, 'ahead', reading.dateOrder) : null;
  if (!match || !date) return null;
  reading.exec(new RegExp(escapeRegExp(match[0])));
  const by = match[1] === 'before' ? addDays(date, -1) : date;
  const written = readDate(match[2] as string, today, 'ahead', reading.dateOrder) !== null || new RegExp(`^${DAY_OF_MONTH}$`).test(match[2] as string);
  return { from: null, by, words: `${match[1]} ${written ? formatDay(date) : spokenName(match[2] as string)}`, span: { through: by } };
}

/** Words of a named day as an answer says them: "Black Friday", "New Year's Eve", "the end of January", "the end of the month". */
function spokenName(words: string): string {
  if (new RegExp(`^(?:${RETAIL_DAY_WORDS})$`).test(words)) return RETAIL_DAY_NAMES[retailDayOf(words)];
  const spoken = words.split(' ').map((word, at, all) => (/^(?:the|of|end|next|this|week|month|quarter|year)$/.test(word) && !(word === 'year' && all[at - 1] === 'new') ? word : word.charAt(0).toUpperCase() + word.slice(1)));
  return spoken.join(' ');
}

// Without a year the month needs a word before it: "order by March" is left unread, not taken for March's end.
const MONTH_AHEAD = new RegExp(`\\b(?:in|for|during|over|through|im|für|während) (${MONTH})`);

/**
 * "Run out in January", "in Q1 2027": the month or quarter named, from today on when it is under
 * way; without a year its next occurrence (in December, "January" is next year's, "December" this
 * one's rest).
 */
function readMonthOrQuarterAhead(reading: Reading, today: string): Ahead | null {
  const match = reading.exec(MONTH_WITH_YEAR) ?? reading.exec(MONTH_AHEAD);
  if (match) return windowOf({ month: monthOfName(match[1] as string), year: match[2] ? Number(match[2]) : null }, today);
  const quarter = quarterIn(reading);
  return quarter ? windowOf(quarter, today) : null;
}

/**
 * The days a window spans as of `today`, from today where it is under way (a month or quarter
 * without a year is its next occurrence, the current one included), with the words an answer names
 * it by: "the next 30 days", "next week", "January 2027", "Q1 2027", "this month", "by 24 Dec 2026".
 */
export function windowOf(span: AheadSpan, today: string): Ahead & { from: string } {
  if ('days' in span) return { from: today, by: addDays(today, span.days - 1), words: `the next ${span.days} days`, span };
  if ('next' in span) {
    const from = shift(span.next, startOf(span.next, today), 1);
    return { from, by: addDays(shift(span.next, from, 1), -1), words: `next ${span.next}`, span };
  }
  if ('through' in span) return { from: today, by: span.through, words: `by ${formatDay(span.through)}`, span };
  if ('this' in span) {
    const by = span.this === 'day' ? today : addDays(shift(span.this, startOf(span.this, today), 1), -1);
    return { from: today, by, words: span.this === 'day' ? 'today' : `this ${span.this}`, span };
  }
  if ('dates' in span) return { from: span.dates.from, by: span.dates.to, words: formatRange(span.dates), span };
  const [first, months] = 'month' in span ? [span.month, 1] : [3 * span.quarter - 2, 3];
  const [thisYear, thisMonth] = partsOf(today);
  const year = span.year ?? (thisMonth > first + months - 1 ? thisYear + 1 : thisYear);
  const start = iso(year, first, 1);
  const by = addDays(shift('month', start, months), -1);
  const from = start <= today && today <= by ? today : start;
  return { from, by, words: 'month' in span ? `${MONTH_NAMES[span.month - 1]} ${year}` : `Q${span.quarter} ${year}`, span };
}

/**
 * One day to come as a delivery or stock-out question names it (ADR 0189): "tomorrow", "the day after
 * tomorrow" (German "morgen", "übermorgen", Dutch "morgen", "overmorgen"), a weekday after "on",
 * "this", "coming" or "for" (its next occurrence, today's included) or "next" (the one of next week,
 * weeks Monday to Sunday). A weekday alone is left unread: "Black Friday", "Easter Monday" are days of their own.
 */
function readDayToCome(reading: Reading, today: string): Ahead | null {
  const match = reading.exec(DAY_TO_COME);
  if (!match) return null;
  const [, afterTomorrow, tomorrow, which, weekday] = match as unknown as [string, string | undefined, string | undefined, string | undefined, string | undefined];
  const day = afterTomorrow ? addDays(today, 2) : tomorrow ? addDays(today, 1) : which === 'next' ? addDays(startOf('week', today), 7 + ((WEEKDAYS.indexOf(weekday as string) + 6) % 7)) : (dayNamed(weekday as string, today, 'ahead', reading.dateOrder) as string);
  if (day === today) return windowOf({ this: 'day' }, today);
  const spoken = afterTomorrow ? 'the day after tomorrow' : tomorrow ? 'tomorrow' : `${which === 'for' ? 'on' : which} ${capitalisedWord(weekday as string)}`;
  return { ...windowOf({ dates: { from: day, to: day } }, today), words: spoken };
}

const capitalisedWord = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * The window of an order or stock-out question, for the assistant and the report writer alike (ADR
 * 0141, 0148): a window ahead (`readAhead`), or a period that has not ended ("today", "this week",
 * "this month", a day or days from a date with its year). A period that has ended is none.
 */
export function readWindow(reading: Reading, today: string): Ahead | null {
  const ahead = readAhead(reading, today) ?? readDayToCome(reading, today);
  if (ahead) return ahead;
  const period = readPeriod(reading.trial(), today);
  if (!period || !['today', 'this', 'day', 'between', 'weekend'].includes(period.kind)) return null;
  const { from, to } = fullRangeOf(period, today);
  if (to < today) return null;
  readPeriod(reading, today);
  if (period.kind === 'today') return windowOf({ this: 'day' }, today);
  if (period.kind === 'this') return windowOf({ this: period.unit }, today);
  const window = windowOf(from > today ? { dates: { from, to } } : { through: to }, today);
  return period.kind === 'weekend' ? { ...window, words: describePeriod(period) } : window;
}

/**
 * A window as order and stock-out answers use it (ADR 0148, amendment "a window that starts later"):
 * its last day, and its first (`starts`) when that is after today — one from today keeps what is
 * overdue or already out.
 */
export type DueWindow = { starts: string | null; by: string; words: string };
export const dueWindowOf = (window: Ahead, today: string): DueWindow => ({ starts: window.from !== null && window.from > today ? window.from : null, by: window.by, words: window.words });
/** An order question's window: every order due by its last day, overdue ones and those before a later start included (ADR 0148, M4 amendment). */
export const orderWindowOf = (window: Pick<Ahead, 'by' | 'words'>): DueWindow => ({ starts: null, by: window.by, words: window.words });

/** A window from today as its last day, with its words where they say more: "by 31 Dec 2026 (this month)", "by 24 Dec 2026"; one that starts later as its days. */
export function dueWords(due: DueWindow): string {
  if (due.starts) return withinWords(due.starts, due);
  const by = formatDay(due.by);
  return due.words === `by ${by}` || due.words === by ? `by ${by}` : `by ${by} (${due.words})`;
}

/** A window that starts later, as its days: "in January 2027", "next week (7–13 Dec 2026)", "on 5 Jan 2027", "from 5 Jan 2027 to 9 Jan 2027". */
function withinWords(starts: string, due: DueWindow): string {
  const range = formatRange({ from: starts, to: due.by });
  if (due.words === range) return starts === due.by ? `on ${range}` : `from ${formatDay(starts)} to ${formatDay(due.by)}`;
  return /^(?:(?:next|the next|this|on|coming) |tomorrow$|the day after tomorrow$)/.test(due.words) ? `${due.words} (${range})` : `in ${due.words}`;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAYS_PATTERN = WEEKDAYS.join('|');
const DAY_TO_COME = new RegExp(
  `(?<![\\p{L}])(?:(the day after tomorrow|übermorgen|overmorgen)|(tomorrow|(?<!(?:am|heute|guten|jeden|diesen|deze|elke) )morgen)|(?:on |for )?(this|next|coming|on|for) (${WEEKDAYS_PATTERN}))(?![\\p{L}])`,
  'u',
);
/** Days a shop names by their name: fixed days of the year, as month and day. */
const NAMED_DAYS: Record<string, [number, number]> = {
  christmas: [12, 25],
  'christmas day': [12, 25],
  'christmas eve': [12, 24],
  'boxing day': [12, 26],
  "new year's eve": [12, 31],
  "new year's day": [1, 1],
  "new year's": [1, 1],
  'new year': [1, 1],
};
const NAMED_DAY = `(?:${WEEKDAYS.join('|')}|christmas(?: day| eve)?|boxing day|new year(?:'s)?(?: day| eve)?|easter(?: sunday| monday)?|good friday)`;
/** The last day of a calendar unit or a month a window runs to: "the end of the month", "end of next week", "the end of January". */
const UNIT_END = `(?:the )?end of (?:(?:the |this )?(?:week|month|quarter|year)|next (?:week|month|quarter|year)|${MONTH})`;
/** The words that make a day a window's last: "by", "before" (the day before it), "until", "till", "through", "up to". */
const UNTIL_WORDS = "by|before|until|till|'til|through|thru|up to|up until";
/** "The 24th", "the 1st": a day of the month said without its month (never "the 24th of December", a DATE). */
const DAY_OF_MONTH = `\\d{1,2}(?:st|nd|rd|th)(?!(?: of)? (?:${MONTH})\\b)`;
/** "Before the (next) bank holiday", "until bank holiday Monday", "by the bank holiday weekend": one not named by its season (`readBankHolidayAhead`). */
const BANK_HOLIDAY_AHEAD = new RegExp(`\\b(${UNTIL_WORDS}) (?:the )?(next )?bank holiday(?: (monday|weekend))?\\b`);
/** "By 24/12", "before 24.12." (a day-first date may end in a dot), "by Friday", "before Christmas", "until Black Friday", "through the end of the month", "till the 24th (of December)". */
const AHEAD_DATE = new RegExp(`\\b(${UNTIL_WORDS}) (?:the (?=\\d))?(${DATE}|${NAMED_DAY}|${RETAIL_DAY_WORDS}|${UNIT_END}|${DAY_OF_MONTH})\\.?(?![\\d/.-])`);
/** "Until December", "through January 2027": to the month's end ("by March" is left unread: `MONTH_AHEAD`). */
const UNTIL_MONTH_AHEAD = new RegExp(`\\b(until|till|'til|through|thru|up to|up until) (${MONTH})(?: (\\d{4}))?(?! ?\\d)`);
/** "Sales by 24/12", "up to 30.11.": a sales question's last day. */
/** "w/c 7 Dec", "week commencing 7/12", "the week beginning 7 December", "week of 30 Nov": how a British buyer names a week, by its first day. */
const WEEK_COMMENCING = new RegExp(`(?<![\\w/])(?:w/c|w/b|(?:the )?week (?:commencing|beginning|starting|of)) (${DATE})(?![\\d/.-])`);
/** A week named by its first day (WEEK_COMMENCING): that day and the six after it, the occurrence nearer today (QA8 F14). */
function readWeekCommencing(reading: Reading, today: string): Period | null {
  const match = WEEK_COMMENCING.exec(reading.text);
  const from = match ? dayNamed(match[1] as string, today, 'nearest', reading.dateOrder) : null;
  if (!match || !from) return null;
  reading.exec(new RegExp(escapeRegExp(match[0])));
  return { kind: 'between', from, to: addDays(from, 6) };
}

const UNTIL_DAY = new RegExp(`\\b(?:by|until|till|up to) (${DATE}|${NAMED_DAY})\\.?(?![\\d/.-])`);

/**
 * A day of the month said without its month ("till the 24th"): this month's when it has not passed
 * (ahead) or has come (past), else the next or the last month that has the day (the 31st skips
 * April); "nearest" the nearer of the two. Null for a day no month has.
 */
function dayOfMonthOccurrence(day: number, today: string, mode: Occurrence): string | null {
  if (day < 1 || day > 31) return null;
  const [year, month] = partsOf(today);
  const inMonth = (offset: number) => {
    const first = new Date(Date.UTC(year, month - 1 + offset, 1));
    const [y, m] = [first.getUTCFullYear(), first.getUTCMonth() + 1];
    return day <= daysInMonth(y, m) ? iso(y, m, day) : null;
  };
  const offsets = Array.from({ length: 12 }, (_, at) => at);
  const ahead = offsets.map(inMonth).find((date): date is string => date !== null && date >= today) ?? null;
  const past = offsets.map((at) => inMonth(-at)).find((date): date is string => date !== null && date <= today) ?? null;
  return mode === 'ahead' ? ahead : mode === 'past' ? past : nearer(past, ahead, today);
}

/** A date as written, a weekday (today counts as its own occurrence) or a named day of the year, at the occurrence asked for. */
function dayNamed(text: string, today: string, mode: Occurrence, order: DateOrder): string | null {
  const date = readDate(text, today, mode, order);
  if (date) return date;
  const weekday = WEEKDAYS.indexOf(text);
  if (weekday >= 0) {
    const dayOfWeek = new Date(`${today}T00:00:00Z`).getUTCDay();
    const [ahead, past] = [addDays(today, (weekday - dayOfWeek + 7) % 7), addDays(today, -((dayOfWeek - weekday + 7) % 7))];
    return mode === 'ahead' ? ahead : mode === 'past' ? past : nearer(past, ahead, today);
  }
  const named = NAMED_DAYS[text];
  if (named) return occurrence(named[0], named[1], today, mode);
  const dayOfMonth = new RegExp(`^${DAY_OF_MONTH}$`).test(text) ? Number(/\d+/.exec(text)?.[0]) : 0;
  if (dayOfMonth) return dayOfMonthOccurrence(dayOfMonth, today, mode);
  if (new RegExp(`^(?:${RETAIL_DAY_WORDS})$`).test(text)) return occurrenceOf((year) => retailDayIn(retailDayOf(text), year), today, mode);
  const end = new RegExp(`^(?:the )?end of (?:(?:the |this )?(week|month|quarter|year)|next (week|month|quarter|year)|(${MONTH}))$`).exec(text);
  if (end?.[3]) {
    const month = monthOfName(end[3]);
    return occurrenceOf((year) => lastDayOf(year, month), today, mode);
  }
  if (end) {
    const unit = (end[1] ?? end[2]) as CalendarUnit;
    return addDays(shift(unit, startOf(unit, today), end[2] ? 2 : 1), -1);
  }
  const offset = EASTER_OFFSETS[text];
  if (offset === undefined) return null;
  // Easter moves: this year's, else last year's (past) or next year's (ahead).
  return occurrenceOf((year) => easterDay(year, offset), today, mode);
}

/** The words that said a horizon, blanked before reading a past period from the same question. */
export const HORIZON_WORDS = /\b(next|coming|within|over the next) \S+ (day|week|month)s?\b|(?<![\p{L}])(?:nächsten|kommenden) \S+ (?:tage?n?|wochen?|monate?n?)(?![\p{L}])|(?<![\p{L}])(?:komende|volgende|binnen) \S+ (?:dagen|dag|weken|week|maanden|maand)(?![\p{L}])/u;
/** The words that said any window ahead (`readAhead`), blanked likewise: "by 24/12" is not the day 24/12, "in January" not last January. */
export const AHEAD_WORDS = new RegExp(
  [HORIZON_WORDS.source, '\\bnext (week|month|quarter|year)\\b', GERMAN_NEXT.source, DUTCH_HORIZON.source, DUTCH_NEXT.source, AHEAD_DATE.source, BANK_HOLIDAY_AHEAD.source, UNTIL_MONTH_AHEAD.source, MONTH_WITH_YEAR.source, MONTH_AHEAD.source, YEAR_THEN_QUARTER.source, QUARTER_THEN_YEAR.source].join('|'),
  'gu',
);

/** The first day of the week (Monday first), month, quarter or year that holds `day`. */
export function startOf(unit: CalendarUnit, day: string): string {
  const [year, month] = partsOf(day);
  if (unit === 'year') return iso(year, 1, 1);
  if (unit === 'quarter') return iso(year, month - ((month - 1) % 3), 1);
  if (unit === 'month') return iso(year, month, 1);
  // Weeks start on Monday, as PostgreSQL's date_trunc('week') has them.
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
}

function shift(unit: CalendarUnit, day: string, by: number): string {
  const [year, month, date] = partsOf(day);
  if (unit === 'week') return addDays(day, 7 * by);
  const months = by * { month: 1, quarter: 3, year: 12 }[unit];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  // Day 31 minus a month is the last day of the shorter month, as PostgreSQL's interval arithmetic has it.
  return iso(target.getUTCFullYear(), target.getUTCMonth() + 1, Math.min(date, daysInMonth(target.getUTCFullYear(), target.getUTCMonth() + 1)));
}

/** The days a period spans as of `today`, whole: "this month" runs to its last day. */
export function fullRangeOf(period: Period, today: string): DateRange {
  switch (period.kind) {
    case 'last_days':
      return { from: addDays(today, -period.days), to: addDays(today, -1) };
    case 'last_months':
      return { from: shift('month', today, -period.months), to: addDays(today, -1) };
    case 'this':
      return { from: startOf(period.unit, today), to: addDays(shift(period.unit, startOf(period.unit, today), 1), -1) };
    case 'previous':
      return { from: shift(period.unit, startOf(period.unit, today), -1), to: addDays(startOf(period.unit, today), -1) };
    case 'year':
      return { from: iso(period.year, 1, 1), to: iso(period.year, 12, 31) };
    case 'month_of_year':
      return { from: iso(period.year, period.month, 1), to: iso(period.year, period.month, daysInMonth(period.year, period.month)) };
    case 'month': {
      const [year, month] = partsOf(today);
      return fullRangeOf({ kind: 'month_of_year', month: period.month, year: period.month <= month ? year : year - 1 }, today);
    }
    case 'quarter_of_year': {
      const from = iso(period.year, 3 * period.quarter - 2, 1);
      return { from, to: addDays(shift('quarter', from, 1), -1) };
    }
    case 'quarter': {
      const [year, month] = partsOf(today);
      return fullRangeOf({ kind: 'quarter_of_year', quarter: period.quarter, year: 3 * period.quarter - 2 <= month ? year : year - 1 }, today);
    }
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'day':
      return { from: period.date, to: period.date };
    case 'since':
      return { from: period.date, to: today };
    case 'until':
      return { from: iso(partsOf(period.date)[0], 1, 1), to: period.date };
    case 'between':
      return { from: period.from, to: period.to };
    case 'season':
      return seasonRange(period.season, period.year, period.hemisphere);
    case 'christmas':
      return { from: iso(period.year, 12, CHRISTMAS_SEASON_DAYS.from), to: iso(period.year, 12, CHRISTMAS_SEASON_DAYS.to) };
    case 'easter':
      return { from: easterDay(period.year, -2), to: easterDay(period.year, 1) };
    case 'financial_year':
      return financialYearRange(period.rule, period.year);
    case 'weekend': {
      const saturday = addDays(startOf('week', today), 5 + 7 * period.weeks);
      return { from: saturday, to: addDays(saturday, 1) };
    }
    case 'all_time':
      return { from: FIRST_DAY, to: today };
  }
}

/** Before any sale: all time's first day where the data's own is not at hand (the assistant's answers start it at the first sale). */
const FIRST_DAY = '0001-01-01';

/**
 * The days of a period that have come, as of `today`: the days the report writer's SQL keeps on
 * that day ("the last N days" are the N whole days before today), a period under way ending today.
 */
export function rangeOf(period: Period, today: string): DateRange {
  const whole = fullRangeOf(period, today);
  return whole.from <= today && whole.to > today ? { from: whole.from, to: today } : whole;
}

// A day as people read it ("3 Nov 2026", "8 Dec"): the app's one style, shared with the screens.
export { formatDay, formatDayOfMonth };

/** A range as people read it (formatDayRange, shared with the screens): "1–31 Oct 2026", "30 Nov–6 Dec 2026", or one day. */
export const formatRange = (range: DateRange): string => formatDayRange(range.from, range.to);

/** The period in words, as report titles name it ("last month", "the last 30 days", "October 2026"). */
export function describePeriod(period: Period | null): string {
  if (!period) return 'all time';
  switch (period.kind) {
    case 'last_days':
      return `the last ${period.days} days`;
    case 'last_months':
      return `the last ${period.months} months`;
    case 'this':
      return `this ${period.unit}`;
    case 'previous':
      return `last ${period.unit}`;
    case 'year':
      return `in ${period.year}`;
    case 'month_of_year':
      return `${MONTH_NAMES[period.month - 1]} ${period.year}`;
    case 'month':
      return `${MONTH_NAMES[period.month - 1]} (the latest)`;
    case 'quarter_of_year':
      return `Q${period.quarter} ${period.year}`;
    case 'quarter':
      return `Q${period.quarter} (the latest)`;
    case 'today':
      return 'today';
    case 'yesterday':
      return 'yesterday';
    case 'day':
      return `on ${period.date}`;
    case 'since':
      return `since ${period.date}`;
    case 'until':
      return `up to ${period.date}`;
    case 'between':
      return `from ${period.from} to ${period.to}`;
    case 'season':
      return seasonWords(period);
    case 'christmas':
      return `Christmas ${period.year}`;
    case 'easter':
      return `Easter ${period.year}`;
    case 'weekend':
      return `${['last', 'this', 'next'][period.weeks + 1]} weekend`;
    case 'all_time':
      return 'all time';
    case 'financial_year':
      return financialYearWords(period.rule, period.year);
  }
}

/** Periods the report writer's SQL counts from the day it runs: their days change with it. */
const RELATIVE_KINDS: ReadonlySet<Period['kind']> = new Set(['last_days', 'last_months', 'this', 'previous', 'month', 'quarter', 'today', 'yesterday', 'weekend']);
export const isRelative = (period: Period) => RELATIVE_KINDS.has(period.kind);

/** A whole calendar month, quarter or year by its name ("November 2026", "Q3 2026", "2025"), else null. */
function calendarName(range: DateRange): string | null {
  const [year, month, day] = partsOf(range.from);
  if (day !== 1) return null;
  if (range.to === addDays(shift('month', range.from, 1), -1)) return `${MONTH_NAMES[month - 1]} ${year}`;
  if (month % 3 === 1 && range.to === addDays(shift('quarter', range.from, 1), -1)) return `Q${(month + 2) / 3} ${year}`;
  if (month === 1 && range.to === iso(year, 12, 31)) return String(year);
  return null;
}

/**
 * The period in the words the request and the report's title say, with its days as of `today`
 * when the words do not say them: "last month (November 2026)", "last week (23–29 Nov 2026)", "the
 * last 30 days (4 Nov–3 Dec 2026)"; a month or quarter named without a year is the one it is,
 * "October 2026". The report writer's steps say it so (ADR 0148, amendment "German words").
 */
export function datedPeriod(period: Period, today: string): string {
  if (!isRelative(period)) return describePeriod(period);
  const whole = fullRangeOf(period, today);
  if (period.kind === 'month' || period.kind === 'quarter') return calendarName(whole) as string;
  return `${describePeriod(period)} (${calendarName(whole) ?? formatRange(rangeOf(period, today))})`;
}

/**
 * The period and its dates as an answer says them: "last month (1–30 Nov 2026)", "in October 2026
 * (1–31 Oct 2026)", "of all time (14 Jul 2025–3 Dec 2026)"; `range`: its days, where the answer knows
 * them better (all time from the first sale).
 */
export function spokenPeriod(period: Period, today: string, range = rangeOf(period, today)): string {
  const dates = formatRange(range);
  switch (period.kind) {
    case 'last_days':
    case 'last_months':
      return `in ${describePeriod(period)} (${dates})`;
    case 'month':
    case 'month_of_year':
      return `in ${MONTH_NAMES[Number(range.from.slice(5, 7)) - 1]} ${range.from.slice(0, 4)} (${dates})`;
    case 'quarter':
    case 'quarter_of_year':
      return `in Q${Math.ceil(Number(range.from.slice(5, 7)) / 3)} ${range.from.slice(0, 4)} (${dates})`;
    case 'day':
      return period.retailDay ? `on ${RETAIL_DAY_NAMES[period.retailDay]} ${range.from.slice(0, 4)} (${dates})` : `on ${dates}`;
    case 'since':
      return `since ${formatDay(period.date)} (${dates})`;
    case 'until':
      return `up to ${formatDay(period.date)} (${dates})`;
    case 'between':
      return `from ${formatDay(range.from)} to ${formatDay(range.to)}`;
    case 'season':
      return `in ${seasonWords(period)} (${dates})`;
    case 'christmas':
      return `at Christmas ${period.year} (${dates})`;
    case 'easter':
      return `at Easter ${period.year} (${dates})`;
    case 'all_time':
      return `of all time (${dates})`;
    case 'financial_year':
      return spokenFinancialYear(period.rule, period.year, dates);
    default:
      return `${describePeriod(period)} (${dates})`;
  }
}

/**
 * A period still to come as a sales question names it ("next week", "the next 30 days", "Q1 2027",
 * a day after today, "by" a day still to come), in words with its dates; its words count as used.
 * Null when the question names none: sales are recorded up to today only (ADR 0148). A month or
 * quarter without a year is a past one here, as `readPeriod` reads it.
 */
export function readSalesAhead(reading: Reading, today: string): string | null {
  return readDaysAhead(reading, today)?.words ?? null;
}

/** `readSalesAhead`'s period with its days: from today (or its later start) to its last day. */
export function readDaysAhead(reading: Reading, today: string): (DateRange & { words: string }) | null {
  const window = readComing(reading.trial(), today);
  const period = window ? null : readPeriod(reading.trial(), today);
  const range = period && fullRangeOf(period, today);
  // "What will I sell until Black Friday": a day no past period reads as "up to" it (a retail day reads as the latest one
  // alone), or said of days to come ("will", "going to"), where "until Christmas" in June is this Christmas, not the nearer last one.
  const toCome = !period || period.kind === 'day' || (period.kind === 'until' && /\b(will|going to|shall)\b/.test(reading.text));
  const named = window || !toCome ? null : readNamedDayAhead(reading.trial(), today);
  const until = named && named.by >= today ? named : null;
  const found = window
    ? { from: window.from, to: window.by, words: `${window.words} (${formatRange({ from: window.from, to: window.by })})` }
    : until
      ? { from: today, to: until.by, words: `${until.words} (${formatRange({ from: today, to: until.by })})` }
      : period?.kind === 'until' && period.date > today
        ? { from: today, to: period.date, words: `up to ${formatDay(period.date)}` }
        : period && range && range.from > today
          ? { ...range, words: spokenPeriod(period, today).replace(/^(in|on) /, '') }
          : null;
  if (!found) return null;
  if (window) readComing(reading, today);
  else if (until) readNamedDayAhead(reading, today);
  else readPeriod(reading, today);
  return found;
}
