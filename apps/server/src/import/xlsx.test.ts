import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { openSource, UnreadableCell } from './source.ts';
import { readZipDirectory } from './zip-directory.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'stockwise-xlsx-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function saved(workbook: ExcelJS.Workbook, name: string): Promise<string> {
  const file = path.join(scratch, name);
  writeFileSync(file, new Uint8Array(await workbook.xlsx.writeBuffer()));
  return file;
}

/** Every record of a sheet (holes as undefined), with the header and the workbook's sheets. */
async function readSheet(file: string, sheet: string | null = null) {
  const source = await openSource({ path: file }, 'book.xlsx', 'application/octet-stream', { sheet });
  const records: { row: number; cells: unknown[] }[] = [];
  for await (const batch of source.batches) for (const { row, cells } of batch) records.push({ row, cells: Array.from(cells ?? []) });
  return { header: source.header(), sheets: source.sheets(), records };
}

describe('xlsx reading', () => {
  it("reads a chosen sheet that is not the first, with shared strings, dates, formulas and empty cells, numbering rows as the sheet does", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['This sheet is not data']);
    const sales = workbook.addWorksheet('Sales');
    sales.addRow(['StockCode', 'InvoiceDate', 'Quantity', 'Note']);
    sales.addRow(['85123A', new Date(Date.UTC(2026, 8, 1, 9, 30)), 3, { richText: [{ text: 'gift ', font: { bold: true } }, { text: 'box' }] }]);
    sales.addRow(['85123A', 46266, { formula: '1+1', result: 2 }, 'a & b < c']);
    const sparse = sales.addRow(['71053']);
    sparse.getCell(3).value = -1;
    sales.addRow([]);
    sales.addRow(['22423', 46000, { error: '#N/A' }, true]);
    sales.getCell('B6').numFmt = 'dd/mm/yyyy';
    workbook.addWorksheet('Later').addRow(['Other']);

    const read = await readSheet(await saved(workbook, 'chosen.xlsx'), 'Sales');
    expect(read.sheets).toEqual(['Notes', 'Sales', 'Later']);
    expect(read.header).toEqual(['StockCode', 'InvoiceDate', 'Quantity', 'Note']);
    expect(read.records).toEqual([
      { row: 2, cells: ['85123A', new Date(Date.UTC(2026, 8, 1, 9, 30)), 3, 'gift box'] },
      // A number in a general format stays a number (an Excel serial, read as a date by the date column).
      { row: 3, cells: ['85123A', 46266, 2, 'a & b < c'] },
      // A cell the row does not have is left out (undefined), the row is filled up to the header's width.
      { row: 4, cells: ['71053', undefined, -1, null] },
      // The empty row is skipped, and counted: rows are the sheet's own numbers. A number in a date
      // format is a date; an error cell is no value.
      { row: 6, cells: ['22423', new Date(Date.UTC(2025, 11, 9)), new UnreadableCell('#N/A', 'The cell holds the spreadsheet error #N/A: correct it, or leave the cell blank.'), true] },
    ]);
    expect((await readSheet(await saved(workbook, 'first.xlsx'))).header).toEqual(['This sheet is not data']);
  });

  it('reads dates of a workbook in the 1904 date system', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.properties.date1904 = true;
    const sheet = workbook.addWorksheet('Counts');
    sheet.addRow(['Code', 'Counted on']);
    sheet.addRow(['85123A', new Date(Date.UTC(2011, 0, 31))]);
    expect((await readSheet(await saved(workbook, '1904.xlsx'))).records).toEqual([{ row: 2, cells: ['85123A', new Date(Date.UTC(2011, 0, 31))] }]);
  });

  it('reads a workbook written by the streaming writer with inline strings', async () => {
    const file = path.join(scratch, 'streamed.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
    const sheet = writer.addWorksheet('Sales');
    sheet.addRow(['StockCode', 'Quantity']).commit();
    for (let i = 0; i < 2500; i++) sheet.addRow([`C${i}`, i]).commit();
    sheet.commit();
    await writer.commit();
    const read = await readSheet(file);
    expect(read.records).toHaveLength(2500);
    expect(read.records.at(-1)).toEqual({ row: 2501, cells: ['C2499', 2499] });
  });

  it('reads a workbook whose workbook part comes after its shared strings and worksheets in the zip', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Not data']);
    const sales = workbook.addWorksheet('Sales');
    sales.addRow(['StockCode', 'Quantity']);
    sales.addRow(['85123A', 6]);
    const written = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const last = ['xl/workbook.xml'];
    const first = ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml'];
    const names = Object.keys(written.files).filter((name) => !written.files[name]?.dir);
    const order = [...first, ...names.filter((name) => !first.includes(name) && !last.includes(name)), ...last];
    expect(order.slice().sort()).toEqual(names.slice().sort());
    for (const compression of ['STORE', 'DEFLATE'] as const) {
      const reordered = new JSZip();
      for (const name of order) reordered.file(name, await written.file(name)!.async('uint8array'));
      const file = path.join(scratch, `late-workbook-part-${compression}.xlsx`);
      writeFileSync(file, await reordered.generateAsync({ type: 'uint8array', compression }));
      const read = await readSheet(file, 'Sales');
      expect(read.sheets).toEqual(['Notes', 'Sales']);
      expect(read.records).toEqual([{ row: 2, cells: ['85123A', 6] }]);
      expect((await readSheet(file)).header).toEqual(['Not data']);
      expect(String(await (await readZipDirectory(file))!.read('xl/workbook.xml', 1 << 20))).toBe(await written.file('xl/workbook.xml')!.async('string'));
    }
  });

  it('reads and streams a zip entry only when it is there, within the size asked for, in a zip it can read', async () => {
    const zip = new JSZip().file('a.txt', 'x'.repeat(1000)).file('b.txt', 'second').file('empty.txt', '').file('kept.txt', 'as is', { compression: 'STORE' });
    const file = path.join(scratch, 'entries.zip');
    writeFileSync(file, await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', comment: 'a comment after the directory' }));
    const directory = (await readZipDirectory(file))!;
    expect(String(await directory.read('b.txt', 100))).toBe('second');
    expect(await directory.read('a.txt', 999)).toBeNull();
    expect(await directory.read('c.txt', 100)).toBeNull();
    const streamed = async (name: string) => {
      const stream = await directory.stream(name);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString();
    };
    expect(await streamed('a.txt')).toBe('x'.repeat(1000));
    expect(await streamed('kept.txt')).toBe('as is');
    expect(await streamed('empty.txt')).toBe('');
    expect(await streamed('c.txt')).toBeNull();
    // A directory record that claims more compressed bytes than the file holds: not a zip to read.
    const claimsMore = Buffer.from(readFileSync(file));
    const lastDirectoryRecord = claimsMore.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    claimsMore.writeUInt32LE(0x7fffffff, lastDirectoryRecord + 20);
    const inflated = path.join(scratch, 'claims-more.zip');
    writeFileSync(inflated, claimsMore);
    expect(await readZipDirectory(inflated)).toBeNull();
    const truncated = path.join(scratch, 'truncated.zip');
    writeFileSync(truncated, (await zip.generateAsync({ type: 'uint8array' })).subarray(0, 40));
    expect(await readZipDirectory(truncated)).toBeNull();
  });

  it('names the sheets when the chosen one does not exist, and refuses a zip that is not a workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sales').addRow(['StockCode']);
    await expect(readSheet(await saved(workbook, 'named.xlsx'), 'Counts')).rejects.toThrow("The workbook has no sheet named 'Counts' (its sheets: Sales).");
    const broken = path.join(scratch, 'broken.xlsx');
    writeFileSync(broken, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    await expect(readSheet(broken)).rejects.toThrow('The .xlsx file cannot be read:');
  });
});
