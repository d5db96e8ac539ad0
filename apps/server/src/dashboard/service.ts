// The dashboard: inventory figures, the six-month stock projection, tasks (the user's own and those
// generated from the data) and pinned reports. Definitions: docs/api.md "Dashboard figures".
import type { Kysely } from 'kysely';
import { dayInTimeZone, groupByUnit, isMeasureUnit, PROJECTION_MONTHS, salesSpan, type DashboardResponse, type InventoryStats, type ProjectionHistory, type StockProjectionPoint, type Task, type UnitStockProjection } from '@stockwise/contract';
import type { Database, TaskKind } from '../db/schema.ts';
import { notFoundError } from '../http/errors.ts';
import { formatDay, formatDayOfMonth } from '../plain-words/period.ts';
import { isDueBy } from '../order-advice/service.ts';
import { projectionMonthEnds } from './summary.ts';
import * as repo from './repo.ts';

/** `timeZone`: the viewer's, else the shop's (the route sets it per request), whose day the tasks' "today" is; UTC without one (a caller outside a request). */
export type DashboardContext = { db: Kysely<Database>; now?: () => Date; timeZone?: string | undefined };

/** The high and low lines: the 80 % interval of the catalogue's cumulative demand (z of 0.9). */
const BAND_Z = 1.281552;
const DAY_MS = 86_400_000;

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Percent change of stock from a month before, one decimal; none without stock a month before to compare with. */
const growth = (now: number | null, before: number | null): number | null => (before && now !== null ? round(((now - before) / before) * 100, 1) : null);

export async function inventoryStats(ctx: DashboardContext): Promise<{ products: number; stats: InventoryStats }> {
  const [totals, summary] = await Promise.all([repo.inventoryTotals(ctx.db), repo.catalogueSummary(ctx.db)]);
  const growthByUnit = groupByUnit(summary?.snapshot_units_by_unit ?? [], (sums) => sums.unit).flatMap(({ unit, items }) => {
    const percent = growth(items.reduce((sum, sums) => sum + sums.now, 0), items.reduce((sum, sums) => sum + sums.before, 0));
    return percent === null ? [] : [{ unit, percent }];
  });
  return {
    // The catalogue: a shop of services only is no empty dashboard.
    products: totals.products + totals.notStocked,
    stats: {
      totalInventory: totals.units,
      inventoryByUnit: totals.byUnit,
      totalValue: round(totals.value, 2),
      withoutCost: totals.withoutCost,
      notStocked: totals.notStocked,
      monthlyGrowth: growth(summary?.snapshot_units ?? null, summary?.previous_units ?? null),
      growthByUnit,
      snapshotDate: summary?.snapshot_date ?? null,
      growthSince: summary?.previous_date ?? null,
    },
  };
}

type MonthSums = Pick<repo.ProjectionRow, 'medium' | 'variance' | 'available'>;

/** The products' sums of each month added up: over the spellings of one unit, or over every unit. */
function monthSums(rows: readonly repo.ProjectionRow[]): MonthSums[] {
  const months = Array.from({ length: PROJECTION_MONTHS }, () => ({ medium: 0, variance: 0, available: 0 }));
  for (const row of rows) {
    const month = months[row.month_index - 1] as MonthSums;
    month.medium += row.medium;
    month.variance += row.variance;
    month.available += row.available;
  }
  return months;
}

/** The medium line and the 80 % band around it, each month end's figures rounded by `rounded`. */
function projectionPoints(monthEnds: readonly string[], months: readonly MonthSums[], rounded: (value: number) => number): StockProjectionPoint[] {
  let previous: { high: number; available: number } | null = null;
  return months.map((sums, i) => {
    const spread = BAND_Z * Math.sqrt(sums.variance);
    // Stock grows only by deliveries: the high line stays under what is on hand and arriving, and
    // above last month's only by what arrives. Unbounded, a catalogue that had sold out showed
    // medium 0 and a high line climbing month by month with the demand's growing spread.
    const ceiling = previous ? Math.min(sums.available, previous.high + sums.available - previous.available) : sums.available;
    const high = Math.max(sums.medium, Math.min(sums.medium + spread, ceiling));
    previous = { high, available: sums.available };
    return { month: (monthEnds[i] as string).slice(0, 7), medium: rounded(sums.medium), high: rounded(high), low: rounded(Math.max(0, sums.medium - spread)) };
  });
}

/**
 * The six-month projection of the whole catalogue (the spec's, every unit added) and of each product
 * unit apart (ADR 0177, amendment 2026-12-06 (2)): a unit's band is of its own products' demand. Of
 * the stock the shop buys: `madeHere` and `notStocked` count the products made here and those not
 * stocked (a service or fee) it leaves out (ADR 0194, 0200).
 */
export async function stockProjection(ctx: DashboardContext): Promise<{ forecastStart: string | null; history: ProjectionHistory | null; points: StockProjectionPoint[]; byUnit: UnitStockProjection[]; madeHere: number; notStocked: number }> {
  const forecastStart = await repo.latestForecastStart(ctx.db);
  if (!forecastStart) return { forecastStart: null, history: null, points: [], byUnit: [], madeHere: 0, notStocked: 0 };
  const monthEnds = projectionMonthEnds(forecastStart);
  const [rows, span, { madeHere, notStocked }] = await Promise.all([repo.projectionSums(ctx.db, forecastStart, monthEnds), repo.salesSpanBefore(ctx.db, forecastStart), repo.notBoughtProducts(ctx.db)]);
  // The days of sales six months are projected from: a new shop's 3 days are said beside the chart (ADR 0070, amendment 2026-12-06).
  const history = span && salesSpan(span.from, span.to);
  if (!rows.length) return { forecastStart, history, points: [], byUnit: [], madeHere, notStocked };
  const byUnit = groupByUnit(rows, (row) => row.unit).map(({ unit, items }) => ({
    unit,
    products: items.filter((row) => row.month_index === 1).reduce((sum, row) => sum + row.products, 0),
    // A projection is an estimate: whole pieces, a tenth of a kilo.
    points: projectionPoints(monthEnds, monthSums(items), (value) => round(value, isMeasureUnit(unit) ? 1 : 0)),
  }));
  return { forecastStart, history, points: projectionPoints(monthEnds, monthSums(rows), (value) => round(value)), byUnit, madeHere, notStocked };
}

const products = (n: number) => `${n} ${n === 1 ? 'product' : 'products'}`;

/**
 * Orders due in this many days from today on, today included (or overdue), make the reorder task:
 * the days the assistant's and the report writer's "what to order in the next 7 days" read, and the
 * task says so, so its count is theirs (ADR 0148, M4 amendment).
 */
const REORDER_DUE_DAYS = 7;

const GENERATED_KINDS = ['reorder', 'count_stock', 'no_sales', 'import_sales', 'integration_failed', 'forecast_failed'] as const;

const hostOf = (endpoint: string) => URL.parse(endpoint)?.host ?? endpoint;

/** Data that stopped flowing in: an integration's failures are otherwise seen only on Settings → Integrations. */
function failingIntegrationsText(failing: repo.FailingIntegration[]): string {
  const [only] = failing;
  if (failing.length === 1 && only) {
    const what = only.stopped ? `it stopped after ${only.failures} failed ${only.failures === 1 ? 'run' : 'runs in a row'}` : 'its last run failed';
    return `Check the integration from ${hostOf(only.endpoint)} (mapping ${only.mapping}): ${what} (Settings → Integrations says why)`;
  }
  const stopped = failing.filter((integration) => integration.stopped).length;
  return `Check ${failing.length} integrations whose last run failed${stopped ? ` (${stopped} stopped after failed runs)` : ''}: Settings → Integrations says why`;
}

const NAMED_UNFORECAST = 3;

/**
 * The import task: this week's sales, or — where products were counted after the sales data ends
 * (their counts cannot open a projection until the sales up to them are in; ADR 0193 F9) — the sales
 * after its last day, saying why.
 */
function importSalesText(countedAfterSales: number, lastSale: string | null): string {
  if (countedAfterSales === 0) return "Import this week's sales";
  const one = countedAfterSales === 1;
  return `Import the sales ${lastSale ? `after ${formatDay(lastSale)}` : 'up to today'}: ${products(countedAfterSales)} ${one ? 'was' : 'were'} counted after the sales data ends, so no order is advised for ${one ? 'it' : 'them'}`;
}

/** Products a catalogue run could not forecast keep an older forecast, which the lists and the assistant go on reading. */
function unforecastText(codes: string[]): string {
  const named = codes.slice(0, NAMED_UNFORECAST);
  const more = codes.length - named.length;
  const list = more ? `${named.join(', ')} and ${more} more` : named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named.join('');
  return `Look at ${products(codes.length)} that could not be forecast in the last run (${list}): ${codes.length === 1 ? 'its forecast is' : 'their forecasts are'} from an earlier run`;
}

/**
 * Generated tasks follow their condition (ADR 0136): made when it first holds, the count in the
 * text kept current, completed when it clears — and reopened when it holds again. A user may tick
 * one off earlier (it stays ticked while the condition lasts) or delete it (it is not made again).
 */
async function refreshGeneratedTasks(ctx: DashboardContext, userId: number): Promise<void> {
  const conditions = await repo.taskConditions(ctx.db);
  const today = Date.parse(`${dayInTimeZone((ctx.now?.() ?? new Date()).getTime(), ctx.timeZone ?? 'UTC')}T00:00:00Z`);
  const salesStale = !conditions.lastSale || Date.parse(`${conditions.lastSale}T00:00:00Z`) < today - 7 * DAY_MS;
  // An order a month away is on the Forecasting screen's list, not yet a task (ADR 0144).
  const dueBy = new Date(today + (REORDER_DUE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const due = conditions.reorderOrderBy.filter((orderBy) => isDueBy(orderBy, dueBy)).length;
  // The list's rows without an order-by date: a delivery on its way arrives after the stockout, hurry it now.
  const late = conditions.reorder - conditions.reorderOrderBy.length;
  const hurry = `hurry ${late === 1 ? 'the delivery' : `the deliveries`} of ${products(late)} that ${late === 1 ? 'arrives' : 'arrive'} after ${late === 1 ? 'it runs' : 'they run'} out`;
  const listed = `(${conditions.reorder} on the reorder list)`;
  const states: Record<TaskKind, { open: boolean; text: string }> = {
    reorder: {
      open: due > 0 || late > 0,
      // Only deliveries to hurry: "Order 0 products …" would be a task to do nothing.
      text: due === 0 && late > 0 ? `H${hurry.slice(1)} ${listed}` : `Order ${products(due)} due in the next ${REORDER_DUE_DAYS} days, by ${formatDayOfMonth(dueBy)}${late > 0 ? `; ${hurry}` : ''} ${listed}`,
    },
    count_stock: {
      open: conditions.unknownStock > 0,
      text: `Count the stock of ${products(conditions.unknownStock)} that ${conditions.unknownStock === 1 ? 'sells but has' : 'sell but have'} no stock count`,
    },
    no_sales: { open: conditions.noSales > 0, text: `Review ${products(conditions.noSales)} with no sales in 90 days` },
    import_sales: { open: salesStale || conditions.countedAfterSales > 0, text: importSalesText(conditions.countedAfterSales, conditions.lastSale) },
    integration_failed: { open: conditions.failingIntegrations.length > 0, text: failingIntegrationsText(conditions.failingIntegrations) },
    forecast_failed: { open: conditions.unforecast.length > 0, text: unforecastText(conditions.unforecast) },
  };
  const existing = new Map((await repo.generatedTasks(ctx.db, userId)).map((task) => [task.kind, task]));
  for (const kind of GENERATED_KINDS) {
    const state = states[kind];
    const task = existing.get(kind);
    if (!task) {
      if (state.open) await repo.insertGeneratedTask(ctx.db, userId, kind, state.text);
      continue;
    }
    if (task.dismissed) continue;
    const next = state.open
      ? { text: state.text, completed: task.condition_cleared ? false : task.completed, condition_cleared: false }
      : { text: task.text, completed: true, condition_cleared: true };
    if (next.text !== task.text || next.completed !== task.completed || next.condition_cleared !== task.condition_cleared) await repo.updateTask(ctx.db, userId, task.id, next);
  }
}

export async function listTasks(ctx: DashboardContext, userId: number): Promise<Task[]> {
  await refreshGeneratedTasks(ctx, userId);
  return repo.listTasks(ctx.db, userId);
}

const taskNotFound = (id: number) => notFoundError(`Task '${id}' not found.`);

export const addTask = (ctx: DashboardContext, userId: number, text: string): Promise<Task> => repo.insertTask(ctx.db, userId, text);

export async function editTask(ctx: DashboardContext, userId: number, id: number, values: { text?: string | undefined; completed?: boolean | undefined }): Promise<Task> {
  const changes = { ...(values.text !== undefined ? { text: values.text } : {}), ...(values.completed !== undefined ? { completed: values.completed } : {}) };
  const task = Object.keys(changes).length ? await repo.updateTask(ctx.db, userId, id, changes) : await repo.findTask(ctx.db, userId, id);
  if (!task) throw taskNotFound(id);
  return task;
}

export async function toggleTask(ctx: DashboardContext, userId: number, id: number): Promise<Task> {
  const task = await repo.toggleTask(ctx.db, userId, id);
  if (!task) throw taskNotFound(id);
  return task;
}

export async function deleteTask(ctx: DashboardContext, userId: number, id: number): Promise<void> {
  if (!(await repo.deleteTask(ctx.db, userId, id))) throw taskNotFound(id);
}

export const listPins = (ctx: DashboardContext, userId: number) => repo.listPins(ctx.db, userId);

export async function pinReport(ctx: DashboardContext, userId: number, reportId: number) {
  if (!(await repo.reportExists(ctx.db, reportId))) throw notFoundError(`Report '${reportId}' not found.`);
  await repo.insertPin(ctx.db, userId, reportId);
  return repo.listPins(ctx.db, userId);
}

export async function unpinReport(ctx: DashboardContext, userId: number, reportId: number): Promise<void> {
  if (!(await repo.deletePin(ctx.db, userId, reportId))) throw notFoundError(`Report '${reportId}' is not pinned.`);
}

export async function getDashboard(ctx: DashboardContext, userId: number): Promise<DashboardResponse> {
  const [{ products, stats }, projection, tasks, pinnedReports] = await Promise.all([inventoryStats(ctx), stockProjection(ctx), listTasks(ctx, userId), listPins(ctx, userId)]);
  if (!products) return { state: 'empty', products: 0, inventoryStats: null, stockProjection: [], stockProjectionByUnit: [], forecastStart: null, projectionHistory: null, projectionMadeHere: 0, projectionNotStocked: 0, tasks, pinnedReports };
  return {
    state: 'ready',
    products,
    inventoryStats: stats,
    stockProjection: projection.points,
    stockProjectionByUnit: projection.byUnit,
    forecastStart: projection.forecastStart,
    projectionHistory: projection.history,
    projectionMadeHere: projection.madeHere,
    projectionNotStocked: projection.notStocked,
    tasks,
    pinnedReports,
  };
}
