// CSV export of the forecasting screens; cells are written by the contract's rule (formula
// injection guard, numbers as numbers, quoting).
import { toCsv, UTF8_BOM, type CsvCell, type InventoryReport, type ProductForecastResponse } from '@stockwise/contract';
import { saveFile } from '../../components/save-file.ts';

export { csvCell, toCsv, type CsvCell } from '@stockwise/contract';

const rounded = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 100) / 100);

/** The selected product's forecast: one line per forecast day. */
export function forecastCsv(forecast: Pick<ProductForecastResponse, 'forecast'>): string {
  const stockByDate = new Map(forecast.forecast.stock.map((point) => [point.ds, point]));
  const rows: CsvCell[][] = [['date', 'forecast', 'lower', 'upper', 'stock', 'stock lower', 'stock upper']];
  for (const point of forecast.forecast.sales) {
    const stock = stockByDate.get(point.ds);
    rows.push([point.ds, rounded(point.yhat), rounded(point.yhat_lower), rounded(point.yhat_upper), rounded(stock?.stock_level), rounded(stock?.stock_lower), rounded(stock?.stock_upper)]);
  }
  return toCsv(rows);
}

// The screen's words for the two kinds of stockout (spec §3 names them stockForecast and stockLowerBound).
const stockoutWords = { stockForecast: 'expected', stockLowerBound: 'possible', none: null } as const;

/** The whole inventory report: one line per product. */
export function reportCsv(report: Pick<InventoryReport, 'products'>): string {
  const rows: CsvCell[][] = [['product code', 'name', 'current stock', 'unit cost', 'first stockout', 'stockout type', 'reorder point', 'order quantity', 'order by', 'model']];
  for (const product of report.products) {
    rows.push([product.styleCode, product.name, product.currentStock, product.unitCost, product.firstStockout, stockoutWords[product.stockoutType ?? 'none'], product.reorderPoint, product.orderQuantity, product.orderBy, product.model]);
  }
  return toCsv(rows);
}

/**
 * Hands a CSV text to the browser as a download. The byte order mark makes Excel read it as UTF-8
 * (without it Excel on Windows shows "GrÃ¶ÃŸe" for "Größe"); LibreOffice and Google Sheets skip it.
 */
export function downloadCsv(fileName: string, text: string): void {
  saveFile(fileName, new Blob([UTF8_BOM, text], { type: 'text/csv;charset=utf-8' }));
}
