import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvReader } from './csv.ts';

/** The reader fed in the given chunk sizes: header and records, or the error's message. */
function readAll(text: string, chunkSizes: number[] = [text.length]): { header: string[] | null; records: string[][] } | string {
  const reader = new CsvReader();
  const records: string[][] = [];
  try {
    let at = 0;
    for (let i = 0; at < text.length; i++) {
      const size = Math.max(1, chunkSizes[i % chunkSizes.length] ?? text.length);
      records.push(...reader.push(text.slice(at, at + size)).map((record) => record.cells));
      at += size;
    }
    records.push(...reader.end().map((record) => record.cells));
    return { header: reader.header, records };
  } catch (error) {
    return (error as Error).message;
  }
}

describe('CsvReader', () => {
  it('reads quoted commas, quotes and newlines, BOM, CRLF and empty lines', () => {
    expect(readAll('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"two\nlines",\r\n')).toEqual({
      header: ['a', 'b'],
      records: [
        ['x, y', 'say "hi"'],
        ['two\nlines', ''],
      ],
    });
  });

  it.each([
    ['a,b\n"x,1\n', 'Quoted field unterminated (row 2).'],
    ['a,b\n1,2\n"x"y,1\n', 'Trailing quote on quoted field is malformed (row 3).'],
    ['a,b\n1,2\n"multi\nline"\n', 'A record has 1 field where the header has 2 (row 3).'],
    ['a,b\n1,2,3\n', 'A record has 3 fields where the header has 2 (row 2).'],
    ['a,b\n\n1,2\n\n1,2,3\n', 'A record has 3 fields where the header has 2 (row 5).'],
  ])('refuses %j, naming the row a spreadsheet shows it in', (text, message) => {
    expect(readAll(text)).toBe(message);
  });

  it("fills a till's totals line short of cells with blanks, and refuses any other short line", () => {
    expect(readAll('Date,SKU,Description,Qty,Price,Till\n05/12/2026,CB-1,Beans,2,£4.00,1\nTotal,,,966095\n')).toEqual({
      header: ['Date', 'SKU', 'Description', 'Qty', 'Price', 'Till'],
      records: [
        ['05/12/2026', 'CB-1', 'Beans', '2', '£4.00', '1'],
        ['Total', '', '', '966095', '', ''],
      ],
    });
    expect(readAll('Date,SKU,Description,Qty,Price,Till\nTotally Tea,,,4\n')).toBe('A record has 4 fields where the header has 6 (row 2).');
  });

  // Excel numbers a CSV's rows from its header (row 1), counts empty lines, and keeps a quoted
  // newline inside its cell: an error's row is the one the user finds there.
  it('numbers records as a spreadsheet shows them, however the file is cut into chunks', () => {
    const text = '\na,b\n1,2\n\n"two\nlines",3\n4,5\n\n\n6,7';
    for (const size of [1, 2, 3, 5, 8, text.length]) {
      const reader = new CsvReader();
      const rows: number[] = [];
      for (let at = 0; at < text.length; at += size) rows.push(...reader.push(text.slice(at, at + size)).map((record) => record.row));
      rows.push(...reader.end().map((record) => record.row));
      expect(rows, `chunks of ${size}`).toEqual([3, 5, 6, 9]);
    }
  });

  it('keeps a quote inside a field that is not quoted as it is', () => {
    expect(readAll('a,b\nx"y,1\n')).toEqual({ header: ['a', 'b'], records: [['x"y', '1']] });
  });

  // Whatever csv-parse reads (strict RFC 4180) is read the same. papaparse is more tolerant of
  // malformed quoting (a quote inside an unquoted field, spaces after a closing quote), which the
  // row checks then see as values.
  it('agrees with csv-parse, however the file is cut into chunks', () => {
    const token = fc.constantFrom('a', 'b', ' ', 'é', '😀', ',', ',', '"', '""', '\n', '\n', '\uFEFF');
    const csv = fc.tuple(fc.array(token, { maxLength: 40 }), fc.boolean(), fc.boolean()).map(([tokens, crlf, bom]) => `${bom ? '\uFEFF' : ''}${tokens.join('')}`.replaceAll('\n', crlf ? '\r\n' : '\n'));
    const csvParse = (text: string): { header: string[] | null; records: string[][] } | 'error' => {
      try {
        // A line holding one empty field ("") reads as an empty line here, and is skipped.
        const rows = (parse(text, { bom: true, skip_empty_lines: true }) as string[][]).filter((row) => !(row.length === 1 && row[0] === ''));
        // Lines of empty cells (`,,`) before the first with a value are blank rows: the header is below them (ADR 0153).
        const first = rows.findIndex((row) => row.some((field) => field.trim() !== ''));
        // Below it too, such lines are blank rows and skipped.
        const records = rows.slice(first + 1).filter((row) => row.some((field) => field.trim() !== ''));
        return first < 0 ? { header: null, records: [] } : { header: rows[first] ?? null, records };
      } catch {
        return 'error';
      }
    };
    fc.assert(
      fc.property(csv, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }), (text, chunks) => {
        const whole = readAll(text);
        expect(readAll(text, chunks)).toEqual(whole);
        const expected = csvParse(text);
        if (expected !== 'error') expect(whole).toEqual(expected);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });
});
