// Column names below a title: a till's stock take (`Inventur 30.11.2026;;` above
// `Artikelnummer;Bezeichnung;Bestand`), an ERP report with a title line and a blank line, a workbook
// whose A1 holds a title and row 3 the names. The preview tells the header row and what it skips,
// the mapping's header_row overrides the guess, the import reads the file the same way and names the
// file's own rows; a header_row that cannot be is a 400 and nothing is written.
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart, type UploadPart } from '../testing/uploads.ts';
import { detectHeaderRow } from './header-row.ts';

const stockTake = 'Inventur 30.11.2026;;\n\nArtikelnummer;Bezeichnung;Bestand\nHR-100;Rosenschere;7\nHR-101;Gießkanne 10 l;3\n';
const takeMapping = { field_mappings: { product_code: 'Artikelnummer', name: 'Bezeichnung', current_stock: 'Bestand' } };

async function titledWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Bestand');
  sheet.getCell('A1').value = 'Lagerbestand Gartencenter Nord';
  sheet.getCell('A3').value = 'Artikelnummer';
  sheet.getCell('B3').value = 'Bezeichnung';
  sheet.getCell('C3').value = 'Bestand';
  sheet.addRow(['HR-200', 'Pflanzkübel', 5]);
  sheet.addRow(['HR-201', 'Blumenerde 40 l', 'viele']);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A till's stock take: branch and date as label and value, a blank line, then code and count (and name). */
const tillExport = (withName: boolean, separatorOnlyBlank: boolean) => {
  const pad = withName ? ';' : '';
  return [`Filiale;Nord${pad}`, `Datum;30.11.2026${pad}`, separatorOnlyBlank ? `;${pad}` : '', withName ? 'Artikelnummer;Bezeichnung;Menge' : 'Artikelnummer;Menge', ...['HR-500;Rosenschere;4', 'HR-501;Harke;9'].map((line) => (withName ? line : line.replace(/;[^;]*;/, ';'))), ''].join('\r\n');
};

/** The same head in a workbook: labels in A1:B2, row 3 blank, names on row 4, years as names when `years`. */
async function labelledWorkbook(years: boolean): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Kasse');
  sheet.getRow(1).values = ['Filiale', 'Nord'];
  sheet.getRow(2).values = ['Datum', new Date(Date.UTC(2026, 10, 30))];
  sheet.getRow(4).values = years ? ['Artikelnummer', 2025, 2026] : ['Artikelnummer', 'Menge'];
  sheet.getRow(5).values = years ? ['HR-500', 14, 4] : ['HR-500', 4];
  sheet.getRow(6).values = years ? ['HR-501', 20, 9] : ['HR-501', 9];
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('telling the header row', () => {
  const rows = (...lines: unknown[][]) => lines.map((cells, at) => ({ row: at + 1, cells }));
  it.each([
    ['names on the first line', rows(['code', 'name', 'qty'], ['A-1', 'Rose', 3]), 1],
    ['a title with one cell', rows(['Inventur 30.11.2026', '', ''], ['Artikel', 'Bezeichnung', 'Bestand'], ['A-1', 'Rose', 3]), 2],
    ['a title and a date line', rows(['Sales report'], ['Period', '12/2026'], ['Date', 'Code', 'Qty', 'Till', 'Price'], ['01.12.2026', 'A-1', 3, 'T1', '2,50']), 3],
    // Conservative: a row above that fills half as many cells or more may be the header itself.
    ['a first line naming fewer columns', rows(['Code', 'Name', '', 'Group'], ['A-1', 'Rose', 'red', 'Plants']), 1],
    ['no row of names (a file without a header)', rows(['Total', '', ''], ['A-1', 3, 4.5], ['A-2', 1, 2]), 1],
    ['names that repeat', rows(['Report', '', ''], ['Qty', 'Qty', 'Code'], ['1', '2', 'A']), 1],
    ['names that are numbers (years)', rows(['Report', '', ''], ['Code', '2025', '2026'], ['A-1', 3, 4]), 1],
  ])('%s', (_name, head, expected) => {
    expect(detectHeaderRow(head)).toBe(expected);
  });
});

// A till's key-value head (`Filiale;Nord` / `Datum;30.11.2026` and a blank line), lines of empty
// cells before the names, and years as column names: found, while a file whose names are on its
// first line, and one row of data too few to tell, read as before.
describe('telling the header row below labels, lines of empty cells and years', () => {
  const rows = (...lines: unknown[][]) => lines.map((cells, at) => ({ row: at + 1, cells }));
  it.each([
    ['labels and values, a blank line, two columns of code and count', rows(['Filiale', 'Nord'], ['Datum', '30.11.2026'], [], ['Artikelnummer', 'Menge'], ['GAR-1001', '3'], ['GAR-1002', '12']), 4],
    ['labels and values, a line of empty cells, three columns', rows(['Filiale', 'Nord', ''], ['Datum', new Date('2026-11-30'), ''], ['', '', ''], ['Artikelnummer', 'Bezeichnung', 'Bestand'], ['GAR-1001', 'Rosenschere', 7], ['GAR-1002', 'Harke', 2]), 4],
    ['a title line and a label block', rows(['Inventur'], ['Kasse', '2'], [], ['EAN', 'Menge'], ['4006381333931', '3'], ['4006381333948', '1']), 4],
    ['labels without a blank line below them', rows(['Filiale', 'Nord'], ['Artikelnummer', 'Menge'], ['GAR-1001', '3'], ['GAR-1002', '12']), 1],
    ['labels over one row of data (too few to tell)', rows(['Filiale', 'Nord'], [], ['Artikelnummer', 'Menge'], ['GAR-1001', '3']), 1],
    ['labels over names of text columns', rows(['Filiale', 'Nord'], [], ['Name', 'Farbe'], ['Rose', 'rot'], ['Tulpe', 'gelb']), 1],
    ['two columns named on line 1, a blank line among the records', rows(['Name', 'Menge'], ['Rose', '3'], [], ['Tulpe', '4'], ['Nelke', '5']), 1],
    ['a first line heading a column of years, a blank line, a record with a word', rows(['Jahr', 'Bestand'], [], ['2024', 'Nord'], ['2025', '12'], ['2026', '9']), 1],
    ['codes on line 1, a blank line among the records', rows(['Code', 'Menge'], ['GAR-1', '3'], [], ['Tulpe', 'Nelke'], ['GAR-2', '4'], ['GAR-3', '5']), 1],
    ['lines of empty cells before the names', rows(['', '', ''], ['', '', ''], ['Artikelnummer', 'Bezeichnung', 'Bestand'], ['GAR-1001', 'Rosenschere', '7']), 3],
    ['only lines of empty cells', rows(['', ''], ['', '']), 1],
    ['years as names below a title', rows(['Umsatz je Jahr', '', ''], ['Artikel', '2025', '2026'], ['GAR-1001', 3, 4], ['GAR-1002', 5, 6]), 2],
    ['years as names on line 1', rows(['Artikel', 2025, 2026], ['GAR-1001', 3, 4], ['GAR-1002', 5, 6]), 1],
    ['years as names over names of things (a record, not names)', rows(['Umsatz je Jahr', '', ''], ['Artikel', '2025', '2026'], ['Rosenschere', 3, 4], ['Harke', 5, 6]), 1],
    ['a total over codes (no word among the cells)', rows(['Umsatz', '', ''], ['GAR-1000', 12, 14], ['GAR-1001', 3, 4], ['GAR-1002', 5, 6]), 1],
  ])('%s', (_name, head, expected) => {
    expect(detectHeaderRow(head)).toBe(expected);
  });
});

describe.each(backends)('column names below a title on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  const preview = async (parts: UploadPart[]) => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, parts);
    return { status: result.status, json: result.json as PreviewFileResponse & { error?: string } };
  };
  const file = (fileName: string, content: string | Uint8Array): UploadPart => ({ name: 'file', fileName, content });
  const productCount = async () => (await sql<{ n: number }>`select count(*)::int as n from data.products where product_code like 'HR-%'`.execute(server.database.db)).rows[0]?.n;

  it("finds a till's column names below its title and a blank line, with the separator of the names' line", async () => {
    const { status, json } = await preview([file('inventur.csv', stockTake), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({
      separator: ';',
      header: ['Artikelnummer', 'Bezeichnung', 'Bestand'],
      header_row: 3,
      detected_header_row: 3,
      skipped_rows: [{ row: 1, text: 'Inventur 30.11.2026' }],
      raw_rows: [['HR-100', 'Rosenschere', '7'], ['HR-101', 'Gießkanne 10 l', '3']],
      proposed_mapping: { product_code: 'Artikelnummer', name: 'Bezeichnung', current_stock: 'Bestand' },
    });
    expect(json.rows.map((row) => row.row)).toEqual([4, 5]);
  });

  it('reads the separator from the names, not from a title without one', async () => {
    const report = 'Sales report December 2026\n\nDate;Artikelnummer;Menge\n01.12.2026;HR-100;2\n';
    const { status, json } = await preview([file('report.csv', report), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ separator: ';', header: ['Date', 'Artikelnummer', 'Menge'], header_row: 3, skipped_rows: [{ row: 1, text: 'Sales report December 2026' }] });
    expect(json.rows[0]?.row).toBe(4);
  });

  it("skips a title holding the names' separator when its number of fields is not theirs, and does not list a line of empty cells", async () => {
    const report = 'Sales report, December 2026\r\n,,\r\nDate,Artikelnummer,Menge\r\n01.12.2026,HR-100,2\r\n';
    const { status, json } = await preview([file('report.csv', report), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ separator: ',', header: ['Date', 'Artikelnummer', 'Menge'], header_row: 3, skipped_rows: [{ row: 1, text: 'Sales report · December 2026' }] });
    expect(json.skipped_rows).toHaveLength(1);
    expect(json.rows[0]?.row).toBe(4);
  });

  it('reads a file with its names on the first line as before: row 1, nothing skipped', async () => {
    const { status, json } = await preview([file('plain.csv', 'code,name\nHR-1,Spaten\n'), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ separator: ',', header: ['code', 'name'], header_row: 1, detected_header_row: 1 });
    expect(json.skipped_rows).toBeUndefined();
    expect(json.rows[0]?.row).toBe(2);
  });

  it('finds the names of a sheet on row 3 below a title in A1', async () => {
    const { status, json } = await preview([file('bestand.xlsx', await titledWorkbook()), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ format: 'xlsx', header: ['Artikelnummer', 'Bezeichnung', 'Bestand'], header_row: 3, detected_header_row: 3, skipped_rows: [{ row: 1, text: 'Lagerbestand Gartencenter Nord' }] });
    expect(json.rows.map((row) => row.row)).toEqual([4, 5]);
  });

  it("takes the mapping's header_row over the guess, and says what was detected", async () => {
    // A key-value line above two columns fills as many cells as the names: the guess keeps row 1.
    const shortFile = 'Filiale;Nord\nArtikelnummer;Bezeichnung\nHR-300;Harke\n';
    const guessed = await preview([file('short.csv', shortFile), { name: 'entity_type', value: 'products' }]);
    expect(guessed.json).toMatchObject({ header: ['Filiale', 'Nord'], header_row: 1, detected_header_row: 1 });
    const mapping = { field_mappings: { product_code: 'Artikelnummer', name: 'Bezeichnung' }, header_row: 2 };
    const chosen = await preview([file('short.csv', shortFile), { name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(chosen.status, JSON.stringify(chosen.json)).toBe(200);
    expect(chosen.json).toMatchObject({ header: ['Artikelnummer', 'Bezeichnung'], header_row: 2, detected_header_row: 1, skipped_rows: [{ row: 1, text: 'Filiale · Nord' }] });
    expect(chosen.json.rows).toEqual([{ row: 3, values: { product_code: 'HR-300', name: 'Harke' }, problems: {} }]);
  });

  it("proposes a mapping from the row the form's header_row names, before any mapping is built", async () => {
    const shortFile = 'Filiale;Nord\nArtikelnummer;Bezeichnung\nHR-300;Harke\n';
    const chosen = await preview([file('short.csv', shortFile), { name: 'entity_type', value: 'products' }, { name: 'header_row', value: '2' }]);
    expect(chosen.status, JSON.stringify(chosen.json)).toBe(200);
    expect(chosen.json).toMatchObject({ header: ['Artikelnummer', 'Bezeichnung'], header_row: 2, proposed_mapping: { product_code: 'Artikelnummer', name: 'Bezeichnung' } });
    for (const value of ['0', 'zwei', '2.5', '99']) {
      const refused = await preview([file('short.csv', shortFile), { name: 'entity_type', value: 'products' }, { name: 'header_row', value }]);
      expect(refused.status).toBe(400);
      expect(refused.json.error).toBe('header_row must be a whole number from 1 to 50 (the row holding the column names).');
    }
  });

  it.each([true, false])('imports the rows below the names (fields first: %s), never the title', async (fieldsFirst) => {
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: stockTake, mapping: { entities: { products: takeMapping } }, entityType: 'products', fieldsFirst });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 2 } });
    const stored = await sql<{ product_code: string; name: string; current_stock: number }>`select product_code, name, current_stock from data.products where product_code like 'HR-1%' order by product_code`.execute(server.database.db);
    expect(stored.rows).toEqual([
      { product_code: 'HR-100', name: 'Rosenschere', current_stock: 7 },
      { product_code: 'HR-101', name: 'Gießkanne 10 l', current_stock: 3 },
    ]);
  });

  it.each([true, false])("names the file's own rows in errors below a title (fields first: %s)", async (fieldsFirst) => {
    const before = await productCount();
    const bad = 'Inventur 30.11.2026;;\n\nArtikelnummer;Bezeichnung;Bestand\nHR-110;Spaten;2\nHR-111;Hacke;zwei\n';
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: bad, mapping: { entities: { products: takeMapping } }, entityType: 'products', fieldsFirst });
    expect(result.status).toBe(400);
    expect((result.json as { row_errors: unknown[] }).row_errors).toEqual([expect.objectContaining({ row: 5, field: 'current_stock', column: 'Bestand' })]);
    expect(await productCount()).toBe(before);
  });

  it("names the sheet's own rows in errors below a title in A1", async () => {
    const before = await productCount();
    const result = await importFile(server, token, { fileName: 'bestand.xlsx', content: await titledWorkbook(), mapping: { entities: { products: takeMapping } }, entityType: 'products' });
    expect(result.status).toBe(400);
    expect((result.json as { row_errors: unknown[] }).row_errors).toEqual([expect.objectContaining({ row: 5, field: 'current_stock', column: 'Bestand' })]);
    expect(await productCount()).toBe(before);
  });

  it('imports a JSON file through a mapping with a header row as JSON: records have no rows above them', async () => {
    const records = JSON.stringify([{ code: 'HR-400', name: 'Laubbesen', stock: 2 }]);
    const mapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' }, header_row: 3 } } };
    const result = await importFile(server, token, { fileName: 'products.json', content: records, type: 'application/json', mapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 1, inserted: 1 } });
  });

  it.each([0, 51, 2.5, '3'])('refuses header_row %j with a 400 naming it, writing nothing', async (headerRow) => {
    const before = await productCount();
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: stockTake, mapping: { entities: { products: { ...takeMapping, header_row: headerRow } } }, entityType: 'products' });
    expect(result.status).toBe(400);
    expect((result.json as { error: string }).error).toContain('header_row must be a whole number from 1 to 50');
    expect(await productCount()).toBe(before);
  });

  it.each([
    ['past the end of a CSV file', 'inventur.csv', stockTake, 9, 'The column names cannot be on row 9 (header_row): the file has only 5 rows.'],
    ['on a blank line', 'inventur.csv', stockTake, 2, 'The column names cannot be on row 2 (header_row): that row is blank.'],
  ])('refuses a header_row %s, writing nothing', async (_name, fileName, content, headerRow, message) => {
    const before = await productCount();
    for (const fieldsFirst of [true, false]) {
      const result = await importFile(server, token, { fileName, content, mapping: { entities: { products: { ...takeMapping, header_row: headerRow } } }, entityType: 'products', fieldsFirst });
      expect(result.status).toBe(400);
      expect((result.json as { error: string }).error).toBe(message);
    }
    const previewed = await preview([file(fileName, content), { name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify({ ...takeMapping, header_row: headerRow }) }]);
    expect(previewed.status).toBe(400);
    expect(previewed.json.error).toBe(message);
    expect(await productCount()).toBe(before);
  });

  it('refuses a header_row past the end of a sheet', async () => {
    const result = await importFile(server, token, { fileName: 'bestand.xlsx', content: await titledWorkbook(), mapping: { entities: { products: { ...takeMapping, header_row: 12 } } }, entityType: 'products' });
    expect(result.status).toBe(400);
    expect((result.json as { error: string }).error).toBe('The column names cannot be on row 12 (header_row): the file has only 5 rows.');
  });

  const catalogue = { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' } };
  const stockOf = async () => (await sql<{ product_code: string; current_stock: number }>`select product_code, current_stock from data.products where product_code in ('HR-500', 'HR-501') order by product_code`.execute(server.database.db)).rows;
  const restock = async () => {
    const result = await importFile(server, token, { fileName: 'katalog.csv', content: 'code,name,stock\nHR-500,Rosenschere,0\nHR-501,Harke,0\n', mapping: { entities: { products: catalogue } }, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  };
  const countMapping = { entities: { products: { field_mappings: { product_code: 'Artikelnummer', current_stock: 'Menge' } } } };

  it.each([
    ['two columns below a blank line', false, false],
    ['three columns below a line of separators', true, true],
  ])("finds a till's names below its branch and date labels (%s), and imports the counts", async (_name, withName, separatorOnlyBlank) => {
    const content = tillExport(withName, separatorOnlyBlank);
    const { status, json } = await preview([file('kasse.csv', content), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({
      separator: ';',
      header: withName ? ['Artikelnummer', 'Bezeichnung', 'Menge'] : ['Artikelnummer', 'Menge'],
      header_row: 4,
      detected_header_row: 4,
      skipped_rows: [{ row: 1, text: 'Filiale · Nord' }, { row: 2, text: 'Datum · 30.11.2026' }],
      proposed_mapping: { product_code: 'Artikelnummer' },
    });
    expect(json.rows.map((row) => row.row)).toEqual([5, 6]);
    await restock();
    const result = await importFile(server, token, { fileName: 'kasse.csv', content, mapping: countMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await stockOf()).toEqual([{ product_code: 'HR-500', current_stock: 4 }, { product_code: 'HR-501', current_stock: 9 }]);
  });

  it("finds a sheet's names below labels in A1:B2 and a blank row, and imports the counts", async () => {
    const workbook = await labelledWorkbook(false);
    const { status, json } = await preview([file('kasse.xlsx', workbook), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ format: 'xlsx', header: ['Artikelnummer', 'Menge'], header_row: 4, detected_header_row: 4, skipped_rows: [{ row: 1, text: 'Filiale · Nord' }, { row: 2, text: 'Datum · 2026-11-30' }] });
    await restock();
    const result = await importFile(server, token, { fileName: 'kasse.xlsx', content: workbook, mapping: countMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await stockOf()).toEqual([{ product_code: 'HR-500', current_stock: 4 }, { product_code: 'HR-501', current_stock: 9 }]);
  });

  it('takes the first line with names for the header when the file starts with lines of separators', async () => {
    const content = ';;\r\n;;\r\nArtikelnummer;Bezeichnung;Bestand\r\nHR-510;Spaten;6\r\nHR-511;Hacke;2\r\n';
    const { status, json } = await preview([file('leer.csv', content), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ separator: ';', header: ['Artikelnummer', 'Bezeichnung', 'Bestand'], header_row: 3, detected_header_row: 3, proposed_mapping: takeMapping.field_mappings });
    expect(json.skipped_rows).toBeUndefined();
    const result = await importFile(server, token, { fileName: 'leer.csv', content, mapping: { entities: { products: takeMapping } }, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 2, inserted: 2 } });
    const onSeparators = await importFile(server, token, { fileName: 'leer.csv', content, mapping: { entities: { products: { ...takeMapping, header_row: 2 } } }, entityType: 'products' });
    expect(onSeparators.status).toBe(400);
    expect((onSeparators.json as { error: string }).error).toBe('The column names cannot be on row 2 (header_row): that row is blank.');
  });

  it.each([
    ['a CSV file', 'umsatz.csv', async () => 'Umsatz je Jahr;;\n\nArtikelnummer;2025;2026\nHR-500;14;4\nHR-501;20;9\n', 3, [{ row: 1, text: 'Umsatz je Jahr' }]],
    ['a sheet', 'umsatz.xlsx', () => labelledWorkbook(true), 4, [{ row: 1, text: 'Filiale · Nord' }, { row: 2, text: 'Datum · 2026-11-30' }]],
  ])('finds years as column names below a title in %s, and imports a year as the count', async (_name, fileName, content, headerRow, skipped) => {
    const bytes = await content();
    const { status, json } = await preview([file(fileName, bytes), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ header: ['Artikelnummer', '2025', '2026'], header_row: headerRow, detected_header_row: headerRow, skipped_rows: skipped });
    await restock();
    const mapping = { entities: { products: { field_mappings: { product_code: 'Artikelnummer', current_stock: '2026' } } } };
    const result = await importFile(server, token, { fileName, content: bytes, mapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await stockOf()).toEqual([{ product_code: 'HR-500', current_stock: 4 }, { product_code: 'HR-501', current_stock: 9 }]);
  });

  const titled = (title: Buffer) => Buffer.concat([title, Buffer.from(';;\n\nArtikelnummer;Bezeichnung;Bestand\nHR-520;Rechen;1\n')]);
  it.each([
    ['a NUL byte on its title line', titled(Buffer.from('Inventur\u0000 30.11.2026')), 'The file contains a NUL byte (row 1, a title line above the column names on row 3): it is not a text file, or it is UTF-16 without a byte order mark. Save it as UTF-8 CSV.'],
    ['invalid UTF-8 on its title line', titled(Buffer.concat([Buffer.from('Inventur Größe '), Buffer.from([0xe9])])), 'The file is not valid UTF-8 text (row 1, a title line above the column names on row 3). Save it as UTF-8.'],
    ['a NUL byte in its names below a title', Buffer.from('Inventur 30.11.2026;;\n\nArtikel\u0000nummer;Bezeichnung;Bestand\nHR-520;Rechen;1\n'), 'The file contains a NUL byte (row 3, the column names): it is not a text file, or it is UTF-16 without a byte order mark. Save it as UTF-8 CSV.'],
  ])('refuses a file with %s naming the line as a title line or the names, writing nothing', async (_name, content, message) => {
    const before = await productCount();
    const previewed = await preview([file('inventur.csv', new Uint8Array(content)), { name: 'entity_type', value: 'products' }]);
    expect(previewed.status).toBe(400);
    expect(previewed.json.error).toBe(message);
    for (const fieldsFirst of [true, false]) {
      const result = await importFile(server, token, { fileName: 'inventur.csv', content: new Uint8Array(content), mapping: { entities: { products: takeMapping } }, entityType: 'products', fieldsFirst });
      expect(result.status).toBe(400);
      expect((result.json as { error: string }).error).toBe(message);
    }
    expect(await productCount()).toBe(before);
  });
});
