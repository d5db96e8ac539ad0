// Report execution benchmark (issue #12): a grouped report (units by product and month) over
// 1,000,000 sales rows through POST /api/user-reports/execute/ on the real server in its own
// process, against the same SQL run directly on the same database in the same run; and the
// sandbox gate's parse + check of a 50-line query. PGlite always; PostgreSQL at
// BENCH_DATABASE_URL (default: the local server; skipped when unreachable).
//   flock /tmp/stockwise-bench.lock node bench/reports/run.ts [--rows 1000000] [--runs 7]
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { checkReportSql, loadSqlParser } from '../../apps/server/src/reports/sandbox/gate.ts';
import { startServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase, postgresReachable } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '7' } } });
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const PRODUCTS = 1000;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const REPORT_SQL = `
select p.product_code, date_trunc('month', s.date)::date as month, sum(s.quantity) as units
from sales s join products p on p.id = s.product_id
group by 1, 2
order by 1, 2`;
// What the gate makes of it (relations qualified), run directly.
const DIRECT_SQL = REPORT_SQL.replace('from sales s join products p', 'from data.sales s join data.products p');

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;

async function timeRuns(run: () => Promise<unknown>): Promise<number[]> {
  for (let warm = 0; warm < 2; warm++) await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function seed(target: DatabaseTarget): Promise<void> {
  const database = await openDatabase(target);
  await migrateToLatest(database.db);
  const days = Math.ceil(ROWS / PRODUCTS);
  await sql`insert into data.products (product_code, name, category, current_stock, unit_cost)
    select 'P-' || lpad(i::text, 5, '0'), 'Product ' || i, 'Category ' || (i % 12), i % 500, (i % 90) + 0.5 from generate_series(1, ${PRODUCTS}) i`.execute(database.db);
  await sql`insert into data.sales (product_id, date, quantity)
    select (i % ${PRODUCTS}) + 1, date '2023-01-01' + (i / ${PRODUCTS})::int, (i::int8 * 7919) % 20
    from generate_series(0, ${ROWS - 1}) i`.execute(database.db);
  await sql`vacuum analyze`.execute(database.db);
  console.log(`  seeded ${ROWS.toLocaleString('en')} sales rows (${PRODUCTS} products × ${days} days)`);
  await database.close();
}

async function timeApi(env: Record<string, string>): Promise<{ samples: number[]; rows: number }> {
  const server = await startServerProcess({ ...env, DEMO_DATA: 'false', REPORT_MAX_ROWS: '100000', REPORT_TIMEOUT_MS: '60000' });
  try {
    const user = { username: 'bench', password: 'Correct horse battery 42' };
    await fetch(`${server.url}/api/accounts/register/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    const token = ((await (await fetch(`${server.url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()) as { access: string }).access;
    let rows = 0;
    const samples = await timeRuns(async () => {
      const response = await fetch(`${server.url}/api/user-reports/execute/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ sql_code: REPORT_SQL }) });
      const body = (await response.json()) as { success: boolean; row_count: number; error: string | null };
      if (!body.success) throw new Error(`report failed: ${body.error}`);
      rows = body.row_count;
    });
    return { samples, rows };
  } finally {
    await server.stop();
  }
}

const lines: string[] = ['| backend | rows out | direct p50 ms | API p50 ms | API / direct | direct runs | API runs |', '|---|---:|---:|---:|---:|---|---|'];
const row = (backend: string, rows: number, direct: number[], api: number[]) =>
  `| ${backend} | ${rows.toLocaleString('en')} | ${median(direct).toFixed(0)} | ${median(api).toFixed(0)} | **${(median(api) / median(direct)).toFixed(2)}×** | ${direct.map((s) => s.toFixed(0)).join(', ')} | ${api.map((s) => s.toFixed(0)).join(', ')} |`;

console.log(`report execution benchmark: ${ROWS.toLocaleString('en')} sales rows, ${RUNS} timed runs after 2 warm-ups`);

if (await postgresReachable(postgresUrl)) {
  console.log('postgres');
  const scratch = await createScratchDatabase('postgres', { adminUrl: postgresUrl, namePrefix: 'bench_reports' });
  try {
    await seed(scratch.target);
    const url = (scratch.target as { url: string }).url;
    // Direct: the same SQL on the same database through the same driver, just before the API runs.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let directRows = 0;
    const direct = await timeRuns(async () => {
      directRows = (await client.query({ text: DIRECT_SQL, rowMode: 'array' })).rows.length;
    });
    await client.end();
    const api = await timeApi(scratch.env);
    if (api.rows !== directRows) throw new Error(`API answered ${api.rows} rows, direct ${directRows}`);
    lines.push(row('postgres', directRows, direct, api.samples));
  } finally {
    await scratch.drop();
  }
}

console.log('pglite');
const scratch = await createScratchDatabase('pglite-disk', { namePrefix: 'bench-reports' });
try {
  await seed(scratch.target);
  // PGlite is one process's: direct first (in this process), then the server opens the same files.
  const pglite = await PGlite.create((scratch.target as { dataDir: string }).dataDir);
  let directRows = 0;
  const direct = await timeRuns(async () => {
    directRows = (await pglite.query(DIRECT_SQL, [], { rowMode: 'array' })).rows.length;
  });
  await pglite.close();
  const api = await timeApi(scratch.env);
  lines.push(row('pglite', directRows, direct, api.samples));
} finally {
  await scratch.drop();
}

await loadSqlParser();
const fiftyLines = [
  'with recent as (',
  '  select s.product_id, s.date, s.quantity',
  '  from sales s',
  "  where s.date >= current_date - interval '90 days'",
  '),',
  'totals as (',
  '  select r.product_id,',
  ...Array.from({ length: 36 }, (_, i) => `         sum(case when extract(dow from r.date) = ${i % 7} and r.quantity > ${i} then r.quantity else 0 end) as bucket_${i},`),
  '         sum(r.quantity) as units',
  '  from recent r group by r.product_id',
  ')',
  'select p.product_code, p.name, t.*, rank() over (order by t.units desc) as position',
  'from totals t join products p on p.id = t.product_id',
  'where p.current_stock < 100',
  'order by position',
  'limit 50',
].join('\n');
const readable = { byName: new Map([['products', 'products'], ['sales', 'sales']]), tables: new Set(['products', 'sales']) };
const gate: number[] = [];
for (let i = 0; i < 2000; i++) {
  const started = performance.now();
  checkReportSql(fiftyLines, { readable, embedded: true });
  gate.push(performance.now() - started);
}
gate.sort((a, b) => a - b);

console.log(`\n${lines.join('\n')}`);
console.log(`\nsandbox gate, ${fiftyLines.split('\n').length}-line query, 2000 checks: p50 ${(gate[1000] as number).toFixed(2)} ms, p99 ${(gate[1980] as number).toFixed(2)} ms`);
