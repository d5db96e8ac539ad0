// SQL of the import feature: the import log, and the import's own transaction, in which each piece
// of the file is COPYed into a temporary staging table and upserted into the data table from there.
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

export const findImportLog = (db: Db, id: string) => db.selectFrom('import_logs').select([...logColumns, 'file_content']).where('id', '=', id).executeTakeFirst();

export const listImportLogs = (db: Db, limit: number) => db.selectFrom('import_logs').select(logColumns).orderBy('created_at', 'desc').limit(limit).execute();

/** Each piece of an import is COPYed here, then upserted into the data table. */
const STAGING_TABLE = 'import_rows';
/** Every staged key, for counting the file's distinct keys at the end. */
const KEYS_TABLE = 'import_keys';
/** The row number in the file, so that of a key repeated in one piece the last row wins. */
export const STAGING_ROW = '_row';
/** Which columns a staged row fills: one '1' or '0' per column. */
export const STAGING_FIELDS = '_fields';

/** The SQL of one import's transaction, on the connection that holds it. */
export type ImportSession = {
  run<Row>(query: RawBuilder<Row>): Promise<Row[]>;
  /** COPY (text format) of `chunks` into the staging table, in the session's transaction. */
  copyIn(columns: string[], chunks: Buffer[]): Promise<void>;
};

const copyStatement = (columns: string[], source: string) => `copy ${STAGING_TABLE} (${columns.map((c) => `"${c}"`).join(', ')}) from ${source}`;

/**
 * Runs `work` in one transaction on one connection, which it holds throughout: COPY needs the
 * driver's own connection (pg-copy-streams on a pool client; PGlite's /dev/blob inside its
 * exclusive transaction), which Kysely's transactions do not hand out.
 */
export async function inImportTransaction<T>(database: AppDatabase, work: (session: ImportSession) => Promise<T>): Promise<T> {
  const compile = <Row>(query: RawBuilder<Row>) => query.compile(database.db);
  if (database.pglite) {
    return database.pglite.transaction((tx) =>
      work({
        run: async (query) => {
          const { sql: text, parameters } = compile(query);
          return (await tx.query<never>(text, [...parameters])).rows;
        },
        copyIn: async (columns, chunks) => {
          await tx.query(copyStatement(columns, "'/dev/blob'"), [], { blob: new Blob(chunks) });
        },
      }),
    );
  }
  if (!database.pool) throw new Error('The database has neither a PostgreSQL pool nor PGlite');
  const client = await database.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    try {
      const result = await work({
        run: async (query) => {
          const { sql: text, parameters } = compile(query);
          return (await client.query(text, [...parameters])).rows;
        },
        copyIn: async (columns, chunks) => {
          const copy = client.query(copyFrom(copyStatement(columns, 'stdin')));
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

type UpsertTarget = { encodedName: string; keyColumns: string[]; columns: string[] };
/** A staged piece: the sets of columns its rows fill, and whether a key appears in it twice. */
type StagedPiece = { fieldSets: string[]; repeatsKey: boolean };

const columnList = (columns: string[]) => sql.join(columns.map((c) => sql.id(c)));

/** Temporary tables with the target's column types and no constraints, dropped at commit. */
export const createStagingTables = (table: UpsertTarget) => [
  sql`create temp table ${sql.id(STAGING_TABLE)} on commit drop as
    select null::int8 as ${sql.id(STAGING_ROW)}, null::text as ${sql.id(STAGING_FIELDS)}, ${columnList(table.columns)} from ${sql.id('data', table.encodedName)} with no data`,
  sql`create temp table ${sql.id(KEYS_TABLE)} on commit drop as select ${columnList(table.keyColumns)} from ${sql.id('data', table.encodedName)} with no data`,
];

/**
 * Fails with 42P10 unless a unique index covers exactly the key columns: plain INSERTs would not
 * notice, and a second import of the file would then add every row again.
 */
export const checkKeyIsUnique = (table: UpsertTarget) =>
  sql`insert into ${sql.id('data', table.encodedName)} (${columnList(table.keyColumns)})
    select ${columnList(table.keyColumns)} from ${sql.id(KEYS_TABLE)} on conflict (${columnList(table.keyColumns)}) do nothing`;

const UNIQUE_VIOLATION = '23505';

/** The staged rows into the table, one INSERT per set of columns, and their keys into the keys table; answers how many rows were new. */
async function writeStaged(session: ImportSession, table: UpsertTarget, piece: StagedPiece, onConflict: boolean): Promise<number> {
  const { fieldSets } = piece;
  const target = sql.id('data', table.encodedName);
  const keys = columnList(table.keyColumns);
  // ON CONFLICT cannot touch one row twice in a statement: of a key repeated in the piece, the last row.
  const source = piece.repeatsKey
    ? sql`(select distinct on (${keys}) * from ${sql.id(STAGING_TABLE)} order by ${keys}, ${sql.id(STAGING_ROW)} desc) latest`
    : sql.id(STAGING_TABLE);
  const writes = fieldSets.map((fields, i) => {
    const columns = table.columns.filter((_, at) => fields[at] === '1');
    const updatable = columns.filter((c) => !table.keyColumns.includes(c));
    const upsert = updatable.length ? sql`on conflict (${keys}) do update set ${sql.join(updatable.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`))}` : sql`on conflict (${keys}) do nothing`;
    // One set of columns (always, for a CSV file) needs no filter.
    const only = fieldSets.length > 1 ? sql`where ${sql.id(STAGING_FIELDS)} = ${fields}` : sql``;
    // xmax = 0 only on a freshly inserted row version.
    return sql`${sql.id(`written_${i}`)} as (
      insert into ${target} (${columnList(columns)}) select ${columnList(columns)} from ${source} ${only}
      ${onConflict ? upsert : sql``} returning (xmax = 0) as inserted)`;
  });
  const written = sql.join(fieldSets.map((_, i) => sql`select inserted from ${sql.id(`written_${i}`)}`), sql` union all `);
  const noted = sql`noted as (insert into ${sql.id(KEYS_TABLE)} select ${keys} from ${sql.id(STAGING_TABLE)})`;
  const [counts] = await session.run(sql<{ inserted: number }>`
    with ${noted}, ${sql.join(writes)} select count(*) filter (where inserted)::int as inserted from (${written}) w`);
  return counts?.inserted ?? 0;
}

/**
 * Upserts the staged piece on the key columns, notes its keys, and empties
 * the staging table; answers how many rows were new, and whether a key was already stored. Rows
 * that fill different columns (JSON records without some fields) go through one INSERT per set of
 * columns, so a missing field keeps its default on insert and its stored value on update.
 *
 * With `insertFirst`, the piece is first tried as a plain INSERT in a savepoint: ON CONFLICT's
 * speculative insertion about doubled PostgreSQL's time for new rows (the import benchmark). A key
 * already stored (by an earlier import, an earlier piece, or another writer just now) fails it
 * with a unique violation, and the piece goes again as an upsert.
 */
export async function upsertStagedRows(session: ImportSession, table: UpsertTarget, piece: StagedPiece & { insertFirst: boolean }): Promise<{ inserted: number; conflicted: boolean }> {
  let written: { inserted: number; conflicted: boolean } | null = null;
  if (piece.insertFirst) {
    await session.run(sql`savepoint import_piece`);
    try {
      written = { inserted: await writeStaged(session, table, piece, false), conflicted: false };
      await session.run(sql`release savepoint import_piece`);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await session.run(sql`rollback to savepoint import_piece`);
    }
  }
  written ??= { inserted: await writeStaged(session, table, piece, true), conflicted: true };
  await session.run(sql`truncate ${sql.id(STAGING_TABLE)}`);
  return written;
}

/** How many distinct keys all the staged pieces held. */
export async function countStagedKeys(session: ImportSession, keyColumns: string[]): Promise<number> {
  const [row] = await session.run(sql<{ n: number }>`select count(*)::int as n from (select 1 from ${sql.id(KEYS_TABLE)} group by ${columnList(keyColumns)}) k`);
  return row?.n ?? 0;
}
