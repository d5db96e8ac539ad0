// The lists' marks agree everywhere (ADR 0072, amendment 2026-12-04 "hurry it"): a product whose
// delivery on its way arrives after it runs out is a row of the list to hurry (no order), counted by
// the report, the dashboard's reorder task and the assistant; an order on under four weeks of sales
// says "Check before ordering" and an order too late to arrive in time says so — on the screen's
// report, in its CSV and Excel downloads and in the assistant's answers.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_REPORT_COLUMNS, type AssistantBlock, type ChatMessage, type DashboardResponse, type InventoryReport } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { formatDay, formatDayOfMonth } from '../plain-words/period.ts';

const DAY_MS = 86_400_000;
const today = new Date();
const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
const HURRY = (arrives: string) => `On order: arrives ${formatDay(arrives)}, after it runs out — hurry it`;

describe.each(backends)('deliveries to hurry and orders to check, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  let report: InventoryReport;
  const lateArrives = day(10);
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const ask = async (body: object) => ((await api('/api/assistant/messages/', body)).json.messages as ChatMessage[]).at(-1) as ChatMessage;
  const tableOf = (message: ChatMessage) => message.blocks.find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table');
  const noteOf = (message: ChatMessage, code: string) => tableOf(message)?.rows.find((row) => row.styleCode === code)?.note;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const products = await db
      .insertInto('data.products')
      .values([
        // Sells 10 a day, 5 on hand: runs out today; 800 on the way arrive in 10 days, so no new order (it could not come sooner).
        { product_code: 'LATE-1', name: 'Late one', current_stock: 5, unit_cost: 2, lead_time_days: 14 },
        // Ten days of sales only: an order on under four weeks of them.
        { product_code: 'SHORT-1', name: 'Short one', current_stock: 3, unit_cost: 1, lead_time_days: 7 },
        // Months of sales, 20 on hand, a week to deliver: an ordinary order.
        { product_code: 'ORDER-1', name: 'Ordinary one', current_stock: 20, unit_cost: 3, lead_time_days: 7 },
        // Plenty on hand: not on the list.
        { product_code: 'FULL-1', name: 'Full one', current_stock: 5000, unit_cost: 1, lead_time_days: 7 },
      ])
      .returning(['id', 'product_code'])
      .execute();
    const id = (code: string) => products.find((p) => p.product_code === code)!.id;
    const sold = (code: string, days: number, units: number) => Array.from({ length: days }, (_, i) => ({ product_id: id(code), date: day(i - days), quantity: units }));
    await db.insertInto('data.sales').values([...sold('LATE-1', 120, 10), ...sold('SHORT-1', 10, 5), ...sold('ORDER-1', 120, 5), ...sold('FULL-1', 120, 2)]).execute();
    await db
      .insertInto('data.stock_snapshots')
      .values([
        { product_id: id('LATE-1'), date: day(-1), stock_level: 5 },
        { product_id: id('SHORT-1'), date: day(-1), stock_level: 3 },
        { product_id: id('ORDER-1'), date: day(-1), stock_level: 20 },
        { product_id: id('FULL-1'), date: day(-1), stock_level: 5000 },
      ])
      .execute();
    await db.insertInto('data.deliveries').values({ product_id: id('LATE-1'), expected_date: lateArrives, quantity: 800 }).execute();
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    report = ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
  });
  afterAll(() => server.stop());

  it('lists the product whose delivery comes too late, to hurry, most urgent first with the orders, and counts it', async () => {
    expect((await client.forecastOf('LATE-1')).reorder).toMatchObject({ orderQuantity: 0, orderBy: null, onOrderArrives: lateArrives });
    expect(report.products.map((p) => p.styleCode).sort()).toEqual(['LATE-1', 'ORDER-1', 'SHORT-1']);
    const late = report.products.find((p) => p.styleCode === 'LATE-1')!;
    expect(late).toMatchObject({ orderQuantity: 0, orderBy: null, onOrderArrives: lateArrives });
    // It runs out before an order could arrive: the most urgent row.
    expect(report.products[0]?.styleCode).toBe('LATE-1');
    expect(report.products.map((p) => p.urgencyDays)).toEqual([...report.products.map((p) => p.urgencyDays)].sort((a, b) => a - b));
    expect(report).toMatchObject({ total: 3, on_order_late: 1 });
    // The most urgent order's date, not the row to hurry's (which has none).
    expect(report.first_order_by).toBe(report.products.find((p) => p.orderBy !== null)?.orderBy);
    expect(report.products.filter((p) => p.onOrderArrives === undefined).every((p) => p.orderQuantity > 0)).toBe(true);
    expect(report.products.find((p) => p.styleCode === 'SHORT-1')?.shortHistory).toBe(true);
    expect(report.products.find((p) => p.styleCode === 'ORDER-1')?.shortHistory).toBe(false);
  });

  it("gives the downloads the screen's marks as columns in shop words, CSV and Excel alike", async () => {
    const csv = await fetch(`${server.url}/api/forecasting/latest-report/export/?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    expect(csv.status).toBe(200);
    const [header, ...lines] = (await csv.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(header).toBe(INVENTORY_REPORT_COLUMNS.map((column) => column.header).join(','));
    expect(header?.split(',').slice(-3)).toEqual(['check', 'too late', 'on order']);
    const marks = Object.fromEntries(lines.map((line) => [line.split(',')[0], line.match(/,([^,]*),([^,]*),((?:"[^"]*")|[^,]*)$/)!.slice(1)]));
    const tooLate = (code: string) => (report.products.find((p) => p.styleCode === code)!.urgencyDays < 0 ? 'yes' : '');
    // A row to hurry orders nothing: its order quantity is blank, as its order-by day is (the unit between them: blank for pieces).
    const quantityAt = header!.split(',').indexOf('order quantity');
    const orderColumns = (code: string) => lines.find((line) => line.startsWith(`${code},`))!.split(',').slice(quantityAt, quantityAt + 3);
    expect(orderColumns('LATE-1')).toEqual(['', '', '']);
    expect(orderColumns('ORDER-1')).toEqual([String(report.products.find((p) => p.styleCode === 'ORDER-1')!.orderQuantity), '', report.products.find((p) => p.styleCode === 'ORDER-1')!.orderBy]);
    expect(marks).toEqual({
      'LATE-1': ['', '', `"${HURRY(lateArrives)}"`],
      'SHORT-1': ['Under 4 weeks of sales', tooLate('SHORT-1'), ''],
      'ORDER-1': ['', tooLate('ORDER-1'), ''],
    });

    const xlsx = await fetch(`${server.url}/api/forecasting/latest-report/export/?format=xlsx`, { headers: { authorization: `Bearer ${token}` } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const cells: Record<string, unknown[]> = {};
    // The last three columns, the marks, wherever the columns before them end.
    const last = INVENTORY_REPORT_COLUMNS.length;
    sheet.eachRow((row, number) => {
      if (number > 1) cells[row.getCell(1).value as string] = [last - 2, last - 1, last].map((column) => row.getCell(column).value ?? '');
    });
    expect(cells).toEqual({
      'LATE-1': ['', '', HURRY(lateArrives)],
      'SHORT-1': ['Under 4 weeks of sales', tooLate('SHORT-1'), ''],
      'ORDER-1': ['', tooLate('ORDER-1'), ''],
    });
  });

  it("gives the dashboard's reorder task the list's count, with the delivery to hurry", async () => {
    const dueBy = day(6);
    const due = report.products.filter((p) => p.orderBy !== null && p.orderBy <= dueBy).length;
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    const task = dashboard.tasks.find((t) => t.kind === 'reorder');
    expect(task?.text).toBe(`Order ${due} ${due === 1 ? 'product' : 'products'} due in the next 7 days, by ${formatDayOfMonth(dueBy)}; hurry the delivery of 1 product that arrives after it runs out (3 on the reorder list)`);
    expect(task?.completed).toBe(false);
  });

  it('has the assistant list and mark the same rows, and create orders only for the orders', async () => {
    const lowStock = await ask({ quick: 'low_stock' });
    expect(lowStock.content).toContain('2 products need an order, most urgent first');
    expect(lowStock.content).toContain('1 product has a delivery on its way that arrives after it runs out: hurry it');
    expect(tableOf(lowStock)?.rows.map((row) => row.styleCode)).toEqual(report.products.map((p) => p.styleCode));
    expect(noteOf(lowStock, 'LATE-1')).toBe(HURRY(lateArrives));
    // It orders nothing: no "order 0, cost 0.00" beside the note; the cost column is money (pence shown).
    expect(tableOf(lowStock)?.rows.find((row) => row.styleCode === 'LATE-1')).toMatchObject({ quantity: null, cost: null });
    expect(tableOf(lowStock)?.columns.find((column) => column.key === 'cost')).toEqual({ key: 'cost', label: 'Cost', kind: 'money' });
    expect(noteOf(lowStock, 'SHORT-1')).toMatch(/^Check before ordering/);
    expect(noteOf(lowStock, 'ORDER-1') ?? null).toBe(report.products.find((p) => p.styleCode === 'ORDER-1')!.urgencyDays < 0 ? 'Too late: arrives after it runs out' : null);
    const action = lowStock.blocks.find((b): b is Extract<AssistantBlock, { type: 'action' }> => b.type === 'action');
    expect((action?.payload as { orders: { styleCode: string }[] }).orders.map((o) => o.styleCode).sort()).toEqual(['ORDER-1', 'SHORT-1']);

    const reorder = await ask({ quick: 'reorder_report' });
    expect(tableOf(reorder)?.rows.map((row) => row.styleCode).sort()).toEqual(['ORDER-1', 'SHORT-1']);
    expect(reorder.content).toContain('1 product has a delivery on its way that arrives after it runs out: hurry it');
    expect(noteOf(reorder, 'SHORT-1')).toMatch(/^Check before ordering/);

    const runsOut = await ask({ content: 'What runs out first?' });
    expect(noteOf(runsOut, 'LATE-1')).toBe(HURRY(lateArrives));
    expect(noteOf(runsOut, 'SHORT-1')).toMatch(/^Check before ordering/);
  });
});
