// A whole-catalogue forecast requested while one is running (ADR 0132): a shop imports its sales,
// which starts a run, and its stock counts a minute later. The counts' request is queued to run
// after the running one, later requests join it, and it reads the counts; joining the running run
// left them out of every forecast until the nightly run.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatusResponse } from '@stockwise/contract';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const HISTORY_DAYS = 60;
const dayOf = historyUntilYesterday(HISTORY_DAYS);

describe.each(backends)('a whole-catalogue run requested during another on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const request = async () => (await server.request('/api/forecasting/request-generation/', { token, body: {} })).json.task_id as string;
  const status = async (taskId: string) => ((await server.request(`/api/forecasting/status/${taskId}/`, { token })).json as unknown as TaskStatusResponse).status;
  /** A run going on elsewhere, as the database shows it: running, and when it last reported progress. */
  async function runningElsewhere(silentFor: string): Promise<string> {
    const id = randomUUID();
    await sql`insert into forecast_tasks (id, style_code, forecast_days, status, progress_total, updated_at) values (${id}, null, 90, 'running', 3, now() - ${silentFor}::interval)`.execute(server.database.db);
    return id;
  }
  const statusOf = async (taskId: string) => (await sql<{ status: string; error: string | null }>`select status, error from forecast_tasks where id = ${taskId}`.execute(server.database.db)).rows[0];

  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) for (const code of ['JAM-1', 'JAM-2', 'JAM-3']) tillLines.push(`${dayOf(t)},${code},${3 + (t % 2)}`);
    ({ server, token, client } = await startShopServer(backend, { products: 'Item,Description\nJAM-1,Strawberry jam\nJAM-2,Apricot jam\nJAM-3,Plum jam\n', tillLines }));
  });
  afterAll(() => server.stop());

  it('queues one run after the running one, which later requests join, and it reads what was imported meanwhile', async () => {
    expect((await client.forecastOf('JAM-1')).forecast.stock).toEqual([]);
    const elsewhere = await runningElsewhere('0 seconds');
    const queued = await request();
    expect(queued).not.toBe(elsewhere);
    // The shop's stock counts, imported during the run: their own request joins the queued one.
    const counts = await importFile(server, token, {
      fileName: 'counts.csv',
      content: `Item,Day,Counted\nJAM-1,${dayOf(HISTORY_DAYS)},40\nJAM-2,${dayOf(HISTORY_DAYS)},0\n`,
      mapping: { field_mappings: { product_id: 'Item', date: 'Day', stock_level: 'Counted' } },
      entityType: 'stock_snapshots',
    });
    expect(counts.status, JSON.stringify(counts.json)).toBe(200);
    expect(await request()).toBe(queued);
    expect((await sql<{ n: number }>`select count(*)::int as n from forecast_tasks where style_code is null and status in ('pending', 'running')`.execute(server.database.db)).rows[0]?.n).toBe(2);
    // It waits while the other runs…
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await status(queued)).toBe('pending');
    // …and runs once it has ended.
    await sql`update forecast_tasks set status = 'completed', updated_at = now() where id = ${elsewhere}`.execute(server.database.db);
    expect(await client.completed(queued)).toMatchObject({ status: 'completed', results: { products: 3, failed: [] } });
    const counted = await client.forecastOf('JAM-1');
    expect(counted.forecast.stock[0]!.stock_level).toBeCloseTo(40 - counted.forecast.sales[0]!.yhat, 2);
    expect((await client.forecastOf('JAM-2')).stockouts).toContainEqual({ date: counted.forecast.sales[0]!.ds, type: 'stockForecast' });
  });

  it('takes over from a run that has stopped reporting progress', async () => {
    const stalled = await runningElsewhere('11 minutes');
    const next = await request();
    expect(await client.completed(next)).toMatchObject({ status: 'completed' });
    expect(await statusOf(stalled)).toEqual({ status: 'failed', error: 'Stopped reporting progress; the next whole-catalogue run replaced it.' });
  });

  it("forecasts a products file's new stock on hand: the import queues a run as a sales import does", async () => {
    const taskIds = async () => (await sql<{ id: string }>`select id from forecast_tasks where style_code is null`.execute(server.database.db)).rows.map((row) => row.id);
    const before = new Set(await taskIds());
    const update = await importFile(server, token, {
      fileName: 'stock-update.csv',
      content: 'Item,Description,On hand\nJAM-3,Plum jam,7\n',
      mapping: { field_mappings: { product_code: 'Item', name: 'Description', current_stock: 'On hand' } },
      entityType: 'products',
    });
    expect(update.status, JSON.stringify(update.json)).toBe(200);
    const queued = (await taskIds()).filter((id) => !before.has(id));
    expect(queued).toHaveLength(1);
    expect(await client.completed(queued[0]!)).toMatchObject({ status: 'completed' });
    const plum = await client.forecastOf('JAM-3');
    expect(plum.forecast.stock[0]!.stock_level).toBeCloseTo(7 - plum.forecast.sales[0]!.yhat, 2);
  });
});
