// A shop's empty shelves through the real server: a steady seller with nothing on hand (or fewer
// than nothing: sold before it was counted) is out of stock from the first forecast day, and its
// forecast, the latest report and the order advice say so together; an empty shelf that nothing is
// expected to sell from is no stockout.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport } from '@stockwise/contract';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const HISTORY_DAYS = 120;
// The stock on hand imported with the products is today's count, which opens the forecast.
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const FORECAST_START = dayOf(HISTORY_DAYS);
const LEAD_TIME_DAYS = 10;

describe.each(backends)('empty shelves on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) for (const code of ['GLUE-0', 'GLUE-NEG', 'GLUE-40']) tillLines.push(`${dayOf(t)},${code},${2 + (t % 3)}`);
    tillLines.push(`${dayOf(0)},DEAD-0,1`, `${dayOf(0)},DEAD-0,-1`);
    ({ server, token, client } = await startShopServer(backend, {
      products: `Item,Description,On hand,Lead time\nGLUE-0,PVA glue,0,${LEAD_TIME_DAYS}\nGLUE-NEG,Wood glue,0,${LEAD_TIME_DAYS}\nGLUE-40,Contact glue,40,${LEAD_TIME_DAYS}\nDEAD-0,Old stock,0,${LEAD_TIME_DAYS}\n`,
      productColumns: { current_stock: 'On hand', lead_time_days: 'Lead time' },
      tillLines,
    }));
    // Fewer than nothing is no count an import or the Data screen takes any more (ADR 0011's amendment of 2026-12-04): a figure stored before that, or by SQL.
    await sql`update data.stock_snapshots set stock_level = -2 where product_id = (select id from data.products where product_code = 'GLUE-NEG')`.execute(server.database.db);
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 4, failed: [] } });
  });
  afterAll(() => server.stop());

  it('a steady seller with nothing on hand runs out on the first forecast day, with an order to place that day', async () => {
    for (const code of ['GLUE-0', 'GLUE-NEG']) {
      const forecast = await client.forecastOf(code);
      expect(forecast.forecast.stock[0]!.stock_level).toBeLessThan(0);
      expect(forecast.stockouts).toContainEqual({ date: FORECAST_START, type: 'stockForecast' });
      expect(forecast.reorder).toMatchObject({ orderBy: FORECAST_START });
      expect(forecast.reorder.orderQuantity).toBeGreaterThan(20);
    }
    // A stocked one runs out when its stock does, as before.
    const stocked = await client.forecastOf('GLUE-40');
    expect(stocked.stockouts.find((item) => item.type === 'stockForecast')!.date > FORECAST_START).toBe(true);
  });

  it('the report lists the empty shelves first, out since the first forecast day, ten days late to order', async () => {
    const response = await server.request('/api/forecasting/latest-report/?page_size=50', { token });
    const report = (response.json as { report: InventoryReport }).report;
    expect(report.products.slice(0, 2).map((p) => p.styleCode).sort()).toEqual(['GLUE-0', 'GLUE-NEG']);
    // The low-stock sentence's date: the most urgent order's (QA F10).
    expect(report.first_order_by).toBe(FORECAST_START);
    for (const product of report.products.slice(0, 2)) {
      expect(product).toMatchObject({ firstStockout: FORECAST_START, stockoutType: 'stockForecast', orderBy: FORECAST_START, urgencyDays: -LEAD_TIME_DAYS });
    }
    expect(report.products.map((p) => p.styleCode)).not.toContain('DEAD-0');
  });

  it('an empty shelf nothing is expected to sell from does not run out', async () => {
    const dead = await client.forecastOf('DEAD-0');
    expect(dead.forecast.sales.every((row) => row.yhat === 0)).toBe(true);
    expect(dead.stockouts.filter((item) => item.type === 'stockForecast')).toEqual([]);
  });
});
