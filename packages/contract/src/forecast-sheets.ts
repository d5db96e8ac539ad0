// The Forecasting screen's two downloads as columns and rows, written once: the browser turns the
// forecast into its CSV, the server the inventory report's whole list into its CSV (ADR 0072,
// amendment 2026-12-04) and both into the .xlsx a European Excel opens as columns (docs/adr/0161,
// amendment "Excel downloads of the Forecasting screen").
import type { ListedOrder, ProductForecastResponse } from './forecasting.ts';

/** How a column's cells are typed in the workbook: text, a whole number, a number with two decimals, or a day. */
export type ForecastSheetKind = 'text' | 'integer' | 'decimal' | 'date';
export type ForecastSheet = { columns: { header: string; kind: ForecastSheetKind }[]; rows: (string | number | null)[][] };

const rounded = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 100) / 100);

/** The selected product's forecast: one line per forecast day. */
export function forecastSheet(forecast: Pick<ProductForecastResponse, 'forecast'>): ForecastSheet {
  const stockByDate = new Map(forecast.forecast.stock.map((point) => [point.ds, point]));
  const columns = [
    { header: 'date', kind: 'date' as const },
    ...['forecast', 'lower', 'upper', 'stock', 'stock lower', 'stock upper'].map((header) => ({ header, kind: 'decimal' as const })),
  ];
  const rows = forecast.forecast.sales.map((point) => {
    const stock = stockByDate.get(point.ds);
    return [point.ds, rounded(point.yhat), rounded(point.yhat_lower), rounded(point.yhat_upper), rounded(stock?.stock_level), rounded(stock?.stock_lower), rounded(stock?.stock_upper)];
  });
  return { columns, rows };
}

// The screen's words for the two kinds of stockout (spec §3 names them stockForecast and stockLowerBound).
const stockoutWords = { stockForecast: 'expected', stockLowerBound: 'possible', none: null } as const;

/**
 * The inventory report's columns: "on hand now" is the screen's figure (empty when never counted),
 * with the count it comes from beside it.
 */
export const INVENTORY_REPORT_COLUMNS: ForecastSheet['columns'] = [
  { header: 'product code', kind: 'text' },
  { header: 'name', kind: 'text' },
  { header: 'on hand now', kind: 'decimal' },
  { header: 'last count', kind: 'decimal' },
  { header: 'counted on', kind: 'date' },
  { header: 'unit cost', kind: 'decimal' },
  { header: 'first stockout', kind: 'date' },
  { header: 'stockout type', kind: 'text' },
  { header: 'reorder point', kind: 'integer' },
  { header: 'order quantity', kind: 'integer' },
  { header: 'order by', kind: 'date' },
  { header: 'model', kind: 'text' },
];

/** One product of the inventory report, as a line of INVENTORY_REPORT_COLUMNS. */
export const inventoryReportRow = (product: ListedOrder): (string | number | null)[] => [
  product.styleCode,
  product.name,
  rounded(product.onHand?.units),
  product.onHand?.countedUnits ?? null,
  product.onHand?.countedOn ?? null,
  product.unitCost,
  product.firstStockout,
  stockoutWords[product.stockoutType ?? 'none'],
  product.reorderPoint,
  product.orderQuantity,
  product.orderBy,
  product.model,
];
