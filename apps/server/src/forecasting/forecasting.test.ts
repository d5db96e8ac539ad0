import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { seedDemoData } from '../demo/seed.ts';
import { RUN_PROCESS_APPLICATION_NAME } from './run-process.ts';
import { CONNECTIONS_FOR_A_RUN, GENERATE_FORECASTS_JOB } from './service.ts';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

describe.each(backends)('forecasting on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 12, today: new Date('2026-11-22T00:00:00Z') });
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const waitForTask = (taskId: string) => forecastClient(server, token).completed(taskId);

  it('forecasts the whole catalogue through a queued task with progress', async () => {
    const requested = await api('/api/forecasting/request-generation/', {});
    expect(requested.status).toBe(200);
    const status = await waitForTask(requested.json.task_id as string);
    expect(status).toMatchObject({ status: 'completed', progress: { done: 12, total: 12 }, error: null });
    expect(status.results).toMatchObject({ style_code: null, forecast_days: 90, products: 12, failed: [] });
    // On PostgreSQL it ran in a process of its own, whose connections were opened before its
    // statements started (idle ones close after 10 s).
    if (backend === 'postgres') {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${RUN_PROCESS_APPLICATION_NAME}`.execute(server.database.db);
      expect(rows[0]?.n).toBeGreaterThanOrEqual(CONNECTIONS_FOR_A_RUN);
    }
  });

  it('answers a product forecast in the spec shape, with consistent bands, dates and stock', async () => {
    const products = (await api('/api/records/tables/products/data/?page_size=1')).json.results as { product_code: string }[];
    const code = products[0]?.product_code as string;
    const requested = await api('/api/forecasting/request-generation/', { style_code: code, forecast_days: 30 });
    expect((await waitForTask(requested.json.task_id as string)).status).toBe('completed');
    const response = await api(`/api/forecasting/forecasts/${code}`);
    expect(response.status).toBe(200);
    const forecast = response.json as unknown as ProductForecastResponse;
    expect(forecast.report.productCode).toBe(code);
    expect(forecast.historical.sales).toHaveLength(730);
    expect(forecast.forecast.sales).toHaveLength(30);
    const start = forecast.metrics.display_window.forecast_start;
    expect(start).toBe('2026-11-21');
    expect(forecast.historical.sales.at(-1)?.ds).toBe(start);
    expect(forecast.forecast.sales[0]?.ds).toBe(nextDay(start));
    forecast.forecast.sales.forEach((row, i) => {
      expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat);
      expect(row.yhat).toBeLessThanOrEqual(row.yhat_upper);
      expect(row.yhat_lower).toBeGreaterThanOrEqual(0);
      if (i > 0) expect(row.ds).toBe(nextDay(forecast.forecast.sales[i - 1]?.ds as string));
    });
    // stock projection = last snapshot - cumulative forecast demand + deliveries
    const lastSnapshot = forecast.historical.stock.find((s) => s.isLastSnapshot);
    expect(lastSnapshot?.ds).toBe('2026-11-21');
    const { rows: deliveries } = await sql<{ expected_date: string; quantity: number }>`
      select expected_date::text, quantity from data.deliveries d join data.products p on p.id = d.product_id
      where p.product_code = ${code} and expected_date > ${start}::date and status = 'scheduled'`.execute(server.database.db);
    let expected = lastSnapshot?.stock_level as number;
    forecast.forecast.stock.forEach((row, i) => {
      expected += deliveries.filter((d) => d.expected_date === row.ds).reduce((sum, d) => sum + d.quantity, 0) - (forecast.forecast.sales[i]?.yhat ?? 0);
      // Stored figures are rounded to thousandths, each day on its own: the sum drifts by up to ½ per mille a day.
      expect(Math.abs(row.stock_level - expected)).toBeLessThanOrEqual(0.0005 * (i + 2));
      expect(row.stock_level).toBe(Math.round(row.stock_level * 1000) / 1000);
      expect(row.stock_lower).toBeLessThanOrEqual(row.stock_level + 1e-9);
      expect(row.stock_upper).toBeGreaterThanOrEqual(row.stock_level - 1e-9);
    });
    expect(forecast.metrics.model.name).toBeTruthy();
    expect(forecast.reorder.serviceLevel).toBe(0.95);
  });

  it('reads a product forecast by id when no product has that code, and by code when one has (spec §3)', async () => {
    const [first, second] = (await api('/api/records/tables/products/data/?page_size=2&sort_by=id')).json.results as { id: number; product_code: string }[];
    const byCode = await api(`/api/forecasting/forecasts/${first?.product_code}`);
    const byId = await api(`/api/forecasting/forecasts/${first?.id}`);
    expect(byId.status).toBe(200);
    expect(byId.text).toBe(byCode.text);
    // A code that looks like another product's id names its own product.
    await server.database.db.updateTable('data.products').set({ product_code: String(first?.id) }).where('id', '=', second?.id as number).execute();
    try {
      const answer = (await api(`/api/forecasting/forecasts/${first?.id}`)).json as unknown as ProductForecastResponse;
      expect(answer.product.id).toBe(second?.id);
    } finally {
      await server.database.db.updateTable('data.products').set({ product_code: second?.product_code as string }).where('id', '=', second?.id as number).execute();
    }
  });

  it('reads the latest inventory report after a catalogue run', async () => {
    const report = await api('/api/forecasting/latest-report/');
    expect(report.status).toBe(200);
    expect(report.json).toMatchObject({ success: true, report: { type: 'inventory', forecast_days: 90 } });
  });

  it('lists the products to order by urgency, pages them, and leaves out products without recent demand unless asked', async () => {
    type Report = { total: number; inactive: number; page: number; page_size: number; products: { styleCode: string; urgencyDays: number; orderQuantity: number; orderBy: string | null; recentDemand: number }[] };
    const read = async (query: string) => ((await api(`/api/forecasting/latest-report/${query}`)).json as { report: Report }).report;
    // A product that sold nothing for 90 days but would need an order is hidden by default.
    const all = await read('?include_inactive=true&page_size=500');
    const active = await read('?page_size=500');
    expect(all.products.length).toBe(all.total);
    expect(active.total + active.inactive).toBe(all.total);
    for (const product of all.products) expect(product.orderQuantity > 0 && product.orderBy !== null).toBe(true);
    expect(active.products.every((product) => product.recentDemand > 0)).toBe(true);
    const urgency = all.products.map((product) => product.urgencyDays);
    expect([...urgency].sort((a, b) => a - b)).toEqual(urgency);
    // Pages of two add up to the whole list, in the same order.
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(active.total / 2); page++) pages.push(...(await read(`?page=${page}&page_size=2`)).products.map((product) => product.styleCode));
    expect(pages).toEqual(active.products.map((product) => product.styleCode));
    expect((await api('/api/forecasting/latest-report/?page=0')).status).toBe(400);
  });

  it('fails a task whose product disappeared, with the reason', async () => {
    // The product is deleted between the request and the run: the worker reports it, no retry loop.
    const taskId = '11111111-1111-4111-8111-111111111111';
    await server.database.db.insertInto('forecast_tasks').values({ id: taskId, style_code: 'GONE-1', forecast_days: 90, status: 'pending', requested_by: null }).execute();
    await server.queue.send(GENERATE_FORECASTS_JOB, { taskId });
    const status = await waitForTask(taskId);
    expect(status.status).toBe('failed');
    expect(status.error).toContain('no longer exists');
  });

  it.each([
    ['an unknown task', '/api/forecasting/status/00000000-0000-4000-8000-000000000000/', 404],
    ['a malformed task id', '/api/forecasting/status/not-a-task/', 404],
    ['an unknown product forecast', '/api/forecasting/forecasts/NOPE-1', 404],
  ])('answers %s with 404', async (_name, path, status) => {
    expect((await api(path)).status).toBe(status);
  });

  it('refuses bad generation requests', async () => {
    expect((await api('/api/forecasting/request-generation/', { style_code: 'NOPE-1' })).status).toBe(404);
    expect((await api('/api/forecasting/request-generation/', { forecast_days: 0 })).status).toBe(400);
    const tooFar = await api('/api/forecasting/request-generation/', { style_code: 'P-1', forecast_days: 400 });
    expect(tooFar.status).toBe(400);
    expect(tooFar.json.detail).toBe('Invalid request: forecast_days: Must be at most 365.');
    expect((await api('/api/forecasting/request-generation/', { style_code: '' })).status).toBe(400);
  });

  it('exposes daily forecasts to SQL as data.product_forecasts', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from data.product_forecasts where demand_lower_95 <= demand and demand <= demand_upper_95`.execute(server.database.db);
    expect(rows[0]?.n).toBeGreaterThanOrEqual(12 * 30);
  });
});
