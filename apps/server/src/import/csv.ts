// CSV records of an upload, fed chunk by chunk, parsed by papaparse's parser (the one its own
// streaming readers drive; the fastest of the CSV libraries measured for the import benchmark:
// docs/adr/0008-file-import.md). Quoted separators, quotes and newlines, LF or CRLF (told by the
// first line end), the separator (`,`, `;` or tab, told by the header line), a BOM and empty lines
// are handled. What papaparse reports — an unterminated or malformed quote — is an error, and so
// is a record whose field count differs from the header's, and a record longer than the cap (it
// is refused while being read, never held whole): nothing is guessed. Each record comes with its row
// as a spreadsheet shows the file — the header is row 1, empty lines count, a quoted newline stays in
// its row — so an error names the row the user finds when opening the file in Excel.
import Papa from 'papaparse';

export class CsvSyntaxError extends Error {}

type ParseError = { code: string; message: string; row?: number };

/** A data record and its row in the file as a spreadsheet numbers it (the header is row 1). */
export type CsvRecord = { row: number; cells: string[] };

/** An empty line parses as one empty field. */
const isEmptyLine = (fields: string[]) => fields.length === 1 && fields[0] === '';

/** One record may be at most this long (characters); a longer one is refused while it is read. */
export const MAX_RECORD_CHARS = 1024 * 1024;
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

export class CsvReader {
  #carry = '';
  #pending: string[] = [];
  #pendingLength = 0;
  #config: Papa.ParseConfig | null = null;
  #started = false;
  #header: string[] | null = null;
  /** Rows read so far: the header, empty lines and data records, as a spreadsheet counts them. */
  #rows = 0;
  readonly #maxRecordChars: number;

  constructor(options: { maxRecordChars?: number } = {}) {
    this.#maxRecordChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
  }

  /** The header's fields, once its line has been read. */
  get header(): string[] | null {
    return this.#header;
  }

  /** The separator, once the header line has been read. */
  get separator(): string | null {
    return (this.#config?.delimiter as string | undefined) ?? null;
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
    const where = this.#header ? `row ${row}` : 'the header';
    return new CsvSyntaxError(`A record (${where}) is longer than ${Math.round(this.#maxRecordChars / 1024)} KiB; records that long are not imported.`);
  }

  /** The last records, at the end of the file. */
  end(): CsvRecord[] {
    return this.#parse(true);
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
      if (firstLineEnd < 0 && !final) {
        this.#carry = text;
        return [];
      }
      const firstLine = firstLineEnd < 0 ? text : text.slice(0, firstLineEnd);
      this.#config = { delimiter: detectSeparator(firstLine), quoteChar: '"', newline: firstLineEnd > 0 && text[firstLineEnd - 1] === '\r' ? '\r\n' : '\n' };
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
      if (isEmptyLine(fields)) continue;
      if (mayHoldLongRecord && fields.reduce((length, field) => length + field.length, 0) > this.#maxRecordChars) throw this.#tooLong(this.#rows);
      if (!this.#header) {
        this.#header = fields;
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
