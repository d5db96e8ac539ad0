// Forecast requests (#11): catalogue requests merged (one queued behind a running one, ADR 0132), single products not behind a catalogue run,
// a per-user rate limit, deleted products skipped, task errors without SQL text, and a failure that
// cannot be stored logged as an interruption.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TaskStatusResponse } from '@stockwise/contract';
import { seedDemoData } from '../demo/seed.ts';
import * as repo from './repo.ts';
import { GENERATE_FORECASTS_JOB, GENERATE_PRODUCT_FORECAST_JOB, runForecastGeneration } from './service.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('forecast requests on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend, { FORECAST_REQUESTS_PER_MINUTE: '1000' });
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 300, today: new Date('2026-11-22T00:00:00Z') });
    token = (await signUpUser(server, { role: 'viewer' })).access;
    // Seeding 300 products' history on PGlite beside other suites at a load of 30 took over the default 120 s.
  }, 300_000);
  afterAll(() => server?.stop());

  const request = (styleCode?: string) => server.request('/api/forecasting/request-generation/', { token, body: styleCode ? { style_code: styleCode } : {} });
  const status = async (taskId: string) => (await server.request(`/api/forecasting/status/${taskId}/`, { token })).json as unknown as TaskStatusResponse;
  async function settled(taskId: string): Promise<TaskStatusResponse> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const current = await status(taskId);
      if (current.status === 'completed' || current.status === 'failed' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const firstCode = async () => (await sql<{ product_code: string }>`select product_code from data.products order by id limit 1`.execute(server.database.db)).rows[0]!.product_code;

  it('merges catalogue requests while one is queued, queues one behind a running one, and runs a single product beside it', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => request()));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Made together: the queued run, and — for any made after it started — one queued behind it.
    const ids = [...new Set(responses.map((r) => r.json.task_id as string))];
    expect(ids.length).toBeLessThanOrEqual(2);
    const catalogueTask = responses[0]!.json.task_id as string;

    // Requested while it runs (it may have read the products before the data this request follows):
    // one run queued behind it, which the next requests join (ADR 0132).
    await expect.poll(async () => (await status(catalogueTask)).status, { interval: 20, timeout: 30_000 }).toBe('running');
    const behind = (await request()).json.task_id as string;
    expect(behind).not.toBe(catalogueTask);
    expect((await request()).json.task_id).toBe(behind);
    expect(ids.filter((id) => id !== catalogueTask).every((id) => id === behind)).toBe(true);

    // A single product has a queue of its own: it is taken while the 300-product run is still going,
    // not behind it. Told by the queue's own stamps (its job started before the catalogue's job
    // completed), not by which of the two a loaded machine happened to finish first.
    const single = (await request(await firstCode())).json.task_id as string;
    expect((await settled(single)).status).toBe('completed');
    const jobOf = async (queue: string, taskId: string) => server.queue.boss.getJobById(queue, (await repo.findTask(server.database.db, taskId))!.job_id!);
    const singleStarted = new Date((await jobOf(GENERATE_PRODUCT_FORECAST_JOB, single))!.startedOn).getTime();
    const catalogueJob = await jobOf(GENERATE_FORECASTS_JOB, catalogueTask);
    const catalogueCompleted = catalogueJob?.completedOn ? new Date(catalogueJob.completedOn).getTime() : Infinity;
    expect(singleStarted).toBeLessThan(catalogueCompleted);

    expect(await settled(catalogueTask)).toMatchObject({ status: 'completed', results: { products: 300, failed: [] } });
    expect(await settled(behind)).toMatchObject({ status: 'completed', results: { products: 300, failed: [] } });
    // Finished: the next request starts a new run.
    const next = (await request()).json.task_id as string;
    expect([catalogueTask, behind]).not.toContain(next);
    expect((await settled(next)).status).toBe('completed');
    // Three 300-product runs: 13 s on PGlite on a quiet machine, over the default 60 s at a load of 33.
  }, 240_000);

  it('skips a product deleted while a catalogue run is going, and the run completes', async () => {
    const taskId = (await request()).json.task_id as string;
    const gone = (await sql<{ id: number }>`select id from data.products order by id desc limit 1`.execute(server.database.db)).rows[0]!.id;
    // As an admin's cascade delete does; the row lock first, so the run cannot store a forecast in between.
    await server.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('data.products').select('id').where('id', '=', gone).forUpdate().execute();
      for (const table of ['data.sales', 'data.stock_snapshots', 'data.deliveries', 'forecast_results'] as const) await trx.deleteFrom(table).where('product_id', '=', gone).execute();
      await trx.deleteFrom('data.products').where('id', '=', gone).execute();
    });
    const done = await settled(taskId);
    expect(done).toMatchObject({ status: 'completed', error: null, results: { failed: [] } });
    expect(done.results?.products).toBeGreaterThanOrEqual(298);
  });

  it('stores only the rows of products that still exist (a product deleted between forecast and write)', async () => {
    const [existing] = (await sql<{ id: number }>`select id from data.products order by id limit 1`.execute(server.database.db)).rows;
    const row = (productId: number) => ({ productId, resultJson: '{"forecast":[],"stock":[]}', cumDemand: [1, 2], cumVariance: [1, 2], firstStockout: null, orderQuantity: 0 });
    expect(await repo.storeForecastRows(server.database.db, [row(Number(existing!.id)), row(987_654_321)], { taskId: null, forecastDays: 7, forecastStart: '2026-11-22', inputsReadAt: new Date().toISOString() })).toBe(1);
    const { rows: summaries } = await sql<{ cum_demand: number[] }>`select cum_demand from dashboard_product_summary where product_id = ${existing!.id}`.execute(server.database.db);
    expect(summaries).toEqual([{ cum_demand: [1, 2] }]);
  });

  it('fails a task with a stable message and an error id, never SQL text', async () => {
    await sql`alter table data.deliveries rename to deliveries_elsewhere`.execute(server.database.db);
    try {
      const failed = await settled((await request()).json.task_id as string);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/error id [0-9a-f]{12}/);
      expect(failed.error).not.toMatch(/relation|deliveries|select|from|\bat\b/i);
    } finally {
      await sql`alter table data.deliveries_elsewhere rename to deliveries`.execute(server.database.db);
    }
  });

  it('logs a failure it cannot store as an interruption, leaving the task to its job’s next run', async () => {
    const db = server.database.db;
    const taskId = randomUUID();
    await repo.insertTask(db, { id: taskId, styleCode: await firstCode(), forecastDays: 30, requestedBy: null });
    // The run fails, and so does storing its failure (as when the server's database closes under it).
    await sql`alter table data.deliveries rename to deliveries_elsewhere`.execute(db);
    await sql`create function refuse_failed_task() returns trigger language plpgsql as $$ begin raise exception 'database closing'; end $$`.execute(db);
    await sql`create trigger refuse_failed_task before update on forecast_tasks for each row when (new.status = 'failed') execute function refuse_failed_task()`.execute(db);
    const logged: string[] = [];
    const capture = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      await expect(runForecastGeneration({ db }, { taskId })).rejects.toThrow(/database closing/);
    } finally {
      capture.mockRestore();
      await sql`drop trigger refuse_failed_task on forecast_tasks`.execute(db);
      await sql`drop function refuse_failed_task()`.execute(db);
      await sql`alter table data.deliveries_elsewhere rename to deliveries`.execute(db);
    }
    const messages = logged.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(['forecast task interrupted; its job will run again']);
    expect((await repo.findTask(db, taskId))?.status).not.toBe('failed');
    // Its next run completes it.
    await runForecastGeneration({ db }, { taskId });
    expect((await repo.findTask(db, taskId))?.status).toBe('completed');
  });
});

describe.each(backends)('forecast request rate limit on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { FORECAST_REQUESTS_PER_MINUTE: '3' });
  });
  afterAll(() => server.stop());

  it('answers 429 with Retry-After above the per-user limit, and other users are not affected', async () => {
    const [first, second] = [(await signUpUser(server, { role: 'viewer' })).access, (await signUpUser(server, { role: 'viewer' })).access];
    const ask = (token: string) => server.request('/api/forecasting/request-generation/', { token, body: {} });
    for (let i = 0; i < 3; i++) expect((await ask(first)).status).toBe(200);
    const refused = await ask(first);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'throttled' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await ask(second)).status).toBe(200);
  });
});
