// A buyer's horizon (ADR 0162, amendment 2026-12-04 horizon): a product's forecast read over 180 or
// 365 days is forecast then and not stored, so the order lists keep the catalogue run's 90 days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport, ProductForecastResponse } from '@stockwise/contract';
import { DEFAULT_REVIEW_PERIOD_DAYS } from '@stockwise/forecast';
import { seedDemoData } from '../demo/seed.ts';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

describe.each(backends)('forecast horizons on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  let codes: string[];
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 6, today: new Date('2026-01-12T00:00:00Z') });
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    expect(await client.run()).toMatchObject({ status: 'completed', results: { forecast_days: 90, products: 6 } });
    codes = ((await api('/api/records/tables/products/data/?page_size=6')).json.results as { product_code: string }[]).map((row) => row.product_code);
  });
  afterAll(() => server.stop());

  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const forecastOver = async (code: string, days: number) => {
    const response = await api(`/api/forecasting/forecasts/${code}?forecast_days=${days}`);
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as ProductForecastResponse;
  };
  const report = async () => (await api('/api/forecasting/latest-report/?include_inactive=true&page_size=500')).json.report as InventoryReport;

  it.each([180, 365])('reads a product over %i days: the same first 90 days and orders, the days after them, the stored forecast and the lists unchanged', async (days) => {
    const before = await report();
    let coversPastHorizon = 0;
    for (const code of codes) {
      const stored = await client.forecastOf(code);
      const longer = await forecastOver(code, days);
      const start = longer.metrics.display_window.forecast_start;
      expect(start).toBe(stored.metrics.display_window.forecast_start);
      expect(longer.forecast.sales).toHaveLength(days);
      expect(longer.forecast.sales.at(-1)?.ds).toBe(addDays(start, days));
      if (stored.forecast.stock.length) expect(longer.forecast.stock).toHaveLength(days);
      // A longer look adds days after the 90; it does not change them.
      longer.forecast.sales.slice(0, 90).forEach((row, i) => expect(row.yhat).toBeCloseTo(stored.forecast.sales[i]?.yhat as number, 6));
      longer.forecast.stock.slice(0, 90).forEach((row, i) => expect(row.stock_level).toBeCloseTo(stored.forecast.stock[i]?.stock_level as number, 6));
      // Every order due within the 90 days is the lists' order, its cover (lead time and review
      // period) past the 90 days included: the run forecasts demand that far for the advice (the
      // demo's OFF-1004 once the demo closed on Christmas Day: 847 stored, 1082 over 180 days).
      if (stored.reorder.orderBy) {
        expect(longer.reorder, code).toMatchObject({ orderBy: stored.reorder.orderBy, orderQuantity: stored.reorder.orderQuantity, reorderPoint: stored.reorder.reorderPoint });
        if (stored.reorder.orderBy > addDays(start, 90 - stored.reorder.leadTimeDays - DEFAULT_REVIEW_PERIOD_DAYS)) coversPastHorizon++;
      }
      expect((await client.forecastOf(code)).forecast.sales).toHaveLength(90);
    }
    // The case the lists once understated is among them.
    expect(coversPastHorizon).toBeGreaterThan(0);
    expect(await report()).toEqual(before);
  });

  it('downloads the forecast over the horizon shown', async () => {
    const workbook = await api(`/api/forecasting/forecasts/${codes[0]}/export/?format=xlsx&forecast_days=180`);
    expect(workbook.status).toBe(200);
    expect(workbook.headers.get('content-type')).toContain('spreadsheetml');
  });

  it.each([
    ['0', 'Must be at least 7'],
    ['366', 'Must be at most 365'],
    ['abc', 'forecast_days: Must be a whole number of days.'],
    ['1.5', 'forecast_days: Must be a whole number of days.'],
    ['', 'forecast_days'],
  ])('refuses a forecast read over %j days with a 400 naming the field', async (days, words) => {
    for (const path of [`/api/forecasting/forecasts/${codes[0]}?forecast_days=${days}`, `/api/forecasting/forecasts/${codes[0]}/export/?format=xlsx&forecast_days=${days}`]) {
      const response = await api(path);
      expect(response.status, response.text).toBe(400);
      expect(response.json.detail).toContain('forecast_days');
      expect(response.json.detail).toContain(words);
    }
  });

  it.each([
    [366, 'Must be at most 365.'],
    ['abc', 'Must be a whole number of days.'],
    [1.5, 'Must be a whole number of days.'],
    [-90, 'Must be at least 7.'],
    [null, 'Must be at least 7.'],
  ])('refuses a generation over %j days with a 400 naming the field', async (days, words) => {
    const response = await api('/api/forecasting/request-generation/', { style_code: codes[0], forecast_days: days });
    expect(response.status, response.text).toBe(400);
    expect(response.json.detail).toBe(`Invalid request: forecast_days: ${words}`);
  });

  it.each([180, 365])('generates and stores one product over %i days on request (spec route)', async (days) => {
    const status = await client.run({ style_code: codes[1], forecast_days: days });
    expect(status).toMatchObject({ status: 'completed', results: { style_code: codes[1], forecast_days: days, products: 1, failed: [] } });
    expect((await client.forecastOf(codes[1] as string)).forecast.sales).toHaveLength(days);
  });
});
