// SQL of the import feature: the import log, and the transaction an import (or an integration
// batch) writes in, on one connection that COPY can use (the writer's SQL is in writer-sql.ts).
import { finished } from 'node:stream/promises';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { AppDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

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
export const lockImport = (id: string) => sql`select pg_advisory_xact_lock(hashtext(${`import:${id}`}))`;

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

export const findImportLog = (db: Db, id: string) => db.selectFrom('import_logs').select([...logColumns, 'file_content', 'created_by']).where('id', '=', id).executeTakeFirst();

export const listImportLogs = (db: Db, limit: number) => db.selectFrom('import_logs').select(logColumns).orderBy('created_at', 'desc').limit(limit).execute();

/** The SQL of one import's transaction, on the connection that holds it. */
export type ImportSession = {
  run<Row>(query: RawBuilder<Row>): Promise<Row[]>;
  /** COPY (text format) of `chunks` into a (temporary) table, in the session's transaction. */
  copyIn(table: string, columns: string[], chunks: Buffer[]): Promise<void>;
};

const IMPORT_WORK_MEM = '64MB';

const copyStatement = (table: string, columns: string[], source: string) => `copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from ${source}`;

const INVALID_PARAMETER_VALUE = '22023';

/**
 * The transaction's day made the shop's: `current_date` in `timeZone` for the stock rules that read
 * it — today's snapshot of a product's stock, the snapshots' trigger that sets on hand, the older-
 * counts check (ADR 0030's amendment of 2026-12-04) — so a count made late in the evening in Berlin
 * is not judged by UTC's day. Timestamps stay absolute (the import writes them with their offset).
 * A zone the runtime knows but the database does not leaves the database's day.
 */
export async function useShopTimeZone(session: Pick<ImportSession, 'run'>, timeZone: string): Promise<void> {
  await session.run(sql`savepoint shop_time_zone`);
  try {
    await session.run(sql`select set_config('TimeZone', ${timeZone}, true)`);
    await session.run(sql`release savepoint shop_time_zone`);
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_PARAMETER_VALUE) throw error;
    await session.run(sql`rollback to savepoint shop_time_zone`);
  }
}

/**
 * Runs `work` in one transaction on one connection, which it holds throughout: COPY needs the
 * driver's own connection (pg-copy-streams on a pool client; PGlite's /dev/blob inside its
 * exclusive transaction), which Kysely's transactions do not hand out. `timeZone`: the shop's
 * (an upload's time_zone, an integration's), whose day `current_date` is in the transaction.
 */
export async function inImportTransaction<T>(database: AppDatabase, work: (session: ImportSession) => Promise<T>, options: { timeZone?: string | undefined } = {}): Promise<T> {
  const compile = <Row>(query: RawBuilder<Row>) => query.compile(database.db);
  const inShopTimeZone = async (session: ImportSession) => {
    if (options.timeZone) await useShopTimeZone(session, options.timeZone);
    return work(session);
  };
  if (database.pglite) {
    return database.pglite.transaction((tx) =>
      inShopTimeZone({
        run: async (query) => {
          const { sql: text, parameters } = compile(query);
          return (await tx.query<never>(text, [...parameters])).rows;
        },
        copyIn: async (table, columns, chunks) => {
          // The pieces are Buffer.from(text): plain ArrayBuffers, never shared ones, as Blob's DOM typing (in the benchmarks' program) asks.
          await tx.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob(chunks as Uint8Array<ArrayBuffer>[]) });
        },
      }),
    );
  }
  if (!database.pool) throw new Error('The database has neither a PostgreSQL pool nor PGlite');
  const client = await database.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    // Grouping a file's rows, joining their codes and sorting them for the insert are hash and
    // sort work over the whole file: in memory rather than temporary files (PostgreSQL only; the
    // default 4 MB spills a million-line file to disk; PGlite would take this from the server's memory).
    await client.query(`set local work_mem = '${IMPORT_WORK_MEM}'`);
    try {
      const result = await inShopTimeZone({
        run: async (query) => {
          const { sql: text, parameters } = compile(query);
          return (await client.query(text, [...parameters])).rows;
        },
        copyIn: async (table, columns, chunks) => {
          const copy = client.query(copyFrom(copyStatement(table, columns, 'stdin')));
          for (const chunk of chunks) copy.write(chunk);
          await finished(copy.end());
        },
      });
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
  } finally {
    // A connection that could not even roll back is closed, not handed to the next request.
    client.release(broken);
  }
}
