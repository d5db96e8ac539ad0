// Which number of a slashed date ("12/1") is the day: the order the viewer's language writes dates in
// (en-US month-first, en-GB, de, nl day-first), read from the request's Accept-Language, as a browser
// sends it with every call (ADR 0148, amendment "dates in the viewer's order").

/** How a date written with numbers alone is read: "12/1" is 12 January day-first, 1 December month-first. */
export type DateOrder = 'day-first' | 'month-first';

/** Without a language to go by, dates read day-first, as Stockwise read them before (ADR 0141). */
export const DEFAULT_DATE_ORDER: DateOrder = 'day-first';

/** The order a language tag writes a numeric date in (the month before the day in en-US, ja, en-CA's y-m-d), null for a tag no calendar data is kept for. */
function orderOfLanguage(tag: string): DateOrder | null {
  let supported: string[];
  try {
    supported = Intl.DateTimeFormat.supportedLocalesOf(tag);
  } catch {
    return null;
  }
  if (!supported.length) return null;
  const parts = new Intl.DateTimeFormat(supported[0], { year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(new Date(Date.UTC(2026, 11, 1)));
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
    const order = orderOfLanguage(tag);
    if (order) return order;
  }
  return DEFAULT_DATE_ORDER;
}

/** A day and month written with a slash in the order given: "30/11" day-first, "11/30" month-first (help texts and examples). */
export const slashed = (day: number, month: number, order: DateOrder) => (order === 'month-first' ? `${month}/${day}` : `${day}/${month}`);

/** The order said in words, for a model's tool descriptions: "dates day-first (30/11 is 30 November)". */
export const dateOrderWords = (order: DateOrder) => `dates ${order} (${slashed(30, 11, order)} is 30 November)`;
