// The Forecasting screen's Excel downloads (docs/adr/0161, amendment "Excel downloads of the
// Forecasting screen"): a product's forecast and the latest inventory report's page, the columns
// of their CSVs as typed cells, read back with exceljs; a viewer may download, bad input is a 4xx.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecastSheet, inventoryReportRow, XLSX_CONTENT_TYPE, type InventoryReport, type ProductForecastResponse } from '@stockwise/contract';
import { seedDemoData } from '../demo/seed.ts';
import { moneyNumberFormat } from '../http/xlsx.ts';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('forecasting downloads as .xlsx on %s', (backend) => {
  let server: TestServer;
  let viewer: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 6, today: new Date('2026-11-22T00:00:00Z') });
    admin = (await signUpUser(server)).access;
    const requested = await server.request('/api/forecasting/request-generation/', { token: admin, body: {} });
    await forecastClient(server, admin).completed(requested.json.task_id as string);
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
  });
  afterAll(() => server.stop());

  const download = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${viewer}` } });
  const sheetOf = async (response: Response) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => rows.push(Array.from({ length: sheet.columnCount }, (_, index) => row.getCell(index + 1).value)));
    return { sheet, rows };
  };
  const day = (iso: string | null) => (iso === null ? null : new Date(`${iso}T00:00:00Z`));

  it("gives a product's forecast as the CSV's columns, days as dates and figures as numbers", async () => {
    const code = ((await server.request('/api/records/tables/products/data/?page_size=1', { token: viewer })).json.results as { product_code: string }[])[0]?.product_code as string;
    const forecast = (await server.request(`/api/forecasting/forecasts/${code}`, { token: viewer })).json as unknown as ProductForecastResponse;
    const answer = await download(`/api/forecasting/forecasts/${encodeURIComponent(code)}/export/?format=xlsx`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(XLSX_CONTENT_TYPE);
    expect(answer.headers.get('content-disposition')).toContain(`forecast-${code}.xlsx`);
    const { sheet, rows } = await sheetOf(answer);
    const expected = forecastSheet(forecast);
    expect(rows[0]).toEqual(['date', 'forecast', 'lower', 'upper', 'stock', 'stock lower', 'stock upper', 'short by', 'short by up to', 'unit']);
    expect(rows.slice(1)).toEqual(expected.rows.map(([date, ...figures]) => [day(date as string), ...figures]));
    expect(rows).toHaveLength(forecast.forecast.sales.length + 1);
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('d mmm yyyy');
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('0.00');
  });

  it('never writes a stock below 0: past the stockout the stock is 0 and "short by" the demand it cannot meet (QA F19)', async () => {
    const report = ((await server.request('/api/forecasting/latest-report/?page_size=50&include_inactive=true', { token: viewer })).json as { report: InventoryReport }).report;
    const runsOut = report.products.find((product) => product.stockoutType === 'stockForecast');
    expect(runsOut).toBeDefined();
    const forecast = (await server.request(`/api/forecasting/forecasts/${runsOut!.styleCode}`, { token: viewer })).json as unknown as ProductForecastResponse;
    const below = forecast.forecast.stock.find((point) => point.stock_level < 0)!;
    expect(below).toBeDefined();
    const { rows } = await sheetOf(await download(`/api/forecasting/forecasts/${encodeURIComponent(runsOut!.styleCode)}/export/?format=xlsx`));
    for (const row of rows.slice(1)) for (const stock of row.slice(4, 9)) expect(stock === null || (stock as number) >= 0).toBe(true);
    const row = rows.slice(1).find((cells) => (cells[0] as Date).toISOString().startsWith(below.ds))!;
    expect(row.slice(4, 9)).toEqual([0, 0, Math.max(0, Math.round(below.stock_upper * 100) / 100), Math.round(-below.stock_level * 100) / 100, Math.round(-below.stock_lower * 100) / 100]);
  });

  it("gives the report's list as the screen shows it: codes as text, quantities and days typed", async () => {
    const report = ((await server.request('/api/forecasting/latest-report/?page_size=50&include_inactive=true', { token: viewer })).json as { report: InventoryReport }).report;
    expect(report.products.length).toBeGreaterThan(0);
    expect(report.total).toBe(report.products.length);
    const answer = await download('/api/forecasting/latest-report/export/?format=xlsx&include_inactive=true');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain(`inventory-report-${report.timestamp.slice(0, 10)}.xlsx`);
    const { rows } = await sheetOf(answer);
    expect(rows[0]).toEqual(['product code', 'name', 'supplier', 'on hand now', 'last count', 'counted on', 'unit cost', 'first stockout', 'stockout type', 'reorder point', 'order quantity', 'unit', 'case size', 'minimum order', 'needed', 'order by', 'model', 'check', 'too late', 'on order']);
    const days = new Set(['counted on', 'first stockout', 'order by'].map((header) => rows[0]!.indexOf(header)));
    const dated = (row: (string | number | null)[]) => row.map((value, index) => (days.has(index) ? day(value as string | null) : value === '' ? null : value));
    expect(rows.slice(1)).toEqual(report.products.map(inventoryReportRow).map(dated));
  });

  it("writes the report's unit cost in the shop's currency once it has one, still a number; bare before", async () => {
    const unitCost = async () => {
      const { sheet, rows } = await sheetOf(await download('/api/forecasting/latest-report/export/?format=xlsx&include_inactive=true'));
      const cell = sheet.getRow(2).getCell(rows[0]!.indexOf('unit cost') + 1);
      return { type: typeof cell.value, numFmt: cell.numFmt, onHand: sheet.getRow(2).getCell(rows[0]!.indexOf('on hand now') + 1).numFmt };
    };
    const setCurrency = async (currency: string | null) => expect((await server.request('/api/shop/', { method: 'PUT', token: admin, body: { currency } })).status).toBe(200);
    expect(await unitCost()).toEqual({ type: 'number', numFmt: '0.00', onHand: '0.00' });
    await setCurrency('GBP');
    try {
      expect(await unitCost()).toEqual({ type: 'number', numFmt: moneyNumberFormat('GBP'), onHand: '0.00' });
      expect(moneyNumberFormat('GBP')).toContain('£');
    } finally {
      await setCurrency(null);
    }
  });

  it('refuses another format, an unknown product and a bad filter, naming what is wrong; asks for a sign-in', async () => {
    const pdf = await download('/api/forecasting/latest-report/export/?format=pdf');
    expect(pdf.status).toBe(400);
    expect(((await pdf.json()) as { detail: string }).detail).toContain('format');
    const unknown = await download('/api/forecasting/forecasts/NOPE-404/export/?format=xlsx');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe("Product 'NOPE-404' not found.");
    const days = await download('/api/forecasting/latest-report/export/?format=xlsx&inactive_days=0');
    expect(days.status).toBe(400);
    expect(((await days.json()) as { detail: string }).detail).toContain('inactive_days');
    expect((await fetch(`${server.url}/api/forecasting/latest-report/export/?format=xlsx`)).status).toBe(401);
  });
});
