// SQL of the import feature: the import log and batched upserts into a data table.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FieldType } from '@stockwise/contract';
import { arrayTypeOf, type RowValues } from '../tables/columns.ts';

type Db = Kysely<Database>;

export const insertImportLog = (db: Db, entry: { id: string; fileName: string; mappingName: string; entityType: string; bytesTotal: number | null; createdBy: number | null }) =>
  db
    .insertInto('import_logs')
    .values({ id: entry.id, status: 'running', file_name: entry.fileName, mapping_name: entry.mappingName, entity_type: entry.entityType, bytes_total: entry.bytesTotal, created_by: entry.createdBy })
    .execute();

export const finishImportLog = (
  db: Db,
  id: string,
  outcome: { status: 'success' | 'error'; details: object; errorMessage: string | null; fileContent: string | null; rowsDone: number; bytesDone: number },
) =>
  db
    .updateTable('import_logs')
    .set({
      status: outcome.status,
      details: JSON.stringify(outcome.details),
      error_message: outcome.errorMessage,
      file_content: outcome.fileContent,
      rows_done: outcome.rowsDone,
      bytes_done: outcome.bytesDone,
      finished_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();

/** The import's transaction holds this lock; it is released with the transaction, also by a crash. */
export const lockImport = (db: Db, id: string) => sql`select pg_advisory_xact_lock(hashtext(${`import:${id}`}))`.execute(db);

export const importLockIsFree = (db: Db, id: string) =>
  db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(hashtext(${`import:${id}`})) as free`.execute(trx);
    return rows[0]?.free === true;
  });

/** An import cut off by a crash: its transaction never committed, so nothing of it was written. */
export const failInterruptedImport = (db: Db, id: string) =>
  db
    .updateTable('import_logs')
    .set({ status: 'error', error_message: 'Interrupted: the server stopped during the import, so nothing was written. Import the file again.', finished_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();

const logColumns = ['id', 'status', 'file_name', 'mapping_name', 'entity_type', 'details', 'error_message', 'rows_done', 'bytes_done', 'bytes_total', 'created_at', 'finished_at'] as const;

export const findImportLog = (db: Db, id: string) => db.selectFrom('import_logs').select([...logColumns, 'file_content']).where('id', '=', id).executeTakeFirst();

export const listImportLogs = (db: Db, limit: number) => db.selectFrom('import_logs').select(logColumns).orderBy('created_at', 'desc').limit(limit).execute();

/**
 * Inserts or updates rows on the key columns; answers how many were new. Each column travels as
 * one array parameter (unnest), so a batch costs a handful of parameters, not rows × columns.
 */
export async function upsertRows(
  db: Db,
  table: { encodedName: string; keyColumns: string[]; columns: string[]; typeOf: (column: string) => FieldType },
  rows: RowValues[],
): Promise<{ inserted: number; updated: number }> {
  if (!rows.length) return { inserted: 0, updated: 0 };
  const target = sql.id('data', table.encodedName);
  const columnList = sql.join(table.columns.map((c) => sql.id(c)));
  const arrays = sql.join(table.columns.map((c) => sql`${rows.map((row) => row[c] ?? null)}::${arrayTypeOf(table.typeOf(c))}`));
  const updatable = table.columns.filter((c) => !table.keyColumns.includes(c));
  const onConflict = updatable.length
    ? sql`do update set ${sql.join(updatable.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`))}`
    : sql`do nothing`;
  // xmax = 0 only on a freshly inserted row version.
  const { rows: written } = await sql<{ inserted: boolean }>`
    insert into ${target} (${columnList}) select * from unnest(${arrays})
    on conflict (${sql.join(table.keyColumns.map((c) => sql.id(c)))}) ${onConflict}
    returning (xmax = 0) as inserted`.execute(db);
  const inserted = written.filter((r) => r.inserted).length;
  return { inserted, updated: written.length - inserted };
}
