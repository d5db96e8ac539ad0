// Whole-catalogue forecast benchmark (issue "Forecasting end to end"): the demo catalogue and a
// generated catalogue of N products with two years of daily sales, forecast by the real server
// (its own process, job queue, worker threads on every core). Prints wall time, products/s, the
// server's peak RSS, and GET /api/forecasting/forecasts/{code} latency alone and while the batch runs.
//   node bench/forecast-batch/run.ts [--products 10000] [--backends pglite,postgres]
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { TaskStatusResponse } from '@stockwise/contract';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { products: { type: 'string', default: '10000' }, backends: { type: 'string', default: 'pglite,postgres' } } });
const GENERATED_PRODUCTS = Number(args.products);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PROBE_PRODUCTS = 20;

/** N products, 730 days of sales with weekly and yearly seasonality; every fifth product intermittent. */
async function generateCatalogue(target: DatabaseTarget, products: number) {
  const database = await openDatabase(target);
  await migrateToLatest(database.db);
  const started = performance.now();
  await sql`select setseed(0.42)`.execute(database.db);
  await sql`insert into data.products (product_code, name, category, current_stock, unit_cost, lead_time_days)
    select 'GEN-' || lpad(i::text, 6, '0'), 'Generated product ' || i, 'Generated', 40 + (i * 37) % 600, 1 + (i % 100), 7 + (i % 14)
    from generate_series(1, ${products}) as i`.execute(database.db);
  await sql`insert into data.sales (product_id, date, quantity)
    select p.id, d::date, q.quantity
    from data.products p
    cross join generate_series(current_date - 730, current_date - 1, interval '1 day') as d
    cross join lateral (select case
        when p.id % 5 = 0 then (case when random() < 0.15 then 1 + floor(random() * 4) else 0 end)
        else greatest(0, round((3 + p.id % 40) * (1 + 0.3 * sin(2 * pi() * extract(doy from d) / 365.25))
             * (case extract(isodow from d) when 5 then 1.15 when 6 then 1.3 when 7 then 0.85 else 1 end)
             * (0.7 + 0.6 * random())))
      end::int as quantity) as q
    where q.quantity > 0`.execute(database.db);
  await sql`insert into data.stock_snapshots (product_id, date, stock_level) select id, current_date - 1, current_stock from data.products`.execute(database.db);
  await sql`analyze`.execute(database.db);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(database.db);
  await database.close();
  console.log(`  generated ${products.toLocaleString()} products, ${rows[0]?.n.toLocaleString()} sales rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const peakRssMiB = (server: ServerProcess) => {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
};

function percentile(samples: number[], q: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function measure(label: string, backend: string, target: ScratchDatabase, lines: string[]) {
  const server = await startServerProcess({ ...target.env, DEMO_DATA: label === 'demo' ? 'true' : 'false', DEMO_PASSWORD: 'bench password 2026', LOGIN_MAX_FAILURES_PER_IP: '1000' }, { startupTimeoutMs: 600_000 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (method: string, route: string, token?: string, body?: unknown) =>
    new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
      const req = http.request(`${server.url}${route}`, { method, agent, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  const username = label === 'demo' ? 'demo' : 'bench';
  if (label !== 'demo') await request('POST', '/api/accounts/register/', undefined, { username, password: 'bench password 2026' });
  const token = (await request('POST', '/api/token/', undefined, { username, password: 'bench password 2026' })).json.access as string;
  const waitFor = async (taskId: string) => {
    for (;;) {
      const status = (await request('GET', `/api/forecasting/status/${taskId}/`, token)).json as unknown as TaskStatusResponse;
      if (status.status === 'completed' || status.status === 'failed') return status;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  // Demo data starts its own catalogue run: let it finish so runs do not overlap.
  if (label === 'demo') {
    for (let tries = 0; tries < 600 && !(await request('GET', '/api/forecasting/latest-report/', token)).json.success; tries++) await new Promise((r) => setTimeout(r, 500));
  }
  const codes = ((await request('GET', `/api/records/tables/products/data/?page_size=${PROBE_PRODUCTS}`, token)).json.results as { product_code: string }[]).map((p) => p.product_code);
  for (const code of codes) await waitFor((await request('POST', '/api/forecasting/request-generation/', token, { style_code: code })).json.task_id as string);
  const timeGets = async (rounds: number) => {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const start = performance.now();
      const response = await request('GET', `/api/forecasting/forecasts/${codes[i % codes.length]}`, token);
      if (response.status !== 200) throw new Error(`GET forecasts: HTTP ${response.status}`);
      samples.push(performance.now() - start);
    }
    return samples;
  };
  const idle = await timeGets(200);

  const batchStart = performance.now();
  const taskId = (await request('POST', '/api/forecasting/request-generation/', token, {})).json.task_id as string;
  const during: number[] = [];
  let final: TaskStatusResponse | null = null;
  while (!final) {
    during.push(...(await timeGets(10)));
    const status = (await request('GET', `/api/forecasting/status/${taskId}/`, token)).json as unknown as TaskStatusResponse;
    if (status.status === 'completed' || status.status === 'failed') final = status;
  }
  const wallSeconds = (performance.now() - batchStart) / 1000;
  if (final.status !== 'completed') throw new Error(`batch failed: ${final.error}`);
  const products = final.results?.products ?? 0;
  lines.push(
    `| ${backend} | ${label} | ${products.toLocaleString()} | ${wallSeconds.toFixed(1)} | ${((final.results?.duration_ms ?? 0) / 1000).toFixed(1)} | ${Math.round(products / wallSeconds)} | ${Math.round(peakRssMiB(server))} | ${percentile(idle, 0.5).toFixed(2)} | ${percentile(during, 0.5).toFixed(1)} | ${percentile(during, 0.99).toFixed(1)} | ${final.results?.failed.length ?? 0} |`,
  );
  agent.destroy();
  await server.stop();
}

console.log(`Whole-catalogue forecast benchmark (generated catalogue: ${GENERATED_PRODUCTS.toLocaleString()} products)`);
const lines = [
  '| backend | catalogue | products | wall s | job s | products/s | server peak RSS MiB | GET forecast p50 ms (idle) | GET p50 ms (during batch) | GET p99 ms (during batch) | failed |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const backend of (args.backends ?? '').split(',').filter(Boolean)) {
  for (const label of ['demo', 'generated']) {
    const target = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-batch' });
    if (label === 'generated') await generateCatalogue(target.target, GENERATED_PRODUCTS);
    await measure(label, backend, target, lines);
    await target.drop();
  }
}
console.log(lines.join('\n'));
