// The latest report's exports hold the whole list under the screen's filters, not the page it loaded
// (ADR 0072, amendment 2026-12-04): 70 products out of stock, 10 of them without sales in the last
// 20 days, exported as CSV and as .xlsx through the real server and compared with every page of the
// report's JSON under the same filter.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_PAGE_SIZE, INVENTORY_REPORT_COLUMNS, type InventoryReport } from '@stockwise/contract';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const HISTORY_DAYS = 60;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const codes = Array.from({ length: 70 }, (_, i) => `BOLT-${String(i + 1).padStart(3, '0')}`);
// The last ten stopped selling after the first month.
const stoppedSelling = new Set(codes.slice(60));
const tillLines = codes.flatMap((code) => Array.from({ length: HISTORY_DAYS }, (_, t) => t).filter((t) => !stoppedSelling.has(code) || t < 30).map((t) => `${dayOf(t)},${code},${1 + (t % 3)}`));
const FILTER = 'inactive_days=20';

describe.each(backends)('the latest report exported whole on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  beforeAll(async () => {
    ({ server, token, client } = await startShopServer(backend, {
      products: `Item,Description,On hand\n${codes.map((code) => `${code},Bolt ${code},0`).join('\n')}\n`,
      productColumns: { current_stock: 'On hand' },
      tillLines,
    }));
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: codes.length, failed: [] } });
  });
  afterAll(() => server.stop());

  /** Every page of the report under `filter`, page by page as the screen reads it. */
  const everyPage = async (filter: string) => {
    const products: InventoryReport['products'] = [];
    let report: InventoryReport;
    let page = 1;
    do {
      const answer = await server.request(`/api/forecasting/latest-report/?${filter}&page=${page}&page_size=${DEFAULT_REPORT_PAGE_SIZE}`, { token });
      expect(answer.status, answer.text).toBe(200);
      report = answer.json.report as InventoryReport;
      products.push(...report.products);
      page += 1;
    } while (products.length < report.total);
    return { report, products };
  };
  const download = (query: string) => fetch(`${server.url}/api/forecasting/latest-report/export/?${query}`, { headers: { authorization: `Bearer ${token}` } });

  it('gives every product the filter keeps as CSV, more than a page of them, most urgent first', async () => {
    const { report, products } = await everyPage(FILTER);
    expect(report.total).toBeGreaterThan(DEFAULT_REPORT_PAGE_SIZE);
    expect(report.inactive).toBe(stoppedSelling.size);
    const answer = await download(`format=csv&${FILTER}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toContain(`inventory-report-${report.timestamp.slice(0, 10)}.csv`);
    const [header, ...lines] = (await answer.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(header).toBe(INVENTORY_REPORT_COLUMNS.map((column) => column.header).join(','));
    expect(lines.map((line) => line.split(',')[0])).toEqual(products.map((product) => product.styleCode));
    expect(lines.some((line) => stoppedSelling.has(line.split(',')[0] as string))).toBe(false);
    // Out of stock, counted 0 today: on hand now 0, counted 0 on the first forecast day.
    const onHandAt = header!.split(',').indexOf('on hand now');
    expect(lines[0]?.split(',').slice(onHandAt, onHandAt + 3)).toEqual(['0', '0', dayOf(HISTORY_DAYS)]);
  });

  it('gives the products without recent demand too when the filter shows them, as .xlsx', async () => {
    const { products } = await everyPage(`${FILTER}&include_inactive=true`);
    expect(products.length).toBe(codes.length);
    const answer = await download(`format=xlsx&${FILTER}&include_inactive=true`);
    expect(answer.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await answer.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const exported: unknown[] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) exported.push(row.getCell(1).value);
    });
    expect(exported).toEqual(products.map((product) => product.styleCode));
  });
});
