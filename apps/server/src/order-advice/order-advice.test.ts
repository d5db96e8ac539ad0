// One definition of "needs an order" after a real whole-catalogue run: the latest report (every
// page, with and without inactive products), the assistant's low-stock and reorder answers and the
// dashboard's reorder task give the same products, counts and totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AssistantBlock, ChatMessage, DashboardResponse, InventoryReport, TaskStatusResponse } from '@stockwise/contract';
import { seedDemoData } from '../demo/seed.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { formatDay, formatDayOfMonth } from '../plain-words/period.ts';

const money = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

describe.each(backends)('order advice on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const report = async (query: string) => ((await api(`/api/forecasting/latest-report/${query}`)).json as { report: InventoryReport }).report;
  const assistant = async (quick: string) => ((await api('/api/assistant/messages/', { quick })).json.messages as ChatMessage[]).at(-1) as ChatMessage;
  /** A whole-catalogue run through the API, waited for. */
  const runCatalogue = async () => {
    const taskId = (await api('/api/forecasting/request-generation/', {})).json.task_id as string;
    for (let waited = 0; ; waited += 200) {
      const status = (await api(`/api/forecasting/status/${taskId}/`)).json as unknown as TaskStatusResponse;
      if (status.status === 'completed') return;
      expect(status.status === 'failed' || waited > 60_000, status.error ?? '').toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const tableOf = (message: ChatMessage) => message.blocks.find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table');

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    await seedDemoData(db, { password: 'unused password', productCount: 40, today: new Date('2026-11-22T00:00:00Z') });
    // Imported with a blank stock cell (stored 0, never counted): two that sell, one that has not sold for a year.
    const uncounted = await db
      .insertInto('data.products')
      .values(['UNCOUNTED-BIG', 'UNCOUNTED-SMALL', 'UNCOUNTED-DEAD'].map((code) => ({ product_code: code, name: code, current_stock: 0, unit_cost: 1, lead_time_days: 7 })))
      .returning(['id', 'product_code'])
      .execute();
    const sales = { 'UNCOUNTED-BIG': { units: 9, from: '2026-10-01' }, 'UNCOUNTED-SMALL': { units: 1, from: '2026-10-01' }, 'UNCOUNTED-DEAD': { units: 4, from: '2025-06-01' } };
    for (const product of uncounted) {
      const { units, from } = sales[product.product_code as keyof typeof sales];
      const days = Array.from({ length: 50 }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
      await db.insertInto('data.sales').values(days.map((date) => ({ product_id: product.id, date, quantity: units }))).execute();
    }
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  it('says what to do before the first catalogue run', async () => {
    expect((await api('/api/forecasting/latest-report/')).json).toEqual({ success: false, message: 'No latest report available...' });
    expect((await assistant('low_stock')).content).toContain('Choose "Regenerate whole catalogue"');
  });

  it('gives the same products, counts and totals everywhere after a run', async () => {
    await runCatalogue();
    const active = await report('?page_size=500');
    const all = await report('?page_size=500&include_inactive=true');
    expect(active.total).toBeGreaterThan(0);
    expect(active.products).toHaveLength(active.total);
    // The demo's years of sales: no order rests on under four weeks of them (short-history.test.ts has those).
    expect(active.products.filter((p) => p.shortHistory).map((p) => p.styleCode)).toEqual([]);
    expect(active.total + active.inactive).toBe(all.total);
    // Totals are the sums over the list; pages add up to it.
    expect(active.order_units).toBe(active.products.reduce((sum, p) => sum + p.orderQuantity, 0));
    expect(active.order_cost).toBeCloseTo(active.products.reduce((sum, p) => sum + p.orderQuantity * p.unitCost, 0), 2);
    const firstPage = await report('?page=1&page_size=7');
    expect(firstPage).toMatchObject({ total: active.total, order_units: active.order_units, order_cost: active.order_cost });
    expect(firstPage.products.map((p) => p.styleCode)).toEqual(active.products.slice(0, 7).map((p) => p.styleCode));

    const lowStock = await assistant('low_stock');
    expect(lowStock.content).toContain(`${money.format(active.total)} ${active.total === 1 ? 'product needs' : 'products need'} an order, most urgent first: ${money.format(active.order_units)} units, ${new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(active.order_cost)} in all.`);
    expect(tableOf(lowStock)?.rows.map((r) => [r.styleCode, r.quantity, r.orderBy])).toEqual(active.products.slice(0, 50).map((p) => [p.styleCode, p.orderQuantity, p.orderBy]));
    const reorder = await assistant('reorder_report');
    expect(tableOf(reorder)?.rows.map((r) => r.styleCode)).toEqual(active.products.map((p) => p.styleCode));
    expect(tableOf(reorder)?.totals).toMatchObject({ quantity: active.order_units, cost: active.order_cost });

    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    const dueBy = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
    const due = active.products.filter((p) => (p.orderBy as string) <= dueBy).length;
    expect(dashboard.tasks.find((task) => task.kind === 'reorder')?.text).toBe(`Order ${due} ${due === 1 ? 'product' : 'products'} due in the next 7 days, by ${formatDayOfMonth(dueBy)} (${active.total} on the reorder list)`);

    // Never counted: not on the list (no stock projection), but named, best seller first; one without recent sales is left out.
    expect(active.unknown_stock).toEqual({ count: 2, codes: ['UNCOUNTED-BIG', 'UNCOUNTED-SMALL'], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    expect(all.unknown_stock).toEqual(active.unknown_stock);
    expect(all.products.map((p) => p.styleCode)).not.toContain('UNCOUNTED-BIG');
    expect((await assistant('low_stock')).content).toContain('2 products that sold in the last 90 days have no stock count, so no order can be advised for them: UNCOUNTED-BIG, UNCOUNTED-SMALL.');
    expect(dashboard.tasks.find((task) => task.kind === 'count_stock')?.text).toBe('Count the stock of 2 products that sell but have no stock count');
  });

  it('tells, on a window ahead past the forecasts, the last day the stored forecasts reach', async () => {
    const last = (await sql<{ day: string }>`select max(date)::text as day from data.product_forecasts`.execute(server.database.db)).rows[0]?.day as string;
    const answer = ((await api('/api/assistant/messages/', { content: 'which products run out in the next 200 days' })).json.messages as ChatMessage[]).at(-1) as ChatMessage;
    expect(answer.content).toContain(`The forecasts reach to ${formatDay(last)}: a product running out after that is not known yet.`);
  });

  it('drops a product from the uncounted ones once its stock is counted, and the task follows', async () => {
    const db = server.database.db;
    const big = await db.selectFrom('data.products').select('id').where('product_code', '=', 'UNCOUNTED-BIG').executeTakeFirstOrThrow();
    await db.insertInto('data.stock_snapshots').values({ product_id: big.id, date: '2026-11-19', stock_level: 30 }).execute();
    await runCatalogue();
    const active = await report('?page_size=500');
    expect(active.unknown_stock).toEqual({ count: 1, codes: ['UNCOUNTED-SMALL'], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    // Counted at 30 and selling 9 a day with a 7-day lead time: now on the list with an order.
    expect(active.products.find((p) => p.styleCode === 'UNCOUNTED-BIG')?.orderQuantity).toBeGreaterThan(0);
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    expect(dashboard.tasks.find((task) => task.kind === 'count_stock')?.text).toBe('Count the stock of 1 product that sells but has no stock count');
  });

  it('gives the dashboard the counts of the report right after a product is deleted on the Data screen', async () => {
    const before = await report('?page_size=500');
    // The most urgent order: its deletion changes both the list and the orders due this week.
    const doomed = before.products[0]!;
    const { id } = await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', doomed.styleCode).executeTakeFirstOrThrow();
    expect((await api('/api/records/tables/products/rows/delete/', { id, cascade: true })).status).toBe(200);
    const after = await report('?page_size=500');
    expect(after.total).toBe(before.total - 1);
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    const dueBy = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
    const due = after.products.filter((p) => (p.orderBy as string) <= dueBy).length;
    expect(dashboard.tasks.find((task) => task.kind === 'reorder')?.text).toBe(`Order ${due} ${due === 1 ? 'product' : 'products'} due in the next 7 days, by ${formatDayOfMonth(dueBy)} (${after.total} on the reorder list)`);
  });

  it('lists first the order whose order-by date comes sooner than its stockout less the lead time', async () => {
    const db = server.database.db;
    const [first, second] = (await report('?page_size=500')).products;
    const rows = await db.selectFrom('forecast_results as f').innerJoin('data.products as p', 'p.id', 'f.product_id').select(['p.id', 'p.product_code', 'f.forecast_start']).where('p.product_code', 'in', [first!.styleCode, second!.styleCode]).execute();
    const start = rows[0]!.forecast_start;
    const day = (offset: number) => new Date(Date.parse(`${start}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const idOf = (code: string) => Number(rows.find((row) => row.product_code === code)!.id);
    // Safety stock puts A's order-by date at the start though its expected stockout is 40 days off; B must be ordered in 3.
    const advice = (code: string, stockout: number, orderBy: number) => ({
      productId: idOf(code),
      forecastStart: start,
      stockouts: [{ date: day(stockout), type: 'stockForecast' as const }],
      reorder: { reorderPoint: 10, safetyStock: 5, orderQuantity: 10, orderBy: day(orderBy), leadTimeDays: 7, serviceLevel: 0.95 },
    });
    await storeCatalogueAdvice(db, [advice(first!.styleCode, 40, 0), advice(second!.styleCode, 10, 3)]);
    const listed = (await report('?page_size=500')).products;
    const place = (code: string) => listed.findIndex((p) => p.styleCode === code);
    expect(listed[place(first!.styleCode)]!.urgencyDays).toBe(0);
    expect(listed[place(second!.styleCode)]!.urgencyDays).toBe(3);
    expect(place(first!.styleCode)).toBeLessThan(place(second!.styleCode));
  });
});
