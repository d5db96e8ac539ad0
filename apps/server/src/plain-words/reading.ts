// A question in plain words and which of its characters a reader used: the built-in report writer
// and the built-in assistant both read through it, so both can say which words they did not use.
import { DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';

// Words a question or change request may hold without asking for anything a reader would have to express.
const FILLER_WORDS = new Set(
  ('a about add again all also am an and any are as at be been but by can change could did do does each every for from get give have has ' +
    'had how i in instead into is it its just list make me much many my need needs now of on only or our overall per please product ' +
    'products item items report same see shall should show so switch tell that the their them then there these this those to total totals ' +
    'turn us use want was we were what what\'s whats which will with would you ' +
    // A German shop's (ADR 0148, amendment "German words"): articles, prepositions, "show me".
    'alle aller allen am auf bitte das dem den der des die ein eine einem einen einer für im in je mir nach pro produkt produkte produkten ' +
    'artikel artikeln und vom von wie zeig zeige zeigen ' +
    // Its question words (the assistant's; ADR 0148, amendment "the assistant's German"): "was muss ich", "wie viel haben wir".
    'was welche welcher welches welchen viel viele wieviel ist sind haben hat habe wir ich uns unser unsere unserem unseren unserer muss müssen soll sollen sollte sollten wurde wurden es gibt noch ' +
    // A Dutch shop's (ADR 0148, amendment "Dutch words"): "wat is op", "hoeveel hebben we verkocht", "toon mij".
    'de het een en van voor aan bij met wat welke welk hoeveel hoe veel is zijn hebben heeft heb we wij ik ons onze mijn moet moeten kan kunnen ' +
    'er nog werd werden wordt worden zal zullen gaat gaan toon laat zien geef geven alle alles artikelen producten')
    .split(' '),
);

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `body` as whole words: not inside a longer word, umlauts and ß counted as letters (which `\b` does not). */
export const wholeWords = (body: string) => new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');

/** A word that reads as a product code (letters and digits, e.g. "NOPE-999"), not a quarter, a financial year ("FY26", "FY2025-26"), an ordinal or a measure ("3rd", "350ml", "7d"). */
export const looksLikeProductCode = (word: string) =>
  /^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*$/u.test(word) && !/^(q[1-4]|h[12]|fy(\d{2}|\d{4})([-/](\d{2}|\d{4}))?|\d+([.,]\d+)?[a-z]{1,3})$/i.test(word);

/** Edits (insert, delete, replace a character) between two words, case aside. */
function editDistance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length] as number;
}

const CLOSE_CODES = 3;

/** Says a code names no product, with up to three known codes a typing slip away (at most a third of its characters differ). */
export function noSuchProduct(code: string, knownCodes: string[]): string {
  const close = knownCodes
    .map((known) => ({ known, distance: editDistance(code, known) }))
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(code.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.known.localeCompare(b.known))
    .slice(0, CLOSE_CODES)
    .map(({ known }) => known);
  return `There is no product ${code}.${close.length ? ` Did you mean ${close.join(', ')}?` : ''}`;
}

/** Marks of a reading not made for one part of the answer (`Reading.for`): never left out. */
const ANY_PART = 1;

/**
 * The question's text and which of its characters the reading used: every match of a pattern that
 * decided something is marked, so the words left over are what the reader ignored. Patterns are
 * matched against the lower-cased text; the words left over are given as the user wrote them.
 * A mark says for which part of the answer it was made (`for`), so that the words of a part the
 * answer then did not use can be counted as unused too (`unusedWords(leftOut)`).
 */
export class Reading {
  /** The lower-cased text the patterns read. */
  readonly text: string;
  readonly #written: string;
  /** Per character, the parts (bits) it was used for; 0 when unused. */
  readonly #used: Uint32Array;
  /** The part being read now, shared by the readings made from this one. */
  readonly #part: { bit: number };
  /** How the asker writes a date with numbers alone ("12/1"): their language's order. */
  readonly dateOrder: DateOrder;
  /** The asker's time zone (an IANA name), whose hemisphere the seasons are of; none: UTC's. */
  readonly timeZone: string | undefined;

  private constructor(text: string, written: string, used: Uint32Array, part: { bit: number }, dateOrder: DateOrder, timeZone: string | undefined) {
    this.text = text;
    this.#written = written;
    this.#used = used;
    this.#part = part;
    this.dateOrder = dateOrder;
    this.timeZone = timeZone;
  }

  /** Reads with `read`, marking what it uses as used for the part `bit` (a power of two above 1). */
  for<T>(bit: number, read: () => T): T {
    const outer = this.#part.bit;
    this.#part.bit = bit;
    try {
      return read();
    } finally {
      this.#part.bit = outer;
    }
  }

  /** A question with its quotes and spaces made plain, padded with a space at each end for the patterns' word edges. */
  static of(question: string, dateOrder: DateOrder = DEFAULT_DATE_ORDER, timeZone?: string): Reading {
    const written = ` ${question.replace(/[’']/g, "'").replace(/\s+/g, ' ').trim()} `;
    const lowered = written.toLowerCase();
    // A letter whose lower case is longer would shift positions: then the words are given lower-cased.
    const shown = lowered.length === written.length ? written : lowered;
    return new Reading(lowered, shown, new Uint32Array(lowered.length), { bit: ANY_PART }, dateOrder, timeZone);
  }

  /** The first match of `pattern`; when there is one, every match of it counts as used. */
  exec(pattern: RegExp): RegExpExecArray | null {
    const match = pattern.exec(this.text);
    if (match) {
      const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      for (const each of this.text.matchAll(global)) for (let at = each.index; at < each.index + each[0].length; at++) this.#used[at] = (this.#used[at] as number) | this.#part.bit;
    }
    return match;
  }

  test(pattern: RegExp): boolean {
    return this.exec(pattern) !== null;
  }

  /** The same question with the matches of `pattern` blanked out (positions kept), sharing what is used. */
  without(pattern: RegExp): Reading {
    const blank = (text: string) => text.replace(pattern, (found) => ' '.repeat(found.length));
    return new Reading(blank(this.text), this.#written, this.#used, this.#part, this.dateOrder, this.timeZone);
  }

  /** The same question with only the characters from `from` to `to` left to read (the rest blanked), sharing what is used: one side of "this month vs last month". */
  part(from: number, to: number): Reading {
    const text = `${' '.repeat(from)}${this.text.slice(from, to)}${' '.repeat(Math.max(0, this.text.length - to))}`;
    return new Reading(text, this.#written, this.#used, this.#part, this.dateOrder, this.timeZone);
  }

  /** The same question with marks of its own: to try a reading without counting its words as used. */
  trial(): Reading {
    return new Reading(this.text, this.#written, new Uint32Array(this.#used.length), this.#part, this.dateOrder, this.timeZone);
  }

  /** The words no pattern used (or used only for the parts in `leftOut`, bits), in order, filler words left out. */
  unusedWords(leftOut = 0): string[] {
    const words: string[] = [];
    for (const word of this.text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'./-]*/gu)) {
      const unused = this.#used.subarray(word.index, word.index + word[0].length).every((parts) => (parts & ~leftOut) === 0);
      const trimmed = word[0].replace(/[./'-]+$/, '');
      if (unused && !FILLER_WORDS.has(trimmed)) words.push(this.#written.slice(word.index, word.index + trimmed.length));
    }
    return words;
  }
}
