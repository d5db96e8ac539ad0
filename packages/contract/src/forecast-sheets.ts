// The Forecasting screen's two downloads as columns and rows, written once: the browser turns the
// forecast into its CSV, the server the inventory report's whole list into its CSV (ADR 0072,
// amendment 2026-12-04) and both into the .xlsx a European Excel opens as columns (docs/adr/0161,
// amendment "Excel downloads of the Forecasting screen").
import { formatDay } from './dates.ts';
import type { ProductForecastResponse, ReportProduct } from './forecasting.ts';

/**
 * How a column's cells are typed in the workbook: text, a product's quantity (a number as recorded,
 * to a thousandth: 48, 2.345 kg — never rounded to a whole or to two places), a number with two
 * decimals, money (in the shop's currency, once it has one), or a day.
 */
export type ForecastSheetKind = 'text' | 'quantity' | 'decimal' | 'money' | 'date';
export type ForecastSheet = { columns: { header: string; kind: ForecastSheetKind }[]; rows: (string | number | null)[][] };

const rounded = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 100) / 100);
/** A shelf holds no fewer than 0: a projected stock below it is 0 on the sheet… */
const onShelf = (level: number | undefined) => rounded(level === undefined ? undefined : Math.max(0, level));
/** …and how far below is the demand it cannot meet, a column of its own (ADR 0169). */
const shortBy = (level: number | undefined) => rounded(level === undefined ? undefined : Math.max(0, -level));

/**
 * The selected product's forecast: one line per forecast day. Its stock columns never go below 0;
 * "short by" is the expected path's unmet demand, "short by up to" the 95 % range's (its low end's).
 * "unit" is what every figure of the line counts ("kg"; blank for pieces), as the report's column:
 * a file saved away no longer has the screen's header beside it (ADR 0177, amendment 2026-12-06 (2)).
 * Last, so the figures keep the columns they had.
 */
export function forecastSheet(forecast: Pick<ProductForecastResponse, 'forecast'> & { product: Pick<ProductForecastResponse['product'], 'unit'> }): ForecastSheet {
  const stockByDate = new Map(forecast.forecast.stock.map((point) => [point.ds, point]));
  const columns = [
    { header: 'date', kind: 'date' as const },
    ...['forecast', 'lower', 'upper', 'stock', 'stock lower', 'stock upper', 'short by', 'short by up to'].map((header) => ({ header, kind: 'decimal' as const })),
    { header: 'unit', kind: 'text' as const },
  ];
  const rows = forecast.forecast.sales.map((point) => {
    const stock = stockByDate.get(point.ds);
    return [
      point.ds,
      rounded(point.yhat),
      rounded(point.yhat_lower),
      rounded(point.yhat_upper),
      onShelf(stock?.stock_level),
      onShelf(stock?.stock_lower),
      onShelf(stock?.stock_upper),
      shortBy(stock?.stock_level),
      shortBy(stock?.stock_lower),
      forecast.product.unit,
    ];
  });
  return { columns, rows };
}

// The screen's words for the two kinds of stockout (spec §3 names them stockForecast and stockLowerBound).
const stockoutWords = { stockForecast: 'expected', stockLowerBound: 'possible', none: null } as const;

/**
 * The inventory report's columns: "supplier" beside the name (blank: none, ADR 0184): a buyer sorts
 * or filters the file by it. "on hand now" is the screen's figure (empty when never counted), with
 * the count it comes from beside it. "unit" is what the product's quantities count ("kg"; blank for
 * pieces, ADR 0177 amendment 2026-12-06), beside the order quantity: the list mixes units. After the
 * unit, the supplier's terms the order was made in (ADR 0183, amendment 2026-12-06 (3)): the
 * product's case size and minimum order (blank: none), and "needed", what the stock needs where the
 * terms made the order larger (blank where they changed nothing), so "48" reads as 2 cases of 24
 * for a need of 40. Quantities are numbers as recorded: a product by the kilo keeps its grams.
 */
export const INVENTORY_REPORT_COLUMNS: ForecastSheet['columns'] = [
  { header: 'product code', kind: 'text' },
  { header: 'name', kind: 'text' },
  { header: 'supplier', kind: 'text' },
  { header: 'on hand now', kind: 'decimal' },
  { header: 'last count', kind: 'decimal' },
  { header: 'counted on', kind: 'date' },
  { header: 'unit cost', kind: 'money' },
  { header: 'first stockout', kind: 'date' },
  { header: 'stockout type', kind: 'text' },
  { header: 'reorder point', kind: 'quantity' },
  { header: 'order quantity', kind: 'quantity' },
  { header: 'unit', kind: 'text' },
  { header: 'case size', kind: 'quantity' },
  { header: 'minimum order', kind: 'quantity' },
  { header: 'needed', kind: 'quantity' },
  { header: 'order by', kind: 'date' },
  { header: 'model', kind: 'text' },
  { header: 'check', kind: 'text' },
  { header: 'too late', kind: 'text' },
  { header: 'on order', kind: 'text' },
];

/**
 * The lists' marks in shop words, as the screen and the assistant say them (ADR 0072, amendment
 * 2026-12-04 "hurry it"): an order on under four weeks of sales, an order that arrives after the
 * stockout even placed today, a delivery on its way that arrives after it.
 */
export const LIST_MARKS = {
  checkBeforeOrdering: 'Check before ordering',
  shortHistory: 'Under 4 weeks of sales',
  tooLate: 'Too late: arrives after it runs out',
  onOrderLate: (arrives: string) => `On order: arrives ${formatDay(arrives)}, after it runs out — hurry it`,
} as const;

/** An order placed today arrives after the expected stockout (a row to hurry has no order, so is not "too late"). */
export const isTooLate = (product: Pick<ReportProduct, 'urgencyDays' | 'onOrderArrives'>): boolean => product.urgencyDays < 0 && product.onOrderArrives === undefined;

/**
 * A download's name without its extension, for one supplier's list when given (ADR 0184): `base`
 * and the supplier's name as letters a–z and digits, the rest dashes ("reorder-report-fresh-drinks-co";
 * the products without one "…-no-supplier"), so a buyer's files per supplier do not overwrite each
 * other; `base` alone for every supplier (undefined).
 */
export function supplierFileName(base: string, supplier?: string | null): string {
  if (supplier === undefined) return base;
  const slug = (supplier ?? 'no supplier').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return `${base}-${slug || 'supplier'}`;
}

/** The inventory report download's name without its extension, dated by the report: "inventory-report-2026-12-06-acme-wholesale" for one supplier's list. */
export const inventoryReportFileName = (timestamp: string, supplier?: string | null): string => supplierFileName(`inventory-report-${timestamp.slice(0, 10)}`, supplier);

/** One product of the inventory report, as a line of INVENTORY_REPORT_COLUMNS. */
export const inventoryReportRow = (product: Omit<ReportProduct, 'arrivalDate'>): (string | number | null)[] => [
  product.styleCode,
  product.name,
  product.supplier ?? null,
  rounded(product.onHand?.units),
  product.onHand?.countedUnits ?? null,
  product.onHand?.countedOn ?? null,
  product.unitCost,
  product.firstStockout,
  stockoutWords[product.stockoutType ?? 'none'],
  product.reorderPoint,
  // A row to hurry orders nothing: blank, as its order-by day is, and as the screen's "—" (not 0).
  product.onOrderArrives ? null : product.orderQuantity,
  product.unit,
  product.orderMultiple ?? null,
  product.minOrderQuantity ?? null,
  product.orderQuantityNeeded ?? null,
  product.orderBy,
  product.model,
  product.shortHistory ? LIST_MARKS.shortHistory : null,
  isTooLate(product) ? 'yes' : null,
  product.onOrderArrives ? LIST_MARKS.onOrderLate(product.onOrderArrives) : null,
];
