// Reads an uploaded file (spooled to disk first: import/upload.ts) as records, in batches: CSV
// through papaparse (csv.ts), JSON (an array of objects, or an object holding one) through
// stream-json, .xlsx through exceljs' streaming parsers over the zip's directory (the first sheet
// or a chosen one). Text is decoded per its byte order mark (UTF-8, UTF-16 LE/BE; UTF-8 without
// one; a CSV file that is not UTF-8 from its first non-ASCII byte on, as Windows-1252), and refused
// with the row when it holds a NUL byte or is not valid UTF-8; gzip and zip files
// named otherwise are refused. Nothing is read whole into memory; one record is capped (1 MiB). The preview and the
// import both read through here.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable, Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import { parser as jsonParser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { chain } from 'stream-chain';
import { isPlainRecord, readMappedPath, type ImportFormat } from '@stockwise/contract';
import { CsvReader, MAX_RECORD_CHARS, type CsvRecord } from './csv.ts';
import { wholeRecordsOf } from './cut-head.ts';
import { detectHeaderRow, HEADER_SEARCH_ROWS, headerRowBlank, HeaderRowError, headerRowPastEnd, type HeadRow } from './header-row.ts';
import { JsonSyntaxError, jsonSyntaxCheck } from './json-position.ts';
import { asWritten, cellsWithNothingMapped, csvMapper, recordMapper, recordWithNothingMapped, type FieldMappings, type MapperReading } from './mapping.ts';
import { absentFillDownMessage } from './fill-down.ts';
import type { MappedRecord } from './writer.ts';
import { readZipDirectory } from './zip-directory.ts';

/** A problem of the file as a whole (its format, encoding or structure): a 400 naming the row where it can. */
export class FileFormatError extends Error {}

const MAX_JSON_DEPTH = 64;
const JSON_BATCH = 1000;
const XLSX_BATCH = 1000;
const MAX_RECORD_BYTES = MAX_RECORD_CHARS;

/**
 * One record as the file has it: a row of cells (CSV, xlsx) or a JSON value. `row` is where a user
 * finds it: the spreadsheet's row number (the header is row 1, or below a title the row it is on)
 * for CSV and .xlsx, the record's place in the array (from 1) for JSON.
 */
export type RawRecord = { row: number; cells: unknown[] | null; value: unknown };

export type OpenedSource = {
  format: ImportFormat;
  /** CSV: the separator read from the header line (known after the first batch). */
  separator(): string | null;
  /** CSV and xlsx: the header row (known after the first batch). */
  header(): string[] | null;
  /** CSV and xlsx: where the header is: the row used, the row detected, and the non-blank rows above it, skipped (known after the first batch). */
  headerPlace(): HeaderPlace | null;
  /** xlsx: every worksheet's name, in the workbook's order (known after the first batch). */
  sheets(): string[] | null;
  batches: AsyncGenerator<RawRecord[]>;
};

export type HeaderPlace = { row: number; detected: number | null; skipped: readonly { row: number; cells: readonly unknown[] }[] };

const GZIP = [0x1f, 0x8b];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const startsWith = (head: Buffer, magic: number[]) => magic.every((byte, at) => head[at] === byte);
/** Excel 97–2003 (.xls) and other OLE2 compound files. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Bytes read to tell a file's format: a zip's first entry name (an Excel workbook's parts) ends within them. */
const FORMAT_HEAD_BYTES = 64;
/** Whether a zip's first entry is a part of an Office Open XML workbook (Excel, LibreOffice and Google Sheets write one of these first). */
const isWorkbookZip = (head: Buffer) => {
  if (!startsWith(head, ZIP) || head.length < 30) return false;
  const name = head.subarray(30, 30 + head.readUInt16LE(26)).toString('latin1');
  return ['[Content_Types].xml', '_rels/', 'docProps/', 'xl/'].some((part) => name.startsWith(part));
};

async function headOfFile(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The first bytes of a stream, and the whole stream again (those bytes included). */
async function peek(stream: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; whole: AsyncIterable<Buffer> }> {
  const iterator = stream[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    length += next.value.length;
  }
  async function* whole() {
    yield* taken;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(taken).subarray(0, bytes), whole: whole() };
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The file's format from its name or type, checked against its first bytes. */
export function formatOf(head: Buffer, fileName: string, mimeType: string): ImportFormat {
  const lower = fileName.toLowerCase();
  const zipped = startsWith(head, ZIP);
  if (lower.endsWith('.xlsx') || mimeType === XLSX_MIME) {
    if (!zipped) throw new FileFormatError('The .xlsx file cannot be read: it is not an Excel workbook.');
    return 'xlsx';
  }
  const named: ImportFormat | null =
    lower.endsWith('.csv') || lower.endsWith('.tsv') || lower.endsWith('.txt') || mimeType === 'text/csv' ? 'csv' : lower.endsWith('.json') || mimeType === 'application/json' ? 'json' : null;
  if (lower.endsWith('.xls') || startsWith(head, OLE2)) {
    throw new FileFormatError('Excel 97–2003 workbooks (.xls) cannot be read: open the file in Excel and save it as an Excel Workbook (.xlsx) or as CSV, then upload that.');
  }
  if (!named) throw new FileFormatError('Upload a .csv, .json or .xlsx file.');
  if (isWorkbookZip(head)) throw new FileFormatError(`This file is an Excel workbook, though its name ends in ${lower.slice(lower.lastIndexOf('.'))}: rename it to end in .xlsx and upload it again, or save it as CSV in Excel.`);
  if (zipped || startsWith(head, GZIP)) throw new FileFormatError('compressed files are not supported: upload the .csv or .json file itself.');
  return named;
}

/** Whether a file of this name and type is a workbook (read from disk) rather than text (read as it arrives). */
export const isWorkbook = (fileName: string, mimeType: string) => fileName.toLowerCase().endsWith('.xlsx') || mimeType === XLSX_MIME;

/**
 * A parser's complaint as a format error of the file; errors of the upload itself (a dropped
 * connection, the size limit, a timeout: they carry a code) pass through as they are.
 */
function asFormatError(error: unknown, format: string): unknown {
  if (error instanceof HeaderRowError) return new FileFormatError(error.message);
  if (error instanceof FileFormatError || typeof (error as { code?: unknown }).code === 'string') return error;
  return new FileFormatError(`The ${format} file cannot be read: ${error instanceof Error ? error.message : String(error)}`);
}

const countLines = (text: string, end = text.length) => {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
};

/** A NUL byte or invalid text: its line (the count of lines before it), the text from its chunk's start on, the message naming the line. */
type Refusal = { lines: number; text: string; message: (where: string) => string };

/** Text read past a refused byte at most, to tell the head's rows (CSV's head is no longer either). */
const HEAD_AHEAD_CHARS = 64 * 1024;

/**
 * The file's text, chunk by chunk: decoded per its BOM (UTF-8 without one), with NUL bytes and
 * invalid UTF-8 refused naming where: `where` gets the count of lines before it and the text from
 * the start of the chunk holding it on — to the end of the file's head (its first
 * HEADER_SEARCH_ROWS lines), which is read on for it — and words it as the CSV row (a title line
 * above the column names, the header, a record) or the JSON line. With `legacy` (CSV), a file
 * without a BOM whose first non-ASCII byte is no UTF-8 is read as Windows-1252, as Excel's "CSV" and
 * older tills save it (`Menge;Bezeichnung` … `Pflanzkübel` with ü as one byte); invalid UTF-8 after
 * valid UTF-8 is still refused.
 */
async function* decodedText(input: AsyncIterable<Buffer>, where: (lines: number, text: string) => string, legacy = false): AsyncGenerator<string> {
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  let lines = 0;
  // Until a non-ASCII character is decoded, invalid UTF-8 may still mean Windows-1252; the bytes the
  // UTF-8 decoder holds back at a chunk's end (the start of a character) then belong to the next chunk.
  let asciiSoFar = legacy;
  let heldBack: Buffer = Buffer.alloc(0);
  // Whether a row is a title or the header is told by the rows below it: the refusal waits for the head.
  let refusal = null as Refusal | null;
  const headWhole = ({ lines: before, text }: Refusal) => before + countLines(text) >= HEADER_SEARCH_ROWS || text.length >= HEAD_AHEAD_CHARS;
  /** Whether `text` is refused (a NUL byte); else its lines are counted. */
  const refused = (text: string) => {
    const nul = text.indexOf('\u0000');
    if (nul >= 0) {
      refusal = { lines: lines + countLines(text, nul), text, message: (at) => `The file contains a NUL byte (${at}): it is not a text file, or it is UTF-16 without a byte order mark. Save it as UTF-8 CSV.` };
      return true;
    }
    lines += countLines(text);
    return false;
  };
  for await (const chunk of input) {
    if (refusal) {
      refusal.text += new TextDecoder(decoder?.encoding).decode(chunk);
      if (headWhole(refusal)) break;
      continue;
    }
    if (!decoder) {
      const encoding = chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : chunk[0] === 0xfe && chunk[1] === 0xff ? 'utf-16be' : 'utf-8';
      decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
      asciiSoFar &&= encoding === 'utf-8' && !(chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf);
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      const lenient = new TextDecoder(decoder.encoding).decode(chunk);
      const bad = lenient.indexOf('\uFFFD');
      if (asciiSoFar && isAscii(lenient.slice(0, Math.max(bad, 0)))) {
        decoder = new TextDecoder('windows-1252');
        asciiSoFar = false;
        text = decoder.decode(Buffer.concat([heldBack, chunk]));
        if (text && !refused(text)) yield text;
        continue;
      }
      const encoding = decoder.encoding === 'utf-8' ? 'UTF-8' : decoder.encoding.toUpperCase();
      refusal = { lines: lines + countLines(lenient, bad < 0 ? lenient.length : bad), text: lenient, message: (at) => `The file is not valid ${encoding} text (${at}). Save it as UTF-8.` };
      if (headWhole(refusal)) break;
      continue;
    }
    if (asciiSoFar) {
      if (!isAscii(text)) asciiSoFar = false;
      else {
        const from = trailingNonAscii(chunk);
        heldBack = from === 0 ? Buffer.concat([heldBack, chunk]) : Buffer.from(chunk.subarray(from));
      }
    }
    if (text && !refused(text)) yield text;
  }
  if (!refusal && decoder) {
    let rest: string;
    try {
      rest = decoder.decode();
    } catch {
      if (!asciiSoFar || !heldBack.length) throw new FileFormatError(`The file is not valid text: it ends in the middle of a character (${where(lines, '')}).`);
      rest = new TextDecoder('windows-1252').decode(heldBack);
    }
    if (rest && !refused(rest)) yield rest;
  }
  if (refusal) throw new FileFormatError(refusal.message(where(refusal.lines, refusal.text)));
}

const isAscii = (text: string) => {
  for (let at = 0; at < text.length; at++) if (text.charCodeAt(at) > 0x7f) return false;
  return true;
};

/** Where the run of non-ASCII bytes at the end of `chunk` starts (its length when there is none). */
function trailingNonAscii(chunk: Buffer): number {
  let at = chunk.length;
  while (at > 0 && (chunk[at - 1] as number) >= 0x80) at -= 1;
  return at;
}

async function* csvBatches(input: AsyncIterable<Buffer>, reader: CsvReader): AsyncGenerator<RawRecord[]> {
  const raw = (records: CsvRecord[]): RawRecord[] => records.map(({ row, cells }) => ({ row, cells, value: null }));
  try {
    for await (const text of decodedText(input, (lines, text) => reader.rowName(lines + 1, text), true)) {
      const batch = raw(reader.push(text));
      if (batch.length) yield batch;
    }
    const last = raw(reader.end());
    if (last.length) yield last;
  } catch (error) {
    throw asFormatError(error, 'CSV');
  }
}

/** Counts bytes between records: a record growing past the cap is refused before it is whole. */
function recordSizeGuard() {
  let sinceRecord = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sinceRecord += chunk.length;
      if (sinceRecord > MAX_RECORD_BYTES * 2) callback(new FileFormatError(`A JSON record is longer than ${Math.round(MAX_RECORD_BYTES / 1024)} KiB; records that long are not imported.`));
      else callback(null, chunk);
    },
  });
  return { transform, recordSeen: () => (sinceRecord = 0) };
}

/** The text, checked as it passes: where it stops being JSON is said by line and column (the parser says neither). */
async function* checkedJson(text: AsyncIterable<string>): AsyncGenerator<string> {
  const syntax = jsonSyntaxCheck();
  try {
    for await (const piece of text) {
      syntax.check(piece);
      yield piece;
    }
    syntax.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new FileFormatError(`The file is not valid JSON: ${error.message}.`);
    throw error;
  }
}

async function* jsonBatches(input: AsyncIterable<Buffer>): AsyncGenerator<RawRecord[]> {
  // The first array at the top level, or as a value of the top-level object, holds the records.
  const firstArray = (stack: unknown[], token: { name: string }) => stack.length <= 1 && token.name === 'startArray';
  const guard = recordSizeGuard();
  const text = Readable.from(checkedJson(decodedText(input, (lines) => `line ${lines + 1}`)));
  const pipeline = chain([text, guard.transform, jsonParser(), pick({ filter: firstArray, once: true, maxDepth: MAX_JSON_DEPTH }), streamArray()]);
  let batch: RawRecord[] = [];
  try {
    for await (const { key, value } of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
      guard.recordSeen();
      batch.push({ row: key + 1, cells: null, value });
      if (batch.length >= JSON_BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw asFormatError(error, 'JSON');
  } finally {
    pipeline.destroy();
  }
  if (batch.length) yield batch;
}

/**
 * An .xlsx cell with no value to read: a spreadsheet error (#N/A, #DIV/0!), or a formula whose
 * file holds no result for it (the streaming reader drops error results; some writers save none).
 * Imported as a row error naming it, never as its text.
 */
export class UnreadableCell {
  readonly shown: string;
  readonly reason: string;
  constructor(shown: string, reason: string) {
    this.shown = shown;
    this.reason = reason;
  }
  toString() {
    return this.shown;
  }
  toJSON() {
    return this.shown;
  }
}

/** A cell of exceljs as a plain value: rich text and hyperlinks as their text, formulas as their result. */
function cellValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || value instanceof Date) return value;
  const cell = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string; formula?: string; sharedFormula?: string };
  if (cell.richText) return cell.richText.map((part) => part.text).join('');
  if ('result' in cell || cell.formula !== undefined || cell.sharedFormula !== undefined) {
    const result = cellValue(cell.result);
    if (result !== null || cell.formula === undefined) return result;
    return new UnreadableCell(`=${cell.formula}`, `The cell holds the formula =${cell.formula} with no result saved in the file (an error such as #DIV/0!): correct it, or paste its values.`);
  }
  if (cell.error) return new UnreadableCell(cell.error, `The cell holds the spreadsheet error ${cell.error}: correct it, or leave the cell blank.`);
  if (typeof cell.text === 'string') return cell.text;
  return String(value);
}

type WorksheetInternals = { parse(): AsyncIterable<{ eventType: string; value: { number: number; values: unknown[] } }[]> };
/** exceljs' streaming reader, fed the parts this module reads from the zip's directory (zip-directory.ts). */
type WorkbookInternals = {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Type?: string; Target: string }[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncIterable<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNumber: string): Iterable<{ value: WorksheetInternals }>;
};

const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** The rows of the chosen sheet (the first when none is chosen) as exceljs reads them. */
async function* xlsxSheetEvents(path: string, wantedSheet: string | null, meta: { sheets: string[] | null }) {
  const zip = await readZipDirectory(path);
  if (!zip) throw new FileFormatError('The .xlsx file cannot be read: it is not a complete workbook (its zip directory is missing or damaged). Save it again from the spreadsheet program and upload it again.');
  const part = async (name: string) => {
    const stream = await zip.stream(name);
    if (!stream) throw new FileFormatError(`The .xlsx file cannot be read: its part ${name} is missing or compressed in a way this cannot read.`);
    return stream;
  };
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  const internals = workbook as unknown as WorkbookInternals;
  await internals._parseRels(await part('xl/_rels/workbook.xml.rels'));
  await internals._parseWorkbook(await part('xl/workbook.xml'));
  const sheets = internals.model?.sheets ?? [];
  meta.sheets = sheets.map((sheet) => sheet.name);
  const relations = internals.workbookRels ?? [];
  // A relationship's target is relative to the workbook part's folder, or absolute in the zip.
  const partOf = (relation: { Target: string } | undefined) => relation && posix.normalize(relation.Target.startsWith('/') ? relation.Target.slice(1) : `xl/${relation.Target}`);
  const partOfType = (type: string) => partOf(relations.find((relation) => relation.Type === RELATIONSHIP_TYPES + type));
  const chosen = wantedSheet === null ? sheets[0] : sheets.find((sheet) => sheet.name === wantedSheet);
  const sheetPart = chosen && partOf(relations.find((relation) => relation.Id === chosen.rId));
  if (!sheetPart || !zip.has(sheetPart)) {
    const names = sheets.length ? meta.sheets.join(', ') : 'none';
    throw new FileFormatError(wantedSheet ? `The workbook has no sheet named '${wantedSheet}' (its sheets: ${names}).` : 'The workbook has no sheets.');
  }
  const sharedStrings = partOfType('sharedStrings') ?? 'xl/sharedStrings.xml';
  if (zip.has(sharedStrings)) for await (const _event of internals._parseSharedStrings(await part(sharedStrings))) void _event;
  const styles = partOfType('styles') ?? 'xl/styles.xml';
  if (zip.has(styles)) await internals._parseStyles(await part(styles));
  const sheetNumber = /(\d+)\.xml$/.exec(sheetPart)?.[1] ?? '1';
  for (const { value: worksheet } of internals._parseWorksheet(await part(sheetPart), sheetNumber)) yield* worksheet.parse();
}

type XlsxMeta = { header: string[] | null; sheets: string[] | null; place: HeaderPlace | null };

const columnName = (cell: unknown) => (cell === null ? '' : cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell).trim());

/**
 * The rows of a sheet below its header: the sheet's first non-blank rows are held until the header
 * is told among them (header-row.ts), or found where the mapping's `headerRow` says.
 */
async function* xlsxBatches(path: string, wantedSheet: string | null, headerRow: number | null, meta: XlsxMeta): AsyncGenerator<RawRecord[]> {
  let batch: RawRecord[] = [];
  let head: HeadRow[] | null = [];
  const add = (row: number, cells: unknown[]) => {
    while (cells.length < (meta.header?.length ?? 0)) cells.push(null);
    batch.push({ row, cells, value: null });
  };
  const tellHeader = (rows: HeadRow[], ended: boolean) => {
    head = null;
    const detected = detectHeaderRow(rows);
    const used = headerRow ?? detected;
    if (used === null) return;
    const headerCells = rows.find((row) => row.row === used)?.cells;
    if (!headerCells) throw ended && used > (rows.at(-1)?.row ?? 0) ? headerRowPastEnd(used, rows.at(-1)?.row ?? 0) : headerRowBlank(used);
    meta.header = headerCells.map(columnName);
    meta.place = { row: used, detected, skipped: rows.filter((row) => row.row < used) };
    for (const row of rows) if (row.row > used) add(row.row, [...row.cells]);
  };
  try {
    for await (const events of xlsxSheetEvents(path, wantedSheet, meta)) {
      for (const { eventType, value } of events) {
        if (eventType !== 'row') continue;
        const cells = value.values.slice(1).map(cellValue);
        if (cells.every((cell) => cell === null || cell === '')) continue;
        if (!head) {
          add(value.number, cells);
          continue;
        }
        head.push({ row: value.number, cells });
        if (head.length >= HEADER_SEARCH_ROWS && value.number >= (headerRow ?? 0)) tellHeader(head, false);
      }
      if (batch.length >= XLSX_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (head) tellHeader(head, true);
  } catch (error) {
    if (error instanceof HeaderRowError) throw new FileFormatError(error.message);
    if (error instanceof FileFormatError) throw error;
    throw new FileFormatError(`The .xlsx file cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (batch.length) yield batch;
}

/**
 * Opens an upload for reading: a spooled file (`path`), or — CSV and JSON only — the upload's own
 * stream as it arrives (`stream`). `cutHead`: the bytes are the head of a longer file, whose last
 * line a CSV reads only when it is whole.
 */
export async function openSource(
  input: { path: string } | { stream: AsyncIterable<Buffer> },
  fileName: string,
  mimeType: string,
  options: { sheet?: string | null; headerRow?: number | null; cutHead?: boolean } = {},
): Promise<OpenedSource> {
  const peeked = 'path' in input ? { head: await headOfFile(input.path, FORMAT_HEAD_BYTES), whole: null } : await peek(input.stream, FORMAT_HEAD_BYTES);
  const format = formatOf(peeked.head, fileName, mimeType);
  const bytes = () => peeked.whole ?? createReadStream((input as { path: string }).path);
  if (format === 'csv') {
    const reader = new CsvReader({ headerRow: options.headerRow ?? null });
    const headerPlace = () => (reader.header && reader.headerRow !== null ? { row: reader.headerRow, detected: reader.detectedHeaderRow, skipped: reader.skippedRows } : null);
    return { format, separator: () => reader.separator, header: () => reader.header, headerPlace, sheets: () => null, batches: csvBatches(options.cutHead ? wholeRecordsOf(bytes()) : bytes(), reader) };
  }
  // A JSON record has no rows above it: a mapping's header row does not apply.
  if (format === 'json') return { format, separator: () => null, header: () => null, headerPlace: () => null, sheets: () => null, batches: jsonBatches(bytes()) };
  if (!('path' in input)) throw new Error('An .xlsx workbook is read from a spooled file');
  const meta: XlsxMeta = { header: null, sheets: null, place: null };
  return { format, separator: () => null, header: () => meta.header, headerPlace: () => meta.place, sheets: () => meta.sheets, batches: xlsxBatches(input.path, options.sheet ?? null, options.headerRow ?? null, meta) };
}

/** A header's first 20 names, as a refusal lists them. */
const columnsShown = (header: string[]) => `${header.slice(0, 20).map((name) => `'${name}'`).join(', ')}${header.length > 20 ? ', …' : ''}`;

/** The mapping applied to rows of cells under `header`; a field every row needs must have its column. */
function cellMapper(header: string[], fieldMappings: FieldMappings, needed: string[], reading: MapperReading) {
  const names = new Set(header);
  const { fill } = reading;
  if (fill && !names.has(fill.by)) throw new FileFormatError(`The file has no column '${fill.by}' that blank cells are filled down by (fill_down_by; its columns: ${columnsShown(header)}). Check the mapping or the sheet.`);
  // A field's joined columns (ADR 0193) are each needed as its own column is.
  const columnsOf = (field: string) => [fieldMappings[field] ?? ''].flat();
  for (const field of needed) {
    const absent = columnsOf(field).find((column) => !names.has(column));
    if (absent !== undefined) throw new FileFormatError(`The file has no column '${absent}' for ${field} (its columns: ${columnsShown(header)}). Check the mapping or the sheet.`);
  }
  // Two columns of one name: which one the mapping means cannot be told (the last would win, silently).
  for (const [field, column] of Object.entries(fieldMappings).flatMap(([field, paths]) => [paths].flat().map((path) => [field, path] as const))) {
    const places = header.flatMap((name, index) => (name === column ? [index + 1] : []));
    if (places.length > 1) {
      throw new FileFormatError(`The file has ${places.length} columns named '${column}' (columns ${places.slice(0, -1).join(', ')} and ${places.at(-1)}), and ${field} is mapped to it: rename one of them in the file so the mapping can tell which to import.`);
    }
  }
  return csvMapper(header, fieldMappings, reading);
}

/**
 * The records of `source` after the mapping, for the writer; `needed`: fields every record must
 * have (key, required); `filterColumns`: the columns the mapping's row filters read (each record's
 * `filterCells`), which a file with a header must have; `reading`: how the mapper reads them beyond
 * the columns (fill-down, the code in brackets: target.ts's mapperReading).
 */
export async function* mappedBatches(source: OpenedSource, fieldMappings: FieldMappings, needed: string[], filterColumns: readonly string[] = [], reading: MapperReading = asWritten): AsyncGenerator<MappedRecord[]> {
  const { fill } = reading;
  let mapCells: ((cells: unknown[]) => Record<string, unknown>) | null = null;
  let cellsEmpty: ((cells: unknown[]) => boolean) | null = null;
  const mapRecord = recordMapper(fieldMappings, reading);
  const recordEmpty = recordWithNothingMapped(fieldMappings);
  let filterCellsOf: ((cells: unknown[]) => unknown[]) | null = null;
  // A JSON file's records: whether any had the fill_down_by path (and the first, for the refusal's keys).
  let grouped = false;
  let firstRecord: unknown;
  for await (const batch of source.batches) {
    if (fill && !grouped) {
      const values = batch.flatMap(({ cells, value }) => (cells ? [] : [value]));
      firstRecord ??= values.find(isPlainRecord);
      grouped = values.some((value) => isPlainRecord(value) && readMappedPath(value, fill.by) !== undefined);
    }
    yield batch.map(({ row, cells, value }) => {
      if (cells) {
        mapCells ??= cellMapper(source.header() ?? [], fieldMappings, needed, reading);
        filterCellsOf ??= filterCellReader(source.header() ?? [], filterColumns);
        cellsEmpty ??= cellsWithNothingMapped(source.header() ?? [], fieldMappings);
        return { row, fields: mapCells(cells), ...(filterColumns.length ? { filterCells: filterCellsOf(cells) } : {}), ...(cellsEmpty(cells) ? { empty: true as const } : {}) };
      }
      const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
      const filterCells = filterColumns.length && isRecord ? { filterCells: filterColumns.map((path) => readMappedPath(value, path)) } : {};
      return { row, fields: isRecord ? mapRecord(value) : null, ...filterCells, ...(isRecord && recordEmpty(value) ? { empty: true as const } : {}) };
    });
  }
  // Known only once every record was read: the import's transaction rolls back what it wrote (ADR 0195).
  if (fill && !grouped && firstRecord !== undefined) throw new FileFormatError(absentFillDownMessage(fill.by, 'No record of the file', [firstRecord]));
  // A header without data rows still says whether the mapping fits (the wrong sheet, say).
  const header = source.header();
  if (!mapCells && header) {
    cellMapper(header, fieldMappings, needed, reading);
    filterCellReader(header, filterColumns);
  }
}

/** The cells a row filter reads, by the header's names; a filter's column the file lacks refuses it (nothing would be left out, silently). */
function filterCellReader(header: string[], filterColumns: readonly string[]): (cells: unknown[]) => unknown[] {
  const columnOf = new Map(header.map((name, at) => [name, at]));
  const absent = filterColumns.find((column) => !columnOf.has(column));
  if (absent !== undefined) {
    throw new FileFormatError(`The file has no column '${absent}' for the mapping's "leave out lines where" (skip_rows_where; its columns: ${columnsShown(header)}). Check the mapping or the sheet.`);
  }
  const at = filterColumns.map((column) => columnOf.get(column) as number);
  return (cells) => at.map((index) => cells[index]);
}
