// A quantity written with its unit, as deli scales and tills print it ("0.25 kg", "250g",
// "1,5 kg", "3 pcs") and as a shop types it on the Data screen, read as the number in the product's
// unit (ADR 0178 and its amendment): the same unit or none is the number as written, another unit of
// the same kind is converted (250 g of a product in kg is 0.25), and a unit of another kind, or a
// word not known here, is refused naming both. The import and the Data screen read it alike.
import { isPiecesWord, MEASURE_UNITS, PIECES_WORDS } from './units.ts';

type Kind = 'weight' | 'length' | 'volume';

/**
 * Each measure unit's kind and size in the smallest unit of its kind (mg, ml, mm): exact figures, so
 * a conversion is as exact as a double allows (1 lb is 453.59237 g by definition, 1 in 25.4 mm).
 * `lbs` is the pound's usual abbreviation, not a plural the reader guesses; `ton` is no key: a short,
 * long and metric ton differ by a tenth.
 */
const MEASURES: Readonly<Record<string, { kind: Kind; size: number }>> = {
  t: { kind: 'weight', size: 1_000_000_000 },
  kg: { kind: 'weight', size: 1_000_000 },
  g: { kind: 'weight', size: 1000 },
  mg: { kind: 'weight', size: 1 },
  lb: { kind: 'weight', size: 453_592.37 },
  lbs: { kind: 'weight', size: 453_592.37 },
  oz: { kind: 'weight', size: 28_349.523125 },
  l: { kind: 'volume', size: 1000 },
  dl: { kind: 'volume', size: 100 },
  cl: { kind: 'volume', size: 10 },
  ml: { kind: 'volume', size: 1 },
  m: { kind: 'length', size: 1000 },
  cm: { kind: 'length', size: 10 },
  mm: { kind: 'length', size: 1 },
  yd: { kind: 'length', size: 914.4 },
  ft: { kind: 'length', size: 304.8 },
  in: { kind: 'length', size: 25.4 },
};

const UNITS_READ = `${MEASURE_UNITS.join(', ')}, or ${PIECES_WORDS[1]} for pieces`;

/** The measure a unit names (ignoring case), or undefined for any other word. */
export const measureOf = (unit: string) => MEASURES[unit.toLowerCase()];

// A number (a decimal point or comma, thousands grouped by points, commas or spaces) and one word after it.
const numberAndWord = /^([+-]?(?:[\d.][\d.,\u00a0 ]*)?\d)\s*(\p{L}+\.?)$/u;

/**
 * A cell's number and the word after it ("0.25 kg": `0.25` and `kg`), or null when the cell is not
 * written so. Looked at only when its last character is a letter (or a dot after one): a plain
 * number leaves after one character comparison.
 */
export function splitQuantityUnit(text: string): { number: string; word: string } | null {
  let end = text.length - 1;
  while (end >= 0 && text.charCodeAt(end) <= 32) end -= 1;
  const last = text.charCodeAt(text[end] === '.' && end > 0 ? end - 1 : end);
  // Digits and the signs before letters end a plain number; only a cell ending in a letter goes on.
  if (!(last >= 65 && last <= 90) && !(last >= 97 && last <= 122) && last < 0xc0) return null;
  const match = numberAndWord.exec(text.trim());
  return match ? { number: match[1] as string, word: match[2] as string } : null;
}

/** A cell's word naming the product's own unit: "box" or "boxes" for "Box", "Stk." for "stk", "pieces" for "pcs". */
function sameUnit(word: string, unit: string): boolean {
  const [written, own] = [word.toLowerCase().replace(/\.$/, ''), unit.toLowerCase().replace(/\.$/, '')];
  return written === own || written === `${own}s` || written === `${own}es` || (isPiecesWord(written) && isPiecesWord(own));
}

/** The unit a row's quantity is counted in, and how a refusal names where it comes from ("the unit of product CHE-001"). */
export type ReadingUnit = { unit: string | null; of: string };

const kindPhrase = (unit: string) => {
  const measure = measureOf(unit);
  return measure ? `is a ${measure.kind}` : isPiecesWord(unit) ? 'counts pieces' : 'is no weight, length or volume';
};

/** Where the quantity was written, for what a refusal tells to do: a file's cell (the import) or a Data screen field. */
export type WrittenIn = 'file' | 'form';

const READER: Record<WrittenIn, string> = { file: 'the import reads', form: 'Stockwise reads' };
const WHERE: Record<WrittenIn, string> = { file: ' in the file', form: '' };

/**
 * `value`, written followed by `word` in the cell `text`, as a number in the row's unit; or why it
 * cannot be one. `places`: how many decimal places the column keeps (a conversion must fit them).
 */
export function inReadingUnit(value: number, word: string, text: string, reading: ReadingUnit, places: number, writtenIn: WrittenIn = 'file'): number | string {
  const { unit } = reading;
  const cell = measureOf(word);
  if (unit !== null && sameUnit(word, unit)) return value;
  const expected = unit === null ? 'Expected a number' : `Expected a quantity in ${unit} (${reading.of})`;
  if (!cell && !isPiecesWord(word)) return `${expected}, not ${text}: ${word} is not a unit ${READER[writtenIn]} (${UNITS_READ}); write the number alone.`;
  if (unit === null) return value;
  const own = measureOf(unit);
  if (!cell || !own || cell.kind !== own.kind) {
    const [cellSays, productSays] = [kindPhrase(word), kindPhrase(unit)];
    return `${expected}, not ${text}: ${word} ${cellSays}${productSays === cellSays ? '' : `, ${unit} ${productSays}`}; write the quantity in ${unit}.`;
  }
  const converted = (value * cell.size) / own.size;
  const scale = 10 ** places;
  const rounded = Math.round(converted * scale) / scale;
  if (Math.abs(rounded * scale - converted * scale) > 1e-6) {
    return `${text.trim()} is ${Number(converted.toPrecision(12))} ${unit} (${reading.of}), more than ${places} decimal places: write it in ${unit}${WHERE[writtenIn]}, rounded to ${places}.`;
  }
  return rounded;
}
