// Scheduling and crashes with real server processes (node apps/server/src/main.ts) on one database:
// on PostgreSQL two processes with the same schedule (each due run happens once: requests counted
// at the source), on PGlite one. A run missed while every process was down runs once on start, not
// once per missed slot. A worker killed (SIGKILL) mid-run leaves the integration failed, not
// running, with the run logged and its committed batches kept whole; the next run completes.
// The four tests run at the same time: each has its own database and source, and most of each is
// waiting for a cron minute or a missed heartbeat (docs/adr/0199).
import { sql } from 'kysely';
import { afterAll, describe, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { sendJson, startEndpointServer } from '../testing/endpoint-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { callJson, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { backends } from '../testing/test-server.ts';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const call = callJson;

const admin = { username: `admin_${process.pid}`, password: 'Correct horse battery 42' };
const signIn = async (server: ServerProcess) => (await call(server, '/api/token/', { body: admin })).access as string;
/** The first account of an empty database is the admin. */
async function adminToken(server: ServerProcess): Promise<string> {
  await call(server, '/api/accounts/register/', { body: admin });
  return signIn(server);
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const minuteOf = (time: number) => Math.floor(time / 60_000);

describe.concurrent.each(backends)('scheduled runs across processes on %s', (backend) => {
  it('runs each due occurrence once however many processes run, and a missed one once on start', { timeout: 240_000 }, async ({ expect }) => {
    const source = await startEndpointServer();
    cleanups.push(() => source.close());
    source.route('/tick', (_request, response) => sendJson(response, []));
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-disk', { namePrefix: 'stockwise-schedule' });
    cleanups.push(scratch.drop);
    const env = { ...scratch.env, DEMO_DATA: 'false', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', JOB_CRON_INTERVAL_SECONDS: '2' };
    // PGlite is one process on its data directory; PostgreSQL takes several.
    const processes = backend === 'postgres' ? await Promise.all([startServerProcess(env), startServerProcess(env)]) : [await startServerProcess(env)];
    for (const server of processes) cleanups.push(() => server.kill());
    const [first] = processes as [ServerProcess];
    const token = await adminToken(first);
    const created = await call(first, '/api/integrations/scheduled/', {
      token,
      body: { endpoint: `${source.origin}/tick`, enabled: true, schedule_frequency: 'custom', cron_expression: '* * * * *', mapping_selection: 'shop_export_json', target_entity: 'products' },
    });
    const id = created.id as number;

    // Every minute is due: wait for one occurrence, then long enough for any second process's copy.
    await until(() => source.requestsTo('/tick').length > 0, 90_000, 'the first scheduled run');
    const dueMinute = minuteOf(source.requestsTo('/tick')[0]?.at ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const inDueMinute = source.requestsTo('/tick').filter((r) => minuteOf(r.at) === dueMinute);
    expect(inDueMinute).toHaveLength(1);
    const runs = ((await call(first, `/api/integrations/scheduled/${id}/logs/`, { token })) as { results: { trigger: string }[] }).results;
    expect(runs.length).toBe(source.requestsTo('/tick').length);
    expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);

    // Hourly; then every process is down for three hours (as pg-boss's last cron pass, the
    // schedule's age and the integration's last run say): three hourly slots were missed, and one run makes up for them.
    // Hourly at half an hour from now, not at minute 0: pg-boss files an occurrence under its minute
    // for good (completed jobs included), so had the every-minute runs above passed the top of the
    // hour, the catch-up of that hour's slot would be taken as already sent.
    const hourlyMinute = (new Date().getUTCMinutes() + 30) % 60;
    await call(first, `/api/integrations/scheduled/${id}/`, { token, method: 'PUT', body: { schedule_frequency: 'custom', cron_expression: `${hourlyMinute} * * * *` } });
    for (const server of processes) await server.stop();
    // (PGlite's data directory is opened by one process at a time: only now, with the servers stopped.)
    const database = await openDatabase(scratch.target);
    await sql`update pgboss.version set cron_on = now() - interval '3 hours'`.execute(database.db);
    await sql`update pgboss.schedule set created_on = now() - interval '4 hours' where name = 'integrations.run' and key = ${String(id)}`.execute(database.db);
    await sql`update integrations set last_run_time = last_run_time - interval '3 hours' where id = ${id}`.execute(database.db);
    await database.close();
    const before = source.requestsTo('/tick').length;
    const restarted = await startServerProcess(env);
    cleanups.push(() => restarted.kill());
    await until(() => source.requestsTo('/tick').length > before, 60_000, 'the missed run');
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect(source.requestsTo('/tick').length).toBe(before + 1);
    const status = await call(restarted, `/api/integrations/scheduled/${id}/status/`, { token: await signIn(restarted) });
    expect(status).toMatchObject({ status: 'idle', enabled: true });
    expect(Date.parse(status.next_run_time as string)).toBeGreaterThan(Date.now());
    await restarted.stop();
  });
});

describe.concurrent.each(backends)('a worker killed mid-run on %s', (backend) => {
  it('is marked failed and logged on restart, keeps its committed batches whole, and the next run completes', { timeout: 180_000 }, async ({ expect }) => {
    const source = await startEndpointServer();
    cleanups.push(() => source.close());
    const pages = 12;
    // Ten records a page, a page every quarter second: a run of about three seconds.
    source.route('/slow-pages', async (request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      await new Promise((resolve) => setTimeout(resolve, 250));
      const records = page > pages ? [] : Array.from({ length: 10 }, (_, i) => ({ sku: `KILL-${String((page - 1) * 10 + i).padStart(4, '0')}`, title: `Item ${page}.${i}`, stock: { on_hand: i } }));
      sendJson(response, records);
    });
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-disk', { namePrefix: 'stockwise-kill' });
    cleanups.push(scratch.drop);
    // pg-boss holds the killed run's job active until its heartbeat is missed; the next run of the
    // integration (one active job per integration) starts once pg-boss has noticed.
    const env = { ...scratch.env, DEMO_DATA: 'false', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', JOB_HEARTBEAT_SECONDS: '10', JOB_SUPERVISE_INTERVAL_SECONDS: '2' };
    let server = await startServerProcess(env);
    cleanups.push(() => server.kill());
    let token = await adminToken(server);
    const created = await call(server, '/api/integrations/scheduled/', {
      token,
      body: { endpoint: `${source.origin}/slow-pages`, pagination: 'page_parameter', batch_size: 4, rate_limit: 6000, mapping_selection: 'shop_export_json', target_entity: 'products' },
    });
    const id = created.id as number;
    await call(server, `/api/integrations/scheduled/${id}/run/`, { token, body: {} });
    // Killed after a few pages, in the middle of the run.
    await until(() => source.requestsTo('/slow-pages').length >= 4, 60_000, 'the run to be under way');
    await server.kill();
    const requestsBeforeKill = source.requestsTo('/slow-pages').length;
    expect(requestsBeforeKill).toBeLessThan(pages + 1);

    server = await startServerProcess(env);
    token = await signIn(server);
    const status = await call(server, `/api/integrations/scheduled/${id}/status/`, { token });
    expect(status).toMatchObject({ status: 'failed', last_error_message: expect.stringMatching(/^Interrupted: the server stopped during the run/) });
    const logs = (await call(server, `/api/integrations/scheduled/${id}/logs/`, { token })) as { results: Record<string, number | string | null>[] };
    expect(logs.results).toHaveLength(1);
    const [killed] = logs.results;
    expect(killed).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/^Interrupted/), finished_at: expect.any(String) });

    // What was committed is whole batches, and exactly what the log counted.
    const database = await openDatabase(scratch.target);
    const stored = async () => Number((await sql<{ n: number }>`select count(*)::int as n from data.products where product_code like 'KILL-%'`.execute(database.db)).rows[0]?.n);
    const kept = await stored();
    await database.close();
    expect(kept).toBe(killed?.rows_inserted);
    // Batches of four (across pages): never a part of one.
    expect(kept % 4).toBe(0);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(pages * 10);

    await call(server, `/api/integrations/scheduled/${id}/run/`, { token, body: {} });
    await until(async () => (await call(server, `/api/integrations/scheduled/${id}/status/`, { token })).status === 'idle', 60_000, 'the next run');
    const after = (await call(server, `/api/integrations/scheduled/${id}/logs/`, { token })) as { results: Record<string, number>[] };
    expect(after.results[0]).toMatchObject({ status: 'success', rows_inserted: pages * 10 - kept, rows_updated: kept });
    await server.stop();
    const reopened = await openDatabase(scratch.target);
    cleanups.push(() => reopened.close());
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from data.products where product_code like 'KILL-%'`.execute(reopened.db)).rows[0]?.n)).toBe(pages * 10);
  });
});
