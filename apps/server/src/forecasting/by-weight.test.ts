// A product sold by weight (ADR 0176): a deli's cheddar, sold in fractions of a kilo and counted as
// 8.5 kg. Its forecast keeps the fractions (continuous bands, ADR 0104 point 5), its stock
// projection starts at 8.5, and its order is rounded up to a gram, not to a whole kilo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { catalogueRunsSettled } from '../testing/forecast-client.ts';
import { importFile } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
// 0.6–1.4 kg a day, busier at weekends, in the scale's grams.
const kilos = (t: number) => (600 + ((t * 137) % 500) + (t % 7 >= 5 ? 300 : 0)) / 1000;

describe.each(backends)('the forecast of a product sold by weight on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    const upload = async (entityType: string, content: string, entities: object) => {
      const result = await importFile(server, token, { fileName: `${entityType}.csv`, content, mapping: { entities }, entityType });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
    };
    await upload('products', 'code,name\nCHE-001,Cheddar mature\n', { products: { field_mappings: { product_code: 'code', name: 'name' } } });
    const lines = Array.from({ length: 120 }, (_, t) => `CHE-001,${daysAgo(120 - t)},${kilos(t)}`);
    await upload('sales', `code,day,kg\n${lines.join('\n')}\n`, { sales: { field_mappings: { product_id: 'code', date: 'day', quantity: 'kg' }, decimal_separator: '.' } });
    await upload('stock_snapshots', `code,day,kg\nCHE-001,${daysAgo(1)},8.5\n`, { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'kg' } } });
    // The imports' runs end first: read before the count's run, the forecast is the one without stock (seen on a loaded machine).
    await catalogueRunsSettled(server.database.db);
  });
  afterAll(() => server.stop());

  it('forecasts fractions of a kilo with continuous bands, projects the stock from 8.5 kg and orders to the gram', async () => {
    const response = await server.request('/api/forecasting/forecasts/CHE-001', { token });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const forecast = response.json as unknown as ProductForecastResponse;
    const sales = forecast.forecast.sales;
    expect(sales.length).toBeGreaterThan(0);
    for (const row of sales) for (const value of [row.yhat, row.yhat_lower, row.yhat_upper]) expect(Number.isFinite(value)).toBe(true);
    // Whole-unit bands would be integers; a by-weight product's are not.
    expect(sales.some((row) => !Number.isInteger(row.yhat_upper) || !Number.isInteger(row.yhat_lower))).toBe(true);
    const mean = sales.slice(0, 28).reduce((sum, row) => sum + row.yhat, 0) / 28;
    expect(mean).toBeGreaterThan(0.6);
    expect(mean).toBeLessThan(1.4);
    const firstStock = forecast.forecast.stock[0]?.stock_level as number;
    expect(firstStock).toBeLessThan(8.5);
    expect(firstStock).toBeGreaterThan(8.5 - 2);
    const { orderQuantity, reorderPoint } = forecast.reorder;
    expect(orderQuantity).toBeGreaterThan(0);
    for (const quantity of [orderQuantity, reorderPoint]) expect(Math.round(quantity * 1000) / 1000).toBe(quantity);
    expect(Number.isInteger(orderQuantity) && Number.isInteger(reorderPoint)).toBe(false);
  });
});
