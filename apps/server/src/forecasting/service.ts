// Forecast generation (one product, a list of products or the whole catalogue, as a queued job with progress),
// stored forecasts in the spec §3 response shape, and the inventory report.
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely, Selectable } from 'kysely';
import { catalogueCalendar, closedDatesBetween, createForecastPool, firstOpenDayFrom, NEW_ITEM_DAYS, type CatalogueCalendar, type DailyTotals, type ForecastPool, type ProductForecast, type ProductStart } from '@stockwise/forecast';
import {
  csvLine,
  dayInTimeZone,
  DEFAULT_FORECAST_DAYS,
  DEFAULT_INACTIVE_DAYS,
  forecastSheet,
  INVENTORY_REPORT_COLUMNS,
  inventoryReportFileName,
  inventoryReportRow,
  productUnit,
  UTF8_BOM,
  WHOLE_CATALOGUE,
  XLSX_CONTENT_TYPE,
  type ForecastSheet,
  type InventoryReport,
  type InventoryReportExportQuery,
  type OpenDayAnswer,
  type ProductForecastResponse,
  type ReportQuery,
  type ShopClosedDate,
  type TaskStatusResponse,
} from '@stockwise/contract';
import type { Database, ForecastTasksTable, TaskRestartRecord } from '../db/schema.ts';
import { openConnections } from '../db/compiled.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { AppError } from '../http/errors.ts';
import type { Download } from '../http/downloads.ts';
import { xlsxStream } from '../http/xlsx.ts';
import { logError } from '../log.ts';
import { databaseErrorOf } from '../db/errors.ts';
import { readClosedDates, readCurrency } from '../shop/repo.ts';
import { shopTimeZone } from '../shop/service.ts';
import * as repo from './repo.ts';
import { historicalJson } from './history-json.ts';
import { jsonObjectMembers } from './stored-json.ts';
import { BACKTEST_FIELDS, dailyRowsJson, FORECAST_FIELDS, STOCK_FIELDS } from './stored-forecast.ts';
import { refreshCatalogueSummary } from '../dashboard/repo.ts';
import { orderAdvice, shortHistoryProducts, type AdvisedProduct } from '../order-advice/service.ts';
import { supplierNameOf } from '../suppliers/service.ts';
import type { BatchContext, BatchResult } from './batch-task.ts';
import type { RowsChange } from '../tables/service.ts';

export const GENERATE_FORECASTS_JOB = 'forecasting.generate';
/** Single products and lists of them have a queue (and worker) of their own: one is never queued behind a catalogue run. */
export const GENERATE_PRODUCT_FORECAST_JOB = 'forecasting.product';
const DEFAULT_REQUESTS_PER_MINUTE = 30;
const RATE_WINDOW_MS = 60_000;
/** The tables forecasts are computed from… */
const FORECAST_INPUT_TABLES = new Set(['sales', 'stock_snapshots', 'deliveries']);
/** …and the columns of products they read: stock on hand, lead time, category, unit (by measure or not), the supplier's case size and minimum. */
const FORECAST_INPUT_PRODUCT_COLUMNS = new Set(['current_stock', 'lead_time_days', 'category', 'unit', 'order_multiple', 'min_order_quantity']);

/** Whether writing these columns of this table changes what a forecast is made from. */
export const writesForecastInput = (table: string, columns: readonly string[]): boolean =>
  FORECAST_INPUT_TABLES.has(table) || (table === 'products' && columns.some((column) => FORECAST_INPUT_PRODUCT_COLUMNS.has(column)));
/**
 * Whether writing these columns of this table changes which products the order lists and the
 * stock-count task name without changing a forecast: products made here (ADR 0194) or not stocked
 * (ADR 0200). The dashboard's counts (the catalogue summary) then follow at once, not after the next run.
 */
export const writesListColumn = (table: string, columns: readonly string[]): boolean => table === 'products' && (columns.includes('made_here') || columns.includes('not_stocked'));
/** Days of history a forecast is made from and a forecast read shows (exported for bench/api-overhead). */
export const HISTORY_DAYS = 730;
// A chunk is what the pipeline holds at each stage (read, forecast, write): one statement reads
// it and one writes it. The event loop only moves strings (the worker threads parse and stringify),
// so a chunk this size blocks it for a few milliseconds at a time.
const PRODUCTS_PER_CHUNK = 250;
const RESULTS_PER_WRITE = 50;
const MAX_QUEUED_WRITES = 2;
const WRITES_IN_FLIGHT = 2;
// Products per message to a worker thread (each holds two): small, so both threads end a chunk together.
const PRODUCTS_PER_MESSAGE = 8;
const BATCH_TASK = new URL('./batch-task.ts', import.meta.url);
const PROGRESS_WRITE_INTERVAL_MS = 500;
// A catalogue run queued behind a running one looks again this often…
const WAIT_FOR_RUNNING_MS = 1000;
// …and takes over from one silent this long (a run reports progress every half second while it
// forecasts; its calendar's scan and its end are silent for seconds on the largest catalogues).
const STALLED_RUN_MS = 10 * 60_000;
const UNIQUE_VIOLATION = '23505';
// Connections open before a catalogue run's statements start: its own at the start (the calendar's
// scan, the first weeks, the first chunk's read; later a read and two writes) and three for requests.
// Opened once the cores are busy, each was a 150–300 ms wait for the read that asked for it.
export const CONNECTIONS_FOR_A_RUN = 6;
const DAY_MS = 86_400_000;

export type ForecastingContext = {
  db: Kysely<Database>;
  sendJob(name: string, payload: object): Promise<string>;
  /** pg-boss's view of a job, to notice one that died without reporting (crash after its last retry). */
  jobState(queue: string, jobId: string): Promise<{ state: string; output: unknown } | null>;
  /** Generation requests per user and minute (429 above it). */
  requestsPerMinute: number;
  /** When each user's recent requests came, for the limit (per process). */
  recentRequests: Map<number, number[]>;
  /** The most products one list's run forecasts; more go to a whole-catalogue run (LIST_RUN_MOST_PRODUCTS). */
  listRunMostProducts: number;
};

/**
 * Above this many products a list is forecast by a whole-catalogue run instead (ADR 0187, measured
 * in docs/performance.md): a list's run takes the server's own thread and the single products'
 * queue for 0.6 ms a product, 1.5 s at this size on 10,000 products (a seventh of the catalogue's run).
 */
export const LIST_RUN_MOST_PRODUCTS = 1000;

export function createForecastingContext(db: Kysely<Database>, queue: Pick<JobQueue, 'send' | 'jobState'>, options: { requestsPerMinute?: number; listRunMostProducts?: number } = {}): ForecastingContext {
  return {
    db,
    sendJob: queue.send,
    jobState: queue.jobState,
    requestsPerMinute: options.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
    recentRequests: new Map(),
    listRunMostProducts: options.listRunMostProducts ?? LIST_RUN_MOST_PRODUCTS,
  };
}

/** Queues a whole-catalogue run (after demo seeding, after imports of sales or stock). */
export const requestCatalogueForecast = (ctx: ForecastingContext) =>
  requestForecastGeneration(ctx, { styleCode: undefined, forecastDays: DEFAULT_FORECAST_DAYS, requestedBy: null });

/** A sliding minute per user: every request counts, merged ones too, as each costs a round of polling. */
function takeRequest(ctx: ForecastingContext, userId: number): void {
  const now = Date.now();
  const recent = (ctx.recentRequests.get(userId) ?? []).filter((at) => at > now - RATE_WINDOW_MS);
  if (recent.length >= ctx.requestsPerMinute) {
    const retryAfter = Math.max(1, Math.ceil(((recent[0] as number) + RATE_WINDOW_MS - now) / 1000));
    ctx.recentRequests.set(userId, recent);
    throw new AppError('throttled', `Too many forecast requests: at most ${ctx.requestsPerMinute} a minute. Try again in ${retryAfter} s.`, { headers: { 'retry-after': String(retryAfter) } });
  }
  recent.push(now);
  ctx.recentRequests.set(userId, recent);
}

type TaskScope = Pick<Selectable<ForecastTasksTable>, 'style_code' | 'product_ids'>;
const queueOf = (task: TaskScope) => (task.style_code || task.product_ids ? GENERATE_PRODUCT_FORECAST_JOB : GENERATE_FORECASTS_JOB);

/**
 * A queued or running task whose job pg-boss has given up on (a crash after the last retry) is
 * marked failed; true when it was. Without this, a dead catalogue task would absorb every later
 * catalogue request.
 */
async function settleDeadTask(ctx: ForecastingContext, task: TaskScope & { id: string; status: string; job_id: string | null }): Promise<boolean> {
  if ((task.status !== 'pending' && task.status !== 'running') || !task.job_id) return false;
  const job = await ctx.jobState(queueOf(task), task.job_id);
  if (!job || (job.state !== 'failed' && job.state !== 'cancelled')) return false;
  // pg-boss's output of a dead job can be an error with SQL text: logged, not shown.
  await repo.failTask(ctx.db, task.id, taskFailureMessage(job.output, `Forecast generation stopped (${job.state})`));
  return true;
}

/** A stable message and an error id the log can be searched for: no SQL text or stack reaches a user. */
function taskFailureMessage(error: unknown, summary?: string): string {
  const errorId = newErrorId();
  logError('forecast task failed', error, { error_id: errorId });
  return failureText(errorId, summary);
}

const newErrorId = () => randomBytes(6).toString('hex');
const failureText = (errorId: string, summary = 'Forecast generation failed') => `${summary} (error id ${errorId}); the details are in the server log.`;

/**
 * Why a product could not be forecast, in the shop's words: the engine's are ours ("yearlyProfile
 * must be 366 non-negative numbers."), about inputs the server derived, not the shop's rows. They go
 * to the log under an error id the sentence names.
 */
function productFailureText(styleCode: string, engineError: string): string {
  const errorId = newErrorId();
  logError('product could not be forecast', engineError, { error_id: errorId, style_code: styleCode });
  return `its data could not be read; the details are in the server log under error id ${errorId}`;
}

/**
 * A deterministic failure would fail again on retry: the task is marked failed and the job ends.
 * Our own errors are worded for users; anything else (a database error) is logged, not shown. When
 * the failure cannot be stored either — the database closed under a run as its server stops — the
 * task has not failed: the job runs again (its retry, or the supervisor's after a crash), and the
 * log says so instead of naming an error id no task carries.
 */
async function endFailedTask(db: Kysely<Database>, taskId: string, error: unknown): Promise<void> {
  if (error instanceof AppError) return void (await repo.failTask(db, taskId, error.message));
  const errorId = newErrorId();
  try {
    await repo.failTask(db, taskId, failureText(errorId));
  } catch (storeError) {
    logError('forecast task interrupted; its job will run again', error, { task_id: taskId, store_error: storeError instanceof Error ? storeError.message : String(storeError) });
    throw storeError;
  }
  logError('forecast task failed', error, { error_id: errorId, task_id: taskId });
}

/**
 * A catalogue request joins the run already queued, which has read nothing yet; else a new one is
 * queued, also while a run is going: that one may have read the products before the data the
 * request follows (a shop's stock counts imported a minute after its sales), and runs after it.
 */
async function requestCatalogueRun(ctx: ForecastingContext, forecastDays: number, requestedBy: number | null): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = randomUUID();
    if (await repo.insertCatalogueTask(ctx.db, { id, forecastDays, requestedBy })) {
      await queueTask(ctx, id, GENERATE_FORECASTS_JOB);
      return id;
    }
    const queued = await repo.queuedCatalogueTask(ctx.db);
    // Started meanwhile, or dead: the next attempt queues a new one.
    if (queued && !(await settleDeadTask(ctx, queued))) return queued.id;
  }
  throw new AppError('conflict', 'A whole-catalogue forecast is starting and finishing at the same time; try again.');
}

async function queueTask(ctx: ForecastingContext, taskId: string, queue: string): Promise<void> {
  try {
    await repo.setTaskJob(ctx.db, taskId, await ctx.sendJob(queue, { taskId }));
  } catch (error) {
    // A task without a job would never run, and an active catalogue task would absorb every later request.
    await repo.failTask(ctx.db, taskId, taskFailureMessage(error, 'Forecast generation could not be queued'));
    throw error;
  }
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const productNotFound = (styleCode: string) => new AppError('not_found', `Product '${styleCode}' not found.`);
const taskNotFound = (taskId: string) => new AppError('not_found', `Task '${taskId}' not found.`);
const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

export async function requestForecastGeneration(
  ctx: ForecastingContext,
  options: { styleCode: string | undefined; forecastDays: number; requestedBy: number | null },
): Promise<{ task_id: string }> {
  if (options.requestedBy !== null) takeRequest(ctx, options.requestedBy);
  if (!options.styleCode || options.styleCode === WHOLE_CATALOGUE) return { task_id: await requestCatalogueRun(ctx, options.forecastDays, options.requestedBy) };
  const styleCode = options.styleCode;
  if (!(await repo.findProductByStyleCode(ctx.db, styleCode))) throw productNotFound(styleCode);
  return { task_id: await queueProductTask(ctx, { styleCode, forecastDays: options.forecastDays, requestedBy: options.requestedBy }) };
}

async function queueProductTask(ctx: ForecastingContext, task: { styleCode: string; forecastDays: number; requestedBy: number | null }): Promise<string> {
  const id = randomUUID();
  await repo.insertTask(ctx.db, { id, ...task });
  await queueTask(ctx, id, GENERATE_PRODUCT_FORECAST_JOB);
  return id;
}

/**
 * Deleted products (on the Data screen, or by an integration's replace) took their forecasts with
 * them, so the report leaves them out at once: the dashboard's task counts (read from the catalogue
 * summary) follow now, not after the next forecast run, which a delete does not start (ADR 0150).
 */
export const refreshSummaryAfterProductsDeleted = (ctx: ForecastingContext): Promise<void> => refreshCatalogueSummary(ctx.db);

/**
 * A row written on the Data screen (a corrected stock count, a day's sales, a delivery, a lead
 * time) changes the forecasts of the products it belongs to: they are forecast again — one on its
 * own, several in one list's run (requestRunOfProducts). Imports, which write many products at once,
 * queue a whole-catalogue run instead (refreshForecastsAfterImport). A catalogue run going on now may
 * have read the products before the write; their forecasts, stored after their own run's, do not
 * replace the newer ones (ADR 0134), so nothing more is queued for it.
 */
export async function refreshForecastsAfterRowsChange(ctx: ForecastingContext, change: RowsChange): Promise<void> {
  if (change.table === 'products' && change.action === 'delete') {
    await refreshSummaryAfterProductsDeleted(ctx);
    return;
  }
  if (writesListColumn(change.table, change.columns)) await refreshCatalogueSummary(ctx.db);
  if (!writesForecastInput(change.table, change.columns)) return;
  const productIds = change.rows.map((row) => Number(change.table === 'products' ? row.id : row.product_id)).filter(Number.isSafeInteger);
  await requestRunOfProducts(ctx, productIds, null);
}

/** The products the assistant's advised orders gave a delivery, forecast again (requestRunOfProducts). */
export async function refreshForecastsAfterDeliveries(ctx: ForecastingContext, productIds: number[]): Promise<void> {
  await requestRunOfProducts(ctx, productIds, null);
}

/**
 * The products a buyer recorded orders of (ADR 0182, 0185), forecast again in one run the screen
 * follows (requestRunOfProducts): the run's task id.
 */
export async function refreshForecastAfterOrders(ctx: ForecastingContext, productIds: number[], requestedBy: number): Promise<string> {
  const taskId = await requestRunOfProducts(ctx, productIds, requestedBy);
  if (!taskId) throw productNotFound(String(productIds[0]));
  return taskId;
}

/**
 * These products' forecasts made again, in one task: its id, null when none of them exists.
 * - One product: its own run — the one of it waiting to start, which has read nothing yet, else a
 *   new one (ADR 0133).
 * - Several: one list's run (ADR 0187). A whole-catalogue run waiting to start forecasts them too:
 *   the list joins it (ADR 0132's rule). Else the oldest list waiting to start within whose limit
 *   they fit takes them in; else a new list's run is queued — one request at a time, so two at the
 *   same moment do not queue two lists (repo.joinOrQueueList).
 * - More than ctx.listRunMostProducts: a whole-catalogue run (requestCatalogueRun), in its own
 *   process where there is one (ADR 0127), on every core.
 */
async function requestRunOfProducts(ctx: ForecastingContext, productIds: number[], requestedBy: number | null): Promise<string | null> {
  const found = await repo.productsAmong(ctx.db, productIds);
  const [first] = found;
  if (first === undefined) return null;
  if (found.length === 1) {
    const product = await repo.queuedProductRun(ctx.db, first);
    if (!product) return null;
    return product.taskId ?? queueProductTask(ctx, { styleCode: product.styleCode, forecastDays: DEFAULT_FORECAST_DAYS, requestedBy });
  }
  if (found.length > ctx.listRunMostProducts) return requestCatalogueRun(ctx, DEFAULT_FORECAST_DAYS, requestedBy);
  return requestListRun(ctx, found, requestedBy);
}

async function requestListRun(ctx: ForecastingContext, productIds: number[], requestedBy: number | null): Promise<string> {
  const queuedCatalogue = await repo.queuedCatalogueTask(ctx.db);
  if (queuedCatalogue && !(await settleDeadTask(ctx, queuedCatalogue))) return queuedCatalogue.id;
  // A list whose job died would take in every later list: it is failed first (its job's state is
  // the queue's, read outside the lists' lock: on PGlite the queue shares the one session).
  for (const queued of await repo.queuedListTasks(ctx.db)) await settleDeadTask(ctx, queued);
  const id = randomUUID();
  const taskId = await repo.joinOrQueueList(ctx.db, { id, productIds, forecastDays: DEFAULT_FORECAST_DAYS, requestedBy }, ctx.listRunMostProducts);
  if (taskId === id) await queueTask(ctx, id, GENERATE_PRODUCT_FORECAST_JOB);
  return taskId;
}

export async function getForecastTaskStatus(ctx: ForecastingContext, taskId: string): Promise<TaskStatusResponse> {
  let task = isUuid(taskId) ? await repo.findTask(ctx.db, taskId) : undefined;
  if (!task) throw taskNotFound(taskId);
  if (await settleDeadTask(ctx, task)) task = (await repo.findTask(ctx.db, taskId)) ?? task;
  return {
    task_id: task.id,
    status: task.status,
    progress: { done: task.progress_done, total: task.progress_total },
    results: (task.results as TaskStatusResponse['results']) ?? null,
    error: task.error,
    restart: describedRestart(task.restart, new Date()),
  };
}

/**
 * A restart as the status says it: "Restarted after the server stopped at 14:02 UTC; 1,200 of 3,000
 * products were done before and are not forecast again." (the day too when it was not today's).
 */
export function describedRestart(restart: TaskRestartRecord | null, now: Date): TaskStatusResponse['restart'] {
  if (!restart) return null;
  const day = restart.stopped_at.slice(0, 10);
  const at = `${day === now.toISOString().slice(0, 10) ? '' : `on ${day} `}at ${restart.stopped_at.slice(11, 16)} UTC`;
  const done = `${restart.done_before.toLocaleString('en-US')} of ${restart.total.toLocaleString('en-US')} products`;
  const message = !restart.done_before
    ? `Restarted after the server stopped ${at}, before any product's forecast was stored.`
    : restart.resumed
      ? `Restarted after the server stopped ${at}; ${done} were done before and are not forecast again.`
      : `Restarted from the first product after the server stopped ${at}; ${done} had been done, but new sales have moved the first day to forecast since.`;
  return { ...restart, message };
}

/**
 * The first day to forecast: the day after the newest sale anywhere (so stale data does not read as
 * zero demand), but never after the shop's today. Today's till so far is not a whole day: the
 * forecast starts today and its history ends yesterday (ADR 0169). The shop's day is its time
 * zone's (Settings → Shop), the server's while it chose none (ADR 0173).
 */
async function forecastStartDay(db: Kysely<Database>): Promise<string> {
  const [last, timeZone] = await Promise.all([repo.lastSalesDate(db), shopTimeZone(db)]);
  const today = dayInTimeZone(Date.now(), timeZone);
  return last && addDays(last, 1) < today ? addDays(last, 1) : today;
}

type ChunkOutcome = { failed: { styleCode: string; error: string }[]; stockouts: number; stored: number };

/**
 * The catalogue's calendar (public-holiday closures, yearly pattern per category) from every
 * product's sales since `since`, stored for single-product forecasts until the next run.
 */
async function refreshCalendar(db: Kysely<Database>, since: string, today: string): Promise<CatalogueCalendar> {
  const days = dayNumber(today) - dayNumber(since);
  const firstWeeks = repo.productFirstWeeks(db, since, NEW_ITEM_DAYS);
  firstWeeks.catch(() => {});
  const groups = new Map<string | null, DailyTotals>();
  for (const row of await repo.categoryDailySales(db, since)) {
    let group = groups.get(row.category);
    if (!group) groups.set(row.category, (group = { firstDay: dayNumber(since), totals: new Float64Array(days) }));
    if (row.day < days) group.totals[row.day] = row.units;
  }
  const starts = (await firstWeeks).map((row): ProductStart => ({ category: row.category, firstSaleDay: dayNumber(since) + Number(row.first_day), units: row.units }));
  // The shop's closed days (its congés typed in Settings → Shop) are no low demand in the patterns learned.
  const shopClosed = await readClosedDates(db);
  const calendar = catalogueCalendar(groups, starts, shopClosed.map(({ date }) => date));
  await repo.saveCalendar(db, { historyStart: since, historyEnd: addDays(today, -1), calendar });
  return withClosedDates(calendar, shopClosed);
}

/** The calendar of the last catalogue run (computed now if there was none), with the shop's closed days. */
async function storedCalendar(db: Kysely<Database>, since: string, today: string): Promise<CatalogueCalendar> {
  const stored = await repo.findCalendar(db);
  return stored ? withShopClosures(db, stored.calendar as unknown as CatalogueCalendar) : refreshCalendar(db, since, today);
}

/**
 * `calendar` with the days the shop said it will be closed on (Settings → Shop, ADR 0171). Read at
 * each use and never stored with the learned calendar, so a change counts from the next forecast on.
 */
async function withShopClosures<Calendar extends Pick<CatalogueCalendar, 'closedOn' | 'closedOnNotes'>>(db: Kysely<Database>, calendar: Calendar): Promise<Calendar> {
  return withClosedDates(calendar, await readClosedDates(db));
}

function withClosedDates<Calendar extends Pick<CatalogueCalendar, 'closedOn' | 'closedOnNotes'>>(calendar: Calendar, closed: readonly ShopClosedDate[]): Calendar {
  if (!closed.length) return calendar;
  const closedOnNotes = Object.fromEntries(closed.flatMap(({ date, note }) => (note ? [[date, note]] : [])));
  return { ...calendar, closedOn: closed.map(({ date }) => date), closedOnNotes };
}

/**
 * What the business is closed on, for dates ahead: the last catalogue run's calendar (none yet: no
 * learned closures) with the shop's closed days. With firstOpenDayFrom, the first day it is open
 * from a date (an order-by date, a delivery's arrival).
 */
export async function shopCalendar(db: Kysely<Database>): Promise<OpenDaysCalendar> {
  const stored = await repo.findCalendar(db);
  const learned: OpenDaysCalendar = (stored?.calendar as unknown as CatalogueCalendar | undefined) ?? { closedDates: [] };
  return withShopClosures(db, learned);
}

export type OpenDaysCalendar = Parameters<typeof firstOpenDayFrom>[0];

/**
 * The day a delivery ordered today arrives, per lead time: after the lead time, on the first day the
 * business is open (shopCalendar: a shop closed on Sundays, or on a stock-take day, takes nothing in
 * then). Without a calendar or closed days, the lead time's day.
 */
export async function arrivalDays(db: Kysely<Database>, today: string, leadTimes: number[]): Promise<string[]> {
  const calendar = await shopCalendar(db);
  return leadTimes.map((days) => firstOpenDayFrom(calendar, addDays(today, days)));
}

/** Whether the shop is closed on `date` (learnt closures and its own closed days), the note of its own, and the first open day from it. */
export async function openDay(db: Kysely<Database>, date: string): Promise<OpenDayAnswer> {
  const [calendar, own] = await Promise.all([shopCalendar(db), readClosedDates(db)]);
  const closed = (calendar.closedWeekdays ?? []).includes(new Date(`${date}T00:00:00Z`).getUTCDay()) || closedDatesBetween(calendar, date, 1).length > 0;
  return { date, closed, note: own.find((day) => day.date === date)?.note ?? null, next_open: closed ? firstOpenDayFrom(calendar, date) : date };
}

/** Forecast rows from the worker threads, stored a few at a time; what happened to each product. */
async function storeResults(
  ctx: Pick<ForecastingContext, 'db'>,
  results: BatchResult[],
  options: { taskId: string | null; horizon: number; today: string; inputsReadAt: string },
): Promise<ChunkOutcome> {
  const outcome: ChunkOutcome = { failed: [], stockouts: 0, stored: 0 };
  const rows: repo.StoredForecastRow[] = [];
  for (const result of results) {
    if ('error' in result) outcome.failed.push({ styleCode: result.code, error: productFailureText(result.code, result.error) });
    else {
      if (result.stockout) outcome.stockouts += 1;
      rows.push(result.row);
    }
  }
  // The driver encodes a statement's text on the event loop: about a megabyte at a time keeps each turn short.
  // Two statements in flight, on two connections: PostgreSQL runs each on one core, and a run's last
  // writes (and any backlog while the threads forecast) would otherwise leave the other core idle.
  let next = 0;
  const writeSlices = async () => {
    while (next < rows.length) {
      const from = next;
      next += RESULTS_PER_WRITE;
      const stored = await repo.storeForecastRows(ctx.db, rows.slice(from, from + RESULTS_PER_WRITE), {
        taskId: options.taskId,
        forecastDays: options.horizon,
        forecastStart: options.today,
        inputsReadAt: options.inputsReadAt,
      });
      outcome.stored += stored;
    }
  };
  await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, writeSlices));
  return outcome;
}

const batchContext = (today: string, horizon: number, calendar: CatalogueCalendar, firstSale: string | null): BatchContext => ({
  today,
  horizon,
  since: historyStart(today),
  historyDays: HISTORY_DAYS,
  calendar,
  firstSale,
});

/**
 * The products a product's or a list's task forecasts, in id order; null: the whole catalogue. A
 * list is fixed as its task is marked running (repo.startListRun): requests add to waiting lists only.
 */
async function productsOfTask(db: Kysely<Database>, task: Selectable<ForecastTasksTable>): Promise<number[] | null> {
  if (task.product_ids) return repo.startListRun(db, task.id);
  if (!task.style_code) return null;
  const product = await repo.findProductByStyleCode(db, task.style_code);
  if (!product) throw new AppError('not_found', `Product '${task.style_code}' no longer exists.`);
  return [product.id];
}

/**
 * The job: idempotent (results are upserted per product), so a retry after a crash simply runs
 * again. A pipeline over chunks of products: while the worker threads forecast one chunk, the next
 * chunk's histories are read and the previous chunk's results written. A product's or a list's run
 * (ADR 0187) goes the same way over its own products.
 */
export async function runForecastGeneration(ctx: Pick<ForecastingContext, 'db'>, payload: { taskId: string }): Promise<void> {
  const task = await repo.findTask(ctx.db, payload.taskId);
  if (!task || task.status === 'completed') return;
  const started = Date.now();
  let pool: ForecastPool<repo.ProductRows, BatchResult> | null = null;
  try {
    const today = await forecastStartDay(ctx.db);
    const since = historyStart(today);
    const listed = await productsOfTask(ctx.db, task);
    const total = listed ? listed.length : await repo.countProducts(ctx.db);
    // Still marked running: the run was cut off (the server stopped) and this is its job's retry.
    const resumed = task.status === 'running' ? await resumeCutOffRun(ctx.db, task, today, total, listed) : null;
    if (listed) await repo.markTaskRunning(ctx.db, task.id, total, resumed);
    else await startAfterRunningCatalogueRun(ctx.db, task.id, total, resumed);
    if (!listed) await openConnections(ctx.db, CONNECTIONS_FOR_A_RUN);
    // A catalogue run reads the calendar afresh; a product's or a list's uses the last run's. The
    // threads start, and the first chunk is read, while the database sums the catalogue's days.
    const calendar = listed ? storedCalendar(ctx.db, since, today) : refreshCalendar(ctx.db, since, today);
    calendar.catch(() => {});
    const firstSale = repo.firstSalesDateSince(ctx.db, since);
    firstSale.catch(() => {});
    // A product's or a list's products are forecast on this thread, a message's worth at a time
    // with a turn of the event loop between: starting the threads took longer than forecasting a
    // list of 1,000 (ADR 0187: 0.5 s of CPU, 0.6 ms a product). Nor is anything lowered for them:
    // V8's platform threads stay lowered for the life of a process (ADR 0120), and a server whose
    // catalogue runs take place elsewhere (ADR 0127) keeps them for its requests' garbage.
    pool = createForecastPool({
      background: !listed,
      chunkSize: PRODUCTS_PER_MESSAGE,
      workers: listed ? 1 : undefined,
      task: { module: BATCH_TASK, context: Promise.all([calendar, firstSale]).then(([found, first]) => batchContext(today, task.forecast_days, found, first)) },
    });
    const failed: { styleCode: string; error: string }[] = [];
    let stockouts = resumed?.stockouts ?? 0;
    let stored = resumed?.stored ?? 0;
    let forecasted = resumed?.done ?? 0;
    let lastProgressWrite = 0;
    const reportProgress = (doneInChunk: number) => {
      if (Date.now() - lastProgressWrite < PROGRESS_WRITE_INTERVAL_MS) return;
      lastProgressWrite = Date.now();
      void repo.setTaskProgress(ctx.db, task.id, forecasted + doneInChunk).catch(() => {});
    };
    const loadChunk = (afterId: number): Promise<repo.ProductRowsRead> => {
      if (!listed) return repo.productRowsAfter(ctx.db, afterId, PRODUCTS_PER_CHUNK, since);
      // Past the last product: nothing to read.
      return afterId >= (listed.at(-1) ?? 0) ? Promise.resolve({ rows: [], readAt: null }) : repo.productRowsAmong(ctx.db, listed, afterId, PRODUCTS_PER_CHUNK, since);
    };
    let next = loadChunk(resumed?.lastId ?? 0);
    let writing: Promise<void> = Promise.resolve();
    let writesQueued = 0;
    for (;;) {
      const { rows: products, readAt } = await next;
      if (!products.length || !readAt) break;
      next = loadChunk((products.at(-1) as repo.ProductRows).id);
      // Awaited on the next turn; settled here so a failure meanwhile is not an unhandled rejection.
      next.catch(() => {});
      const results = await pool.run(products, reportProgress);
      forecasted += products.length;
      // The threads go on while up to two chunks wait to be written: a slow write does not idle them.
      if (writesQueued >= MAX_QUEUED_WRITES) await writing;
      writesQueued += 1;
      writing = writing
        .then(() => storeResults(ctx, results, { taskId: task.id, horizon: task.forecast_days, today, inputsReadAt: readAt }))
        .then((chunk) => {
          failed.push(...chunk.failed);
          stockouts += chunk.stockouts;
          stored += chunk.stored;
          writesQueued -= 1;
        });
      writing.catch(() => {});
    }
    await writing;
    await calendar;
    await repo.setTaskProgress(ctx.db, task.id, forecasted);
    await refreshCatalogueSummary(ctx.db, listed ? undefined : task.id);
    await repo.completeTask(ctx.db, task.id, {
      style_code: task.style_code,
      forecast_days: task.forecast_days,
      products: stored,
      failed: failed.slice(0, 100),
      stockouts,
      duration_ms: Date.now() - started,
    });
  } catch (error) {
    await endFailedTask(ctx.db, task.id, error);
  } finally {
    await pool?.close();
  }
}

/** A cut-off run run again: what it had stored (not forecast again when `resumed`), and what it says of its restart. */
type ResumedRun = { done: number; stored: number; stockouts: number; lastId: number; restart: TaskRestartRecord };

/**
 * A run cut off by a crash and run again by its job's retry (ADR 0170; a list's too, ADR 0187): it
 * goes on after the last product it stored, counting those and their stockouts, unless new sales
 * have moved the day to forecast from since: then it starts again from the first product, and says
 * so. Its restart notes when it stopped (its last progress, written every half second) and how far
 * it had got. `listed`: a product's or a list's products; null, the whole catalogue.
 */
async function resumeCutOffRun(db: Kysely<Database>, task: Pick<Selectable<ForecastTasksTable>, 'id' | 'updated_at'>, today: string, total: number, listed: number[] | null): Promise<ResumedRun> {
  const restart = { stopped_at: task.updated_at.toISOString(), total };
  const kept = await repo.storedByTask(db, task.id, listed);
  if (!kept || kept.forecastStart !== today) return { done: 0, stored: 0, stockouts: 0, lastId: 0, restart: { ...restart, done_before: kept?.done ?? 0, resumed: false } };
  return { ...kept, restart: { ...restart, done_before: kept.done, resumed: true } };
}

/**
 * Marks a catalogue task running once no other one is (a unique index lets only one run: two would
 * read and write the same products, the older data last, maybe). A run that has reported no
 * progress for STALLED_RUN_MS has died without its job noticing (no retry left): it is failed, and
 * this one goes on.
 */
async function startAfterRunningCatalogueRun(db: Kysely<Database>, taskId: string, total: number, resumed: ResumedRun | null): Promise<void> {
  for (;;) {
    try {
      await repo.markTaskRunning(db, taskId, total, resumed);
      return;
    } catch (error) {
      if (databaseErrorOf(error)?.code !== UNIQUE_VIOLATION) throw error;
    }
    const running = await repo.runningCatalogueTask(db);
    if (running && Date.now() - running.updated_at.getTime() > STALLED_RUN_MS) {
      await repo.failTask(db, running.id, 'Stopped reporting progress; the next whole-catalogue run replaced it.');
    } else await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_RUNNING_MS));
  }
}

/** One product forecast now over `horizon` days from `today` on one thread (the last catalogue run's calendar); null: the product is gone. */
async function forecastNow(db: Kysely<Database>, productId: number, today: string, horizon: number): Promise<{ result: BatchResult; readAt: string } | null> {
  const since = historyStart(today);
  const [calendar, firstSale] = await Promise.all([storedCalendar(db, since, today), repo.firstSalesDateSince(db, since)]);
  const pool = createForecastPool<repo.ProductRows, BatchResult>({ workers: 1, task: { module: BATCH_TASK, context: batchContext(today, horizon, calendar, firstSale) } });
  try {
    const { rows, readAt } = await repo.productRowsOf(db, productId, since);
    const [result] = readAt ? await pool.run(rows) : [];
    return result && readAt ? { result, readAt } : null;
  } finally {
    await pool.close();
  }
}

/** One product forecast now and stored (a product never forecast yet); why not, when it could not be. */
async function forecastOneNow(db: Kysely<Database>, product: repo.ProductRecord, today: string): Promise<string | null> {
  const forecast = await forecastNow(db, product.id, today, DEFAULT_FORECAST_DAYS);
  if (!forecast) return null;
  const { failed } = await storeResults({ db }, [forecast.result], { taskId: null, horizon: DEFAULT_FORECAST_DAYS, today, inputsReadAt: forecast.readAt });
  return failed[0]?.error ?? null;
}

/**
 * The nightly run: a whole-catalogue task, generated in the worker that picked up the schedule. A
 * run already queued on request is left to its own job; a nightly one (no job of its own) cut off
 * by a crash, still marked running, is resumed by the schedule's retry.
 */
export async function runNightlyForecast(ctx: Pick<ForecastingContext, 'db'>, runCatalogue: CatalogueRunner = (taskId) => runForecastGeneration(ctx, { taskId })): Promise<void> {
  const running = await repo.runningCatalogueTask(ctx.db);
  if (running && !running.job_id) return runCatalogue(running.id);
  const id = randomUUID();
  if (await repo.insertCatalogueTask(ctx.db, { id, forecastDays: DEFAULT_FORECAST_DAYS, requestedBy: null })) return runCatalogue(id);
  const queued = await repo.queuedCatalogueTask(ctx.db);
  if (queued && !queued.job_id) await runCatalogue(queued.id);
}

/** Runs a forecast task to its end, in this process (runForecastGeneration) or another (run-process.ts). */
export type CatalogueRunner = (taskId: string) => Promise<void>;

/**
 * A product's forecast answer as JSON text (productForecastJson): the route sends it as it is. With
 * `forecastDays` other than the stored forecast's, the product is forecast now over that many days
 * from the stored forecast's first day, and not stored: the stored forecast is the order lists'
 * (ADR 0162, amendment 2026-12-04 horizon).
 */
export async function getProductForecast(ctx: ForecastingContext, options: { styleCode: string; forecastDays?: number | undefined; requestedBy: number }): Promise<string> {
  const stored = await withSupplierName(ctx.db, await storedProductForecast(ctx, options.styleCode));
  if (options.forecastDays === undefined || options.forecastDays === stored.forecast_days) return productForecastJson(stored);
  // A forecast computed for the asking, as a generation request is: counted against the same per-user limit.
  takeRequest(ctx, options.requestedBy);
  const forecast = await forecastNow(ctx.db, stored.id, stored.forecast_start, options.forecastDays);
  if (!forecast) throw productNotFound(options.styleCode);
  if ('error' in forecast.result) throw new AppError('validation_error', `Cannot forecast '${options.styleCode}': ${forecast.result.error}`);
  return productForecastJson({ ...stored, generated_at: new Date(), result: forecast.result.row.resultJson, forecast_days: options.forecastDays });
}

/** The product's stored forecast with its history; a product never forecast yet is forecast (and stored) now, so reading a forecast always answers. */
async function storedProductForecast(ctx: ForecastingContext, styleCode: string): Promise<StoredProductForecast> {
  const row = await repo.findProductForecast(ctx.db, styleCode, HISTORY_DAYS);
  if (!row) throw productNotFound(styleCode);
  if (isStored(row)) return row;
  const error = await forecastOneNow(ctx.db, row, await forecastStartDay(ctx.db));
  if (error) throw new AppError('validation_error', `Cannot forecast '${styleCode}': ${error}`);
  const forecast = await repo.findProductForecast(ctx.db, styleCode, HISTORY_DAYS);
  if (!forecast || !isStored(forecast)) throw productNotFound(styleCode);
  return forecast;
}

/** The product's supplier by that supplier's one spelling, as the order lists name it (ADR 0186): only its spellings read, for a product that has one. */
async function withSupplierName<Row extends { supplier: string | null }>(db: Kysely<Database>, row: Row): Promise<Row> {
  return row.supplier === null ? row : { ...row, supplier: await supplierNameOf(db, row.supplier) };
}

type StoredProductForecast = repo.ProductForecastRow & { generated_at: Date; forecast_start: string; forecast_days: number; result: string };
const isStored = (row: repo.ProductForecastRow): row is StoredProductForecast => row.result !== null;

/** The first day of the history a forecast is made from and a forecast read shows. */
const historyStart = (today: string) => addDays(today, -HISTORY_DAYS);

type StoredModel = ProductForecast['model'] & Partial<Pick<ProductForecast['model'], 'history' | 'patterns'>>;

/**
 * The answer of a forecast read (ProductForecastResponse) from its product, stored forecast and
 * history, as JSON text (exported for bench/api-overhead). The stored forecast's stockouts and
 * reorder advice are spliced in as the engine wrote them (docs/adr/0083), its daily rows written from
 * their stored columns (docs/adr/0152); the history is written from the database's pairs
 * (history-json.ts). Only the small model summary is parsed as a whole, to fill in what forecasts
 * stored before its history label existed lack.
 */
export function productForecastJson(stored: StoredProductForecast): string {
  const today = stored.forecast_start;
  const members = jsonObjectMembers(stored.result);
  const member = (key: keyof ProductForecast) => {
    const text = members.get(key);
    if (text === undefined) throw new Error(`The stored forecast of product ${stored.id} has no ${key}.`);
    return text;
  };
  const model = JSON.parse(member('model')) as StoredModel;
  const { mase, smape, mae, coverage95 } = model.backtest;
  const historical = historicalJson(stored, historyStart(today), HISTORY_DAYS);
  const head: Pick<ProductForecastResponse, 'report' | 'product'> = {
    report: { id: stored.task_id ?? `product-${stored.id}`, type: 'product_forecast', title: `Forecast for ${stored.name}`, productCode: stored.product_code, timestamp: stored.generated_at.toISOString() },
    product: {
      id: stored.id,
      styleCode: stored.product_code,
      name: stored.name,
      currentStock: stored.current_stock,
      unit: productUnit(stored.unit),
      supplier: stored.supplier,
      ...(stored.made_here ? { madeHere: true } : {}),
      ...(stored.not_stocked ? { notStocked: true } : {}),
      unitCost: stored.unit_cost,
      leadTimeDays: stored.lead_time_days,
      lastCount: countOf(stored.last_count),
      onHand: historical.onHand,
    },
  };
  const metrics: ProductForecastResponse['metrics'] = {
    // The last day of history: the spec's chart drops forecast values on or before it (the backtest overlap).
    display_window: { forecast_start: addDays(today, -1) },
    // Forecasts stored before the history label existed were all of full histories.
    model: { name: model.name, description: model.description, demandClass: model.demandClass, history: model.history ?? 'full', patterns: model.patterns ?? [] },
    accuracy: { mase, smape, mae, ...(coverage95 === undefined ? {} : { coverage95 }) },
  };
  const display: Pick<ProductForecastResponse, 'display_settings'> = { display_settings: { historical_forecast: false } };
  const activity: Pick<ProductForecastResponse, 'activity'> = { activity: { recentDemand: Number(stored.recent_demand), inactiveDays: DEFAULT_INACTIVE_DAYS } };
  return (
    `${JSON.stringify(head).slice(0, -1)},"historical":${historical.json},"forecast":{"sales":${dailyRowsJson(member('forecast'), FORECAST_FIELDS)},"stock":${dailyRowsJson(member('stock'), STOCK_FIELDS)}},"backtest":${dailyRowsJson(member('backtest'), BACKTEST_FIELDS)},` +
    `"metrics":${JSON.stringify(metrics)},${JSON.stringify(display).slice(1, -1)},"stockouts":${member('stockouts')},"reorder":${member('reorder')},${JSON.stringify(activity).slice(1, -1)}}`
  );
}

/**
 * What a product has on hand by its stored forecast, as its forecast read says it (`product.onHand`,
 * `product.lastCount`) — for the assistant's stock answer, so it and the Forecasting screen agree.
 * `forecastStart`: the last day of history; null before the product's first forecast.
 */
export async function stockOnHand(db: Kysely<Database>, productId: number): Promise<Pick<ProductForecastResponse['product'], 'onHand' | 'lastCount'> & { forecastStart: string | null }> {
  const row = await repo.findProductForecast(db, String(productId), HISTORY_DAYS, 'id');
  if (!row) return { onHand: null, lastCount: null, forecastStart: null };
  const lastCount = countOf(row.last_count);
  if (!isStored(row)) return { onHand: null, lastCount, forecastStart: null };
  return { onHand: historicalJson(row, historyStart(row.forecast_start), HISTORY_DAYS).onHand, lastCount, forecastStart: addDays(row.forecast_start, -1) };
}

/** A "date:level" pair as the latest count. */
function countOf(pair: string | null): { units: number; date: string } | null {
  if (!pair) return null;
  const colon = pair.indexOf(':');
  return { date: pair.slice(0, colon), units: Number(pair.slice(colon + 1)) };
}

/** The latest whole-catalogue report: one page of the order advice (the definition lives in order-advice/). */
export async function getLatestInventoryReport(ctx: ForecastingContext, query: ReportQuery): Promise<InventoryReport | null> {
  const advice = await orderAdvice(ctx.db, { includeInactive: query.include_inactive, includeMadeHere: query.include_made_here, inactiveDays: query.inactive_days, supplier: query.supplier, page: { number: query.page, size: query.page_size } });
  if (!advice) return null;
  const today = dayInTimeZone(Date.now(), await shopTimeZone(ctx.db));
  const [shortHistory, arrivals] = await Promise.all([
    shortHistoryProducts(ctx.db, advice.products.map((product) => product.productId)),
    arrivalDays(ctx.db, today, advice.products.map((product) => product.leadTimeDays)),
  ]);
  return {
    id: advice.task.id,
    type: 'inventory',
    title: 'Inventory forecast report',
    productCode: null,
    timestamp: advice.task.updatedAt.toISOString(),
    forecast_days: advice.task.forecastDays,
    total: advice.total,
    inactive: advice.inactive,
    inactive_days: advice.inactiveDays,
    made_here: advice.madeHere,
    not_stocked: advice.notStocked,
    order_units: advice.orderUnits,
    order_quantities: advice.orderQuantities,
    order_cost: advice.orderCost,
    first_order_by: advice.firstOrderBy,
    on_order_late: advice.deliveriesLate,
    page: query.page,
    page_size: query.page_size,
    suppliers: advice.suppliers,
    // The filter in its supplier's one spelling (ADR 0186): "acme" asked is ACME's list.
    ...(advice.supplier !== undefined ? { supplier: advice.supplier } : {}),
    products: advice.products.map(({ productId, ...product }, i) => ({ ...product, shortHistory: shortHistory.has(productId), arrivalDate: arrivals[i]! })),
    unknown_stock: {
      count: advice.unknownStock.count,
      codes: advice.unknownStock.codes,
      counted_after_sales: { count: advice.unknownStock.countedAfterSales.count, codes: advice.unknownStock.countedAfterSales.codes, sales_end: advice.unknownStock.countedAfterSales.salesEnd },
    },
  };
}

/**
 * A Forecasting screen download as an .xlsx: the contract's columns and rows (batches of them), in
 * typed cells; money in the shop's currency once it has one, as the Data screen's download writes it.
 */
function sheetDownload(name: string, columns: ForecastSheet['columns'], rows: Iterable<ForecastSheet['rows']> | AsyncIterable<ForecastSheet['rows']>, currency: string | null = null): Download {
  // A quantity is a number in Excel's own format, which writes 48 as 48 and 2.345 kg as 2.345: a
  // format of fixed places would show the one as 48.000 or the other as 2.35.
  const typed = columns.map(({ header, kind }) =>
    kind === 'money' || kind === 'decimal' ? { header, kind: 'decimal' as const, decimalPlaces: 2, currency: kind === 'money' ? (currency ?? undefined) : undefined } : { header, kind: kind === 'quantity' ? ('number' as const) : kind },
  );
  return { fileName: `${name}.xlsx`, contentType: XLSX_CONTENT_TYPE, body: xlsxStream({ sheetName: name, columns: typed, rows }) };
}

/** The product's forecast as the screen's "Export forecast" has it, one line per forecast day. */
export async function exportProductForecast(ctx: ForecastingContext, options: { styleCode: string; forecastDays?: number | undefined; requestedBy: number }): Promise<Download> {
  const forecast = JSON.parse(await getProductForecast(ctx, options)) as ProductForecastResponse;
  const sheet = forecastSheet(forecast);
  return sheetDownload(`forecast-${forecast.product.styleCode}`, sheet.columns, [sheet.rows]);
}

// Lines written per turn of a report export: the file is written while it is read, never held whole.
const EXPORT_LINES_PER_BATCH = 500;

/**
 * The advice's products as lines of the report's columns, a batch at a time, each batch's "check
 * before ordering" read with it (from the stored forecasts' text, as a page's rows are).
 */
async function* reportLineBatches(db: Kysely<Database>, products: readonly AdvisedProduct[]): AsyncGenerator<ForecastSheet['rows']> {
  for (let from = 0; from < products.length; from += EXPORT_LINES_PER_BATCH) {
    const batch = products.slice(from, from + EXPORT_LINES_PER_BATCH);
    const shortHistory = await shortHistoryProducts(db, batch.map((product) => product.productId));
    yield batch.map((product) => inventoryReportRow({ ...product, shortHistory: shortHistory.has(product.productId) }));
  }
}

async function* csvText(batches: AsyncIterable<ForecastSheet['rows']>): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(INVENTORY_REPORT_COLUMNS.map((column) => column.header));
  for await (const batch of batches) yield batch.map(csvLine).join('');
}

/**
 * The latest inventory report's whole list under the screen's filters (not only its loaded page),
 * one line per product, as CSV or .xlsx (ADR 0072, amendment 2026-12-04). The list is ranked once,
 * as every read of it is; the file is written from it a batch of lines at a time.
 */
export async function exportLatestInventoryReport(ctx: ForecastingContext, query: InventoryReportExportQuery): Promise<Download> {
  const advice = await orderAdvice(ctx.db, { includeInactive: query.include_inactive, includeMadeHere: query.include_made_here, inactiveDays: query.inactive_days, supplier: query.supplier });
  if (!advice) throw new AppError('not_found', 'No latest report available: run a forecast of the whole catalogue first.');
  const name = inventoryReportFileName(advice.task.updatedAt.toISOString(), advice.supplier);
  const batches = reportLineBatches(ctx.db, advice.products);
  if (query.format === 'xlsx') return sheetDownload(name, INVENTORY_REPORT_COLUMNS, batches, await readCurrency(ctx.db));
  return { fileName: `${name}.csv`, contentType: 'text/csv; charset=utf-8', body: Readable.from(csvText(batches)) };
}
