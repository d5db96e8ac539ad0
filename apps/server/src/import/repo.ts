// SQL of the import feature: the import log, and the transaction an import (or an integration
// batch) writes in, on one connection that COPY can use (the writer's SQL is in writer-sql.ts).
import { finished } from 'node:stream/promises';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { AppDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { MERGED_TABLE, putBackSalesParts } from './writer-sql.ts';

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

const logColumns = ['id', 'status', 'file_name', 'mapping_name', 'entity_type', 'details', 'error_message', 'rows_done', 'bytes_done', 'bytes_total', 'created_at', 'finished_at', 'undone_at'] as const;
/** Whether the import's before-images are kept (its sales, ADR 0174; its stock counts, ADR 0175), and who undid it. */
const undoColumns = [
  sql<boolean>`(exists (select 1 from sales_imports_kept k where k.import_id = import_logs.id) or exists (select 1 from stock_imports_kept k where k.import_id = import_logs.id))`.as('undoable'),
  sql<string | null>`(select u.username from users u where u.id = import_logs.undone_by)`.as('undone_by_name'),
];

export const findImportLog = (db: Db, id: string) => db.selectFrom('import_logs').select([...logColumns, ...undoColumns, 'file_content', 'created_by']).where('id', '=', id).executeTakeFirst();

export const listImportLogs = (db: Db, limit: number) => db.selectFrom('import_logs').select([...logColumns, ...undoColumns]).orderBy('created_at', 'desc').limit(limit).execute();

/** Sales imports whose before-images are kept for an undo (ADR 0174); older ones are dropped by the next. */
export const KEPT_SALES_IMPORTS = 20;
/** Stock count imports whose before-images are kept for an undo (ADR 0175), by the same rule. */
export const KEPT_STOCK_IMPORTS = 20;

/** The before-images of the imports beyond the last `keep` of `kept` (sales or stock counts) go, from each of `images`, with their place among the kept. */
const dropOlderImports = (kept: 'sales_imports_kept' | 'stock_imports_kept', images: readonly ('sales_parts_before_import' | 'sales_days_created_by_import' | 'stock_counts_before_import')[], keep: number) => sql`
  with dropped as (
    delete from ${sql.id(kept)} where seq <= (select seq from ${sql.id(kept)} order by seq desc offset ${keep} limit 1) returning import_id),
  ${sql.join(images.map((table) => sql`${sql.id(`dropped_${table}`)} as (delete from ${sql.id(table)} b using dropped d where b.import_id = d.import_id)`))}
  select count(*) from dropped`;

/**
 * After a sales file's write (its before-images written under `importId`), in its transaction and
 * under the sales table's import lock: the import is kept as the latest (seq), the before-images of
 * imports beyond the last KEPT_SALES_IMPORTS go, and answers the product-days it wrote, first and last.
 */
export async function keepSalesImport(session: Pick<ImportSession, 'run'>, importId: string, source: string) {
  await session.run(sql`insert into sales_imports_kept (import_id, source) values (${importId}, ${source})`);
  await session.run(dropOlderImports('sales_imports_kept', ['sales_parts_before_import', 'sales_days_created_by_import'], KEPT_SALES_IMPORTS));
  const [written] = await session.run(sql<{ product_days: number; first_day: string | null; last_day: string | null }>`
    select count(*)::int as product_days, min(date)::text as first_day, max(date)::text as last_day from ${sql.id(MERGED_TABLE)} where quantity is not null`);
  return written;
}

/** The counts a stock count file wrote (ADR 0175): how many, of them how many replaced a different count and how many were new rows, and their first and last day. */
export type StockCountsWritten = { counts: number; replaced: number; added: number; first_day: string | null; last_day: string | null };

/**
 * After a stock count file's write (its before-images written under `importId`), in its
 * transaction and under the snapshots' import lock: answers what it wrote (StockCountsWritten) and,
 * when it wrote any count, keeps the import as the latest (seq) with the time zone whose day it
 * judged on hand by; the before-images of imports beyond the last KEPT_STOCK_IMPORTS go.
 */
export async function keepStockImport(session: Pick<ImportSession, 'run'>, importId: string, timeZone: string | null): Promise<StockCountsWritten | undefined> {
  const [written] = await session.run(sql<StockCountsWritten>`
    select count(*)::int as counts, (count(*) filter (where i.previous <> i.written))::int as replaced, (count(*) filter (where i.previous is null))::int as added,
      (select min(date)::text from ${sql.id(MERGED_TABLE)} where stock_level is not null) as first_day,
      (select max(date)::text from ${sql.id(MERGED_TABLE)} where stock_level is not null) as last_day
    from stock_counts_before_import i where i.import_id = ${importId}`);
  // A file whose lines all left the count blank wrote none: nothing to undo, and no place among the kept.
  if (!written?.counts) return undefined;
  await session.run(sql`insert into stock_imports_kept (import_id, time_zone) values (${importId}, ${timeZone})`);
  await session.run(dropOlderImports('stock_imports_kept', ['stock_counts_before_import'], KEPT_STOCK_IMPORTS));
  return written;
}

/** The log entry an undo is asked of, locked until the undo's transaction ends: a second undo waits, then finds it undone. */
export const lockImportLogForUndo = (trx: Db, id: string) =>
  trx
    .selectFrom('import_logs')
    .select(['id', 'status', 'file_name', 'mapping_name', 'entity_type', 'details', 'undone_at', 'created_at'])
    .select([sql<string | null>`(select u.username from users u where u.id = import_logs.undone_by)`.as('undone_by_name')])
    .select([sql<string | null>`(select k.source from sales_imports_kept k where k.import_id = import_logs.id)`.as('source')])
    .select([sql<boolean>`exists (select 1 from stock_imports_kept k where k.import_id = import_logs.id)`.as('stock_kept')])
    .select([sql<string | null>`(select k.time_zone from stock_imports_kept k where k.import_id = import_logs.id)`.as('time_zone')])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

/**
 * Every part import `importId` wrote under `source`, with the part written, what the write took out
 * of the day's total, the part it was (null: none), and whether it created the day: its
 * before-images, and the days it created as its plain insert noted them (ranges of ids, migration
 * 0600), each the part its source holds now (`ranged`; a later write of the day by the same source
 * keeps a before-image of its own, which partsChangedSince finds first).
 */
const partsWrittenBy = (importId: string, source: string) => sql`
  select i.sales_id, i.written, i.replaced, i.previous_part, i.created, false as ranged from sales_parts_before_import i where i.import_id = ${importId}
  union all
  select l.sales_id, l.quantity, 0, null::int, true, true
  from sales_days_created_by_import c join sales_sources l on l.source = ${source} and l.sales_id between c.first_id and c.last_id
  where c.import_id = ${importId}`;

/**
 * Of the parts import `importId` wrote under `source`, those changed since (ADR 0174): by a later
 * import under the same source (its before-image of the same day), or no longer the part written
 * (the day was deleted, with its parts; a day it created and kept as a range is then missing from
 * its range, and counted as gone). Answers how many, how many of them are gone, and the latest later
 * import that wrote any of them (its file, mapping and when it finished) with how many later imports did.
 */
export const partsChangedSince = (trx: Db, importId: string, source: string) =>
  sql<{ changed: number; gone: number; later_imports: number; file_name: string | null; mapping_name: string | null; finished_at: Date | null }>`
    with later as (
      select k.import_id, k.seq from sales_imports_kept k
      where k.source = ${source} and k.seq > (select seq from sales_imports_kept where import_id = ${importId})),
    written as (${partsWrittenBy(importId, source)}),
    changed as (
      select w.sales_id, l.sales_id is null as gone,
        (select max(k.seq) from later k where exists (select 1 from sales_parts_before_import o where o.import_id = k.import_id and o.sales_id = w.sales_id)) as by_seq
      from written w left join sales_sources l on l.sales_id = w.sales_id and l.source = ${source}
      where l.quantity is distinct from w.written
        or exists (select 1 from later k join sales_parts_before_import o on o.import_id = k.import_id and o.sales_id = w.sales_id)),
    created_gone as (
      select (select coalesce(sum(c.last_id - c.first_id + 1), 0) from sales_days_created_by_import c where c.import_id = ${importId})
        - (select count(*) from written where ranged) as n)
    select (select count(*) from changed)::int + n::int as changed, (select count(*) from changed where gone)::int + n::int as gone,
      (select count(distinct by_seq)::int from changed) as later_imports, g.file_name, g.mapping_name, g.finished_at
    from created_gone left join (
      select l.file_name, l.mapping_name, l.finished_at from sales_imports_kept k join import_logs l on l.id = k.import_id
      where k.seq = (select max(by_seq) from changed)) g on true`.execute(trx);

/**
 * Puts back every part import `importId` wrote under `source` to its before-image, and the days'
 * totals by the same difference (putBackSalesParts); then a day the import created that holds no
 * part and nothing any more goes. Its before-images, its ranges of created days and its place among
 * the kept imports go. Answers how many days' totals changed back and how many days went.
 */
export async function putBackSalesImport(trx: Db, importId: string, source: string): Promise<{ restored: number; removed: number }> {
  const { rows } = await putBackSalesParts(
    sql``,
    sql`select w.sales_id, ${source}::text as source, w.written as quantity, w.replaced, w.previous_part, null::text as previous_run
      from (${partsWrittenBy(importId, source)}) w`,
  ).execute(trx);
  const { rows: removed } = await sql<{ removed: number }>`
    with removed as (
      delete from data.sales t using (
        select i.sales_id as id from sales_parts_before_import i where i.import_id = ${importId} and i.created
        union all
        select s.id from sales_days_created_by_import c join data.sales s on s.id between c.first_id and c.last_id where c.import_id = ${importId}) c
      where t.id = c.id and t.quantity = 0
        and not exists (select 1 from sales_sources l where l.sales_id = t.id)
      returning t.id)
    select count(*)::int as removed from removed`.execute(trx);
  await sql`delete from sales_parts_before_import where import_id = ${importId}`.execute(trx);
  await sql`delete from sales_days_created_by_import where import_id = ${importId}`.execute(trx);
  await sql`delete from sales_imports_kept where import_id = ${importId}`.execute(trx);
  return { restored: rows[0]?.restored ?? 0, removed: removed[0]?.removed ?? 0 };
}

/** The entity an import wrote, read before the undo takes its table's turn (null: no such import). */
export const importEntityType = async (db: Db, id: string) => (await db.selectFrom('import_logs').select('entity_type').where('id', '=', id).executeTakeFirst())?.entity_type ?? null;

/**
 * Of the counts import `importId` wrote, those changed since (ADR 0175): by a later stock count
 * import (its before-image of the same row), or — not by one — deleted, or no longer the count
 * written (typed on the Data screen, a product list's stock, an integration's count). Answers how
 * many of each, and the latest later import that wrote any (its file, mapping and when it finished)
 * with how many later imports did.
 */
export const countsChangedSince = (trx: Db, importId: string) =>
  sql<{ by_imports: number; gone: number; edited: number; later_imports: number; file_name: string | null; mapping_name: string | null; finished_at: Date | null }>`
    with later as (
      select k.import_id, k.seq from stock_imports_kept k where k.seq > (select seq from stock_imports_kept where import_id = ${importId})),
    later_images as (
      select o.snapshot_id, max(k.seq) as by_seq from later k join stock_counts_before_import o on o.import_id = k.import_id group by o.snapshot_id),
    changed as (
      select l.by_seq, t.id is null as gone
      from stock_counts_before_import i left join data.stock_snapshots t on t.id = i.snapshot_id
        left join later_images l on l.snapshot_id = i.snapshot_id
      where i.import_id = ${importId} and (l.by_seq is not null or t.stock_level is distinct from i.written))
    select (count(*) filter (where by_seq is not null))::int as by_imports, (count(*) filter (where by_seq is null and gone))::int as gone,
      (count(*) filter (where by_seq is null and not gone))::int as edited, count(distinct by_seq)::int as later_imports, g.file_name, g.mapping_name, g.finished_at
    from changed left join (
      select l.file_name, l.mapping_name, l.finished_at from stock_imports_kept k join import_logs l on l.id = k.import_id
      where k.seq = (select max(by_seq) from changed)) g on true
    group by g.file_name, g.mapping_name, g.finished_at`.execute(trx);

/**
 * Puts back every count import `importId` wrote to the one it replaced — the snapshots' trigger
 * (migration 0030) sets on hand again from the latest — and deletes the rows it created; a product
 * whose on-hand figure was such a row's count then takes its latest count left up to today, or 0
 * (not counted) when none is left, as the trigger's rule would have it. `current_date` is the
 * import's day (the transaction runs in its time zone). Its before-images and its place among the
 * kept imports go. Answers how many counts were put back and how many rows went.
 */
export async function putBackStockImport(trx: Db, importId: string): Promise<{ restored: number; removed: number }> {
  const { rows: restored } = await sql<{ restored: number }>`
    with restored as (
      update data.stock_snapshots t set stock_level = i.previous from stock_counts_before_import i
      where i.import_id = ${importId} and t.id = i.snapshot_id and i.previous <> i.written returning 1)
    select count(*)::int as restored from restored`.execute(trx);
  const { rows: removed } = await sql<{ removed: number }>`
    with removed as (
      delete from data.stock_snapshots t using stock_counts_before_import i
      where i.import_id = ${importId} and i.previous is null and t.id = i.snapshot_id
      returning t.id, t.product_id, t.date),
    on_hand as (select product_id, max(date) as day from removed where date <= current_date group by product_id),
    recounted as (
      update data.products p set current_stock = coalesce((
        select s.stock_level from data.stock_snapshots s
        where s.product_id = p.id and s.date <= current_date and not exists (select 1 from removed r where r.id = s.id)
        order by s.date desc limit 1), 0)
      from on_hand h
      where p.id = h.product_id and not exists (select 1 from data.stock_snapshots s where s.product_id = p.id and s.date > h.day and s.date <= current_date))
    select count(*)::int as removed from removed`.execute(trx);
  await sql`delete from stock_counts_before_import where import_id = ${importId}`.execute(trx);
  await sql`delete from stock_imports_kept where import_id = ${importId}`.execute(trx);
  return { restored: restored[0]?.restored ?? 0, removed: removed[0]?.removed ?? 0 };
}

/** The undo, on the log entry: who and when, and what it did (details.undo). */
export const recordUndo = (trx: Db, id: string, undo: { userId: number | null; details: object }) =>
  trx
    .updateTable('import_logs')
    .set({ undone_at: sql`now()`, undone_by: undo.userId, details: sql`details || jsonb_build_object('undo', ${JSON.stringify(undo.details)}::jsonb)` })
    .where('id', '=', id)
    .execute();

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
