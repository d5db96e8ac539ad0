// POST /api/user-reports/export/?format=xlsx: a report's SQL run again in the sandbox, under the
// same limits as Run, and its rows given as an Excel workbook of typed cells (docs/adr/0161
// "Amendment: Download Excel"). Each download is read back with exceljs.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { moneyNumberFormat } from '../http/xlsx.ts';
import { fixtureProducts, loadReportFixture } from './fixtures.test-data.ts';

describe.each(backends)('report download as .xlsx on %s', (backend) => {
  let server: TestServer;
  let viewer: string;
  beforeAll(async () => {
    server = await startTestServer(backend, { REPORT_MAX_ROWS: '1500' });
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
    await loadReportFixture(server.database.db);
  });
  afterAll(() => server.stop());

  const download = (body: unknown, query = '?format=xlsx') =>
    fetch(`${server.url}/api/user-reports/export/${query}`, { method: 'POST', headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const rowsOf = async (response: Response) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const rows: [ExcelJS.ValueType, unknown][][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      rows.push(Array.from({ length: sheet.columnCount }, (_, index) => [row.getCell(index + 1).type, row.getCell(index + 1).value]));
    });
    return { sheet, rows };
  };
  const { Number: N, String: S, Date: D, Boolean: B, Null: E } = ExcelJS.ValueType;

  it("gives a viewer the result's columns as typed cells, named by the report's title", async () => {
    const sqlCode = `select 7 as units, 1234.5::numeric as price, date '2026-12-07' as day, timestamptz '2026-11-02 10:30:00+01' as seen,
      timestamp '2026-11-02 10:30:00' as local_time, true as ok, '00123' as code, '=1+2' as formula, null::text as nothing, '{"a":1}'::jsonb as extra`;
    const answer = await download({ sql_code: sqlCode, title: 'Bestand / Größe' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(answer.headers.get('content-disposition')).toContain(`filename*=UTF-8''Bestand%20%2F%20Gr%C3%B6%C3%9Fe.xlsx`);
    const { sheet, rows } = await rowsOf(answer);
    expect(sheet.name).toBe('Bestand   Größe');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(rows).toEqual([
      ['units', 'price', 'day', 'seen', 'local_time', 'ok', 'code', 'formula', 'nothing', 'extra'].map((name) => [S, name]),
      [[N, 7], [N, 1234.5], [D, new Date('2026-12-07T00:00:00Z')], [D, new Date('2026-11-02T09:30:00Z')], [D, new Date('2026-11-02T10:30:00Z')], [B, true], [S, '00123'], [S, '=1+2'], [E, null], [S, '{"a":1}']],
    ]);
    expect([3, 4, 5].map((column) => sheet.getRow(2).getCell(column).numFmt)).toEqual(['d mmm yyyy', 'd mmm yyyy hh:mm "UTC"', 'd mmm yyyy hh:mm']);
  });

  it('holds the rows Run shows: the data tables read through the sandbox, at most REPORT_MAX_ROWS of them', async () => {
    const { rows } = await rowsOf(await download({ sql_code: 'select product_code, current_stock, unit_cost from products order by product_code', title: 'Stock' }));
    const expected = [...fixtureProducts].sort((a, b) => a.code.localeCompare(b.code)).map((product) => [[S, product.code], [N, product.stock], [N, product.unitCost]]);
    expect(rows.slice(1)).toEqual(expected);
    const capped = await rowsOf(await download({ sql_code: 'select i from generate_series(1, 4000) as i', title: '' }));
    expect(capped.rows).toHaveLength(1501);
    expect(capped.rows.at(-1)).toEqual([[N, 1500]]);
    expect(capped.sheet.name).toBe('report');
  });

  it("writes the money columns it is told of in the shop's currency, still numbers; bare before the shop has one", async () => {
    const admin = (await signUpUser(server, { role: 'admin' })).access;
    const moneyColumn = async () => {
      const { sheet } = await rowsOf(await download({ sql_code: 'select 12.5::numeric as stock_value, 3 as units, 4.25::numeric as price', title: 'Value', money_fields: ['stock_value', 'units', 'no_such_column'] }));
      return [1, 2, 3].map((column) => ({ value: sheet.getRow(2).getCell(column).value, numFmt: sheet.getRow(2).getCell(column).numFmt }));
    };
    expect(await moneyColumn()).toEqual([{ value: 12.5, numFmt: undefined }, { value: 3, numFmt: undefined }, { value: 4.25, numFmt: undefined }]);
    expect((await server.request('/api/shop/', { method: 'PUT', token: admin, body: { currency: 'GBP' } })).status).toBe(200);
    expect(await moneyColumn()).toEqual([{ value: 12.5, numFmt: moneyNumberFormat('GBP') }, { value: 3, numFmt: moneyNumberFormat('GBP') }, { value: 4.25, numFmt: undefined }]);
    const tooMany = await download({ sql_code: 'select 1 as one', title: 'x', money_fields: Array.from({ length: 51 }, (_, index) => `c${index}`) });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(((await tooMany.json()) as { errors: Record<string, string[]> }).errors)).toEqual(['money_fields']);
  });

  it('refuses SQL the sandbox refuses or cannot run, and a format it does not write, with a 400 naming the field', async () => {
    const refused = await download({ sql_code: 'select * from users', title: 'x' });
    expect(refused.status).toBe(400);
    const refusal = (await refused.json()) as { code: string; detail: string; errors: Record<string, string[]> };
    expect(refusal.code).toBe('validation_error');
    expect(refusal.errors.sql_code).toEqual([refusal.detail]);
    expect(refusal.detail).toMatch(/users/);
    const failing = await download({ sql_code: 'select 1/0 as x', title: 'x' });
    expect(failing.status).toBe(400);
    expect(((await failing.json()) as { detail: string }).detail).toMatch(/division by zero/);
    const empty = await download({ sql_code: '  ', title: 'x' });
    expect(((await empty.json()) as { errors: unknown }).errors).toEqual({ sql_code: ['No SQL code to execute.'] });
    const csv = await download({ sql_code: 'select 1', title: 'x' }, '?format=csv');
    expect(csv.status).toBe(400);
    expect(((await csv.json()) as { errors: unknown }).errors).toEqual({ format: ['Format is xlsx (the CSV is written by the browser).'] });
  });
});
