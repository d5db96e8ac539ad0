// How imported files write dates and numbers, read into the forms the row validator takes: dates
// as ISO, day-first, month-first or dotted (with or without a time, which a date column drops),
// Excel serial day numbers, and decimal commas. Which way round day and month go is detected
// across the whole file, and never guessed: a file whose every day is 12 or less is ambiguous.
import { isCalendarDay, notACalendarDay, type DateFormat } from '@stockwise/contract';
import { withoutCurrencySign } from './currency.ts';

/** A date (and maybe a time) read from a cell; the time is kept for DateTimeField columns. */
export type ReadDate = { year: number; month: number; day: number; time: string | null };

// The zone may follow the time after a space, as web shops export it (Shopify's `2026-11-28 09:15:02 -0500`, `… UTC`).
const isoDate = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?: ?(Z|UTC|[+-]\d{2}:?\d{2}))?)?$/;
// 1/2/2024, 01-02-2024, 1.2.2024, 2.12.26, with an optional time (1/2/2024 8:26, 01.02.2024 08:26:00).
const partsDate = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[T ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?$/;

function timeOf(hours: string | undefined, minutes: string | undefined, seconds: string | undefined, meridiem?: string, zone?: string): string | null | undefined {
  if (hours === undefined || minutes === undefined) return null;
  let h = Number(hours);
  if (meridiem) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23 || Number(minutes) > 59 || Number(seconds ?? 0) > 59) return undefined;
  const pad = (n: number | string) => String(n).padStart(2, '0');
  return `${pad(h)}:${minutes}:${pad(seconds ?? 0)}${zone ? (zone === 'Z' || zone === 'UTC' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone) : ''}`;
}

/**
 * The year a two-digit year stands for, as Excel reads one: 00–69 are 2000–2069, 70–99 are
 * 1970–1999 (tills print `2.12.26`; no shop's data goes back before 1970).
 */
export const fullYear = (digits: number, length: number) => (length !== 2 ? digits : digits < 70 ? 2000 + digits : 1900 + digits);

/** The two numbers of a d/m/y-like date and its separator, before knowing which one is the day. */
export type SplitDate = { first: number; second: number; year: number; separator: string; time: string | null };

const isDigitAt = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
};

/** The number written by the digits of text[from, to). */
function digitsValue(text: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) value = value * 10 + text.charCodeAt(at) - 48;
  return value;
}

/** Where a run of at most `max` digits from `from` ends. */
function digitsEnd(text: string, from: number, max: number): number {
  let at = from;
  while (at < text.length && at - from < max && isDigitAt(text, at)) at += 1;
  return at;
}

/**
 * splitDate for the shapes files almost always have — `d/m/yyyy`, `dd.mm.yyyy hh:mm`,
 * `dd-mm-yyyy hh:mm:ss` — read character by character, without the regular expression's match
 * arrays (this runs once per line of a file). Undefined for any other text: the expression then
 * decides (it also takes `T` or commas before the time, and AM/PM).
 */
function scanSplitDate(text: string): SplitDate | null | undefined {
  const firstEnd = digitsEnd(text, 0, 2);
  const separator = text[firstEnd];
  if (firstEnd === 0 || (separator !== '/' && separator !== '.' && separator !== '-')) return undefined;
  const secondEnd = digitsEnd(text, firstEnd + 1, 2);
  if (secondEnd === firstEnd + 1 || text[secondEnd] !== separator) return undefined;
  const yearEnd = digitsEnd(text, secondEnd + 1, 4);
  if (yearEnd !== secondEnd + 5 && yearEnd !== secondEnd + 3) return undefined;
  const first = digitsValue(text, 0, firstEnd);
  const second = digitsValue(text, firstEnd + 1, secondEnd);
  const year = fullYear(digitsValue(text, secondEnd + 1, yearEnd), yearEnd - secondEnd - 1);
  if (yearEnd === text.length) return { first, second, year, separator, time: null };
  if (text[yearEnd] !== ' ') return undefined;
  const hoursEnd = digitsEnd(text, yearEnd + 1, 2);
  if (hoursEnd === yearEnd + 1 || text[hoursEnd] !== ':' || !isDigitAt(text, hoursEnd + 1) || !isDigitAt(text, hoursEnd + 2)) return undefined;
  const minutesEnd = hoursEnd + 3;
  let seconds = 0;
  if (minutesEnd !== text.length) {
    if (text[minutesEnd] !== ':' || minutesEnd + 3 !== text.length || !isDigitAt(text, minutesEnd + 1) || !isDigitAt(text, minutesEnd + 2)) return undefined;
    seconds = digitsValue(text, minutesEnd + 1, minutesEnd + 3);
  }
  const hours = digitsValue(text, yearEnd + 1, hoursEnd);
  if (hours > 23 || digitsValue(text, hoursEnd + 1, minutesEnd) > 59 || seconds > 59) return null;
  return { first, second, year, separator, time: `${hours < 10 ? '0' : ''}${hours}:${text.slice(hoursEnd + 1, minutesEnd)}:${seconds < 10 ? '0' : ''}${seconds}` };
}

export function splitDate(text: string): SplitDate | null {
  const scanned = scanSplitDate(text);
  if (scanned !== undefined) return scanned;
  const match = partsDate.exec(text);
  if (!match) return null;
  const time = timeOf(match[5], match[6], match[7], match[8]);
  if (time === undefined) return null;
  const yearDigits = match[4] as string;
  return { first: Number(match[1]), second: Number(match[3]), year: fullYear(Number(yearDigits), yearDigits.length), separator: match[2] as string, time };
}

export function readIsoDate(text: string): ReadDate | null {
  const match = isoDate.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = timeOf(match[4], match[5], match[6], undefined, match[7]);
  return time !== undefined && isCalendarDay(year, month, day) ? { year, month, day, time } : null;
}

/** Why text written as an ISO date is none (its day, or its time of day, does not exist); null for text of another shape. */
export function isoDateProblem(text: string): string | null {
  const match = isoDate.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCalendarDay(year, month, day) ? `${text} is not a real time of day.` : notACalendarDay(text, year, month, day);
}

/** A date in one definite format (or ISO, which no format can misread), or null when the text is not one. */
export function readDate(text: string, format: Exclude<DateFormat, 'auto'>): ReadDate | null {
  if (format === 'iso' || isoDate.test(text)) return readIsoDate(text);
  const split = splitDate(text);
  return split ? orderSplit(split, format) : null;
}

/** A split date read in one order, or null when it is not a real date that way (or its separator does not fit the format). */
function orderSplit(split: SplitDate, format: 'dd/mm/yyyy' | 'mm/dd/yyyy' | 'dd.mm.yyyy'): ReadDate | null {
  if (format === 'dd.mm.yyyy' ? split.separator !== '.' : split.separator === '.') return null;
  const monthFirst = format === 'mm/dd/yyyy';
  const day = monthFirst ? split.second : split.first;
  const month = monthFirst ? split.first : split.second;
  return isCalendarDay(split.year, month, day) ? { year: split.year, month, day, time: split.time } : null;
}

const readInOrder = (split: SplitDate, monthFirst: boolean): ReadDate =>
  monthFirst ? { year: split.year, month: split.first, day: split.second, time: split.time } : { year: split.year, month: split.second, day: split.first, time: split.time };

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
// Serials of 1 January 1900 … 31 December 9999; Excel's phantom 29 February 1900 (serial 60) is refused.
const isExcelSerial = (value: number) => Number.isFinite(value) && value >= 1 && value < 2_958_466 && Math.floor(value) !== 60;

/** An Excel serial day number (the 1900 date system: 45292 is 2024-01-01), with its time of day. */
export function readExcelSerial(value: number): ReadDate | null {
  if (!isExcelSerial(value)) return null;
  // Serials below 60 count from 31 December 1899; Excel believes 1900 was a leap year.
  const ms = EXCEL_EPOCH_MS + Math.round((value < 60 ? value + 1 : value) * DAY_MS);
  return fromJsDate(new Date(ms));
}

export function fromJsDate(date: Date): ReadDate | null {
  if (Number.isNaN(date.getTime())) return null;
  const time = date.toISOString().slice(11, 19);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), time: time === '00:00:00' ? null : `${time}Z` };
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
export const isoDay = (date: ReadDate) => `${date.year >= 1000 ? date.year : String(date.year).padStart(4, '0')}-${twoDigits(date.month)}-${twoDigits(date.day)}`;
/** A timestamp for a DateTimeField: a time without a zone is read as UTC. */
export const isoDateTime = (date: ReadDate) => {
  const time = date.time ?? '00:00:00Z';
  return `${isoDay(date)}T${/Z$|[+-]\d{2}:\d{2}$/.test(time) ? time : `${time}Z`}`;
};

/**
 * Day-first or month-first, learnt from the dates of one file as they come. Until a date with a
 * first number over 12 (day-first) or a second one over 12 (month-first) arrives, slashed dates
 * are read in the `undecided` order provisionally (day-first unless the shop writes month-first;
 * counted in `provisionalReads`; the writer marks them) and swapped afterwards if the other order
 * wins. A date that contradicts the evidence is an error of its row.
 */
export class DateOrderDetector {
  order: 'dd/mm/yyyy' | 'mm/dd/yyyy' | null = null;
  readonly undecided: 'dd/mm/yyyy' | 'mm/dd/yyyy';
  /** The first row whose date settled the order (named when a later date contradicts it). */
  firstEvidenceRow: number | null = null;
  /** The first row with an undecided slashed date (while none decides, the file is ambiguous). */
  firstAmbiguousRow: number | null = null;
  firstAmbiguousText: string | null = null;
  sawIso = false;
  sawDotted = false;
  sawSlashed = false;
  /** Dates read day-first only provisionally so far (they may yet be swapped). */
  provisionalReads = 0;

  constructor(undecided: 'dd/mm/yyyy' | 'mm/dd/yyyy' = 'dd/mm/yyyy') {
    this.undecided = undecided;
  }

  /**
   * A detector that reads as this one learnt over a whole file: a preview's shown rows are then
   * read as the import stores them, not as their own first dates would decide.
   */
  learnt(): DateOrderDetector {
    const reader = new DateOrderDetector(this.order ?? this.undecided);
    reader.order = this.order;
    reader.firstEvidenceRow = this.firstEvidenceRow;
    return reader;
  }

  /** The date of `text` under what is known so far, or a reason it cannot be one. */
  read(text: string, row: number): ReadDate | string {
    // Most files write one way: the slashed form is tried first once it has been seen.
    const split = this.sawSlashed || this.sawDotted ? splitDate(text) : null;
    const iso = split ? null : readIsoDate(text);
    if (iso) {
      this.sawIso = true;
      return iso;
    }
    return this.#readSplit(text, row, split ?? splitDate(text));
  }

  #readSplit(text: string, row: number, split: SplitDate | null): ReadDate | string {
    if (!split) return isoDateProblem(text) ?? 'Expected a date (YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY; a two-digit year YY is read as 20YY, or 19YY from 70).';
    if (split.separator === '.') {
      this.sawDotted = true;
      return orderSplit(split, 'dd.mm.yyyy') ?? notACalendarDay(text, split.year, split.second, split.first);
    }
    this.sawSlashed = true;
    // Which orders give a real date; only the one read becomes an object (this runs once per line).
    const dayFirst = isCalendarDay(split.year, split.second, split.first);
    const monthFirst = isCalendarDay(split.year, split.first, split.second);
    if (!dayFirst && !monthFirst) return `${text} is not a real date.`;
    if (dayFirst && monthFirst) {
      if (!this.order && this.firstAmbiguousRow === null) {
        this.firstAmbiguousRow = row;
        this.firstAmbiguousText = text;
      }
      if (!this.order) this.provisionalReads += 1;
      return readInOrder(split, (this.order ?? this.undecided) === 'mm/dd/yyyy');
    }
    const says = dayFirst ? 'dd/mm/yyyy' : 'mm/dd/yyyy';
    if (!this.order) {
      this.order = says;
      this.firstEvidenceRow = row;
    } else if (this.order !== says) {
      return `${text} is written ${says} but earlier dates of the file are ${this.order} (row ${this.firstEvidenceRow}); choose the date format in the mapping.`;
    }
    return readInOrder(split, monthFirst);
  }

  /** Dates were read in the undecided order, and the file is written the other way: those readings need day and month swapped. */
  get needsSwap(): boolean {
    return this.order !== null && this.order !== this.undecided && this.provisionalReads > 0;
  }

  /** Why the file's dates cannot be read without a format chosen in the mapping, or null. */
  get ambiguity(): { row: number; message: string } | null {
    if (this.order || this.firstAmbiguousRow === null || this.firstAmbiguousText === null) return null;
    return {
      row: this.firstAmbiguousRow,
      message: `dates like ${this.firstAmbiguousText} could be day-first (dd/mm/yyyy) or month-first (mm/dd/yyyy): every day in the file is 12 or less. Choose the date format in the mapping.`,
    };
  }

  /** The formats every date read so far fits. */
  get candidates(): DateFormat[] {
    const found: DateFormat[] = [];
    if (this.sawIso) found.push('iso');
    if (this.sawSlashed) {
      if (this.order) found.push(this.order);
      else found.push('dd/mm/yyyy', 'mm/dd/yyyy');
    }
    if (this.sawDotted) found.push('dd.mm.yyyy');
    return found;
  }
}

const groupedThousands = (separator: string) => new RegExp(`^[+-]?\\d{1,3}(\\${separator}\\d{3})+(?=$|[.,])`);

const decimalCommaWritten = /^[+-]?(\d+|\d{1,3}(\.\d{3})+),\d+$/;
const commaThousandsWritten = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const decimalPointWritten = /^[+-]?\d*\.\d+$/;
const fractionWritten = /^[+-]?\d+\.\d+$/;
/** The import screen's choice of how a file writes decimals, in the words its select shows (web locale import.builder.decimalSeparator). */
export const DECIMAL_SEPARATOR_CHOICE = { label: 'Decimal separator', point: 'Point', comma: 'Comma' } as const;
// Named as the screen shows the choice, and as a mapping sent by an API or an integration writes it.
const setSeparator = (option: string) => `set ${DECIMAL_SEPARATOR_CHOICE.label} to ${option} on the import screen (the mapping's decimal_separator)`;
const SET_DECIMAL_COMMA = setSeparator(DECIMAL_SEPARATOR_CHOICE.comma);
const SET_DECIMAL_POINT = setSeparator(DECIMAL_SEPARATOR_CHOICE.point);

/**
 * Why a number the validator refused was refused, when the way it is written tells: a fraction in a
 * column of whole numbers (`2,5` quantity sold: no separator setting helps), a decimal comma
 * (`3,20`, `1.234,50`) in a mapping that does not read one, or thousands separated by commas that
 * nothing else in the figure tells from a decimal comma (`1,234`, read as thousands only with a
 * decimal part, `1,234.50`, or the decimal point chosen). `1,234` could be either, and says both;
 * so does `2.450` in a whole-number column of a file not read with a decimal comma (a fraction, or
 * thousands grouped with points).
 */
export function numberWritingHint(raw: unknown, decimalComma: boolean, wholeNumber = false): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  // Read with a decimal comma, `1,500` is one and a half: no thousands advice applies.
  if (wholeNumber && decimalComma && decimalCommaWritten.test(text)) {
    const read = text.replace(/(,\d*?)0+$/, '$1').replace(/,$/, '');
    return `Expected a whole number, not ${read}${read === text ? '' : ` (${text} read with the decimal comma)`}: this column counts whole units.`;
  }
  // German tills and scales write quantities with three decimals: `1,000` is one unit there.
  const zeroDecimals = wholeNumber && !decimalComma ? /^([+-]?\d+),0+$/.exec(text) : null;
  if (wholeNumber && !zeroDecimals && !commaThousandsWritten.test(text) && !pointThousandsOnly.test(text) && (decimalCommaWritten.test(text) || fractionWritten.test(text))) return `Expected a whole number, not ${text}: this column counts whole units.`;
  // A German till's 2.450 is two thousand four hundred fifty: the file groups thousands with points.
  if (wholeNumber && !decimalComma && pointThousandsOnly.test(text)) {
    return `Expected a whole number, not ${text}: this column counts whole units; or, if it means ${text.replaceAll('.', '')}, the file groups thousands with points: ${SET_DECIMAL_COMMA}.`;
  }
  const reasons: string[] = [];
  if (!decimalComma && !wholeNumber && decimalCommaWritten.test(text)) reasons.push(`it is written with a decimal comma: ${SET_DECIMAL_COMMA}`);
  if (zeroDecimals) reasons.push(`if it means ${Number(zeroDecimals[1])}, the file writes a decimal comma: ${SET_DECIMAL_COMMA}`);
  if (commaThousandsWritten.test(text)) reasons.push('it has commas between thousands: save the column without thousands separators');
  if (withoutCurrencySign(text)) reasons.push('it has a currency sign: save the column as plain numbers, without the sign');
  return reasons.length ? `Expected a ${wholeNumber ? 'whole ' : ''}number, not ${text}: ${reasons.join('; or ')}.` : null;
}

const pointThousandsOnly = /^[+-]?\d{1,3}(\.\d{3})+$/;

/**
 * How a file's numbers are written, from the texts of its decimal columns: `,` when some carry a
 * decimal comma (`1,25`, `1.234,50`) and none a decimal point, `.` the other way round (`1.25`,
 * `1,234.50`), null when none tells — whole numbers, `1,234` and `1.234` read either way — or both
 * are seen. Numbers a JSON or .xlsx file stores as numbers tell nothing.
 */
export function detectDecimalSeparator(values: Iterable<unknown>): ',' | '.' | null {
  let comma = false;
  let point = false;
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (decimalCommaWritten.test(text) && !commaThousandsWritten.test(text)) comma = true;
    else if ((decimalPointWritten.test(text) && (!pointThousandsOnly.test(text) || /^[+-]?0\./.test(text))) || (commaThousandsWritten.test(text) && text.includes('.'))) point = true;
    if (comma && point) return null;
  }
  return comma ? ',' : point ? '.' : null;
}

/**
 * A number written with a decimal comma (`1.234,50`, `12,5`, `-3`) as the validator's `1234.50`;
 * text that is not such a number comes back as it was (and the validator words the error).
 */
export function fromDecimalComma(text: string): string {
  const trimmed = text.trim();
  let whole = trimmed;
  const grouped = groupedThousands('.').exec(trimmed) ?? groupedThousands(' ').exec(trimmed) ?? groupedThousands('\u00a0').exec(trimmed);
  if (grouped) whole = grouped[0].replace(/[.\s\u00a0]/g, '') + trimmed.slice(grouped[0].length);
  return /^[+-]?\d*(,\d+)?$/.test(whole) && /\d/.test(whole) ? whole.replace(',', '.') : text;
}

const commaThousandsWithDecimals = /^[+-]?\d{1,3}(,\d{3})+\.\d+$/;

/**
 * A number written with a decimal point and commas between thousands, as US tills, QuickBooks and
 * Excel's Currency format write money (`1,299.00`, `1,234,567.89`), as the validator's `1299.00`.
 * The comma groups are thousands only where the writing says so: a decimal part after them, or
 * the mapping's decimal separator set to a point (`pointChosen`). `1,234` alone could be a decimal
 * comma's one and a quarter: it stays as written (refused, the hint says both readings).
 */
export function fromCommaThousands(text: string, pointChosen: boolean): string {
  if (!text.includes(',')) return text;
  const trimmed = text.trim();
  return commaThousandsWithDecimals.test(trimmed) || (pointChosen && commaThousandsWritten.test(trimmed)) ? trimmed.replaceAll(',', '') : text;
}

/**
 * A whole number a till writes with a decimal point and one or two zeros (`2.00`, `-1.00`, `3.0`, as
 * UK tills export quantities) as that number; `2.000` stays as written: a German till's two thousand.
 */
export const wholeFromDecimalPoint = (text: string): string => text.replace(/^\s*([+-]?\d+)\.0{1,2}\s*$/, '$1');

/** fromDecimalComma for a whole-number column: a till's `1,000` and `-1,000` are 1 and -1 (a fraction stays one, and is refused). */
export const wholeFromDecimalComma = (text: string): string => fromDecimalComma(text).replace(/^([+-]?\d+)\.0+$/, '$1');

// One thousand's point and nothing else (`2.450`): one to three digits not starting with 0 before
// it (`0.250` is a fraction however the file writes thousands; `1.234.567` is no fraction at all).
const pointGroupOnly = /^[+-]?[1-9]\d{0,2}\.\d{3}$/;

/**
 * Why a figure of a decimal column with 3 or more places cannot be read without the file's decimal
 * separator: `2.450` is 2.45 in a file of decimal points and 2450 in a German till's file that
 * groups thousands with points (ADR 0145's amendment of 2026-12-03, kept for quantities by weight,
 * ADR 0176). Null for any other figure.
 */
export function pointGroupsProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!pointGroupOnly.test(trimmed)) return null;
  const fraction = String(Number(trimmed));
  return `${trimmed} could be ${fraction} or ${trimmed.replaceAll('.', '')}: if it means ${trimmed.replaceAll('.', '')}, the file groups thousands with points: ${SET_DECIMAL_COMMA}; if it means ${fraction}, the file writes decimal points: ${SET_DECIMAL_POINT}.`;
}

/** The places after the decimal point of a plain decimal text (`0.12345`: 5), or 0 when it is none. */
export const decimalPlacesWritten = (text: string): number => /^\s*[+-]?\d*\.(\d+)\s*$/.exec(text)?.[1]?.length ?? 0;

/**
 * A number a spreadsheet or a JSON file stores (not text) as the column's decimal it shows: Excel's
 * `=0.1+0.2` is 0.30000000000000004 and shows 0.3. A number further from every such decimal than a
 * double's rounding stays as it is (and is refused for its places).
 */
export function asStoredDecimal(value: number, places: number): number {
  const scale = 10 ** places;
  const rounded = Math.round(value * scale) / scale;
  return Math.abs(rounded - value) <= Math.abs(value) * 1e-12 ? rounded : value;
}
