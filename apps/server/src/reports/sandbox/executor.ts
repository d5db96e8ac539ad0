// Runs checked report SQL: READ ONLY, one cursor, a row cap and a deadline. PostgreSQL: a pool
// logging in as the report role (NOSUPERUSER, NOINHERIT, SELECT on the data schema only) with
// statement_timeout. PGlite (one superuser session): a ceiling on the plan's worst-case cost
// (plan-cost.ts) before running, then rows fetched in small batches with the deadline checked
// between them (docs/security.md).
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { ResultColumn, ResultRow, SqlErrorDetails } from '@stockwise/contract';
import { characterCount, type TextPlace } from './error-place.ts';
import { CURSOR_NAME, type CheckedSql } from './gate.ts';
import { EXPLAIN_PLAN, PGLITE_COST_PER_SECOND, worstCaseCost, type PlanNode } from './plan-cost.ts';
import { describeColumns, toResultRows, type ResultField } from './values.ts';

export type ReportFailureKind = 'refused' | 'timeout' | 'too_expensive' | 'sql_error' | 'unavailable';

/** What PostgreSQL or the gate adds to a message: its hint and detail, and where in the user's SQL. */
export type ErrorNotes = { hint?: string | null; detail?: string | null; at?: TextPlace | null };

/** A report that did not run, with a message meant for the person who wrote it. */
export class ReportRunError extends Error {
  readonly kind: ReportFailureKind;
  private readonly notes: ErrorNotes;
  constructor(kind: ReportFailureKind, message: string, notes: ErrorNotes = {}) {
    super(message);
    this.kind = kind;
    this.notes = notes;
  }

  get details(): SqlErrorDetails {
    const { hint, detail, at } = this.notes;
    return { message: this.message, hint: hint ?? null, detail: detail ?? null, line: at?.line ?? null, column: at?.column ?? null };
  }
}

/** PostgreSQL's error on a statement holding the cursor's text `offset` characters in: its position can be traced to the user's SQL. */
class CursorStatementError extends Error {
  readonly offset: number;
  constructor(cause: unknown, offset: number) {
    super('report statement failed', { cause });
    this.offset = offset;
  }
}

/** Runs a statement that holds the cursor's text `offset` characters in. */
async function holdingCursor<T>(offset: number, statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    throw new CursorStatementError(error, offset);
  }
}

/**
 * `today`: the day the report's `current_date` meant (in the viewer's time zone, in its own transaction); `ends`: the last
 * day its own date filter lets in, on that day (null: no filter ends it); `starts`: the first (null: none starts it).
 */
export type SandboxRun = { columns: ResultColumn[]; rows: ResultRow[]; truncated: boolean } & DayOfRun;
/** `timeZone`: the viewer's, else the shop's (an IANA name the route checked or read), whose day `current_date` and `now()` mean; UTC without one. */
export type RunOptions = { deadline: number; timeoutMs: number; maxRows: number; timeZone?: string | undefined };

export interface ReportSandbox {
  readonly mode: 'postgres' | 'embedded';
  run(checked: CheckedSql, options: RunOptions): Promise<SandboxRun>;
  close(): Promise<void>;
}

const sessionSettings = (timeoutMs: number | null, timeZone = 'UTC') =>
  [
    timeoutMs === null ? null : `set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`,
    // Only pg_catalog resolves unqualified names: every relation was qualified by the gate.
    'set local search_path = pg_catalog',
    // The gate parsed the text with standard strings; the session must read it the same way.
    'set local standard_conforming_strings = on',
    // "This month" and "today" are the viewer's: in Ohio at 8 pm it is not tomorrow yet (ADR 0030).
    `set local timezone = '${timeZone.replaceAll("'", "''")}'`,
    `set local datestyle = 'ISO, YMD'`,
    `set local intervalstyle = 'postgres'`,
  ]
    .filter(Boolean)
    .join('; ');

const timedOut = (timeoutMs: number) => new ReportRunError('timeout', `The report ran longer than ${formatSeconds(timeoutMs)} and was stopped. Filter or aggregate more, or narrow the period.`);
const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** Seconds, minutes or hours, rounded down: "more than" stays true. */
function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 120) return `${Math.floor(seconds * 10) / 10} s`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600).toLocaleString('en')} h`;
}

/** A report over the cost ceiling, told in a shop user's words: how long it could take, and what usually makes a report that heavy. */
function tooLong(cost: number, timeoutMs: number): ReportRunError {
  const couldTakeMs = (cost / PGLITE_COST_PER_SECOND) * 1000;
  const why =
    couldTakeMs > timeoutMs
      ? `This report would take too long for the built-in database: it could run for more than ${formatDuration(couldTakeMs)}, and reports may take ${formatSeconds(timeoutMs)}.`
      : 'This report is heavier than this server allows on the built-in database.';
  return new ReportRunError(
    'too_expensive',
    `${why} It was not started, because it could not be stopped once running. ` +
      'If it combines tables, link them (for example join products p on p.id = s.product_id); otherwise narrow the dates or choose fewer products.',
  );
}

/** PostgreSQL's error fields, as pg and PGlite both give them (position: 1-based characters into the statement sent, as text). */
type PostgresError = { code?: string; position?: string; hint?: string; detail?: string };

function sqlFailure(error: unknown, timeoutMs: number, checked: CheckedSql): ReportRunError {
  const cause = error instanceof CursorStatementError ? error.cause : error;
  if (cause instanceof ReportRunError) return cause;
  const { code, position, hint, detail } = cause as PostgresError;
  if (code === '57014') return timedOut(timeoutMs);
  const message = cause instanceof Error ? cause.message : String(cause);
  // A position in any other statement (a FETCH, the session settings) is not in the user's text.
  const at = error instanceof CursorStatementError && position ? checked.sourceMap.place(Number(position) - 1 - error.offset) : null;
  const notes = { hint, detail, at };
  if (code === '42501') return new ReportRunError('refused', `Reports cannot read that: ${message}.`, notes);
  return new ReportRunError('sql_error', message.endsWith('.') ? message : `${message}.`, notes);
}

const collect = (fields: ResultField[], rows: (string | null)[][], maxRows: number, day: DayOfRun): SandboxRun => {
  const columns = describeColumns(fields);
  const truncated = rows.length > maxRows;
  return { columns, rows: toResultRows(fields, columns, truncated ? rows.slice(0, maxRows) : rows), truncated, ...day };
};

type DayOfRun = { today: string; ends: string | null; starts: string | null };
type DayQuery = (sql: string) => Promise<{ rows: Partial<DayOfRun>[] }>;

/**
 * Today and the report's own first and last days, in the run's transaction. They are date
 * arithmetic on constants (report-end.ts); should they still fail (a make_date out of range the
 * report never reached), the savepoint keeps the run, and it is read as bounded nowhere.
 */
async function dayOfRun(query: DayQuery, { endSql, startSql }: Pick<CheckedSql, 'endSql' | 'startSql'>): Promise<DayOfRun> {
  const today = async () => ({ today: (await query('select current_date::text as today')).rows[0]?.today as string, ends: null, starts: null });
  if (endSql === null && startSql === null) return today();
  await query('savepoint report_end');
  try {
    const row = (await query(`select current_date::text as today, ${endSql ?? 'null'} as ends, ${startSql ?? 'null'} as starts`)).rows[0];
    return { today: row?.today as string, ends: row?.ends ?? null, starts: row?.starts ?? null };
  } catch {
    await query('rollback to savepoint report_end');
    return today();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

export type ReportRoleStatus = { ok: true; url: string; role: string } | { ok: false; reason: string };

export class PostgresSandbox implements ReportSandbox {
  readonly mode = 'postgres';
  private readonly pool: pg.Pool;

  constructor(url: string, poolSize: number) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      application_name: 'stockwise-reports',
      // Every value as PostgreSQL's text; values.ts turns it into JSON the same way on both drivers.
      types: { getTypeParser: (() => (value: string) => value) as unknown as typeof pg.types.getTypeParser },
    });
    this.pool.on('error', (error) => console.error(`Report connection lost: ${error.message}`));
  }

  /** The login must not be able to get around the wall: refused when it is a superuser or bypasses row security. */
  async verifyRole(): Promise<string | null> {
    const { rows } = await this.pool.query<{ role: string; unsafe: string }>(
      `select session_user as role, (rolsuper or rolbypassrls or rolcreaterole or rolreplication)::text as unsafe from pg_roles where rolname = session_user`,
    );
    const row = rows[0];
    if (!row) return 'the report login has no role';
    return row.unsafe === 'true' ? `the report login "${row.role}" may do more than read (superuser, BYPASSRLS, CREATEROLE or REPLICATION)` : null;
  }

  async run(checked: CheckedSql, options: RunOptions): Promise<SandboxRun> {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) throw timedOut(options.timeoutMs);
    const client = await this.pool.connect();
    let healthy = true;
    try {
      await client.query(`begin read only; ${sessionSettings(remaining, options.timeZone)}`);
      await holdingCursor(0, () => client.query(checked.cursor));
      const result = await client.query<string[]>({ text: `fetch forward ${options.maxRows + 1} from ${CURSOR_NAME}`, rowMode: 'array' });
      const day = await dayOfRun((sql) => client.query(sql), checked);
      await client.query('rollback');
      return collect(result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), result.rows, options.maxRows, day);
    } catch (error) {
      await client.query('rollback').catch(() => {
        healthy = false;
      });
      throw sqlFailure(error, options.timeoutMs, checked);
    } finally {
      client.release(!healthy);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

// ---------------------------------------------------------------------------------------------
// PGlite

/** Rows fetched at first (a row may be slow to come); later batches are sized to take about BATCH_TARGET_MS each. */
const FIRST_BATCH = 1;
const BATCH_TARGET_MS = 100;

export class EmbeddedSandbox implements ReportSandbox {
  readonly mode = 'embedded';
  private readonly pglite: PGlite;
  private readonly maxCost: number;

  constructor(pglite: PGlite, maxCost: number) {
    this.pglite = pglite;
    this.maxCost = maxCost;
  }

  // Every type as text, as on PostgreSQL (PGlite merges these over its own parsers).
  private rawParsers(): Record<number, (value: string) => string> {
    return Object.fromEntries(Object.keys(this.pglite.parsers).map((oid) => [Number(oid), (value: string) => value]));
  }

  async run(checked: CheckedSql, options: RunOptions): Promise<SandboxRun> {
    const parsers = this.rawParsers();
    try {
      // The one session is shared: the transaction holds it, so no other query runs inside ours.
      return await this.pglite.transaction(async (tx) => {
        if (Date.now() >= options.deadline) throw timedOut(options.timeoutMs);
        await tx.exec(`set transaction read only; ${sessionSettings(null, options.timeZone)}`);
        await this.refuseExpensive(tx, checked, options.timeoutMs);
        await holdingCursor(0, () => tx.query(checked.cursor));
        const run = await this.fetchUntilDone(tx, options, parsers, checked);
        await tx.rollback();
        return run;
      });
    } catch (error) {
      throw sqlFailure(error, options.timeoutMs, checked);
    }
  }

  private async refuseExpensive(tx: Transaction, checked: CheckedSql, timeoutMs: number): Promise<void> {
    // The cursor's own plan: DECLARE plans for a cursor (cursor_tuple_fraction), which may differ from the bare SELECT's.
    const plan = await holdingCursor(characterCount(EXPLAIN_PLAN), () => tx.query<{ 'QUERY PLAN': unknown }>(`${EXPLAIN_PLAN}${checked.cursor}`));
    const raw = plan.rows[0]?.['QUERY PLAN'];
    const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    const cost = worstCaseCost(parsed[0].Plan);
    if (cost > this.maxCost) throw tooLong(cost, timeoutMs);
  }

  private async fetchUntilDone(tx: Transaction, options: RunOptions, parsers: Record<number, (value: string) => string>, bounds: Pick<CheckedSql, 'endSql' | 'startSql'>): Promise<SandboxRun> {
    const rows: (string | null)[][] = [];
    let batch = FIRST_BATCH;
    for (;;) {
      const wanted = Math.min(batch, options.maxRows + 1 - rows.length);
      const started = performance.now();
      const result = await tx.query<(string | null)[]>(`fetch forward ${wanted} from ${CURSOR_NAME}`, [], { rowMode: 'array', parsers });
      const elapsed = performance.now() - started;
      rows.push(...result.rows);
      if (result.rows.length < wanted || rows.length > options.maxRows) {
        const day = await dayOfRun((sql) => tx.query(sql, [], { parsers }), bounds);
        return collect(result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), rows, options.maxRows, day);
      }
      if (Date.now() >= options.deadline) throw timedOut(options.timeoutMs);
      // Between batches the event loop runs (other requests are answered) and the deadline is
      // checked; slow rows make small batches, fast rows large ones.
      const sized = Math.floor((result.rows.length / Math.max(elapsed, 0.01)) * BATCH_TARGET_MS);
      batch = Math.max(1, Math.min(batch * 8, 5000, sized));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {}
}
