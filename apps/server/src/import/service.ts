// File import: an upload (spooled to disk by upload.ts) read through a mapping (source.ts) and
// written by the records writer (writer.ts) inside ONE transaction, so a file with a bad row
// writes nothing and a second import of the same file leaves the same data. The import log entry
// is opened when the file starts arriving and always finished, success or error, in a `finally`
// (docs/adr/0008-file-import.md, docs/adr/0011-real-data-in.md).
import path from 'node:path';
import {
  LOGGED_FILE_CONTENT_MAX_BYTES,
  MAX_REPORTED_ROW_ERRORS,
  dayInTimeZone,
  entityInSentence,
  formatDay,
  type ImportLogEntry,
  type ImportResult,
  type ImportWarning,
  type EntityMapping,
  type ImportCounts,
  type ProductConfig,
  type RefusedChoices,
  type RowError,
} from '@stockwise/contract';
import type { AppDatabase } from '../db/database.ts';
import { AppError, validationError } from '../http/errors.ts';
import { requestTimeZone } from '../http/viewer-day.ts';
import { resolveEntityMapping, type FieldMappings } from './mapping.ts';
import { newProductsMessage, sourcePaths } from './new-products.ts';
import { fileSalesWriter, replacedOwnMessage } from './own-sales.ts';
import * as repo from './repo.ts';
import { PieceFile } from './piece-file.ts';
import { FileFormatError, isWorkbook, mappedBatches, openSource } from './source.ts';
import { filteredMessage, rowFilterColumns } from './row-filter.ts';
import { unitsAsWrittenMessage } from './quantity-units.ts';
import { matchedByNameMessage } from './code-by-name.ts';
import { addedToMessage, emptySkippedMessage, mapperReading, resolveWriteTarget, restoredCodesMessage, skippedMessage, totalsSkippedMessage, type WriteTarget } from './target.ts';
import type { ArrivingFile, ReceivedFile, ReceivedUpload, UploadLimits } from './upload.ts';
import { keepsSalesParts, keepsStockCounts, type OutdatedCounts } from './writer-sql.ts';
import { unknownValueRule } from '../tables/unknown-values.ts';
import { foldedSupplierNotices } from '../suppliers/service.ts';
import { createStaging, mergeStaged, prepareRecords, stagingSink, writeRecords, type DefaultedColumn, type PreparedRows, type WriteOptions, type WriteOutcome } from './writer.ts';

export type ImportProgress = { rowsDone: number; bytesDone: number; bytesTotal: number | null; fileName: string; mappingName: string; entityType: string; startedAt: Date };
export type ImportContext = {
  database: AppDatabase;
  loadConfig: () => Promise<ProductConfig>;
  /** Live progress of imports running in this process (the log row is written at start and end). */
  progress: Map<string, ImportProgress>;
  /** Told after a successful import which table and columns changed (new sales mean new forecasts). */
  onTableImported(written: ImportedTable): Promise<void>;
  uploadLimits: UploadLimits;
};

/** What an import or an integration's run changed: a table, the columns it wrote, and the rows it deleted (replace; a file deletes none). */
export type ImportedTable = { table: string; columns: readonly string[]; deleted: number };

export const FIELDS_REQUIRED = 'File, mapping, and config are required.';
const TIME_ZONE_AFTER_FILE =
  "time_zone came after the file: the file was read as it arrived, with the day of the time zone sent before it (the shop's when none was). Send time_zone before the file; nothing was imported.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ImportRowsError extends AppError {
  readonly rowErrors: RowError[];
  readonly rowErrorCount: number;
  readonly refusedChoices: RefusedChoices[];
  constructor(rowErrors: RowError[], rowErrorCount: number, refusedChoices: RefusedChoices[]) {
    super('validation_error', `${rowErrorCount} row${rowErrorCount === 1 ? '' : 's'} could not be imported; nothing was written.`);
    this.rowErrors = rowErrors;
    this.rowErrorCount = rowErrorCount;
    this.refusedChoices = refusedChoices;
  }

  /** The refused rows as the failure's answer and log entry carry them. */
  details() {
    return { row_errors: this.rowErrors, row_error_count: this.rowErrorCount, ...(this.refusedChoices.length ? { refused_choices: this.refusedChoices } : {}) };
  }
}

/** The mapping config field of an upload, parsed. */
export function parseMappingField(text: string | undefined): unknown {
  if (!text) throw validationError(FIELDS_REQUIRED);
  try {
    return JSON.parse(text);
  } catch {
    throw validationError('mapping_config is not valid JSON.');
  }
}

/**
 * One import's log entry: opened once (when the file starts arriving, or after the upload when the
 * fields came late), finished once. A reused import id is refused (409) and the earlier entry is
 * never touched.
 */
export class ImportRun {
  id: string | null = null;
  readonly progress: ImportProgress;
  #opened = false;
  readonly #ctx: ImportContext;
  readonly #userId: number | null;
  readonly #started = Date.now();

  constructor(ctx: ImportContext, userId: number | null, bytesTotal: number | null) {
    this.#ctx = ctx;
    this.#userId = userId;
    this.progress = { rowsDone: 0, bytesDone: 0, bytesTotal, fileName: 'upload', mappingName: 'unnamed mapping', entityType: 'products', startedAt: new Date() };
  }

  get durationMs() {
    return Date.now() - this.#started;
  }

  async open(fields: Record<string, string>, fileName: string | null): Promise<void> {
    if (this.#opened) return;
    if (fields.import_id !== undefined && !UUID.test(fields.import_id)) throw validationError('import_id must be a UUID.');
    const id = fields.import_id ?? crypto.randomUUID();
    Object.assign(this.progress, { fileName: fileName ?? 'upload', mappingName: fields.mapping_name || 'unnamed mapping', entityType: fields.entity_type || 'products' });
    if (this.#ctx.progress.has(id)) throw new AppError('conflict', `Import ${id} is already running; use a new import_id.`);
    try {
      await repo.insertImportLog(this.#ctx.database.db, { id, fileName: this.progress.fileName, mappingName: this.progress.mappingName, entityType: this.progress.entityType, bytesTotal: this.progress.bytesTotal, createdBy: this.#userId });
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AppError('conflict', `Import ${id} already exists; use a new import_id.`);
      throw error;
    }
    this.id = id;
    this.#opened = true;
    this.#ctx.progress.set(id, this.progress);
  }

  /** Finishes the entry this run opened (never another's); a no-op when none was opened. */
  async finish(outcome: { status: 'success' | 'error'; details: object; errorMessage: string | null; fileContent: string | null }): Promise<void> {
    if (!this.#opened || !this.id) return;
    this.#opened = false;
    try {
      await repo.finishImportLog(this.#ctx.database.db, this.id, { ...outcome, rowsDone: this.progress.rowsDone, bytesDone: this.progress.bytesDone });
    } finally {
      this.#ctx.progress.delete(this.id);
    }
  }
}

/** The file as text for the log, when it is small enough (spec §9) and text at all. */
function loggedContent(upload: ReceivedUpload<unknown>): string | null {
  const { head, bytes } = upload;
  if (bytes >= LOGGED_FILE_CONTENT_MAX_BYTES || (head[0] === 0x50 && head[1] === 0x4b)) return null;
  const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(head, { stream: true });
  } catch {
    // Not UTF-8: a Windows-1252 CSV, as the import reads it (import/source.ts).
    text = new TextDecoder(encoding === 'utf-8' ? 'windows-1252' : encoding).decode(head);
  }
  return text.includes('\u0000') ? null : text;
}

/** `timeZone`: the zone of the upload's day (its `time_zone`, else the shop's), read once for the file's `today` and its transaction's `current_date`. */
type ResolvedImport = { entityType: string; mapping: EntityMapping; target: WriteTarget; options: WriteOptions; needed: string[]; paths: FieldMappings; timeZone: string };

/** The source's records through the mapping: its columns, row filters, fill-down and a code read from its brackets (ADR 0198). */
const mappedRecords = (source: Awaited<ReturnType<typeof openSource>>, resolved: ResolvedImport) =>
  mappedBatches(source, resolved.paths, resolved.needed, rowFilterColumns(resolved.mapping), mapperReading(resolved.target, resolved.mapping));

async function resolveImport(ctx: ImportContext, run: ImportRun, fields: Record<string, string>): Promise<ResolvedImport> {
  const mappingConfig = parseMappingField(fields.mapping_config);
  const entityType = fields.entity_type || 'products';
  const resolved = resolveEntityMapping(mappingConfig, entityType);
  if (!resolved.ok) throw validationError(resolved.message);
  const mapping = fields.sheet ? { ...resolved.mapping, sheet: fields.sheet } : resolved.mapping;
  const timeZone = await requestTimeZone(ctx.database.db, fields.time_zone);
  const target = await resolveWriteTarget(ctx.database.db, await ctx.loadConfig(), entityType, mapping, { today: dayInTimeZone(Date.now(), timeZone) });
  // A column new products are named from must be in the file too: a mistyped one is a 400 naming it, not products named by their code.
  // So must the column a line without a code is matched by (blank_code_by_name's new_products.name, ADR 0195 F4).
  const byName = target.codeByName?.products ? [target.codeByName.nameField] : [];
  const needed = [...new Set([...target.mapped.filter((c) => !target.fixed.has(c) && (target.keyColumns.includes(c) || target.blankIsMissing.has(c))), ...(target.newProducts?.fields.map((f) => f.source) ?? []), ...byName])];
  return { entityType, mapping, target, needed, paths: sourcePaths(mapping), timeZone, options: { mapping, salesWriter: fileSalesWriter(fields.mapping_name), undoableAs: run.id ?? undefined, onProgress: (rows) => (run.progress.rowsDone = rows) } };
}

/** Rows typed while the upload arrived, kept as COPY text in a file until the transaction. */
export type StreamedImport = ResolvedImport & { prepared: PreparedRows; pieces: PieceFile; sentTimeZone: string | undefined };

/**
 * An import whose mapping came before its CSV or JSON file reads the file as it arrives: records
 * are typed into COPY text in a file beside the upload, with no database transaction open (a slow
 * or stalled client holds nothing); the transaction then only COPYs and merges. Null when the
 * fields came after the file, or for a workbook: those are spooled and read afterwards.
 */
export async function importWhileArriving(ctx: ImportContext, run: ImportRun, fields: Record<string, string>, file: ArrivingFile, directory: string): Promise<StreamedImport | null> {
  if (!fields.mapping_config || !fields.entity_type || isWorkbook(file.fileName, file.mimeType)) return null;
  await run.open(fields, file.fileName);
  const resolved = await resolveImport(ctx, run, fields);
  const source = await openSource({ stream: file.stream }, file.fileName, file.mimeType, { headerRow: resolved.mapping.header_row ?? null });
  const pieces = await PieceFile.create(path.join(directory, 'rows.copy'));
  try {
    const prepared = await prepareRecords(resolved.target, mappedRecords(source, resolved), resolved.options, pieces.sink);
    return { ...resolved, prepared, pieces, sentTimeZone: fields.time_zone };
  } finally {
    await pieces.close();
  }
}

/** A product's unit cost: a blank one is stored as 0 (the column has no empty value), which the stock values read as "no cost" (dashboard/repo.ts inventoryTotals). */
const isUnitCost = (target: WriteTarget, field: string) => target.encodedName === 'products' && field === 'unit_cost';

/**
 * What the file left to defaults, in words: "12 rows had no lead time: 14 days used (the default)".
 * A label's unit in brackets ("Lead time (days)") goes with the value. A stock left blank is not a
 * count of 0: the product is shown as not counted (ADR 0149).
 */
function defaultWarnings(target: WriteTarget, defaulted: DefaultedColumn[]): ImportWarning[] {
  return defaulted.map(({ field, rows, value }) => {
    const label = target.columns.find((column) => column.key === field)?.label ?? field.replaceAll('_', ' ');
    const [, name = label, unit] = /^(.*?)\s*\(([^()]+)\)$/.exec(label) ?? [];
    const what = `${rows} row${rows === 1 ? '' : 's'} had no ${name.toLowerCase()}`;
    const message = unknownValueRule(target.encodedName, [field])
      ? `${what}: stored as ${value}, and shown as not counted until a count is imported or typed`
      : isUnitCost(target, field)
        ? `${what}: stored as ${value}, and left out of stock values as having no cost until one is imported or typed`
        : `${what}: ${value}${unit ? ` ${unit}` : ''} used (the default)`;
    return { field, rows, value, message };
  });
}

/**
 * Counts the import wrote that do not become on hand (ADR 0030: an older count never overwrites a
 * newer figure), in words: "8 of 9 counts are older than the stock recorded on 4 Dec 2026 (from the
 * product list or the Data screen); on hand stays as recorded then. …". A figure recorded today is
 * what a product list's stock column or the Data screen wrote.
 */
export function outdatedCountsNotice({ older, counted, first_day: first, last_day: last }: OutdatedCounts, today: string): string {
  const recorded = first === last ? `the stock recorded on ${formatDay(last ?? '')}${last === today ? ' (from the product list or the Data screen)' : ''}` : `stock recorded after them (from ${formatDay(first ?? '')} to ${formatDay(last ?? '')})`;
  const counts = older === counted ? (counted === 1 ? 'The count is' : `All ${counted} counts are`) : `${older} of ${counted} counts ${older === 1 ? 'is' : 'are'}`;
  return `${counts} older than ${recorded}; on hand stays as recorded then. Count again or import the counts with today's date.`;
}

/** The key of the target's rows in words: "product and date". */
function keyWords(target: WriteTarget): string {
  const words = target.keyColumns.map((key) => (target.columns.find((column) => column.key === key)?.label ?? key.replaceAll('_', ' ')).toLowerCase());
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? 'key');
}

/** Why a file gave no rows: none in it, or every line left out (by the mapping's row filters, for a blank product code, or as a totals line). */
function nothingToImport({ filtered = 0, skipped = 0, empty_skipped: empty = 0, totals_skipped: totals = 0 }: ImportCounts): string {
  if (!filtered && !skipped && !empty && !totals) return 'The file has no records to import.';
  const reasons = [...(filtered ? [`${filtered} by the mapping's "leave out lines where"`] : []), ...(skipped ? [`${skipped} without a product code`] : []), ...(empty ? [`${empty} with nothing to import`] : []), ...(totals ? [`${totals} as totals lines`] : [])];
  return `Nothing to import: every line of the file was left out (${reasons.join(', ')}).`;
}

/** Imports a received upload for `run` (whose log entry it opens if the upload did not). */
export async function importUpload(ctx: ImportContext, run: ImportRun, upload: ReceivedUpload<StreamedImport>): Promise<ImportResult> {
  const { fields, file, consumed } = upload;
  let outcome: { status: 'success' | 'error'; details: object; errorMessage: string | null } = { status: 'error', details: {}, errorMessage: 'The import did not finish.' };
  try {
    if (!file && !consumed) throw validationError(FIELDS_REQUIRED);
    await run.open(fields, file?.fileName ?? null);
    run.progress.bytesDone = upload.bytes;
    // The file was read as it arrived, with the shop's day of the time zone known then: one sent later cannot count.
    if (consumed && fields.time_zone !== consumed.sentTimeZone) throw validationError(TIME_ZONE_AFTER_FILE);
    const resolved = consumed ?? (await resolveImport(ctx, run, fields));
    const { target, options } = resolved;
    const written = await repo.inImportTransaction(ctx.database, async (session) => {
      // Held until commit or rollback: a log row still "running" whose lock is free belongs to a dead import.
      await session.run(repo.lockImport(run.id as string));
      let result: WriteOutcome;
      if (consumed) {
        await createStaging(session, target);
        await consumed.pieces.replay(stagingSink(session, target));
        result = await mergeStaged(session, target, consumed.prepared, options);
      } else {
        const spooled = file as ReceivedFile;
        const source = await openSource({ path: spooled.path }, spooled.fileName, spooled.mimeType, { sheet: resolved.mapping.sheet ?? null, headerRow: resolved.mapping.header_row ?? null });
        result = await writeRecords(session, target, mappedRecords(source, resolved), options);
      }
      if (result.rowErrorCount) throw new ImportRowsError(result.rowErrors.slice(0, MAX_REPORTED_ROW_ERRORS), result.rowErrorCount, result.refusedChoices);
      if (result.counts.rows === 0) throw validationError(nothingToImport(result.counts));
      // Its sales (ADR 0174) or stock counts (ADR 0175) as they were before it are kept for an undo.
      const salesWritten = keepsSalesParts(target) && options.salesWriter ? await repo.keepSalesImport(session, run.id as string, options.salesWriter) : undefined;
      const stockWritten = keepsStockCounts(target) ? await repo.keepStockImport(session, run.id as string, resolved.timeZone) : undefined;
      return {
        ...result,
        salesWritten: salesWritten?.first_day && salesWritten.last_day ? { product_days: salesWritten.product_days, first_day: salesWritten.first_day, last_day: salesWritten.last_day } : undefined,
        stockWritten: stockWritten?.counts ? stockWritten : undefined,
      };
    }, { timeZone: resolved.timeZone });
    const { counts } = written;
    await ctx.onTableImported({ table: target.tableName, columns: target.mapped, deleted: 0 });
    const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
    // The entity as the Import screen names it ("stock counts"), not its table (stock_snapshots).
    const into = entityInSentence(resolved.entityType);
    const imported =
      counts.duplicates > 0
        ? written.repeatedKeys === 'sum'
          ? `Imported ${counts.rows} lines into ${into}, added up into ${rows(counts.rows - counts.duplicates)}, one per ${keyWords(target)}:`
          : `Imported ${rows(counts.rows)} into ${into}: ${counts.duplicates} repeated key${counts.duplicates === 1 ? '' : 's'}, the last row of each was kept, ${rows(counts.rows - counts.duplicates)}:`
        : `Imported ${rows(counts.rows)} into ${into}:`;
    const skipped = `${matchedByNameMessage(counts.matched_by_name ?? 0, target.codeByName)}${skippedMessage(counts.skipped ?? 0)}${emptySkippedMessage(counts.empty_skipped ?? 0)}${totalsSkippedMessage(written.totalsSkipped)}`;
    const filtered = filteredMessage(counts, resolved.mapping);
    const created = `${restoredCodesMessage(written.restoredCodes)}${newProductsMessage(counts.created_references ?? 0, written.newProducts)}`;
    // Sales kept per writer add up: said when this file's were added to another's (ADR 0164).
    const added = addedToMessage(written.addedTo);
    // And when they replaced different totals of this mapping's earlier import: another till's file under the same mapping loses the first till's.
    const mappingName = fields.mapping_name || null;
    const replaced = replacedOwnMessage(written.replacedOwn, mappingName);
    const replacedSales = written.replacedOwn ? { mapping_name: mappingName, product_days: written.replacedOwn.days, first_day: written.replacedOwn.from, last_day: written.replacedOwn.to } : null;
    const warnings = defaultWarnings(target, written.defaulted);
    const notices = [
      ...(written.outdatedCounts?.older ? [outdatedCountsNotice(written.outdatedCounts, dayInTimeZone(Date.now(), resolved.timeZone))] : []),
      ...foldedSupplierNotices(written.foldedSuppliers ?? [], 'the file'),
    ];
    const dateOrder = written.dateOrder ? detectedDateOrderMessage(written.dateOrder) : '';
    const units = unitsAsWrittenMessage(written.unitsAsWritten);
    const result: ImportResult = {
      message: `${imported} ${counts.inserted} inserted, ${counts.updated} updated.${added}${replaced}${created}${units}${skipped}${filtered}${dateOrder ? ` ${dateOrder}` : ''}`,
      import_id: run.id as string,
      entity_type: resolved.entityType,
      table: target.tableName,
      counts,
      repeated_keys: written.repeatedKeys,
      duration_ms: run.durationMs,
      ...(warnings.length ? { warnings } : {}),
      ...(notices.length ? { notices } : {}),
      ...(written.newProducts.length ? { new_products: written.newProducts } : {}),
      ...(replacedSales ? { replaced_sales: replacedSales } : {}),
      ...(written.salesWritten ? { sales_written: written.salesWritten } : {}),
      ...(written.stockWritten ? { stock_written: written.stockWritten } : {}),
    };
    outcome = {
      status: 'success',
      // The log shows no message: the date order detected is said on its own, not among the notices of what did not change.
      details: { counts, repeated_keys: written.repeatedKeys, duration_ms: result.duration_ms, bytes: upload.bytes, ...(warnings.length ? { warnings } : {}), ...(notices.length ? { notices } : {}), ...(dateOrder ? { dates_read: dateOrder } : {}), ...(replacedSales ? { replaced_sales: replacedSales } : {}), ...(written.salesWritten ? { sales_written: written.salesWritten } : {}), ...(written.stockWritten ? { stock_written: written.stockWritten } : {}) },
      errorMessage: null,
    };
    return result;
  } catch (error) {
    const failure = asImportError(error);
    outcome = {
      status: 'error',
      details: { duration_ms: run.durationMs, bytes: upload.bytes, ...(failure instanceof ImportRowsError ? failure.details() : {}) },
      errorMessage: failure.message,
    };
    throw failure;
  } finally {
    await run.finish({ ...outcome, fileContent: loggedContent(upload) });
  }
}

/** Which way round the file's slashed dates were read, when the import detected it (the mapping's format was Detect): "Dates were read month-first (mm/dd/yyyy)." */
export const detectedDateOrderMessage = (order: 'dd/mm/yyyy' | 'mm/dd/yyyy'): string => `Dates were read ${order === 'mm/dd/yyyy' ? 'month' : 'day'}-first (${order}).`;

/** A failure of the import as the 4xx it is; anything else stays a server error (logged). */
export function asImportError(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (error instanceof FileFormatError) return validationError(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

type LogRow = Awaited<ReturnType<typeof repo.listImportLogs>>[number] & { file_content?: string | null };

export function presentImportLog(row: LogRow, live: ImportProgress | undefined): ImportLogEntry {
  return {
    id: row.id,
    operationType: 'import',
    status: row.status,
    fileName: row.file_name,
    mappingName: row.mapping_name,
    entityType: row.entity_type,
    details: row.details as ImportLogEntry['details'],
    errorMessage: row.error_message,
    fileContent: row.file_content ?? null,
    progress: {
      rows_done: live?.rowsDone ?? row.rows_done,
      bytes_done: live?.bytesDone ?? Number(row.bytes_done),
      bytes_total: row.bytes_total === null ? null : Number(row.bytes_total),
    },
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
    undoable: row.undoable && !row.undone_at,
    undone: row.undone_at ? { at: row.undone_at.toISOString(), by: row.undone_by_name, message: (row.details as { undo?: { message?: string } }).undo?.message ?? '' } : null,
  };
}

/** A "running" import that no process is running any more (it crashed) is closed as failed. */
async function settleAbandoned<T extends { id: string; status: string }>(ctx: ImportContext, row: T, reload: () => Promise<T | undefined>): Promise<T> {
  if (row.status !== 'running' || ctx.progress.has(row.id)) return row;
  if (!(await repo.importLockIsFree(ctx.database.db, row.id))) return row;
  await repo.failInterruptedImport(ctx.database.db, row.id);
  return (await reload()) ?? row;
}

// A running import of this process is answered from memory: on PGlite its open transaction holds
// the only connection, so a progress poll that read the log row would wait for the import to end.
const presentLiveImport = (id: string, live: ImportProgress): ImportLogEntry => ({
  id,
  operationType: 'import',
  status: 'running',
  fileName: live.fileName,
  mappingName: live.mappingName,
  entityType: live.entityType,
  details: {},
  errorMessage: null,
  fileContent: null,
  progress: { rows_done: live.rowsDone, bytes_done: live.bytesDone, bytes_total: live.bytesTotal },
  createdAt: live.startedAt.toISOString(),
  finishedAt: null,
  undoable: false,
  undone: null,
});

/** Who reads the log: a user sees the file content of their own imports, an admin of every import. */
export type LogReader = { userId: number; isAdmin: boolean };

export async function getImportLog(ctx: ImportContext, id: string, reader: LogReader): Promise<ImportLogEntry> {
  const live = ctx.progress.get(id);
  if (live) return presentLiveImport(id, live);
  const load = () => (UUID.test(id) ? repo.findImportLog(ctx.database.db, id) : Promise.resolve(undefined));
  const row = await load();
  if (!row) throw new AppError('not_found', `Import '${id}' not found.`);
  const settled = await settleAbandoned(ctx, row, load);
  const mayReadContent = reader.isAdmin || settled.created_by === reader.userId;
  return presentImportLog({ ...settled, file_content: mayReadContent ? settled.file_content : null }, ctx.progress.get(id));
}

export async function listImportLogs(ctx: ImportContext) {
  const rows = await repo.listImportLogs(ctx.database.db, 50);
  const settled = [];
  for (const row of rows) settled.push(await settleAbandoned(ctx, row, () => repo.findImportLog(ctx.database.db, row.id)));
  return settled.map((row) => presentImportLog(row, ctx.progress.get(row.id)));
}
