// The Forecasting screen's two downloads as columns and rows, written once: the browser turns them
// into its CSV, the server into the .xlsx a European Excel opens as columns (docs/adr/0161,
// amendment "Excel downloads of the Forecasting screen").
import type { InventoryReport, ProductForecastResponse } from './forecasting.ts';

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

/** The inventory report's list: one line per product. */
export function inventoryReportSheet(report: Pick<InventoryReport, 'products'>): ForecastSheet {
  const columns: ForecastSheet['columns'] = [
    { header: 'product code', kind: 'text' },
    { header: 'name', kind: 'text' },
    { header: 'current stock', kind: 'integer' },
    { header: 'unit cost', kind: 'decimal' },
    { header: 'first stockout', kind: 'date' },
    { header: 'stockout type', kind: 'text' },
    { header: 'reorder point', kind: 'integer' },
    { header: 'order quantity', kind: 'integer' },
    { header: 'order by', kind: 'date' },
    { header: 'model', kind: 'text' },
  ];
  const rows = report.products.map((product) => [
    product.styleCode,
    product.name,
    product.currentStock,
    product.unitCost,
    product.firstStockout,
    stockoutWords[product.stockoutType ?? 'none'],
    product.reorderPoint,
    product.orderQuantity,
    product.orderBy,
    product.model,
  ]);
  return { columns, rows };
}
