// ADR 0193 F9, "left as is" until its amendment "counted after the sales data ends": a count dated
// more than two days after the last sales day (sales imported up to last week, the stock counted
// today) opens no projection, so the product is not on the order list — and the list's notice, the
// dashboard's task and the assistant said it "has no stock count" while its header showed the
// count. They now name it apart and say to import the sales since; once they are in, the count
// opens its projection and the product is on the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, DashboardResponse, InventoryReport } from '@stockwise/contract';
import { formatDay } from '../plain-words/period.ts';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
const SALES_END = day(-6);

describe.each(backends)('a product counted after the sales data ends, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const ids = new Map<string, number>();
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const report = async () => ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
  const dashboardText = async () => JSON.stringify((await api('/api/dashboard/')).json);
  const lowStock = async () => ((await api('/api/assistant/messages/', { quick: 'low_stock' })).json.messages as ChatMessage[]).at(-1)!.content;
  const salesFor = (code: string, from: number, to: number) =>
    server.database.db
      .insertInto('data.sales')
      .values(Array.from({ length: to - from + 1 }, (_, i) => ({ product_id: ids.get(code)!, date: day(from + i), quantity: 12 })))
      .execute();

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    // Sales of 12 a day up to six days ago: the forecast starts five days ago. LATTE was counted
    // 20 today (three days past the two a count may be ahead); FLAT-WHITE never.
    for (const code of ['LATTE', 'FLAT-WHITE']) {
      const { id } = await db.insertInto('data.products').values({ product_code: code, name: code, current_stock: 0, unit_cost: 1, lead_time_days: 2 }).returning('id').executeTakeFirstOrThrow();
      ids.set(code, id);
      await salesFor(code, -125, -6);
    }
    await db.insertInto('data.stock_snapshots').values({ product_id: ids.get('LATTE')!, date: day(0), stock_level: 20 }).execute();
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    expect(await client.run()).toMatchObject({ status: 'completed' });
  });
  afterAll(() => server.stop());

  it('names it apart from the products never counted, with the day the sales data ends', async () => {
    const listed = await report();
    expect(listed.products.map((product) => product.styleCode)).toEqual([]);
    expect(listed.unknown_stock).toEqual({ count: 1, codes: ['FLAT-WHITE'], counted_after_sales: { count: 1, codes: ['LATTE'], sales_end: SALES_END } });
  });

  it('has the dashboard ask for one count and for the sales since the data ends', async () => {
    const text = await dashboardText();
    expect(text).toContain('Count the stock of 1 product that sells but has no stock count');
    expect(text).toContain(`Import the sales after ${formatDay(SALES_END)}: 1 product was counted after the sales data ends, so no order is advised for it`);
  });

  it('has the assistant say which need a count and which need recent sales', async () => {
    const content = await lowStock();
    expect(content).toContain('1 product that sold in the last 90 days has no stock count, so no order can be advised for it: FLAT-WHITE.');
    expect(content).toContain(`1 product was counted after the sales data ends (${formatDay(SALES_END)}), so no order can be advised for it until the sales since are imported: LATTE.`);
  });

  it('lists it with its count once the sales up to yesterday are in, and the import task clears', async () => {
    for (const code of ['LATTE', 'FLAT-WHITE']) await salesFor(code, -5, -1);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    const listed = await report();
    expect(listed.products.find((product) => product.styleCode === 'LATTE')).toMatchObject({ onHand: { countedUnits: 20, countedOn: day(0) } });
    expect(listed.unknown_stock).toEqual({ count: 1, codes: ['FLAT-WHITE'], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    // A task whose condition clears is completed, its text kept (ADR 0136).
    const tasks = ((await api('/api/dashboard/')).json as unknown as DashboardResponse).tasks;
    expect(tasks.find((task) => task.kind === 'import_sales')).toMatchObject({ completed: true });
    expect(tasks.find((task) => task.kind === 'count_stock')).toMatchObject({ completed: false, text: 'Count the stock of 1 product that sells but has no stock count' });
    expect(await lowStock()).not.toContain('counted after the sales data ends');
  });
});
