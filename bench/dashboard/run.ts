// Dashboard latency (issue #15): GET /api/dashboard/ with 10,000 products (90 days of sales each,
// monthly snapshots, deliveries, a stored demand summary per product) on the real server in its
// own process, against GET /api/health (the HTTP floor) measured in the same run. PGlite always;
// PostgreSQL at BENCH_DATABASE_URL (default: the local server; skipped when unreachable).
//   flock /tmp/stockwise-bench.lock bash scripts/with-node24.sh node bench/dashboard/run.ts [--products 10000] [--runs 15]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { refreshCatalogueSummary } from '../../apps/server/src/dashboard/repo.ts';
import { startServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase, postgresReachable } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { products: { type: 'string', default: '10000' }, runs: { type: 'string', default: '15' } } });
const PRODUCTS = Number(args.products);
const RUNS = Number(args.runs);
const SALES_DAYS = 90;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))] as number;

async function seed(target: DatabaseTarget): Promise<void> {
  const database = await openDatabase(target);
  const db = database.db;
  await migrateToLatest(db);
  await sql`insert into data.products (product_code, name, category, current_stock, unit_cost, lead_time_days)
    select 'P-' || lpad(i::text, 5, '0'), 'Product ' || i, 'Category ' || (i % 12), (i * 37) % 400, (i % 90) + 0.5, 7 + i % 21 from generate_series(1, ${PRODUCTS}) i`.execute(db);
  await sql`insert into data.sales (product_id, date, quantity)
    select p, date '2026-08-01' + d, (p * 7 + d * 13) % 9 from generate_series(1, ${PRODUCTS}) p, generate_series(0, ${SALES_DAYS - 1}) d
    where p % 10 <> 0`.execute(db);
  await sql`insert into data.stock_snapshots (product_id, date, stock_level)
    select p, date '2026-08-01' + (m * 30), (p * 31 + m * 17) % 400 from generate_series(1, ${PRODUCTS}) p, generate_series(0, 2) m`.execute(db);
  await sql`insert into data.deliveries (product_id, expected_date, quantity)
    select p, date '2026-11-01' + (p % 120), 50 from generate_series(1, ${PRODUCTS}, 5) p`.execute(db);
  await sql`insert into dashboard_product_summary (product_id, forecast_start, cum_demand, cum_variance, first_stockout, order_quantity)
    select p, date '2026-10-30', array[2 * (p % 5), 33 * (p % 5), 63 * (p % 5), 94 * (p % 5), 125 * (p % 5), 153 * (p % 5)]::float8[],
      array[2 * (p % 3), 33 * (p % 3), 63 * (p % 3), 94 * (p % 3), 125 * (p % 3), 153 * (p % 3)]::float8[],
      case when p % 7 = 0 then date '2026-10-30' + (p % 60) end, 40
    from generate_series(1, ${PRODUCTS}) p`.execute(db);
  await refreshCatalogueSummary(db);
  await sql`vacuum analyze`.execute(db);
  await database.close();
  console.log(`  seeded ${PRODUCTS.toLocaleString('en')} products, ${SALES_DAYS} days of sales each`);
}

async function timeGets(url: string, token: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    if (i >= 3) samples.push(performance.now() - started);
  }
  return samples;
}

async function measure(backend: string, env: Record<string, string>): Promise<string> {
  const server = await startServerProcess({ ...env, DEMO_DATA: 'false' });
  try {
    const user = { username: 'bench', password: 'Correct horse battery 42' };
    await fetch(`${server.url}/api/accounts/register/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    const token = ((await (await fetch(`${server.url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()) as { access: string }).access;
    const health = await timeGets(`${server.url}/api/health`, token);
    const dashboard = await timeGets(`${server.url}/api/dashboard/`, token);
    return `| ${backend} | ${median(health).toFixed(1)} | ${median(dashboard).toFixed(1)} | ${p95(dashboard).toFixed(1)} | ${dashboard.map((s) => s.toFixed(0)).join(', ')} |`;
  } finally {
    await server.stop();
  }
}

const lines = ['| backend | /api/health p50 ms | /api/dashboard/ p50 ms | p95 ms | dashboard runs |', '|---|---:|---:|---:|---|'];
console.log(`dashboard benchmark: ${PRODUCTS.toLocaleString('en')} products, ${RUNS} timed GETs after 3 warm-ups`);
if (await postgresReachable(postgresUrl)) {
  console.log('postgres');
  const scratch = await createScratchDatabase('postgres', { adminUrl: postgresUrl, namePrefix: 'bench_dashboard' });
  try {
    await seed(scratch.target);
    lines.push(await measure('postgres', scratch.env));
  } finally {
    await scratch.drop();
  }
}
console.log('pglite');
const scratch = await createScratchDatabase('pglite-disk', { namePrefix: 'bench-dashboard' });
try {
  await seed(scratch.target);
  lines.push(await measure('pglite', scratch.env));
} finally {
  await scratch.drop();
}
console.log(lines.join('\n'));
