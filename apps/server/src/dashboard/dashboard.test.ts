// The dashboard on a small known dataset: figures checked against arithmetic done by hand here.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, Task } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { refreshCatalogueSummary, upsertProductSummaries } from './repo.ts';
import { summariseForecast } from './summary.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { storeIntegration } from '../testing/stored-integration.ts';

const FORECAST_START = '2025-11-21';
const DAY_MS = 86_400_000;
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** The last day the reorder task counts, as it names it: the 7th day from today on, today the 1st ("8 Dec"). */
const REORDER_DUE_BY = `${Number(inDays(6).slice(8))} ${SHORT_MONTHS[Number(inDays(6).slice(5, 7)) - 1]}`;
const day = (offset: number) => new Date(Date.parse(`${FORECAST_START}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

/** A flat forecast: `perDay` units a day for 90 days, a 95 % band of ± 1.96 σ. */
const flatForecast = (perDay: number, sigma: number, stockout: string | null) => ({
  forecast: Array.from({ length: 90 }, (_, i) => ({ ds: day(i), yhat: perDay, yhat_lower: perDay - 1.959964 * sigma, yhat_upper: perDay + 1.959964 * sigma, yhat_lower_80: 0, yhat_upper_80: 0 })),
  stockouts: stockout ? [{ date: stockout, type: 'stockForecast' as const }] : [],
  reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: 40, orderBy: null, leadTimeDays: 14, serviceLevel: 0.95 },
});

describe.each(backends)('dashboard on %s', (backend) => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUpUser>>;
  let other: Awaited<ReturnType<typeof signUpUser>>;
  const ids: Record<string, number> = {};
  const dashboard = async (token = user.access) => {
    const response = await server.request('/api/dashboard/', { token });
    expect(response.status).toBe(200);
    return response.json as unknown as DashboardResponse;
  };
  const storeForecast = (code: string, forecast: ReturnType<typeof flatForecast>) =>
    upsertProductSummaries(server.database.db, [{ productId: ids[code] as number, forecastStart: FORECAST_START, ...summariseForecast(forecast, FORECAST_START) }]);

  /** What a catalogue run stores: per product, the forecast's order advice (null: no order). */
  const storeAdvice = (orders: Record<string, { quantity: number; by: string } | null>) =>
    storeCatalogueAdvice(
      server.database.db,
      Object.entries(orders).map(([code, order]) => ({
        productId: ids[code] as number,
        forecastStart: FORECAST_START,
        stockouts: order ? [{ date: '2025-11-30', type: 'stockForecast' as const }] : [],
        reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: order?.quantity ?? 0, orderBy: order?.by ?? null, leadTimeDays: 14, serviceLevel: 0.95 },
      })),
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    user = await signUpUser(server, { role: 'viewer' });
    other = await signUpUser(server, { role: 'viewer' });
  });
  afterAll(() => server.stop());

  it('answers an explicit empty state before any product exists', async () => {
    const empty = await dashboard(other.access);
    expect(empty).toMatchObject({ state: 'empty', products: 0, inventoryStats: null, stockProjection: [] });
  });

  it('compares growth over the products counted a month before only, and shows none before a month of stock history', async () => {
    const db = server.database.db;
    const addCounted = async (code: string, counts: [string, number][]) => {
      const id = (await db.insertInto('data.products').values({ product_code: code, name: `Product ${code}`, current_stock: 0, unit_cost: 1, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow()).id;
      await db.insertInto('data.stock_snapshots').values(counts.map(([date, stock_level]) => ({ product_id: id, date, stock_level }))).execute();
      return id;
    };
    // A reader of its own: a read makes the reader's generated tasks, which the tests below count for `user`.
    const reader = await signUpUser(server, { role: 'viewer' });
    const growth = async () => {
      await refreshCatalogueSummary(db);
      const { monthlyGrowth, snapshotDate, growthSince } = (await dashboard(reader.access)).inventoryStats ?? {};
      return { monthlyGrowth, snapshotDate, growthSince };
    };
    // A catalogue imported last week: counted twice, both within the month before its latest count.
    const imported = await addCounted('NEW', [['2025-11-10', 100], ['2025-11-18', 120]]);
    expect(await growth()).toEqual({ monthlyGrowth: null, snapshotDate: '2025-11-18', growthSince: '2025-10-18' });
    // One product counted a month before: 200 → 210 is +5 %; the new one's 120 is not growth (it was +65 % counted in).
    const old = await addCounted('OLD', [['2025-10-01', 200], ['2025-11-18', 210]]);
    expect(await growth()).toEqual({ monthlyGrowth: 5, snapshotDate: '2025-11-18', growthSince: '2025-10-18' });
    await db.deleteFrom('data.stock_snapshots').where('product_id', 'in', [imported, old]).execute();
    await db.deleteFrom('data.products').where('id', 'in', [imported, old]).execute();
  });

  it('computes inventory stats and the projection from stock, snapshots, deliveries and forecasts', async () => {
    const db = server.database.db;
    for (const [code, stock, cost] of [['A', 50, 2], ['B', 500, 1], ['C', 0, 10]] as const) {
      ids[code] = (await db.insertInto('data.products').values({ product_code: code, name: `Product ${code}`, current_stock: stock, unit_cost: cost, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow()).id;
    }
    const id = (code: string) => ids[code] as number;
    await db.insertInto('data.stock_snapshots').values([
      { product_id: id('A'), date: '2025-10-01', stock_level: 40 },
      { product_id: id('A'), date: '2025-11-20', stock_level: 50 },
      { product_id: id('B'), date: '2025-10-15', stock_level: 400 },
      { product_id: id('B'), date: '2025-11-20', stock_level: 500 },
    ]).execute();
    await db.insertInto('data.deliveries').values([
      { product_id: id('B'), expected_date: '2025-12-15', quantity: 200 },
      { product_id: id('A'), expected_date: '2026-01-10', quantity: 100 },
      { product_id: id('A'), expected_date: '2025-12-01', quantity: 999, status: 'cancelled' },
    ]).execute();
    await db.insertInto('data.sales').values([
      { product_id: id('A'), date: '2025-11-20', quantity: 3 },
      { product_id: id('B'), date: '2025-05-01', quantity: 4 },
    ]).execute();
    await storeForecast('A', flatForecast(2, 1, '2025-11-30'));
    await storeForecast('B', flatForecast(5, 2, null));
    await storeAdvice({ A: { quantity: 40, by: FORECAST_START }, B: null });
    await refreshCatalogueSummary(db);

    const result = await dashboard();
    expect(result.state).toBe('ready');
    // 50 + 500 + 0 units; 50 × 2 + 500 × 1 + 0 × 10 in value.
    expect(result.inventoryStats).toMatchObject({ totalInventory: 550, totalValue: 600, snapshotDate: '2025-11-20', growthSince: '2025-10-20' });
    // Latest snapshots on 2025-11-20: 50 + 500 = 550; on 2025-10-20: 40 + 400 = 440; (550 − 440) / 440 = 25 %.
    expect(result.inventoryStats?.monthlyGrowth).toBe(25);

    // Days from 2025-11-21 to each month end: 10, 41, 72, 100, 131, 161.
    // A (2/day, 100 arriving 2026-01-10): 50−20=30, 50−82→0, 150−144=6, 150−200→0, 0, 0.
    // B (5/day, 200 arriving 2025-12-15): 500−50=450, 700−205=495, 700−360=340, 700−500=200, 700−655=45, 700−805→0.
    const medium = [480, 495, 346, 200, 45, 0];
    // Variance of the catalogue's demand: 1 a day for A, 4 a day for B, so 5 × days.
    const variance = [50, 205, 360, 500, 655, 805];
    expect(result.forecastStart).toBe(FORECAST_START);
    expect(result.stockProjection).toEqual(
      ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04'].map((month, i) => ({
        month,
        medium: medium[i],
        high: Math.round((medium[i] as number) + 1.281552 * Math.sqrt(variance[i] as number)),
        low: Math.round(Math.max(0, (medium[i] as number) - 1.281552 * Math.sqrt(variance[i] as number))),
      })),
    );
  });

  it('never draws the high line above the stock there could be: on hand and arriving, growing only by deliveries', async () => {
    const db = server.database.db;
    // A fast seller with little stock and a wide band: sold out within days, its demand's spread growing every month.
    ids.D = (await db.insertInto('data.products').values({ product_code: 'D', name: 'Product D', current_stock: 35, unit_cost: 1, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow()).id;
    await storeForecast('D', flatForecast(20, 60, '2025-11-22'));
    const projection = (await dashboard()).stockProjection;
    // On hand 50 + 500 + 0 + 35; B's 200 arrive in December, A's 100 in January.
    const available = [585, 785, 885, 885, 885, 885];
    projection.forEach((point, i) => {
      expect(point.high).toBeGreaterThanOrEqual(point.medium);
      expect(point.high).toBeLessThanOrEqual(available[i] as number);
      // February to April: nothing arrives, so the stock there could be does not grow.
      if (i >= 3) expect(point.high).toBeLessThanOrEqual((projection[i - 1] as { high: number }).high);
    });
    await db.deleteFrom('dashboard_product_summary').where('product_id', '=', ids.D).execute();
    await db.deleteFrom('data.products').where('id', '=', ids.D).execute();
  });

  it('generates tasks from the data that complete themselves when their condition clears', async () => {
    const tasks = (await dashboard()).tasks;
    // A runs out on 2025-11-30, before its 14-day lead time: the advice orders it; B and C sold nothing in the 90 days to 2025-11-20.
    expect(tasks.map((t) => [t.kind, t.text, t.completed])).toEqual([
      ['reorder', `Order 1 product due in the next 7 days, by ${REORDER_DUE_BY} (1 on the reorder list)`, false],
      ['no_sales', 'Review 2 products with no sales in 90 days', false],
      ['import_sales', "Import this week's sales", false],
    ]);
    const db = server.database.db;
    const today = new Date().toISOString().slice(0, 10);
    await db.insertInto('data.sales').values(['A', 'B', 'C'].map((code) => ({ product_id: ids[code] as number, date: today, quantity: 1 }))).execute();
    await storeForecast('A', flatForecast(2, 1, null));
    await storeAdvice({ A: null, B: null });
    // What the forecast run after an import of sales does.
    await refreshCatalogueSummary(db);
    const after = (await dashboard()).tasks;
    expect(after.map((t) => [t.kind, t.completed])).toEqual([
      ['reorder', true],
      ['no_sales', true],
      ['import_sales', true],
    ]);
  });

  it('counts in the reorder task only the orders due in the 7 days from today on, today included, and names their last day', async () => {
    const db = server.database.db;
    // Both sold today (the test before); A's order is due on the 7th day (today the 1st), B's on the 8th: the days the assistant's "next 7 days" reads.
    await storeAdvice({ A: { quantity: 5, by: inDays(6) }, B: { quantity: 5, by: inDays(7) } });
    await refreshCatalogueSummary(db);
    const reorder = (await dashboard()).tasks.find((t) => t.kind === 'reorder');
    expect([reorder?.text, reorder?.completed]).toEqual([`Order 1 product due in the next 7 days, by ${REORDER_DUE_BY} (2 on the reorder list)`, false]);
    // Only B's, a month away: on the list, not a task.
    await storeAdvice({ A: null, B: { quantity: 5, by: inDays(30) } });
    await refreshCatalogueSummary(db);
    expect((await dashboard()).tasks.find((t) => t.kind === 'reorder')?.completed).toBe(true);
    // Only a delivery to hurry on the list (a row without an order-by date): the task says to hurry it, not to order 0 products.
    await db.updateTable('dashboard_catalogue_summary').set({ reorder_count: 1, reorder_order_by: sql<string[]>`'{}'::text[]` }).where('id', '=', 1).execute();
    expect((await dashboard()).tasks.find((t) => t.kind === 'reorder')?.text).toBe('Hurry the delivery of 1 product that arrives after it runs out (1 on the reorder list)');
    await storeAdvice({ A: null, B: null });
    await refreshCatalogueSummary(db);
  });

  it('makes a task when its condition first holds after the first read, reopens one whose condition returns, and does not bring back a deleted one', async () => {
    const db = server.database.db;
    const newcomer = await signUpUser(server, { role: 'viewer' });
    // Every condition is clear (the test before): a first read makes no task.
    expect((await dashboard(newcomer.access)).tasks).toEqual([]);
    // A product that has never sold: "no sales in 90 days" holds again.
    ids.E = (await db.insertInto('data.products').values({ product_code: 'E', name: 'Product E', current_stock: 3, unit_cost: 1, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow()).id;
    await refreshCatalogueSummary(db);
    const made = (await dashboard(newcomer.access)).tasks;
    expect(made.map((t) => [t.kind, t.text, t.completed])).toEqual([['no_sales', 'Review 1 product with no sales in 90 days', false]]);
    // The first user's task completed itself when the condition cleared; now it is open again.
    expect((await dashboard()).tasks.filter((t) => t.kind).map((t) => [t.kind, t.completed])).toEqual([
      ['reorder', true],
      ['no_sales', false],
      ['import_sales', true],
    ]);
    // Ticked off while the condition lasts, it stays ticked.
    const noSales = (await dashboard()).tasks.find((t) => t.kind === 'no_sales') as Task;
    await server.request(`/api/dashboard/tasks/${noSales.id}/toggle/`, { token: user.access, body: {} });
    expect((await dashboard()).tasks.find((t) => t.kind === 'no_sales')?.completed).toBe(true);
    // Deleted, it is not made again while the condition holds.
    expect((await server.request(`/api/dashboard/tasks/${made[0]!.id}/`, { method: 'DELETE', token: newcomer.access })).status).toBe(204);
    expect((await dashboard(newcomer.access)).tasks).toEqual([]);
    expect((await server.request(`/api/dashboard/tasks/${made[0]!.id}/toggle/`, { token: newcomer.access, body: {} })).status).toBe(404);
    await db.deleteFrom('data.products').where('id', '=', ids.E).execute();
    await refreshCatalogueSummary(db);
  });

  it('says when an integration stopped after failed runs or products could not be forecast, until the next good run', async () => {
    const db = server.database.db;
    const watcher = await signUpUser(server, { role: 'viewer' });
    const integration = await storeIntegration(db, {
      endpoint: 'http://shop.example.com/api/orders',
      schedule_frequency: 'hourly',
      mapping_selection: 'webshop-orders',
      enabled: false,
      status: 'failed',
      consecutive_failures: 5,
      last_error_message: 'Paused after 5 failed runs in a row; switch it on again once the cause is fixed. Last error: shop.example.com answered HTTP 401.',
    });
    const failures = ['XT-1', 'XT-2', 'XT-3', 'XT-4'].map((styleCode) => ({ styleCode, error: 'yearlyProfile must be 366 non-negative numbers.' }));
    const run = (id: string, failed: typeof failures, minutesAgo: number) =>
      db
        .insertInto('forecast_tasks')
        .values({ id, style_code: null, forecast_days: 90, status: 'completed', results: JSON.stringify({ products: 10, failed }), created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString() })
        .execute();
    // The runs of the tests before are not this test's.
    await db.deleteFrom('forecast_tasks').execute();
    await run('00000000-0000-4000-8000-000000000001', failures, 5);
    // A one-product run afterwards is not the catalogue's: the task follows the catalogue runs.
    await db.insertInto('forecast_tasks').values({ id: '00000000-0000-4000-8000-000000000002', style_code: 'A', forecast_days: 90, status: 'completed', results: JSON.stringify({ products: 1, failed: [] }) }).execute();
    const tasks = (await dashboard(watcher.access)).tasks.filter((t) => t.kind === 'integration_failed' || t.kind === 'forecast_failed');
    expect(tasks.map((t) => [t.kind, t.text, t.completed])).toEqual([
      ['integration_failed', 'Check the integration from shop.example.com (mapping webshop-orders): it stopped after 5 failed runs in a row (Settings → Integrations says why)', false],
      ['forecast_failed', 'Look at 4 products that could not be forecast in the last run (XT-1, XT-2, XT-3 and 1 more): their forecasts are from an earlier run', false],
    ]);
    // The integration runs again and succeeds; the next catalogue run forecasts every product.
    await db.updateTable('integrations').set({ status: 'idle', enabled: true, consecutive_failures: 0 }).where('id', '=', integration.id).execute();
    await run('00000000-0000-4000-8000-000000000003', [], 0);
    const cleared = (await dashboard(watcher.access)).tasks.filter((t) => t.kind === 'integration_failed' || t.kind === 'forecast_failed');
    expect(cleared.map((t) => [t.kind, t.completed])).toEqual([
      ['integration_failed', true],
      ['forecast_failed', true],
    ]);
    await db.deleteFrom('integrations').where('id', '=', integration.id).execute();
    await db.deleteFrom('forecast_tasks').execute();
  });

  it('keeps tasks per user: add, edit, toggle, delete; others cannot see or touch them', async () => {
    const created = await server.request('/api/dashboard/tasks/', { token: user.access, body: { text: 'Call the supplier' } });
    expect(created.status).toBe(201);
    const task = created.json as unknown as Task;
    expect(task).toMatchObject({ text: 'Call the supplier', completed: false, kind: null });
    const toggled = await server.request(`/api/dashboard/tasks/${task.id}/toggle/`, { token: user.access, body: {} });
    expect(toggled.json.completed).toBe(true);
    const edited = await server.request(`/api/dashboard/tasks/${task.id}/`, { method: 'PUT', token: user.access, body: { text: 'Call the new supplier' } });
    expect(edited.json).toMatchObject({ text: 'Call the new supplier', completed: true });
    expect((await server.request('/api/dashboard/tasks/', { token: user.access, body: { text: '  ' } })).json.errors).toHaveProperty('text');

    expect((await server.request(`/api/dashboard/tasks/${task.id}/toggle/`, { token: other.access, body: {} })).status).toBe(404);
    expect((await server.request(`/api/dashboard/tasks/${task.id}/`, { method: 'DELETE', token: other.access })).status).toBe(404);
    const othersTasks = (await server.request('/api/dashboard/tasks/', { token: other.access })).json as unknown as Task[];
    expect(othersTasks.map((t) => t.id)).not.toContain(task.id);

    expect((await server.request(`/api/dashboard/tasks/${task.id}/`, { method: 'DELETE', token: user.access })).status).toBe(204);
    const mine = (await server.request('/api/dashboard/tasks/', { token: user.access })).json as unknown as Task[];
    expect(mine.map((t) => t.id)).not.toContain(task.id);
    const pending = await signUpUser(server, { role: 'pending' });
    expect((await server.request('/api/dashboard/', { token: pending.access })).status).toBe(403);
  });

  it('pins saved reports per user and drops a pin when its report is deleted', async () => {
    const editor = await signUpUser(server, { role: 'editor' });
    const report = (await server.request('/api/user-reports/', { token: editor.access, body: { title: 'Units', sql_code: 'select 1 as units' } })).json;
    const pinned = await server.request('/api/dashboard/pins/', { token: user.access, body: { report_id: report.id } });
    expect(pinned.status).toBe(200);
    expect(pinned.json).toEqual([{ id: report.id, title: 'Units' }]);
    expect((await dashboard()).pinnedReports).toEqual([{ id: report.id, title: 'Units' }]);
    expect((await dashboard(other.access)).pinnedReports).toEqual([]);
    expect((await server.request('/api/dashboard/pins/', { token: user.access, body: { report_id: 999999 } })).status).toBe(404);
    await server.request(`/api/user-reports/${report.id as number}/`, { method: 'DELETE', token: editor.access });
    expect((await dashboard()).pinnedReports).toEqual([]);
  });
});
