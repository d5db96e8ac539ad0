// CSV export of the selected product's forecast: the contract's columns and rows (the server writes
// the same into the .xlsx), cells written by its rule (formula injection guard, numbers as numbers,
// quoting). The report's CSV is the server's: its whole list, not the page loaded.
import { forecastSheet, toCsv, type ForecastSheet, type ProductForecastResponse } from '@stockwise/contract';

const csvOf = (sheet: ForecastSheet): string => toCsv([sheet.columns.map((column) => column.header), ...sheet.rows]);

/** The selected product's forecast: one line per forecast day, with the product's unit. */
export const forecastCsv = (forecast: Pick<ProductForecastResponse, 'forecast' | 'product'>): string => csvOf(forecastSheet(forecast));
