// Excel workbooks of typed cells, written as they stream out (the table and report downloads,
// docs/adr/0161 "Amendment: Download Excel"). A European Excel opens a CSV as one column per line
// (its list separator is `;`, its decimal mark `,`); an .xlsx holds numbers, days and yes/no as
// such, so every locale shows them in its own way. One sheet: a bold, frozen header row of the
// column labels, then the rows, each committed to the zip as it comes, so a table of any size is
// never held whole; the next batch is asked for only when the reader has taken the last one.
import type { EventEmitter } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { moneyFormat } from '@stockwise/contract';
import { logError } from '../log.ts';

/**
 * How a column's values become cells. `text` stays text whatever it looks like (`00123` keeps
 * its zeros, `=1+2` is no formula); `date` takes ISO days, `instant` moments with a zone (shown
 * in UTC and saying so, as the CSV writes them), `datetime` a date and time without a zone (as
 * written); `number` and `boolean` are typed cells; `general` writes each value by its own type.
 */
export type SheetCellKind = 'text' | 'integer' | 'decimal' | 'number' | 'date' | 'instant' | 'datetime' | 'boolean' | 'general';

export type SheetColumn = {
  header: string;
  kind: SheetCellKind;
  /** Digits after the decimal mark a `decimal` column shows (its stored scale). */
  decimalPlaces?: number | undefined;
  /** Characters a `text` column is made wide enough for (its values' usual length). */
  textWidth?: number | undefined;
  /**
   * A `decimal` column of money in this currency (ISO 4217, the shop's): its cells stay numbers
   * (summable) and show the currency's sign and places instead of the column's (ADR 0166, amendment
   * "money in the Excel download").
   */
  currency?: string | undefined;
};

export type SheetValue = string | number | boolean | null | undefined;

/** The longest text an Excel cell holds; a longer one makes Excel "repair" the file. */
export const MAX_CELL_TEXT = 32_767;
const TRUNCATION_MARK = ' […]';
const MAX_SHEET_NAME = 31;

/** Number formats, written into the file and shown by Excel in the reader's locale (`,` or `.`, month names). */
const DAY_FORMAT = 'd mmm yyyy';
const INSTANT_FORMAT = 'd mmm yyyy hh:mm "UTC"';
const DATE_TIME_FORMAT = 'd mmm yyyy hh:mm';
const TEXT_FORMAT = '@';
const decimalFormat = (places: number | undefined) => (places === undefined ? undefined : places === 0 ? '0' : `0.${'0'.repeat(Math.min(places, 20))}`);

/**
 * Money's number format, written as the screens write it (`moneyFormat`: the currency's narrow sign
 * in English, its own places, yen without decimals): GBP `"£"#,##0.00;-"£"#,##0.00`, CHF
 * `"CHF "#,##0.00;…`. The sign is quoted text rather than a locale-tagged `[$£-809]`: the shop
 * deals in one currency and every Excel shows the same sign, while the reader's Excel still picks
 * its own decimal mark and grouping. The second section puts the minus before the sign (`-£5.00`,
 * as the screens do), never Excel's accounting parentheses or red.
 */
export function moneyNumberFormat(currency: string): string {
  const format = moneyFormat(currency);
  const places = format.resolvedOptions().maximumFractionDigits ?? 2;
  const figure = places ? `#,##0.${'0'.repeat(places)}` : '#,##0';
  // The sign and any space beside it on either side of the figure, each as one quoted text (`"CHF "`).
  const parts = format.formatToParts(1);
  const at = parts.findIndex((part) => part.type === 'integer');
  const textOf = (side: Intl.NumberFormatPart[]) => {
    const text = side.filter((part) => part.type === 'currency' || part.type === 'literal').map((part) => part.value.replaceAll('"', '')).join('');
    return text ? `"${text}"` : '';
  };
  const pattern = `${textOf(parts.slice(0, at))}${figure}${textOf(parts.slice(at + 1))}`;
  return `${pattern};-${pattern}`;
}

const KIND_WIDTHS: Record<SheetCellKind, number> = { text: 24, integer: 10, decimal: 12, number: 12, date: 12, instant: 22, datetime: 18, boolean: 8, general: 14 };
const MIN_WIDTH = 6;
const MAX_WIDTH = 50;

function formatOf(column: SheetColumn): string | undefined {
  switch (column.kind) {
    case 'text':
      return TEXT_FORMAT;
    case 'decimal':
      return column.currency ? moneyNumberFormat(column.currency) : decimalFormat(column.decimalPlaces);
    case 'date':
      return DAY_FORMAT;
    case 'instant':
      return INSTANT_FORMAT;
    case 'datetime':
      return DATE_TIME_FORMAT;
    case 'integer':
    case 'number':
    case 'boolean':
    case 'general':
      return undefined;
  }
}

/** Wide enough for the header and the kind's usual value, never wider than a screen's third. */
export function columnWidth(column: SheetColumn): number {
  const usual = column.kind === 'text' && column.textWidth !== undefined ? column.textWidth : KIND_WIDTHS[column.kind];
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, usual, column.header.length + 2));
}

/** A sheet name Excel takes: at most 31 characters, none of `\ / ? * [ ] :`, no apostrophe at either end. */
export function sheetNameOf(name: string): string {
  const cleaned = name.replace(/[\\/?*[\]:]/g, ' ').slice(0, MAX_SHEET_NAME).replace(/^'+|'+$/g, '').trim();
  return cleaned || 'Sheet1';
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A date and time as JSON and PostgreSQL write it: `2026-11-02T10:30:00.000Z`, `2026-11-02 10:30:00+01`, `2026-11-02 10:30:00`.
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A day as a date cell: midnight UTC is the day's own serial number in Excel (no zone shifts it). */
function dayCell(value: string): Date | string {
  const match = ISO_DAY.exec(value);
  if (!match) return value;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(day.getTime()) || day.getUTCDate() !== Number(match[3]) ? value : day;
}

/**
 * A date and time as a cell: a moment with a zone at its time in UTC, one without at the time it
 * names (Excel's cells have no zone; the serial number of a UTC wall clock is that clock's).
 */
function dateTimeCell(value: string): Date | string {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return value;
  const zone = match[3] === undefined ? 'Z' : match[3].length === 3 ? `${match[3]}:00` : match[3];
  const moment = new Date(`${match[1]}T${match[2]}${zone}`);
  return Number.isNaN(moment.getTime()) ? value : moment;
}

const textCell = (value: string) => (value.length > MAX_CELL_TEXT ? `${value.slice(0, MAX_CELL_TEXT - TRUNCATION_MARK.length)}${TRUNCATION_MARK}` : value);

/**
 * A value as the cell of its column's kind. A value of another type than the kind expects (a
 * related row without a name, shown by its id) is written by its own type; text is always a
 * string cell, which Excel never evaluates.
 */
export function sheetCell(kind: SheetCellKind, value: SheetValue): ExcelJS.CellValue {
  // Empty text is a blank cell: a cell holding "" would count in COUNTA and fail ISBLANK.
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (kind === 'date') return dayCell(value);
  if (kind === 'instant' || kind === 'datetime') return dateTimeCell(value);
  return textCell(value);
}

/** `rows`: batches of rows, read one at a time (a table's from the database, a report's from its result). */
export type SheetDownload = { sheetName: string; columns: readonly SheetColumn[]; rows: AsyncIterable<readonly (readonly SheetValue[])[]> | Iterable<readonly (readonly SheetValue[])[]> };

/**
 * The workbook as a stream of bytes, written while it is read. A failure while reading rows ends
 * the stream with that error (the download breaks instead of ending as a shorter, valid file); a
 * reader that goes away stops the rows being read.
 */
export function xlsxStream(download: SheetDownload): Readable {
  const output = new PassThrough();
  void writeWorkbook(output, download).catch((error: unknown) => {
    if (output.destroyed) return;
    logError('Excel download failed', error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}

/**
 * What exceljs keeps private: the sheet's XML stream and what it is piped into once the zip reaches
 * the sheet (a PassThrough of the readable-stream package: its backlog is `_writableState.length`).
 */
type Backlogged = Pick<EventEmitter, 'once' | 'off'> & { _writableState?: { length?: number } };
type SheetInternals = { stream: { pipes: Backlogged[] } };

/** XML bytes left waiting for compression before rows wait for it: a few batches, so the compression always has work. */
const MAX_UNCOMPRESSED_BACKLOG = 1_000_000;

/** Until `stream` has written out its backlog (it says so with 'drain'), or the reader has gone. */
const drained = (stream: Backlogged, output: PassThrough) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      output.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    output.once('close', done);
  });

/**
 * Waits until the rows written so far are compressed and taken by the reader (or the reader has
 * gone). exceljs hands the sheet's XML on towards the compression without waiting, so that backlog
 * is watched too: else a quick database fills memory with XML not yet compressed (the whole sheet,
 * uncompressed, in the end). The event loop gets a turn first: compression answers there, and rows
 * read in microtasks alone (PGlite's queries are) would otherwise all be written before one byte left.
 */
async function caughtUp(sheet: ExcelJS.Worksheet, output: PassThrough): Promise<void> {
  await setImmediate();
  const toCompression = (sheet as unknown as SheetInternals).stream.pipes[0];
  if (toCompression && (toCompression._writableState?.length ?? 0) > MAX_UNCOMPRESSED_BACKLOG && !output.destroyed) await drained(toCompression, output);
  if (output.writableNeedDrain && !output.destroyed) await drained(output, output);
}

async function writeWorkbook(output: PassThrough, download: SheetDownload): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetNameOf(download.sheetName), { views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
  const kinds = download.columns.map((column) => column.kind);
  // One style object per column, given to each of its cells: exceljs looks a style up by the
  // object's identity, and builds it anew for every cell that has its own copy (a third of the time).
  const styles: Partial<ExcelJS.Style>[] = download.columns.map((column) => {
    const numFmt = formatOf(column);
    return numFmt ? { numFmt } : {};
  });
  // The columns keep the format too: a value typed into the sheet later gets it.
  sheet.columns = download.columns.map((column, index) => ({ width: columnWidth(column), style: styles[index] ?? {} }));
  const header = sheet.addRow(download.columns.map((column) => column.header));
  header.eachCell((cell) => {
    cell.style = { font: { bold: true } };
  });
  header.commit();
  for await (const batch of download.rows) {
    if (output.destroyed) return;
    for (const values of batch) {
      const row = sheet.addRow(values.map((value, index) => sheetCell(kinds[index] ?? 'general', value)));
      row.eachCell((cell, column) => {
        cell.style = styles[column - 1] ?? {};
      });
      row.commit();
    }
    await caughtUp(sheet, output);
  }
  if (output.destroyed) return;
  sheet.commit();
  await workbook.commit();
}
