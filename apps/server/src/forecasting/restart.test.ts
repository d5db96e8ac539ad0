// A whole-catalogue run cut off when the server stopped, run again by its job's retry (QA F3; ADR
// 0170), on PGlite and PostgreSQL: the run's task is left as a SIGKILL leaves it (running, its last
// progress at the stop, the products of its stored chunks under it) and runForecastGeneration is
// called as the retry calls it. It goes on after the products it stored, leaves their forecasts as
// they were, and its status says when it stopped and how far it had got; when new sales have moved
// the day to forecast from meanwhile it starts again from the first product, and says that.
// (recovery.test.ts kills a real server process mid-run.)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';
import { runForecastGeneration } from './service.ts';

const HISTORY_DAYS = 60;
const CODES = ['RS-1', 'RS-2', 'RS-3', 'RS-4', 'RS-5', 'RS-6'];
const dayOf = historyUntilYesterday(HISTORY_DAYS);
/** When the server stopped: yesterday at 14:02 UTC. */
const stoppedAt = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + (14 * 60 + 2) * 60_000);
const stoppedDay = stoppedAt.toISOString().slice(0, 10);

describe.each(backends)('a catalogue run restarted after the server stopped on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;

  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) CODES.forEach((code, at) => tillLines.push(`${dayOf(t)},${code},${1 + ((t + at) % 4)}`));
    ({ server, client } = await startShopServer(backend, { products: `Item,Description\n${CODES.map((code) => `${code},Jar ${code}`).join('\n')}\n`, tillLines }));
  });
  afterAll(() => server?.stop());

  type Stored = { code: string; task_id: string | null; generated_at: string };
  const stored = async () =>
    (await sql<Stored>`select p.product_code as code, f.task_id, f.generated_at::text from forecast_results f join data.products p on p.id = f.product_id order by p.id`.execute(server.database.db)).rows;

  /** The last catalogue run, as a SIGKILL after its first three products' chunk was stored would have left it. */
  async function cutOff(): Promise<{ taskId: string; before: Stored[] }> {
    const { rows } = await sql<{ id: string }>`select id from forecast_tasks where style_code is null and status = 'completed' order by created_at desc limit 1`.execute(server.database.db);
    const taskId = rows[0]!.id;
    await sql`update forecast_tasks set status = 'running', results = null, progress_done = 5, updated_at = ${stoppedAt.toISOString()}::timestamptz where id = ${taskId}::uuid`.execute(server.database.db);
    await sql`update forecast_results set task_id = null where product_id in (select id from data.products where product_code in ('RS-4', 'RS-5', 'RS-6'))`.execute(server.database.db);
    return { taskId, before: await stored() };
  }

  it('goes on after the products it stored, and says when it stopped and how many were done before', async () => {
    const { taskId, before } = await cutOff();
    await runForecastGeneration({ db: server.database.db }, { taskId });
    const status = await client.completed(taskId);
    expect(status).toMatchObject({ status: 'completed', progress: { done: 6, total: 6 }, results: { products: 6, failed: [] } });
    expect(status.restart).toEqual({
      stopped_at: stoppedAt.toISOString(),
      done_before: 3,
      total: 6,
      resumed: true,
      message: `Restarted after the server stopped on ${stoppedDay} at 14:02 UTC; 3 of 6 products were done before and are not forecast again.`,
    });
    const after = await stored();
    // The first three are not forecast again; the other three are, by this run.
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after.slice(3).map((row) => row.task_id)).toEqual([taskId, taskId, taskId]);
    expect(after.slice(3).every((row, at) => row.generated_at > (before[at + 3] as Stored).generated_at)).toBe(true);
  });

  it('starts again from the first product when new sales have moved the day to forecast from, and says so', async () => {
    const { taskId, before } = await cutOff();
    await sql`update forecast_results set forecast_start = forecast_start - 1 where task_id = ${taskId}::uuid`.execute(server.database.db);
    await runForecastGeneration({ db: server.database.db }, { taskId });
    const status = await client.completed(taskId);
    expect(status).toMatchObject({ status: 'completed', results: { products: 6 } });
    expect(status.restart).toMatchObject({
      done_before: 3,
      resumed: false,
      message: `Restarted from the first product after the server stopped on ${stoppedDay} at 14:02 UTC; 3 of 6 products had been done, but new sales have moved the first day to forecast since.`,
    });
    const after = await stored();
    expect(after.every((row, at) => row.task_id === taskId && row.generated_at > (before[at] as Stored).generated_at)).toBe(true);
  });

  it('says nothing of a restart for a run that was not cut off', async () => {
    const status = await client.run();
    expect(status).toMatchObject({ status: 'completed', restart: null });
  });
});
