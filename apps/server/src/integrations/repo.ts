// SQL of the integrations feature: the integrations, their run log, and the lock that lets one run
// of an integration go at a time across every process on the database.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { AppDatabase } from '../db/database.ts';
import type { FilteredBy, NewProduct, RetryProgress } from '@stockwise/contract';
import type { Database, IntegrationRejection, IntegrationsTable } from '../db/schema.ts';
import { putBackSalesParts } from '../import/writer-sql.ts';

type Db = Kysely<Database>;
export type IntegrationRow = Omit<Selectable<IntegrationsTable>, 'config_version'> & {
  /** Its version (ADR 0168's amendment): the count of its configuration's saves, as text. */
  version: string;
  /** Who saved the configuration last (null: nobody since it was created, the runs' pause, or an account deleted since). */
  updated_by_username: string | null;
};
export type IntegrationValues = Omit<Insertable<IntegrationsTable>, 'id' | 'created_at' | 'updated_at' | 'updated_by'>;

const selectIntegrations = (db: Db) =>
  db
    .selectFrom('integrations as i')
    .leftJoin('users as editor', 'editor.id', 'i.updated_by')
    .selectAll('i')
    .select([sql<string>`i.config_version::text`.as('version'), 'editor.username as updated_by_username']);

export const listIntegrations = (db: Db): Promise<IntegrationRow[]> => selectIntegrations(db).orderBy('i.id').execute();

export const findIntegration = (db: Db, id: number): Promise<IntegrationRow | undefined> => selectIntegrations(db).where('i.id', '=', id).executeTakeFirst();

export const insertIntegration = async (db: Db, values: IntegrationValues): Promise<IntegrationRow> => {
  const { id } = await db.insertInto('integrations').values(values).returning('id').executeTakeFirstOrThrow();
  return (await findIntegration(db, id)) as IntegrationRow;
};

/**
 * A save of the configuration by user `by`: a new version. Only an integration still at version
 * `expected` (when given) is written; undefined when none was.
 */
export const updateIntegration = async (db: Db, id: number, values: Updateable<IntegrationsTable>, save: { by: number; expected: string | undefined }) => {
  const written = await db
    .updateTable('integrations')
    .set({ ...values, updated_at: sql`now()`, updated_by: save.by, config_version: sql`config_version + 1` })
    .where('id', '=', id)
    .$if(save.expected !== undefined, (query) => query.where(sql<string>`config_version::text`, '=', save.expected as string))
    .returning('id')
    .executeTakeFirst();
  return written && findIntegration(db, id);
};

/**
 * The integration, its log, and the notes of which rows it wrote (the rows themselves stay); only
 * one still at version `expected` when given. The row is locked first, so nothing goes of an
 * integration saved meanwhile: 'missing' or 'stale' delete nothing.
 */
export const deleteIntegration = (db: Db, id: number, sourceTag: string, expected: string | undefined) =>
  db.transaction().execute(async (trx): Promise<'deleted' | 'missing' | 'stale'> => {
    const stored = await trx.selectFrom('integrations').select(sql<string>`config_version::text`.as('version')).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!stored) return 'missing';
    if (expected !== undefined && stored.version !== expected) return 'stale';
    await trx.deleteFrom('import_row_sources').where('source', '=', sourceTag).execute();
    await sql`delete from sales_parts_before_run where source = ${sourceTag}`.execute(trx);
    await trx.deleteFrom('integrations').where('id', '=', id).execute();
    return 'deleted';
  });

/** A manual run was queued: shown as queued unless a run is already going. */
export const markQueued = (db: Db, id: number) =>
  db.updateTable('integrations').set({ status: 'queued' }).where('id', '=', id).where('status', '<>', 'running').execute();

export type RunWindow = { from: string; to: string } | null;

/** The run's log entry, and the integration shown running; both or neither. */
export const startRun = (db: Db, id: number, trigger: 'schedule' | 'manual', window: RunWindow) =>
  db.transaction().execute(async (trx) => {
    const log = await trx
      .insertInto('integration_logs')
      .values({ integration_id: id, trigger, window_from: window?.from ?? null, window_to: window?.to ?? null })
      .returning(['id', 'started_at'])
      .executeTakeFirstOrThrow();
    await trx.updateTable('integrations').set({ status: 'running', current_run_id: log.id, last_run_time: log.started_at }).where('id', '=', id).execute();
    return log;
  });

/**
 * `kept`: rows replace would have deleted that rows of data tables refer to (ADR 0139's amendment);
 * `filtered`: lines the mapping's row filters left out; `skipped`: lines skip_rows_without_code left
 * out for a blank product code; `created`: products created for unknown codes.
 */
export type RunCounts = { pages: number; requests: number; inserted: number; updated: number; rejected: number; deleted: number; kept: number; filtered: number; skipped: number; created: number };

/** What the run's batches left out by row filters and the products they created, and those with the lines left out for a blank code in the file import's words (ADR 0011's amendment). */
export type RunNotes = { filteredBy: FilteredBy[]; newProducts: NewProduct[]; summary: string | null };

/** Where the run is: its counters, first rejected records and notes. */
export type RunProgress = { counts: RunCounts; rejections: IntegrationRejection[]; notes: RunNotes };

/** The run's counters as of now: run in each batch's own transaction, so they match the data committed. */
export const runProgressUpdate = (runId: number, { counts, rejections, notes }: RunProgress) =>
  sql`update integration_logs set pages = ${counts.pages}, requests = ${counts.requests}, rows_inserted = ${counts.inserted},
    rows_updated = ${counts.updated}, rows_rejected = ${counts.rejected}, rows_deleted = ${counts.deleted}, rows_kept = ${counts.kept}, rejections = ${JSON.stringify(rejections)}::jsonb,
    rows_filtered = ${counts.filtered}, rows_skipped = ${counts.skipped}, filtered_by = ${JSON.stringify(notes.filteredBy)}::jsonb, products_created = ${counts.created},
    new_products = ${JSON.stringify(notes.newProducts)}::jsonb, summary = ${notes.summary}
    where id = ${runId}`;

export const learntDateOrderUpdate = (integrationId: number, order: 'dd/mm/yyyy' | 'mm/dd/yyyy') => sql`update integrations set learnt_date_format = ${order} where id = ${integrationId}`;

/** The run's retry of a failing endpoint, or null once a page arrived: outside any batch, at once, for the status polls to read. */
export const recordRetryProgress = async (db: Db, runId: number, progress: RetryProgress | null) => {
  await db.updateTable('integration_logs').set({ progress: progress && JSON.stringify(progress) }).where('id', '=', runId).execute();
};

/** The retry progress of the runs `runIds` (an integration's current run), by run id. */
export const retryProgressOf = async (db: Db, runIds: number[]): Promise<Map<number, RetryProgress>> => {
  if (!runIds.length) return new Map();
  const rows = await db.selectFrom('integration_logs').select(['id', 'progress']).where('id', 'in', runIds).where('progress', 'is not', null).execute();
  return new Map(rows.flatMap((row) => (row.progress ? [[row.id, row.progress] as const] : [])));
};

export const recordRunProgress = async (db: Db, runId: number, progress: RunProgress) => {
  await runProgressUpdate(runId, progress).execute(db);
};

/** What the integration shows of its last finished run's refused records: how many, and the first (where and why). */
export type RunWarning = { rejected: number; firstProblem: string | null };

/** `keptMessage`: what replace kept, in the log entry and beside the integration's status (null: nothing). */
export const finishRunSucceeded = (
  db: Db,
  id: number,
  runId: number,
  outcome: { progress: RunProgress; warning: RunWarning; keptMessage: string | null; successTime: Date },
) =>
  db.transaction().execute(async (trx) => {
    await recordRunProgress(trx, runId, outcome.progress);
    await trx.updateTable('integration_logs').set({ status: 'success', finished_at: sql`now()`, kept_message: outcome.keptMessage, progress: null }).where('id', '=', runId).execute();
    await sql`delete from sales_parts_before_run where run = ${String(runId)}`.execute(trx);
    await trx
      .updateTable('integrations')
      .set({
        status: 'idle',
        current_run_id: null,
        last_error_message: null,
        consecutive_failures: 0,
        last_success_time: outcome.successTime,
        initial_setup_done: true,
        last_run_rejected: outcome.warning.rejected,
        last_run_warning: outcome.warning.firstProblem,
        last_run_kept_message: outcome.keptMessage,
        last_run_summary: outcome.progress.notes.summary,
      })
      .where('id', '=', id)
      .execute();
  });

/**
 * The run failed: logged, the integration shows failed with the reason, and after `pauseAfter`
 * failed runs in a row it switches itself off and says so. Answers whether it paused.
 */
export const finishRunFailed = (db: Db, id: number, runId: number, outcome: { progress: RunProgress; warning: RunWarning; message: string; pauseAfter: number }) =>
  db.transaction().execute(async (trx) => {
    await recordRunProgress(trx, runId, outcome.progress);
    const ended = await endRunFailed(trx, runId, outcome.message);
    const row = await trx
      .updateTable('integrations')
      .set((eb) => ({
        status: 'failed',
        current_run_id: null,
        consecutive_failures: eb('consecutive_failures', '+', 1),
        last_run_rejected: outcome.warning.rejected,
        last_run_warning: outcome.warning.firstProblem,
        last_run_kept_message: null,
        // What the batches committed before the failure left out and created stays true.
        last_run_summary: outcome.progress.notes.summary,
      }))
      .where('id', '=', id)
      .returning(['consecutive_failures'])
      .executeTakeFirst();
    const failures = row?.consecutive_failures ?? 0;
    const paused = failures >= outcome.pauseAfter;
    const message = paused ? `Paused after ${failures} failed runs in a row; switch it on again once the cause is fixed. Last error: ${ended.message}` : ended.message;
    // The pause switches the configuration's `enabled` off: a new version, by nobody, so a form opened
    // before it cannot switch the integration back on unseen (ADR 0168's amendment).
    const pause = paused ? { enabled: false, config_version: sql`config_version + 1`, updated_by: null } : {};
    await trx.updateTable('integrations').set({ last_error_message: message, ...pause }).where('id', '=', id).execute();
    return { paused, message, runMessage: ended.message };
  });

/**
 * Marks run `runId` failed with `message` if it is still marked running, and then puts back the sales
 * parts it replaced (putBackPartsBeforeRun); answers the message, with what was put back. The log
 * row's lock makes a second process that finds the same run cut off wait, and then find it ended.
 */
async function endRunFailed(trx: Db, runId: number, message: string): Promise<{ message: string }> {
  const ended = await trx.updateTable('integration_logs').set({ status: 'failed', finished_at: sql`now()`, error_message: message, progress: null }).where('id', '=', runId).where('status', '=', 'running').returning('id').executeTakeFirst();
  const restored = ended ? await putBackPartsBeforeRun(trx, runId) : 0;
  if (!restored) return { message };
  const full = `${message}${putBackMessage(restored)}`;
  await trx.updateTable('integration_logs').set({ error_message: full }).where('id', '=', runId).execute();
  return { message: full };
}

/**
 * The sales parts run `runId` replaced and still holds, put back as the earlier run left them, and
 * their product-days' totals by the same difference (other sources' parts and typed changes kept);
 * the run's before-images go. A part a later writer replaced since is left alone. Answers how many
 * product-days' totals changed back.
 */
async function putBackPartsBeforeRun(trx: Db, runId: number): Promise<number> {
  const run = String(runId);
  const { rows } = await putBackSalesParts(
    sql`images as (delete from sales_parts_before_run b where b.run = ${run} returning b.sales_id, b.source, b.previous_run, b.previous_quantity),`,
    sql`select i.sales_id, i.source, l.quantity, i.previous_quantity as replaced, i.previous_quantity as previous_part, i.previous_run
      from images i join sales_sources l on l.sales_id = i.sales_id and l.source = i.source and l.run = ${run}`,
  ).execute(trx);
  return rows[0]?.restored ?? 0;
}

const putBackMessage = (restored: number) =>
  restored ? ` ${restored === 1 ? '1 product-day' : `${restored.toLocaleString('en-US')} product-days`} of sales it had changed ${restored === 1 ? 'was' : 'were'} put back as the last complete run left ${restored === 1 ? 'it' : 'them'}.` : '';

export const runningIntegrations = (db: Db) => db.selectFrom('integrations').select(['id', 'current_run_id']).where('status', '=', 'running').execute();

export const countLogs = async (db: Db, id: number) =>
  Number((await db.selectFrom('integration_logs').select((eb) => eb.fn.countAll<number>().as('n')).where('integration_id', '=', id).executeTakeFirstOrThrow()).n);

export const listLogs = (db: Db, id: number, page: { offset: number; limit: number }) =>
  db.selectFrom('integration_logs').selectAll().where('integration_id', '=', id).orderBy('started_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();

const runLockKey = (id: number) => sql`hashtext(${`integration-run:${id}`})`;

/** The run lock of integration `id`, held until `release`; null when another session holds it. */
type RunLock = { release(): Promise<void> };

/**
 * On PostgreSQL a session advisory lock on a connection held for the whole run: another process
 * cannot take it, and a process that dies drops its connection and with it the lock. PGlite has
 * one session in one process, so a set of ids in memory does the same there.
 */
export function createRunLocks(database: AppDatabase) {
  const held = new Set<number>();
  return {
    acquire: async (id: number): Promise<RunLock | null> => {
      if (held.has(id)) return null;
      held.add(id);
      const pool = database.pool;
      if (!pool) return { release: async () => void held.delete(id) };
      const client = await pool.connect().catch((error: unknown) => {
        held.delete(id);
        throw error;
      });
      try {
        const { sql: text, parameters } = sql<{ locked: boolean }>`select pg_try_advisory_lock(${runLockKey(id)}) as locked`.compile(database.db);
        const locked = (await client.query<{ locked: boolean }>(text, [...parameters])).rows[0]?.locked === true;
        if (!locked) {
          client.release();
          held.delete(id);
          return null;
        }
      } catch (error) {
        client.release(error as Error);
        held.delete(id);
        throw error;
      }
      return {
        release: async () => {
          held.delete(id);
          const { sql: text, parameters } = sql`select pg_advisory_unlock(${runLockKey(id)})`.compile(database.db);
          // A connection that cannot unlock is closed instead, which unlocks it too.
          await client.query(text, [...parameters]).then(
            () => client.release(),
            (error: Error) => client.release(error),
          );
        },
      };
    },
    /** Whether no run of `id` goes on anywhere (its lock is free). */
    isFree: async (id: number): Promise<boolean> => {
      if (held.has(id)) return false;
      if (!database.pool) return true;
      return database.db.transaction().execute(async (trx) => (await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${runLockKey(id)}) as free`.execute(trx)).rows[0]?.free === true);
    },
  };
}
export type RunLocks = ReturnType<typeof createRunLocks>;

/** A run cut off by a crash: its log entry and the integration marked failed (committed batches stay). */
export const failInterruptedRun = (db: Db, id: number, runId: number | null, message: string) =>
  db.transaction().execute(async (trx) => {
    const ended = runId === null ? { message } : await endRunFailed(trx, runId, message);
    await trx
      .updateTable('integrations')
      // What the cut-off run refused is in its log entry; the integration shows the failure alone.
      .set((eb) => ({ status: 'failed', current_run_id: null, last_error_message: ended.message, consecutive_failures: eb('consecutive_failures', '+', 1), last_run_rejected: 0, last_run_warning: null, last_run_kept_message: null, last_run_summary: null }))
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  });
