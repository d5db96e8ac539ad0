// Which way round a shop writes an undecided slashed date (12/03/2026: every day of the file is 12
// or less), from the browser's language and the shop's time zone. The file stays flagged as
// ambiguous either way: this only decides which reading the preview shows while the user chooses.

/**
 * Zones of the United States (tz's zone1970.tab, US), where tills and spreadsheets write month
 * first. Canada writes both ways (and its browsers' English and French both put the year first):
 * its zones keep the day-first reading, as the rest of the world's do.
 */
const US_ZONE = /^(America\/(New_York|Detroit|Chicago|Denver|Boise|Phoenix|Los_Angeles|Anchorage|Juneau|Sitka|Metlakatla|Yakutat|Nome|Adak|Menominee|Indiana\/.+|Kentucky\/.+|North_Dakota\/.+)|Pacific\/Honolulu|US\/.+)$/;

/** Whether the language writes a short date month before day (en-US's 12/4/2026); null when it does not say (an unknown tag, or year first). */
function localeWritesMonthFirst(locale: string): boolean | null {
  let order: string[];
  try {
    order = new Intl.DateTimeFormat(locale).formatToParts(new Date(Date.UTC(2026, 11, 4))).map((part) => part.type).filter((type) => type === 'day' || type === 'month' || type === 'year');
  } catch {
    return null;
  }
  if (order[0] === 'month') return true;
  if (order[0] === 'day') return false;
  return null;
}

/**
 * The reading of an undecided slashed date for a shop: month-first where the browser's language
 * writes it so (`locale`, en-US), or, when the language does not say, in a US time zone; day-first
 * everywhere else.
 */
export function undecidedDateOrder(timeZone: string | undefined, locale: string | undefined): 'dd/mm/yyyy' | 'mm/dd/yyyy' {
  const byLocale = locale ? localeWritesMonthFirst(locale) : null;
  const monthFirst = byLocale ?? (timeZone !== undefined && US_ZONE.test(timeZone));
  return monthFirst ? 'mm/dd/yyyy' : 'dd/mm/yyyy';
}
