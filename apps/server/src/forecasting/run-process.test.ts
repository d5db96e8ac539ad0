import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../demo/seed.ts';
import { forecastClient } from '../testing/forecast-client.ts';
import { childProcesses } from '../testing/processes.ts';
import { backends, signUpUser, startTestServer, useMigratedDatabase, type TestServer } from '../testing/test-server.ts';
import { catalogueRunProcess, RUN_PROCESS_APPLICATION_NAME } from './run-process.ts';
import { insertCatalogueTask } from './repo.ts';

/** Child processes of this one running the catalogue run's entry point, by pid. */
const runProcesses = () => childProcesses(process.pid).filter((child) => child.command.includes('run-process-main.ts')).map((child) => child.pid);

describe.each(backends)('where a catalogue run takes place, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 6, today: new Date('2026-11-22T00:00:00Z') });
    token = (await signUpUser(server)).access;
  });
  afterAll(async () => {
    await server.stop();
    // Ended with the server.
    expect(runProcesses()).toHaveLength(0);
  });

  it(backend === 'postgres' ? 'runs in a process of its own, kept for the next run' : 'runs in the server (the embedded database lives in it)', async () => {
    const client = forecastClient(server, token);
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 6, failed: [] } });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from forecast_results`.execute(server.database.db);
    expect(rows[0]?.n).toBe(6);
    const first = runProcesses();
    expect(first).toHaveLength(backend === 'postgres' ? 1 : 0);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    expect(runProcesses()).toEqual(first);
  });
});

describe.each(backends.filter((backend) => backend === 'postgres'))('the catalogue run process on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise_run_process');

  it('starts before the first run when asked (the deployment starts it with the server), and that run uses it', async () => {
    const { db, target } = database();
    if (target.kind !== 'postgres') throw new Error('PostgreSQL only');
    const runs = catalogueRunProcess(target.url);
    try {
      runs.start();
      const started = runProcesses();
      expect(started).toHaveLength(1);
      runs.start();
      const taskId = randomUUID();
      await insertCatalogueTask(db, { id: taskId, forecastDays: 30, requestedBy: null });
      await runs.run(taskId);
      expect((await db.selectFrom('forecast_tasks').select(['status']).where('id', '=', taskId).executeTakeFirstOrThrow()).status).toBe('completed');
      expect(runProcesses()).toEqual(started);
    } finally {
      await runs.close();
    }
    expect(runProcesses()).toHaveLength(0);
  });

  it('fails the run it held when it dies, and starts again for the next', async () => {
    const { db, target } = database();
    if (target.kind !== 'postgres') throw new Error('PostgreSQL only');
    const runs = catalogueRunProcess(target.url);
    const taskId = randomUUID();
    await insertCatalogueTask(db, { id: taskId, forecastDays: 30, requestedBy: null });
    // The task's row locked elsewhere: the run waits in its first write, so it is surely mid-run when killed.
    const locker = new pg.Client({ connectionString: target.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select id from forecast_tasks where id = $1 for update', [taskId]);
      const running = runs.run(taskId);
      running.catch(() => {});
      await expect
        .poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${RUN_PROCESS_APPLICATION_NAME} and wait_event_type = 'Lock'`.execute(db)).rows[0]?.n, { timeout: 20_000 })
        .toBe(1);
      const [pid] = runProcesses();
      process.kill(pid as number, 'SIGKILL');
      await expect(running).rejects.toThrow(/ended \(SIGKILL\) before the run did/);
      await locker.query('commit');
      // pg-boss would try the job again: the next run starts a new process and completes the task.
      await runs.run(taskId);
      const task = await db.selectFrom('forecast_tasks').select(['status']).where('id', '=', taskId).executeTakeFirstOrThrow();
      expect(task.status).toBe('completed');
      expect(runProcesses()).toHaveLength(1);
    } finally {
      await locker.end();
      await runs.close();
    }
    expect(runProcesses()).toHaveLength(0);
  });
});
