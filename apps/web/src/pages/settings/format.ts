// Display helpers of the Data integration screen.
import { DEFAULT_DECIMAL_PLACES, isQuantityColumn, quantityCellFormat, type ImportTarget } from '@stockwise/contract';

const bytesFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${bytesFormat.format(bytes / 1024)} KB`;
  return `${bytesFormat.format(bytes / (1024 * 1024))} MB`;
}

// A spreadsheet's date cell reaches the preview as a timestamp at midnight UTC: the date is what it holds.
const MIDNIGHT_UTC = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.000)?Z$/;

// A date the server read comes as ISO (a day, or a day and time); anything else in a date column is the text as found.
const READ_DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:T[\d:.]+Z)?$/;

/**
 * A mapped value as text in a preview cell (objects as JSON, so a wrong path is visible); a number
 * of a decimal `target` with its places, as the Data grid writes it (1.50, not 1.5); in a date
 * column, text that did not read as a date quoted ("soon"), so it is not taken for a date read.
 */
export function formatCell(value: unknown, target?: Pick<ImportTarget, 'type' | 'decimal_places'>): string {
  if (value === null || value === undefined) return '';
  if ((target?.type === 'DateField' || target?.type === 'DateTimeField') && typeof value === 'string' && !READ_DATE.test(value)) return `"${value}"`;
  if (target && isQuantityColumn(target) && typeof value === 'number') return quantityCellFormat.format(value);
  if (target?.type === 'DecimalField' && typeof value === 'number') return value.toFixed(target.decimal_places ?? DEFAULT_DECIMAL_PLACES);
  if (typeof value === 'string') return MIDNIGHT_UTC.exec(value)?.[1] ?? value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Preview cells show this much of a long value (the whole value is in the cell's title). */
export const CELL_DISPLAY_CHARS = 80;
export const shortened = (text: string) => (text.length > CELL_DISPLAY_CHARS ? `${text.slice(0, CELL_DISPLAY_CHARS)}…` : text);

const countFormat = new Intl.NumberFormat('en');
export const formatCount = (count: number) => countFormat.format(count);

const secondsFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
/** The i18n key and values of a duration: milliseconds below a second, seconds above. */
export function durationMessage(ms: number): [string, Record<string, unknown>] {
  return ms < 1000 ? ['import.result.durationMs', { ms: Math.round(ms) }] : ['import.result.durationSeconds', { seconds: secondsFormat.format(ms / 1000) }];
}
