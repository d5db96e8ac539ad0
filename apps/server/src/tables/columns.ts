// Column definitions: how each field type of spec §3 becomes a PostgreSQL column, how the API
// presents columns, and the row validator built from them.
import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { DEFAULT_DECIMAL_PLACES, isoDayProblem, isStorableText, storableText, textTooLong, type ColumnDefinition, type FieldType, type TableColumn } from '@stockwise/contract';
import { validationError } from '../http/errors.ts';
import type { SheetColumn } from '../http/xlsx.ts';

export const ID_COLUMN: ColumnDefinition = { key: 'id', label: 'ID', type: 'AutoField' };
const DEFAULT_CHAR_LENGTH = 255;
export const DEFAULT_MAX_DIGITS = 12;
const INT4_MAX = 2_147_483_647;

/** Fields with no stored column: computed at read time or held in child tables. */
export const isVirtual = (type: FieldType) => type === 'query' || type === 'nestedTable';
export const isReadOnly = (type: FieldType) => type === 'AutoField' || isVirtual(type);
export const isTextual = (type: FieldType) => type === 'CharField' || type === 'TextField' || type === 'EmailField';

export const withIdColumn = (columns: ColumnDefinition[]) => (columns.some((c) => c.key === 'id') ? columns : [ID_COLUMN, ...columns]);

const titleCase = (key: string) => key.split('_').filter(Boolean).map((word) => word[0]?.toUpperCase() + word.slice(1)).join(' ');

/** The name people see for a column: its label, else its key in words (`current_stock` → Current Stock). */
export const columnLabel = (column: Pick<ColumnDefinition, 'key' | 'label'>) => column.label ?? (column.key === 'id' ? 'ID' : titleCase(column.key));

/** Characters a text column's cells are made wide for in a download: a name or code, not a whole note. */
const USUAL_TEXT_WIDTH = 30;
const NOTE_WIDTH = 40;

/** A column as the .xlsx download writes it: numbers, days and yes/no as typed cells, text as text. */
/** `currency`: the shop's (null while unset), which a money column's cells are formatted in; other columns ignore it. */
export function sheetColumnOf(column: ColumnDefinition, currency: string | null): SheetColumn {
  const header = columnLabel(column);
  switch (column.type) {
    case 'AutoField':
    case 'IntegerField':
      return { header, kind: 'integer' };
    case 'DecimalField':
      return { header, kind: 'decimal', decimalPlaces: column.decimal_places ?? DEFAULT_DECIMAL_PLACES, ...(column.money && currency ? { currency } : {}) };
    case 'DateField':
      return { header, kind: 'date' };
    case 'DateTimeField':
      return { header, kind: 'instant' };
    case 'BooleanField':
      return { header, kind: 'boolean' };
    case 'CharField':
      return { header, kind: 'text', textWidth: Math.min(column.max_length ?? DEFAULT_CHAR_LENGTH, USUAL_TEXT_WIDTH) };
    case 'EmailField':
    case 'ForeignKey':
      return { header, kind: 'text', textWidth: USUAL_TEXT_WIDTH };
    case 'TextField':
      return { header, kind: 'text', textWidth: NOTE_WIDTH };
    case 'query':
    case 'nestedTable':
      return { header, kind: 'general' };
  }
}

export function presentColumns(columns: ColumnDefinition[], encodedNameOf: (tableName: string) => string | undefined, defaults: ReadonlyMap<string, string> = new Map()): TableColumn[] {
  return withIdColumn(columns).map((column) => {
    const related = column.type === 'ForeignKey' && column.related_table ? encodedNameOf(column.related_table) : undefined;
    return {
      ...column,
      label: columnLabel(column),
      read_only: isReadOnly(column.type),
      ...(column.key === 'id' ? { min_width: column.min_width ?? 80, max_width: column.max_width ?? 120 } : {}),
      ...(related && column.related_table ? { foreign_key: { table: column.related_table, encodedName: related, column: 'id' as const } } : {}),
      ...(column.choices && defaults.has(column.key) ? { default_value: defaults.get(column.key) } : {}),
    };
  });
}

export type ColumnCheckContext = { tableExists(name: string): boolean; queryExists(name: string): boolean };

/** Problems with a set of column definitions, as one message, or null. */
export function checkColumnDefinitions(columns: ColumnDefinition[], context: ColumnCheckContext): string | null {
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.key)) return `Column '${column.key}' is defined twice.`;
    seen.add(column.key);
    if (column.key === 'id' && column.type !== 'AutoField') return "The 'id' column must be an AutoField.";
    if (column.type === 'AutoField' && column.key !== 'id') return 'Only the id column can be an AutoField.';
    if (column.type === 'ForeignKey' && (!column.related_table || !context.tableExists(column.related_table))) {
      return `Column '${column.key}' refers to a table that does not exist: '${column.related_table ?? ''}'.`;
    }
    if (column.type === 'query' && (!column.query_name || !context.queryExists(column.query_name))) {
      return `Column '${column.key}' uses a query that does not exist: '${column.query_name ?? ''}'.`;
    }
    if (column.type === 'DecimalField' && (column.decimal_places ?? DEFAULT_DECIMAL_PLACES) > (column.max_digits ?? DEFAULT_MAX_DIGITS)) {
      return `Column '${column.key}' has more decimal places than digits.`;
    }
    if (column.money && column.type !== 'DecimalField') {
      return `Column '${column.key}': only a decimal column can be money.`;
    }
    if (column.choices && !['CharField', 'TextField', 'IntegerField'].includes(column.type)) {
      return `Column '${column.key}': choices are only allowed on text and integer columns.`;
    }
    if (column.type === 'IntegerField' && column.choices?.some((choice) => !isIntegerText(choice))) {
      return `Column '${column.key}': the choices of an integer column must be whole numbers (between ${-INT4_MAX} and ${INT4_MAX}).`;
    }
  }
  return null;
}

function columnType(column: ColumnDefinition): RawBuilder<unknown> {
  switch (column.type) {
    case 'CharField':
      return sql`varchar(${sql.lit(column.max_length ?? DEFAULT_CHAR_LENGTH)})`;
    case 'EmailField':
      return sql`varchar(254)`;
    case 'IntegerField':
      return sql`integer`;
    case 'DecimalField':
      return sql`numeric(${sql.lit(column.max_digits ?? DEFAULT_MAX_DIGITS)}, ${sql.lit(column.decimal_places ?? DEFAULT_DECIMAL_PLACES)})`;
    case 'TextField':
      return sql`text`;
    case 'DateField':
      return sql`date`;
    case 'DateTimeField':
      return sql`timestamptz`;
    case 'BooleanField':
      return sql`boolean`;
    case 'ForeignKey':
    case 'AutoField':
      return sql`bigint`;
    case 'query':
    case 'nestedTable':
      throw new Error(`${column.type} has no stored column`);
  }
}

/** The column clause of CREATE TABLE, or null for virtual fields. `relatedEncoded` resolves FK targets. */
export function columnDdl(column: ColumnDefinition, relatedEncoded: (tableName: string) => string): RawBuilder<unknown> | null {
  if (isVirtual(column.type)) return null;
  const name = sql.id(column.key);
  if (column.type === 'AutoField') return sql`${name} bigint generated by default as identity primary key`;
  const parts: RawBuilder<unknown>[] = [sql`${name} ${columnType(column)}`];
  if (column.required) parts.push(sql`not null`);
  if (column.unique) parts.push(sql`unique`);
  if (column.type === 'ForeignKey' && column.related_table) {
    parts.push(sql`references ${sql.id('data', relatedEncoded(column.related_table))} (id) on delete restrict`);
  }
  if (column.choices) {
    const allowed = column.type === 'IntegerField' ? column.choices.map((c) => sql.lit(Number(c))) : column.choices.map((c) => sql.lit(c));
    parts.push(sql`check (${name} in (${sql.join(allowed)}))`);
  }
  return sql.join(parts, sql` `);
}

const integerText = /^[+-]?\d+$/;
const isIntegerText = (value: string) => integerText.test(value) && Math.abs(Number(value)) <= INT4_MAX;
// Exponents too, as a spreadsheet writes large or small numbers (1.5E+03); out of range, the range is said.
const decimalText = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const isRealDate = (value: string) => isoDayProblem(value) === null;

const fitsDecimal = (maxDigits: number, places: number) => (v: number) => {
  const [whole = '', fraction = ''] = Math.abs(v).toString().split('.');
  return !Math.abs(v).toString().includes('e') && fraction.length <= places && whole.replace(/^0+/, '').length <= maxDigits - places;
};

const integerRange = (column: ColumnDefinition) => (column.type === 'ForeignKey' ? { min: 1, max: Number.MAX_SAFE_INTEGER } : { min: -INT4_MAX, max: INT4_MAX });

/**
 * The largest magnitude a number column stores, as exact text and in words: a whole number's
 * 2,147,483,647, a decimal's nines (`9999999999.99` for 12 digits, 2 after the point). What lines
 * added up (an import's sum mode) must stay within.
 */
export function largestStored(column: ColumnDefinition): { text: string; words: string } {
  if (column.type !== 'DecimalField') return { text: String(INT4_MAX), words: INT4_MAX.toLocaleString('en-US') };
  const places = column.decimal_places ?? DEFAULT_DECIMAL_PLACES;
  const whole = '9'.repeat((column.max_digits ?? DEFAULT_MAX_DIGITS) - places) || '0';
  const fraction = places ? `.${'9'.repeat(places)}` : '';
  return { text: `${whole}${fraction}`, words: `${BigInt(whole).toLocaleString('en-US')}${fraction}` };
}

const tooLong = (max: number) => ({ error: (issue: { input?: unknown }) => textTooLong(max, String(issue.input ?? '').length) });

/** Any number, written as one or as numeric text; a decimal column's digits are checked on top (valueSchema). */
export const decimalNumber = () =>
  z.union([z.number().finite('Expected a number.'), z.string().trim().regex(decimalText, 'Expected a number.').transform(Number)]).pipe(z.number().finite('Expected a number.'));

/** A value outside a column's choices, named with the values allowed: "geplant is not one of the allowed values: scheduled, received, cancelled." */
export const notAChoice = (value: unknown, choices: readonly string[]) => `${String(value)} is not one of the allowed values: ${choices.join(', ')}.`;

/**
 * A yes-or-no value as a file or a form writes it (ADR 0194): true/false, yes/no, 1/0 (text in any
 * case, around spaces, or the numbers and booleans a spreadsheet's cell holds); undefined for anything else.
 */
export function booleanValue(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw !== 'string') return undefined;
  const word = raw.trim().toLowerCase();
  return word === 'true' || word === 'yes' || word === '1' ? true : word === 'false' || word === 'no' || word === '0' ? false : undefined;
}

export function valueSchema(column: ColumnDefinition): z.ZodType<string | number | boolean> {
  switch (column.type) {
    case 'CharField':
    case 'TextField': {
      const max = column.type === 'CharField' ? (column.max_length ?? DEFAULT_CHAR_LENGTH) : 1_000_000;
      const text = storableText().max(max, tooLong(max));
      return column.choices ? text.refine((v) => column.choices?.includes(v), { error: (issue) => notAChoice(issue.input, column.choices ?? []) }) : text;
    }
    case 'EmailField':
      return z.email('Enter a valid email address.').max(254, tooLong(254));
    case 'IntegerField':
    case 'ForeignKey': {
      const { min, max } = integerRange(column);
      const range = `Expected a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`;
      const integer = z
        .union([z.number(), z.string().trim().regex(integerText, 'Expected a whole number.').transform(Number)])
        .pipe(z.number().int('Expected a whole number.').min(min, range).max(max, range));
      return column.choices ? integer.refine((v) => column.choices?.includes(String(v)), { error: (issue) => notAChoice(issue.input, column.choices ?? []) }) : integer;
    }
    case 'DecimalField': {
      const maxDigits = column.max_digits ?? DEFAULT_MAX_DIGITS;
      const places = column.decimal_places ?? DEFAULT_DECIMAL_PLACES;
      const largest = largestStored(column).words;
      return decimalNumber().refine(fitsDecimal(maxDigits, places), `Expected a number from -${largest} to ${largest}, with at most ${places} decimal places.`);
    }
    case 'DateField':
      // The day named when it does not exist: `2026-02-30` is written as asked, but is no day.
      return z.string().check((context) => {
        const problem = isoDayProblem(context.value);
        if (problem) context.issues.push({ code: 'custom', message: problem, input: context.value });
      });
    case 'DateTimeField':
      return z.iso.datetime({ offset: true, message: 'Expected a date and time (ISO 8601).' });
    case 'BooleanField':
      return z.unknown().check((context) => {
        if (booleanValue(context.value) === undefined) context.issues.push({ code: 'custom', message: expectedValue.BooleanField, input: context.value });
      }).transform((v) => booleanValue(v) as boolean);
    case 'AutoField':
    case 'query':
    case 'nestedTable':
      return z.never();
  }
}

export type RowValues = Record<string, string | number | boolean | null>;

/** What a column's quick check answers when it cannot tell: the column's schema then decides. */
export const UNDECIDED = Symbol('undecided');
type QuickCheck = (raw: unknown) => string | number | boolean | typeof UNDECIDED;

/**
 * The value valueSchema(column) would parse `raw` to, for the usual inputs (a plain number, date
 * or short text), found without zod: an import checks millions of values, and zod's general
 * machinery was most of its CPU time. Anything else, valid or not, is UNDECIDED and left to the
 * schema, which also words the errors.
 */
export function quickCheck(column: ColumnDefinition): QuickCheck {
  switch (column.type) {
    case 'CharField':
    case 'TextField': {
      const max = column.type === 'CharField' ? (column.max_length ?? DEFAULT_CHAR_LENGTH) : 1_000_000;
      const { choices } = column;
      return (raw) => (typeof raw === 'string' && raw.length <= max && (!choices || choices.includes(raw)) && isStorableText(raw) ? raw : UNDECIDED);
    }
    case 'IntegerField':
    case 'ForeignKey': {
      const { min, max } = integerRange(column);
      const { choices } = column;
      return (raw) => {
        const value = typeof raw === 'string' && integerText.test(raw) ? Number(raw) : raw;
        return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max && (!choices || choices.includes(String(value))) ? value : UNDECIDED;
      };
    }
    case 'DecimalField': {
      const maxDigits = column.max_digits ?? DEFAULT_MAX_DIGITS;
      const places = column.decimal_places ?? DEFAULT_DECIMAL_PLACES;
      const fits = fitsDecimal(maxDigits, places);
      // Text with at most 15 digits converts to a number exactly, and with at most 6 decimals prints
      // without an exponent, so text within the column's digits passes `fits` unchecked.
      const plain =
        maxDigits <= 15 && places <= 6 && maxDigits > places ? new RegExp(`^[+-]?\\d{1,${maxDigits - places}}${places ? `(\\.\\d{1,${places}})?` : ''}$`) : null;
      return (raw) => {
        if (typeof raw === 'string' && plain?.test(raw)) return Number(raw);
        const value = typeof raw === 'string' && decimalText.test(raw) ? Number(raw) : raw;
        return typeof value === 'number' && Number.isFinite(value) && fits(value) ? value : UNDECIDED;
      };
    }
    case 'DateField':
      return (raw) => (typeof raw === 'string' && isRealDate(raw) ? raw : UNDECIDED);
    case 'BooleanField':
      return (raw) => booleanValue(raw) ?? UNDECIDED;
    default:
      return () => UNDECIDED;
  }
}

/** The reason a value of the wrong type is refused with, per field type. */
export const expectedValue: Record<FieldType, string> = {
  CharField: 'Expected text.',
  EmailField: 'Enter a valid email address.',
  IntegerField: 'Expected a whole number.',
  DecimalField: 'Expected a number.',
  TextField: 'Expected text.',
  DateField: 'Expected a date as YYYY-MM-DD.',
  DateTimeField: 'Expected a date and time (ISO 8601).',
  BooleanField: 'Expected true or false (yes or no, 1 or 0).',
  ForeignKey: 'Expected the id of a row (a whole number).',
  AutoField: 'This field is read-only.',
  query: 'This field is read-only.',
  nestedTable: 'This field is read-only.',
};

/** Characters of a refused value a reason quotes: enough to find it in the file, not a whole note. */
const QUOTED_VALUE_LENGTH = 40;

/** A value sent as JSON, as written; one nested too deep to write back (a hostile body) by what it is. */
function jsonText(raw: unknown): string {
  try {
    return JSON.stringify(raw) ?? String(raw);
  } catch {
    return Array.isArray(raw) ? 'a list' : 'a group of values';
  }
}

/** A refused value as a reason shows it: text quoted and cut to about 40 characters ("twee"), a number or true/false as it is. */
export function quotedValue(raw: unknown): string {
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  const text = typeof raw === 'string' ? raw : jsonText(raw);
  const characters = Array.from(text.slice(0, 2 * QUOTED_VALUE_LENGTH));
  const cut = characters.length > QUOTED_VALUE_LENGTH ? `${characters.slice(0, QUOTED_VALUE_LENGTH - 1).join('')}…` : text;
  return typeof raw === 'string' ? `"${cut}"` : cut;
}

/** A reason that does not show the value refused, with it: 'Expected a whole number, found "twee".' */
export const withValueFound = (reason: string, raw: unknown) => `${reason.replace(/\.$/, '')}, found ${quotedValue(raw)}.`;

/** The reasons of expectedValue that say what was wanted, not what the value was: a file's row names it too. */
const saysNotTheValue = new Set(Object.values(expectedValue).filter((reason) => reason !== expectedValue.AutoField));

export type RowParser = (input: Record<string, unknown>, mode: 'create' | 'update') => RowValues;

/**
 * Compiles the check of a row payload against the table's columns (once per table, not per row).
 * Read-only fields are ignored (forms send them back), unknown fields are refused, and on create
 * required fields must be present.
 */
export function compileRowParser(columns: ColumnDefinition[]): RowParser {
  const writable = new Map(columns.filter((c) => !isReadOnly(c.type)).map((c) => [c.key, { column: c, quick: quickCheck(c), schema: valueSchema(c) }]));
  const readOnly = new Set(withIdColumn(columns).filter((c) => isReadOnly(c.type)).map((c) => c.key));
  const required = [...writable.values()].filter(({ column }) => column.required).map(({ column }) => column.key);
  return (input, mode) => {
    let errors: Record<string, string[]> | null = null;
    const values: RowValues = {};
    for (const key of Object.keys(input)) {
      if (readOnly.has(key)) continue;
      const field = writable.get(key);
      if (!field) {
        (errors ??= {})[key] = [`Unknown column '${key}'.`];
        continue;
      }
      const { column, quick, schema } = field;
      const raw = input[key];
      // A blank required text is as missing as no value (a form's empty box, a CSV's empty cell).
      const empty = raw === null || raw === undefined || (raw === '' && (!isTextual(column.type) || column.required === true));
      if (empty) {
        if (column.required) (errors ??= {})[key] = ['This field is required.'];
        else values[key] = null;
        continue;
      }
      const quickValue = quick(raw);
      if (quickValue !== UNDECIDED) {
        values[key] = quickValue;
        continue;
      }
      const parsed = schema.safeParse(raw);
      if (parsed.success) values[key] = parsed.data;
      else
        (errors ??= {})[key] = parsed.error.issues.map((issue) => {
          const reason = issue.code === 'invalid_type' || issue.code === 'invalid_union' ? expectedValue[column.type] : issue.message;
          return saysNotTheValue.has(reason) ? withValueFound(reason, raw) : reason;
        });
    }
    if (mode === 'create') {
      for (const key of required) if (!(key in values) && !errors?.[key]) (errors ??= {})[key] = ['This field is required.'];
    }
    if (errors) {
      const found = errors;
      // In sentences, by the names people see (the form shows each on its field too): "Current stock: Expected a whole number."
      const summary = Object.keys(found)
        .map((field) => {
          const column = writable.get(field)?.column;
          return column ? `${columnLabel(column)}: ${(found[field] as string[]).join(' ')}` : (found[field] as string[]).join(' ');
        })
        .join(' ');
      throw validationError(summary, found);
    }
    return values;
  };
}

export const parseRowValues = (columns: ColumnDefinition[], input: Record<string, unknown>, mode: 'create' | 'update') => compileRowParser(columns)(input, mode);
