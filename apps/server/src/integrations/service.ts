// Scheduled integrations: saving them (spec §5 defaults, every problem named by field), their
// pg-boss schedules, manual runs, status and the run log, and settling runs cut off by a crash.
//
// Scheduling across processes (docs/operations.md): each enabled integration is one pg-boss
// schedule keyed by its id, with missed: 'once'. pg-boss's cron pass runs in one process at a time
// (it claims the pass in the database) and files each occurrence under a per-minute singleton key,
// so a due run is sent once however many processes run; occurrences missed while every process was
// down become ONE job at the next pass. The run queue's 'stately' policy keeps at most one queued
// and one active job per integration, and the run itself takes the integration's run lock
// (repo.createRunLocks), so two runs of one integration never overlap.
import type { Kysely } from 'kysely';
import {
  INTEGRATION_DEFAULTS,
  MASKED_SECRET,
  type Integration,
  type IntegrationInput,
  type IntegrationLogEntry,
  type IntegrationLogPage,
  type IntegrationStatusResponse,
  type ProductConfig,
  type RetryProgress,
} from '@stockwise/contract';
import type { AppDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { ServerConfig } from '../environment.ts';
import { addressProblem, parseAllowList, type OutboundPolicy } from '../http/outbound.ts';
import { notFoundError, validationError, type AppError } from '../http/errors.ts';
import { editConflictError, type VersionedWrite } from '../http/versions.ts';
import { resolveEntityMapping } from '../import/mapping.ts';
import { readTimeZone } from '../shop/repo.ts';
import type { ImportedTable } from '../import/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import * as repo from './repo.ts';
import type { IntegrationRow, IntegrationValues, RunLocks } from './repo.ts';
import { INTERRUPTED_MESSAGE, type RunContext } from './run.ts';
import { cronProblem, nextRunTime, scheduleCron } from './schedule.ts';
import { loadSecretBox, type SecretBox } from './secrets.ts';
import { createIntegrationWriter, sourceTag } from './writer.ts';

export const RUN_INTEGRATION_JOB = 'integrations.run';
/** OWASP: redirects are followed, each checked again, up to this many. */
const MAX_REDIRECTS = 5;
export type RunJobPayload = { integrationId: number; trigger: 'schedule' | 'manual' };

export type IntegrationsContext = {
  db: Kysely<Database>;
  locks: RunLocks;
  secrets: SecretBox;
  loadConfig: () => Promise<ProductConfig>;
  queue: Pick<JobQueue, 'boss'>;
  /** The runs' outbound rules: an endpoint they could not reach is refused at save, and a try fetches under them. */
  outbound: OutboundPolicy;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** `retry`: the running run's retry of a failing endpoint, from its log entry. */
function presentIntegration(row: IntegrationRow, retry: RetryProgress | null = null, now = new Date()): Integration {
  const cron = scheduleCron(row.schedule_frequency, row.cron_expression);
  return {
    id: row.id,
    enabled: row.enabled,
    endpoint: row.endpoint,
    schedule_frequency: row.schedule_frequency,
    cron_expression: row.cron_expression,
    schedule_cron: cron,
    time_zone: row.time_zone,
    mapping_selection: row.mapping_selection,
    target_entity: row.target_entity,
    data_action: row.data_action,
    data_fetch_type: row.data_fetch_type,
    previous_days: row.previous_days,
    initial_setup: row.initial_setup,
    rate_limit: row.rate_limit,
    batch_size: row.batch_size,
    records_path: row.records_path,
    pagination: row.pagination,
    next_field: row.next_field,
    page_parameter: row.page_parameter,
    auth_header_name: row.auth_header_name,
    auth_header_value: row.auth_header_secret ? MASKED_SECRET : null,
    status: row.status,
    last_run_time: iso(row.last_run_time),
    next_run_time: row.enabled ? iso(nextRunTime(cron, now, row.time_zone)) : null,
    last_success_time: iso(row.last_success_time),
    last_error_message: row.last_error_message,
    consecutive_failures: row.consecutive_failures,
    last_run_rejected: row.last_run_rejected,
    last_run_warning: row.last_run_warning,
    last_run_kept_message: row.last_run_kept_message,
    last_run_summary: row.last_run_summary,
    run_progress: row.status === 'running' ? retry : null,
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
    version: row.version,
  };
}

type Editable = Omit<
  IntegrationValues,
  'status' | 'current_run_id' | 'last_run_time' | 'last_success_time' | 'last_error_message' | 'consecutive_failures' | 'created_by' | 'initial_setup_done' | 'last_run_rejected' | 'last_run_warning' | 'last_run_kept_message' | 'last_run_summary'
>;

/** The saved values: the input over what was stored (or the defaults), checked as a whole. */
async function resolveInput(ctx: IntegrationsContext, input: IntegrationInput, stored: IntegrationRow | null): Promise<Editable> {
  const config = await ctx.loadConfig();
  const firstMapping = Object.keys(config.mappings)[0] ?? '';
  const mappingName = input.mapping_selection ?? stored?.mapping_selection ?? firstMapping;
  const mapping = config.mappings[mappingName];
  const merged = {
    enabled: input.enabled ?? stored?.enabled ?? INTEGRATION_DEFAULTS.enabled,
    endpoint: input.endpoint ?? stored?.endpoint ?? '',
    schedule_frequency: input.schedule_frequency ?? stored?.schedule_frequency ?? INTEGRATION_DEFAULTS.schedule_frequency,
    cron_expression: input.cron_expression === undefined ? (stored?.cron_expression ?? null) : input.cron_expression || null,
    // A new integration left without a zone runs in the shop's, UTC when it chose none (ADR 0173).
    time_zone: input.time_zone ?? stored?.time_zone ?? (await readTimeZone(ctx.db)) ?? INTEGRATION_DEFAULTS.time_zone,
    mapping_selection: mappingName,
    target_entity: input.target_entity ?? stored?.target_entity ?? Object.keys(mapping?.entities ?? {})[0] ?? '',
    data_action: input.data_action ?? stored?.data_action ?? INTEGRATION_DEFAULTS.data_action,
    data_fetch_type: input.data_fetch_type ?? stored?.data_fetch_type ?? INTEGRATION_DEFAULTS.data_fetch_type,
    // Spec §5: saving fills rate_limit 60, batch_size 100 and previous_days null when unset.
    previous_days: input.previous_days === undefined ? (stored?.previous_days ?? INTEGRATION_DEFAULTS.previous_days) : input.previous_days,
    initial_setup: input.initial_setup ?? stored?.initial_setup ?? INTEGRATION_DEFAULTS.initial_setup,
    rate_limit: (input.rate_limit === undefined ? stored?.rate_limit : input.rate_limit) ?? INTEGRATION_DEFAULTS.rate_limit,
    batch_size: (input.batch_size === undefined ? stored?.batch_size : input.batch_size) ?? INTEGRATION_DEFAULTS.batch_size,
    records_path: input.records_path === undefined ? (stored?.records_path ?? null) : input.records_path || null,
    pagination: input.pagination ?? stored?.pagination ?? INTEGRATION_DEFAULTS.pagination,
    next_field: (input.next_field === undefined ? stored?.next_field : input.next_field) || INTEGRATION_DEFAULTS.next_field,
    page_parameter: (input.page_parameter === undefined ? stored?.page_parameter : input.page_parameter) || INTEGRATION_DEFAULTS.page_parameter,
    auth_header_name: input.auth_header_name === undefined ? (stored?.auth_header_name ?? null) : input.auth_header_name,
    auth_header_secret: stored?.auth_header_secret ?? null,
  };
  const problems: Record<string, string[]> = {};
  const problem = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (!merged.endpoint) problem('endpoint', 'The endpoint is required.');
  else {
    let url: URL | null = null;
    try {
      url = new URL(merged.endpoint.replaceAll('{from}', '2000-01-01').replaceAll('{to}', '2000-01-01'));
    } catch {
      problem('endpoint', 'Enter an http:// or https:// address.');
    }
    const unreachable = url && (await addressProblem(url, ctx.outbound.allowed));
    if (unreachable) problem('endpoint', unreachable);
  }
  if (merged.schedule_frequency === 'custom') {
    const cronIssue = merged.cron_expression ? cronProblem(merged.cron_expression) : 'A custom schedule needs a cron expression.';
    if (cronIssue) problem('cron_expression', cronIssue);
  } else merged.cron_expression = null;
  if (!mapping) problem('mapping_selection', mappingName ? `Mapping config '${mappingName}' not found.` : 'Choose a mapping.');
  const entity = config.inventory.entities.find((e) => e.name === merged.target_entity);
  if (!entity) problem('target_entity', merged.target_entity ? `No entity named '${merged.target_entity}'.` : 'Choose a target entity.');
  else if (mapping) {
    const resolved = resolveEntityMapping(mapping, merged.target_entity);
    if (!resolved.ok) problem('target_entity', `The mapping '${mappingName}' has nothing for '${merged.target_entity}'.`);
  }
  if (merged.data_fetch_type === 'historical' && merged.previous_days === null) problem('previous_days', 'A historical fetch needs the number of previous days.');
  if (merged.initial_setup && merged.previous_days === null) problem('previous_days', 'The initial setup backfills the previous days: give their number.');
  if (input.auth_header_value !== undefined && input.auth_header_value !== MASKED_SECRET) {
    merged.auth_header_secret = input.auth_header_value ? ctx.secrets.seal(input.auth_header_value) : null;
    if (input.auth_header_value && !merged.auth_header_name) merged.auth_header_name = 'Authorization';
  }
  if (merged.auth_header_secret && !merged.auth_header_name) problem('auth_header_name', 'Name the header the value goes in.');
  if (Object.keys(problems).length) {
    const summary = Object.entries(problems).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; ');
    throw validationError(`Invalid integration: ${summary}`, problems);
  }
  return merged;
}

/** The integration's pg-boss schedule: there while it is enabled, gone otherwise. */
async function syncSchedule(ctx: IntegrationsContext, row: Pick<IntegrationRow, 'id' | 'enabled' | 'schedule_frequency' | 'cron_expression' | 'time_zone'>): Promise<void> {
  const key = String(row.id);
  if (!row.enabled) {
    await ctx.queue.boss.unschedule(RUN_INTEGRATION_JOB, key);
    return;
  }
  const payload: RunJobPayload = { integrationId: row.id, trigger: 'schedule' };
  await ctx.queue.boss.schedule(RUN_INTEGRATION_JOB, scheduleCron(row.schedule_frequency, row.cron_expression), payload, { key, tz: row.time_zone, missed: 'once', singletonKey: key });
}

/**
 * An occurrence of the old schedule that is queued but not started goes with the schedule, so it
 * cannot run after the change (after a restart it would run beside the new schedule's missed slot).
 */
async function dropQueuedOccurrences(ctx: IntegrationsContext, id: number): Promise<void> {
  const queued = await ctx.queue.boss.findJobs<RunJobPayload>(RUN_INTEGRATION_JOB, { key: String(id), data: { trigger: 'schedule' }, queued: true });
  if (queued.length > 0) await ctx.queue.boss.cancel(RUN_INTEGRATION_JOB, queued.map((job) => job.id));
}

/** Brings pg-boss's schedules in line with the integrations (at start: heals any drift). */
export async function syncAllSchedules(ctx: IntegrationsContext): Promise<void> {
  const rows = await repo.listIntegrations(ctx.db);
  const enabled = new Set(rows.filter((row) => row.enabled).map((row) => String(row.id)));
  for (const schedule of await ctx.queue.boss.getSchedules(RUN_INTEGRATION_JOB)) {
    if (!enabled.has(schedule.key)) await ctx.queue.boss.unschedule(RUN_INTEGRATION_JOB, schedule.key);
  }
  for (const row of rows) if (row.enabled) await syncSchedule(ctx, row);
}

async function findOrFail(ctx: IntegrationsContext, id: number): Promise<IntegrationRow> {
  const row = await repo.findIntegration(ctx.db, id);
  if (!row) throw notFoundError(`Integration ${id} not found.`);
  return row;
}

/** A run marked running whose lock is free was cut off by a crash: marked failed and logged. */
async function settleInterrupted(ctx: IntegrationsContext, row: IntegrationRow): Promise<IntegrationRow> {
  if (row.status !== 'running' || !(await ctx.locks.isFree(row.id))) return row;
  await repo.failInterruptedRun(ctx.db, row.id, row.current_run_id, INTERRUPTED_MESSAGE);
  return (await repo.findIntegration(ctx.db, row.id)) ?? row;
}

export async function settleInterruptedRuns(ctx: IntegrationsContext): Promise<number> {
  let settled = 0;
  for (const { id } of await repo.runningIntegrations(ctx.db)) {
    const row = await repo.findIntegration(ctx.db, id);
    if (row && (await settleInterrupted(ctx, row)).status !== 'running') settled += 1;
  }
  return settled;
}

/** The integrations as answered, a running one with its run's retry progress (its log entry is where that is kept). */
async function presentWithRetries(ctx: IntegrationsContext, rows: IntegrationRow[]): Promise<Integration[]> {
  const running = rows.flatMap((row) => (row.status === 'running' && row.current_run_id !== null ? [row.current_run_id] : []));
  const retries = await repo.retryProgressOf(ctx.db, running);
  return rows.map((row) => presentIntegration(row, row.current_run_id === null ? null : (retries.get(row.current_run_id) ?? null)));
}

const presentOne = async (ctx: IntegrationsContext, row: IntegrationRow) => (await presentWithRetries(ctx, [row]))[0] as Integration;

export async function listIntegrations(ctx: IntegrationsContext): Promise<Integration[]> {
  const rows = await repo.listIntegrations(ctx.db);
  const settled = [];
  for (const row of rows) settled.push(await settleInterrupted(ctx, row));
  return presentWithRetries(ctx, settled);
}

export const getIntegration = async (ctx: IntegrationsContext, id: number) => presentOne(ctx, await settleInterrupted(ctx, await findOrFail(ctx, id)));

export async function createIntegration(ctx: IntegrationsContext, input: IntegrationInput, userId: number): Promise<Integration> {
  const values = await resolveInput(ctx, input, null);
  const row = await repo.insertIntegration(ctx.db, { ...values, created_by: userId });
  await syncSchedule(ctx, row);
  return presentIntegration(row);
}

/** Why a write at version `expected` was not made: the integration is gone (404), or its configuration was saved since (409). */
async function refusedIntegrationWrite(ctx: IntegrationsContext, id: number, write: VersionedWrite, action: 'edit' | 'delete'): Promise<AppError> {
  const current = await repo.findIntegration(ctx.db, id);
  if (!current) return notFoundError(`Integration ${id} not found.`);
  // A pause after failed runs leaves no one's name: the sentence then says only that it changed.
  const lastSave = current.updated_by_username === null ? null : { by: current.updated_by_username, at: new Date(current.updated_at) };
  return editConflictError({ thing: 'integration', action, current: await presentOne(ctx, current), lastSave, timeZone: write.timeZone });
}

export async function updateIntegration(ctx: IntegrationsContext, id: number, input: IntegrationInput, write: VersionedWrite): Promise<Integration> {
  const stored = await findOrFail(ctx, id);
  // Refused before the input is checked against someone else's configuration: "changed since" comes first.
  if (write.expected !== undefined && stored.version !== write.expected) throw await refusedIntegrationWrite(ctx, id, write, 'edit');
  const values = await resolveInput(ctx, input, stored);
  // Switched on again after pausing itself: it starts counting failures afresh.
  const restarted = values.enabled && !stored.enabled ? { consecutive_failures: 0 } : {};
  // Another source or mapping may write its dates the other way: the order is learnt anew.
  const newSource = (values.endpoint ?? stored.endpoint) !== stored.endpoint || (values.mapping_selection ?? stored.mapping_selection) !== stored.mapping_selection;
  // The version is checked again by the write itself: a save landing since the read above is caught there.
  const row = await repo.updateIntegration(ctx.db, id, { ...values, ...restarted, ...(newSource ? { learnt_date_format: null } : {}) }, { by: write.by, expected: write.expected });
  if (!row) throw await refusedIntegrationWrite(ctx, id, write, 'edit');
  const scheduleOf = (r: IntegrationRow) => (r.enabled ? `${scheduleCron(r.schedule_frequency, r.cron_expression)} ${r.time_zone}` : null);
  if (scheduleOf(row) !== scheduleOf(stored)) await dropQueuedOccurrences(ctx, id);
  await syncSchedule(ctx, row);
  return presentOne(ctx, row);
}

export async function deleteIntegration(ctx: IntegrationsContext, id: number, write: VersionedWrite): Promise<void> {
  const outcome = await repo.deleteIntegration(ctx.db, id, sourceTag(id), write.expected);
  if (outcome === 'missing') throw notFoundError(`Integration ${id} not found.`);
  if (outcome === 'stale') throw await refusedIntegrationWrite(ctx, id, write, 'delete');
  await ctx.queue.boss.unschedule(RUN_INTEGRATION_JOB, String(id));
}

/** Queues a run now (one queued at most per integration); it shows queued until a worker starts it. */
export async function requestRun(ctx: IntegrationsContext, id: number) {
  const row = await settleInterrupted(ctx, await findOrFail(ctx, id));
  const payload: RunJobPayload = { integrationId: id, trigger: 'manual' };
  const jobId = await ctx.queue.boss.send(RUN_INTEGRATION_JOB, payload, { singletonKey: String(id) });
  if (row.status === 'running') return { id, status: 'running' as const, message: jobId ? 'A run is going; another follows it.' : 'A run is going and another is already queued.' };
  await repo.markQueued(ctx.db, id);
  return { id, status: 'queued' as const, message: jobId ? 'The run is queued.' : 'A run is already queued.' };
}

export async function getIntegrationStatus(ctx: IntegrationsContext, id: number): Promise<IntegrationStatusResponse> {
  const integration = await presentOne(ctx, await settleInterrupted(ctx, await findOrFail(ctx, id)));
  const { status, enabled, last_run_time, next_run_time, last_error_message, consecutive_failures, last_run_rejected, last_run_warning, last_run_kept_message, last_run_summary, run_progress } = integration;
  return { id, status, enabled, last_run_time, next_run_time, last_error_message, consecutive_failures, last_run_rejected, last_run_warning, last_run_kept_message, last_run_summary, run_progress };
}

const presentLog = (row: Awaited<ReturnType<typeof repo.listLogs>>[number]): IntegrationLogEntry => ({
  id: row.id,
  integration_id: row.integration_id,
  trigger: row.trigger,
  status: row.status,
  started_at: iso(row.started_at) ?? '',
  finished_at: iso(row.finished_at),
  pages: row.pages,
  requests: row.requests,
  rows_inserted: row.rows_inserted,
  rows_updated: row.rows_updated,
  rows_rejected: row.rows_rejected,
  rows_deleted: row.rows_deleted,
  rows_kept: row.rows_kept,
  window_from: row.window_from,
  window_to: row.window_to,
  error_message: row.error_message,
  kept_message: row.kept_message,
  rejections: row.rejections,
  rows_filtered: row.rows_filtered,
  rows_skipped: row.rows_skipped,
  filtered_by: row.filtered_by,
  products_created: row.products_created,
  new_products: row.new_products,
  summary: row.summary,
  progress: row.status === 'running' ? row.progress : null,
});

export async function listIntegrationLogs(ctx: IntegrationsContext, id: number, page: { page: number; page_size: number }): Promise<IntegrationLogPage> {
  await settleInterrupted(ctx, await findOrFail(ctx, id));
  const offset = (page.page - 1) * page.page_size;
  const [count, rows] = await Promise.all([repo.countLogs(ctx.db, id), repo.listLogs(ctx.db, id, { offset, limit: page.page_size })]);
  return { results: rows.map(presentLog), count, next: offset + rows.length < count ? page.page + 1 : null };
}

export type IntegrationsFeature = { service: IntegrationsContext; runs: RunContext };

/**
 * The contexts of the API and of the run jobs of one process. They share the run locks: on PGlite
 * the locks are this process's memory, and a status read must see the run its own worker holds.
 */
export async function createIntegrationsFeature(deps: {
  config: ServerConfig;
  database: AppDatabase;
  loadConfig: () => Promise<ProductConfig>;
  /** The job queue, once started (the run jobs are defined before it starts). */
  queue: () => JobQueue;
  onTableImported(written: ImportedTable): Promise<void>;
}): Promise<IntegrationsFeature> {
  const { config, database } = deps;
  const locks = repo.createRunLocks(database);
  const secrets = await loadSecretBox(database.db, config.secretKey);
  const outbound: OutboundPolicy = {
    allowed: parseAllowList(config.outbound.allowedHosts),
    connectTimeoutMs: config.outbound.connectTimeoutMs,
    readTimeoutMs: config.outbound.readTimeoutMs,
    maxResponseBytes: config.outbound.maxResponseBytes,
    maxRedirects: MAX_REDIRECTS,
  };
  const service: IntegrationsContext = {
    db: database.db,
    locks,
    secrets,
    loadConfig: deps.loadConfig,
    queue: { get boss() { return deps.queue().boss; } },
    outbound,
  };
  return {
    service,
    runs: {
      db: database.db,
      locks,
      secrets,
      writer: createIntegrationWriter({ database, loadConfig: deps.loadConfig }),
      settings: { outbound, retries: config.integrations.retries, retryBaseDelayMs: config.integrations.retryDelayMs, pauseAfterFailures: config.integrations.pauseAfterFailures },
      onTableImported: deps.onTableImported,
      onPaused: (id) => service.queue.boss.unschedule(RUN_INTEGRATION_JOB, String(id)),
    },
  };
}
