// Where mapped records go and how each value is read: the entity's table and key, which ForeignKey
// targets are fed with the related table's business key (a product code, never taken as an id),
// what the database allows in each column (nullable, default, a `>= 0` rule), and the typer that
// turns one mapped record into the values staged for the write (import/writer.ts).
import { sql, type Kysely } from 'kysely';
import {
  codeOfRowLabel,
  DEFAULT_DECIMAL_PLACES,
  type ColumnDefinition,
  type DateFormat,
  type EntityMapping,
  type FieldType,
  inReadingUnit,
  isQuantityColumn,
  measureOf,
  type ProductConfig,
  productUnit,
  type ReadingUnit,
  type RepeatedKeyMode,
  splitQuantityUnit,
  valueMapForm,
  valueMapTargets,
} from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { validationError } from '../http/errors.ts';
import { compileRowParser, DEFAULT_MAX_DIGITS, expectedValue, isReadOnly, isTextual, quickCheck, UNDECIDED, withIdColumn, withValueFound, type RowValues } from '../tables/columns.ts';
import { isBelowMinimum, minimumProblem, readColumnRules, type ColumnMinimum } from '../tables/column-minimums.ts';
import { datedColumn } from '../tables/dated-columns.ts';
import { UnreadableCell } from './source.ts';
import { fillDownSpec } from './fill-down.ts';
import type { MapperReading } from './mapping.ts';
import { isTotalsWord } from './totals-line.ts';
import { defaultValueOf, findCatalogueEntry } from '../tables/repo.ts';
import { checkValueMaps, compileValueMaps } from './value-maps.ts';
import { checkNewProducts, compileNewProductReader, newProductSource, type NewProductColumns } from './new-products.ts';
import { readCodeByName, type CodeByName } from './code-by-name.ts';
import { readFieldValues, type FixedValues } from './field-values.ts';
import { CurrencySigns } from './currency.ts';
import { UnitsAsWritten, UnitsFirstWritten } from './quantity-units.ts';
import { codesWithLeadingZeros, withLeadingZeros } from './leading-zeros.ts';
import { storedUnit, UNIT_COLUMN } from './pieces-unit.ts';
import {
  asStoredDecimal,
  type DateOrderDetector,
  decimalPlacesWritten,
  fromCommaThousands,
  fromDecimalComma,
  fromJsDate,
  isoDateProblem,
  isoDateTime,
  isoDay,
  numberWritingHint,
  pointGroupsProblem,
  readDate,
  readExcelSerial,
  type ReadDate,
  wholeFromDecimalComma,
  wholeFromDecimalPoint,
} from './values.ts';

/** A ForeignKey target: fed with the related table's key column (`by: 'key'`), or with ids when the mapping says so. */
export type KeyReference = {
  column: string;
  by: 'key' | 'id';
  table: string;
  encodedName: string;
  /** The column looked up: the business key, or `id`. */
  keyColumn: string;
  keyMaxLength: number;
  /** Required text columns of the related table, filled with the code when a missing row is created. */
  requiredTextColumns: string[];
  /** A required column of the related table that a created row could not fill, if any. */
  unfillableColumn: string | null;
  /** The related table's columns (what a mapping's new_products may fill). */
  columns: ColumnDefinition[];
};

export type WriteTarget = {
  entityType: string;
  tableName: string;
  encodedName: string;
  keyColumns: string[];
  repeatedKeys: RepeatedKeyMode;
  columns: ColumnDefinition[];
  /** The writable columns the mapping fills (from the file, or with its field_values), in the table's order. */
  mapped: string[];
  /** The mapping's field_values, typed: what every record holds in those columns. */
  fixed: FixedValues;
  typeOf(column: string): FieldType;
  references: Map<string, KeyReference>;
  /** Columns whose values are added up when rows share a key (mode sum): the mapped numeric non-key columns. */
  summed: string[];
  /** Columns that must not be negative (a `>= 0` or `> 0` rule of the table), with the rule. */
  minimums: Map<string, ColumnMinimum>;
  /** Columns whose blank cell means "keep the default / stored value" (NOT NULL with a default). */
  blankIsAbsent: Set<string>;
  /** Columns a blank cell cannot leave empty (NOT NULL without a default, or required). */
  blankIsMissing: Set<string>;
  /** Columns of blankIsAbsent whose default is a plain value (lead time 14, unit cost 0), as the database writes it: a new row without one gets it. */
  defaults: Map<string, string>;
  /** The file's columns new products take their fields from (the mapping's new_products), or null. */
  newProducts: NewProductColumns | null;
  /**
   * The mapping fills the one-column text key and other columns but not every column a new row
   * needs (a stock take's code and count, no name): it only updates stored rows, and a code no row
   * has is refused by row (ADR 0011's amendment of 2026-12-03).
   */
  updateOnly: boolean;
  /** What quantity cells written with a unit ("0.25 kg") are read against (ADR 0178), or null when the mapping fills no product's quantity. */
  quantityUnits: QuantityUnits | null;
  /** How a line without a product code gets one by its name (the mapping's blank_code_by_name, ADR 0195 F4), or null. */
  codeByName: CodeByName | null;
};

/**
 * A target's quantities of products (sales, counts, deliveries, a products file's stock): which
 * columns, the record field naming the row's product, the field or value giving the row its own
 * unit (a products file's Unit; a sales file's new_products unit, for the products it creates),
 * and the stored units of the products that have one, by their code.
 */
export type QuantityUnits = {
  columns: Set<string>;
  codeField: string;
  rowUnit: { field: string; column: string } | { fixed: string | null } | null;
  /** Whether the row's own unit is the product's (a products file) or only for a product the row creates. */
  rowUnitIsOwn: boolean;
  /** The stored units by the product's code as stored (trimmed). */
  stored: Map<string, string>;
  /** The same by the code in lower case, for codes no other product's differs from only in case: the writer's own rule for a code written in another case. */
  storedIgnoringCase: Map<string, string>;
  /** The products with a unit whose codes start with zeros, by their digits after them: a written `123` is 00123 once the writer restores its zeros (withLeadingZeros). */
  storedByDigits: Map<string, { code: string; unit: string }>;
};

const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);

/** Where a row's code is looked up: a reference's related table, or an update-only target's own table (ownKeyLookup). */
export type CodeLookup = Pick<KeyReference, 'by' | 'table' | 'encodedName' | 'keyColumn'>;

/**
 * What a code no row has may mean: the stored codes differing from it only in case and punctuation,
 * or (create_missing_products) the new code of an earlier row of the same file that does.
 */
export type MeantCode = readonly string[] | { code: string; row: number } | null;

/** The import screen's option that creates products for unknown codes, in the words of its label (web locale import.builder.createMissing). */
export const CREATE_PRODUCTS_OPTION = 'Create products for unknown codes';

/** The way out of a file's unknown product code, where the import screen's option is at hand. */
export const fileImportWayOut = `Tick '${CREATE_PRODUCTS_OPTION}' to create it, or add it on the Data screen.`;

/** The way out of an unknown product code an endpoint sent: a run reads its saved mapping, whose option is set in Data integration. */
export const savedMappingWayOut = (mappingName: string | null) =>
  `Save the mapping${mappingName ? ` '${mappingName}'` : ''} with '${CREATE_PRODUCTS_OPTION}' ticked (Settings → Data integration) to create it, or add it on the Data screen.`;

const TOTALS_LINE_WAY_OUT = "It looks like a totals line, not a product: delete the line from the file, or leave it out with the mapping's 'Leave out lines where'.";

/**
 * A row's code that no related row has, in words (import and preview alike): "product code GAR 1018
 * does not exist: did you mean GAR-1018?", "… did you mean GAR-1018 or GAR.1018?", "product code
 * abc 1 does not exist: did you mean ABC-1, new in row 3?". A code nothing resembles ends with
 * `wayOut` (fileImportWayOut, savedMappingWayOut), where creating the product is what fixes it.
 */
export function unknownCodeReason(reference: CodeLookup, code: string, meant: MeantCode, wayOut: string | null = null): string {
  const what = reference.by === 'key' ? `${reference.table === 'products' ? 'product' : reference.table} ${reference.keyColumn.replaceAll('_', ' ')}` : `${reference.table} id`;
  const codes = meant && 'row' in meant ? `${meant.code}, new in row ${meant.row}` : meant?.length ? `${meant.slice(0, -1).join(', ')}${meant.length > 1 ? ' or ' : ''}${meant.at(-1)}` : null;
  // Creating a product called "Summe" would not fix a till's totals line.
  const advice = isTotalsWord(code) ? TOTALS_LINE_WAY_OUT : wayOut;
  return `${what.replace(/^product product /, 'product ')} ${code} does not exist${codes ? `: did you mean ${codes}?` : `.${advice ? ` ${advice}` : ''}`}`;
}

// Excel shows a number of more than 11 digits in scientific notation, and saves a CSV as it shows
// it: a barcode opened and saved there comes back as `5.01235E+12` (or `5,01235E+12`), its last digits gone.
const excelScientific = /^\d([.,]\d+)?E\+\d{1,2}$/i;

/**
 * Why a code cell holds no code any more, in a shop's words, when Excel saved it in scientific
 * notation (ADR 0011's amendment of 2026-12-04, Excel's barcodes): never looked up, never created. `column`: the file's.
 */
export function excelDamagedCode(code: string, column: string | undefined): string | null {
  if (!excelScientific.test(code)) return null;
  const named = column ? `column ${column}` : 'the code column';
  return `${code} is not a code any more: Excel turned the codes of ${named} into numbers and saved this one shortened, its last digits lost, so it cannot be matched to a product or created as one. Format ${named} as Text in Excel before saving (or import the CSV exported straight from the till).`;
}

/** Whether create_missing_products would create what a reference's unknown code names: a product by its code. */
export const createsForUnknownCodes = (reference: KeyReference) => reference.by === 'key' && reference.table === 'products';

/** The shipped entities' ForeignKeys are fed with product codes; any related table with a one-column entity key works the same. */
function businessKeyOf(config: ProductConfig, relatedTable: string): string | null {
  const entity = config.inventory.entities.find((e) => e.table === relatedTable && e.key.length === 1);
  return entity?.key[0] ?? null;
}

/**
 * The target of `entityType` for `mapping`. `complete: false` (the preview) accepts a mapping that
 * does not fill the key or the required columns yet. `today`: the shop's day, which a field value
 * `today` means (field-values.ts; UTC's day when not given: a request gives its own or the shop's, http/viewer-day.ts).
 */
export async function resolveWriteTarget(db: Kysely<Database>, config: ProductConfig, entityType: string, mapping: EntityMapping, options: { complete?: boolean; today?: string } = {}): Promise<WriteTarget> {
  const complete = options.complete ?? true;
  const entity = config.inventory.entities.find((e) => e.name === entityType);
  if (!entity) throw validationError(`No mapping found for entity type: ${entityType}`);
  const table = await findCatalogueEntry(db, entity.table);
  if (!table) throw invalid(`table '${entity.table}' of entity '${entity.name}' does not exist.`);
  const known = new Set(['id', ...table.columns.map((c) => c.key)]);
  const unknownTarget = Object.keys(mapping.field_mappings).find((field) => !known.has(field));
  if (unknownTarget) throw invalid(`mapping target '${unknownTarget}' is not a column of '${table.name}'.`);
  checkValueMaps(table.columns, mapping);
  const fixed = readFieldValues(table.columns, table.encoded_name, mapping, options.today ?? new Date().toISOString().slice(0, 10));
  const fills = (column: string) => column in mapping.field_mappings || fixed.has(column);
  const missingKey = entity.key.find((key) => !fills(key));
  if (missingKey && complete) throw invalid(`the mapping does not fill the key column '${missingKey}'.`);
  const types = new Map(withIdColumn(table.columns).map((c) => [c.key, c.type]));
  const typeOf = (column: string) => types.get(column) ?? 'TextField';
  const mapped = table.columns.filter((c) => fills(c.key) && !isReadOnly(c.type)).map((c) => c.key);

  const references = new Map<string, KeyReference>();
  for (const column of table.columns) {
    if (column.type !== 'ForeignKey' || !column.related_table) continue;
    const related = await findCatalogueEntry(db, column.related_table);
    if (!related) throw invalid(`'${column.key}' refers to a table that does not exist: '${column.related_table}'.`);
    const byId = mapping.references?.[column.key] === 'id';
    const keyColumn = byId ? null : businessKeyOf(config, column.related_table);
    const keyDefinition = related.columns.find((c) => c.key === keyColumn);
    if (!byId && (!keyColumn || !keyDefinition) && mapping.references?.[column.key] === 'key') {
      throw invalid(`'${column.related_table}' has no one-column entity key to look '${column.key}' up by.`);
    }
    const others = related.columns.filter((c) => c.key !== keyColumn && c.required && !isReadOnly(c.type));
    if (!keyColumn || !keyDefinition) {
      references.set(column.key, { column: column.key, by: 'id', table: related.name, encodedName: related.encoded_name, keyColumn: 'id', keyMaxLength: 0, requiredTextColumns: [], unfillableColumn: null, columns: related.columns });
      continue;
    }
    references.set(column.key, {
      column: column.key,
      by: 'key',
      table: related.name,
      encodedName: related.encoded_name,
      keyColumn,
      keyMaxLength: keyDefinition.type === 'CharField' ? (keyDefinition.max_length ?? 255) : 1_000_000,
      requiredTextColumns: others.filter((c) => isTextual(c.type)).map((c) => c.key),
      unfillableColumn: others.find((c) => !isTextual(c.type))?.key ?? null,
      columns: related.columns,
    });
  }
  const newProducts = checkNewProducts(mapping, [...references.values()].filter((r) => r.by === 'key' && r.column in mapping.field_mappings));
  const codeByName = await readCodeByName(db, mapping, { table: table.encoded_name, key: entity.key }, [...references.values()]);
  const quantityUnits = await readQuantityUnits(db, table, entity.key, references, mapping, mapped.filter((column) => !fixed.has(column)), fixed);

  const { facts, minimums } = await readColumnRules(db, table.encoded_name);
  const factOf = new Map(facts.map((f) => [f.column_name, f]));
  const blankIsAbsent = new Set<string>();
  const blankIsMissing = new Set<string>();
  const defaults = new Map<string, string>();
  for (const column of table.columns) {
    const fact = factOf.get(column.key);
    if (column.required || (fact && !fact.nullable && !fact.has_default)) blankIsMissing.add(column.key);
    else if (fact && !fact.nullable) {
      blankIsAbsent.add(column.key);
      const value = defaultValueOf(fact.default_expression);
      if (value !== null && !entity.key.includes(column.key)) defaults.set(column.key, value);
    }
  }
  const unfilled = table.columns.find((c) => !isReadOnly(c.type) && blankIsMissing.has(c.key) && !fills(c.key));
  // A stock take maps the code and the count, not the name: it updates the stored products only.
  const [onlyKey, ...moreKeys] = entity.key;
  const updateOnly = Boolean(unfilled) && !missingKey && !moreKeys.length && onlyKey !== undefined && isTextual(typeOf(onlyKey)) && mapped.some((c) => !entity.key.includes(c));
  if (unfilled && complete && !updateOnly) throw invalid(`the mapping does not fill the required column '${unfilled.key}'.`);
  const repeatedKeys = mapping.repeated_keys ?? entity.repeated_keys ?? 'last';
  return {
    entityType,
    tableName: table.name,
    encodedName: table.encoded_name,
    keyColumns: entity.key,
    repeatedKeys,
    columns: table.columns,
    mapped,
    fixed,
    typeOf,
    references,
    summed: mapped.filter((c) => !entity.key.includes(c) && (typeOf(c) === 'IntegerField' || typeOf(c) === 'DecimalField')),
    minimums,
    blankIsAbsent,
    blankIsMissing,
    defaults,
    newProducts,
    updateOnly,
    quantityUnits,
    codeByName,
  };
}

/** A catalogue entry as resolveWriteTarget reads it. */
type CatalogueTable = NonNullable<Awaited<ReturnType<typeof findCatalogueEntry>>>;

/**
 * The target's QuantityUnits: only for a products file that maps its code, or a file of rows that
 * name a product by code, with a quantity column read from the file. The stored units are read once
 * per import (products with a unit only: a shop of pieces reads none).
 */
async function readQuantityUnits(db: Kysely<Database>, table: CatalogueTable, key: string[], references: Map<string, KeyReference>, mapping: EntityMapping, read: string[], fixed: FixedValues): Promise<QuantityUnits | null> {
  const columns = new Set(table.columns.filter((c) => read.includes(c.key) && isQuantityColumn(c)).map((c) => c.key));
  if (!columns.size) return null;
  const ownCode = table.encoded_name === 'products' && key.length === 1 ? key[0] : undefined;
  const reference = ownCode ? undefined : [...references.values()].find((r) => r.by === 'key' && r.encodedName === 'products' && r.column in mapping.field_mappings);
  const codeField = ownCode && ownCode in mapping.field_mappings ? ownCode : reference?.column;
  const products = ownCode ? table.columns : reference?.columns;
  if (!codeField || !products) return null;
  const codeColumn = ownCode ?? (reference as KeyReference).keyColumn;
  const stored = new Map<string, string>();
  const storedIgnoringCase = new Map<string, string>();
  const storedByDigits = new Map<string, { code: string; unit: string }>();
  if (products.some((c) => c.key === 'unit')) {
    const code = sql.ref(`p.${codeColumn}`);
    // A code of digits the writer would restore its zeros to (not when the digits alone are a stored code).
    // Case twins are counted over every product, with a unit or not: `ABC` without one and `abc` in kg make `Abc` no one's.
    const rows = await sql<{ code: string; stored: string; unit: string; digits: string | null; case_twins: number }>`
      select btrim(${code}::text) as code, ${code}::text as stored, btrim(p.unit) as unit, z.digits, p.case_twins
      from (select *, count(*) over (partition by lower(btrim(${sql.ref(codeColumn)}::text)))::int as case_twins from data.products) p
      left join (${codesWithLeadingZeros(sql`data.products`, sql.ref(codeColumn))}) z on z.code = ${code}::text and not exists (select 1 from data.products r where ${sql.ref(`r.${codeColumn}`)}::text = z.digits)
      where btrim(p.unit) <> ''`.execute(db);
    for (const row of rows.rows) {
      stored.set(row.code, row.unit);
      if (row.case_twins === 1) storedIgnoringCase.set(row.code.toLowerCase(), row.unit);
      if (row.digits !== null) storedByDigits.set(row.digits, { code: row.stored, unit: row.unit });
    }
  }
  const newProductUnit = mapping.new_products?.['unit'];
  const rowUnit = ownCode
    ? fixed.has('unit')
      ? { fixed: productUnit(String(fixed.get('unit') ?? '')) }
      : 'unit' in mapping.field_mappings
        ? { field: 'unit', column: mapping.field_mappings['unit'] as string }
        : null
    : newProductUnit
      ? { field: newProductSource('unit'), column: newProductUnit }
      : null;
  return { columns, codeField, rowUnit, rowUnitIsOwn: Boolean(ownCode), stored, storedIgnoringCase, storedByDigits };
}

/**
 * One record's values as staged (key codes as text, dates as ISO), which mapped columns it fills,
 * its problems by field, and the values it holds outside a column's choices (trimmed, by field);
 * `readDates`: a date refused for its range (a sale dated 2126) as it was read (ISO), for a preview to show it so.
 */
export type TypedRecord = { values: RowValues; present: string[]; errors: Record<string, string[]> | null; provisional: string[] | null; refusedChoices: Record<string, string> | null; readDates?: Record<string, string> };

/** The target's key when it is one text column (products' `product_code`): a code, read trimmed and matched ignoring case as references are. */
export function ownTextKey(target: WriteTarget): string | null {
  const [key, ...more] = target.keyColumns;
  return key && !more.length && isTextual(target.typeOf(key)) ? key : null;
}

/** Where an update-only target looks its rows' codes up (its own table), or null for a target that may add rows. */
export function ownKeyLookup(target: WriteTarget): CodeLookup | null {
  const key = ownTextKey(target);
  return target.updateOnly && key ? { by: 'key', table: target.tableName, encodedName: target.encodedName, keyColumn: key } : null;
}

export const isBlank = (raw: unknown) => raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');

/**
 * With `skip_rows_without_code`, whether a record is a line to leave out: its product code blank —
 * the product reference of sales, counts and deliveries, the key of the products table itself.
 */
export function blankCodeSkipper(target: WriteTarget, mapping: EntityMapping): ((fields: Record<string, unknown>) => boolean) | null {
  if (!mapping.skip_rows_without_code) return null;
  const code = mappedCodeColumn(target, mapping);
  return code ? (fields) => isBlank(fields[code]) : null;
}

/**
 * How many of `lines` (each its fields by the mapping) leave the product code blank while others
 * fill it — a web shop's gift-wrap or shipping lines beside its products: what
 * skip_rows_without_code is for. 0 when none does, or none fills it (the code is mapped wrong).
 */
export function blankCodeLines(target: WriteTarget, mapping: EntityMapping, lines: readonly Record<string, unknown>[]): number {
  const code = mappedCodeColumn(target, mapping);
  if (!code) return 0;
  const blank = lines.filter((fields) => isBlank(fields[code])).length;
  return blank < lines.length ? blank : 0;
}

/** The product code column of a target: the product reference of sales, counts and deliveries, the key of the products table itself. */
export const codeColumnOf = (target: WriteTarget): string | null =>
  target.keyColumns.find((column) => target.references.get(column)?.by === 'key') ?? (target.tableName === 'products' ? 'product_code' : null);

/**
 * How the mappers read the mapping's records for this target: blank cells filled down (never its
 * keys), its product code from the brackets and the name a product created from the line takes
 * without them (a products file's own name, another entity's new_products.name), and the values
 * its joined names leave out (joined_leave_out).
 */
export function mapperReading(target: WriteTarget, mapping: Pick<EntityMapping, 'fill_down_by' | 'code_in_brackets' | 'joined_leave_out'>): MapperReading {
  const code = mapping.code_in_brackets ? codeColumnOf(target) : null;
  // joined_leave_out is keyed as joined_columns, and so are the joined paths (sourcePaths): `name`, `new_products.name`.
  return { fill: fillDownSpec(mapping, target.keyColumns), bracketed: code === null ? null : { code, names: [target.tableName === 'products' ? 'name' : newProductSource('name')] }, leftOut: mapping.joined_leave_out };
}

/** The product code column a mapping fills. */
function mappedCodeColumn(target: WriteTarget, mapping: EntityMapping): string | null {
  const code = codeColumnOf(target);
  return code && code in mapping.field_mappings ? code : null;
}

/**
 * A till's totals line is never a sale: answers the word it shows, or null. Either a totals word
 * (`Total`, `Summe`) in any mapped cell, often the date column, and the product code blank; or the
 * word in the code column (a US POS export's `,,,,Subtotal,,,"$123,456.78",`) with another cell a
 * row needs (its date, its quantity) blank. A line whose code reads as the word and is otherwise
 * whole is left to the code checks (a stored product may have that code).
 */
export function totalsLineReader(target: WriteTarget, mapping: EntityMapping): ((fields: Record<string, unknown>) => string | null) | null {
  const code = mappedCodeColumn(target, mapping);
  if (!code) return null;
  const needed = target.mapped.filter((column) => column !== code && !target.fixed.has(column) && (target.keyColumns.includes(column) || target.blankIsMissing.has(column)));
  return (fields) => {
    const written = fields[code];
    if (!isBlank(written)) return typeof written === 'string' && isTotalsWord(written) && needed.some((column) => isBlank(fields[column])) ? written.trim() : null;
    for (const value of Object.values(fields)) if (typeof value === 'string' && isTotalsWord(value)) return value.trim();
    return null;
  };
}

/** " 2 lines without a product code were skipped." as an import's (and an integration run's) message says it; none: empty. */
export const skippedMessage = (skipped: number): string => (skipped ? ` ${skipped} line${skipped === 1 ? '' : 's'} without a product code ${skipped === 1 ? 'was' : 'were'} skipped.` : '');

/** " 11 lines with nothing to import were skipped." (every mapped column blank, ADR 0195 F5); none: empty. */
export const emptySkippedMessage = (lines: number): string => (lines ? ` ${lines} line${lines === 1 ? '' : 's'} with nothing to import ${lines === 1 ? 'was' : 'were'} skipped.` : '');

/** Product-days whose sales got a writer's total added to other parts (ADR 0164): how many, the other writers in words, and whether a Data-screen change was among them. */
export type AddedTo = { keys: number; sources: string[]; edited: boolean };

/**
 * Sales a file or run added to other writers' parts of the same product-days (ADR 0164), said with
 * whose they are: adding up is right for a till and a web shop, wrong for one shop's sales sent
 * twice. Its own earlier totals a writer replaces without a word. None: empty.
 */
export function addedToMessage(addedTo: AddedTo | undefined): string {
  if (!addedTo) return '';
  const others = [...addedTo.sources, ...(addedTo.edited ? ['changes typed on the Data screen'] : [])];
  const named = others.length < 2 ? (others[0] ?? '') : `${others.slice(0, -1).join(', ')} and ${others.at(-1)}`;
  return ` Added to the sales other sources stored for ${addedTo.keys} of those product-days (${named}).`;
}

/**
 * " 2 product codes had lost their leading zero …" as an import's (and an integration run's) message
 * says it, naming the first few as written and as matched; none: empty.
 */
export function restoredCodesMessage({ codes, shown }: { codes: number; shown: { written: string; code: string }[] }): string {
  if (!codes) return '';
  const pairs = shown.map(({ written, code }) => `${written} as ${code}`);
  const more = codes - shown.length;
  return ` ${codes} product code${codes === 1 ? ' had' : 's had'} lost ${codes === 1 ? 'its' : 'their'} leading zero (Excel drops it when it reads a code as a number) and ${codes === 1 ? 'was' : 'were'} matched to the product${codes === 1 ? '' : 's'} with it: ${pairs.join(', ')}${more ? ` and ${more} more` : ''}.`;
}

/** The totals lines create_missing_products left out (takeOutTotalsLines): how many, and the words their codes were. */
export type TotalsSkipped = { lines: number; codes: string[] };

/** " 1 totals line (Summe) was skipped." as an import's (and an integration run's) message says it; none: empty. */
export const totalsSkippedMessage = ({ lines, codes }: TotalsSkipped): string =>
  lines ? ` ${lines} totals line${lines === 1 ? '' : 's'} (${codes.join(', ')}) ${lines === 1 ? 'was' : 'were'} skipped.` : '';
const hasNul = (text: string) => text.includes('\u0000');
const EXCEL_SERIAL_EXPECTED = 'Expected a date (a number here is read as an Excel date serial).';

/**
 * What typing keeps over a whole source, beyond one record: a file, or every batch of an integration
 * run (each defaults to fresh, for one file).
 */
export type SourceReading = {
  /** The currency each money column was first written in: a cell of another is refused. */
  currencies?: CurrencySigns;
  /** Counts the quantities of products without a unit read in the unit their cells wrote. */
  unitsAsWritten?: UnitsAsWritten;
  /** The unit first written for each product without a unit: its later cells are read in it. */
  unitsFirstWritten?: UnitsFirstWritten;
  /** A record's line as a refusal names it in a sentence: "row 3" (default), a run's "page 1, record 3". */
  lineInWords?: (row: number) => string;
};

/**
 * Compiles the reading of mapped records for `target`: blank cells (null, default or "required"),
 * dates in the mapping's format or detected across the file (`detector`), Excel serials and
 * dates, decimal commas, a money column's currency sign (one currency per column across the file,
 * or a run's batches: `source.currencies`), product codes kept as text for the lookup, the mapping's value
 * maps, and the table's row rules (types, lengths, choices, `>= 0`). A quantity written with its unit
 * is read in its product's unit; those of products without one in the first unit the source wrote
 * for them, and counted in `source.unitsAsWritten`.
 */
export function compileRecordTyper(target: WriteTarget, mapping: EntityMapping, detector: DateOrderDetector, source: SourceReading = {}) {
  const currencies = source.currencies ?? new CurrencySigns();
  const format: DateFormat = mapping.date_format ?? 'auto';
  const decimalComma = mapping.decimal_separator === ',';
  // Only a point chosen, not the point read for want of a choice, makes `1,234` a thousand.
  const pointChosen = mapping.decimal_separator === '.';
  const byKey = (column: string) => target.references.get(column)?.by === 'key';
  const isDate = (column: string) => target.typeOf(column) === 'DateField' || target.typeOf(column) === 'DateTimeField';
  const checked = target.columns.filter((c) => target.mapped.includes(c.key) && !byKey(c.key) && !isDate(c.key));
  const parseRow = compileRowParser(checked);
  // Key and required fields a record must have (a JSON record without one is refused, not staged with a hole).
  const needed = target.mapped.filter((c) => target.keyColumns.includes(c) || target.blankIsMissing.has(c));
  const checkedKeys = new Set(checked.map((c) => c.key));
  const valueMaps = compileValueMaps(mapping);
  const newProductReference = target.newProducts ? target.references.get(target.newProducts.reference) : undefined;
  const readNewProducts = target.newProducts && newProductReference ? compileNewProductReader(target.newProducts, newProductReference.columns) : null;
  const errorOrder = [...target.mapped, ...(target.newProducts?.fields.map((f) => f.source) ?? [])];
  const ownKey = ownTextKey(target);
  const readers = target.mapped.filter((column) => !target.fixed.has(column)).map((column) => {
    const definition = target.columns.find((c) => c.key === column);
    return {
      column,
      type: target.typeOf(column),
      reference: byKey(column) ? target.references.get(column) : undefined,
      minimum: target.minimums.get(column),
      quick: definition && checkedKeys.has(column) ? quickCheck(definition) : null,
      valueMap: valueMaps.get(column),
      // A currency sign is read off money only: `£3` in a quantity is a mistake of the file, not a count.
      money: definition?.money === true,
      places: definition?.type === 'DecimalField' ? (definition.decimal_places ?? DEFAULT_DECIMAL_PLACES) : 0,
      measured: target.quantityUnits?.columns.has(column) === true,
    };
  });
  const readInUnit = target.quantityUnits ? compileQuantityUnitReader(target, target.quantityUnits, source) : null;

  // A value outside a column's choices (a German till's "geplant"), or neither yes nor no (an Odoo
  // product list's own kind word in not_stocked): the mapping can say what it means, and a column
  // with a default can be left unmapped.
  type ChoiceColumn = { label: string; choices: readonly string[]; yesNo: boolean; default: string | undefined };
  const choiceColumns = new Map<string, ChoiceColumn>(
    checked.flatMap((c) => {
      const choices = valueMapTargets(c);
      return choices ? [[c.key, { label: c.label ?? c.key, choices, yesNo: !c.choices, default: target.defaults.get(c.key) }] as const] : [];
    }),
  );
  const wayOutOfChoices = (choice: ChoiceColumn, value: string) => {
    const meaning = `say in the mapping what ${value} means (${value} → ${choice.yesNo ? 'true or false' : 'one of those values'})`;
    return choice.default === undefined
      ? `Change the values in the file, or ${meaning}.`
      : `Change the values in the file, ${meaning}, or leave ${choice.label} unmapped: every row then gets ${choice.default} (the default).`;
  };
  const dateRule = datedColumn(target.encodedName);
  const dateRuleProblem = dateRule?.checker(new Date());
  const readDateValue = (raw: unknown, row: number): ReadDate | string => {
    if (raw instanceof Date) return fromJsDate(raw) ?? 'Expected a date.';
    if (typeof raw === 'number') return readExcelSerial(raw) ?? withValueFound(EXCEL_SERIAL_EXPECTED, raw);
    if (typeof raw !== 'string') return withValueFound('Expected a date.', raw);
    const text = raw.trim();
    if (/^\d+(\.\d+)?$/.test(text)) return readExcelSerial(Number(text)) ?? withValueFound(EXCEL_SERIAL_EXPECTED, raw);
    if (format === 'auto') return detector.read(text, row);
    return readDate(text, format) ?? isoDateProblem(text) ?? `${text} is not a date written ${format === 'iso' ? 'YYYY-MM-DD' : format.toUpperCase()} (the mapping's date format).`;
  };


  // Runs once per line of a file: the usual value is read by its column's quick check without the
  // row parser's objects; only what that leaves undecided (or refuses) goes through parseRow.
  const fixedValues = Object.fromEntries(target.fixed);
  const fixedColumns = [...target.fixed.keys()];
  // A line whose cells are the column names again (two files pasted into one): said as such, not as
  // "Expected a whole number." for its quantity's name.
  const sourceNames = readers.map(({ column }) => [column, mapping.field_mappings[column]] as const);
  const repeatsHeader = (fields: Record<string, unknown>) =>
    sourceNames.length > 1 && sourceNames.every(([column, name]) => typeof fields[column] === 'string' && (fields[column] as string).trim() === name);
  const keyColumn = target.keyColumns[0] ?? sourceNames[0]?.[0];
  const readsUnit = target.encodedName === 'products' && (target.mapped.includes(UNIT_COLUMN) || target.fixed.has(UNIT_COLUMN));
  return (fields: Record<string, unknown>, row: number): TypedRecord => {
    if (keyColumn && repeatsHeader(fields)) {
      return { values: {}, present: [], errors: { [keyColumn]: ['This line repeats the column names (a header line inside the file, as where two files were pasted into one): delete it from the file.'] }, provisional: null, refusedChoices: null };
    }
    const values: RowValues = fixedColumns.length ? { ...fixedValues } : {};
    const present: string[] = fixedColumns.length ? [...fixedColumns] : [];
    let undecided: Record<string, unknown> | null = null;
    // The cells of `undecided` as the file wrote them (before a decimal comma was read), for the hint.
    let writtenAs: Record<string, unknown> | null = null;
    let errors: Record<string, string[]> | null = null;
    // Date columns read day-first only for now (the file's order undecided): they may be swapped later.
    let provisional: string[] | null = null;
    let refusedChoices: Record<string, string> | null = null;
    let readDates: Record<string, string> | null = null;
    // Quantity cells written with a unit (`0.25 kg`): the word and the cell, read once the row's number and product are.
    let cellUnits: Record<string, { word: string; text: string }> | null = null;
    for (const { column, type, reference, minimum, quick, valueMap, money, places, measured } of readers) {
      let raw = fields[column];
      if (raw === undefined) continue;
      let written = raw;
      if (typeof raw === 'string' && hasNul(raw)) {
        (errors ??= {})[column] = ['The value contains a NUL character.'];
        continue;
      }
      if (raw instanceof UnreadableCell) {
        (errors ??= {})[column] = [raw.reason];
        continue;
      }
      if (isBlank(raw) && !(typeof raw === 'string' && raw !== '' && isTextual(type))) {
        if (target.blankIsMissing.has(column)) (errors ??= {})[column] = ['A value is required.'];
        else if (!target.blankIsAbsent.has(column)) {
          values[column] = null;
          present.push(column);
        }
        continue;
      }
      // A web shop's numeric SKU (`"code": 12`) or an Excel cell's article number is the text it shows.
      if (typeof raw === 'number' && Number.isFinite(raw) && isTextual(type)) raw = String(raw);
      // A code's surrounding spaces are the till's, not the code's: ` GAR-1006 ` is GAR-1006.
      if (column === ownKey && typeof raw === 'string') {
        raw = raw.trim();
        const damaged = excelDamagedCode(raw as string, mapping.field_mappings[column]);
        if (damaged) {
          (errors ??= {})[column] = [damaged];
          continue;
        }
      }
      if (reference) {
        // A column of the Data screen's CSV download names a product `GS-1001 — Rosenschere Profi`: its code is the part before the dash.
        const code = raw instanceof Date ? null : codeOfRowLabel(String(raw).trim());
        const damaged = code === null || reference.by !== 'key' ? null : excelDamagedCode(code, mapping.field_mappings[column]);
        if (code === null) (errors ??= {})[column] = [`Expected a ${reference.keyColumn.replaceAll('_', ' ')}.`];
        else if (damaged) (errors ??= {})[column] = [damaged];
        else if (code.length > reference.keyMaxLength) (errors ??= {})[column] = [`A ${reference.keyColumn.replaceAll('_', ' ')} has at most ${reference.keyMaxLength} characters.`];
        else {
          values[column] = code;
          present.push(column);
        }
        continue;
      }
      if (valueMap && (typeof raw === 'string' || typeof raw === 'number')) {
        const meant = valueMap.get(valueMapForm(String(raw)));
        // A map's values are the column's choices as text; an integer column's are numbers, as a file's are read.
        if (meant !== undefined) raw = type === 'IntegerField' ? Number(meant) : meant;
      }
      if (type === 'DecimalField' && money && typeof raw === 'string') {
        const priced = currencies.read(column, raw);
        if ('refusal' in priced) {
          (errors ??= {})[column] = [priced.refusal];
          continue;
        }
        // A hint about the figure (a decimal comma) is about it without the sign that was read.
        raw = written = priced.number;
      }
      if (measured && typeof raw === 'string') {
        const split = splitQuantityUnit(raw);
        if (split) {
          (cellUnits ??= {})[column] = { word: split.word, text: raw.trim() };
          raw = written = split.number;
        }
      }
      if (type === 'DateField' || type === 'DateTimeField') {
        const before = detector.provisionalReads;
        const date = readDateValue(raw, row);
        if (detector.provisionalReads !== before) (provisional ??= []).push(column);
        if (typeof date === 'string') {
          (errors ??= {})[column] = [date];
          continue;
        }
        const day = isoDay(date);
        const outOfRange = column === dateRule?.column && dateRuleProblem ? dateRuleProblem(day) : null;
        if (outOfRange) {
          (errors ??= {})[column] = [outOfRange];
          (readDates ??= {})[column] = type === 'DateField' ? day : isoDateTime(date);
          continue;
        }
        // Read and checked here: the row validator's own date check would only repeat the work.
        values[column] = type === 'DateField' ? day : isoDateTime(date);
        present.push(column);
        continue;
      } else if (raw instanceof Date) {
        raw = raw.toISOString();
      } else if (decimalComma && typeof raw === 'string' && (type === 'DecimalField' || type === 'IntegerField')) {
        raw = type === 'IntegerField' ? wholeFromDecimalComma(raw) : fromDecimalComma(raw);
      } else if (typeof raw === 'string' && type === 'IntegerField') {
        raw = wholeFromDecimalPoint(fromCommaThousands(raw, pointChosen));
      } else if (typeof raw === 'string' && type === 'DecimalField') {
        // `2.450` fits a quantity's 3 places: 2.45 kg, or a German till's 2450 pieces; only the mapping's separator tells.
        const ambiguous = places >= 3 && !pointChosen ? pointGroupsProblem(raw) : null;
        if (ambiguous) {
          (errors ??= {})[column] = [ambiguous];
          continue;
        }
        raw = fromCommaThousands(raw, pointChosen);
      } else if (typeof raw === 'number' && type === 'DecimalField') {
        raw = asStoredDecimal(raw, places);
      }
      if (type === 'DecimalField' && typeof raw === 'string' && decimalPlacesWritten(raw) > places) {
        (errors ??= {})[column] = [`${String(written).trim()} has more than ${places} decimal place${places === 1 ? '' : 's'}: round it to ${places} in the file (the column keeps ${places}).`];
        continue;
      }
      const value = quick ? quick(raw) : UNDECIDED;
      if (value === UNDECIDED) {
        (undecided ??= {})[column] = raw;
        (writtenAs ??= {})[column] = written;
      }
      else if (isBelowMinimum(value, minimum)) (errors ??= {})[column] = [minimumProblem(minimum)];
      else {
        values[column] = value;
        present.push(column);
      }
    }
    if (undecided) {
      let parsed: RowValues = {};
      try {
        parsed = parseRow(undecided, 'update');
      } catch {
        // A refused row: each field again on its own, so the row's other values and problems are known too.
        for (const [column, raw] of Object.entries(undecided)) {
          try {
            Object.assign(parsed, parseRow({ [column]: raw }, 'update'));
          } catch (error) {
            const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
            if (!fieldErrors) throw error;
            // Only a figure refused as not a number at all: one refused for its size or places is not about its writing.
            const notANumber = fieldErrors[column]?.some((reason) => reason === withValueFound(expectedValue.DecimalField, raw) || reason === withValueFound(expectedValue.IntegerField, raw));
            const hint = notANumber ? numberWritingHint(writtenAs?.[column] ?? raw, decimalComma, target.typeOf(column) === 'IntegerField') : null;
            const refusal = fieldErrors[column];
            const text = String(raw).trim();
            const choice = choiceColumns.get(column);
            const unknownChoice = refusal && choice && !choice.choices.includes(text) ? choice : null;
            if (unknownChoice) (refusedChoices ??= {})[column] = text;
            const reasons = hint ? [hint] : refusal && unknownChoice ? refusal.map((reason) => `${reason} ${wayOutOfChoices(unknownChoice, text)}`) : null;
            errors = { ...fieldErrors, ...(reasons ? { [column]: reasons } : {}), ...(errors ?? {}) };
          }
        }
      }
      for (const { column, minimum } of readers) {
        if (!(column in parsed)) continue;
        const value = parsed[column];
        if (isBelowMinimum(value, minimum)) {
          (errors ??= {})[column] = [minimumProblem(minimum)];
          continue;
        }
        values[column] = value ?? null;
        present.push(column);
      }
    }
    if (readNewProducts) {
      const read = readNewProducts(fields);
      Object.assign(values, read.values);
      if (read.errors) errors = { ...(errors ?? {}), ...read.errors };
    }
    if (cellUnits && readInUnit) {
      for (const [column, { word, text }] of Object.entries(cellUnits)) {
        const value = values[column];
        if (typeof value !== 'number') continue;
        const read = readInUnit(fields, row, column, value, word, text);
        if (typeof read === 'number') values[column] = read;
        else {
          delete values[column];
          present.splice(present.indexOf(column), 1);
          (errors ??= {})[column] = [read];
        }
      }
    }
    if (readsUnit && UNIT_COLUMN in values) values[UNIT_COLUMN] = storedUnit(values[UNIT_COLUMN] ?? null);
    for (const column of needed) if (!(column in values) && !errors?.[column]) (errors ??= {})[column] = ['A value is required.'];
    if (!errors) return { values, present, errors: null, provisional, refusedChoices };
    // Problems in the table's column order, as the row form lists them.
    const found = errors;
    const ordered = Object.fromEntries(errorOrder.filter((c) => found[c]).map((c) => [c, found[c] as string[]]));
    return { values, present, errors: ordered, provisional, refusedChoices, ...(readDates ? { readDates } : {}) };
  };
}

/**
 * Reads a quantity written with a unit in the unit of the row's product (ADR 0178): the row's own
 * unit where a products file gives one, else the product's stored unit, else the unit the row gives
 * the product it creates; a product without any is read in the first measure unit a cell of the
 * file (or of any batch of the run) wrote for it, so `250 g` and `0.25 kg` of one product are not 250.25.
 */
function compileQuantityUnitReader(target: WriteTarget, units: QuantityUnits, source: SourceReading) {
  const { unitsAsWritten = new UnitsAsWritten(), unitsFirstWritten: firstWritten = new UnitsFirstWritten(), lineInWords = (row: number) => `row ${row}` } = source;
  const limits = new Map(target.columns.map((c) => [c.key, { places: c.decimal_places ?? DEFAULT_DECIMAL_PLACES, largest: 10 ** ((c.max_digits ?? DEFAULT_MAX_DIGITS) - (c.decimal_places ?? DEFAULT_DECIMAL_PLACES)) }]));
  const rowUnitOf = (fields: Record<string, unknown>) => {
    const { rowUnit } = units;
    if (!rowUnit) return null;
    if ('fixed' in rowUnit) return { unit: rowUnit.fixed, of: 'the unit the mapping gives every row' };
    const cell = fields[rowUnit.field];
    return cell === undefined ? null : { unit: productUnit(typeof cell === 'string' ? cell : cell === null ? null : String(cell)), of: `this row's ${rowUnit.column}` };
  };
  // The product's stored unit, under its code as written or, for a code that lost its leading zeros, the code the writer restores.
  const storedUnitOf = (code: string) => {
    const unit = units.stored.get(code) ?? units.storedIgnoringCase.get(code.toLowerCase());
    return unit ? { code, unit } : withLeadingZeros(code, units.storedByDigits);
  };
  return (fields: Record<string, unknown>, row: number, column: string, value: number, word: string, text: string): number | string => {
    const written = fields[units.codeField];
    const code = written === null || written === undefined || written instanceof Date ? '' : codeOfRowLabel(String(written).trim());
    const stored = storedUnitOf(code);
    const own = units.rowUnitIsOwn ? rowUnitOf(fields) : null;
    let reading: ReadingUnit | null = own ?? (stored ? { unit: stored.unit, of: `the unit of product ${stored.code}` } : null);
    if (!reading) {
      const created = rowUnitOf(fields);
      if (created?.unit) reading = created;
    }
    const { places, largest } = limits.get(column) ?? { places: 3, largest: Infinity };
    // A product without a unit: the first measure written for it in the source is the one its later cells are read in.
    const withoutUnit = !reading?.unit && measureOf(word) !== undefined;
    if (!reading?.unit) {
      const first = withoutUnit ? firstWritten.of(code.toLowerCase()) : undefined;
      if (!first && withoutUnit) firstWritten.note(code.toLowerCase(), word, lineInWords(row));
      reading = first ? { unit: first.unit, of: `as ${first.line} wrote product ${code}, which has no unit` } : { unit: null, of: '' };
    }
    const read = inReadingUnit(value, word, text, reading, places);
    if (typeof read === 'number' && Math.abs(read) >= largest) return `${text} is ${read} ${reading.unit}, more than the column holds.`;
    if (withoutUnit && typeof read === 'number') unitsAsWritten.note(reading.unit ?? word);
    return read;
  };
}

/**
 * The check of a mapping being saved, as its import would check it, short of a complete mapping:
 * its targets are columns of the entity's table, its new_products name fields of products (with
 * create_missing_products on and a code mapped) — a wrong target is said at the save, not at the
 * first import that uses it.
 */
export async function checkSavedMappingTargets(db: Kysely<Database>, config: ProductConfig, entityType: string, mapping: EntityMapping): Promise<void> {
  await resolveWriteTarget(db, config, entityType, mapping, { complete: false });
}
