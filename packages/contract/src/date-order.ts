// Which number of a date written with numbers alone ("12/1/2026") is the day: the order the viewer's
// language writes dates in (en-US month first; en-GB, en-AU, de, fr, nl day first). The assistant
// reads it from the request's Accept-Language (ADR 0148, amendment "dates in the viewer's order");
// the Data screen from the browser's language, and sends it to the server as `date_order` (ADR 0167);
// both only when the person has not chosen an order of their own (ADR 0167, amendment).

export const dateOrders = ['day-first', 'month-first'] as const;
/** How a date written with numbers alone is read: "12/1" is 12 January day-first, 1 December month-first. */
export type DateOrder = (typeof dateOrders)[number];

/**
 * How a person says they write dates (Profile → Your preferences, ADR 0167 amendment): `browser`
 * follows their browser's language, the others hold on every computer they sign in on.
 */
export const dateOrderPreferences = ['browser', ...dateOrders] as const;
export type DateOrderPreference = (typeof dateOrderPreferences)[number];

/** Without a language to go by, dates read day-first, as Stockwise read them before (ADR 0141). */
export const DEFAULT_DATE_ORDER: DateOrder = 'day-first';

const DECEMBER_FIRST = new Date(Date.UTC(2026, 11, 1));

/** A language tag's numeric date as parts (null for a tag no calendar data is kept for). */
function numericDateParts(tag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormatPart[] | null {
  let supported: string[];
  try {
    supported = Intl.DateTimeFormat.supportedLocalesOf(tag);
  } catch {
    return null;
  }
  if (!supported.length) return null;
  return new Intl.DateTimeFormat(supported[0], { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: 'UTC', ...options }).formatToParts(DECEMBER_FIRST);
}

/** The order a language tag writes a numeric date in (the month before the day in en-US, ja, en-CA's y-m-d), null for a tag no calendar data is kept for. */
export function dateOrderOfLanguage(tag: string): DateOrder | null {
  const parts = numericDateParts(tag, {});
  if (!parts) return null;
  const at = (type: string) => parts.findIndex((part) => part.type === type);
  return at('month') < at('day') ? 'month-first' : 'day-first';
}

/**
 * The date order of an Accept-Language header ("en-US,en;q=0.9"): its most preferred language that
 * has calendar data; the default when there is none (a client that sends none, "*", a tag made up).
 */
export function dateOrderOf(acceptLanguage: string | string[] | undefined): DateOrder {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const preferred = header
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const quality = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: quality === undefined ? 1 : Number(quality), index };
    })
    .filter(({ tag, quality }) => tag && tag !== '*' && quality > 0 && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of preferred) {
    const order = dateOrderOfLanguage(tag);
    if (order) return order;
  }
  return DEFAULT_DATE_ORDER;
}

/** The order a person reads and writes dates in: their own choice, else their browser's language (Accept-Language). */
export const dateOrderFor = (preference: DateOrderPreference, acceptLanguage: string | string[] | undefined): DateOrder =>
  preference === 'browser' ? dateOrderOf(acceptLanguage) : preference;

/**
 * How a viewer types a day with numbers, as a placeholder shows it: `MM/DD/YYYY` (en-US),
 * `DD/MM/YYYY` (en-GB, en-AU, fr), `DD.MM.YYYY` (de), `DD-MM-YYYY` (nl). Languages that write the
 * year first (ja, sv, en-CA) and separators the readers do not take get ISO, which every order reads.
 */
export type DayPattern = 'MM/DD/YYYY' | 'MM.DD.YYYY' | 'MM-DD-YYYY' | 'DD/MM/YYYY' | 'DD.MM.YYYY' | 'DD-MM-YYYY' | 'YYYY-MM-DD';

export const ISO_DAY_PATTERN: DayPattern = 'YYYY-MM-DD';
const DAY_PATTERNS: ReadonlySet<string> = new Set<DayPattern>(['MM/DD/YYYY', 'MM.DD.YYYY', 'MM-DD-YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', ISO_DAY_PATTERN]);
const FIELD_LETTERS: Record<string, string> = { day: 'DD', month: 'MM', year: 'YYYY' };

/** The day pattern of a language tag (`en-US` → `MM/DD/YYYY`); the default order's dotted pattern for a tag without calendar data. */
export function dayPatternOfLanguage(tag: string): DayPattern {
  const parts = numericDateParts(tag, { month: '2-digit', day: '2-digit' });
  if (!parts) return 'DD.MM.YYYY';
  const pattern = parts.map((part) => FIELD_LETTERS[part.type] ?? part.value.trim()).join('');
  return DAY_PATTERNS.has(pattern) ? (pattern as DayPattern) : ISO_DAY_PATTERN;
}


/** A day (YYYY-MM-DD) written in a pattern: `2026-12-24` → `12/24/2026` (MM/DD/YYYY), `24.12.2026` (DD.MM.YYYY). */
export const dayInPattern = (day: string, pattern: DayPattern): string =>
  pattern.replace('YYYY', day.slice(0, 4)).replace('MM', day.slice(5, 7)).replace('DD', day.slice(8, 10));
