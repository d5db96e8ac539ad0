// Display helpers of the Data integration screen.
import { formatMoment } from '@stockwise/contract';
import { i18n } from '../../i18n.ts';

const bytesFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${bytesFormat.format(bytes / 1024)} KB`;
  return `${bytesFormat.format(bytes / (1024 * 1024))} MB`;
}

// A spreadsheet's date cell reaches the preview as a timestamp at midnight UTC: the date is what it holds.
const MIDNIGHT_UTC = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.000)?Z$/;

/** A mapped value as text in a preview cell (objects as JSON, so a wrong path is visible). */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
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

/** A run's or a session's moment, day first as the app writes days, to the second: "7 Dec 2026, 3:04:05 PM". */
export const formatTime = (iso: string | null) => (iso ? formatMoment(iso, true) : '');

const FILE_KINDS = new Set(['csv', 'json', 'xlsx', 'xls', 'api']);

/** A configuration's name as a shop reads it: `product_catalogue_csv` → "Product catalogue CSV". */
export function readableName(name: string): string {
  const words = name.split(/[_\-\s]+/).filter(Boolean).map((word) => (FILE_KINDS.has(word.toLowerCase()) ? word.toUpperCase() : word));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An entity in a shop's words: a shipped one by its text ("Stock counts" for stock_snapshots), another by its name made readable. */
export const entityLabel = (name: string): string => i18n.t(`import.entities.${name}`, { defaultValue: readableName(name) });

/** entityLabel inside a sentence: "Map the file's columns onto stock counts". */
export const entityInSentence = (name: string): string => entityLabel(name).toLowerCase();
