// Where the shop is, as far as its words of time depend on it: the hemisphere its seasons are of
// (QA7 F10), read from the viewer's time zone (the IANA name the browser sends as `time_zone`), for
// the assistant and the report writer alike (ADR 0148, amendment "southern seasons, financial year,
// Australian days"). A zone not known here, UTC or none reads as before: northern hemisphere.

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

/** What a language model writing a report's SQL is told of the shop's calendar: its seasons, when they are not the north's. */
export function shopCalendarWords(timeZone: string | undefined): string | null {
  if (hemisphereOf(timeZone) === 'north') return null;
  return `The shop is in the southern hemisphere (time zone ${timeZone}): summer is December–February, autumn March–May, winter June–August, spring September–November.`;
}
