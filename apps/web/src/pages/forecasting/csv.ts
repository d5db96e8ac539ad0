// CSV export of the selected product's forecast: the contract's columns and rows (the server writes
// the same into the .xlsx), cells written by its rule (formula injection guard, numbers as numbers,
// quoting). The report's CSV is the server's: its whole list, not the page loaded.
import { forecastSheet, toCsv, UTF8_BOM, type ForecastSheet, type ProductForecastResponse } from '@stockwise/contract';
import { saveFile } from '../../components/save-file.ts';

export { csvCell, toCsv, type CsvCell } from '@stockwise/contract';

const csvOf = (sheet: ForecastSheet): string => toCsv([sheet.columns.map((column) => column.header), ...sheet.rows]);

/** The selected product's forecast: one line per forecast day, with the product's unit. */
export const forecastCsv = (forecast: Pick<ProductForecastResponse, 'forecast' | 'product'>): string => csvOf(forecastSheet(forecast));

/**
 * Hands a CSV text to the browser as a download. The byte order mark makes Excel read it as UTF-8
 * (without it Excel on Windows shows "GrÃ¶ÃŸe" for "Größe"); LibreOffice and Google Sheets skip it.
 */
export function downloadCsv(fileName: string, text: string): void {
  saveFile(fileName, new Blob([UTF8_BOM, text], { type: 'text/csv;charset=utf-8' }));
}
