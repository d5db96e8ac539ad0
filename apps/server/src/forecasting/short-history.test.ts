import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport, ProductForecastResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const day = (t: number) => new Date(Date.parse('2026-09-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);

// New products, a few days of sales and only zeros: each answers a forecast, never a 500.
describe.each(backends)('forecasts of short and empty histories on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    const products = { products: { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } } };
    await upload('products', 'product_code,name,current_stock\nFIVE-1,Five days,30\nZERO-1,Only zeros,30\nSOLD-1,Sold out on day one,0\n', products);
    const rows = [...[4, 6, 5, 3, 7].map((units, t) => `FIVE-1,${day(55 + t)},${units}`), ...Array.from({ length: 60 }, (_, t) => `ZERO-1,${day(t)},0`), `SOLD-1,${day(59)},20`];
    await upload('sales', `product,day,units\n${rows.join('\n')}\n`, { sales: { field_mappings: { product_id: 'product', date: 'day', quantity: 'units' } } });
    await upload('stock_snapshots', `code,day,counted\nSOLD-1,${day(59)},0\n`, { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } } });
    // Added once the sales are in: a new product (one listed all along without a sale is not; never-sold.test.ts).
    await upload('products', 'product_code,name,current_stock\nNEW-1,Never sold,30\n', products);
  });
  afterAll(() => server.stop());

  async function upload(entityType: string, csv: string, entities: object) {
    const form = new FormData();
    form.append('mapping_config', JSON.stringify({ entities }));
    form.append('mapping_name', `${entityType} mapping`);
    form.append('entity_type', entityType);
    form.append('file', new Blob([csv], { type: 'text/csv' }), `${entityType}.csv`);
    const response = await fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  async function forecastOf(code: string): Promise<ProductForecastResponse> {
    const response = await server.request(`/api/forecasting/forecasts/${code}`, { token });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const forecast = response.json as unknown as ProductForecastResponse;
    expect(forecast.forecast.sales).toHaveLength(90);
    for (const row of forecast.forecast.sales) {
      expect(row.yhat_lower).toBeGreaterThanOrEqual(0);
      expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat_lower_80);
      expect(row.yhat_lower_80).toBeLessThanOrEqual(row.yhat);
      expect(row.yhat).toBeLessThanOrEqual(row.yhat_upper_80);
      expect(row.yhat_upper_80).toBeLessThanOrEqual(row.yhat_upper);
    }
    return forecast;
  }

  it('forecasts five days of sales as a simple level with a wide band, labelled short', async () => {
    const forecast = await forecastOf('FIVE-1');
    expect(forecast.metrics.model.history).toBe('short');
    expect(forecast.forecast.sales[0]?.yhat).toBeCloseTo(5, 6);
    expect(forecast.forecast.sales[0]?.yhat_upper).toBeGreaterThan(7);
    expect(forecast.metrics.accuracy.mase).toBeNull();
  });

  it('forecasts a product that sold out on its first day at what it sold, with an order', async () => {
    const forecast = await forecastOf('SOLD-1');
    expect(forecast.metrics.model.history).toBe('short');
    expect(forecast.forecast.sales[0]?.yhat).toBeCloseTo(20, 6);
    expect(forecast.metrics.model.description).toContain('sold out on 1 of them');
    expect(forecast.reorder.orderQuantity).toBeGreaterThan(0);
    expect(forecast.stockouts.length).toBeGreaterThan(0);
  });

  it('forecasts only zeros as zero with a band', async () => {
    const forecast = await forecastOf('ZERO-1');
    expect(forecast.metrics.model.history).toBe('full');
    expect(forecast.forecast.sales.every((row) => row.yhat === 0)).toBe(true);
  });

  it('forecasts a product without sales as having no history', async () => {
    const forecast = await forecastOf('NEW-1');
    expect(forecast.metrics.model.history).toBe('none');
    expect(forecast.forecast.sales[0]?.yhat).toBe(0);
    expect(forecast.forecast.sales[0]?.yhat_upper).toBeGreaterThan(0);
  });

  it('finds a product by its code typed in another case or with spaces around it, as the Data screen reads codes', async () => {
    const forecast = await forecastOf('%20five-1%20');
    expect(forecast.product.styleCode).toBe('FIVE-1');
    const unknown = await server.request('/api/forecasting/forecasts/five-2', { token });
    expect(unknown.status).toBe(404);
  });

  it('runs the whole catalogue without a failed product', async () => {
    const requested = await server.request('/api/forecasting/request-generation/', { token, body: {} });
    const taskId = requested.json.task_id as string;
    const deadline = Date.now() + 60_000;
    let status: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      status = (await server.request(`/api/forecasting/status/${taskId}/`, { token })).json;
      if (status.status === 'completed' || status.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toMatchObject({ status: 'completed', results: { products: 4, failed: [] } });
  });

  it("marks the lists' orders that rest on under four weeks of sales, as the product's advice does", async () => {
    const response = await server.request('/api/forecasting/latest-report/?include_inactive=true&page_size=500', { token });
    const { products } = (response.json as { report: InventoryReport }).report;
    expect(products.find((product) => product.styleCode === 'SOLD-1')).toMatchObject({ shortHistory: true });
    for (const product of products) expect(product.shortHistory, product.styleCode).toBe((await forecastOf(product.styleCode)).metrics.model.history === 'short');
  });
});
