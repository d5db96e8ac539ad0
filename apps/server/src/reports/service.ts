// Domain functions of reports (spec §7 /api/user-reports/*): saved reports with their owners,
// running report SQL in the sandbox (and its rows as an .xlsx download), and a saved report's data
// for the dashboard.
import type { Kysely } from 'kysely';
import { chartConfig as chartConfigSchema, proposeChartConfig, XLSX_CONTENT_TYPE, type ChartConfig, type GenerateResponse, type RegenerableField, type RegenerateResponse, type ResultCell, type ResultColumn, type ExecuteResponse, type SqlErrorDetails, type ReportDataResponse, type Role, type UpdateReportRequest, type UserReport, DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import type { z } from 'zod';
import type { createReportRequest } from '@stockwise/contract';
import type { AccessClaims } from '../auth/tokens.ts';
import type { AppDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { ServerConfig } from '../environment.ts';
import type { Download } from '../http/downloads.ts';
import { AppError, notFoundError, validationError } from '../http/errors.ts';
import { editConflictError } from '../http/versions.ts';
import { xlsxStream, type SheetColumn, type SheetValue } from '../http/xlsx.ts';
import { createChatModel } from '../ai/chat.ts';
import { ReadableCatalogue } from './readable.ts';
import { BuiltInReportWriter, ModelReportWriter, WriterError, type CurrentReport, type ReportDraft, type ReportWriter } from './writer.ts';
import * as repo from './repo.ts';
import { firstPeriodCut, unfinishedPeriod } from './unfinished-period.ts';
import { noProductMatches, unmatchedProductWords } from '../plain-words/catalogue.ts';
import { readCurrency } from '../shop/repo.ts';
import { checkReportSql, loadSqlParser, SandboxRefusal, type CheckedSql } from './sandbox/gate.ts';
import { EmbeddedSandbox, PostgresSandbox, ReportRunError, type ReportSandbox, type SandboxRun } from './sandbox/executor.ts';

type CreateReportValues = z.output<typeof createReportRequest>;

/** Reports one user may run at the same time (every resource has a limit, DESIGN.md). */
export const MAX_RUNNING_REPORTS_PER_USER = 4;

export type ReportsContext = {
  db: Kysely<Database>;
  sandbox: ReportSandbox | null;
  /** Why there is no sandbox (PostgreSQL without a usable report role). */
  sandboxProblem: string | null;
  embedded: boolean;
  limits: { timeoutMs: number; maxRows: number };
  readable: ReadableCatalogue;
  running: Map<number, number>;
  writer: ReportWriter;
};

/** Opens the sandbox of the database mode; a missing report role leaves reports refusing to run, not the server failing to start. */
export async function createReportsContext({ config, database }: { config: ServerConfig; database: AppDatabase }): Promise<ReportsContext> {
  await loadSqlParser();
  const model = createChatModel(config.llm);
  const base = {
    db: database.db,
    limits: { timeoutMs: config.reports.timeoutMs, maxRows: config.reports.maxRows },
    readable: new ReadableCatalogue(database.db),
    running: new Map<number, number>(),
    writer: model ? new ModelReportWriter(model) : new BuiltInReportWriter(),
  };
  if (database.pglite) return { ...base, embedded: true, sandbox: new EmbeddedSandbox(database.pglite, config.reports.maxCost), sandboxProblem: null };
  const opened = await openPostgresSandbox(database, config);
  return { ...base, embedded: false, ...opened };
}

async function openPostgresSandbox(database: AppDatabase, config: ServerConfig): Promise<{ sandbox: ReportSandbox | null; sandboxProblem: string | null }> {
  let url = config.reports.databaseUrl;
  if (!url) {
    const secrets = await repo.reportRoleSecrets(database.db);
    if (!secrets || database.target.kind !== 'postgres') {
      return { sandbox: null, sandboxProblem: 'Reports are not available: the report role is missing. An administrator must create it once (docs/operations.md, "The report role").' };
    }
    const login = new URL(database.target.url);
    login.username = encodeURIComponent(secrets.role);
    login.password = encodeURIComponent(secrets.password);
    url = login.toString();
  }
  const role = decodeURIComponent(new URL(url).username);
  if (role && (await repo.roleExists(database.db, role))) await repo.grantReportReadAccess(database.db, role);
  const sandbox = new PostgresSandbox(url, config.reports.poolSize);
  let problem: string | null;
  try {
    problem = await sandbox.verifyRole();
  } catch (error) {
    problem = `the report login could not connect (${error instanceof Error ? error.message : String(error)})`;
  }
  if (problem) {
    await sandbox.close();
    console.error(`Reports disabled: ${problem}. See docs/operations.md, "The report role".`);
    return { sandbox: null, sandboxProblem: `Reports are not available: ${problem}. See docs/operations.md.` };
  }
  return { sandbox, sandboxProblem: null };
}

export async function closeReportsContext(ctx: ReportsContext): Promise<void> {
  await ctx.sandbox?.close();
}

// ---------------------------------------------------------------------------------------------
// Saved reports

const storedChart = (value: unknown): ChartConfig | null => {
  const parsed = chartConfigSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const present = (record: repo.ReportRecord): UserReport => ({
  id: record.id,
  title: record.title,
  description: record.description,
  sql_code: record.sql_code,
  chart_config: storedChart(record.chart_config),
  owner: record.owner,
  owner_username: record.owner_username,
  created_at: new Date(record.created_at).toISOString(),
  updated_at: new Date(record.updated_at).toISOString(),
  pseudocode: record.pseudocode,
  version: record.version,
});

const reportNotFound = (name: string | number) => notFoundError(`Report '${name}' not found.`);

async function requireReport(ctx: ReportsContext, id: number): Promise<repo.ReportRecord> {
  const record = await repo.findReport(ctx.db, id);
  if (!record) throw reportNotFound(id);
  return record;
}

function requireOwnerOrAdmin(user: AccessClaims, record: repo.ReportRecord): void {
  const mayChange: Record<Role, boolean> = { admin: true, editor: record.owner === user.userId, viewer: false, pending: false };
  if (!mayChange[user.role]) throw new AppError('forbidden', 'You can only change reports you own; an administrator can change any report.');
}

export async function listReports(ctx: ReportsContext): Promise<UserReport[]> {
  return (await repo.listReports(ctx.db)).map(present);
}

export async function getReport(ctx: ReportsContext, id: number): Promise<UserReport> {
  return present(await requireReport(ctx, id));
}

export async function createReport(ctx: ReportsContext, options: { user: AccessClaims; values: CreateReportValues }): Promise<UserReport> {
  const id = await repo.insertReport(ctx.db, { ...options.values, owner: options.user.userId });
  return present(await requireReport(ctx, id));
}

/**
 * A change or delete of a report: `expected` the version the writer read (If-Match; none: written
 * whatever its version), `timeZone` the writer's, for the time a refusal names (ADR 0168).
 */
type ReportWrite = { user: AccessClaims; id: number; expected?: string | undefined; timeZone?: string | undefined };

/** Why a write at version `expected` was not made: the report is gone (404), or someone saved it since (409 naming them). */
async function refusedReportWrite(ctx: ReportsContext, write: ReportWrite, action: 'edit' | 'delete'): Promise<AppError> {
  const current = await repo.findReport(ctx.db, write.id);
  if (!current) return reportNotFound(write.id);
  return editConflictError({ thing: 'report', action, current: present(current), lastSave: { by: current.updated_by_username, at: new Date(current.updated_at) }, timeZone: write.timeZone });
}

export async function updateReport(ctx: ReportsContext, options: ReportWrite & { values: UpdateReportRequest }): Promise<UserReport> {
  requireOwnerOrAdmin(options.user, await requireReport(ctx, options.id));
  const written = await repo.updateReport(ctx.db, options.id, { values: options.values, by: options.user.userId, expected: options.expected });
  if (!written) throw await refusedReportWrite(ctx, options, 'edit');
  return present(await requireReport(ctx, options.id));
}

export async function deleteReport(ctx: ReportsContext, options: ReportWrite): Promise<void> {
  requireOwnerOrAdmin(options.user, await requireReport(ctx, options.id));
  if (!(await repo.deleteReport(ctx.db, options.id, options.expected))) throw await refusedReportWrite(ctx, options, 'delete');
}

// ---------------------------------------------------------------------------------------------
// Running report SQL

/** The gate's verdict on SQL (refusals carry the user's message); a name unknown to the cache is looked up afresh once. */
export async function checkSql(ctx: ReportsContext, sqlText: string): Promise<CheckedSql> {
  const gate = async (fresh: boolean) => checkReportSql(sqlText, { readable: await ctx.readable.names({ fresh }), embedded: ctx.embedded });
  try {
    return await gate(false);
  } catch (error) {
    if (error instanceof SandboxRefusal && error.message.startsWith('Unknown table')) return gate(true);
    throw error;
  }
}

/** Runs report SQL for a user: throws ReportRunError with a message for the user when it does not run. */
export type RunRequest = {
  userId: number;
  sql: string;
  maxRows?: number;
  /** When the request arrived (ms since the epoch): the timeout counts from then, waiting included. */
  receivedAt?: number;
  /** The viewer's time zone (checked), else the shop's, whose day the report's `current_date` is; UTC without one. */
  timeZone?: string | undefined;
};

export async function runReportSql(ctx: ReportsContext, options: RunRequest): Promise<SandboxRun> {
  if (!options.sql.trim()) throw new ReportRunError('refused', 'No SQL code to execute.');
  if (!ctx.sandbox) throw new ReportRunError('unavailable', ctx.sandboxProblem ?? 'Reports are not available.');
  const running = ctx.running.get(options.userId) ?? 0;
  if (running >= MAX_RUNNING_REPORTS_PER_USER) {
    throw new AppError('throttled', `You already have ${MAX_RUNNING_REPORTS_PER_USER} reports running; wait for one to finish.`);
  }
  ctx.running.set(options.userId, running + 1);
  try {
    const deadline = (options.receivedAt ?? Date.now()) + ctx.limits.timeoutMs;
    let checked: CheckedSql;
    try {
      checked = await checkSql(ctx, options.sql);
    } catch (error) {
      if (error instanceof SandboxRefusal) throw new ReportRunError('refused', error.message, { at: error.at });
      throw error;
    }
    return await ctx.sandbox.run(checked, { deadline, timeoutMs: ctx.limits.timeoutMs, maxRows: Math.min(options.maxRows ?? ctx.limits.maxRows, ctx.limits.maxRows), timeZone: options.timeZone });
  } finally {
    const left = (ctx.running.get(options.userId) ?? 1) - 1;
    if (left > 0) ctx.running.set(options.userId, left);
    else ctx.running.delete(options.userId);
  }
}

/** POST /execute/: the run as the spec's `{success, results, error}` (plus columns, truncated, timing). */
export async function executeReportSql(ctx: ReportsContext, options: RunRequest): Promise<ExecuteResponse> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const run = await runReportSql(ctx, options);
    return {
      success: true,
      results: run.rows,
      columns: run.columns,
      truncated: run.truncated,
      row_count: run.rows.length,
      duration_ms: elapsed(),
      error: null,
      error_details: null,
      unfinished_period: unfinishedPeriod(run.columns, run.rows, run.today, run.ends),
      first_period_cut: firstPeriodCut(run.columns, run.rows, run.today, run.starts, run.ends),
    };
  } catch (error) {
    if (!(error instanceof ReportRunError)) throw error;
    return { success: false, results: [], columns: [], truncated: false, row_count: 0, duration_ms: elapsed(), error: error.message, error_details: error.details, unfinished_period: null, first_period_cut: null };
  }
}

const WHOLE_NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'oid']);
/** Rows handed to the workbook at a time: the next are written once the reader has taken these. */
const EXPORT_BATCH_ROWS = 1000;

/**
 * A result column as the .xlsx download writes it: numbers, days, moments and yes/no as typed cells,
 * the rest as text; a number column of money (`moneyFields`) in the shop's `currency` once it has one.
 */
const sheetColumnOfResult = (moneyFields: readonly string[], currency: string | null) => (column: ResultColumn): SheetColumn => {
  const header = column.name;
  switch (column.type) {
    case 'number':
      if (currency && moneyFields.includes(column.name)) return { header, kind: 'decimal', currency };
      return { header, kind: WHOLE_NUMBER_TYPES.has(column.db_type) ? 'integer' : 'number' };
    case 'date':
      return { header, kind: 'date' };
    case 'datetime':
      return { header, kind: column.db_type === 'timestamptz' ? 'instant' : 'datetime' };
    case 'boolean':
      return { header, kind: 'boolean' };
    case 'text':
    case 'json':
    case 'other':
      return { header, kind: 'text' };
  }
};

const sheetValueOf = (value: ResultCell | undefined): SheetValue => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);

function* resultBatches(run: SandboxRun): Generator<SheetValue[][]> {
  for (let start = 0; start < run.rows.length; start += EXPORT_BATCH_ROWS) {
    yield run.rows.slice(start, start + EXPORT_BATCH_ROWS).map((row) => run.columns.map((column) => sheetValueOf(row[column.name])));
  }
}

/**
 * POST /export/: the SQL run as POST /execute/ runs it (the gate, the sandbox, the time, cost and
 * row limits, the per-user limit), its rows as an .xlsx of typed cells. A run that fails is a 400
 * naming sql_code with the run's message: there is no file to give.
 */
export async function exportReportRows(ctx: ReportsContext, options: RunRequest & { title: string; moneyFields: readonly string[] }): Promise<Download> {
  let run: SandboxRun;
  try {
    run = await runReportSql(ctx, options);
  } catch (error) {
    if (error instanceof ReportRunError) throw validationError(error.message, { sql_code: [error.message] });
    throw error;
  }
  const name = options.title || 'report';
  // Read with the download, as the Data screen's Excel does: a currency just chosen shows in the next file.
  const columns = run.columns.map(sheetColumnOfResult(options.moneyFields, options.moneyFields.length > 0 ? await readCurrency(ctx.db) : null));
  return { fileName: `${name}.xlsx`, contentType: XLSX_CONTENT_TYPE, body: xlsxStream({ sheetName: name, columns, rows: resultBatches(run) }) };
}

/** A saved report, by id or by title, run for the dashboard. */
export async function getReportData(ctx: ReportsContext, options: { userId: number; idOrTitle: string; receivedAt?: number; timeZone?: string | undefined }): Promise<ReportDataResponse> {
  const asId = /^\d+$/.test(options.idOrTitle) ? Number(options.idOrTitle) : null;
  const record = (asId !== null && Number.isSafeInteger(asId) ? await repo.findReport(ctx.db, asId) : undefined) ?? (await repo.findReportByTitle(ctx.db, options.idOrTitle));
  if (!record) throw reportNotFound(options.idOrTitle);
  const result = await executeReportSql(ctx, { userId: options.userId, sql: record.sql_code, timeZone: options.timeZone, ...(options.receivedAt ? { receivedAt: options.receivedAt } : {}) });
  return { ...result, id: record.id, title: record.title, chart_config: storedChart(record.chart_config) };
}

export async function getReportSchema(ctx: ReportsContext) {
  return { relations: await ctx.readable.relations() };
}

// ---------------------------------------------------------------------------------------------
// Writing reports from plain words

/** Rows a generated report is test-run for: enough to propose a chart, cheap to fetch. */
const TRIAL_ROWS = 200;

const currentOf = (request: { current_title: string; current_description: string; current_sql_code: string; current_chart_config: ChartConfig | null }): CurrentReport => ({
  title: request.current_title,
  description: request.current_description,
  sql_code: request.current_sql_code,
  chart_config: request.current_chart_config,
});

/** `timeZone`: the editor's, whose hemisphere the request's seasons are of. */
async function writerContext(ctx: ReportsContext, timeZone: string | undefined) {
  const [schema, vocabulary] = await Promise.all([ctx.readable.relations(), repo.listVocabulary(ctx.db)]);
  return { schema, vocabulary, timeZone };
}

/** A chart that names only columns of the result, else one proposed from the result's types. */
function fittingChart(chart: ChartConfig | null, columns: ResultColumn[], rowCount: number, preferred: ChartConfig['type'] | null): ChartConfig {
  const names = new Set(columns.map((c) => c.name));
  const fits = chart && [chart.x_field, chart.group_field, ...chart.series.map((s) => s.field)].every((field) => field === null || names.has(field)) && (chart.type === 'table' || chart.series.length > 0);
  return fits && chart ? chart : proposeChartConfig(columns, { rowCount, preferredType: preferred });
}

async function trialRun(ctx: ReportsContext, userId: number, sqlText: string): Promise<SandboxRun | ReportRunError> {
  try {
    return await runReportSql(ctx, { userId, sql: sqlText, maxRows: TRIAL_ROWS });
  } catch (error) {
    if (error instanceof ReportRunError) return error;
    throw error;
  }
}

/** A refusal of SQL the answer does not carry: its hint and detail, but no place to point at. */
const unplaced = (error: ReportRunError): SqlErrorDetails => ({ ...error.details, line: null, column: null });
/** What a model is told when its SQL failed: the message and PostgreSQL's hint ("Perhaps you meant …"). */
const problemOf = (error: ReportRunError) => [error.message, error.details.hint].filter(Boolean).join(' ');

const refusedGenerated = (error: ReportRunError) => `The generated SQL was refused by the report sandbox: ${error.message}`;

type GenerateInput = { report_id: number | null; change_request: string; current_title: string; current_description: string; current_sql_code: string; current_chart_config: ChartConfig | null };

/** `dateOrder`: how the editor writes a date with numbers alone ("12/1"), from their language; `timeZone`: the editor's (seasons are of its hemisphere). */
export async function generateFromRequest(ctx: ReportsContext, options: { userId: number; request: GenerateInput; dateOrder?: DateOrder; timeZone?: string | undefined }): Promise<GenerateResponse> {
  const failed = (error: string, details: SqlErrorDetails | null = null): GenerateResponse => ({
    success: false,
    title: null,
    description: null,
    sql_code: null,
    chart_config: null,
    pseudocode: null,
    provider: ctx.writer.provider,
    error,
    error_details: details,
    notice: null,
  });
  if (options.request.report_id !== null) await requireReport(ctx, options.request.report_id);
  const context = { ...(await writerContext(ctx, options.timeZone)), dateOrder: options.dateOrder ?? DEFAULT_DATE_ORDER };
  const current = currentOf(options.request);
  let draft: ReportDraft;
  let run: SandboxRun | ReportRunError;
  try {
    draft = await ctx.writer.write({ changeRequest: options.request.change_request, current, context });
    run = await trialRun(ctx, options.userId, draft.sql_code);
    // A model gets one chance to repair its SQL with the sandbox's error in hand.
    if (run instanceof ReportRunError && ctx.writer.provider === 'model') {
      draft = await ctx.writer.write({ changeRequest: options.request.change_request, current, context, problem: problemOf(run) });
      run = await trialRun(ctx, options.userId, draft.sql_code);
    }
  } catch (error) {
    if (error instanceof WriterError) return failed(error.message);
    throw error;
  }
  if (run instanceof ReportRunError) return failed(refusedGenerated(run), unplaced(run));
  return {
    success: true,
    title: draft.title,
    description: draft.description,
    sql_code: draft.sql_code,
    chart_config: fittingChart(draft.chart_config, run.columns, run.rows.length, draft.preferredChart),
    pseudocode: draft.pseudocode,
    provider: ctx.writer.provider,
    error: null,
    error_details: null,
    notice: unusedWordsNotice(options.request.change_request, draft.unusedWords, draft.assumed),
  };
}

/**
 * The built-in generator's draft leaves these words of `question` out: said, so a filter it cannot
 * express is not silently dropped — by "Apply change" and "Regenerate SQL" alike. Words meant as a
 * kind of products that match none are said first, as the assistant says them. Null when none.
 */
function unusedWordsNotice(question: string, words: string[] = [], assumed?: string): string | null {
  const unique = [...new Map(words.map((word) => [word.toLowerCase(), word])).values()];
  if (!unique.length) return null;
  const unmatched = unmatchedProductWords(question, unique);
  return (
    `${assumed ? `${assumed} ` : ''}${unmatched.length ? `${noProductMatches(unmatched)} ` : ''}The built-in generator did not use "${unique.join(' ')}": the report below does not filter or break down by it. ` +
    'It knows measures (units, sales value, stock value), breakdowns (by product, category, day, week, month, weekday, or a period and category together), periods, top/bottom N, one category or product code, a word of product names, and stock questions; ' +
    'edit the SQL, or configure a language model (LLM_BASE_URL) for free-form requests.'
  );
}

type RegenerateInput = Omit<GenerateInput, 'report_id' | 'change_request'> & { field_to_regenerate: RegenerableField };

export async function regenerateField(ctx: ReportsContext, options: { userId: number; request: RegenerateInput; timeZone?: string | undefined }): Promise<RegenerateResponse> {
  const field = options.request.field_to_regenerate;
  const answer = (value: RegenerateResponse['generated_value'], error: string | null = null, details: SqlErrorDetails | null = null, notice: string | null = null): RegenerateResponse => ({
    success: error === null,
    generated_value: value,
    provider: ctx.writer.provider,
    error,
    error_details: details,
    notice,
  });
  const current = currentOf(options.request);
  try {
    const { value, unusedWords, assumed } = await ctx.writer.rewrite({ field, current, context: await writerContext(ctx, options.timeZone) });
    if (field === 'sql_code') {
      const run = await trialRun(ctx, options.userId, value as string);
      if (run instanceof ReportRunError) return answer(null, refusedGenerated(run), unplaced(run));
      return answer(value, null, null, unusedWordsNotice(`${current.title} ${current.description}`, unusedWords, assumed));
    }
    if (field === 'chart_config') {
      const run = await trialRun(ctx, options.userId, current.sql_code);
      // The current SQL is the editor's: its place is the user's to go to.
      if (run instanceof ReportRunError) return answer(null, `Run the report first: ${run.message}`, run.details);
      // The current chart's kind is kept (a bar chart stays bars), but not a table: asked anew, a month and a number make a line.
      const kept = current.chart_config?.type === 'table' ? null : (current.chart_config?.type ?? null);
      return answer(fittingChart(value as ChartConfig | null, run.columns, run.rows.length, kept));
    }
    return answer(value);
  } catch (error) {
    if (error instanceof WriterError) return answer(null, error.message);
    throw error;
  }
}
