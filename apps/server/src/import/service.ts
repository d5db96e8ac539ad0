// Imports a CSV or JSON file into an inventory entity's table through a mapping: streamed, every
// row type-checked, upserted on the entity key in batches inside ONE transaction, so a file with a
// bad row writes nothing and a second import of the same file leaves the same data.
import { Transform, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { type ColumnDefinition, type FieldType, LOGGED_FILE_CONTENT_MAX_BYTES, MAX_REPORTED_ROW_ERRORS, type ImportLogEntry, type ImportResult, type ProductConfig, type RowError } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, validationError } from '../http/errors.ts';
import { compileRowParser, withIdColumn, type RowValues } from '../tables/columns.ts';
import { findCatalogueEntry } from '../tables/repo.ts';
import { asRowDataError } from '../tables/service.ts';
import { applyMapping, resolveEntityMapping } from './mapping.ts';
import { FileFormatError, fileKindOf, readRecords } from './parse.ts';
import * as repo from './repo.ts';

const ROWS_PER_BATCH = 5000;

export type ImportProgress = { rowsDone: number; bytesDone: number; bytesTotal: number | null; fileName: string; mappingName: string; entityType: string; startedAt: Date };
export type ImportContext = {
  db: Kysely<Database>;
  loadConfig: () => Promise<ProductConfig>;
  /** Live progress of imports running in this process (the log row is written at start and end). */
  progress: Map<string, ImportProgress>;
  /** Told after a successful import which table changed (new sales mean new forecasts). */
  onTableImported(tableName: string): Promise<void>;
};

export class ImportRowsError extends AppError {
  readonly rowErrors: RowError[];
  readonly rowErrorCount: number;
  constructor(rowErrors: RowError[], rowErrorCount: number) {
    super('validation_error', `${rowErrorCount} row${rowErrorCount === 1 ? '' : 's'} could not be imported; nothing was written.`);
    this.rowErrors = rowErrors;
    this.rowErrorCount = rowErrorCount;
  }
}

type Target = {
  encodedName: string;
  tableName: string;
  keyColumns: string[];
  columns: string[];
  typeOf: (column: string) => FieldType;
  columnDefinitions: ColumnDefinition[];
};

export type ImportRequest = {
  importId: string;
  file: Readable;
  fileName: string;
  mimeType: string;
  mappingConfig: unknown;
  mappingName: string;
  entityType: string;
  bytesTotal: number | null;
  userId: number | null;
  /** True once the upload went over the size limit (the stream then ends early). */
  isTruncated(): boolean;
};

async function resolveTarget(ctx: ImportContext, request: ImportRequest) {
  const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);
  const config = await ctx.loadConfig();
  const entity = config.inventory.entities.find((e) => e.name === request.entityType);
  if (!entity) throw validationError(`No mapping found for entity type: ${request.entityType}`);
  const mapping = resolveEntityMapping(request.mappingConfig, request.entityType);
  if (!mapping.ok) throw validationError(mapping.message);
  const table = await findCatalogueEntry(ctx.db, entity.table);
  if (!table) throw invalid(`table '${entity.table}' of entity '${entity.name}' does not exist.`);
  const known = new Set(['id', ...table.columns.map((c) => c.key)]);
  const unknownTarget = Object.keys(mapping.fieldMappings).find((field) => !known.has(field));
  if (unknownTarget) throw invalid(`mapping target '${unknownTarget}' is not a column of '${table.name}'.`);
  const missingKey = entity.key.find((key) => !(key in mapping.fieldMappings));
  if (missingKey) throw invalid(`the mapping does not fill the key column '${missingKey}'.`);
  const types = new Map(withIdColumn(table.columns).map((c) => [c.key, c.type]));
  const target: Target = {
    encodedName: table.encoded_name,
    tableName: table.name,
    keyColumns: entity.key,
    columns: Object.keys(mapping.fieldMappings),
    typeOf: (column) => types.get(column) ?? 'TextField',
    columnDefinitions: table.columns,
  };
  return { target, fieldMappings: mapping.fieldMappings };
}

/** Counts bytes and keeps the start of the file, for progress and for the log. */
function observeBytes(progress: ImportProgress) {
  const head: Buffer[] = [];
  let headBytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      progress.bytesDone += chunk.length;
      if (headBytes < LOGGED_FILE_CONTENT_MAX_BYTES) {
        head.push(chunk);
        headBytes += chunk.length;
      }
      callback(null, chunk);
    },
  });
  return { transform, fileContent: () => (progress.bytesDone < LOGGED_FILE_CONTENT_MAX_BYTES ? Buffer.concat(head).toString('utf8') : null) };
}

const keyOf = (row: RowValues, keyColumns: string[]) => JSON.stringify(keyColumns.map((k) => row[k] ?? null));

export async function importFile(ctx: ImportContext, request: ImportRequest): Promise<ImportResult> {
  const kind = fileKindOf(request.fileName, request.mimeType);
  if (!kind) throw validationError('Upload a .csv or .json file.');
  const { target, fieldMappings } = await resolveTarget(ctx, request);
  const parseRow = compileRowParser(target.columnDefinitions);
  const started = Date.now();
  const progress: ImportProgress = {
    rowsDone: 0,
    bytesDone: 0,
    bytesTotal: request.bytesTotal,
    fileName: request.fileName,
    mappingName: request.mappingName,
    entityType: request.entityType,
    startedAt: new Date(),
  };
  ctx.progress.set(request.importId, progress);
  await repo.insertImportLog(ctx.db, { id: request.importId, fileName: request.fileName, mappingName: request.mappingName, entityType: request.entityType, bytesTotal: request.bytesTotal, createdBy: request.userId });
  const observed = observeBytes(progress);
  const counts = { rows: 0, inserted: 0, updated: 0, duplicates: 0 };
  const rowErrors: RowError[] = [];
  let rowErrorCount = 0;
  const finish = (outcome: { status: 'success' | 'error'; details: object; errorMessage: string | null }) =>
    repo.finishImportLog(ctx.db, request.importId, { ...outcome, fileContent: observed.fileContent(), rowsDone: progress.rowsDone, bytesDone: progress.bytesDone });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      let batch = new Map<string, RowValues>();
      // One batch is written while the next is parsed: the database and the parser work at once.
      let writing: Promise<void> = Promise.resolve();
      const write = async (rows: RowValues[]) => {
        // Rows carry only the fields their record had: a missing field keeps its default on
        // insert and its stored value on update, so group rows by the columns they fill.
        const groups = new Map<string, RowValues[]>();
        for (const row of rows) {
          const columnsKey = Object.keys(row).sort().join(',');
          const group = groups.get(columnsKey);
          if (group) group.push(row);
          else groups.set(columnsKey, [row]);
        }
        for (const [columnsKey, group] of groups) {
          const written = await asRowDataError(() => repo.upsertRows(trx, { ...target, columns: columnsKey.split(',') }, group));
          counts.inserted += written.inserted;
          counts.updated += written.updated;
        }
      };
      const flush = async () => {
        await writing;
        if (rowErrorCount === 0 && batch.size) {
          const rows = [...batch.values()];
          writing = write(rows);
          // Settled here so a failed write is not an unhandled rejection before the next flush awaits it.
          writing.catch(() => {});
        }
        batch = new Map();
      };
      const source = request.file.pipe(observed.transform);
      request.file.once('error', (error) => source.destroy(error));
      for await (const record of readRecords(source, kind)) {
        counts.rows += 1;
        progress.rowsDone = counts.rows;
        try {
          if (typeof record.value !== 'object' || record.value === null || Array.isArray(record.value)) throw validationError('The record is not an object.');
          const values = parseRow(applyMapping(record.value, fieldMappings), 'create');
          const missingKey = target.keyColumns.find((k) => values[k] === null || values[k] === undefined);
          if (missingKey) throw validationError(`${missingKey}: The key is missing.`, { [missingKey]: ['The key is missing.'] });
          const key = keyOf(values, target.keyColumns);
          // A key repeated in the file: the later row wins, as it would in a second import.
          if (batch.has(key)) counts.duplicates += 1;
          batch.set(key, values);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          rowErrorCount += 1;
          if (rowErrors.length < MAX_REPORTED_ROW_ERRORS) {
            const fields = Object.entries(error.fieldErrors ?? {});
            if (fields.length) for (const [field, reasons] of fields) rowErrors.push({ row: record.row, field, reason: reasons.join(' ') });
            else rowErrors.push({ row: record.row, field: null, reason: error.message });
          }
        }
        if (batch.size >= ROWS_PER_BATCH) await flush();
      }
      if (request.isTruncated()) throw tooLarge();
      if (counts.rows === 0) throw validationError('The file has no records to import.');
      await flush();
      await writing;
      if (rowErrorCount) throw new ImportRowsError(rowErrors.slice(0, MAX_REPORTED_ROW_ERRORS), rowErrorCount);
    });
  } catch (error) {
    // A cut-off upload also breaks the last record: the size limit is the real reason.
    const failure = request.isTruncated()
      ? tooLarge()
      : error instanceof AppError
        ? error
        : error instanceof FileFormatError
          ? validationError(error.message)
          : asUploadError(error);
    await finish({ status: 'error', details: { counts, duration_ms: Date.now() - started, bytes: progress.bytesDone, ...(error instanceof ImportRowsError ? { row_errors: error.rowErrors } : {}) }, errorMessage: failure.message });
    ctx.progress.delete(request.importId);
    throw failure;
  }
  const durationMs = Date.now() - started;
  await ctx.onTableImported(target.tableName);
  await finish({ status: 'success', details: { counts, duration_ms: durationMs, bytes: progress.bytesDone }, errorMessage: null });
  ctx.progress.delete(request.importId);
  return {
    message: `Imported ${counts.rows} row${counts.rows === 1 ? '' : 's'} into ${target.tableName}: ${counts.inserted} inserted, ${counts.updated} updated.`,
    import_id: request.importId,
    entity_type: request.entityType,
    table: target.tableName,
    counts,
    duration_ms: durationMs,
  };
}

const tooLarge = () => new AppError('payload_too_large', 'The file is larger than the upload limit.');

function asUploadError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === '42P10') return validationError('Invalid configuration: the entity key is not a unique key of its table.');
  throw error;
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
  };
}

/** A "running" import that no process is running any more (it crashed) is closed as failed. */
async function settleAbandoned<T extends { id: string; status: string }>(ctx: ImportContext, row: T, reload: () => Promise<T | undefined>): Promise<T> {
  if (row.status !== 'running' || ctx.progress.has(row.id)) return row;
  if (!(await repo.importLockIsFree(ctx.db, row.id))) return row;
  await repo.failInterruptedImport(ctx.db, row.id);
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
});

export async function getImportLog(ctx: ImportContext, id: string): Promise<ImportLogEntry> {
  const live = ctx.progress.get(id);
  if (live) return presentLiveImport(id, live);
  const load = () => (/^[0-9a-f-]{36}$/i.test(id) ? repo.findImportLog(ctx.db, id) : Promise.resolve(undefined));
  const row = await load();
  if (!row) throw new AppError('not_found', `Import '${id}' not found.`);
  return presentImportLog(await settleAbandoned(ctx, row, load), ctx.progress.get(id));
}

export async function listImportLogs(ctx: ImportContext) {
  const rows = await repo.listImportLogs(ctx.db, 50);
  const settled = [];
  for (const row of rows) settled.push(await settleAbandoned(ctx, row, () => repo.findImportLog(ctx.db, row.id)));
  return settled.map((row) => presentImportLog(row, ctx.progress.get(row.id)));
}
