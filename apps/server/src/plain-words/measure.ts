// The words that name a measure — units sold, revenue, stock, its value — in English or as a German
// or Dutch shop types them: the report writer's measure and the assistant's question read through the
// same lists (ADR 0148, amendments "German words", "the assistant's German" and "Dutch words").
import { wholeWords } from './reading.ts';

/** English words, or the German (and Dutch) ones a shop types (umlauts as letters: `wholeWords`), for one thing. */
export const orGerman = (english: RegExp, german: string, dutch?: string) => new RegExp(`${english.source}|${wholeWords(`(?:${dutch ? `${german}|${dutch}` : german})`).source}`, 'u');

/** German words for what was sold: "verkauft", "Verkäufe", "Absatz". */
export const GERMAN_SOLD = 'verkauft|verkaufte[mnrs]?|verkaufen|verkäufe|verkäufen|absatz|absätze';
/** Dutch words for what was sold: "verkocht", "verkoop", "afzet". */
export const DUTCH_SOLD = 'verkocht|verkochte|verkopen|verkoop|verkoopt|afzet';
export const UNITS_WORDS = orGerman(/\bunits?\b|\bsold\b|\bsales\b|\bquantity\b|\bdemand\b|\bselling\b|\bsell\b|\bsellers?\b/, `stück|stückzahl|stückzahlen|menge|mengen|${GERMAN_SOLD}`, `stuks|${DUTCH_SOLD}`);
export const STOCK_VALUE_WORDS = orGerman(
  /\b(stock|inventory) value\b|\bvalue of (the )?(stock|inventory)\b|\b(stock|inventory) (is )?worth\b|\bvalue on hand\b/,
  'lagerwert|bestandswert|wert des (?:lagers|bestands|lagerbestands)|(?:lager|bestand|lagerbestand) wert',
  'voorraadwaarde|waarde van (?:de |onze |mijn )?voorraad|voorraad (?:is )?waard',
);
/** Revenue: no selling prices are kept, so both readers count it at unit cost (`sales_value`). */
export const SALES_VALUE_WORDS = orGerman(/\brevenue\b|\bturnover\b|\bsales value\b|\bvalue of (the )?sales\b|\bvalue sold\b|\bcost of (goods )?sold\b/, 'umsatz|umsatzes|umsätze|umsätzen|erlös|erlöse|erlösen|verkaufswert', 'omzet|omzetten|opbrengst');
export const STOCK_WORDS = orGerman(/\bstock\b|\binventory\b|\bon hand\b|\b(?:have|has) (?:we|i|you|they) got\b(?: in\b)?/, 'bestand|bestände|beständen|lagerbestand|lagerbestände|lager|vorrätig|vorrat', 'voorraad|voorraden|op voorraad|in voorraad');
