// CSV records of an upload, fed chunk by chunk, parsed by papaparse's parser (the one its own
// streaming readers drive; the fastest of the CSV libraries measured for the import benchmark:
// docs/adr/0008-file-import.md). Quoted separators, quotes and newlines, LF or CRLF (told by the
// first line end), the separator (`,`, `;` or tab, told by the header line), a BOM, empty lines and
// title lines above the header (header-row.ts; the rows above it are kept aside, not imported) are
// handled; lines of empty cells among the records are skipped. What papaparse reports — an
// unterminated or malformed quote — is an error, and so is a record whose field count differs from the header's (but for a totals line short of cells), and a record longer than the cap (it
// is refused while being read, never held whole): nothing is guessed. Each record comes with its row
// as a spreadsheet shows the file — the header is row 1, empty lines count, a quoted newline stays in
// its row — so an error names the row the user finds when opening the file in Excel.
import Papa from 'papaparse';
import { isTotalsWord } from './totals-line.ts';
import { detectHeaderRow, HEADER_SEARCH_ROWS, headerRowBlank, headerRowPastEnd, type HeadRow } from './header-row.ts';

export class CsvSyntaxError extends Error {}

type ParseError = { code: string; message: string; row?: number };

/** A data record and its row in the file as a spreadsheet numbers it (the header is row 1). */
export type CsvRecord = { row: number; cells: string[] };

/** An empty line parses as one empty field. */
const isEmptyLine = (fields: string[]) => fields.length === 1 && fields[0] === '';
/** An empty line or a line of empty cells (`;;`, as Excel saves a blank row): never the header. */
const isBlankLine = (fields: string[]) => fields.every((field) => field.trim() === '');

/** One record may be at most this long (characters); a longer one is refused while it is read. */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** The head searched for the header is at most this long (characters): a longer first line decides alone. */
const HEAD_CHARS = 64 * 1024;
const SEPARATORS = [',', ';', '\t'] as const;

/** The separator of a header line: the candidate found most often outside quotes (a comma on a tie). */
export function detectSeparator(line: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const [separator, count] of counts) if (count > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/** A line's cells split by `separator` (for telling the header; the records are papaparse's). */
const cellsOf = (line: string, separator: string) => (Papa.parse<string[]>(line, { delimiter: separator, quoteChar: '"' }).data[0] ?? []) as string[];

/**
 * The first whole lines of `text` (up to `count`), each a record: the lines before one whose quotes
 * do not close (a quoted newline), whose records a line split cannot tell.
 */
function headLines(text: string, count: number, final: boolean): string[] {
  const lines = text.split('\n');
  if (!final) lines.pop();
  const whole: string[] = [];
  for (const line of lines.slice(0, count)) {
    if ((line.match(/"/g)?.length ?? 0) % 2 === 1) break;
    whole.push(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  return whole;
}

/** The header row a head of lines shows (header-row.ts), each line read with its own separator. */
function detectCsvHeaderRow(lines: readonly string[]): number | null {
  const rows: (HeadRow & { separator: string })[] = lines.flatMap((line, at) => {
    const separator = detectSeparator(line);
    return line === '' ? [] : [{ row: at + 1, cells: cellsOf(line, separator), separator }];
  });
  return detectHeaderRow(rows, { cellsAs: (row, header) => cellsOf(lines[row.row - 1] as string, (header as HeadRow & { separator: string }).separator), fieldCountTells: true });
}

export class CsvReader {
  #carry = '';
  #pending: string[] = [];
  #pendingLength = 0;
  #config: Papa.ParseConfig | null = null;
  #started = false;
  #header: string[] | null = null;
  /** Rows read so far: the header, empty lines and data records, as a spreadsheet counts them. */
  #rows = 0;
  /** The last row that is not empty (the end of the file as a spreadsheet shows it). */
  #lastFilledRow = 0;
  readonly #maxRecordChars: number;
  /** The mapping's header row; null: detected. */
  readonly #givenHeaderRow: number | null;
  /** The row to take the header from (null: the first non-blank one), then the row it was taken from. */
  #headerRow: number | null = null;
  #detectedHeaderRow: number | null = null;
  readonly #skippedRows: { row: number; cells: string[] }[] = [];

  constructor(options: { maxRecordChars?: number; headerRow?: number | null } = {}) {
    this.#maxRecordChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
    this.#givenHeaderRow = options.headerRow ?? null;
  }

  /** The row holding the column names (the mapping's, else detected), once the head has been read. */
  get headerRow(): number | null {
    return this.#headerRow;
  }

  /** The row the file's own look says holds the column names, once the head has been read. */
  get detectedHeaderRow(): number | null {
    return this.#detectedHeaderRow;
  }

  /** The non-blank rows above the header, not imported. */
  get skippedRows(): readonly { row: number; cells: string[] }[] {
    return this.#skippedRows;
  }


  /** The header's fields, once its line has been read. */
  get header(): string[] | null {
    return this.#header;
  }

  /** The separator, once the header line has been read. */
  get separator(): string | null {
    return (this.#config?.delimiter as string | undefined) ?? null;
  }

  /**
   * Row `row` as an error found before its record is parsed names it (a NUL byte, invalid UTF-8):
   * "the header" on row 1, the row and what it is above or at the column names, else the row.
   * `upcoming`: text not pushed yet, from which the header row is told while the head is incomplete.
   */
  rowName(row: number, upcoming: string): string {
    const headerRow = (this.#config ? this.#headerRow : (this.#givenHeaderRow ?? detectCsvHeaderRow(headLines((this.#carry + this.#pending.join('') + upcoming).replace(/^\uFEFF/, ''), HEADER_SEARCH_ROWS, true)))) ?? row;
    if (row < headerRow) return `row ${row}, a title line above the column names on row ${headerRow}`;
    if (row === headerRow) return row === 1 ? 'the header' : `row ${row}, the column names`;
    return `row ${row}`;
  }

  /** The records completed by this chunk; a record the chunk cuts off waits for the next one. */
  push(chunk: string): CsvRecord[] {
    if (!chunk) return [];
    this.#pending.push(chunk);
    this.#pendingLength += chunk.length;
    // A record longer than a chunk (a long quoted text) is parsed again from its start on each
    // pass: waiting until as much new text as carried text has come keeps that linear.
    if (this.#pendingLength < this.#carry.length) return [];
    const records = this.#parse(false);
    if (this.#carry.length > this.#maxRecordChars) throw this.#tooLong(this.#rows + 1);
    return records;
  }

  #tooLong(row: number): CsvSyntaxError {
    // Before the column names are read, the record may be a title line above them.
    const where = this.#header ? `row ${row}` : this.rowName(row, '');
    return new CsvSyntaxError(`A record (${where}) is longer than ${Math.round(this.#maxRecordChars / 1024)} KiB; records that long are not imported.`);
  }

  /** The last records, at the end of the file. */
  end(): CsvRecord[] {
    const records = this.#parse(true);
    if (!this.#header && this.#givenHeaderRow !== null) throw headerRowPastEnd(this.#givenHeaderRow, this.#lastFilledRow);
    return records;
  }

  #parse(final: boolean): CsvRecord[] {
    let text = this.#carry + this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#started && text) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!this.#config) {
      const firstLineEnd = text.indexOf('\n');
      // The header is told from the head's lines: enough of them (to the mapping's header row), or all there is.
      const wanted = Math.max(HEADER_SEARCH_ROWS, this.#givenHeaderRow ?? 0);
      const lineEnds = countLineEnds(text, wanted);
      if (!final && (firstLineEnd < 0 || (lineEnds < wanted && text.length < Math.min(HEAD_CHARS, this.#maxRecordChars)))) {
        this.#carry = text;
        return [];
      }
      const head = headLines(text, wanted, final);
      this.#detectedHeaderRow = detectCsvHeaderRow(head);
      this.#headerRow = this.#givenHeaderRow ?? this.#detectedHeaderRow;
      const firstLine = firstLineEnd < 0 ? text : text.slice(0, firstLineEnd);
      const headerLine = (this.#headerRow === null ? undefined : head[this.#headerRow - 1]) ?? firstLine;
      this.#config = { delimiter: detectSeparator(headerLine), quoteChar: '"', newline: firstLineEnd > 0 && text[firstLineEnd - 1] === '\r' ? '\r\n' : '\n' };
    }
    const result = new Papa.Parser(this.#config).parse(text, 0, !final) as { data: string[][]; errors: ParseError[]; meta: { cursor: number } };
    // Before the end, the last record may be cut off by the chunk: an error in it waits for the rest.
    const firstError = result.errors.find((error) => final || (error.row ?? 0) < result.data.length);
    if (firstError) {
      const before = result.data.slice(0, firstError.row ?? 0);
      const isHeader = !this.#header && before.every(isEmptyLine);
      throw new CsvSyntaxError(`${firstError.message} (${isHeader ? 'header' : `row ${this.#rows + before.length + 1}`}).`);
    }
    this.#carry = final ? '' : text.slice(result.meta.cursor);
    const records: CsvRecord[] = [];
    // Only text longer than the cap can hold a record over it.
    const mayHoldLongRecord = text.length > this.#maxRecordChars;
    for (const fields of result.data) {
      this.#rows += 1;
      if (!this.#header && this.#rows === this.#givenHeaderRow && isBlankLine(fields)) throw headerRowBlank(this.#rows);
      if (isEmptyLine(fields)) continue;
      this.#lastFilledRow = this.#rows;
      if (mayHoldLongRecord && fields.reduce((length, field) => length + field.length, 0) > this.#maxRecordChars) throw this.#tooLong(this.#rows);
      if (!this.#header) {
        // A line of empty cells before the names is a blank row, also where the head showed no names (it ends at a quoted newline).
        if (this.#rows < (this.#headerRow ?? 0) || isBlankLine(fields)) this.#skippedRows.push({ row: this.#rows, cells: fields });
        else {
          this.#header = fields;
          this.#headerRow = this.#rows;
          if (this.#givenHeaderRow === null) this.#detectedHeaderRow = this.#rows;
        }
        continue;
      }
      // Below the names too a line of empty cells is a blank row (Excel saves one as `;;`): skipped like an empty line, its row still counted.
      if (isBlankLine(fields)) continue;
      // A till's totals line is often shorter than its header (`Total,,,966095` under six names): its
      // missing cells are blank, and the totals-line rule leaves it out as it does a full-width one.
      if (fields.length < this.#header.length && fields.some(isTotalsWord)) {
        records.push({ row: this.#rows, cells: [...fields, ...Array<string>(this.#header.length - fields.length).fill('')] });
        continue;
      }
      if (fields.length !== this.#header.length) {
        throw new CsvSyntaxError(`A record has ${fields.length} field${fields.length === 1 ? '' : 's'} where the header has ${this.#header.length} (row ${this.#rows}).`);
      }
      records.push({ row: this.#rows, cells: fields });
    }
    return records;
  }
}

/** How many line ends `text` holds, counting no further than `enough`. */
function countLineEnds(text: string, enough: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && count < enough; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
