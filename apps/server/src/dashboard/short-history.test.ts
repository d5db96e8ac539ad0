// A new shop's dashboard (ADR 0070, amendment 2026-12-06): after 3 days of sales its six-month
// projection is drawn from those 3 days, and the dashboard says which days they are — a real
// catalogue run over the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTION_SETTLED_DAYS, type DashboardResponse } from '@stockwise/contract';
import { catalogueRunsSettled, forecastClient, historyUntilYesterday, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)("a new shop's stock projection on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  const dashboard = async () => {
    const response = await server.request('/api/dashboard/', { token });
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as DashboardResponse;
  };
  /** The days before today, yesterday the last: `day(days - 1)` is yesterday. */
  const days = (count: number) => historyUntilYesterday(count);

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
  });
  afterAll(() => server.stop());

  it('says the projection rests on the 3 days of sales a new shop has, and on every day once it has more', async () => {
    const db = server.database.db;
    const day = days(3);
    const { id } = await db.insertInto('data.products').values({ product_code: 'PG-01', name: 'Bio compost 20L', current_stock: 500, unit_cost: 4, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values([0, 1, 2].map((t) => ({ product_id: id, date: day(t), quantity: 10 }))).execute();
    await db.insertInto('data.stock_snapshots').values({ product_id: id, date: day(2), stock_level: 500 }).execute();
    await catalogueRunsSettled(db);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    const early = await dashboard();
    // Six months of stock drawn from 3 days of sales: the history is there to say so.
    expect(early.stockProjectionByUnit[0]?.points).toHaveLength(6);
    expect(early.projectionHistory).toEqual({ from: day(0), to: day(2), days: 3 });
    expect(early.projectionHistory!.days).toBeLessThan(PROJECTION_SETTLED_DAYS);

    // Sales from 40 days back imported later: the same product, the span grows to them.
    const longer = days(40);
    await db.insertInto('data.sales').values(Array.from({ length: 37 }, (_, t) => ({ product_id: id, date: longer(t), quantity: 10 }))).execute();
    await catalogueRunsSettled(db);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    expect((await dashboard()).projectionHistory).toEqual({ from: longer(0), to: day(2), days: 40 });
  });

  it('has no history to say without a forecast', async () => {
    await server.database.db.deleteFrom('dashboard_product_summary').execute();
    expect((await dashboard()).projectionHistory).toBeNull();
  });
});
