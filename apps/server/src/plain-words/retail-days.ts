// The US retail calendar's days as periods (QA6 #13): Thanksgiving, Black Friday, Cyber Monday,
// Memorial Day, Independence Day (July 4th) and Labor Day; and Australia's and New Zealand's national
// days (QA7 F12): Australia Day, Anzac Day, Waitangi Day; and the UK's bank holidays (QA8 F14): the
// early May, spring and summer ones by name, and "the bank holiday (Monday / weekend)" as the latest of
// them all. Each one day, read by `readPeriod` for the assistant and the report writer alike, for any
// viewer (ADR 0148, amendments "US retail days", 2026-12-05 "Australian days" and "bank holidays").
import { escapeRegExp, type Reading } from './reading.ts';

export type RetailDay = 'thanksgiving' | 'black_friday' | 'cyber_monday' | 'memorial_day' | 'independence_day' | 'labor_day' | 'australia_day' | 'anzac_day' | 'waitangi_day' | 'early_may_bank_holiday' | 'spring_bank_holiday' | 'summer_bank_holiday';

/** Each day as an answer names it. */
export const RETAIL_DAY_NAMES: Record<RetailDay, string> = {
  thanksgiving: 'Thanksgiving',
  black_friday: 'Black Friday',
  cyber_monday: 'Cyber Monday',
  memorial_day: 'Memorial Day',
  independence_day: 'Independence Day',
  labor_day: 'Labor Day',
  australia_day: 'Australia Day',
  anzac_day: 'Anzac Day',
  waitangi_day: 'Waitangi Day',
  early_may_bank_holiday: 'the early May bank holiday',
  spring_bank_holiday: 'the spring bank holiday',
  summer_bank_holiday: 'the summer bank holiday',
};

const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
const weekday = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay();
const MONDAY = 1;
const THURSDAY = 4;

/** The first and the last Monday of a month. */
const firstMonday = (year: number, month: number) => iso(year, month, 1 + ((MONDAY - weekday(year, month, 1) + 7) % 7));
const lastMonday = (year: number, month: number) => {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return iso(year, month, last - ((weekday(year, month, last) - MONDAY + 7) % 7));
};

/** The 4th Thursday of November. */
const thanksgivingDay = (year: number) => 1 + ((THURSDAY - weekday(year, 11, 1) + 7) % 7) + 21;

/** The day a retail day falls on in a year. */
export function retailDayIn(day: RetailDay, year: number): string {
  switch (day) {
    case 'thanksgiving':
      return iso(year, 11, thanksgivingDay(year));
    case 'black_friday':
      return iso(year, 11, thanksgivingDay(year) + 1);
    case 'cyber_monday':
      return iso(year, 11, thanksgivingDay(year) + 4);
    case 'memorial_day':
    case 'spring_bank_holiday':
      return lastMonday(year, 5);
    case 'early_may_bank_holiday':
      return firstMonday(year, 5);
    case 'summer_bank_holiday':
      // England's, Wales' and Northern Ireland's; Scotland's is the first Monday, which a time zone cannot tell apart.
      return lastMonday(year, 8);
    case 'independence_day':
      return iso(year, 7, 4);
    case 'labor_day':
      return firstMonday(year, 9);
    // The days themselves, not the Mondays a public holiday moves to when one falls on a weekend: what sold on the day.
    case 'australia_day':
      return iso(year, 1, 26);
    case 'anzac_day':
      return iso(year, 4, 25);
    case 'waitangi_day':
      return iso(year, 2, 6);
  }
}

const SPELLINGS: [RegExp, RetailDay][] = [
  [/^black friday$/, 'black_friday'],
  [/^cyber monday$/, 'cyber_monday'],
  [/^thanksgiving( day)?$/, 'thanksgiving'],
  [/^memorial day$/, 'memorial_day'],
  [/^labou?r day$/, 'labor_day'],
  [/^australia day$/, 'australia_day'],
  [/^anzac day$/, 'anzac_day'],
  [/^waitangi day$/, 'waitangi_day'],
  [/^(?:the )?(?:early may|may day|may) bank holiday/, 'early_may_bank_holiday'],
  [/^(?:the )?(?:spring|late may|whitsun) bank holiday/, 'spring_bank_holiday'],
  [/^(?:the )?(?:summer|august|late august) bank holiday/, 'summer_bank_holiday'],
  [/./, 'independence_day'],
];
/** The retail days' words, as a pattern: "Black Friday", "Labour Day", "the 4th of July", "the August bank holiday". */
export const RETAIL_DAY_WORDS = "(?:the )?(?:early may|may day|may|spring|late may|whitsun|summer|august|late august) bank holiday(?: monday)?|black friday|cyber monday|thanksgiving(?: day)?|memorial day|labou?r day|australia day|anzac day|waitangi day|independence day|(?:the )?(?:4th|fourth) of july|july (?:4th|4(?![\\d/.-])|fourth)";
/** "Black Friday (2025 / last year)", "last Black Friday", "on the 4th of July", "this Labor Day". */
const RETAIL_DAY = new RegExp(`\\b(?:(?:on|at|over|for) )?(?:(this|last|previous) )?(${RETAIL_DAY_WORDS})\\b(?:,? (\\d{4})\\b)?(?: \\(?(last|this) year\\)?)?`);

/** The retail day words of RETAIL_DAY_WORDS name. */
export const retailDayOf = (words: string): RetailDay => (SPELLINGS.find(([spelling]) => spelling.test(words)) as [RegExp, RetailDay])[1];
/** A year standing alone elsewhere in the question ("Black Friday sales 2025"), as the Christmas days take it. */
const YEAR_APART = /(?<![\w/.-])(?:in |of )?((?:19|20)\d{2})(?![\w/.-])/;

/**
 * A US retail day the words name, as one day: that year's when a year is said ("Black Friday 2025",
 * "Black Friday last year"), this year's with "this", the latest before today with "last", else the
 * latest that has come (today included). Null when none is named.
 */
export function readRetailDay(reading: Reading, today: string): { kind: 'day'; date: string; retailDay: RetailDay } | null {
  const match = RETAIL_DAY.exec(reading.text);
  if (!match) return null;
  reading.exec(new RegExp(escapeRegExp(match[0])));
  const day = retailDayOf(match[2] as string);
  const thisYear = Number(today.slice(0, 4));
  const said = match[3] ?? reading.exec(YEAR_APART)?.[1];
  const year = said ? Number(said) : match[4] === 'last' ? thisYear - 1 : match[4] === 'this' || match[1] === 'this' ? thisYear : null;
  if (year !== null) return { kind: 'day', date: retailDayIn(day, year), retailDay: day };
  const latest = match[1] ? retailDayIn(day, thisYear) < today : retailDayIn(day, thisYear) <= today;
  return { kind: 'day', date: retailDayIn(day, latest ? thisYear : thisYear - 1), retailDay: day };
}
