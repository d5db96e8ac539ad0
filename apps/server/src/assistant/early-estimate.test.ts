// A product added last week to a shop with months of sales (ADR 0070, amendment 2026-12-06 (2)): the
// dashboard's projection is no early estimate, but the product's stock-out day rests on its own few
// days of sales, and the assistant says so where it states that day, in the dashboard's words — a
// real catalogue run over the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyEstimateWords, formatDay, PROJECTION_SETTLED_DAYS, type ChatMessage, type DashboardResponse } from '@stockwise/contract';
import { catalogueRunsSettled, forecastClient, historyUntilYesterday, insertSteadySeller, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('a product added last week to an older shop, on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  /** The last 5 days, yesterday the last: the new product's sales. */
  const week = historyUntilYesterday(5);
  const ask = async (content: string) => {
    const response = await server.request('/api/assistant/messages/', { token, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    const db = server.database.db;
    // 120 days of sales: the shop's projection has settled.
    await insertSteadySeller(db, { product_code: 'OLD-1', name: 'Garden twine', current_stock: 300, unit_cost: 2, lead_time_days: 7 }, 5);
    const { id } = await db.insertInto('data.products').values({ product_code: 'NEW-1', name: 'Seed tray', current_stock: 200, unit_cost: 3, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data.stock_snapshots').values({ product_id: id, date: week(0), stock_level: 200 }).execute();
    await db.insertInto('data.sales').values([0, 1, 2, 3, 4].map((t) => ({ product_id: id, date: week(t), quantity: 20 }))).execute();
    await catalogueRunsSettled(db);
    expect(await client.run()).toMatchObject({ status: 'completed' });
  });
  afterAll(() => server.stop());

  it("says the new product's stock-out day is an early estimate from its 5 days of sales, and nothing of the older product's", async () => {
    const dashboard = (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
    // The shop-wide projection rests on 120 days: no early estimate there.
    expect(dashboard.projectionHistory!.days).toBeGreaterThanOrEqual(PROJECTION_SETTLED_DAYS);
    // The product's own forecast is a level of its few days, which the Forecasting screen reads.
    expect((await client.forecastOf('NEW-1')).metrics.model.history).toBe('short');

    const early = `An early estimate: drawn from 5 days of sales (${formatDay(week(0))} – ${formatDay(week(4))}). It settles once there are 4 weeks of sales.`;
    expect(earlyEstimateWords({ from: week(0), to: week(4), days: 5 })).toBe(early);
    const answer = await ask('when does NEW-1 run out?');
    expect(answer).toMatch(/^Seed tray \(NEW-1\) is forecast to run out on \d{1,2} \w{3} \d{4}\. /);
    expect(answer.split('\n')[0]).toBe(`${answer.split('. ')[0]}. ${early}`);
    // Asked of both, each line says its own.
    const both = await ask('when do NEW-1 and OLD-1 run out?');
    const lines = both.split('\n');
    expect(lines.find((line) => line.startsWith('Seed tray'))).toContain(early);
    expect(lines.find((line) => line.startsWith('Garden twine'))).not.toContain('early estimate');
  });
});
