// API overhead benchmark (issue "The API at the speed of the database"): the real server (its own
// process, ROLE=api) against a bare node:http + driver server (bare-server.ts, its own process)
// that runs the same statements and writes the same JSON, on the demo data (~141,000 sales rows).
// Three requests: a sorted page of sales, a filtered page, a product's stored forecast. Both servers
// are measured in the same run, alternating, at 1 connection (sequential requests, timed here) and 32
// (autocannon): req/s, p50, p99 and each process's CPU time per request (from /proc/<pid>/stat). PostgreSQL at
// BENCH_DATABASE_URL (default: the local server); PGlite at 1 connection beside it.
// `--suppliers N`: N more products, each from a supplier of its own, beside the demo's (a catalogue of
// many suppliers: what a product's forecast read folds its supplier's spellings among, ADR 0186).
//   flock /tmp/heavy.lock node bench/api-overhead/run.ts [--seconds 5] [--rounds 2] [--no-pglite] [--cpu-prof-dir DIR] [--reference DIR] [--suppliers N]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { createScratchDatabase, postgresReachable, type ScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    'no-pglite': { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of the API server (PostgreSQL run) there when it stops: see profile-summary.ts. */
    'cpu-prof-dir': { type: 'string' },
    /** Another checkout (e.g. `git worktree add /tmp/ref main`): its server is measured too, as "before", in the same run. */
    reference: { type: 'string' },
    /** Products added to the demo's, each with a supplier of its own ("Bench Supplier 1", …): a catalogue of many suppliers. */
    suppliers: { type: 'string', default: '0' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const EXTRA_SUPPLIERS = Number(args.suppliers);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEMO_PASSWORD = 'bench demo password';
const TICK_MS = 1000 / 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

type Target = { url: string; pid: number };
type Scenario = { label: string; path: string };
type Figures = { rps: number; p50: number; p99: number; cpuMsPerRequest: number };

/** User + system CPU time of a process so far, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** One connection: requests one after another over a keep-alive socket, timed here for sub-ms p50s. */
async function measureSequential(target: Target, scenario: Scenario, token: string): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const getOnce = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${target.url}${scenario.path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
          if (response.statusCode !== 200) {
            response.setEncoding('utf8').on('data', (text: string) => reject(new Error(`${scenario.label}: HTTP ${response.statusCode}: ${text.slice(0, 300)}`)));
            return;
          }
          response.resume().on('end', () => resolve());
        })
        .on('error', reject);
    });
  for (let warm = 0; warm < 20; warm++) await getOnce();
  const samples: number[] = [];
  const before = cpuMs(target.pid);
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    const start = performance.now();
    await getOnce();
    samples.push(performance.now() - start);
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuMs(target.pid) - before;
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { rps: samples.length / elapsed, p50: at(0.5), p99: at(0.99), cpuMsPerRequest: cpu / samples.length };
}

/** Many connections: autocannon (whole-millisecond latencies). */
async function measureConcurrent(target: Target, scenario: Scenario, connections: number, token: string): Promise<Figures> {
  const before = cpuMs(target.pid);
  const result = await autocannon({ url: `${target.url}${scenario.path}`, connections, duration: SECONDS, timeout: 30, headers: { authorization: `Bearer ${token}` } });
  const cpu = cpuMs(target.pid) - before;
  if (result.non2xx || result.errors || result.timeouts) throw new Error(`${scenario.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMsPerRequest: cpu / Math.max(1, result.requests.total) };
}

const measure = (target: Target, scenario: Scenario, connections: number, token: string) =>
  connections === 1 ? measureSequential(target, scenario, token) : measureConcurrent(target, scenario, connections, token);

async function startBare(env: Record<string, string>): Promise<Target & { child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.ts')], { env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  // A failed run must not leave the server behind.
  process.once('exit', () => child.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number, child, stop: async () => (child.kill('SIGTERM'), await exited) };
}

async function getJson(url: string, token: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, text: await response.text() };
}

async function signIn(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }) });
  return ((await response.json()) as { access: string }).access;
}

async function startApi(database: ScratchDatabase, extraEnv: Record<string, string> = {}, mainScript?: string): Promise<ServerProcess> {
  const server = await startServerProcess(
    { ...database.env, DEMO_DATA: 'true', DEMO_PASSWORD, ROLE: 'api', LOG_LEVEL: 'warn', ...extraEnv },
    { startupTimeoutMs: 600_000, ...(mainScript ? { mainScript } : {}) },
  );
  process.once('exit', () => server.child.kill('SIGKILL'));
  return server;
}

/** Seeds the demo data through the real server (its first start) and stores one product's forecast. */
async function seed(database: ScratchDatabase): Promise<{ code: string; productId: number }> {
  const server = await startApi(database);
  const token = await signIn(server);
  const first = JSON.parse((await getJson(`${server.url}/api/records/tables/products/data/?page=1&page_size=1&sort_by=id`, token)).text) as { results: { id: number; product_code: string }[] };
  const product = first.results[0] as { id: number; product_code: string };
  // The first read of a never-forecast product forecasts and stores it; later reads are the stored row.
  const forecast = await getJson(`${server.url}/api/forecasting/forecasts/${product.product_code}`, token);
  if (forecast.status !== 200) throw new Error(`forecast: HTTP ${forecast.status} ${forecast.text.slice(0, 200)}`);
  await server.stop();
  if (EXTRA_SUPPLIERS > 0) await addSuppliers(database, EXTRA_SUPPLIERS);
  return { code: product.product_code, productId: product.id };
}

/** `count` products more, each with a supplier of its own, no sales: the catalogue's suppliers, not its sales, grow. */
async function addSuppliers(database: ScratchDatabase, count: number) {
  const opened = await openDatabase(database.target);
  try {
    await sql`
      insert into data.products (product_code, name, category, supplier)
      select 'BENCH-SUP-' || n, 'Bench product ' || n, 'Bench', 'Bench Supplier ' || n from generate_series(1, ${count}::int) n`.execute(opened.db);
  } finally {
    await opened.close();
  }
}

const scenariosFor = (code: string, productId: number): Scenario[] => [
  { label: 'sorted page (date desc, indexed)', path: '/api/records/tables/sales/data/?page=1&page_size=50&sort_by=date&sort_dir=desc' },
  {
    label: `filtered page (product_id = ${productId}, date desc)`,
    path: `/api/records/tables/sales/data/?page=1&page_size=50&sort_by=date&sort_dir=desc&filters_json=${encodeURIComponent(JSON.stringify({ product_id: productId }))}`,
  },
  { label: `stored forecast (${code})`, path: `/api/forecasting/forecasts/${code}` },
];

/** Both servers must give the same answer, or the comparison means nothing. */
async function checkSameAnswers(api: Target, bare: Target, scenarios: Scenario[], token: string, lines: string[]) {
  for (const scenario of scenarios) {
    const [fromApi, fromBare] = await Promise.all([getJson(`${api.url}${scenario.path}`, token), getJson(`${bare.url}${scenario.path}`, token)]);
    if (fromApi.status !== 200 || fromBare.status !== 200) throw new Error(`${scenario.label}: HTTP ${fromApi.status} (API) / ${fromBare.status} (bare): ${fromBare.text.slice(0, 300)}`);
    const [apiJson, bareJson] = [JSON.parse(fromApi.text) as Record<string, unknown>, JSON.parse(fromBare.text) as Record<string, unknown>];
    if (!isDeepStrictEqual(apiJson, bareJson)) {
      const differing = [...new Set([...Object.keys(apiJson), ...Object.keys(bareJson)])].filter((key) => !isDeepStrictEqual(apiJson[key], bareJson[key]));
      const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 300);
      throw new Error(`${scenario.label}: the bare server's answer differs from the API's in ${differing.map((key) => `${key} (API ${shown(apiJson[key])}, bare ${shown(bareJson[key])})`).join('; ')}`);
    }
    lines.push(`  ${scenario.label}: same JSON (${fromApi.text.length} bytes API, ${fromBare.text.length} bytes bare${fromApi.text === fromBare.text ? ', byte for byte' : ''})`);
  }
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

async function runPostgres(table: string[], notes: string[]) {
  const database = await createScratchDatabase('postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-bench-api' });
  try {
    const { code, productId } = await seed(database);
    // Settled statistics, as autovacuum leaves them: the unfiltered count is the pg_class estimate.
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    await client.query('vacuum analyze data.sales, data.stock_snapshots, data.deliveries, data.products, forecast_results');
    const salesRows = Number((await client.query<{ n: string }>('select count(*) as n from data.sales')).rows[0]?.n);
    await client.end();
    notes.push(`PostgreSQL: ${salesRows.toLocaleString('en')} sales rows`);
    const profileDir = args['cpu-prof-dir'];
    const server = await startApi(database, profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}` } : {});
    const token = await signIn(server);
    const bare = await startBare({ DATABASE_URL: database.env.DATABASE_URL as string });
    const api: Target = { url: server.url, pid: server.child.pid as number };
    const scenarios = scenariosFor(code, productId);
    await checkSameAnswers(api, bare, scenarios, token, notes);
    const reference = args.reference ? await startApi(database, {}, path.resolve(args.reference, 'apps/server/src/main.ts')) : null;
    const targets: [string, Target][] = [['api', api], ['bare', bare]];
    if (reference) targets.push(['before', { url: reference.url, pid: reference.child.pid as number }]);
    const results = new Map<string, Figures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of scenarios) {
        for (const connections of [1, 32]) {
          // Alternating, and the order rotates each round, so no server always runs first.
          for (const [name, target] of [...targets.slice(round % targets.length), ...targets.slice(0, round % targets.length)]) {
            const key = `${scenario.label}|${connections}|${name}`;
            results.set(key, [...(results.get(key) ?? []), await measure(target, scenario, connections, token)]);
          }
        }
      }
    }
    const best = (key: string) => (results.get(key) ?? []).reduce((a, b) => (b.rps > a.rps ? b : a));
    for (const scenario of scenarios) {
      for (const connections of [1, 32]) {
        const a = best(`${scenario.label}|${connections}|api`);
        const b = best(`${scenario.label}|${connections}|bare`);
        const before = reference ? best(`${scenario.label}|${connections}|before`) : null;
        table.push(
          row([
            'postgres',
            scenario.label,
            connections,
            Math.round(a.rps),
            Math.round(b.rps),
            `**${Math.round((100 * a.rps) / b.rps)} %**`,
            `${f2(a.p50)} / ${f2(b.p50)}`,
            `${f1(a.p99)} / ${f1(b.p99)}`,
            `${f2(a.cpuMsPerRequest)} / ${f2(b.cpuMsPerRequest)}`,
            before ? `${Math.round(before.rps)} (${Math.round((100 * before.rps) / b.rps)} %), ${f2(before.p50)} ms, ${f2(before.cpuMsPerRequest)} ms` : '-',
          ]),
        );
      }
    }
    await reference?.stop();
    await bare.stop();
    await server.stop();
  } finally {
    await database.drop();
  }
}

/** PGlite serves one statement at a time in the server's own process: one connection, API then bare (one process may open the data directory). */
async function runPglite(table: string[], notes: string[]) {
  const database = await createScratchDatabase('pglite-disk', { namePrefix: 'stockwise-bench-api' });
  try {
    const { code, productId } = await seed(database);
    const server = await startApi(database);
    const token = await signIn(server);
    const scenarios = scenariosFor(code, productId);
    const api: Target = { url: server.url, pid: server.child.pid as number };
    const apiFigures: Figures[] = [];
    for (const scenario of scenarios) apiFigures.push(await measure(api, scenario, 1, token));
    await server.stop();
    const bare = await startBare({ DATA_DIR: database.env.DATA_DIR as string });
    for (const [index, scenario] of scenarios.entries()) {
      const a = apiFigures[index] as Figures;
      const b = await measure(bare, scenario, 1, token);
      table.push(row(['pglite', scenario.label, 1, Math.round(a.rps), Math.round(b.rps), `${Math.round((100 * a.rps) / b.rps)} %`, `${f2(a.p50)} / ${f2(b.p50)}`, `${f1(a.p99)} / ${f1(b.p99)}`, `${f2(a.cpuMsPerRequest)} / ${f2(b.cpuMsPerRequest)}`, '-']));
    }
    notes.push('PGlite: API measured first, then the bare server on the same data directory (not alternating).');
    await bare.stop();
  } finally {
    await database.drop();
  }
}

console.log(`API overhead benchmark: demo data${EXTRA_SUPPLIERS ? ` and ${EXTRA_SUPPLIERS} products of as many suppliers` : ''}, ${SECONDS} s per measurement, ${ROUNDS} rounds (best round shown), autocannon`);
const table = [
  '| database | request | conn | API req/s | bare req/s | API / bare | p50 ms API / bare | p99 ms API / bare | CPU ms/req API / bare | before (--reference): req/s (/ bare), p50, CPU/req |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
const notes: string[] = [];
if (await postgresReachable(postgresUrl)) {
  await runPostgres(table, notes);
  // Printed now too: the PGlite part takes a while.
  if (!args['no-pglite']) console.log(table.join('\n'));
} else notes.push(`PostgreSQL at ${postgresUrl} unreachable: skipped`);
if (!args['no-pglite']) await runPglite(table, notes);
console.log(notes.join('\n'));
console.log(table.join('\n'));
