// QA café F9 (ADR 0193): the order list said 15 products "have no stock count" and listed each with
// "On hand now 0". Their only count was the products file's "Current stock 0", dated the shop's
// today — a day after the forecast's first day (the sales export ended on a Saturday, ADR 0193 F6).
// The projection opens from such a count (up to two days ahead, ADR 0030's amendment), but the
// notice's rule took only counts on or before the first day. One rule now: a product has a stock
// count when its projection has an opening stock; a product without one says so wherever its
// on-hand figure would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, DashboardResponse, InventoryReport, ProductForecastResponse } from '@stockwise/contract';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);

describe.each(backends)('a product without a stock count beside one counted after the last sales day, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let report: InventoryReport;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const assistant = async (content: string) => {
    const response = await api('/api/assistant/messages/', { content, context: { page: 'home', path: '/home' } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    // Sales of 12 a day up to the day before yesterday: the forecast starts yesterday. CROISSANT was
    // counted 0 by the products file today (as its import writes it: today's count), a day after
    // that; BANANA-BREAD never (a blank stock cell stores 0 and writes no count).
    const days = Array.from({ length: 120 }, (_, i) => day(i - 121));
    for (const [code, name, countedToday] of [['CROISSANT', 'Croissant', true], ['BANANA-BREAD', 'Banana Bread', false]] as const) {
      const { id } = await db.insertInto('data.products').values({ product_code: code, name, current_stock: 0, unit_cost: 1, lead_time_days: 2 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('data.sales').values(days.map((date) => ({ product_id: id, date, quantity: 12 }))).execute();
      if (countedToday) await db.insertInto('data.stock_snapshots').values({ product_id: id, date: day(0), stock_level: 0 }).execute();
    }
    token = (await signUpUser(server)).access;
    expect(await forecastClient(server, token).run()).toMatchObject({ status: 'completed' });
    report = ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
  });
  afterAll(() => server.stop());

  it('lists the product counted after the first forecast day with its count, and only the other as without one', () => {
    const croissant = report.products.find((product) => product.styleCode === 'CROISSANT');
    expect(croissant?.onHand).toEqual({ units: 0, countedUnits: 0, countedOn: day(0) });
    expect(report.products.map((product) => product.styleCode)).not.toContain('BANANA-BREAD');
    expect(report.unknown_stock).toEqual({ count: 1, codes: ['BANANA-BREAD'], counted_after_sales: { count: 0, codes: [], sales_end: null } });
  });

  it('has the dashboard ask for one count', async () => {
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    expect(JSON.stringify(dashboard)).toContain('Count the stock of 1 product that sells but has no stock count');
  });

  it('reads no on-hand figure for the product never counted, on the Forecasting screen and in the assistant', async () => {
    const forecast = (await api('/api/forecasting/forecasts/BANANA-BREAD')).json as unknown as ProductForecastResponse;
    expect(forecast.product).toMatchObject({ onHand: null, lastCount: null });
    expect((await assistant('how many Banana Bread do we have?')).content).toContain('has not been counted yet');
    expect((await assistant('how many Croissant do we have?')).content).not.toContain('has not been counted yet');
  });
});
