// Imports a CSV or JSON file into an inventory entity's table through a mapping: streamed, every
// row type-checked, COPYed in pieces to a staging table and upserted on the entity key from there,
// all inside ONE transaction, so a file with a bad row writes nothing and a second import of the
// same file leaves the same data (docs/adr/0008-file-import.md).
import { Transform, type Readable } from 'node:stream';
import { type ColumnDefinition, type FieldType, LOGGED_FILE_CONTENT_MAX_BYTES, MAX_REPORTED_ROW_ERRORS, type ImportLogEntry, type ImportResult, type ProductConfig, type RowError } from '@stockwise/contract';
import type { AppDatabase } from '../db/database.ts';
import { AppError, validationError } from '../http/errors.ts';
import { compileRowParser, isReadOnly, withIdColumn, type RowValues } from '../tables/columns.ts';
import { findCatalogueEntry } from '../tables/repo.ts';
import { asRowDataError } from '../tables/service.ts';
import { resolveEntityMapping } from './mapping.ts';
import { FileFormatError, fileKindOf, readMappedRecords } from './parse.ts';
import * as repo from './repo.ts';

// Rows reach the database in pieces of about this many bytes of COPY text, each upserted while
// the next is parsed; PGlite reads a piece whole into its memory.
const PIECE_BYTES = 2 << 20;
// Savepoints that wrote hold sub-transaction ids; past 64 in one transaction PostgreSQL's snapshots
// overflow their cache and every other session's visibility checks slow down until the commit.
const MAX_SAVEPOINTS = 48;

/** Rows of the file on their way to the staging table, as COPY text in chunks. */
type Piece = { chunks: Buffer[]; bytes: number; fieldSets: Set<string>; keys: Set<unknown>; repeatsKey: boolean };

export type ImportProgress = { rowsDone: number; bytesDone: number; bytesTotal: number | null; fileName: string; mappingName: string; entityType: string; startedAt: Date };
export type ImportContext = {
  database: AppDatabase;
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
  const table = await findCatalogueEntry(ctx.database.db, entity.table);
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

// COPY text format: tab-separated, \N for NULL, and backslash escapes for these four characters.
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const copyText = (value: RowValues[string] | undefined) => {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return /[\\\n\r\t]/.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c] as string) : value;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
};

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
  await repo.insertImportLog(ctx.database.db, { id: request.importId, fileName: request.fileName, mappingName: request.mappingName, entityType: request.entityType, bytesTotal: request.bytesTotal, createdBy: request.userId });
  const observed = observeBytes(progress);
  const counts = { rows: 0, inserted: 0, updated: 0, duplicates: 0 };
  const rowErrors: RowError[] = [];
  let rowErrorCount = 0;
  const finish = (outcome: { status: 'success' | 'error'; details: object; errorMessage: string | null }) =>
    repo.finishImportLog(ctx.database.db, request.importId, { ...outcome, fileContent: observed.fileContent(), rowsDone: progress.rowsDone, bytesDone: progress.bytesDone });
  const staged = { ...target, columns: target.columns.filter((c) => !isReadOnly(target.typeOf(c))) };
  const stagedColumns = [repo.STAGING_ROW, repo.STAGING_FIELDS, ...staged.columns];
  const [firstKey] = target.keyColumns;
  const keyOf = target.keyColumns.length === 1 && firstKey ? (values: RowValues) => values[firstKey] : (values: RowValues) => JSON.stringify(target.keyColumns.map((k) => values[k]));

  // The file as pieces of COPY text, each line led by its row number and which columns it fills
  // ('1' or '0' per column: rows that fill different columns are upserted apart). Each batch of
  // records becomes bytes at once: held as strings until the piece is sent, a million rows' worth
  // of small strings kept the garbage collector busy for seconds.
  const pieces = async function* (): AsyncGenerator<Piece> {
    const source = request.file.pipe(observed.transform);
    request.file.once('error', (error) => source.destroy(error));
    let piece: Piece = { chunks: [], bytes: 0, fieldSets: new Set(), keys: new Set(), repeatsKey: false };
    for await (const records of readMappedRecords(source, kind, fieldMappings)) {
      let text = '';
      for (const record of records) {
        counts.rows += 1;
        try {
          if (!record.fields) throw validationError('The record is not an object.');
          const values = parseRow(record.fields, 'create');
          const missingKey = target.keyColumns.find((k) => values[k] === null || values[k] === undefined);
          if (missingKey) throw validationError(`${missingKey}: The key is missing.`, { [missingKey]: ['The key is missing.'] });
          // A file with a bad row writes nothing: from the first one on, rows are only checked.
          if (rowErrorCount) continue;
          let fields = '';
          let line = '';
          for (const column of staged.columns) {
            fields += column in values ? '1' : '0';
            line += `\t${copyText(values[column])}`;
          }
          piece.fieldSets.add(fields);
          const key = keyOf(values);
          if (piece.keys.has(key)) piece.repeatsKey = true;
          else piece.keys.add(key);
          text += `${record.row}\t${fields}${line}\n`;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          rowErrorCount += 1;
          if (rowErrors.length < MAX_REPORTED_ROW_ERRORS) {
            const fields = Object.entries(error.fieldErrors ?? {});
            if (fields.length) for (const [field, reasons] of fields) rowErrors.push({ row: record.row, field, reason: reasons.join(' ') });
            else rowErrors.push({ row: record.row, field: null, reason: error.message });
          }
        }
      }
      progress.rowsDone = counts.rows;
      if (text) {
        const chunk = Buffer.from(text);
        piece.chunks.push(chunk);
        piece.bytes += chunk.length;
      }
      if (piece.bytes >= PIECE_BYTES) {
        yield piece;
        piece = { chunks: [], bytes: 0, fieldSets: new Set(), keys: new Set(), repeatsKey: false };
      }
    }
    if (piece.bytes && !rowErrorCount) yield piece;
  };

  try {
    await repo.inImportTransaction(ctx.database, async (session) => {
      // Held until commit or rollback: a log row still "running" whose lock is free belongs to a dead import.
      await session.run(repo.lockImport(request.importId));
      for (const statement of repo.createStagingTables(staged)) await session.run(statement);
      await session.run(repo.checkKeyIsUnique(staged));
      let insertFirst = true;
      let savepoints = 0;
      // While every piece goes in as plain INSERTs, no key of a piece was stored before, not even by
      // an earlier piece: the file's distinct keys are the pieces' distinct keys, added up.
      let newKeys = 0;
      const write = async (piece: Piece) => {
        await session.copyIn(stagedColumns, piece.chunks);
        const tryInsert = insertFirst && savepoints < MAX_SAVEPOINTS;
        const written = await repo.upsertStagedRows(session, staged, { fieldSets: [...piece.fieldSets], repeatsKey: piece.repeatsKey, insertFirst: tryInsert });
        counts.inserted += written.inserted;
        newKeys += piece.keys.size;
        if (tryInsert) savepoints += 1;
        // A file that meets stored keys likely meets more: the rest goes straight to upserts.
        if (written.conflicted) insertFirst = false;
      };
      // One piece is written while the next is parsed: the database and the parser work at once.
      let writing: Promise<void> = Promise.resolve();
      for await (const piece of pieces()) {
        await writing;
        if (rowErrorCount) continue;
        writing = asRowDataError(() => write(piece));
        // Settled here so a failed write is not an unhandled rejection before the next piece awaits it.
        writing.catch(() => {});
      }
      await writing;
      if (request.isTruncated()) throw tooLarge();
      if (counts.rows === 0) throw validationError('The file has no records to import.');
      if (rowErrorCount) throw new ImportRowsError(rowErrors.slice(0, MAX_REPORTED_ROW_ERRORS), rowErrorCount);
      const distinct = insertFirst ? newKeys : await repo.countStagedKeys(session, staged.keyColumns);
      // A key repeated in the file: the later row wins, as it would in a second import.
      counts.duplicates = counts.rows - distinct;
      // Without columns besides the key, a key already stored is left as it was: not an update.
      counts.updated = staged.columns.some((c) => !staged.keyColumns.includes(c)) ? distinct - counts.inserted : 0;
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
});

export async function getImportLog(ctx: ImportContext, id: string): Promise<ImportLogEntry> {
  const live = ctx.progress.get(id);
  if (live) return presentLiveImport(id, live);
  const load = () => (/^[0-9a-f-]{36}$/i.test(id) ? repo.findImportLog(ctx.database.db, id) : Promise.resolve(undefined));
  const row = await load();
  if (!row) throw new AppError('not_found', `Import '${id}' not found.`);
  return presentImportLog(await settleAbandoned(ctx, row, load), ctx.progress.get(id));
}

export async function listImportLogs(ctx: ImportContext) {
  const rows = await repo.listImportLogs(ctx.database.db, 50);
  const settled = [];
  for (const row of rows) settled.push(await settleAbandoned(ctx, row, () => repo.findImportLog(ctx.database.db, row.id)));
  return settled.map((row) => presentImportLog(row, ctx.progress.get(row.id)));
}
