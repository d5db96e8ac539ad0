// Today's till so far is not a whole day (ADR 0169): at ten in the morning a café supplier has sold
// 3 of the 40 cups it sells a day. The forecast starts today, its history ends yesterday, and the
// 3 do not drag the level down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const HISTORY_DAYS = 200;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const TODAY = dayOf(HISTORY_DAYS);
const YESTERDAY = dayOf(HISTORY_DAYS - 1);

describe.each(backends)("today's sales so far on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) tillLines.push(`${dayOf(t)},CUP-12OZ,${38 + (t % 5)}`);
    tillLines.push(`${TODAY},CUP-12OZ,3`);
    ({ server, client } = await startShopServer(backend, { products: 'Item,Description,On hand\nCUP-12OZ,12oz paper cup,2000\n', productColumns: { current_stock: 'On hand' }, tillLines }));
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 1, failed: [] } });
  });
  afterAll(() => server.stop());

  it('starts the forecast today from a history that ends yesterday', async () => {
    const forecast = await client.forecastOf('CUP-12OZ');
    expect(forecast.metrics.display_window.forecast_start).toBe(YESTERDAY);
    expect(forecast.historical.sales.at(-1)).toEqual({ ds: YESTERDAY, y: 38 + ((HISTORY_DAYS - 1) % 5) });
    expect(forecast.forecast.sales[0]!.ds).toBe(TODAY);
  });

  it("forecasts today and the days after at a whole day's 40, not a level dragged down by the 3 sold so far", async () => {
    const forecast = await client.forecastOf('CUP-12OZ');
    const firstWeek = forecast.forecast.sales.slice(0, 7);
    expect(firstWeek[0]!.ds).toBe(TODAY);
    expect(Math.min(...firstWeek.map((row) => row.yhat))).toBeGreaterThan(37);
    // The count imported this morning opens the projection: today's whole forecast comes off it.
    expect(forecast.forecast.stock[0]!).toMatchObject({ ds: TODAY });
    expect(forecast.forecast.stock[0]!.stock_level).toBeCloseTo(2000 - firstWeek[0]!.yhat, 0);
  });
});
