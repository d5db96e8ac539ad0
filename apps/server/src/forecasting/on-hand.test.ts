// What a product has on hand when its forecast starts, through the real server (QA F4, F9): a count
// taken ten days ago less the sales since — the figure the chart's stock line ends at and the
// projection starts from — with the count beside it; a product never counted has neither; one at 0
// counted today is at 0. The report's lists, the dashboard's total and the assistant say the same
// (ADR 0030, amendment 2026-12-04), a legacy row's stored figure without a count row included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay, type ChatMessage, type DashboardResponse, type InventoryReport } from '@stockwise/contract';
import { importFile } from '../testing/uploads.ts';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const HISTORY_DAYS = 60;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const LAST_HISTORY_DAY = dayOf(HISTORY_DAYS - 1);
const COUNTED_ON = dayOf(HISTORY_DAYS - 10);

// One or two units a day, by turns, of each tape.
const tillLines = Array.from({ length: HISTORY_DAYS }, (_, t) => ['TAPE-10D', 'TAPE-NONE', 'TAPE-0'].map((code) => `${dayOf(t)},${code},${1 + (t % 2)}`)).flat();

describe.each(backends)('stock on hand on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  beforeAll(async () => {
    // TAPE-10D and TAPE-NONE come with a blank stock cell (no count); TAPE-0 with 0 counted today.
    ({ server, token, client } = await startShopServer(backend, {
      products: 'Item,Description,On hand\nTAPE-10D,Duct tape,\nTAPE-NONE,Masking tape,\nTAPE-0,Gaffer tape,0\n',
      productColumns: { current_stock: 'On hand' },
      tillLines,
    }));
    const counts = await importFile(server, token, {
      fileName: 'counts.csv',
      content: `Item,Day,Counted\nTAPE-10D,${COUNTED_ON},50\n`,
      mapping: { field_mappings: { product_id: 'Item', date: 'Day', stock_level: 'Counted' } },
      entityType: 'stock_snapshots',
    });
    expect(counts.status, JSON.stringify(counts.json)).toBe(200);
    // A row from before counts were kept: a stored figure, no count row (ADR 0030's migration wrote
    // one for every such row; a direct insert still makes them).
    await server.database.db.insertInto('data.products').values({ product_code: 'TAPE-OLD', name: 'Old tape', current_stock: 40, unit_cost: 2, lead_time_days: 7 }).execute();
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 4, failed: [] } });
  });
  afterAll(() => server.stop());

  it('a product counted ten days ago has that count less the sales since on hand: where the chart ends and the projection starts', async () => {
    const forecast = await client.forecastOf('TAPE-10D');
    // A count is the stock at the end of its day (spec §3's stock line resets on it): the nine days after it came off the shelf.
    let soldSince = 0;
    for (let t = HISTORY_DAYS - 9; t < HISTORY_DAYS; t++) soldSince += 1 + (t % 2);
    expect(forecast.product).toMatchObject({ currentStock: 50, lastCount: { units: 50, date: COUNTED_ON }, onHand: { units: 50 - soldSince, countedUnits: 50, countedOn: COUNTED_ON } });
    expect(forecast.metrics.display_window.forecast_start).toBe(LAST_HISTORY_DAY);
    expect(forecast.historical.stock.at(-1)).toMatchObject({ ds: LAST_HISTORY_DAY, stock_level: 50 - soldSince });
    expect(forecast.forecast.stock[0]!.stock_level).toBeCloseTo(50 - soldSince - forecast.forecast.sales[0]!.yhat, 2);
  });

  it('a product never counted has no count and nothing on hand to tell, not 0', async () => {
    const forecast = await client.forecastOf('TAPE-NONE');
    expect(forecast.product).toMatchObject({ currentStock: 0, lastCount: null, onHand: null });
    expect(forecast.forecast.stock).toEqual([]);
  });

  it('a product counted 0 today has 0 on hand and is out of stock from the first forecast day', async () => {
    const forecast = await client.forecastOf('TAPE-0');
    const today = dayOf(HISTORY_DAYS);
    expect(forecast.product).toMatchObject({ currentStock: 0, lastCount: { units: 0, date: today }, onHand: { units: 0, countedUnits: 0, countedOn: today } });
    expect(forecast.stockouts).toContainEqual({ date: today, type: 'stockForecast' });
  });

  it("the assistant's stock answer says the same as the screen: about what is on hand now, the count beside; never counted, not 0", async () => {
    const ask = async (content: string) => {
      const response = await server.request('/api/assistant/messages/', { token, body: { content, context: { page: 'home', path: '/home' } } });
      expect(response.status, response.text).toBe(200);
      return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
    };
    const { product } = await client.forecastOf('TAPE-10D');
    expect(await ask('How much stock of TAPE-10D do we have?')).toContain(`Duct tape (TAPE-10D) has about ${product.onHand!.units} units on hand now (counted 50 on ${formatDay(COUNTED_ON)})`);
    expect(await ask('How much stock of TAPE-NONE do we have?')).toContain('Masking tape (TAPE-NONE) has not been counted yet: add a stock count on the Data screen or import one.');
    expect(await ask('How much stock of TAPE-0 do we have?')).toContain('Gaffer tape (TAPE-0) has 0 units on hand, worth 0.00 at unit cost.');
  });

  it("a legacy row's stored figure without a count row is no count: the header, the assistant and the dashboard say not counted, not its 40", async () => {
    const forecast = await client.forecastOf('TAPE-OLD');
    expect(forecast.product).toMatchObject({ currentStock: 40, lastCount: null, onHand: null });
    const response = await server.request('/api/assistant/messages/', { token, body: { content: 'How much stock of TAPE-OLD do we have?', context: { page: 'home', path: '/home' } } });
    expect((response.json.messages as ChatMessage[]).at(-1)?.content).toContain('Old tape (TAPE-OLD) has not been counted yet: add a stock count on the Data screen or import one.');
  });

  it("the report's list shows each product's on hand now, the header's figure, not its stored count", async () => {
    const answer = await server.request('/api/forecasting/latest-report/?include_inactive=true&page_size=500', { token });
    expect(answer.status, answer.text).toBe(200);
    const listed = new Map((answer.json.report as InventoryReport).products.map((product) => [product.styleCode, product]));
    // Both counted products need an order (TAPE-0 has nothing; TAPE-10D's 37 units last under a month); the others have no count to advise from.
    expect([...listed.keys()].sort()).toEqual(['TAPE-0', 'TAPE-10D']);
    for (const code of listed.keys()) {
      const { product } = await client.forecastOf(code);
      expect(listed.get(code)?.onHand, code).toEqual(product.onHand);
    }
    expect(listed.get('TAPE-10D')).toMatchObject({ currentStock: 50, onHand: { countedUnits: 50, countedOn: COUNTED_ON } });
    expect(listed.get('TAPE-10D')?.onHand?.units).toBeLessThan(50);
  });

  it("the dashboard's stock total adds up what is on hand now; products never counted add nothing", async () => {
    const { product } = await client.forecastOf('TAPE-10D');
    const dashboard = (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
    expect(dashboard.inventoryStats?.totalInventory).toBe(product.onHand!.units);
    expect(dashboard.inventoryStats?.totalValue).toBeCloseTo(product.onHand!.units * product.unitCost, 2);
  });
});
