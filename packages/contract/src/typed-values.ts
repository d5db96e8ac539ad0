// What people type into number and date boxes, read the same by the web app and the server: a
// number as a shop writes it (ADR 0145), and a filter of a number or date column as spreadsheet
// and NocoDB users write one — `<10`, `>=5`, `=7`, `10-50`, `10..50`, `-10--2`, `>=2026-11-01`,
// `2026-11`, `2026-11-01..2026-11-30`, and a date in the viewer's order, day first as most shops
// write it, `30.11.2026`, `30/11/2026`, or month first as a US shop does, `11/30/2026`; a month
// `11.2026` (docs/api.md "Filtering", ADR 0167).
import { daysInMonth, isCalendarDay, whyNotACalendarDay } from './calendar.ts';
import { DEFAULT_DATE_ORDER, type DateOrder } from './date-order.ts';
import type { ColumnFilter, FieldType } from './tables.ts';

/**
 * A number as a shop types it, as the API reads it: a decimal comma ("2,40", "1.234,50") or
 * thousands commas ("1,234.50") become a plain decimal ("2.40", "1234.50"). Anything else is given
 * back as typed (without spaces), for the caller to refuse. ADR 0145.
 */
export function typedNumber(text: string): string {
  const compact = text.replace(/[\s\u00a0\u202f']/g, '');
  if (/^[-+]?\d+,\d+$/.test(compact)) return compact.replace(',', '.');
  if (/^[-+]?\d{1,3}(\.\d{3})+,\d+$/.test(compact)) return compact.replaceAll('.', '').replace(',', '.');
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(compact)) return compact.replaceAll(',', '');
  return compact;
}

const MONEY_SIGN = /^([-+]?)(?:[$£€]|USD|EUR|GBP)\s*(?=[-+]?[\d.,])|(?<=[\d.,])\s*(?:[$£€]|USD|EUR|GBP)$/i;

/**
 * An amount of money as a shop pastes it, as the API reads it: one currency sign before or after
 * the figure taken off (`$24.99`, `-$5.00`, `24,99 €`, `USD 1,299.00`), as the import reads a money
 * column (ADR 0145), then typedNumber. What is not a figure with a sign is typedNumber's answer.
 */
export function typedMoney(text: string): string {
  return typedNumber(text.trim().replace(MONEY_SIGN, '$1'));
}

/** How a column's filter text is read: as a whole number, any number or a date; null for columns whose text is matched as text. */
export type TypedFilterKind = 'wholeNumber' | 'number' | 'date';

export function typedFilterKind(type: FieldType): TypedFilterKind | null {
  switch (type) {
    case 'IntegerField':
    case 'AutoField':
      return 'wholeNumber';
    case 'DecimalField':
      return 'number';
    case 'DateField':
      return 'date';
    default:
      return null;
  }
}

/** Why a filter text cannot be read: what the column expects, or (`noSuchDay`) the date typed is no day of the calendar, and why (`February 2026 has 28 days`). */
export type TypedFilterProblem = { problem: TypedFilterKind } | { problem: 'noSuchDay'; day: string; why: string };
export type TypedFilter = { filter: ColumnFilter } | TypedFilterProblem;

/** The day patterns a date order reads, as its messages name them. */
const DAYS_WRITTEN: Record<DateOrder, { days: string; month: string; range: string }> = {
  'day-first': { days: 'DD.MM.YYYY, DD/MM/YYYY or YYYY-MM-DD', month: 'MM.YYYY or YYYY-MM', range: '01.11.2026..30.11.2026' },
  'month-first': { days: 'MM/DD/YYYY or YYYY-MM-DD', month: 'MM/YYYY or YYYY-MM', range: '11/01/2026..11/30/2026' },
};

/** The server's words for a filter text it cannot read, read in `order` (the web app says the same in its own texts). */
export function typedFilterProblemText(problem: TypedFilterProblem, order: DateOrder = DEFAULT_DATE_ORDER): string {
  switch (problem.problem) {
    case 'wholeNumber':
      return 'Type a whole number, or <, <=, >, >= and one, or a range like 10-50.';
    case 'number':
      return 'Type a number, or <, <=, >, >= and one, or a range like 10-50.';
    case 'date':
      return `Type a date as ${DAYS_WRITTEN[order].days}, or a month as ${DAYS_WRITTEN[order].month}, or <, <=, >, >= and one, or a range like ${DAYS_WRITTEN[order].range}.`;
    case 'noSuchDay':
      return `${problem.day} is not a real date: ${problem.why}.`;
  }
}

type Operator = '=' | '<' | '<=' | '>' | '>=';
/** A value read from the text: a number, or a date's first and last day (the same day, or a month's). */
type Bounds<V> = { from: V; to: V };

const OPERATOR = /^(>=|=>|≥|<=|=<|≤|<>|!=|==|=|<|>)\s*/;
const OPERATORS: Record<string, Operator | null> = { '>=': '>=', '=>': '>=', '≥': '>=', '<=': '<=', '=<': '<=', '≤': '<=', '<': '<', '>': '>', '=': '=', '==': '=', '<>': null, '!=': null };
const NUMBER = String.raw`[-+]?\d+(?:[.,']\d+)*`;
const NUMBER_RANGE = new RegExp(String.raw`^(${NUMBER})\s*(?:\.\.|[-–—])\s*(${NUMBER})$`);
const OPEN_NUMBER_RANGE = new RegExp(String.raw`^(${NUMBER})?\s*\.\.\s*(${NUMBER})?$`);
// ISO (year first), or in the viewer's order (day or month first) with dots, slashes or (a whole day,
// as Dutch tills write it) dashes; a month alone either way.
const DATE = String.raw`(?:\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}\.\d{1,2}\.\d{4}|\d{1,2}/\d{1,2}/\d{4}|\d{1,2}-\d{1,2}-\d{4}|\d{1,2}[./]\d{4})`;
const DATE_ALONE = new RegExp(String.raw`^${DATE}$`);
const DATE_RANGE = new RegExp(String.raw`^(${DATE})?\s*(?:\.\.|[-–—])\s*(${DATE})?$`);
const PLAIN_DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const INT4_MAX = 2_147_483_647;

/** A filter from two values (either may be open): from the first one's start to the last one's end, whichever way round they were typed. */
function range<V extends number | string>(first: Bounds<V> | undefined, last: Bounds<V> | undefined): ColumnFilter {
  if (first && last && last.from < first.from) [first, last] = [last, first];
  return { ...(first ? { gte: first.from } : {}), ...(last ? { lte: last.to } : {}) };
}

function compared<V extends number | string>(operator: Operator, value: Bounds<V>): ColumnFilter {
  switch (operator) {
    case '<':
      return { lt: value.from };
    case '<=':
      return { lte: value.to };
    case '>':
      return { gt: value.to };
    case '>=':
      return { gte: value.from };
    case '=':
      return value.from === value.to ? { equals: value.from } : { gte: value.from, lte: value.to };
  }
}

/** Reads one typed value, or says why it is none. */
type ValueReader<V> = (text: string) => Bounds<V> | TypedFilterProblem;

function numberReader(kind: 'wholeNumber' | 'number'): ValueReader<number> {
  return (text) => {
    const plain = typedNumber(text);
    const value = PLAIN_DECIMAL.test(plain) ? Number(plain) : Number.NaN;
    const fits = kind === 'number' ? Number.isFinite(value) : Number.isInteger(value) && Math.abs(value) <= INT4_MAX;
    return fits ? { from: value, to: value } : { problem: kind };
  };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

const dateReader =
  (order: DateOrder): ValueReader<string> =>
  (text) => {
    if (!DATE_ALONE.test(text)) return { problem: 'date' };
    const iso = /^\d{4}-/.test(text);
    // In the viewer's order: day, month, year or month, day, year (a month alone: month, year); ISO: year, month, day (or year, month).
    const parts = text.split(/[-./]/).map(Number);
    const [first = 0, second = 0, third = 0] = parts;
    const [year = 0, month = 0, day] = iso ? parts : parts.length === 2 ? [second, first] : order === 'day-first' ? [third, second, first] : [third, first, second];
    const monthStart = `${year}-${twoDigits(month)}`;
    if (day === undefined) return daysInMonth(year, month) ? { from: `${monthStart}-01`, to: `${monthStart}-${daysInMonth(year, month)}` } : { problem: 'date' };
    if (isCalendarDay(year, month, day)) return { from: `${monthStart}-${twoDigits(day)}`, to: `${monthStart}-${twoDigits(day)}` };
    // 11/30/2026 read day first (or 30/11/2026 month first) was most likely typed in the other order: say which order is read.
    const why = !iso && month > 12 && day <= 12 ? `dates are read as ${wrongWayRound(text, order, year, month, day)}, and a year has 12 months` : whyNotACalendarDay(year, month, day);
    return { problem: 'noSuchDay', day: text, why };
  };

/** The order expected, with the separator typed, and the day typed the other way round written in it: `MM/DD/YYYY (04/13/2026)`. */
function wrongWayRound(text: string, order: DateOrder, year: number, month: number, day: number): string {
  const separator = /[./-]/.exec(text)?.[0] ?? '.';
  const [pattern, meant] = order === 'day-first' ? [['DD', 'MM', 'YYYY'], [month, day]] : [['MM', 'DD', 'YYYY'], [day, month]];
  return `${pattern.join(separator)} (${[...meant.map(twoDigits), year].join(separator)})`;
}

const isProblem = (read: unknown): read is TypedFilterProblem => typeof read === 'object' && read !== null && 'problem' in read;

function readWith<V extends number | string>(text: string, kind: TypedFilterKind, read: ValueReader<V>, ranges: RegExp[]): TypedFilter {
  const operator = OPERATOR.exec(text);
  if (operator) {
    const meaning = OPERATORS[operator[1] as string];
    const value = read(text.slice(operator[0].length).trim());
    if (meaning === null || meaning === undefined) return { problem: kind };
    return isProblem(value) ? value : { filter: compared(meaning, value) };
  }
  for (const pattern of ranges) {
    const match = pattern.exec(text);
    if (!match || (match[1] === undefined && match[2] === undefined)) continue;
    const from = match[1] === undefined ? undefined : read(match[1]);
    const to = match[2] === undefined ? undefined : read(match[2]);
    if (isProblem(from)) return from;
    if (isProblem(to)) return to;
    return { filter: range(from, to) };
  }
  const value = read(text);
  return isProblem(value) ? value : { filter: compared('=', value) };
}

/**
 * A day typed into a date field in the viewer's `order`: day first (`24.12.2026`, `24/12/2026`),
 * month first (`12/24/2026`) or ISO (`2026-12-24`) in either; the day as YYYY-MM-DD, or why it is
 * none — `noSuchDay` in the validator's words (`31.02.2026 is not a real date: February 2026 has
 * 28 days.` with typedFilterProblemText), `date` for text that is no date (a month alone is none either).
 */
export function readTypedDay(text: string, order: DateOrder = DEFAULT_DATE_ORDER): { day: string } | TypedFilterProblem {
  const read = dateReader(order)(text.trim());
  if (isProblem(read)) return read;
  return read.from === read.to ? { day: read.from } : { problem: 'date' };
}

/**
 * A number or date column's filter typed as text, as a filter of docs/api.md (`<10` → `{lt: 10}`,
 * `10-50` → `{gte: 10, lte: 50}`, `2026-11` → the month's first to last day), or why it cannot be
 * read; dates in the viewer's `order`. `text` is not blank (a blank filter is no filter).
 */
export function readTypedFilter(kind: TypedFilterKind, text: string, order: DateOrder = DEFAULT_DATE_ORDER): TypedFilter {
  const trimmed = text.trim();
  if (kind === 'date') return readWith(trimmed, kind, dateReader(order), [DATE_RANGE]);
  return readWith(trimmed, kind, numberReader(kind), [NUMBER_RANGE, OPEN_NUMBER_RANGE]);
}
