// The one records writer of imports and integrations (DESIGN.md: mapping → typed rows → lookups by
// business key → per-entity handling of repeated keys → upsert). It takes mapped source records for
// an entity, types each one (import/target.ts), COPYs them in ~2 MB pieces into a staging table
// while the next piece is typed, and then, in the caller's transaction: refuses unknown codes
// (or creates the products; for an update-only target, its own codes no stored row has), refuses
// repeated keys when the entity says so, and writes the rows (summed or the last of each key) with
// one INSERT or upsert (an UPDATE for an update-only target). A file import writes nothing when any
// row is refused (the caller rolls back); an integration's batch sets the refused records aside and
// writes the others (setAsideRefused, ADR 0060's amendment).
// Signature and use: docs/architecture.md "Records writer".
import type { EntityMapping, ImportCounts, NewProduct, RefusedChoices, RepeatedKeyMode, RowError } from '@stockwise/contract';
import { DEFAULT_DECIMAL_PLACES, MAX_LISTED_NEW_PRODUCTS, MAX_REPORTED_ROW_ERRORS, SUPPLIER_COLUMN } from '@stockwise/contract';
import { AppError, validationError } from '../http/errors.ts';
import { recordTodaysStockSql } from '../stock/repo.ts';
import { storedSuppliers } from '../suppliers/repo.ts';
import { SupplierNames, SupplierSpeller, type FoldedSupplier } from '../suppliers/service.ts';
import { DEFAULT_MAX_DIGITS, largestStored, type RowValues } from '../tables/columns.ts';
import { deleteReferencingRows } from '../tables/repo.ts';
import type { RowReference } from '../tables/service.ts';
import type { ImportSession } from './repo.ts';
import { sourcePaths } from './new-products.ts';
import { compileRowFilters, type RowFilters } from './row-filter.ts';
import type { RawBuilder } from 'kysely';
import type { CurrencySigns } from './currency.ts';
import { blankCodeSkipper, compileRecordTyper, type AddedTo, totalsLineReader, createsForUnknownCodes, fileImportWayOut, ownKeyLookup, unknownCodeReason, type CodeLookup, type TotalsSkipped, type WriteTarget } from './target.ts';
import { withCodeByName } from './code-by-name.ts';
import type { ReplacedOwn } from './own-sales.ts';
import { RefusedChoiceValues } from './value-maps.ts';
import { DateOrderDetector } from './values.ts';
import { UnitsAsWritten, type UnitsFirstWritten } from './quantity-units.ts';
import * as sqlOf from './writer-sql.ts';

/**
 * A source record after the mapping: target field → the file's value (undefined: not in the record),
 * and the values of the columns the mapping's row filters read (row-filter.ts rowFilterColumns).
 */
/** `empty`: nothing in any column the mapping reads (cellsWithNothingMapped): with skip_rows_without_code, counted as an empty line, not as one without a code. */
export type MappedRecord = { row: number; fields: Record<string, unknown> | null; filterCells?: unknown[]; empty?: true };

export type DataAction = 'upsert' | 'insert' | 'replace';

export type WriteOptions = {
  mapping: EntityMapping;
  /**
   * upsert (default); insert: keys already stored are refused and counted; replace: upsert, noting
   * the rows under `source` — after its last batch the caller deletes what earlier runs wrote and
   * this one did not (removeRowsOfEarlierRuns), in its final transaction.
   */
  dataAction?: DataAction;
  /** Who wrote the rows (an integration and its run); required by replace. */
  source?: { tag: string; run: string };
  /**
   * Whose sales totals these are (ADR 0164): `file:<mapping name>` (`file` without a saved one) or
   * `integration:<id>`. Each product-day then holds its part beside the other writers' (a till's
   * file and a web shop's run add up), and writing again replaces only its own.
   */
  salesWriter?: string;
  /** A file import's log entry: the sales parts (ADR 0174) or stock counts (ADR 0175) it writes keep their before-images under it, for an undo. */
  undoableAs?: string;
  /** Told how many records were read so far. */
  onProgress?(rows: number): void;
  /**
   * Writes the records that pass and sets the refused ones aside (an integration's batch, ADR 0060's
   * amendment); without it one refused record writes nothing (a file import). A date order the
   * records leave ambiguous still refuses them all: no record's date can be read.
   */
  setAsideRefused?: boolean;
  /** The mapping's row filters as far as the source was read (an integration's earlier batches); default: fresh ones. */
  rowFilters?: RowFilters | null;
  /** The currency signs of the source's money columns as far as it was read (an integration's earlier batches); default: fresh ones. */
  currencySigns?: CurrencySigns;
  /** The units first written for products without a unit as far as the source was read (an integration's earlier batches); default: fresh. */
  unitsFirstWritten?: UnitsFirstWritten;
  /** How refusals name a key's lines (default: the file's rows, fileRows); an integration's batch names pages and records. */
  linesInWords?: LinesInWords;
  /** How an unknown product code's refusal names the way out (default: the import screen's, fileImportWayOut); a run names its saved mapping. */
  unknownCodeWayOut?: string;
};

/** A key's lines as a refusal names them: `rows` (their first ones) and how many `more` lines it has. */
export type LinesInWords = (rows: number[], more: number) => string;

/** "Row 4", "Rows 4 and 9", "Rows 4, 9 and 3 more lines": the rows of a file. */
export const fileRows: LinesInWords = (rows, more) => {
  if (more) return `Rows ${rows.join(', ')} and ${more} more line${more === 1 ? '' : 's'}`;
  return rows.length === 1 ? `Row ${rows[0]}` : `Rows ${rows.slice(0, -1).join(', ')} and ${rows.at(-1)}`;
};

export type WriteOutcome = {
  counts: ImportCounts;
  repeatedKeys: RepeatedKeyMode;
  /** The first 100 refused rows; when there are any, nothing was written unless `setAside` says otherwise. */
  rowErrors: RowError[];
  rowErrorCount: number;
  /** The values refused as outside a column's choices, over every row (what a value map can say they mean). */
  refusedChoices: RefusedChoices[];
  /** With setAsideRefused: the refused records, left out while the others were written (absent: nothing was written). */
  setAside?: number;
  /** The order of slashed dates, where the records' dates told it (a mapping's date format auto). */
  dateOrder: DateOrderDetector['order'];
  /** Columns new rows got their default in, having no value for them (blank or not mapped), and how many rows. */
  defaulted: DefaultedColumn[];
  /** The first products created for unknown codes (create_missing_products), in the file's order. */
  newProducts: NewProduct[];
  /** Totals lines left out (a totals word with a blank code, or instead of becoming products with create_missing_products; counts.totals_skipped), and their words. */
  totalsSkipped: TotalsSkipped;
  /** Codes that had lost their leading zeros (Excel's doing) and were read as the stored codes that have them. */
  restoredCodes: RestoredCodes;
  /** Of the stock counts written, those a later figure of their product (up to today) outdates as on hand (ADR 0030): absent when not counts. */
  outdatedCounts?: sqlOf.OutdatedCounts;
  /** Sales written beside other writers' parts of the same product-days, kept (ADR 0164): absent when none. */
  addedTo?: AddedTo;
  /** A file's sales that replaced different totals its own source (mapping) stored before: absent when none. */
  replacedOwn?: ReplacedOwn;
  /** Quantities of products without a unit read in the unit their cells wrote (ADR 0178): absent when none. */
  unitsAsWritten?: UnitsAsWritten;
  /** Supplier names written in the spelling already used (ADR 0186), once per spelling: absent when none. */
  foldedSuppliers?: FoldedSupplier[];
};

/** Two writes' AddedTo as one (a run's batches). */
export const addAddedTo = (a: AddedTo | undefined, b: AddedTo | undefined): AddedTo | undefined =>
  a && b ? { keys: a.keys + b.keys, sources: [...new Set([...a.sources, ...b.sources])].sort(), edited: a.edited || b.edited } : (a ?? b);

export type DefaultedColumn = { field: string; rows: number; value: string };

/** Codes read as a stored code once their lost leading zeros were put back: how many codes and lines, and the first few (as written, and as stored). */
export type RestoredCodes = { codes: number; lines: number; shown: { written: string; code: string }[] };

export const NO_RESTORED_CODES: RestoredCodes = { codes: 0, lines: 0, shown: [] };

/** RestoredCodes of two statements (references and the own key) or batches, the first five kept. */
export const addRestoredCodes = (a: RestoredCodes, b: RestoredCodes): RestoredCodes => ({ codes: a.codes + b.codes, lines: a.lines + b.lines, shown: [...a.shown, ...b.shown].slice(0, 5) });

const restoredOf = (rows: sqlOf.RestoredCode[]): RestoredCodes => ({ codes: rows[0]?.codes ?? 0, lines: rows[0]?.lines ?? 0, shown: rows.map(({ written, code }) => ({ written, code })) });

/** Lines being summed, by field set and then by the value of each key column. */
type KeyTree = Map<unknown, KeyTree | { lines: number }>;

// Rows reach the database in pieces of about this many bytes of COPY text, each COPYed while the
// next is typed; PGlite reads a piece whole into its memory.
const PIECE_BYTES = 2 << 20;

// COPY text format: tab-separated, \N for NULL, and backslash escapes for these four characters.
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const copyText = (value: RowValues[string] | undefined) => {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return /[\\\n\r\t]/.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c] as string) : value;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
};

const UNIQUE_VIOLATION = '23505';

/**
 * Collects refused rows: every one counted, the first 100 kept, each naming its field and the
 * file's column; and every row's values outside a column's choices, each once.
 */
export class RowErrors {
  readonly list: RowError[] = [];
  count = 0;
  readonly refusedChoices = new RefusedChoiceValues();
  readonly #paths: Record<string, string | readonly string[]>;
  constructor(mapping: EntityMapping) {
    this.#paths = sourcePaths(mapping);
  }
  /** `lines`: the refused lines the entry stands for (the lines of one key it names), so the list says how many it leaves out. */
  add(row: number, field: string | null, reason: string, lines = 1) {
    if (this.list.length < MAX_REPORTED_ROW_ERRORS) {
      const path = field ? this.#paths[field] : undefined;
      // Joined columns (ADR 0193) are named as the screen shows them: Item + Price Point Name.
      const column = typeof path === 'string' || path === undefined ? path : path.join(' + ');
      this.list.push({ row, field, ...(column ? { column } : {}), reason, ...(lines > 1 ? { lines } : {}) });
    }
  }
  /** A refused row: its problems by field, or null when the record is not an object at all, and its values outside a column's choices. */
  addRow(row: number, fieldErrors: Record<string, string[]> | null, refusedChoices: Record<string, string> | null = null) {
    this.count += 1;
    this.refusedChoices.addAll(refusedChoices);
    if (!fieldErrors) this.add(row, null, 'The record is not an object.');
    else for (const [field, reasons] of Object.entries(fieldErrors)) this.add(row, field, reasons.join(' '));
  }
}

/**
 * For a refused row that stands for `lines` lines added up (sum mode), where the others are: the
 * count names every line, the list only the first of each key.
 */
function addedUpWith(target: WriteTarget, lines: number): string {
  if (lines <= 1) return '';
  const more = lines - 1;
  return ` The same goes for ${more} more line${more === 1 ? '' : 's'} below with the same ${keyInWords(target)}.`;
}

/** The entity key as a shop says it: "product and date". */
const keyInWords = (target: WriteTarget) => target.keyColumns.map((c) => (target.columns.find((column) => column.key === c)?.label ?? c).toLowerCase()).join(' and ');

/** What the lines of a key may add up to in a summed column, at most (either way). */
/**
 * What a summed column's values are multiplied by to be added exactly in JavaScript: 1 for whole
 * numbers, 1000 for a quantity's 3 decimal places; null when its sums are left to SQL's numeric (more
 * places than a double's integers keep exact at the column's size).
 */
function summingScale(target: WriteTarget, column: string): number | null {
  const definition = target.columns.find((c) => c.key === column);
  if (target.typeOf(column) === 'IntegerField') return 1;
  if (target.typeOf(column) !== 'DecimalField' || !definition) return null;
  const places = definition.decimal_places ?? DEFAULT_DECIMAL_PLACES;
  return (definition.max_digits ?? DEFAULT_MAX_DIGITS) <= 15 ? 10 ** places : null;
}

const largestSum = (target: WriteTarget, column: string) => largestStored(target.columns.find((c) => c.key === column) ?? { key: column, type: target.typeOf(column) });

/** A number as the row errors write it: 2,000,000,000. */
/** A stored figure as a sentence names it: thousands grouped, a quantity's numeric places only as far as it needs them (0.750 is 0.75, 8.000 is 8). */
const inWords = (amount: string) => {
  const [whole = '', fraction = ''] = amount.replace(/^-/, '').split('.');
  const places = fraction.replace(/0+$/, '');
  return `${amount.startsWith('-') ? '-' : ''}${BigInt(whole).toLocaleString('en-US')}${places ? `.${places}` : ''}`;
};

/**
 * Why the lines of one key are refused when they add up to more than `column` holds: "Rows 4 and 9
 * (the same product and date): 2,000,000,000 + 1,500,000,000 = 3,500,000,000 is more than the
 * Quantity column holds (at most 2,147,483,647)." Rows standing for lines added up while typing,
 * or more than are shown, are counted instead of listed. With `stored` (the total this run's
 * earlier batches stored for the key, which its lines are added to) that total comes first.
 */
function overflowReason(target: WriteTarget, column: string, sum: sqlOf.OverflowingSum & { stored?: string }, largest: string, linesInWords: LinesInWords): string {
  const label = target.columns.find((c) => c.key === column)?.label ?? column;
  const limit = sum.total.startsWith('-') ? `is less than the ${label} column holds (at least -${largest})` : `is more than the ${label} column holds (at most ${largest})`;
  const more = sum.lines - sum.rows.length;
  const lines = linesInWords(sum.rows, more);
  const key = keyInWords(target);
  const stored = sum.stored === undefined ? null : inWords(sum.stored);
  if (more) return `${lines} of the same ${key} add up${stored ? `, with the ${stored} this run's earlier batches stored for it,` : ''} to ${inWords(sum.total)}, which ${limit}.`;
  const signed = (amount: string) => (amount.startsWith('-') ? `- ${inWords(amount.slice(1))}` : `+ ${inWords(amount)}`);
  const amounts = sum.amounts.map((amount, at) => (at === 0 && !stored ? inWords(amount) : signed(amount)));
  const which = stored ? (sum.rows.length === 1 ? ` (a ${key} this run's earlier batches stored ${stored} for)` : ` (the same ${key}, which this run's earlier batches stored ${stored} for)`) : ` (the same ${key})`;
  return `${lines}${which}: ${stored ? `${stored} ` : ''}${amounts.join(' ')} = ${inWords(sum.total)} ${limit}.`;
}

/**
 * PostgreSQL's refusals at the write, in words (never its "Failing row contains"). Rows that
 * reach the write passed every row check, so what is left is about totals or concurrent writers.
 */
function asWriteError(error: unknown, target: WriteTarget): unknown {
  const { code, constraint, column } = error as { code?: string; constraint?: string; column?: string };
  const summed = target.repeatedKeys === 'sum' ? ' (after adding up the rows that share a key)' : '';
  switch (code) {
    case '23514':
      return validationError(`A value is not allowed by the rule '${constraint ?? 'check'}' of ${target.tableName}${summed}.`);
    case '22003':
      return validationError(`A number is out of range for its column in ${target.tableName}${summed}.`);
    case '23502':
      return validationError(`Column '${column ?? '?'}' of ${target.tableName} needs a value for new rows, and the mapping does not fill it.`);
    case '23503':
      return validationError(`A row refers to a row of another table that does not exist (rule '${constraint ?? 'foreign key'}').`);
    case '23505':
      return validationError(`A row with the same '${constraint ?? 'unique'}' value already exists in ${target.tableName}.`);
    case '40P01':
    case '40001':
      return new AppError('conflict', `Another import into ${target.tableName} was writing the same rows at the same time; nothing was written. Try again.`);
    default:
      // Other bad data (22xxx) the row checks did not foresee: a 400 in words, never a 500 with SQL text.
      return code?.startsWith('22') ? validationError(`A value could not be stored in ${target.tableName}; check the file's values and the mapping's formats.`) : error;
  }
}

/** Typed rows as COPY text, in pieces of ~2 MB, each handed to a sink (the staging table, or a file while an upload arrives). */
export type PieceSink = (piece: Buffer[]) => Promise<void>;

/** What typing a source left: how many records, which were refused, and what its dates said. */
export type PreparedRows = {
  rows: number;
  skipped: number;
  /** Of the lines without a code left out, those with nothing in any mapped column (not in `skipped`). */
  emptySkipped: number;
  /** Lines without a code given one by their name (blank_code_by_name), counted in rows. */
  matchedByName: number;
  /** Totals lines (a totals word, the code blank) left out while typing. */
  totals: TotalsSkipped;
  filtered: Pick<ImportCounts, 'filtered' | 'filtered_by'>;
  errors: RowErrors;
  detector: DateOrderDetector;
  fieldSets: Set<string>;
  /** Per summed column (target.summed), the sum of its values' magnitudes: no key can add up beyond what the column holds unless this does. */
  summedMagnitudes: number[];
  unitsAsWritten: UnitsAsWritten;
};

/**
 * Types every record into COPY text for the staging table, handing ~2 MB pieces to `sink` (one
 * piece in the sink while the next is typed: the database and Node work at once). Rows after a
 * refused one are staged too, so the checks against the database (unknown codes, repeated keys)
 * report theirs in the same answer: a file is mended once, not once per kind of error.
 */
export async function prepareRecords(target: WriteTarget, batches: AsyncIterable<MappedRecord[]> | Iterable<MappedRecord[]>, options: WriteOptions, sink: PieceSink): Promise<PreparedRows> {
  const errors = new RowErrors(options.mapping);
  const detector = new DateOrderDetector();
  const unitsAsWritten = new UnitsAsWritten();
  const rowInWords = options.linesInWords ?? fileRows;
  const typeRecord = compileRecordTyper(target, options.mapping, detector, {
    ...(options.currencySigns ? { currencies: options.currencySigns } : {}),
    ...(options.unitsFirstWritten ? { unitsFirstWritten: options.unitsFirstWritten } : {}),
    unitsAsWritten,
    // "Row 3" as the middle of a sentence: "as row 3 wrote product …", "as page 1, record 3 wrote …".
    lineInWords: (row) => {
      const words = rowInWords([row], 0);
      return `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
    },
  });
  const skipsLine = blankCodeSkipper(target, options.mapping);
  const totalsWordOf = totalsLineReader(target, options.mapping);
  const totals: TotalsSkipped = { lines: 0, codes: [] };
  const rowFilters = options.rowFilters === undefined ? compileRowFilters(options.mapping) : options.rowFilters;
  const filteredLines: number[] = [];
  const columns = target.mapped;
  const newProductFields = target.newProducts?.fields ?? [];
  // Which sets of columns the staged rows fill (one, for a CSV file or a sheet).
  const fieldSets = new Set<string>();
  let rows = 0;
  let skipped = 0;
  let emptySkipped = 0;
  let matchedByName = 0;
  let chunks: Buffer[] = [];
  let bytes = 0;
  let sinking: Promise<void> = Promise.resolve();
  // Sum mode: rows of one key within a batch are added up here already (a till export's lines of
  // one product and day are near each other), so fewer rows are staged; SQL adds up the rest.
  // Only whole numbers, or decimals added as whole numbers of their last place (0.1 + 0.2 kg is 300
  // thousandths, not 0.30000000000000004), and never a date that may yet be swapped; not when lines
  // carry new products' names (each line's name counts towards the name chosen).
  const scales = target.summed.map((c) => summingScale(target, c));
  const preSum = !target.newProducts && target.repeatedKeys === 'sum' && target.summed.length > 0 && scales.every((scale) => scale !== null) && target.mapped.every((c) => target.keyColumns.includes(c) || target.summed.includes(c));
  // Key columns as levels of the tree that finds a line's earlier line: the last one (the day, for
  // the shipped entities) first, since a batch of a till export spans a day or two.
  const keyLevels = [...target.keyColumns].reverse();
  const leafKey = keyLevels.pop() ?? '';
  const allFields = '1'.repeat(columns.length);
  const summedMagnitudes = target.summed.map(() => 0);
  const largest = target.summed.map((c) => Number(largestSum(target, c).text));
  type Line = { row: number; fields: string; values: RowValues; lines: number; provisional: string };
  const lineText = ({ row, fields, values, lines, provisional }: Line) => {
    let text = `${row}\t${fields}\t${lines}\t${provisional}`;
    for (let at = 0; at < columns.length; at++) text += `\t${fields[at] === '1' ? copyText(values[columns[at] as string]) : '\\N'}`;
    for (const { staged } of newProductFields) text += `\t${copyText(values[staged])}`;
    return `${text}\n`;
  };
  const flush = async () => {
    await sinking;
    if (!bytes) return;
    const piece = chunks;
    chunks = [];
    bytes = 0;
    sinking = sink(piece);
    // Settled here so a failed piece is not an unhandled rejection before the next flush awaits it.
    sinking.catch(() => {});
  };
  for await (const records of batches) {
    let text = '';
    const summed: KeyTree = new Map();
    const sums: Line[] = [];
    for (let record of records) {
      // Before the code check: a refunded order's gift card is a refunded line, counted once.
      const leftOut = rowFilters && record.filterCells ? rowFilters.leavesOut(record.filterCells) : null;
      if (leftOut) {
        filteredLines[leftOut.filter] = (filteredLines[leftOut.filter] ?? 0) + 1;
        continue;
      }
      const totalsWord = totalsWordOf && record.fields ? totalsWordOf(record.fields) : null;
      if (totalsWord) {
        totals.lines += 1;
        if (!totals.codes.includes(totalsWord)) totals.codes.push(totalsWord);
        continue;
      }
      // A line without a code known by its name (blank_code_by_name): given the code, or refused when its name reads as several products'.
      // Not a line with nothing mapped in its own cells (an image-only line's name is its product's, filled down).
      const named = record.fields && target.codeByName && !record.empty ? withCodeByName(target.codeByName, record.fields) : null;
      if (named?.problem) {
        rows += 1;
        errors.addRow(record.row, { [target.codeByName?.codeField as string]: [named.problem] });
        continue;
      }
      if (named?.matched) {
        record = { ...record, fields: named.fields };
        matchedByName += 1;
      }
      if (skipsLine && record.fields && skipsLine(record.fields)) {
        if (record.empty) emptySkipped += 1;
        else skipped += 1;
        continue;
      }
      rows += 1;
      if (!record.fields) {
        errors.addRow(record.row, null);
        continue;
      }
      const typed = typeRecord(record.fields, record.row);
      if (typed.errors) {
        errors.addRow(record.row, typed.errors, typed.refusedChoices);
        continue;
      }
      let fields = allFields;
      if (typed.present.length !== columns.length) {
        fields = '';
        for (const column of columns) fields += typed.present.includes(column) ? '1' : '0';
      }
      fieldSets.add(fields);
      for (let at = 0; at < target.summed.length; at++) {
        const value = typed.values[target.summed[at] as string];
        if (typeof value === 'number') summedMagnitudes[at] = (summedMagnitudes[at] as number) + Math.abs(value);
      }
      const provisional = typed.provisional ? columns.map((c) => (typed.provisional?.includes(c) ? '1' : '0')).join('') : '\\N';
      const line: Line = { row: record.row, fields, values: typed.values, lines: 1, provisional };
      if (!preSum || typed.provisional) {
        text += lineText(line);
        continue;
      }
      // The line of the same field set and key values, found level by level (a key string built per line cost more than the typing).
      let level = summed.get(fields) as KeyTree | undefined;
      if (!level) summed.set(fields, (level = new Map()));
      for (const column of keyLevels) {
        const value = typed.values[column];
        let next = level.get(value) as KeyTree | undefined;
        if (!next) level.set(value, (next = new Map()));
        level = next;
      }
      const leafValue = typed.values[leafKey];
      const earlier = level.get(leafValue) as Line | undefined;
      if (!earlier) {
        level.set(leafValue, line);
        sums.push(line);
        continue;
      }
      // A line that would take the sum beyond what its column holds is staged on its own: the check
      // before the merge (refuseOverflowingSums) then names it beside the others of its key.
      if (target.summed.some((c, at) => Math.abs(((earlier.values[c] as number | null) ?? 0) + ((typed.values[c] as number | null) ?? 0)) > (largest[at] as number))) {
        sums.push(line);
        continue;
      }
      earlier.lines += 1;
      for (let at = 0; at < target.summed.length; at++) {
        const column = target.summed[at] as string;
        const [a, b] = [earlier.values[column], typed.values[column]];
        const scale = scales[at] as number;
        if (typeof b === 'number') earlier.values[column] = typeof a !== 'number' ? b : scale === 1 ? a + b : (Math.round(a * scale) + Math.round(b * scale)) / scale;
      }
    }
    for (const line of sums) text += lineText(line);
    options.onProgress?.(rows);
    if (text) {
      const chunk = Buffer.from(text);
      chunks.push(chunk);
      bytes += chunk.length;
    }
    if (bytes >= PIECE_BYTES) await flush();
  }
  await flush();
  await sinking;
  return { rows, skipped, emptySkipped, matchedByName, totals, filtered: rowFilters?.counted(filteredLines) ?? {}, errors, detector, fieldSets, summedMagnitudes, unitsAsWritten };
}

/** A fresh staging table for `target` in the session's transaction (checks first that the entity key is a unique key). */
export async function createStaging(session: ImportSession, target: WriteTarget): Promise<void> {
  for (const statement of sqlOf.createStagingTable(target)) await session.run(statement);
  try {
    await session.run(sqlOf.checkKeyIsUnique(target));
  } catch (error) {
    if ((error as { code?: string }).code === '42P10') throw validationError('Invalid configuration: the entity key is not a unique key of its table.');
    throw error;
  }
}

/** The sink that COPYs pieces into the session's staging table. */
export const stagingSink =
  (session: ImportSession, target: WriteTarget): PieceSink =>
  (piece) =>
    session.copyIn(sqlOf.STAGING_TABLE, sqlOf.stagingColumns(target), piece);

/**
 * Writes mapped `batches` of records into `target` inside the caller's transaction (`session`).
 * Answers the counts, or the refused rows (then nothing was written: the caller must not commit
 * what the staging did, and a file import rolls back). Throws AppErrors for problems of the
 * configuration or of the write as a whole (worded, never PostgreSQL's text).
 */
export async function writeRecords(
  session: ImportSession,
  target: WriteTarget,
  batches: AsyncIterable<MappedRecord[]> | Iterable<MappedRecord[]>,
  options: WriteOptions,
): Promise<WriteOutcome> {
  await createStaging(session, target);
  let prepared: PreparedRows;
  try {
    prepared = await prepareRecords(target, batches, options, stagingSink(session, target));
  } catch (error) {
    throw asWriteError(error, target);
  }
  return mergeStaged(session, target, prepared, options);
}

/**
 * The second half of writeRecords, for rows already in the staging table (prepareRecords into
 * stagingSink, or pieces COPYed from a file prepared while an upload arrived): the date order,
 * unknown codes, repeated keys, then the write.
 */
export async function mergeStaged(session: ImportSession, target: WriteTarget, prepared: PreparedRows, options: WriteOptions): Promise<WriteOutcome> {
  const action = options.dataAction ?? 'upsert';
  if (action === 'replace' && !options.source) throw new Error('Data action replace needs a source');
  const { errors, detector } = prepared;
  const linesInWords = options.linesInWords ?? fileRows;
  // A run checks repeated keys batch by batch (each has its own staging).
  const unit = options.source ? 'batch' : 'file';
  const counts: ImportCounts = {
    rows: prepared.rows,
    written: 0,
    inserted: 0,
    updated: 0,
    duplicates: 0,
    ...(prepared.skipped ? { skipped: prepared.skipped } : {}),
    ...(prepared.emptySkipped ? { empty_skipped: prepared.emptySkipped } : {}),
    ...(prepared.matchedByName ? { matched_by_name: prepared.matchedByName } : {}),
    ...(prepared.totals.lines ? { totals_skipped: prepared.totals.lines } : {}),
    ...prepared.filtered,
  };
  // The checks below add their rows' errors after the typing's: reported in the file's row order.
  let defaulted: DefaultedColumn[] = [];
  const newProducts: NewProduct[] = [];
  let setAside: number | undefined;
  let outdatedCounts: sqlOf.OutdatedCounts | undefined;
  let addedTo: AddedTo | undefined;
  let replacedOwn: ReplacedOwn | undefined;
  let totalsSkipped: TotalsSkipped = prepared.totals;
  let restoredCodes = NO_RESTORED_CODES;
  const foldedSuppliers: FoldedSupplier[] = [];
  const restoreZeros = async (statement: RawBuilder<sqlOf.RestoredCode> | null) => {
    if (statement) restoredCodes = addRestoredCodes(restoredCodes, restoredOf(await session.run(statement)));
  };
  const outcome = (): WriteOutcome => ({
    counts,
    repeatedKeys: target.repeatedKeys,
    rowErrors: errors.list.sort((a, b) => a.row - b.row),
    rowErrorCount: errors.count,
    refusedChoices: errors.refusedChoices.list(target.columns),
    ...(setAside === undefined ? {} : { setAside }),
    dateOrder: detector.order,
    defaulted,
    newProducts,
    totalsSkipped,
    restoredCodes,
    ...(outdatedCounts ? { outdatedCounts } : {}),
    ...(addedTo ? { addedTo } : {}),
    ...(replacedOwn ? { replacedOwn } : {}),
    ...(prepared.unitsAsWritten.cells ? { unitsAsWritten: prepared.unitsAsWritten } : {}),
    ...(foldedSuppliers.length ? { foldedSuppliers } : {}),
  });
  if (counts.rows === 0) return outcome();
  const ambiguity = detector.ambiguity;
  const dateField = target.mapped.find((c) => target.typeOf(c) === 'DateField' || target.typeOf(c) === 'DateTimeField') ?? null;
  if (ambiguity) {
    errors.count += 1;
    errors.add(ambiguity.row, dateField, ambiguity.message);
  }
  const settingAside = options.setAsideRefused === true && !ambiguity;
  const swap = detector.needsSwap ? sqlOf.swapDayAndMonth(target) : null;
  if (swap) await session.run(swap);

  try {
    // A stock take's `gar-1012` is the catalogue's GAR-1012 (as in a sales line), before repeated keys are looked at.
    const ownKey = sqlOf.matchOwnKeyIgnoringCase(target);
    if (ownKey) await session.run(ownKey);
    // And a stock take's 501234567890, saved by Excel without its zero, is the catalogue's 0501234567890.
    await restoreZeros(sqlOf.restoreOwnKeyZeros(target));
    // Set aside first, so a product is created only for a record that is written.
    if (settingAside) await refuseKeysThatCannotBeWritten(session, target, prepared, true, linesInWords, unit);
    for (const reference of target.references.values()) {
      if (!target.mapped.includes(reference.column)) continue;
      if (reference.by === 'key' && options.mapping.create_missing_products) {
        if (reference.unfillableColumn) throw validationError(`Invalid configuration: new ${reference.table} rows cannot be created for unknown codes: their column '${reference.unfillableColumn}' is required.`);
        // A till's `hw-0003` is the catalogue's HW-0003, not a new product.
        await session.run(sqlOf.matchCodesIgnoringCase(target, reference.column));
        // Nor is a barcode Excel saved without its leading zero.
        await restoreZeros(sqlOf.restoreReferenceZeros(target, reference.column));
        // Nor is its totals line `Summe`: left out, and said so.
        const [totals] = await session.run(sqlOf.takeOutTotalsLines(target, reference.column));
        if (totals?.lines) {
          totalsSkipped = { lines: totalsSkipped.lines + totals.lines, codes: [...new Set([...totalsSkipped.codes, ...totals.codes])] };
          counts.rows -= totals.lines;
          counts.totals_skipped = totalsSkipped.lines;
        }
        // Nor is its `HW 0003`: refused with "did you mean HW-0003?" and taken out, so nothing creates it.
        addUnknownCodeErrors(errors, target, reference.column, reference, await session.run(sqlOf.takeOutLooseTwins(target, reference.column)));
        // And of `ABC-1` and `abc 1`, both new, only the first spelling is created; the other's rows are refused naming it.
        addUnknownCodeErrors(errors, target, reference.column, reference, await session.run(sqlOf.takeOutNewLooseTwins(target, reference.column)));
        // Their supplier as the catalogue spells it (ADR 0186).
        const supplierField = reference.encodedName === SUPPLIER_COLUMN.table ? target.newProducts?.fields.find((f) => f.field === SUPPLIER_COLUMN.column) : undefined;
        if (supplierField) foldedSuppliers.push(...(await spellSuppliers(session, sqlOf.STAGING_TABLE, supplierField.staged, sqlOf.newProductSuppliers(target, reference.column, supplierField.staged))));
        const [created] = await session.run(sqlOf.createMissingReferences(target, reference.column, MAX_LISTED_NEW_PRODUCTS));
        counts.created_references = (counts.created_references ?? 0) + (created?.created ?? 0);
        newProducts.push(...(created?.shown ?? []));
        continue;
      }
      // Only a file with unknown codes pays for the second look, ignoring case.
      const wayOut = createsForUnknownCodes(reference) ? (options.unknownCodeWayOut ?? fileImportWayOut) : null;
      const fold = reference.by === 'key' ? async () => {
        await session.run(sqlOf.matchCodesIgnoringCase(target, reference.column));
        await restoreZeros(sqlOf.restoreReferenceZeros(target, reference.column));
      } : null;
      await refuseUnknownCodes(session, target, errors, reference.column, reference, settingAside, fold, wayOut);
    }
    // An update-only import (a stock take without names) adds no rows: a code no stored row has is the row's error.
    const ownLookup = ownKeyLookup(target);
    if (ownLookup) await refuseUnknownCodes(session, target, errors, ownLookup.keyColumn, ownLookup, settingAside, null, null);
    if (!settingAside) await refuseKeysThatCannotBeWritten(session, target, prepared, false, linesInWords, unit);
    // A run's later batch adds to what its earlier ones stored (sqlOf.writeMerged): checked now, with every code resolved.
    if (options.source && (settingAside || !errors.count)) await refuseRunTotalsBeyondColumns(session, target, prepared, options.source, settingAside, linesInWords);
    if (errors.count && !settingAside) return outcome();
    if (settingAside) {
      setAside = errors.count;
      if (setAside === counts.rows) return outcome();
    }

    // Imports into one table take turns: parallel merges of overlapping keys could deadlock.
    await session.run(sqlOf.lockTable(target));
    const fieldSets = [...prepared.fieldSets];
    await session.run(sqlOf.createMergedTable(target, fieldSets.length === 1));
    const source = options.source ?? null;
    const writer = options.salesWriter && sqlOf.keepsSalesParts(target) ? { source: options.salesWriter, run: source?.run ?? null, importId: options.undoableAs ?? null } : null;
    const countsBeforeImport = options.undoableAs && sqlOf.keepsStockCounts(target) ? options.undoableAs : null;
    // A product's supplier in the spelling the other products hold, else the first one the file writes (ADR 0186).
    if (target.encodedName === SUPPLIER_COLUMN.table && target.mapped.includes(SUPPLIER_COLUMN.column)) {
      const { column } = SUPPLIER_COLUMN;
      foldedSuppliers.push(...(await spellSuppliers(session, sqlOf.MERGED_TABLE, column, sqlOf.mergedSuppliers(target, column), sqlOf.productsRewritingColumn(target, column))));
    }
    const [merged] = await session.run(sqlOf.countMerged());
    const distinct = merged?.n ?? 0;
    // Read before the write (the table is locked): which new rows will take a default silently.
    if (target.defaults.size && !target.updateOnly) {
      const [missing] = await session.run(sqlOf.newRowsWithoutValue(target, [...target.defaults.keys()]));
      defaulted = [...target.defaults].map(([field, value]) => ({ field, rows: missing?.[field] ?? 0, value })).filter((column) => column.rows > 0);
    }
    let written: sqlOf.WrittenMerged | undefined;
    if (action === 'insert') {
      [written] = await session.run(sqlOf.writeMerged(target, { fieldSets, mode: 'insert-new', source, writer, countsBeforeImport }));
    } else if (target.updateOnly) {
      [written] = await session.run(sqlOf.writeMerged(target, { fieldSets, mode: 'update', source, writer, countsBeforeImport }));
    } else {
      const [stored] = await session.run(sqlOf.anyKeyStored(target));
      if (!stored?.found) {
        // ON CONFLICT's speculative insertion about doubles PostgreSQL's work for new rows: plain
        // INSERTs, unless another writer stored one of the keys since the check.
        await session.run(sqlOf.savepoint('savepoint'));
        try {
          // A sales writer's parts, and a stock count file's before-images, are noted as the rows are written: RETURNING, as for a run's notes.
          if (source || writer || countsBeforeImport) [written] = await session.run(sqlOf.writeMerged(target, { fieldSets, mode: 'plain', source, writer, countsBeforeImport }));
          else {
            for (const insert of sqlOf.insertMergedPlain(target, fieldSets)) await session.run(insert);
            written = { inserted: distinct, written: distinct };
          }
          await session.run(sqlOf.savepoint('release'));
        } catch (error) {
          if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
          await session.run(sqlOf.savepoint('rollback'));
        }
      }
      written ??= (await session.run(sqlOf.writeMerged(target, { fieldSets, mode: 'upsert', source, writer, countsBeforeImport })))[0];
    }
    if (written?.kept) addedTo = { keys: written.kept, sources: [...(written.kept_sources ?? [])].sort(), edited: written.kept_edits ?? false };
    if (written?.replaced && written.replaced_from && written.replaced_to) replacedOwn = { days: written.replaced, from: written.replaced_from, to: written.replaced_to };
    counts.written = action === 'insert' ? (written?.inserted ?? 0) : distinct;
    counts.inserted = written?.inserted ?? 0;
    counts.duplicates = counts.rows - (setAside ?? 0) - distinct;
    // Insert refuses keys stored before; a key an earlier batch of the same run wrote was added to (writeMerged).
    if (action === 'insert') counts.refused = distinct - (written?.written ?? 0);
    // Without columns besides the key, a key already stored is left as it was: not an update.
    counts.updated = action !== 'insert' && target.mapped.some((c) => !target.keyColumns.includes(c)) ? distinct - counts.inserted : 0;
    // One stock truth: a product's figure written now is also today's snapshot (a blank cell writes none).
    if (target.encodedName === 'products' && target.mapped.includes('current_stock')) await session.run(recordTodaysStockSql(sqlOf.mergedRowIdsFilling(target, 'current_stock')));
    // The same rule seen from the counts: one older than its product's latest figure is history, not on hand.
    if (target.encodedName === 'stock_snapshots' && target.mapped.includes('stock_level')) outdatedCounts = (await session.run(sqlOf.outdatedCounts()))[0];

  } catch (error) {
    throw asWriteError(error, target);
  }
  return outcome();
}

/**
 * Writes the supplier names of `table`'s `column` that `met` lists (in the order met) in the spelling
 * they are stored in (ADR 0186): a stored supplier's — of the products but those `rewritten` — else
 * the first met; white space runs one space. Answers those written otherwise than in the file.
 */
async function spellSuppliers(session: ImportSession, table: typeof sqlOf.STAGING_TABLE | typeof sqlOf.MERGED_TABLE, column: string, met: RawBuilder<{ written: string }>, rewritten?: RawBuilder<boolean>): Promise<FoldedSupplier[]> {
  const written = await session.run(met);
  if (!written.length) return [];
  const speller = new SupplierSpeller(new SupplierNames(await session.run(storedSuppliers(rewritten))));
  const respelled = written.flatMap((name) => {
    const stored = speller.spell(name.written);
    return stored === name.written ? [] : [{ written: name.written, stored }];
  });
  if (respelled.length) await session.run(sqlOf.respellSuppliers(table, column, respelled));
  return speller.folded;
}

/** Rows refused for their code (unknownCodes, takeOutLooseTwins, takeOutNewLooseTwins), each naming it in the words of unknownCodeReason (with `wayOut`). */
function addUnknownCodeErrors(errors: RowErrors, target: WriteTarget, column: string, lookup: CodeLookup, unknown: sqlOf.UnknownCode[], wayOut: string | null = null) {
  for (const { row, code, lines, suggestions, first_code: firstCode, first_row: firstRow } of unknown) {
    const meant = firstCode && firstRow ? { code: firstCode, row: firstRow } : suggestions;
    errors.add(row, column, `${unknownCodeReason(lookup, code, meant, wayOut)}${addedUpWith(target, lines)}`, lines);
  }
  errors.count += unknown[0]?.total ?? 0;
}

/**
 * Staged rows whose code in `column` the table of `lookup` lacks, refused (and, `setAside`, left
 * out of the staging). `fold`: codes matched ignoring case and lost leading zeros before the second
 * look, run only when the first finds any.
 */
async function refuseUnknownCodes(session: ImportSession, target: WriteTarget, errors: RowErrors, column: string, lookup: CodeLookup, setAside: boolean, fold: (() => Promise<void>) | null, wayOut: string | null) {
  let unknown = await session.run(sqlOf.unknownCodes(column, lookup));
  if (unknown.length && fold) {
    await fold();
    unknown = await session.run(sqlOf.unknownCodes(column, lookup));
  }
  addUnknownCodeErrors(errors, target, column, lookup, unknown, wayOut);
  if (setAside && unknown.length) await session.run(sqlOf.dropUnknownCodes(column, lookup));
}

/** Rows of keys the entity's handling of repeated keys cannot write: repeated where it refuses them, adding up beyond a column where it sums them. */
async function refuseKeysThatCannotBeWritten(session: ImportSession, target: WriteTarget, prepared: PreparedRows, setAside: boolean, linesInWords: LinesInWords, unit: 'file' | 'batch') {
  if (target.repeatedKeys === 'refuse') await refuseRepeatedKeys(session, target, prepared.errors, setAside, linesInWords, unit);
  if (target.repeatedKeys === 'sum') await refuseOverflowingSums(session, target, prepared, setAside, linesInWords);
}

/**
 * Rows of keys whose lines add up to more than a summed column holds, refused, each key once
 * naming its lines (and, `setAside`, left out of the staging). Only looked for when the values'
 * magnitudes together could reach half of it (a margin for a decimal's rounding in JavaScript).
 */
async function refuseOverflowingSums(session: ImportSession, target: WriteTarget, prepared: PreparedRows, setAside: boolean, linesInWords: LinesInWords) {
  for (const [at, column] of target.summed.entries()) {
    const largest = largestSum(target, column);
    if ((prepared.summedMagnitudes[at] ?? 0) <= Number(largest.text) / 2) continue;
    const sums = await session.run(sqlOf.overflowingSums(target, column, largest.text));
    for (const sum of sums) prepared.errors.add(sum.row, column, overflowReason(target, column, sum, largest.words, linesInWords), sum.lines);
    prepared.errors.count += sums[0]?.total_lines ?? 0;
    if (setAside && sums.length) await session.run(sqlOf.dropOverflowingSums(target, column, largest.text));
  }
}

/**
 * Rows of keys whose lines, added to the total this run's earlier batches stored for the key (ADR
 * 0139), come to more than a summed column holds: refused naming that total and the lines (and,
 * `setAside`, left out of the staging), as lines of one file adding up beyond it are. Looked for in
 * every batch of a run: a stored total near the limit needs only a small line to go beyond it.
 */
async function refuseRunTotalsBeyondColumns(session: ImportSession, target: WriteTarget, prepared: PreparedRows, source: { tag: string; run: string }, setAside: boolean, linesInWords: LinesInWords) {
  if (target.repeatedKeys !== 'sum') return;
  for (const column of target.summed) {
    const largest = largestSum(target, column);
    const totals = await session.run(sqlOf.overflowingRunTotals(target, column, largest.text, source));
    for (const total of totals) prepared.errors.add(total.row, column, overflowReason(target, column, total, largest.words, linesInWords));
    prepared.errors.count += totals[0]?.total_lines ?? 0;
    if (setAside && totals.length) await session.run(sqlOf.dropOverflowingRunTotals(target, column, largest.text, source));
  }
}

/** Rows whose key an earlier row has, refused naming that row as `linesInWords` does (and, `setAside`, left out of the staging). */
async function refuseRepeatedKeys(session: ImportSession, target: WriteTarget, errors: RowErrors, setAside: boolean, linesInWords: LinesInWords, unit: 'file' | 'batch') {
  const repeats = await session.run(sqlOf.repeatedKeys(target));
  for (const { row, first_row: firstRow, key } of repeats) {
    const first = linesInWords([firstRow], 0);
    errors.add(row, target.keyColumns.join(', '), `The key ${key} already appears in ${first.charAt(0).toLowerCase()}${first.slice(1)}; ${target.entityType} refuses repeated keys in one ${unit}.`);
  }
  errors.count += repeats[0]?.total ?? 0;
  if (setAside && repeats.length) await session.run(sqlOf.dropRepeatedKeys(target));
}

/** Rows replace kept because data rows refer to them: how many, the first keys (in key order), and the referring tables' names. */
export type RowsKept = { count: number; keys: string[]; tables: string[] };

/** How many kept rows a run names by their key. */
const KEPT_KEYS_SHOWN = 5;

/**
 * Data action replace, after a run's last batch, in one transaction: deletes the rows earlier runs
 * of `source` created in `target` and this run did not write again — except those that rows of data
 * tables refer to (a product's sales, stock counts, deliveries, a user table's rows): a shop's
 * history is not destroyed by an automated run. Kept rows stay noted under the source, so a later
 * run deletes them once nothing refers to them. Rows of application tables made from a deleted row
 * (its stored forecast) go first, as the Data screen's admin delete does (ADR 0139's amendment).
 * `references`: the foreign keys referring to `target`'s rows (tables/service.ts listRowReferences).
 */
export async function removeRowsOfEarlierRuns(
  session: ImportSession,
  target: WriteTarget,
  source: { tag: string; run: string },
  references: RowReference[],
): Promise<{ deleted: number; kept: RowsKept }> {
  if (sqlOf.keepsSalesParts(target)) await session.run(sqlOf.removeOwnPartsOfEarlierRuns(target, source));
  const keepers = references.filter((reference) => reference.fromDataTable);
  const keeping = keepers.map((reference) => reference.foreignKey);
  let kept: RowsKept = { count: 0, keys: [], tables: [] };
  if (keeping.length) {
    await session.run(sqlOf.lockRowsOfEarlierRuns(target, source));
    const [found] = await session.run(sqlOf.rowsOfEarlierRunsKept(target, source, keeping, KEPT_KEYS_SHOWN));
    if (found?.total) kept = { count: found.total, keys: found.keys ?? [], tables: [...new Set(keepers.filter((_, at) => found.referred[at]).map((reference) => reference.table))] };
  }
  const doomed = sqlOf.rowsOfEarlierRunsToDelete(target, source, keeping);
  for (const derived of references.filter((reference) => !reference.fromDataTable)) await session.run(deleteReferencingRows(derived.foreignKey, doomed));
  const [result] = await session.run(sqlOf.deleteRowsOfEarlierRuns(target, source, keeping));
  await session.run(sqlOf.dropNotesOfEarlierRuns(target, source));
  return { deleted: result?.deleted ?? 0, kept };
}
