// ADR 0193 F5: hot cross buns, sold from 1 February to Easter Sunday every year, read over HTTP. The
// season was learnt as calendar dates (to 20 April, 2025's Easter), so a year with an earlier Easter
// sold buns for weeks after it; the season's end now moves with Easter (ADR 0188, amended).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { easterSunday } from '../plain-words/period.ts';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
const shiftDay = (ds: string, offset: number) => new Date(Date.parse(`${ds}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
const FORECAST_DAYS = 365;

/** The days each year from 1 February to Easter Sunday, the last three years, up to yesterday; more on Good Friday. */
function bunSales(): { date: string; quantity: number }[] {
  const year = Number(today.slice(0, 4));
  const sales: { date: string; quantity: number }[] = [];
  for (const y of [year - 2, year - 1, year]) {
    const easter = easterSunday(y);
    for (let ds = `${y}-02-01`; ds <= easter && ds < today; ds = shiftDay(ds, 1)) sales.push({ date: ds, quantity: ds === shiftDay(easter, -2) ? 19 : 4 });
  }
  return sales;
}

describe.each(backends)('a season that ends at Easter, over HTTP, on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const { id } = await db.insertInto('data.products').values({ product_code: 'HCB', name: 'Hot Cross Bun Single', current_stock: 0, unit_cost: 1, lead_time_days: 2 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values(bunSales().map((sale) => ({ product_id: id, ...sale }))).execute();
    // Coffee sold up to yesterday: the catalogue's forecast starts today, not after the buns' last sale.
    const coffee = await db.insertInto('data.products').values({ product_code: 'COFFEE', name: 'Flat White', current_stock: 0, unit_cost: 1, lead_time_days: 2 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values(Array.from({ length: 60 }, (_, i) => ({ product_id: coffee.id, date: shiftDay(today, i - 60), quantity: 40 }))).execute();
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    expect((await client.run()).status).toBe('completed');
  });
  afterAll(() => server.stop());

  it("sells up to the next Easter Sunday and nothing after it, whatever last year's Easter was", async () => {
    const response = await server.request(`/api/forecasting/forecasts/HCB?forecast_days=${FORECAST_DAYS}`, { token });
    expect(response.status, response.text).toBe(200);
    const buns = response.json as unknown as ProductForecastResponse;
    expect(buns.metrics.model.patterns).toContain('season_only');
    expect(buns.metrics.model.description).toMatch(/^Sells in its season only \((1 Feb|31 Jan)–Easter Sunday\)/);
    const sales = buns.forecast.sales;
    // The first Easter the forecast reaches with a fortnight after it (this year's, or next year's).
    const year = Number(today.slice(0, 4));
    const easter = [easterSunday(year), easterSunday(year + 1)].find((day) => day >= sales[0]!.ds && shiftDay(day, 14) <= sales.at(-1)!.ds);
    expect(easter, 'an Easter within the forecast').toBeDefined();
    const between = (from: string, to: string) => sales.filter((row) => row.ds >= from && row.ds <= to);
    // The week before it sells every day, Good Friday most; the fortnight after it, nothing.
    const holyWeek = between(shiftDay(easter!, -6), easter!);
    expect(holyWeek.length).toBe(7);
    expect(holyWeek.every((row) => row.yhat > 0)).toBe(true);
    expect(holyWeek.reduce((best, row) => (row.yhat > best.yhat ? row : best)).ds).toBe(shiftDay(easter!, -2));
    expect(between(shiftDay(easter!, 1), shiftDay(easter!, 14)).map((row) => row.yhat)).toEqual(new Array(14).fill(0));
  });
});
