// Where the shop is, as far as its words of time depend on it: the hemisphere its seasons are of
// (QA7 F10) and the financial year its country keeps (F11), read from the viewer's time zone (the
// IANA name the browser sends as `time_zone`), for the assistant and the report writer alike (ADR
// 0148, amendment "southern seasons, financial year, Australian days"). A zone not known here, UTC
// or none reads as before: northern hemisphere, the calendar year.
import type { Reading } from './reading.ts';

export type Hemisphere = 'north' | 'south';

/**
 * Zones whose people mostly live south of the equator, chosen by the country each zone serves (the
 * zone's city and the bulk of that country's population south of it): Australia, New Zealand, the
 * South Pacific's island states, southern South America and most of Brazil (Boa Vista and Macapá's
 * north aside), southern Africa, the southern Indian Ocean, Java and the Lesser Sunda islands. A
 * country on the equator (Ecuador, Kenya, Colombia) keeps northern words: its seasons are wet and
 * dry, and "winter" there says what the shop's suppliers mean by it.
 */
const SOUTHERN_ZONE_PREFIXES = ['Australia/', 'Antarctica/', 'America/Argentina/'];
const SOUTHERN_ZONES = new Set([
  // Legacy names the browsers still report for some of them.
  'NZ',
  'NZ-CHAT',
  'Brazil/East',
  'Brazil/West',
  'Chile/Continental',
  'Chile/EasterIsland',
  'America/Buenos_Aires',
  'America/Cordoba',
  'America/Catamarca',
  'America/Jujuy',
  'America/Mendoza',
  'America/Rosario',
  // Oceania.
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Norfolk',
  'Pacific/Fiji',
  'Pacific/Tongatapu',
  'Pacific/Apia',
  'Pacific/Noumea',
  'Pacific/Efate',
  'Pacific/Port_Moresby',
  'Pacific/Bougainville',
  'Pacific/Guadalcanal',
  'Pacific/Rarotonga',
  'Pacific/Tahiti',
  'Pacific/Niue',
  'Pacific/Pago_Pago',
  'Pacific/Easter',
  // South America.
  'America/Santiago',
  'America/Punta_Arenas',
  'America/Montevideo',
  'America/Asuncion',
  'America/La_Paz',
  'America/Lima',
  'America/Sao_Paulo',
  'America/Bahia',
  'America/Recife',
  'America/Fortaleza',
  'America/Maceio',
  'America/Araguaina',
  'America/Belem',
  'America/Santarem',
  'America/Manaus',
  'America/Porto_Velho',
  'America/Rio_Branco',
  'America/Eirunepe',
  'America/Cuiaba',
  'America/Campo_Grande',
  'America/Noronha',
  'Atlantic/Stanley',
  'Atlantic/South_Georgia',
  // Africa and the Indian Ocean.
  'Africa/Johannesburg',
  'Africa/Maseru',
  'Africa/Mbabane',
  'Africa/Maputo',
  'Africa/Windhoek',
  'Africa/Gaborone',
  'Africa/Harare',
  'Africa/Lusaka',
  'Africa/Blantyre',
  'Africa/Lubumbashi',
  'Africa/Luanda',
  'Africa/Dar_es_Salaam',
  'Indian/Mauritius',
  'Indian/Reunion',
  'Indian/Antananarivo',
  'Indian/Mayotte',
  'Indian/Comoro',
  // Asia: Indonesia's Jakarta (Java) and Makassar, and East Timor.
  'Asia/Jakarta',
  'Asia/Makassar',
  'Asia/Dili',
]);

/** The hemisphere a viewer's time zone is in: south for the zones listed above, north for any other, UTC or none. */
export function hemisphereOf(timeZone: string | undefined): Hemisphere {
  if (!timeZone) return 'north';
  return SOUTHERN_ZONES.has(timeZone) || SOUTHERN_ZONE_PREFIXES.some((prefix) => timeZone.startsWith(prefix)) ? 'south' : 'north';
}

export type Season = 'spring' | 'summer' | 'autumn' | 'winter';
/**
 * Each season's first month, meteorological: in the north spring March–May, summer June–August,
 * autumn September–November, winter December–February; in the south the other way round (summer
 * December–February, winter June–August).
 */
const SEASON_START: Record<Hemisphere, Record<Season, number>> = {
  north: { spring: 3, summer: 6, autumn: 9, winter: 12 },
  south: { spring: 9, summer: 12, autumn: 3, winter: 6 },
};
export const seasonStartMonth = (season: Season, hemisphere: Hemisphere) => SEASON_START[hemisphere][season];

// The financial year (QA7 F11) -----------------------------------------------------------------

/** Whose financial year a shop keeps, by its time zone's country; `calendar` where none other is known. */
export type FinancialYearRule = 'australia' | 'new_zealand' | 'united_kingdom' | 'india' | 'south_africa' | 'calendar';

/**
 * Each country's first month of the financial year (always its 1st) and what an answer says of it:
 * Australia 1 July; New Zealand, India 1 April; South Africa 1 March. The UK's personal tax year starts
 * on 6 April, but companies and VAT returns keep years from the 1st of a month, most often 1 April: a
 * shop's books are a company's, so 1 April, said. Elsewhere (the US, Canada, Europe…) a shop's
 * financial year is most often the calendar year: read so, and said.
 */
const FINANCIAL_YEARS: Record<FinancialYearRule, { startMonth: number; note: string | null }> = {
  australia: { startMonth: 7, note: null },
  new_zealand: { startMonth: 4, note: null },
  united_kingdom: { startMonth: 4, note: "a company's year from 1 April, not the personal tax year from 6 April" },
  india: { startMonth: 4, note: null },
  south_africa: { startMonth: 3, note: null },
  calendar: { startMonth: 1, note: null },
};

const FINANCIAL_YEAR_ZONES: [RegExp, FinancialYearRule][] = [
  [/^Australia\//, 'australia'],
  [/^(Pacific\/Auckland|Pacific\/Chatham|NZ|NZ-CHAT)$/, 'new_zealand'],
  [/^(Europe\/London|Europe\/Belfast|GB|GB-Eire)$/, 'united_kingdom'],
  [/^(Asia\/Kolkata|Asia\/Calcutta)$/, 'india'],
  [/^Africa\/Johannesburg$/, 'south_africa'],
];

/** The financial year a viewer's time zone keeps: its country's, the calendar year for any other, UTC or none. */
export function financialYearRuleOf(timeZone: string | undefined): FinancialYearRule {
  return (timeZone && FINANCIAL_YEAR_ZONES.find(([zones]) => zones.test(timeZone))?.[1]) || 'calendar';
}

const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** A financial year's days, named by the year it ends in (FY2025–26, in Australia 1 July 2025 to 30 June 2026). */
export function financialYearRange(rule: FinancialYearRule, endsIn: number): { from: string; to: string } {
  const { startMonth } = FINANCIAL_YEARS[rule];
  const startYear = startMonth === 1 ? endsIn : endsIn - 1;
  return { from: iso(startYear, startMonth, 1), to: iso(startYear + 1, startMonth, 0) };
}

/** A financial year as a title names it, read back as the same year: "financial year 2025–26", "financial year 2025 (the calendar year)". */
export function financialYearWords(rule: FinancialYearRule, endsIn: number): string {
  return rule === 'calendar' ? `financial year ${endsIn} (the calendar year)` : `financial year ${endsIn - 1}–${String(endsIn % 100).padStart(2, '0')}`;
}

/** A financial year as an answer says it, its dates given: "in the financial year 2025–26 (1 Jul 2025–30 Jun 2026)", "in the financial year read as the calendar year 2025 (…)". */
export function spokenFinancialYear(rule: FinancialYearRule, endsIn: number, dates: string): string {
  const { note } = FINANCIAL_YEARS[rule];
  if (rule === 'calendar') return `in the financial year read as the calendar year ${endsIn} (${dates})`;
  return `in the ${financialYearWords(rule, endsIn)} (${dates}${note ? `; ${note}` : ''})`;
}

/** "FY2025-26", "FY26", "FY 2026", "financial year 2025–26", "fiscal year 2026": a year named (its `first` and `second` numbers). */
const NAMED_FINANCIAL_YEAR = /\b(?:fy ?|(?:the )?(?:financial|fiscal) year )(\d{4}|\d{2})(?:[-–/](\d{4}|\d{2}))?(?: \(the calendar year\))?(?![\w/-])/;
/** "(the) last / this / current financial year", "financial year to date", "FYTD", "last FY", "the financial year". */
const RELATIVE_FINANCIAL_YEAR = /\b(?:(?:for|in|over|during) )?(?:the )?(?:(this|current|last|previous|prior|past) )?(?:(?:financial|fiscal) year|fy)(?: to date)?\b|\bfytd\b/;

/** The year (as four digits) a financial year named by its numbers ends in: "2025-26" 2026, "26" 2026, "2026" 2026. */
function endYearOf(first: string, second: string | undefined): number {
  const full = (digits: string, century = 2000) => (digits.length === 4 ? Number(digits) : century + Number(digits));
  if (!second) return full(first);
  const start = full(first);
  return second.length === 4 ? Number(second) : full(second, Math.floor(start / 100) * 100 + (Number(second) < start % 100 ? 100 : 0));
}

/**
 * A financial year the words name, of the viewer's country (`financialYearRuleOf` their time zone):
 * one named by its years ("FY2025-26", "FY26": the year it ends in), this one (under way, to date),
 * "last financial year" the one before; null when none is named.
 */
export function readFinancialYear(reading: Reading, today: string): { kind: 'financial_year'; rule: FinancialYearRule; year: number } | null {
  const rule = financialYearRuleOf(reading.timeZone);
  const named = reading.exec(NAMED_FINANCIAL_YEAR);
  if (named) return { kind: 'financial_year', rule, year: endYearOf(named[1] as string, named[2]) };
  const relative = reading.exec(RELATIVE_FINANCIAL_YEAR);
  if (!relative) return null;
  const [year, month] = today.split('-').map(Number) as [number, number];
  const current = FINANCIAL_YEARS[rule].startMonth === 1 || month < FINANCIAL_YEARS[rule].startMonth ? year : year + 1;
  return { kind: 'financial_year', rule, year: relative[1] && !['this', 'current'].includes(relative[1]) ? current - 1 : current };
}

const monthName = (month: number) => new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });

/** What a language model writing a report's SQL is told of the shop's calendar where it is not the north's calendar year: its seasons, its financial year. */
export function shopCalendarWords(timeZone: string | undefined): string | null {
  const words = [];
  if (hemisphereOf(timeZone) === 'south') words.push('it is in the southern hemisphere (summer is December–February, autumn March–May, winter June–August, spring September–November)');
  const rule = financialYearRuleOf(timeZone);
  if (rule !== 'calendar') words.push(`its financial year starts on 1 ${monthName(FINANCIAL_YEARS[rule].startMonth)} and is named by the year it ends in (FY2025-26, FY26)`);
  return words.length ? `The shop's time zone is ${timeZone}: ${words.join('; ')}.` : null;
}
