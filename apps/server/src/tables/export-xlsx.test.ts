// GET /api/records/tables/{name}/export/?format=xlsx: the rows the CSV holds, as an Excel workbook
// of typed cells a German or French Excel opens as it is (docs/adr/0161 "Amendment: Download Excel").
// Each download is read back with exceljs, as a spreadsheet would read it.
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe.each(backends)('table export as .xlsx on %s', (backend) => {
  let server: TestServer;
  let admin: string;
  let viewer: string;
  let table: { name: string; encodedName: string };
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = (await signUpUser(server)).access;
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
    const product = await server.request('/api/records/tables/products/rows/add/', { token: admin, body: { product_code: 'XLS-1', name: 'Fußmatte', current_stock: 3, unit_cost: 2.5 } });
    const created = await server.request('/api/records/tables/create/', {
      token: admin,
      body: {
        name: 'Bestellung été',
        folder: 'Tests',
        columns: [
          { key: 'code', label: 'Article code', type: 'CharField', max_length: 40, required: true },
          { key: 'qty', label: 'Qty', type: 'IntegerField', required: true },
          { key: 'price', label: 'Price', type: 'DecimalField', max_digits: 10, decimal_places: 3 },
          { key: 'due', label: 'Due', type: 'DateField' },
          { key: 'seen_at', label: 'Seen at', type: 'DateTimeField' },
          { key: 'active', label: 'Active', type: 'BooleanField' },
          { key: 'product_id', label: 'Product', type: 'ForeignKey', related_table: 'products' },
        ],
      },
    });
    table = created.json as typeof table;
    const rows = [
      { code: '00123', qty: 5, price: -1.5, due: '2026-12-07', seen_at: '2026-11-02T10:30:00Z', active: true, product_id: product.json.id },
      { code: '=HYPERLINK("http://x","click")', qty: 20, price: 1234.125, active: false },
      { code: '+49 30 1234', qty: 8 },
      { code: '1e5', qty: 12, due: '2024-02-29' },
    ];
    for (const row of rows) {
      const added = await server.request(`/api/records/tables/${table.encodedName}/rows/add/`, { token: admin, body: row });
      expect(added.status, added.text).toBe(201);
    }
  });
  afterAll(() => server.stop());

  const download = async (name: string, query = '', token = viewer) => {
    const response = await fetch(`${server.url}/api/records/tables/${encodeURIComponent(name)}/export/?format=xlsx${query ? `&${query}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, bytes: await response.arrayBuffer() };
  };
  const readSheet = async (bytes: ArrayBuffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    expect(workbook.worksheets).toHaveLength(1);
    return workbook.worksheets[0] as ExcelJS.Worksheet;
  };
  /** The sheet's rows as [type, value] per cell, the header row first. */
  const typedRows = (sheet: ExcelJS.Worksheet) => {
    const rows: [ExcelJS.ValueType, unknown][][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      rows.push(Array.from({ length: sheet.columnCount }, (_, index) => {
        const cell = row.getCell(index + 1);
        return [cell.type, cell.value];
      }));
    });
    return rows;
  };
  const { Number: N, String: S, Date: D, Boolean: B, Null: E } = ExcelJS.ValueType;

  it('gives a viewer the rows as typed cells: numbers, days, instants and yes/no as such, codes and formula-looking text as text', async () => {
    const answer = await download(table.name, 'sort_by=qty');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(XLSX);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="Bestellung _t_.xlsx"; filename*=UTF-8''Bestellung%20%C3%A9t%C3%A9.xlsx`);
    const sheet = await readSheet(answer.bytes);
    expect(sheet.name).toBe('Bestellung été');
    expect(typedRows(sheet)).toEqual([
      [[S, 'ID'], [S, 'Article code'], [S, 'Qty'], [S, 'Price'], [S, 'Due'], [S, 'Seen at'], [S, 'Active'], [S, 'Product']],
      [[N, 1], [S, '00123'], [N, 5], [N, -1.5], [D, new Date('2026-12-07T00:00:00Z')], [D, new Date('2026-11-02T10:30:00Z')], [B, true], [S, 'XLS-1 — Fußmatte']],
      [[N, 3], [S, '+49 30 1234'], [N, 8], [E, null], [E, null], [E, null], [E, null], [E, null]],
      [[N, 4], [S, '1e5'], [N, 12], [E, null], [D, new Date('2024-02-29T00:00:00Z')], [E, null], [E, null], [E, null]],
      [[N, 2], [S, '=HYPERLINK("http://x","click")'], [N, 20], [N, 1234.125], [E, null], [E, null], [B, false], [E, null]],
    ]);
  });

  it('bolds and freezes the header, formats days, instants and decimals, keeps text columns as text and sizes the columns', async () => {
    const sheet = await readSheet((await download(table.encodedName)).bytes);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    sheet.getRow(1).eachCell((cell) => expect(cell.font?.bold).toBe(true));
    const second = sheet.getRow(2);
    expect([2, 4, 5, 6].map((column) => second.getCell(column).numFmt)).toEqual(['@', '0.000', 'd mmm yyyy', 'd mmm yyyy hh:mm "UTC"']);
    const widths = Array.from({ length: 8 }, (_, index) => sheet.getColumn(index + 1).width);
    expect(widths).toEqual([10, 30, 10, 12, 12, 22, 8, 30]);
  });

  it("writes a money column in the shop's currency once one is chosen, as numbers Excel still adds up; bare without one; the CSV as it was", async () => {
    const made = await server.request('/api/records/tables/create/', {
      token: admin,
      body: {
        name: `Prices ${backend}`,
        columns: [
          { key: 'price', label: 'Price', type: 'DecimalField', decimal_places: 3, money: true },
          { key: 'rate', label: 'VAT rate', type: 'DecimalField', decimal_places: 2 },
        ],
      },
    });
    const encoded = (made.json as { encodedName: string }).encodedName;
    for (const row of [{ price: 1240.5, rate: 0.2 }, { price: -5, rate: 0.05 }]) expect((await server.request(`/api/records/tables/${encoded}/rows/add/`, { token: admin, body: row })).status).toBe(201);
    const setCurrency = async (currency: string | null) => expect((await server.request('/api/shop/', { method: 'PUT', token: admin, body: { currency } })).status).toBe(200);
    /** The price and rate cells of both rows: [type, value, number format]. */
    const moneyCells = async () => {
      const sheet = await readSheet((await download(encoded, 'sort_by=id')).bytes);
      return [2, 3].map((row) => [2, 3].map((column) => {
        const cell = sheet.getRow(row).getCell(column);
        return [cell.type, cell.value, cell.numFmt];
      }));
    };
    const csv = async () => (await fetch(`${server.url}/api/records/tables/${encoded}/export/?sort_by=id`, { headers: { authorization: `Bearer ${viewer}` } })).text();

    expect(await moneyCells()).toEqual([
      [[N, 1240.5, '0.000'], [N, 0.2, '0.00']],
      [[N, -5, '0.000'], [N, 0.05, '0.00']],
    ]);
    const bareCsv = await csv();
    try {
      await setCurrency('GBP');
      const pounds = '"£"#,##0.00;-"£"#,##0.00';
      // Only the column marked money takes the sign; a rate keeps its places.
      expect(await moneyCells()).toEqual([
        [[N, 1240.5, pounds], [N, 0.2, '0.00']],
        [[N, -5, pounds], [N, 0.05, '0.00']],
      ]);
      expect(await csv()).toBe(bareCsv);
      await setCurrency('JPY');
      expect((await moneyCells()).map(([price]) => price?.[2])).toEqual(['"¥"#,##0;-"¥"#,##0', '"¥"#,##0;-"¥"#,##0']);
      await setCurrency(null);
      expect((await moneyCells()).map(([price]) => price?.[2])).toEqual(['0.000', '0.000']);
    } finally {
      await setCurrency(null);
    }
  });

  it('selects the rows of the filters in the order asked, as the CSV does', async () => {
    const filters = encodeURIComponent(JSON.stringify({ qty: { gt: 5, lt: 20 } }));
    const query = `sort_by=qty&sort_dir=desc&filters_json=${filters}`;
    const sheet = await readSheet((await download(table.encodedName, query)).bytes);
    const csv = await (await fetch(`${server.url}/api/records/tables/${table.encodedName}/export/?${query}`, { headers: { authorization: `Bearer ${viewer}` } })).text();
    const csvIds = csv.replace(/^\uFEFF/, '').split('\r\n').slice(1, -1).map((line) => Number(line.split(',')[0]));
    expect(typedRows(sheet).slice(1).map((row) => row[0]?.[1])).toEqual([4, 3]);
    expect(csvIds).toEqual([4, 3]);
  });

  it('streams a table of several batches, every row once and in order', async () => {
    const big = await server.request('/api/records/tables/create/', { token: admin, body: { name: `Many xlsx ${backend}`, columns: [{ key: 'n', type: 'IntegerField' }, { key: 'note', type: 'CharField' }] } });
    const encoded = (big.json as { encodedName: string }).encodedName;
    await sql`insert into ${sql.id('data', encoded)} (n, note) select case when i % 7 = 0 then null else i % 100 end, lpad(i::text, 6, '0') from generate_series(1, 2600) as i`.execute(server.database.db);
    const expected = await sql<{ id: number; n: number | null; note: string }>`select id, n, note from ${sql.id('data', encoded)} order by n desc nulls first, id desc`.execute(server.database.db);
    const answer = await download(encoded, 'sort_by=n&sort_dir=desc');
    expect(answer.status).toBe(200);
    // Sent as it is written: no length known up front.
    expect(answer.headers.get('content-length')).toBeNull();
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    const rows = typedRows(await readSheet(answer.bytes)).slice(1);
    expect(rows).toHaveLength(2600);
    expect(rows.map(([id, n, note]) => [id?.[1], n?.[1], note?.[1]])).toEqual(expected.rows.map((row) => [row.id, row.n, row.note]));
    expect(rows.every(([, , note]) => note?.[0] === S)).toBe(true);
  });

  it('refuses a format it does not write, a bad filter before any row, and a caller without a session', async () => {
    const badFormat = await server.request(`/api/records/tables/${table.encodedName}/export/?format=xls`, { token: viewer });
    expect(badFormat.status).toBe(400);
    expect(badFormat.json).toMatchObject({ code: 'validation_error', errors: { format: ['Format is csv or xlsx.'] } });
    const badFilter = await server.request(`/api/records/tables/${table.encodedName}/export/?format=xlsx&filters_json=${encodeURIComponent('{"qty":{"lt":"many"}}')}`, { token: viewer });
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.detail).toBe("Invalid filter for column 'qty': Expected a whole number.");
    expect((await server.request(`/api/records/tables/${table.encodedName}/export/?format=xlsx`)).status).toBe(401);
  });
});
