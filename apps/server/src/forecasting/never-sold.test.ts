// QA's tablecloths through the real server: a shop imports its range and 200 days of till lines; one
// product of the range never sold. It was listed all along, so it is a product nobody bought — a
// zero forecast and no order — not a launch; a product added after the history is the launch. And a
// product's own advice follows the lists' rule: no demand in the last 90 days, not on the lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { InventoryReport, ProductForecastResponse } from '@stockwise/contract';
import { catalogueRunsSettled, historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const HISTORY_DAYS = 200;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const SELLERS = ['TBL-1', 'TBL-2', 'TBL-3', 'TBL-4', 'TBL-5'];

describe.each(backends)('a product that never sold on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) SELLERS.forEach((code, i) => tillLines.push(`${dayOf(t)},${code},${3 + i + (t % 4)}`));
    const range = SELLERS.map((code) => `${code},Table runner ${code},30,14`).join('\n');
    ({ server, token, client } = await startShopServer(backend, {
      products: `Item,Description,On hand,Lead time\n${range}\nTBL-DEAD,Linen tablecloth,0,14\n`,
      productColumns: { current_stock: 'On hand', lead_time_days: 'Lead time' },
      tillLines,
    }));
    // Then the shop adds a product it is about to launch: new, relative to the history.
    const added = await importFile(server, token, {
      fileName: 'new-items.csv',
      content: 'Item,Description,On hand,Lead time\nTBL-NEW,Velvet tablecloth,0,14\n',
      mapping: { field_mappings: { product_code: 'Item', name: 'Description', current_stock: 'On hand', lead_time_days: 'Lead time' } },
      entityType: 'products',
    });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    await catalogueRunsSettled(server.database.db);
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 7, failed: [] } });
  });
  afterAll(() => server.stop());

  it('forecasts a product listed all through the history without a sale at zero, with nothing to order and no stockout', async () => {
    const dead = await client.forecastOf('TBL-DEAD');
    expect(dead.metrics.model).toMatchObject({ name: 'Zero' });
    expect(dead.metrics.model.description).toMatch(/^No sales in the 200 days of history/);
    expect(dead.forecast.sales.every((row) => row.yhat === 0)).toBe(true);
    expect(dead.stockouts).toEqual([]);
    expect(dead.reorder).toMatchObject({ orderQuantity: 0, orderBy: null });
    expect(dead.activity).toEqual({ recentDemand: 0, inactiveDays: 90 });
  });

  it("forecasts a product added after the history as new; the range's own first weeks are not launches", async () => {
    const { rows } = await sql<{ product_code: string; sales_up_to: string }>`
      select p.product_code, l.sales_up_to from product_listings l join data.products p on p.id = l.product_id`.execute(server.database.db);
    expect(rows).toEqual([{ product_code: 'TBL-NEW', sales_up_to: dayOf(HISTORY_DAYS - 1) }]);
    const launch = await client.forecastOf('TBL-NEW');
    expect(launch.metrics.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    // Five products selling from the shop's first day are its range, not five launches to learn from.
    expect(launch.metrics.model.description).toMatch(/^No sales history yet: no demand is forecast/);
    expect(launch.activity.recentDemand).toBe(0);
  });

  it("agrees with the lists: a product is on the latest report exactly when its own forecast orders and it sold in the last 90 days", async () => {
    const read = async (inactive: boolean) =>
      ((await server.request(`/api/forecasting/latest-report/?page_size=50&include_inactive=${inactive}`, { token })).json as { report: InventoryReport }).report.products.map((p) => p.styleCode);
    const [listed, withInactive] = await Promise.all([read(false), read(true)]);
    const forecasts: ProductForecastResponse[] = await Promise.all([...SELLERS, 'TBL-DEAD', 'TBL-NEW'].map((code) => client.forecastOf(code)));
    const orders = forecasts.filter((f) => f.reorder.orderQuantity > 0 && f.reorder.orderBy !== null);
    expect(listed.sort()).toEqual(orders.filter((f) => f.activity.recentDemand > 0).map((f) => f.product.styleCode).sort());
    expect(withInactive.sort()).toEqual(orders.map((f) => f.product.styleCode).sort());
    expect(listed).not.toContain('TBL-DEAD');
    expect(withInactive).not.toContain('TBL-DEAD');
  });
});
