// The dashboard (spec §1, §2 /app/home, §3 Task, Inventory stats, Stock projection point) and the
// assistant (spec §2 footer bar, §3 Chat message, Recommended order).
import { z } from 'zod';
import { formatDay } from './dates.ts';
import { storableText } from './text.ts';

export const PROJECTION_MONTHS = 6;

export const task = z.object({
  id: z.number().int(),
  text: z.string(),
  completed: z.boolean(),
  /** Set on a task generated from the data (it completes itself when its condition clears); null on the user's own. */
  kind: z.enum(['reorder', 'no_sales', 'import_sales', 'count_stock', 'integration_failed', 'forecast_failed']).nullable(),
});
export type Task = z.infer<typeof task>;

export const TASK_TEXT_MAX_LENGTH = 500;
const taskText = storableText().trim().min(1, 'Task text is required.').max(TASK_TEXT_MAX_LENGTH, `Task text is at most ${TASK_TEXT_MAX_LENGTH} characters.`);
export const createTaskRequest = z.object({ text: taskText });
export const updateTaskRequest = z.object({ text: taskText.optional(), completed: z.boolean().optional() });
export const taskIdParams = z.object({ id: z.coerce.number().int().positive('Task id must be a positive number.') });

export const inventoryStats = z.object({
  /** Units on hand now: the sum of every stocked product's current stock (a product not stocked, `notStocked`, is left out). */
  totalInventory: z.number(),
  /** The same units one total per product unit (ADR 0177, amendment 2026-12-06): pieces (`unit` null) first; a unit with none on hand left out. */
  inventoryByUnit: z.array(z.object({ unit: z.string().nullable(), quantity: z.number() })),
  /** The same units valued at unit cost; products without a cost are not in it (withoutCost). */
  totalValue: z.number(),
  /** Products on hand whose unit cost is 0: a cost left blank is stored so (the column has no empty value), and is "unknown", not "free". */
  withoutCost: z.number().int(),
  /**
   * Products not stocked (a service or fee, ADR 0200, amendment 2026-12-07): their stock is in none of
   * the figures here (units, value, growth), as no stock is kept of them. Absent from older servers.
   */
  notStocked: z.number().int().optional(),
  /**
   * Percent change of the units on hand (from stock snapshots) from `growthSince` to `snapshotDate`, over
   * the products counted by `growthSince` only (one added since is not growth); null without a
   * month of stock history (no product counted by then, or their stock was 0).
   */
  monthlyGrowth: z.number().nullable(),
  /**
   * The same growth one unit at a time (ADR 0177, amendment 2026-12-06 (2)): per product unit, the percent
   * change of that unit's stock over its products counted by `growthSince`; pieces (`unit` null) first. A
   * unit without a month of stock history (none of its products counted by then, or their stock was 0)
   * is left out. `monthlyGrowth` adds every unit, as the spec's one figure always did.
   */
  growthByUnit: z.array(z.object({ unit: z.string().nullable(), percent: z.number() })),
  /** The latest stock snapshot's day anywhere; null before the first count. */
  snapshotDate: z.string().nullable(),
  /** A month before `snapshotDate`: the day growth compares against; null before the first count. */
  growthSince: z.string().nullable(),
});
export type InventoryStats = z.infer<typeof inventoryStats>;

export const stockProjectionPoint = z.object({ month: z.string(), high: z.number(), medium: z.number(), low: z.number() });
export type StockProjectionPoint = z.infer<typeof stockProjectionPoint>;

/**
 * The stock projection of the products counted in one unit (ADR 0177, amendment 2026-12-06 (2)): kilos
 * and pieces in one line mean nothing. `products`: how many products it is of. Its points to a whole
 * unit, a unit of measure's ("kg", "l") to one decimal (12.5 kg), the places the Forecasting screen's estimates keep.
 */
export const unitStockProjection = z.object({ unit: z.string().nullable(), products: z.number().int(), points: z.array(stockProjectionPoint) });
export type UnitStockProjection = z.infer<typeof unitStockProjection>;

/**
 * The sales the projection's forecasts were made from (ADR 0070, amendment 2026-12-06): the first and
 * last day with sales before the forecast start, and the calendar days from one to the other, both
 * counted. A new shop's few days carry six months of demand; the dashboard says so under
 * PROJECTION_SETTLED_DAYS.
 */
export const projectionHistory = z.object({ from: z.string(), to: z.string(), days: z.number().int() });
export type ProjectionHistory = z.infer<typeof projectionHistory>;
/** Days of sales from which the projection is no early estimate: the four weeks under which a product's forecast is a simple level ("Under 4 weeks of sales"). */
export const PROJECTION_SETTLED_DAYS = 28;

/** The sales from `from` to `to` (days, yyyy-mm-dd) with the calendar days between them, both counted. */
export const salesSpan = (from: string, to: string): ProjectionHistory => ({ from, to, days: Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1 });

/**
 * Said of a projection drawn from under PROJECTION_SETTLED_DAYS of sales — the catalogue's on the
 * dashboard, a product's stock-out day where it is stated (ADR 0070, amendments 2026-12-06): one
 * wording, the web's `earlyEstimate` text and the assistant's sentence.
 */
export const earlyEstimateWords = (span: ProjectionHistory): string =>
  `An early estimate: drawn from ${span.days === 1 ? `1 day of sales (${formatDay(span.from)})` : `${span.days} days of sales (${formatDay(span.from)} – ${formatDay(span.to)})`}. It settles once there are ${PROJECTION_SETTLED_DAYS / 7} weeks of sales.`;

export const pinnedReport = z.object({ id: z.number().int(), title: z.string() });
export const pinRequest = z.object({ report_id: z.number().int().positive('Report id must be a positive number.') });
export const pinParams = z.object({ reportId: z.coerce.number().int().positive('Report id must be a positive number.') });

export const dashboardResponse = z.object({
  /** 'empty' when there are no products yet: the figures are then absent, not zeros. */
  state: z.enum(['empty', 'ready']),
  products: z.number().int(),
  inventoryStats: inventoryStats.nullable(),
  /** The whole catalogue's projection: every product's stock added, whatever its unit (the spec's field). */
  stockProjection: z.array(stockProjectionPoint),
  /** The projection one unit at a time, pieces (`unit` null) first, then the units alphabetically: what the dashboard draws. */
  stockProjectionByUnit: z.array(unitStockProjection),
  /** The first forecast day the projection starts from; null before any forecast. */
  forecastStart: z.string().nullable(),
  /** The sales the projection rests on; null without a forecast or without sales before its start. */
  projectionHistory: projectionHistory.nullable(),
  /** How many products made here the projection leaves out: it projects the stock the shop buys (ADR 0194, amendment 2026-12-06). Absent from older servers. */
  projectionMadeHere: z.number().int().optional(),
  /** How many products not stocked (a service or fee) the projection leaves out: they have no stock (ADR 0200). Counted apart from `projectionMadeHere`. Absent from older servers. */
  projectionNotStocked: z.number().int().optional(),
  tasks: z.array(task),
  pinnedReports: z.array(pinnedReport),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;

// ---------------------------------------------------------------------------------------------
// Assistant

export const assistantColumnKind = z.enum(['money', 'order_by', 'category']);
export type AssistantColumnKind = z.infer<typeof assistantColumnKind>;

export const assistantBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('table'),
    /**
     * `money`: a sum of money, shown with its pence (1,240.50) as every screen writes money. `order_by`:
     * order-by days (YYYY-MM-DD), shown as the Forecasting screen's lists show them — "Now" on or before
     * the viewer's today, else the day (ADR 0198, amendment 2026-12-07); the cells and the CSV keep the day.
     * `category`: categories as stored, shown as the screens label them — a path by its last part, more
     * where two cells would read the same (`shortCategoryNames`); the cells and the CSV keep the path.
     */
    columns: z.array(z.object({ key: z.string(), label: z.string(), kind: assistantColumnKind.optional() })),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
    totals: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).nullable(),
    /** A file name when the table can be downloaded as CSV. */
    download: z.string().nullable(),
  }),
  z.object({ type: z.literal('link'), label: z.string(), href: z.string() }),
  z.object({ type: z.literal('action'), label: z.string(), action: z.enum(['create_recommended_orders', 'add_task']), payload: z.record(z.string(), z.unknown()) }),
]);
export type AssistantBlock = z.infer<typeof assistantBlock>;

export const chatMessage = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  timestamp: z.string(),
  blocks: z.array(assistantBlock),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const quickActions = ['low_stock', 'reorder_report', 'deliveries'] as const;
export type QuickAction = (typeof quickActions)[number];

export const assistantContext = z.object({ page: storableText().max(100), path: storableText().max(300) });
export type AssistantContext = z.infer<typeof assistantContext>;

export const askRequest = z.object({
  content: storableText().max(2000, 'A message is at most 2000 characters.').default(''),
  quick: z.enum(quickActions).optional(),
  context: assistantContext.optional(),
});
export const askResponse = z.object({ messages: z.array(chatMessage) });
export const historyResponse = z.array(chatMessage);

// Strict: an unknown key ("codes") is refused, never ignored into creating the whole list (QA4 #22).
export const assistantActionRequest = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('create_recommended_orders'),
    /**
     * The orders the answer showed (its action's `payload.orders`): exactly these are created, and
     * only while the advice still says so; without it, the whole current list.
     */
    orders: z
      .array(z.strictObject({ styleCode: storableText().min(1).max(255), quantity: z.number().positive('An order quantity is above 0.') }))
      .min(1, 'Name at least one order.')
      .max(100_000)
      .optional(),
  }),
  z.strictObject({ action: z.literal('add_task'), text: taskText }),
]);
export type AssistantActionRequest = z.infer<typeof assistantActionRequest>;
