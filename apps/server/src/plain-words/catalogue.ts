// Words that name part of the catalogue or how to rank it, read the same way by the built-in report
// writer and the built-in assistant: a category ("Heating", "garden products"), a ranking ("top 3",
// "best selling"), stock that is too much ("overstocked", "dead stock"; ADR 0155).
import { categoryPathParts } from '@stockwise/contract';
import { datingWords, NUM, numberIn } from './period.ts';
import { escapeRegExp, wholeWords, type Reading } from './reading.ts';

/**
 * A word in both numbers: itself, what it may be the plural of ("mugs" → "mug", "ties" → "tie",
 * "boxes" → "box", "batteries" → "battery"; "ties" could be of "ty" too, and a word that is no name
 * matches nothing) and its plural ("mug" → "mugs", "box" → "boxes", "battery" → "batteries") —
 * in English and in German, which shops' names are often written in ("Gießkannen" → "Gießkanne",
 * "Handschuhe" → "Handschuh", "Töpfe" → "Topf", "Lichter" → "Licht", and back).
 */
function numberForms(word: string): string[] {
  const singulars = [/[^s]s$/.test(word) && word.slice(0, -1), /(s|x|z|ch|sh)es$/.test(word) && word.slice(0, -2), /[^aeiou]ies$/.test(word) && `${word.slice(0, -3)}y`];
  const plural = /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : /(s|x|z|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
  return [...new Set([word, ...singulars.filter((form): form is string => Boolean(form)), plural, ...germanNumberForms(word)])];
}

const GERMAN_PLURAL_ENDINGS = ['n', 'en', 'e', 'er'];
const UMLAUT_OF: Record<string, string> = { a: 'ä', o: 'ö', u: 'ü', au: 'äu' };
const VOWEL_OF: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u' };
/** The last vowel of the word, umlauted or not ("töpf" → "topf", "baum" → "bäum"). */
const withoutUmlaut = (word: string) => word.replace(/[äöü](?=[^aeiouäöü]*$)/, (vowel) => VOWEL_OF[vowel] as string);
const withUmlaut = (word: string) => word.replace(/(?<![aeiou])(au|[aou])(?=[^aeiouäöü]*$)/, (vowel) => UMLAUT_OF[vowel] as string);
/** Shorter German forms would make English words names ("under" → "und"). */
const GERMAN_FORM_MIN_LENGTH = 4;

/**
 * German plurals (−n, −en, −e, −er, the last vowel umlauted with −e and −er) and the singulars they
 * come from. Only a word of GERMAN_FORM_MIN_LENGTH letters or more gets plurals: a short word of
 * another language would grow into a name ("wat" → "water" selected every water product, QA4 #3).
 */
function germanNumberForms(word: string): string[] {
  if (word.length < GERMAN_FORM_MIN_LENGTH) return [];
  const singulars = GERMAN_PLURAL_ENDINGS.filter((ending) => word.endsWith(ending)).flatMap((ending) => {
    const stem = word.slice(0, -ending.length);
    return ending === 'e' || ending === 'er' ? [stem, withoutUmlaut(stem)] : [stem];
  });
  const plurals = [...GERMAN_PLURAL_ENDINGS.map((ending) => word + ending), `${withUmlaut(word)}e`, `${withUmlaut(word)}er`];
  return [...singulars, ...plurals].filter((form) => form.length >= GERMAN_FORM_MIN_LENGTH && form !== word);
}

/** A word in either number, as a pattern. */
const eitherNumber = (word: string) => `(?:${numberForms(word).map(escapeRegExp).join('|')})`;


/** The pattern of a word naming products, in either number ("radiator", "radiators"). */
export const nameWordPattern = (word: string) => wholeWords(eitherNumber(word.toLowerCase()));

/**
 * A last word of a name that has numbers: letters only, 3 or more of them, as the words of names are
 * (`vocabulary.ts`), or letters joined by hyphens or apostrophes whose last part is such a word — its
 * number is that part's ("t-shirt" ↔ "t-shirts", "jack-o'-lantern" ↔ "jack-o'-lanterns"; the rules
 * read a word's end). "40L", "2.5L", "(blue)", "men's" (a last part "s") are written one way only.
 */
const hasNumbers = (word: string) => /^(?:\p{L}+['-]+)*\p{L}{3,}$/u.test(word);

/** A pattern's apostrophes straight or curly, as names and questions write them ("men's", "Men’s"). */
const eitherApostrophe = (pattern: string) => pattern.replace(/'/g, "['\u2019]");

/**
 * White space as JavaScript's `\s` reads it (tabs, line breaks, no-break and other Unicode spaces),
 * written out as the body of a character class so that PostgreSQL's regular expressions read the
 * same characters (its `\s` follows the server's locale, which may leave out a no-break space).
 */
const WHITE_SPACE_CHARACTERS = '\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** A run of white space (`WHITE_SPACE_CHARACTERS`), for JavaScript and PostgreSQL alike. */
export const WHITE_SPACE = `[${WHITE_SPACE_CHARACTERS}]+`;
/** White space that is not one space between words: two side by side, one at either end, or any but a space. */
export const UNEVEN_WHITE_SPACE = `[${WHITE_SPACE_CHARACTERS.replace(' ', '')}]|  |^ | $`;
const WHITE_SPACE_RUN = new RegExp(WHITE_SPACE, 'gu');

/**
 * A product's name or a question as names are compared (`fullNamePattern`, `productsNamedIn`): lower
 * case, an apostrophe straight, white space single and none at either end ("  Paper  bag " is "paper
 * bag"), as the database's `fullNameSql` makes a stored name.
 */
export const comparedName = (text: string) => text.toLowerCase().replace(/\u2019/g, "'").replace(WHITE_SPACE_RUN, ' ').trim();

/**
 * A product's whole name as the words of a question may say it: whole words, its last word in either
 * number ("Paper bag" in "paper bags", "Paper bags" in "paper bag", "Croissant" in "croissants",
 * "Gießkanne" in "Gießkannen", "Crew T-Shirt" in "crew t-shirts"), the same forms a word of names is
 * read in (`numberForms`). Never a part of a longer word: "Tea" is not in "teapots", and "Paper bag"
 * in "paper bags" is its plural, not "paper bag" and an "s" left over (ADR 0189, amendment 2026-12-06
 * (4)). Spaces and apostrophes as `comparedName` reads them: "  Paper  bag " is in "paper bags",
 * "Men’s Jumper" in "men's jumpers" (amendment 2026-12-06 (6)).
 */
export function fullNamePattern(name: string): RegExp {
  const words = comparedName(name).split(' ');
  const last = words.pop() as string;
  return wholeWords(eitherApostrophe([...words.map(escapeRegExp), hasNumbers(last) ? eitherNumber(last) : escapeRegExp(last)].join('\\s+')));
}

/**
 * Every word of a text in either number ("bags" → "bags", "bag"…), lower-cased, a word joined by
 * hyphens or apostrophes whole and by its parts ("t-shirts" → "t-shirts", "t-shirt", "t", "shirts",
 * "shirt"…): what the last word of a product's name must be among for `fullNamePattern` to match the
 * text, for a database to pick the names a question may say before each is matched.
 */
export const wordsInEitherNumber = (text: string): string[] =>
  [...new Set([...comparedName(text).matchAll(/[\p{L}\p{N}]+(?:['-]+[\p{L}\p{N}]+)*/gu)].flatMap(([word]) => [word, ...wordParts(word)].flatMap((each) => (hasNumbers(each) ? numberForms(each) : [each]))))];

/**
 * Short words a question says for what it asks, not for a product, though a product's name may hold
 * them ("Tank Top", "Day Pack", "New Potatoes"): they select no products. Filler words ("the", "all",
 * "any") never do, as no reading leaves them unused.
 */
const COMMON_WORDS = new Set(
  ('top day new old big low one two six ten out off yes not nor why who way end set put run buy got let say ask too yet ago far via etc due ' +
    'sum avg max min qty net ytd qtd lot few own jan feb mar apr may jun jul aug sep oct nov dec')
    .split(' '),
);

/**
 * The words a shop counts its goods in — a packaging or a count, in English, German and Dutch ("bags",
 * "boxes", "Säcke", "Kisten", "zakken", "dozen", "flessen"): beside words that name products ("how
 * many bags of compost", "hoeveel zakken compost") they frame the question, as "units" does, and
 * select no products (ADR 0189, amendment 2026-12-06 (3)). A name that holds one together with the
 * product's word is still that phrase ("compost zak" is "Compost zak 40L"), and a question with no
 * other product word reads it as a word of names ("how many paper bags": "Bag").
 */
const PACKAGING_WORDS = new Set(
  (
    // English
    'bag bags sack sacks box boxes case cases carton cartons crate crates pack packs packet packets package packages bottle bottles can cans ' +
    'tin tins jar jars tub tubs tray trays roll rolls bundle bundles bunch bunches pallet pallets bucket buckets bale bales tube tubes ' +
    'container containers piece pieces pcs dozen dozens ' +
    // Measures a product is counted in (a wholesaler's coffee by the kg, ADR 0198 F13)
    'kg kgs kilo kilos kilogram kilograms gram grams lb lbs litre litres liter liters ml metre metres meter meters ' +
    // German
    'sack säcke säcken beutel tüte tüten kiste kisten karton kartons schachtel schachteln packung packungen paket pakete päckchen ' +
    'flasche flaschen dose dosen glas gläser eimer kanister rolle rollen palette paletten becher bund bündel stücke ' +
    // Dutch
    'zak zakken zakje zakjes doos dozen doosje doosjes kist kisten krat kratten fles flessen flesje flesjes blik blikken blikje blikjes ' +
    'pak pakken pakje pakjes pakket pakketten verpakking verpakkingen emmer emmers rol rollen pallets bos bossen potje potjes tube tubes'
  ).split(' '),
);
/** Whether a word of the question is a packaging or count word (`PACKAGING_WORDS`). */
const isPackaging = (word: string) => PACKAGING_WORDS.has(word.toLowerCase());
/** Every packaging or count word, as a pattern. */
const PACKAGING = wholeWords(`(?:${[...PACKAGING_WORDS].map(escapeRegExp).join('|')})`);
/** Marks the question's packaging and count words as used: the products it names are counted in them (`PACKAGING_WORDS`). */
export const readPackaging = (reading: Reading) => reading.test(PACKAGING);

/**
 * A word the question holds that products' names hold, in either number ("radiators" → "radiator",
 * "mugs" → "mug", the word as the names write it), among the words no other reading used: they
 * select those products when no product or category is named. Common short words ("top", "day")
 * are none. Two or three words side by side that names hold together (`namePhrases`, "Snow Shovel",
 * "Stainless Steel Screw") are read first, as that phrase, the longest first: "snow shovels" selects
 * the snow shovels, not every product named Snow (QA6 #6). Null when there is none.
 */
export function readNameWord(reading: Reading, nameWords: readonly string[], namePhrases: readonly string[] = []): string | null {
  const phrase = readNamePhrase(reading, namePhrases);
  if (phrase) {
    readPackaging(reading);
    return phrase;
  }
  const known = new Map(nameWords.filter((word) => !COMMON_WORDS.has(word.toLowerCase())).map((word) => [word.toLowerCase(), word]));
  const unused = reading.unusedWords();
  // A packaging word last: "bags of compost" is compost, though a name holds "Bag".
  for (const word of [...unused.filter((each) => !isPackaging(each)), ...unused.filter(isPackaging)]) {
    // A word joined by hyphens or an apostrophe whole first ("t-shirts": "T-Shirt"), then its parts ("shirts": "Shirt").
    const found = [word, ...wordParts(word)]
      .flatMap((each) => numberForms(each.toLowerCase()))
      .map((form) => known.get(form))
      .find(Boolean);
    if (found) {
      reading.test(nameWordPattern(found));
      if (!isPackaging(word)) readPackaging(reading);
      return found;
    }
  }
  return null;
}

/** The parts of a word joined by hyphens or apostrophes ("t-shirts" → "t", "shirts"; "men's" → "men", "s"); none for a plain word. Parts under 3 letters are no word of names. */
const wordParts = (word: string): string[] => (/[-']/.test(word) ? word.split(/[-']+/).filter(Boolean) : []);

/**
 * A word or phrase of names as a PostgreSQL pattern of whole words (\m, \M: word edges), for a name
 * lower-cased: the phrase's words apart by spaces or hyphens ("linen shirt" is in "linen-shirt XS"),
 * an apostrophe straight or curly ("men's", "Men’s").
 */
export const nameWordSqlPattern = (word: string) =>
  `\\m${word
    .toLowerCase()
    .split(/\s+/)
    .map((each) => eitherApostrophe(escapeRegExp(each)))
    .join('[\\s-]+')}\\M`;

/**
 * The words that say products are chosen by a word of their names — "whose name holds / contains /
 * includes / has", "named", "called" — as the assistant's own answers word it ("sales by category of
 * products whose name holds compost"): they frame the question and name no product.
 */
export const NAME_HOLDS = /\b(?:(?:whose |with (?:a |the )?|where the )names? (?:holds?|holding|contains?|containing|includes?|including|has|have|with)|named|called)\b/;

/** Every way of writing the words side by side with each in either number ("snow shovels" → "snow shovel", "snows shovel"…). */
const spellings = (words: string[]): string[] => words.reduce<string[]>((phrases, word) => phrases.flatMap((phrase) => numberForms(word).map((form) => `${phrase} ${form}`)), ['']).map((phrase) => phrase.slice(1));

/** The longest phrase of product names, in words. */
const LONGEST_PHRASE = 3;

/**
 * Unused words side by side that products' names hold together, in either number, as the names write
 * them ("snow shovels" → "Snow Shovel"): three words before two ("pressure treated lumber" →
 * "Pressure Treated Lumber", not every "Pressure Treated" product); null when none.
 */
function readNamePhrase(reading: Reading, namePhrases: readonly string[]): string | null {
  if (!namePhrases.length) return null;
  const known = new Map(namePhrases.map((phrase) => [phrase.toLowerCase(), phrase]));
  const words = reading.unusedWords().map((word) => word.toLowerCase());
  for (let length = LONGEST_PHRASE; length >= 2; length--) {
    for (let at = 0; at + length <= words.length; at++) {
      const run = words.slice(at, at + length);
      const found = spellings(run)
        .map((phrase) => known.get(phrase))
        .find(Boolean);
      if (found && reading.test(wholeWords(run.map(escapeRegExp).join(' ')))) return found;
    }
  }
  return null;
}

/**
 * The words beside a name word or phrase that no reading used ("snow blowers" when names hold "Snow"
 * but never "Snow Blower"; "pressure treated decking" when they hold "Pressure Treated" but never with
 * "Decking"): the phrase the question asked for, which no name holds, for an answer to say first that
 * it counted every product holding the shorter one (QA6 #6). Null when the word stood alone.
 */
export function missedPhrase(reading: Reading, word: string): string | null {
  const match = nameWordPattern(word).exec(reading.text);
  if (!match) return null;
  const unused = new Set(reading.unusedWords().map((each) => each.toLowerCase()));
  const before = /([\p{L}\p{N}]+) $/u.exec(reading.text.slice(0, match.index))?.[1];
  const after = /^ ([\p{L}\p{N}]+)/u.exec(reading.text.slice(match.index + match[0].length))?.[1];
  const beside = [before, after].map((each) => (each && unused.has(each) ? each : null));
  return beside.some(Boolean) ? [beside[0], match[0], beside[1]].filter(Boolean).join(' ') : null;
}

/**
 * The names a category is said by: its own, and for a path an ERP writes ("All / Saleable / Office
 * Furniture", Odoo's; "Home > Garden") its last part too, which is what a shop calls it (ADR 0198).
 */
function namesOfCategory(category: string): string[] {
  const parts = categoryPathParts(category);
  return parts.length > 1 ? [category, parts.at(-1) as string] : [category];
}

/**
 * The category the words name, case aside and in either number ("heating", "Gardens"); the longest
 * name when several match. Words that name a holiday period ("last Christmas", "at Christmas 2025")
 * or a deadline ("before Christmas", "by Easter") date the question, not a category named
 * "Christmas" (ADR 0148, amendments "Christmas" and "Easter, weekends"). A path's last part names
 * it too (namesOfCategory): the category answered is the stored one.
 */
export function readCategory(reading: Reading, categories: string[]): string | null {
  const longestFirst = categories.flatMap((category) => namesOfCategory(category).map((spoken) => ({ spoken, category }))).sort((a, b) => b.spoken.length - a.spoken.length);
  const dating = datingWords(reading.text);
  const named = dating.length ? reading.without(new RegExp(dating.map(escapeRegExp).join('|'), 'g')) : reading;
  for (const { spoken, category: name } of longestFirst) {
    const words = spoken.toLowerCase().split(/\s+/);
    const last = words.pop() as string;
    const pattern = wholeWords(`${[...words.map(escapeRegExp), eitherNumber(last)].join(' ')}(?: categor(?:y|ies))?`);
    if (named.test(pattern)) {
      reading.test(/\b(in|of|from) the\b(?= \S+ categor)|\bcategor(y|ies)\b|\bkategorien?\b/);
      return name;
    }
  }
  return null;
}

export type Rank = { direction: 'desc' | 'asc'; limit: number };

/** "Top 3", "bottom 5", "best selling", "sells best", "sold best", "bestsellers", "worst sellers", "sold least": a ranking with the number said, else `defaultLimit`. */
export function readRank(reading: Reading, defaultLimit: number): Rank | null {
  let match = reading.exec(new RegExp(`\\b(top|best|highest|most|largest|biggest) ${NUM}\\b`));
  if (match) return { direction: 'desc', limit: numberIn(match[2]) as number };
  match = reading.exec(new RegExp(`\\b(bottom|worst|lowest|least|slowest|smallest) ${NUM}\\b`));
  if (match) return { direction: 'asc', limit: numberIn(match[2]) as number };
  if (reading.test(/\b(top|best[- ]?selling|best[- ]?sellers?|highest|most sold|biggest|fastest|meistverkauft\w*|renner|bestverkochte?)\b|\b(sold|sells?|selling) (the )?(best|most)\b|\bam (meisten|besten) verkauft|\b(?:het )?(?:meest|best) verkochte?\b/)) return { direction: 'desc', limit: defaultLimit };
  if (reading.test(/\b(bottom|worst[- ]?selling|worst[- ]?sellers?|lowest|least sold|slowest|smallest|ladenhüter)(?![\p{L}])|\b(sold|sells?|selling) (the )?(worst|least)\b|\bam wenigsten verkauft|\b(?:het )?(?:minst|slechtst) verkochte?\b/u)) return { direction: 'asc', limit: defaultLimit };
  return null;
}

/** Words asking for stock beyond what the forecast needs. */
export const OVERSTOCK = /\bover-?stock(ed|ing)?\b|\btoo much (stock|inventory)\b|\b(excess|surplus) (stock|inventory)\b/;
/** Words asking for stock that does not move. */
export const DEAD_STOCK = /\bdead (stock|inventory)\b/;
/** Stock on hand is overstock when it covers more than this many days of the forecast's demand (about six months), unless the question says otherwise. */
export const OVERSTOCK_DAYS = 180;

/** "More than 6 months of stock", "over 90 days of cover": the days of cover the words set (a month is 30 days, a year 365), else null. */
export function readCoverDays(reading: Reading): number | null {
  const match = reading.exec(new RegExp(`\\b(?:more than|over|above|at least) ${NUM} (day|week|month|year)s?(?: of (?:stock|cover|supply|inventory|demand))?\\b`));
  if (!match) return null;
  return (numberIn(match[1]) as number) * { day: 1, week: 7, month: 30, year: 365 }[match[2] as 'day' | 'week' | 'month' | 'year'];
}

/**
 * Of the words a question did not use, those it says as a kind of products ("the Christmas items",
 * "Christmas products", "our garden range"): no product's name, category or code holds them, so an
 * answer for every product says so first, in the same words from the assistant and the report writer.
 */
export function unmatchedProductWords(question: string, unused: string[]): string[] {
  return unused.filter((word) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}\\s+(?:items?|products?|articles?|goods|range|lines?)(?![\\p{L}\\p{N}])`, 'iu').test(question));
}

/** Said first when words meant as a kind of products match none: the answer is for all of them. */
export const noProductMatches = (words: string[]) => `No product or category matches "${words.join(' ')}": showing all products.`;

/** The words a question calls a supplier by before its name: "supplier", "vendor", "Lieferant(en)", "leverancier". */
const SUPPLIER_WORD = '(?:the |our |dem |den |der |de |onze )?(?:suppliers?|vendors?|lieferant(?:en)?|leveranciers?) ';
/** Words before a supplier's name that can only mean the supplier: "from", "von", "vom", "bei", "van", "bij" (Dutch: "bestellen bij"), or "(for) supplier". */
const SUPPLIER_LEAD = `(?:(?:from|von|vom|bei|van|bij) (?:the |our |dem |den |der |de |onze )?(?:${SUPPLIER_WORD})?|(?:for )?${SUPPLIER_WORD})`;

/** A supplier a question names, and the pattern of its words (with the words before it) that the answer uses when it narrows to it. */
export type NamedSupplier = { supplier: string; pattern: RegExp };

/**
 * The known supplier the words name after "from", "von", "bei", "van", "bij" or "supplier" — or after "for"
 * when its name is no word of the products' names ("reorder report for Brakes Bros", but "what runs
 * out for mugs" asks about the mugs, whoever supplies them) — whole words, case aside, the longest
 * name first; null when none. `isProductWords`: whether words name products by a word of their names.
 */
export function readSupplier(reading: Reading, suppliers: readonly string[], isProductWords: (words: string) => boolean): NamedSupplier | null {
  const longestFirst = [...suppliers].sort((a, b) => b.length - a.length || a.localeCompare(b));
  for (const supplier of longestFirst) {
    const name = escapeRegExp(supplier.toLowerCase().replace(/[’']/g, "'")).replace(/ +/g, '\\s+');
    const plain = wholeWords(`${SUPPLIER_LEAD}${name}`);
    if (plain.test(reading.text)) return { supplier, pattern: plain };
    const after = wholeWords(`for (?:the )?${name}`);
    if (after.test(reading.text) && !isProductWords(supplier)) return { supplier, pattern: after };
  }
  return readSupplierWord(reading, suppliers, isProductWords);
}

/** Words of suppliers' names that tell none apart: a company's legal form, "and", "the". */
const COMPANY_WORDS = new Set(['the', 'and', 'of', 'co', 'company', 'ltd', 'limited', 'pty', 'inc', 'llc', 'plc', 'gmbh', 'kg', 'ag', 'bv', 'nv', 'sa', 'sarl', 'srl', 'spa', 'group', 'supplies', 'supply', 'wholesale', 'trading']);

/**
 * "What should I order from the dairy?": after "from" (or "supplier"), one word of one supplier's
 * name only ("dairy" of Schulz Organic Dairy, ADR 0193), not a company word ("Pty", "Ltd") nor a
 * word of product names. Two suppliers holding the word: none (the answer lists them).
 */
function readSupplierWord(reading: Reading, suppliers: readonly string[], isProductWords: (words: string) => boolean): NamedSupplier | null {
  const found = suppliers.flatMap((supplier) => {
    const words = [...new Set(supplier.toLowerCase().replace(/[’']/g, "'").split(/[^\p{L}\p{N}']+/u))].filter((word) => word.length >= 3 && !COMPANY_WORDS.has(word));
    return words.flatMap((word) => {
      const pattern = wholeWords(`${SUPPLIER_LEAD}${escapeRegExp(word)}`);
      return pattern.test(reading.text) && !isProductWords(word) ? [{ supplier, pattern }] : [];
    });
  });
  const named = new Set(found.map((match) => match.supplier));
  return named.size === 1 ? (found[0] as NamedSupplier) : null;
}

/**
 * The words a question names a supplier by that the reading left unused, after "from", "von", "bei",
 * "van" or "supplier" ("what should I order from Zeta": "Zeta"); used when they name no known
 * supplier, so the answer can say so rather than list every supplier's orders. Null when none.
 */
export function askedSupplier(reading: Reading): string | null {
  const leading = new RegExp(`(?<![\\p{L}\\p{N}])${SUPPLIER_LEAD}`, 'u');
  const lead = leading.exec(reading.text);
  if (!lead) return null;
  const words = reading.part(lead.index + lead[0].length, reading.text.length).unusedWords();
  if (!words.length) return null;
  reading.test(leading);
  words.forEach((word) => reading.test(wholeWords(escapeRegExp(word.toLowerCase()))));
  return words.join(' ');
}
