// Forecast generation tasks, stored forecasts and the inventory report (spec §3, §4, §7 /api/forecasting/*).
import { z } from 'zod';
import { storableText } from './text.ts';

export const DEFAULT_FORECAST_DAYS = 90;
export const MAX_FORECAST_DAYS = 365;
/** `style_code` value (or omission) that forecasts the whole catalogue. */
export const WHOLE_CATALOGUE = 'all';

export const taskStatuses = ['pending', 'processing', 'running', 'completed', 'failed'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** Days a forecast looks ahead, in the words a 400 says them ("forecast_days: Must be a whole number of days."). */
const WHOLE_DAYS = 'Must be a whole number of days.';
const forecastDays = () =>
  z.coerce
    // Only a value that is no number at all is said so here; its range keeps the shared words (zod-words.ts).
    .number({ error: (issue) => (issue.code === 'invalid_type' ? WHOLE_DAYS : undefined) })
    .int({ error: WHOLE_DAYS })
    .min(7)
    .max(MAX_FORECAST_DAYS);

export const generationRequest = z.strictObject({
  style_code: storableText().trim().min(1, 'Product style code is required.').max(64).optional(),
  forecast_days: forecastDays().default(DEFAULT_FORECAST_DAYS),
});
export const generationResponse = z.object({ task_id: z.string() });

/** The horizons a buyer chooses from on the Forecasting screen (ADR 0162, amendment 2026-12-04 horizon). */
export const FORECAST_HORIZONS = [DEFAULT_FORECAST_DAYS, 180, MAX_FORECAST_DAYS] as const;
/**
 * A product's forecast read: `forecast_days` other than the stored forecast's is forecast now over
 * that many days and not stored (the order lists keep the catalogue run's horizon).
 */
export const productForecastQuery = z.object({ forecast_days: forecastDays().optional() });
export type ProductForecastQuery = z.infer<typeof productForecastQuery>;

export const taskResults = z.object({
  style_code: z.string().nullable(),
  forecast_days: z.number().int(),
  products: z.number().int(),
  failed: z.array(z.object({ styleCode: z.string(), error: z.string() })),
  stockouts: z.number().int(),
  duration_ms: z.number(),
});
/**
 * A whole-catalogue run cut off (the server stopped mid-run) and run again by its job's retry (ADR
 * 0170): when it stopped (its last progress, ISO), how many of its `total` products were done
 * before, whether the run went on after them (`resumed`; not when the day to forecast from changed
 * meanwhile), and `message`, the sentence to show ("Restarted after the server stopped at 14:02 UTC;
 * 1,200 of 3,000 products were done before and are not forecast again.").
 */
export const taskRestart = z.object({ stopped_at: z.string(), done_before: z.number().int(), total: z.number().int(), resumed: z.boolean(), message: z.string() });
export type TaskRestart = z.infer<typeof taskRestart>;

export const taskStatusResponse = z.object({
  task_id: z.string(),
  status: z.enum(taskStatuses),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  results: taskResults.nullable(),
  error: z.string().nullable(),
  /** Null unless the run was restarted after the server stopped. */
  restart: taskRestart.nullable().default(null),
});
export type TaskStatusResponse = z.infer<typeof taskStatusResponse>;

export const forecastReport = z.object({ id: z.string(), type: z.string(), title: z.string(), productCode: z.string().nullable(), timestamp: z.string() });

const salesPoint = z.object({ ds: z.string(), y: z.number() });
const stockPoint = z.object({ ds: z.string(), stock_level: z.number(), isStockSnapshot: z.boolean(), isLastSnapshot: z.boolean() });
const forecastSalesPoint = z.object({ ds: z.string(), yhat: z.number(), yhat_upper: z.number(), yhat_lower: z.number(), yhat_upper_80: z.number(), yhat_lower_80: z.number() });
const forecastStockPoint = z.object({ ds: z.string(), stock_level: z.number(), stock_upper: z.number(), stock_lower: z.number() });
const backtestPoint = z.object({ ds: z.string(), yhat: z.number(), yhat_upper: z.number(), yhat_lower: z.number() });
export const stockoutItem = z.object({ date: z.string(), type: z.enum(['stockForecast', 'stockLowerBound']) });

/**
 * What the supplier sells, as the advice was made under it (ADR 0183): the product's case size and
 * minimum order, absent where it has none; and, for an order due that they made larger, what the
 * stock needs (in whole units, a thousandth, or the product's order step: a tenth of a kg), absent where they changed nothing.
 */
const supplierOrder = z.object({
  orderMultiple: z.number().optional(),
  minOrderQuantity: z.number().optional(),
  orderQuantityNeeded: z.number().optional(),
});
export type SupplierOrder = z.infer<typeof supplierOrder>;

export const reorderAdvice = z.object({
  reorderPoint: z.number(),
  safetyStock: z.number(),
  orderQuantity: z.number(),
  orderBy: z.string().nullable(),
  leadTimeDays: z.number(),
  serviceLevel: z.number(),
  /** No order advised though the stock is expected to run out: the delivery on its way arrives this day, after the stockout (ADR 0072, amendment 2026-12-04 QA4 #4). */
  onOrderArrives: z.string().nullable().optional(),
  /** A season-only item whose order would arrive after its season: no order, and when next season's buying starts (ADR 0126, amendment 2026-12-04). */
  tooLateForSeason: z.object({ arrives: z.string(), seasonFrom: z.string(), seasonTo: z.string(), nextOrderFrom: z.string() }).optional(),
  ...supplierOrder.shape,
  /** A season-only item whose whole cases (or minimum) are more than the rest of its season takes: about this much is left when it ends (ADR 0183). */
  leftAfterSeason: z.number().optional(),
});

const stockCount = z.object({ units: z.number(), date: z.string() });
/**
 * On hand when the forecast starts: the latest count on or before the history's last day, less the
 * sales and plus the deliveries since — or a count dated the first forecast day, as it is.
 */
const onHand = z.object({ units: z.number(), countedUnits: z.number(), countedOn: z.string() });

export const productForecastResponse = z.object({
  report: forecastReport,
  product: z.object({
    id: z.number(),
    styleCode: z.string(),
    name: z.string(),
    /** The stored figure: the latest count (0 when never counted), not less the sales since (ADR 0030, amended). */
    currentStock: z.number(),
    /** What its quantities count (kg, m, box), trimmed, as the shop wrote it; null: pieces (ADR 0177). Every figure of the answer is in it. */
    unit: z.string().nullable(),
    /** Who it is bought from, trimmed; null (or absent): no supplier (ADR 0184). */
    supplier: z.string().nullable().optional(),
    /** Made in the shop, not bought (ADR 0194): its advice is "Made here — not ordered", and no list orders it. Absent: not made here. */
    madeHere: z.boolean().optional(),
    /** A service or a fee, no stock kept (ADR 0200): its advice is "Not stocked", no stockout is warned of, and no list orders it. Absent: stocked. */
    notStocked: z.boolean().optional(),
    unitCost: z.number(),
    leadTimeDays: z.number(),
    /** The latest stock count, of any date; null: never counted. */
    lastCount: stockCount.nullable(),
    /**
     * On hand when the forecast starts (the screen's main figure): the chart's stock line on its last
     * day (`metrics.display_window.forecast_start`) — the latest count on or before it, less the sales
     * and plus the deliveries since — or a count dated the first forecast day, as it is; the
     * projection starts from the same. Null without such a count (then `forecast.stock` is empty).
     */
    onHand: onHand.nullable(),
  }),
  historical: z.object({ sales: z.array(salesPoint), stock: z.array(stockPoint) }),
  forecast: z.object({ sales: z.array(forecastSalesPoint), stock: z.array(forecastStockPoint) }),
  backtest: z.array(backtestPoint),
  metrics: z.object({
    /** forecast_start: the last day of history; the forecast covers the days after it. */
    display_window: z.object({ forecast_start: z.string() }),
    /** history: 'none' (a new product), 'short' (under four weeks: a simple level) or 'full'. */
    model: z.object({
      name: z.string(),
      description: z.string(),
      demandClass: z.string(),
      history: z.enum(['none', 'short', 'full']),
      /** What the model found, for the screen to say in words. */
      patterns: z.array(z.enum(['closed_days', 'holidays', 'shop_closed', 'weekly', 'yearly', 'season_only', 'trend', 'intermittent'])),
    }),
    /** Null where the history was too short to backtest, or a figure is undefined (MASE of a flat history). */
    accuracy: z.object({ mase: z.number().nullable(), smape: z.number().nullable(), mae: z.number().nullable(), coverage95: z.number().nullable().optional() }),
  }),
  display_settings: z.object({ historical_forecast: z.boolean() }),
  stockouts: z.array(stockoutItem),
  reorder: reorderAdvice,
  /**
   * The order advice's rule for this product (the latest report, the low-stock list, the dashboard,
   * the assistant): units sold in the last `inactiveDays` days before the forecast. With none, the
   * lists leave it out unless their filter shows products without recent demand, so its own
   * advice is not urgent either.
   */
  activity: z.object({ recentDemand: z.number(), inactiveDays: z.number().int() }),
});
export type ProductForecastResponse = z.infer<typeof productForecastResponse>;

export const reportProduct = z.object({
  styleCode: z.string(),
  name: z.string(),
  /** The stored figure: the latest count (0 when never counted), not less the sales since; the lists show `onHand`. */
  currentStock: z.number(),
  /**
   * On hand now, the Forecasting header's figure (ADR 0030, amendment 2026-12-04): as the product's
   * forecast read's `product.onHand`, stored with its forecast; without one, its latest count as it
   * is (`units` = `countedUnits`). Null: never counted.
   */
  onHand: onHand.nullable(),
  /** What its quantities (on hand, the order) count, as the forecast read's `product.unit`; null: pieces (ADR 0177). */
  unit: z.string().nullable(),
  /** Who it is bought from, trimmed; null (or absent): no supplier (ADR 0184). */
  supplier: z.string().nullable().optional(),
  unitCost: z.number(),
  /** The days an order takes to arrive, as its advice reckoned them: an order recorded from the list is expected after them (ADR 0182). */
  leadTimeDays: z.number(),
  firstStockout: z.string().nullable(),
  stockoutType: z.enum(['stockForecast', 'stockLowerBound']).nullable(),
  reorderPoint: z.number(),
  orderQuantity: z.number(),
  /** The supplier's case size and minimum, and the need where they made the order larger, as the product's forecast reorder advice has them (ADR 0183). */
  ...supplierOrder.shape,
  orderBy: z.string().nullable(),
  model: z.string(),
  /** Days left to order in time: days until the expected stockout minus the lead time, or days until the order-by date when that is sooner (or there is no expected stockout). Most urgent first. */
  urgencyDays: z.number(),
  /** Units sold in the last `inactive_days` days of history. */
  recentDemand: z.number(),
  /** Made in the shop (ADR 0194): listed only when `include_made_here` shows them. Absent: not made here. */
  madeHere: z.boolean().optional(),
  /**
   * The order rests on under four weeks of sales (the forecast's history 'short': a level, not a
   * pattern): the lists say "check before ordering", as the product's reorder advice does (ADR 0162,
   * amendment 2026-12-04). Read for the page's rows only (a download reads it per batch of lines: its "check" column).
   */
  shortHistory: z.boolean(),
  /**
   * No order to place, but a delivery on its way arrives (this day) after the stock is expected to
   * run out: listed so the buyer hurries it ("On order: arrives …, after it runs out — hurry it"),
   * with `orderQuantity` 0 and `orderBy` null (ADR 0072, amendment 2026-12-04 "hurry it"). Absent on
   * the rows with an order to place.
   */
  onOrderArrives: z.string().optional(),
  /**
   * The day an order placed today (the shop's today) is proposed to arrive: after the lead time, on
   * the first day the shop is open (its closed weekdays, public holidays and closed days, as the
   * order-by date is moved, ADR 0169) — the Record order dialogs' proposal (ADR 0182, amendment
   * 2026-12-06). Read for the page's rows only.
   */
  arrivalDate: z.string(),
});
export type ReportProduct = z.infer<typeof reportProduct>;
/** A product on the whole order list (the assistant's answer): without `shortHistory` and `arrivalDate`, which are read a page (or a download's batch) at a time. */
export type ListedOrder = Omit<ReportProduct, 'shortHistory' | 'arrivalDate'>;
export const DEFAULT_REPORT_PAGE_SIZE = 50;
export const DEFAULT_INACTIVE_DAYS = 90;
/** The longest supplier name a product holds (its column's, migration 0680). */
export const MAX_SUPPLIER_LENGTH = 200;
/** One supplier of a list, and how many of the list's products are bought from it; `supplier` null: those with none (ADR 0184). */
export const listSupplier = z.object({ supplier: z.string().nullable(), count: z.number().int() });
export type ListSupplier = z.infer<typeof listSupplier>;
export const reportQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(DEFAULT_REPORT_PAGE_SIZE),
  /** Products without demand in the last `inactive_days` days are left out unless this is true. */
  include_inactive: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  inactive_days: z.coerce.number().int().min(1).max(730).default(DEFAULT_INACTIVE_DAYS),
  /** Products made here (ADR 0194) are left out unless this is true. */
  include_made_here: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  /**
   * Only the products bought from this supplier (its name as stored, trimmed; ADR 0184); blank
   * (`supplier=`): those with no supplier; absent: every supplier. Null in the parsed query is "no supplier".
   */
  supplier: storableText({ error: 'Give one supplier name (blank: products with no supplier).' })
    .trim()
    .max(MAX_SUPPLIER_LENGTH, `A supplier name is at most ${MAX_SUPPLIER_LENGTH} characters.`)
    .transform((name) => (name === '' ? null : name))
    .optional(),
});
export type ReportQuery = z.infer<typeof reportQuery>;
/** An export of the latest report: the whole list under the same filters, every page (ADR 0072, amendment 2026-12-04). */
export const inventoryReportExportQuery = reportQuery.omit({ page: true, page_size: true }).extend({
  format: z.enum(['csv', 'xlsx'], { error: 'Format is csv or xlsx.' }).default('xlsx'),
});
export type InventoryReportExportQuery = z.infer<typeof inventoryReportExportQuery>;
export const inventoryReport = forecastReport.extend({
  forecast_days: z.number().int(),
  /** Products that need an order (an order-by date and a quantity) or a delivery hurried (`on_order_late`), after the inactive and supplier filters: the length of the whole list, all pages. */
  total: z.number().int(),
  /** Products that need an order but were left out as inactive (0 when include_inactive). */
  inactive: z.number().int(),
  inactive_days: z.number().int(),
  /** Products made here whose forecast says to order, left out as nothing is bought for them (ADR 0194); 0 when include_made_here. Absent from older servers. */
  made_here: z.number().int().optional(),
  /** Products not stocked (a service or fee) whose forecast says to order, always left out as no stock is kept of them (ADR 0200); counted apart from `made_here`. Absent from older servers. */
  not_stocked: z.number().int().optional(),
  /** Units and cost (quantity × unit cost) of every order on the list, all pages. `order_units` adds the quantities whatever their units. */
  order_units: z.number(),
  /** The same quantities, one total per unit (ADR 0177, amendment 2026-12-06): pieces (`unit` null) first, then each unit. */
  order_quantities: z.array(z.object({ unit: z.string().nullable(), quantity: z.number() })),
  order_cost: z.number(),
  /** The order-by date of the most urgent order on the list (rows to hurry have none); null when no order is listed. */
  first_order_by: z.string().nullable(),
  /** Of `total`, the products with no order to place whose delivery on its way arrives after they run out (rows with `onOrderArrives`). */
  on_order_late: z.number().int().optional(),
  page: z.number().int(),
  page_size: z.number().int(),
  /**
   * The suppliers of the list under every filter but the supplier's, each with how many products it
   * lists, by name, "no supplier" (null) last; the supplier asked for is there even when it lists none
   * (count 0). The Supplier filter's choices (ADR 0184).
   */
  suppliers: z.array(listSupplier),
  /** The supplier filter the list is under: a name, null for "no supplier"; absent: every supplier. */
  supplier: z.string().nullable().optional(),
  /** This page of the list, most urgent first. */
  products: z.array(reportProduct),
  /**
   * Products with demand in the last `inactive_days` days whose stock was never counted: no order can
   * be advised for them, so they are not on the list. `codes`: the best sellers among them (at most 10).
   * `counted_after_sales`: apart from them, those whose only counts are dated after their sales data
   * ends (more than two days after its last day, `sales_end`: a count taken today, sales imported up
   * to last week) — not projected either until recent sales are imported (ADR 0193 F9).
   */
  unknown_stock: z.object({
    count: z.number().int(),
    codes: z.array(z.string()),
    counted_after_sales: z.object({ count: z.number().int(), codes: z.array(z.string()), sales_end: z.string().nullable() }),
  }),
});
export type InventoryReport = z.infer<typeof inventoryReport>;
export const latestReportResponse = z.union([
  z.object({ success: z.literal(true), report: inventoryReport }),
  z.object({ success: z.literal(false), message: z.string() }),
]);
