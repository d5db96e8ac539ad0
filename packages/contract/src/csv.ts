// Delimited text for spreadsheets: CSV downloads (the server's table export, the web's forecast and
// report files) and the tab-separated rows the Data screen copies. One writing for all of them
// (DESIGN): text starting with = + - @ tab or CR gets a leading apostrophe against formula injection
// (OWASP "CSV Injection"); numbers stay numbers (a finite number carries no formula, and a negative
// stock must stay a number in the spreadsheet); a field holding the separator, a quote or a line
// break is quoted, its quotes doubled.

import type { FieldType } from './tables.ts';

export type CsvCell = string | number | boolean | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = { ',': /[",\r\n]/, '\t': /["\t\r\n]/ } as const;

/** One field, for a file separated by `separator`. */
export function delimitedCell(value: CsvCell, separator: ',' | '\t'): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes[separator].test(text) || text !== value ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvCell = (value: CsvCell) => delimitedCell(value, ',');

/** One CSV line, ended by CRLF (RFC 4180). */
export const csvLine = (cells: readonly CsvCell[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const toCsv = (rows: readonly (readonly CsvCell[])[]) => rows.map(csvLine).join('');

/** Tab-separated lines, as spreadsheets put copied cells on the clipboard: pasted, each field lands in its own column. */
export const toTsv = (rows: readonly (readonly CsvCell[])[]) => rows.map((row) => `${row.map((cell) => delimitedCell(cell, '\t')).join('\t')}\r\n`).join('');

/** The byte order mark that tells Excel a CSV file is UTF-8 (without it, umlauts open garbled). */
export const UTF8_BOM = '\uFEFF';

/** What a page says about its rows besides their values (RowPage.references, RowPage.unknown_values): column -> row or related id -> note. */
type RowNotes = { references?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined; unknownValues?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined };

/**
 * A row's fields as a table export writes them, and the Data screen copies a row: a related row by
 * the name the page gives it (`85123A — White hanging heart`, else its id), a value never recorded
 * empty, everything else as stored.
 */
export function exportedCells(columns: readonly { key: string; type: FieldType }[], row: Readonly<Record<string, CsvCell>>, notes: RowNotes): CsvCell[] {
  const id = String(row['id']);
  return columns.map(({ key, type }) => {
    if (notes.unknownValues?.[key]?.[id]) return null;
    const value = row[key];
    return type === 'ForeignKey' && value !== null && value !== undefined ? (notes.references?.[key]?.[String(value)] ?? value) : value;
  });
}
