// A forecast job whose worker process is killed (SIGKILL) mid-run is retried after a restart and
// completes once, with every product forecast, saying it was restarted: a whole-catalogue run, and
// a list's run (ADR 0187) started by a supplier's orders recorded at once. The two backends run at
// the same time (most of a test is waiting for a missed heartbeat); on each, the two tests share one
// seeded database, one after the other (docs/adr/0199).
import { sql } from 'kysely';
import { afterAll, describe, it } from 'vitest';
import type { RecordedOrders, TaskStatusResponse } from '@stockwise/contract';
import { openDatabase } from '../db/database.ts';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function processEnvironment(backend: (typeof backends)[number]) {
  const database = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-disk', { namePrefix: 'stockwise-recovery' });
  cleanups.push(database.drop);
  return { env: { DEMO_DATA: 'true', JOB_HEARTBEAT_SECONDS: '10', JOB_SUPERVISE_INTERVAL_SECONDS: '2', ...database.env }, target: database.target };
}

async function call(server: ServerProcess, route: string, init: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.url}${route}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The demo's server, signed in; its calls and a task's status. */
async function demoServer(env: Record<string, string>) {
  const server = await startServerProcess(env);
  cleanups.push(() => server.kill());
  const token = (await call(server, '/api/token/', { body: { username: 'demo', password: 'stockwise-demo' } })).access as string;
  return { server, token, call: (route: string, body?: unknown) => call(server, route, { token, body }), status: async (taskId: string) => (await call(server, `/api/forecasting/status/${taskId}/`, { token })) as unknown as TaskStatusResponse };
}

/**
 * Starts runs (`start`) until one is seen running, kills the server then, starts it again and waits
 * for the killed run to end: its final status, and how its job and its stored forecasts look.
 */
async function killMidRunAndRestart(env: Record<string, string>, target: Awaited<ReturnType<typeof processEnvironment>>['target'], start: (demo: Awaited<ReturnType<typeof demoServer>>) => Promise<string>) {
  let demo = await demoServer(env);
  // Kill while the task runs; a run that finished before the poll saw it is simply tried again.
  let killedTask: string | null = null;
  for (let attempt = 0; attempt < 5 && !killedTask; attempt++) {
    const taskId = await start(demo);
    for (;;) {
      const current = await demo.status(taskId);
      if (current.status === 'running') {
        await demo.server.kill();
        killedTask = taskId;
        break;
      }
      if (current.status === 'completed' || current.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  if (!killedTask) throw new Error('no run was seen running in five tries');

  demo = await demoServer(env);
  const deadline = Date.now() + 180_000;
  let final = await demo.status(killedTask as string);
  while (final.status !== 'completed' && final.status !== 'failed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    final = await demo.status(killedTask as string);
  }
  await demo.server.stop();

  const database = await openDatabase(target);
  const task = await database.db.selectFrom('forecast_tasks').select(['job_id']).where('id', '=', killedTask as string).executeTakeFirstOrThrow();
  const { rows } = await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job where id = ${task.job_id}::uuid`.execute(database.db);
  const forecasts = await database.db.selectFrom('forecast_results').select((eb) => eb.fn.countAll<number>().as('n')).where('task_id', '=', killedTask as string).executeTakeFirstOrThrow();
  await database.close();
  return { final, job: rows[0], forecasts: Number(forecasts.n) };
}

describe.concurrent.each(backends)('forecast job recovery on %s', (backend) => {
  // The demo's data seeded once for both tests (a server's first start seeds it).
  let environment: ReturnType<typeof processEnvironment> | null = null;
  const sharedEnvironment = () => (environment ??= processEnvironment(backend));

  it('retries a job killed mid-run and completes it once', { concurrent: false, timeout: 300_000 }, async ({ expect }) => {
    const { env, target } = await sharedEnvironment();
    const { final, job, forecasts } = await killMidRunAndRestart(env, target, async (demo) => (await demo.call('/api/forecasting/request-generation/', {})).task_id as string);
    expect(final).toMatchObject({ status: 'completed', error: null, progress: { done: 240, total: 240 } });
    // The retry says it is one, and when the run stopped (ADR 0170).
    expect(final.restart).toMatchObject({ total: 240, message: expect.stringMatching(/^Restarted .*after the server stopped at \d\d:\d\d UTC/) });
    expect(final.results?.products).toBe(240);
    expect(forecasts).toBe(240);
    expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
  });

  it("retries a list's job killed mid-run and completes it once (ADR 0187)", { concurrent: false, timeout: 300_000 }, async ({ expect }) => {
    const { env, target } = await sharedEnvironment();
    const LISTED = 200;
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const { final, job, forecasts } = await killMidRunAndRestart(env, target, async (demo) => {
      // The demo's own catalogue run ends first: a list would join it while it waits to start.
      for (let tries = 0; tries < 600 && !(await demo.call('/api/forecasting/latest-report/')).success; tries++) await new Promise((resolve) => setTimeout(resolve, 250));
      const products = (await demo.call(`/api/records/tables/products/data/?page_size=${LISTED}`)).results as { product_code: string }[];
      const recorded = (await demo.call('/api/order-advice/orders/batch/', { orders: products.map(({ product_code }) => ({ styleCode: product_code, quantity: 1, expectedDate: inAMonth })) })) as unknown as RecordedOrders;
      return recorded.taskId!;
    });
    expect(final).toMatchObject({ status: 'completed', error: null, progress: { done: LISTED, total: LISTED }, results: { style_code: null, products: LISTED } });
    expect(final.restart).toMatchObject({ total: LISTED, message: expect.stringMatching(/^Restarted .*after the server stopped at \d\d:\d\d UTC/) });
    expect(forecasts).toBe(LISTED);
    expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
  });
});
