// The .xlsx writer on its own: cells by kind, names Excel takes, widths, and a stream that breaks
// when its rows fail, waits for a slow reader and stops reading rows when its reader goes away.
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnWidth, MAX_CELL_TEXT, moneyNumberFormat, sheetCell, sheetNameOf, xlsxStream, type SheetValue } from './xlsx.ts';

describe('xlsx cells', () => {
  it('writes days and moments as dates, and leaves text that is no day or moment as it is', () => {
    expect(sheetCell('date', '2026-12-07')).toEqual(new Date('2026-12-07T00:00:00Z'));
    expect(sheetCell('date', '2026-02-30')).toBe('2026-02-30');
    expect(sheetCell('date', 'infinity')).toBe('infinity');
    expect(sheetCell('instant', '2026-11-02T10:30:00.000Z')).toEqual(new Date('2026-11-02T10:30:00Z'));
    expect(sheetCell('instant', '2026-11-02 10:30:00+01')).toEqual(new Date('2026-11-02T09:30:00Z'));
    expect(sheetCell('datetime', '2026-11-02 10:30:00')).toEqual(new Date('2026-11-02T10:30:00Z'));
    expect(sheetCell('datetime', 'soon')).toBe('soon');
  });

  it('keeps text as text whatever it looks like, numbers that are finite, and cuts text Excel could not hold', () => {
    expect(sheetCell('text', '00123')).toBe('00123');
    expect(sheetCell('text', '')).toBeNull();
    expect(sheetCell('text', '=SUM(A1:A9)')).toBe('=SUM(A1:A9)');
    expect(sheetCell('decimal', Number.NaN)).toBeNull();
    expect(sheetCell('general', -4.25)).toBe(-4.25);
    expect(sheetCell('boolean', false)).toBe(false);
    const long = sheetCell('text', 'x'.repeat(MAX_CELL_TEXT + 10)) as string;
    expect(long).toHaveLength(MAX_CELL_TEXT);
    expect(long.endsWith(' […]')).toBe(true);
    expect(sheetCell('text', 'y'.repeat(MAX_CELL_TEXT))).toHaveLength(MAX_CELL_TEXT);
  });

  it('names a sheet as Excel allows and sizes a column for its header and its kind', () => {
    expect(sheetNameOf('Sales: 2026/Q1 [draft]?')).toBe('Sales  2026 Q1  draft');
    expect(sheetNameOf("'quoted'")).toBe('quoted');
    expect(sheetNameOf('A very long table name that goes on and on')).toHaveLength(31);
    expect(sheetNameOf('///')).toBe('Sheet1');
    expect(columnWidth({ header: 'ID', kind: 'integer' })).toBe(10);
    expect(columnWidth({ header: 'Expected delivery date of the order', kind: 'date' })).toBe(37);
    expect(columnWidth({ header: 'Notes', kind: 'text', textWidth: 500 })).toBe(50);
  });

  it("formats money with the currency's narrow sign and its own places, the minus before the sign", () => {
    expect(moneyNumberFormat('GBP')).toBe('"£"#,##0.00;-"£"#,##0.00');
    expect(moneyNumberFormat('USD')).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(moneyNumberFormat('EUR')).toBe('"€"#,##0.00;-"€"#,##0.00');
    // Yen have no minor unit; a dinar has three.
    expect(moneyNumberFormat('JPY')).toBe('"¥"#,##0;-"¥"#,##0');
    expect(moneyNumberFormat('BHD')).toBe('"BHD\u00a0"#,##0.000;-"BHD\u00a0"#,##0.000');
    // No narrow sign of its own: its code, spaced from the figure as the screens write it.
    expect(moneyNumberFormat('CHF')).toBe('"CHF\u00a0"#,##0.00;-"CHF\u00a0"#,##0.00');
  });
});

describe('xlsx stream', () => {
  const header = [{ header: 'N', kind: 'integer' as const }];

  it('ends with the error of rows that fail, instead of as a shorter file', async () => {
    async function* failing(): AsyncGenerator<SheetValue[][]> {
      yield [[1], [2]];
      throw new Error('the database went away');
    }
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await expect(pipeline(xlsxStream({ sheetName: 'T', columns: header, rows: failing() }), sink)).rejects.toThrow('the database went away');
  });

  it('stops reading rows when the reader goes away', async () => {
    let batches = 0;
    let finished = false;
    async function* many(): AsyncGenerator<SheetValue[][]> {
      try {
        for (; batches < 10_000; batches += 1) yield Array.from({ length: 1000 }, (_, i) => [batches * 1000 + i]);
      } finally {
        finished = true;
      }
    }
    const stream = xlsxStream({ sheetName: 'T', columns: header, rows: many() });
    for await (const _chunk of stream) break;
    await expect.poll(() => finished).toBe(true);
    expect(batches).toBeLessThan(100);
  });

  it('asks for no more rows while its reader does not take what is written', async () => {
    let batches = 0;
    async function* many(): AsyncGenerator<SheetValue[][]> {
      for (; batches < 10_000; batches += 1) yield Array.from({ length: 1000 }, (_, i) => [batches * 1000 + i]);
    }
    const stream = xlsxStream({ sheetName: 'T', columns: header, rows: many() });
    await once(stream, 'readable');
    // A batch a turn of the event loop, if nothing held the writer back.
    for (let turn = 0; turn < 500; turn += 1) await setImmediate();
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(100);
    stream.destroy();
  });

  it('compresses and sends the rows as they come, rather than holding the sheet until its end', async () => {
    const BATCHES = 100;
    let received = 0;
    let receivedAtThreeQuarters = 0;
    async function* rows(): AsyncGenerator<SheetValue[][]> {
      for (let batch = 0; batch < BATCHES; batch += 1) {
        if (batch === (BATCHES * 3) / 4) receivedAtThreeQuarters = received;
        yield Array.from({ length: 1000 }, (_, i) => [batch * 1000 + i, `Product ${i} — White hanging heart`]);
      }
    }
    const columns = [...header, { header: 'Product', kind: 'text' as const }];
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        received += chunk.length;
        done();
      },
    });
    await pipeline(xlsxStream({ sheetName: 'T', columns, rows: rows() }), sink);
    // Held until the end, it would be a sliver (a fifth, before the backlog was watched).
    expect(receivedAtThreeQuarters / received).toBeGreaterThan(0.5);
  });

  it('writes a workbook exceljs reads back', async () => {
    const chunks: Buffer[] = [];
    await pipeline(
      xlsxStream({ sheetName: 'T', columns: header, rows: [[[1], [null], [3]]] }),
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          chunks.push(chunk);
          done();
        },
      }),
    );
    const workbook = new ExcelJS.Workbook();
    const bytes = Buffer.concat(chunks);
    await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const values: unknown[] = [];
    workbook.worksheets[0]?.eachRow({ includeEmpty: true }, (row) => void values.push(row.getCell(1).value));
    expect(values).toEqual(['N', 1, null, 3]);
  });
});
