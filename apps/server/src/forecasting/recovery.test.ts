// A forecast job whose worker process is killed (SIGKILL) mid-run is retried after a restart and
// completes once, with every product forecast, saying it was restarted.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskStatusResponse } from '@stockwise/contract';
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

describe.each(backends)('forecast job recovery on %s', (backend) => {
  it('retries a job killed mid-run and completes it once', { timeout: 300_000 }, async () => {
    const { env, target } = await processEnvironment(backend);
    let server = await startServerProcess(env);
    cleanups.push(() => server.kill());
    const signIn = async () => (await call(server, '/api/token/', { body: { username: 'demo', password: 'stockwise-demo' } })).access as string;
    let token = await signIn();
    const status = async (taskId: string) => (await call(server, `/api/forecasting/status/${taskId}/`, { token })) as unknown as TaskStatusResponse;

    // Kill while the task runs; a run that finished before the poll saw it is simply tried again.
    let killedTask: string | null = null;
    for (let attempt = 0; attempt < 5 && !killedTask; attempt++) {
      const taskId = (await call(server, '/api/forecasting/request-generation/', { token, body: {} })).task_id as string;
      for (;;) {
        const current = await status(taskId);
        if (current.status === 'running') {
          await server.kill();
          killedTask = taskId;
          break;
        }
        if (current.status === 'completed' || current.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    expect(killedTask).not.toBeNull();

    server = await startServerProcess(env);
    token = await signIn();
    const deadline = Date.now() + 180_000;
    let final = await status(killedTask as string);
    while (final.status !== 'completed' && final.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      final = await status(killedTask as string);
    }
    expect(final).toMatchObject({ status: 'completed', error: null, progress: { done: 240, total: 240 } });
    // The retry says it is one, and when the run stopped (ADR 0170).
    expect(final.restart).toMatchObject({ total: 240, message: expect.stringMatching(/^Restarted .*after the server stopped at \d\d:\d\d UTC/) });
    expect(final.results?.products).toBe(240);
    await server.stop();

    const database = await openDatabase(target);
    const task = await database.db.selectFrom('forecast_tasks').select(['job_id']).where('id', '=', killedTask as string).executeTakeFirstOrThrow();
    const { rows } = await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job where id = ${task.job_id}::uuid`.execute(database.db);
    const forecasts = await database.db.selectFrom('forecast_results').select((eb) => eb.fn.countAll<number>().as('n')).where('task_id', '=', killedTask as string).executeTakeFirstOrThrow();
    await database.close();
    expect(Number(forecasts.n)).toBe(240);
    expect(rows[0]).toMatchObject({ state: 'completed', retry_count: 1 });
  });
});
