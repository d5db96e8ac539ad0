// The shop's own closed days (ADR 0171): a Manchester wholesaler closed on 25 and 26 December every
// year (which its history shows) says it is also closed on Monday 28 December 2026, the substitute
// bank holiday for the 26th, and on 4 January 2027 for its stock-take. Administrators set them,
// every approved role reads them, a date that is none is refused naming it, and the forecast sells
// nothing on them — one product forecast now, and every product of a catalogue run.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { forecastClient, seedShopClosedAtChristmas, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpEachRole, startTestServer, type TestServer } from '../testing/test-server.ts';
import { NO_SHOP_ZONE } from '../testing/shop-zone.ts';

const SUBSTITUTE = { date: '2026-12-28', note: 'Bank holiday (substitute)' };
const STOCK_TAKE = { date: '2027-01-04', note: 'Stock-take' };

describe.each(backends)("the shop's closed days on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let admin: string;
  let editor: string;
  let viewer: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ admin, editor, viewer } = await signUpEachRole(server));
    client = forecastClient(server, admin);
    await seedShopClosedAtChristmas(server.database.db, { prefix: 'MAN', count: 4, stock: 2000 });
  });
  afterAll(() => server.stop());

  const put = (token: string | undefined, body: unknown) => server.request('/api/shop/closed-dates/', { method: 'PUT', body, ...(token ? { token } : {}) });
  const closedNow = async () => (await server.request('/api/shop/', { token: viewer })).json.closedDates;

  it('keeps the days an administrator gives, by date, each once, and a viewer reads them', async () => {
    expect(await closedNow()).toEqual([]);
    const saved = await put(admin, { closedDates: [STOCK_TAKE, { date: ' 2026-12-28 ', note: ' Bank holiday (substitute) ' }, { date: '2026-12-28', note: 'again' }, { date: '2025-08-25', note: '' }] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toEqual({ currency: null, currencyVersion: '0', closedDates: [{ date: '2025-08-25', note: null }, SUBSTITUTE, STOCK_TAKE], closedDatesVersion: '1', ...NO_SHOP_ZONE });
    expect(await closedNow()).toEqual([{ date: '2025-08-25', note: null }, SUBSTITUTE, STOCK_TAKE]);
  });

  it('lets only administrators change them (403 for an editor and a viewer, 401 without a sign-in)', async () => {
    for (const token of [editor, viewer]) {
      const refused = await put(token, { closedDates: [] });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('forbidden');
    }
    expect((await put(undefined, { closedDates: [] })).status).toBe(401);
    expect(await closedNow()).toHaveLength(3);
  });

  it.each([
    ['a day written otherwise', '28/12/2026', "closedDates.1.date: '28/12/2026' is not a date: write it as YYYY-MM-DD, such as 2026-12-28."],
    ['no real day', '2026-02-30', 'closedDates.1.date: 2026-02-30 is not a real date: February 2026 has 28 days.'],
    ['a year mistyped', '2126-12-28', 'closedDates.1.date: 2126-12-28 is more than 5 years ahead: check the year.'],
  ])('refuses %s with a 400 naming it, and keeps the days saved', async (_name, date, detail) => {
    const refused = await put(admin, { closedDates: [SUBSTITUTE, { date, note: null }] });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toMatchObject({ code: 'validation_error', detail: `Invalid request: ${detail}` });
    expect(await closedNow()).toHaveLength(3);
  });

  it('refuses more than 366 days', async () => {
    const days = Array.from({ length: 367 }, (_, i) => ({ date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10) }));
    const refused = await put(admin, { closedDates: days });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.detail).toContain('At most 366 closed days');
    expect(await closedNow()).toHaveLength(3);
  });

  function expectClosed(forecast: ProductForecastResponse, closed: string[], open: string[]) {
    const sales = new Map(forecast.forecast.sales.map((row) => [row.ds, row]));
    const stock = new Map(forecast.forecast.stock.map((row) => [row.ds, row]));
    const dayBefore = (ds: string) => new Date(Date.parse(ds) - 86_400_000).toISOString().slice(0, 10);
    for (const ds of closed) {
      expect(sales.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
      expect(stock.get(ds)?.stock_level).toBe(stock.get(dayBefore(ds))?.stock_level);
    }
    for (const ds of open) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(4);
  }

  it("forecasts a product zero on the shop's closed days, the learned holidays as before", async () => {
    expectClosed(await client.forecastOf('MAN-1'), ['2026-12-25', '2026-12-26', '2026-12-28', '2027-01-04'], ['2026-12-24', '2026-12-29', '2027-01-05']);
  });

  // Amendment 2026-12-05: the shop's days are the shop's in the forecast's words, the learned ones public holidays.
  it("describes the shop's days by date and note as the shop's, beside the public holidays", async () => {
    const { model } = (await client.forecastOf('MAN-2')).metrics;
    expect(model.patterns).toEqual(expect.arrayContaining(['holidays', 'shop_closed']));
    expect(model.description).toContain(" Closed on public holidays. Closed on 28 Dec (Bank holiday (substitute)) and 4 Jan (Stock-take), as the shop's settings say.");
    // The 2025 day is past: the forecast does not name it.
    expect(model.description).not.toContain('25 Aug');
  });

  it('forecasts every product of a catalogue run so, and the next run follows a change of the days', async () => {
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 4, failed: [] } });
    expectClosed(await client.forecastOf('MAN-4'), ['2026-12-28', '2027-01-04'], ['2026-12-29']);
    const { rows } = await sql<{ calendar: object }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar).not.toHaveProperty('closedOn');

    expect((await client.forecastOf('MAN-3')).metrics.model.description).toContain("Closed on 28 Dec (Bank holiday (substitute)) and 4 Jan (Stock-take), as the shop's settings say.");

    expect((await put(admin, { closedDates: [SUBSTITUTE] })).status).toBe(200);
    expect(await client.run({ style_code: 'MAN-4' })).toMatchObject({ status: 'completed' });
    const changed = await client.forecastOf('MAN-4');
    expectClosed(changed, ['2026-12-28'], ['2027-01-04']);
    expect(changed.metrics.model.description).toContain("Closed on 28 Dec (Bank holiday (substitute)), as the shop's settings say.");
  });
});
