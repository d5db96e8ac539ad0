import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { forecastClient, historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const FIRST = Date.parse('2025-12-01T00:00:00Z'); // a Monday
const dateOf = (t: number) => new Date(FIRST + t * DAY_MS);
const isSunday = (t: number) => dateOf(t).getUTCDay() === 0;
/** The shop's till export writes day-first dates. */
const tillDate = (t: number) => {
  const [year, month, day] = dateOf(t).toISOString().slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
};
const HISTORY_DAYS = 365;

// A shop closed on Sundays, its own files imported as they come: transaction lines with day-first
// dates under its own headers. Its steady sellers show the closure; a slow seller, a product with a
// few days of sales and one without any cannot show it from their own sales, and are closed on
// Sundays all the same, because the catalogue run finds the business's closed weekday.
describe.each(backends)("the business's closed weekday on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const token = (await signUpUser(server, { role: 'admin' })).access;
    client = forecastClient(server, token);
    const codes = ['STEADY-1', 'STEADY-2', 'STEADY-3', 'STEADY-4', 'SLOW-1', 'FEW-1', 'NONE-1'];
    const products = await importFile(server, token, {
      fileName: 'artikel.csv',
      content: `Artikel;Bezeichnung;Bestand\n${codes.map((code) => `${code};Item ${code};500`).join('\n')}\n`,
      mapping: { field_mappings: { product_code: 'Artikel', name: 'Bezeichnung', current_stock: 'Bestand' } },
      entityType: 'products',
    });
    expect(products.status, JSON.stringify(products.json)).toBe(200);
    const lines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) {
      if (isSunday(t)) continue;
      for (const [i, code] of ['STEADY-1', 'STEADY-2', 'STEADY-3', 'STEADY-4'].entries()) {
        // Two till lines a day each.
        lines.push(`${tillDate(t)};${code};${3 + ((t + i) % 4)}`, `${tillDate(t)};${code};2`);
      }
      if ((t * 7919) % 11 === 0) lines.push(`${tillDate(t)};SLOW-1;1`);
      if (t >= HISTORY_DAYS - 4) lines.push(`${tillDate(t)};FEW-1;4`);
    }
    const sales = await importFile(server, token, {
      fileName: 'verkaeufe.csv',
      content: `Datum;Artikel;Menge\n${lines.join('\n')}\n`,
      mapping: { field_mappings: { product_id: 'Artikel', date: 'Datum', quantity: 'Menge' } },
      entityType: 'sales',
    });
    expect(sales.status, JSON.stringify(sales.json)).toBe(200);
  });
  afterAll(() => server.stop());

  function expectClosedOnSundays(forecast: ProductForecastResponse) {
    const sundays = forecast.forecast.sales.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() === 0);
    expect(sundays.length).toBeGreaterThan(10);
    for (const row of sundays) expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    expect(forecast.forecast.sales.some((row) => row.yhat > 0)).toBe(true);
    expect(forecast.metrics.model.patterns).toContain('closed_days');
  }

  it('finds the closed weekday in a catalogue run and closes every product on it', async () => {
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 7, failed: [] } });
    const { rows } = await sql<{ calendar: { closedWeekdays: number[] } }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar.closedWeekdays).toEqual([0]);
    for (const code of ['STEADY-1', 'SLOW-1', 'FEW-1']) expectClosedOnSundays(await client.forecastOf(code));
    const few = await client.forecastOf('FEW-1');
    expect(few.metrics.model.history).toBe('short');
  });

  it("forecasts the open days at the open days' demand, not diluted by the closed Sundays", async () => {
    const openDayMean = (forecast: ProductForecastResponse) => {
      const open = forecast.forecast.sales.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() !== 0);
      return open.reduce((sum, row) => sum + row.yhat, 0) / open.length;
    };
    // Four units on Friday, Saturday and Monday, with the closed Sunday between: 4 an open day (3.5 before, ADR 0128),
    // carried through the catalogue's year (ADR 0201 F10). That year is flat but for the product's own four days,
    // an eighth of the catalogue's units on them (4 of about 30): read against them, its level is a little under 4 (3.76).
    const few = openDayMean(await client.forecastOf('FEW-1'));
    expect(few).toBeGreaterThan(3.7);
    expect(few).toBeLessThanOrEqual(4);
    // 3–6 units and 2 more every open day: 6.5 on average.
    for (const code of ['STEADY-1', 'STEADY-2']) {
      const mean = openDayMean(await client.forecastOf(code));
      expect(mean).toBeGreaterThan(6.5 * 0.95);
      expect(mean).toBeLessThan(6.5 * 1.05);
    }
  });
});

// A hardware store open every day (QA6 #14). A slow seller (0.6 a day) happened to sell nothing on
// Tuesdays for the last twelve weeks: by its own sales alone that was a closed Tuesday, forecast 0
// with a zero band. The catalogue's calendar shows Tuesdays trading, so it stays open; an item sold
// Monday to Friday only, at three or more a day, is still closed at weekends.
describe.each(backends)('a shop open every day on %s', (backend) => {
  const TUESDAY = 2;
  const date = historyUntilYesterday(HISTORY_DAYS);
  const weekday = (ds: string) => new Date(`${ds}T00:00:00Z`).getUTCDay();
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    const codes = ['STEADY-1', 'STEADY-2', 'STEADY-3', 'SLOW-1', 'MARKET-1'];
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) {
      const ds = date(t);
      for (const [i, code] of codes.slice(0, 3).entries()) tillLines.push(`${ds},${code},${5 + ((t + i) % 4)}`);
      const lastTwelveWeeks = t >= HISTORY_DAYS - 84;
      if ((t * 7919) % 5 < 3 && !(lastTwelveWeeks && weekday(ds) === TUESDAY)) tillLines.push(`${ds},SLOW-1,1`);
      if (weekday(ds) !== 0 && weekday(ds) !== 6) tillLines.push(`${ds},MARKET-1,${3 + (t % 3)}`);
    }
    ({ server, client } = await startShopServer(backend, { products: `Item,Description\n${codes.map((code) => `${code},Item ${code}`).join('\n')}\n`, tillLines }));
  });
  afterAll(() => server.stop());

  it("keeps a slow seller's empty Tuesdays open, and closes the weekday-only item's weekends", async () => {
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 5, failed: [] } });
    const { rows } = await sql<{ calendar: { closedWeekdays: number[] } }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar.closedWeekdays).toEqual([]);
    const slow = await client.forecastOf('SLOW-1');
    expect(slow.forecast.sales.filter((row) => weekday(row.ds) === TUESDAY).length).toBeGreaterThan(10);
    for (const row of slow.forecast.sales) expect(row.yhat).toBeGreaterThan(0.2);
    expect(slow.metrics.model.patterns).not.toContain('closed_days');
    const market = await client.forecastOf('MARKET-1');
    for (const row of market.forecast.sales) {
      if (weekday(row.ds) === 0 || weekday(row.ds) === 6) expect(row).toMatchObject({ yhat: 0, yhat_upper: 0 });
      else expect(row.yhat).toBeGreaterThan(2);
    }
    expect(market.metrics.model.patterns).toContain('closed_days');
  });
});
