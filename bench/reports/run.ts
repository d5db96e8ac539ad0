// Report execution benchmark (issue #12): a grouped report (units by product and month) over
// 1,000,000 sales rows through POST /api/user-reports/execute/ on the real server in its own
// process, against the same SQL run directly on the same database in the same run; and the
// sandbox gate's parse + check of a 50-line query. PGlite always; PostgreSQL at
// BENCH_DATABASE_URL (default: the local server; skipped when unreachable).
// `--only month-end`: the report writer's "stock per month by product" (each product's stock at each
// month's end, from its counts and the sales and deliveries since) over a catalogue of 10,000
// products × 2 years of daily sales, against a plain count and a plain grouping of the same rows.
//   flock /tmp/heavy.lock bash scripts/with-node24.sh node bench/reports/run.ts [--rows 1000000] [--runs 7] [--only grouped|month-end]
//     [--stock-products 10000] [--stock-days 730] [--stock-backends pglite,postgres] [--stock-data-dir DIR (kept: seeded once)]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { checkReportSql, loadSqlParser } from '../../apps/server/src/reports/sandbox/gate.ts';
import { buildReport } from '../../apps/server/src/reports/generator/build.ts';
import { readQuestion } from '../../apps/server/src/reports/generator/intent.ts';
import { startServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase, postgresReachable } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '7' },
    only: { type: 'string' },
    'stock-products': { type: 'string', default: '10000' },
    'stock-days': { type: 'string', default: '730' },
    /** A PGlite data directory kept between runs: seeded when empty, then reused as it is. */
    'stock-data-dir': { type: 'string' },
    'stock-backends': { type: 'string', default: 'pglite,postgres' },
  },
});
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

// ---------------------------------------------------------------------------------------------
// Month-end stock of a large catalogue

const STOCK_PRODUCTS = Number(args['stock-products']);
const STOCK_DAYS = Number(args['stock-days']);
/** A count every quarter from the history's first day on, and a delivery received between two counts. */
const COUNT_EVERY_DAYS = 91;
/** A query slower than this is timed once: its order of magnitude is the figure, not its spread. */
const TIME_ONCE_ABOVE_MS = 20_000;

/** The report writer's own SQL for the question, as it writes it today. */
const MONTH_END_SQL = buildReport(readQuestion('stock per month by product', { categories: [], productCodes: [], nameWords: [] }).intent)?.sql as string;
/** The report counted and fetched whole (the API would stop at REPORT_MAX_ROWS), beside two references over the same sales. */
const MONTH_END_QUERIES = [
  { label: "report writer's month-end stock by product (count of its rows)", sql: `select count(*) from (${MONTH_END_SQL}) report` },
  // The count alone lets the planner drop what no counted row needs — the stock level, and with it the
  // sales summed per month, a left join on a unique key — so it times the counts, not the report.
  { label: "report writer's month-end stock by product (every row fetched, as a run reads them)", sql: MONTH_END_SQL },
  { label: 'reference: a plain count and sum over the same sales rows', sql: 'select count(*), sum(quantity) from sales' },
  { label: "reference: units by product and month over the same sales rows (count of its rows)", sql: "select count(*) from (select product_id, date_trunc('month', date), sum(quantity) from sales group by 1, 2) grouped" },
];

async function seedStockCatalogue(target: DatabaseTarget): Promise<void> {
  const database = await openDatabase(target);
  await migrateToLatest(database.db);
  const started = performance.now();
  await sql`insert into data.products (product_code, name, category, current_stock, unit_cost)
    select 'P-' || lpad(i::text, 5, '0'), 'Product ' || i, 'Category ' || (i % 12), 0, (i % 90) + 0.5 from generate_series(1, ${STOCK_PRODUCTS}) i`.execute(database.db);
  // Every product sells every day of the history, which ends yesterday: 0 to 6 units.
  await sql`insert into data.sales (product_id, date, quantity)
    select p, current_date - d, ((p * 7919 + d * 104729) % 7)
    from generate_series(1, ${STOCK_PRODUCTS}) p, generate_series(1, ${STOCK_DAYS}) d`.execute(database.db);
  await sql`insert into data.stock_snapshots (product_id, date, stock_level)
    select p, current_date - ${STOCK_DAYS}::int + k * ${COUNT_EVERY_DAYS}::int, 200 + (p % 400)
    from generate_series(1, ${STOCK_PRODUCTS}) p, generate_series(0, ${Math.floor((STOCK_DAYS - 1) / COUNT_EVERY_DAYS)}) k`.execute(database.db);
  await sql`insert into data.deliveries (product_id, expected_date, quantity, status)
    select p, current_date - ${STOCK_DAYS}::int + k * ${COUNT_EVERY_DAYS}::int + 45, 150, 'received'
    from generate_series(1, ${STOCK_PRODUCTS}) p, generate_series(0, ${Math.floor((STOCK_DAYS - 46) / COUNT_EVERY_DAYS)}) k`.execute(database.db);
  await sql`vacuum analyze`.execute(database.db);
  const counted = (await sql<{ sales: number; counts: number; deliveries: number }>`select (select count(*) from data.sales)::int as sales, (select count(*) from data.stock_snapshots)::int as counts, (select count(*) from data.deliveries)::int as deliveries`.execute(database.db)).rows[0];
  console.log(`  seeded ${STOCK_PRODUCTS.toLocaleString('en')} products: ${counted?.sales.toLocaleString('en')} sales rows, ${counted?.counts.toLocaleString('en')} counts, ${counted?.deliveries.toLocaleString('en')} deliveries in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await database.close();
}

async function monthEndBench(): Promise<void> {
  const runs = Math.min(RUNS, 3);
  const table = ['| backend | query | result | p50 ms | runs (ms) |', '|---|---|---:|---:|---|'];
  const timeQueries = async (backend: string, query: (text: string) => Promise<unknown[]>) => {
    await query('set search_path to data, public');
    for (const { label, sql: text } of MONTH_END_QUERIES) {
      // The first run warms up; one that takes longer than TIME_ONCE_ABOVE_MS is its only sample.
      let started = performance.now();
      let answer = await query(text);
      const first = performance.now() - started;
      const samples: number[] = first > TIME_ONCE_ABOVE_MS ? [first] : [];
      for (let i = 0; i < runs && first <= TIME_ONCE_ABOVE_MS; i++) {
        started = performance.now();
        answer = await query(text);
        samples.push(performance.now() - started);
      }
      table.push(`| ${backend} | ${label} | ${JSON.stringify(answer[0])} | **${median(samples).toFixed(0)}** | ${samples.map((s) => s.toFixed(0)).join(', ')} |`);
      console.log(table.at(-1));
    }
  };
  console.log(`month-end stock benchmark: ${STOCK_PRODUCTS.toLocaleString('en')} products × ${STOCK_DAYS} days, ${runs} timed runs after 1 warm-up (one run above ${TIME_ONCE_ABOVE_MS / 1000} s)`);
  const backends = String(args['stock-backends']).split(',');
  if (backends.includes('pglite')) {
    console.log('pglite');
    const kept = args['stock-data-dir'];
    const disk = kept ? { target: { kind: 'pglite', dataDir: kept } as DatabaseTarget, drop: async () => {} } : await createScratchDatabase('pglite-disk', { namePrefix: 'bench-month-end' });
    try {
      if (kept && existsSync(path.join(kept, 'PG_VERSION'))) console.log(`  reusing the catalogue in ${kept}`);
      else await seedStockCatalogue(disk.target);
      const pglite = await PGlite.create((disk.target as { dataDir: string }).dataDir);
      await timeQueries('pglite', async (text) => (await pglite.query(text, [], { rowMode: 'array' })).rows);
      await pglite.close();
    } finally {
      await disk.drop();
    }
  }
  if (backends.includes('postgres') && (await postgresReachable(postgresUrl))) {
    console.log('postgres');
    const scratch = await createScratchDatabase('postgres', { adminUrl: postgresUrl, namePrefix: 'bench_month_end' });
    try {
      await seedStockCatalogue(scratch.target);
      const client = new pg.Client({ connectionString: (scratch.target as { url: string }).url });
      await client.connect();
      await timeQueries('postgres', async (text) => (await client.query({ text, rowMode: 'array' })).rows);
      await client.end();
    } finally {
      await scratch.drop();
    }
  }
  console.log(`\n${table.join('\n')}`);
}

if (args.only === 'month-end') {
  await monthEndBench();
  process.exit(0);
}

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

if (args.only !== 'grouped') await monthEndBench();
