// Report cost against time on PGlite (ADR 0040 amendment): the worst-case plan cost the embedded
// sandbox judges (reports/sandbox/plan-cost.ts) next to the seconds the report takes, for joins,
// aggregates, generate_series, window functions and the forecast views over the demo data set, and
// for the reports Stockwise writes itself (the demo's examples, the built-in generator's answers).
// The demo data set is made by the real server (its own process, a fresh data directory, the
// catalogue forecast run once); the reports then run in this process through the real gate and
// EmbeddedSandbox on the same files, with no cost ceiling and a far deadline, each to the end.
//   flock /tmp/stockwise-bench.lock bash scripts/with-node24.sh node bench/report-cost/run.ts [--runs 3] [--data-dir DIR]
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { ReadableCatalogue } from '../../apps/server/src/reports/readable.ts';
import { EmbeddedSandbox, ReportRunError } from '../../apps/server/src/reports/sandbox/executor.ts';
import { checkReportSql, loadSqlParser } from '../../apps/server/src/reports/sandbox/gate.ts';
import { EXPLAIN_PLAN, PGLITE_COST_PER_SECOND, worstCaseCost, type PlanNode } from '../../apps/server/src/reports/sandbox/plan-cost.ts';
import { callJson, startServerProcess } from '../../apps/server/src/testing/server-process.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'data-dir': { type: 'string' }, only: { type: 'string' } } });
const RUNS = Number(args.runs);
const MAX_ROWS = 10_000;
/** REPORT_MAX_COST at the default REPORT_TIMEOUT_MS of 10 s. */
const DEFAULT_CEILING = 10 * PGLITE_COST_PER_SECOND;
/** Longer runs are timed once: the table needs their order of magnitude, not their spread. */
const TIME_ONCE_ABOVE_MS = 4000;

/** What the built-in generator is asked (a spread of its intents, as generator.test.ts asks them). */
const QUESTIONS = [
  'total units sold', 'How many units did we sell in the last 30 days?', 'units sold by category', 'units sold per product in the last 7 days',
  'top 3 products by units sold in the last 30 days', 'bottom 2 products by units sold', 'bottom 2 products by units sold of all time',
  'monthly units sold this year', 'units sold by month last year', 'sales value by category in the last 90 days', 'stock value by category',
  'What is our total stock value?', 'low stock products', 'products with stock below 50', 'which products are out of stock',
  'which products run out in the next 30 days', 'what should we reorder?', 'products with no sales in the last 7 days',
  'weekly units sold in the last 8 weeks', 'units sold by day of the week', 'how many products per category', 'units sold this month',
  'top 5 products by sales value this year', 'average daily units sold in the last 30 days', 'scheduled deliveries',
  'deliveries arriving in the next 7 days', 'forecast demand for the next 14 days by product', 'units sold for Garden products in the last 30 days',
  'monthly sales of GAR-1000', 'days of stock cover', 'yearly units sold', 'sales trend', 'sales trend by product',
  'monthly units sold for the top 2 products in the last 60 days', 'units sold per month by category', 'units sold by month and product',
  'weekly units sold by category for the top 3 categories', 'top 10 products of all time',
];

/** Queries of known shapes, sized to run between a fraction of a second and about a minute. */
const SHAPES: { label: string; sql: string; run?: false }[] = [
  { label: 'join: cross join, 20 × 140,794 rows, count', sql: 'select count(*) from (select * from sales limit 20) a, sales b' },
  { label: 'join: cross join, 80 × 140,794 rows, count', sql: 'select count(*) from (select * from sales limit 80) a, sales b' },
  { label: 'join: cross join, 700 × 140,794 rows, count', sql: 'select count(*) from (select * from sales limit 700) a, sales b' },
  { label: 'join: cross join, 80 × 140,794 rows, a product that matches nothing, LIMIT 1', sql: 'select a.id from (select * from sales limit 80) a, sales b where a.quantity * b.quantity = -7 limit 1' },
  { label: 'join: EXISTS over 80 × 140,794 rows that never matches', sql: 'select a.id from (select * from sales limit 80) a where exists (select 1 from sales b where a.quantity * b.quantity = -7)' },
  { label: 'join: sales × products, units by category', sql: 'select p.category, sum(s.quantity) from sales s join products p on p.id = s.product_id group by 1' },
  { label: 'join: sales × sales, same product, the next day', sql: 'select count(*) from sales a join sales b on b.product_id = a.product_id and b.date = a.date + 1' },
  { label: 'join: 3 × sales, same product and day', sql: 'select count(*) from sales a join sales b on b.product_id = a.product_id and b.date = a.date join sales c on c.product_id = a.product_id and c.date = a.date' },
  { label: 'aggregate: units by product and month', sql: "select product_id, date_trunc('month', date)::date as month, sum(quantity) from sales group by 1, 2" },
  { label: 'aggregate: count(distinct) of product and weekday', sql: 'select count(distinct (product_id, extract(dow from date))) from sales' },
  { label: 'aggregate: count(distinct) of product and weekday over 8 × sales', sql: 'select count(distinct (product_id, extract(dow from date))) from sales, generate_series(1, 8)' },
  { label: 'aggregate: count(distinct) of product over 8 × sales', sql: 'select count(distinct product_id) from sales, generate_series(1, 8)' },
  { label: 'aggregate: count(distinct) of product and weekday, and of units, over 8 × sales', sql: 'select count(distinct (product_id, extract(dow from date))), count(distinct quantity) from sales, generate_series(1, 8)' },
  { label: 'aggregate: median per product over 8 × sales', sql: 'select product_id, percentile_cont(0.5) within group (order by quantity) from sales, generate_series(1, 8) group by 1' },
  { label: 'aggregate: median and string_agg per product', sql: "select product_id, percentile_cont(0.5) within group (order by quantity), length(string_agg(quantity::text, ',')) from sales group by 1" },
  { label: 'aggregate: 4 × sales, units by product', sql: 'select product_id, sum(quantity) from (select * from sales union all select * from sales union all select * from sales union all select * from sales) s group by 1' },
  { label: 'generate_series: count of 1,000,000', sql: 'select count(*) from generate_series(1, 1000000)' },
  { label: 'generate_series: count of 4,000,000', sql: 'select count(*) from generate_series(1, 4000000)' },
  { label: 'generate_series: count of 16,000,000', sql: 'select count(*) from generate_series(1, 16000000)' },
  { label: 'generate_series: in the select list, count of 16,000,000', sql: 'select count(*) from (select generate_series(1, 16000000) as x) s' },
  { label: 'generate_series: sum of multiples of 7 in 4,000,000', sql: 'select sum(x) from generate_series(1, 4000000) x where x % 7 = 0' },
  { label: 'generate_series: count of 50,000,000', sql: 'select count(*) from generate_series(1, 50000000)' },
  { label: 'generate_series: every day of 2 years × 240 products', sql: "select count(*) from products p, generate_series(date '2024-01-01', date '2025-12-31', interval '1 day') d" },
  { label: 'generate_series: sales × 10', sql: 'select sum(quantity * x) from sales, generate_series(1, 10) x' },
  { label: 'generate_series: count of 100,000,000 (QA)', sql: 'select count(*) from generate_series(1, 100000000)', run: false },
  { label: 'join: cross join of sales, LIMIT 1 (QA)', sql: 'select a.id from sales a, sales b where a.quantity*b.quantity = -7 limit 1', run: false },
  { label: 'window: running units per product', sql: 'select product_id, date, sum(quantity) over (partition by product_id order by date) from sales' },
  { label: 'window: rank of every sale by units, top 10', sql: 'select * from (select id, quantity, rank() over (order by quantity desc, id) as r from sales) x where r <= 10' },
  { label: 'window: 7-day moving average per product, last day', sql: 'select product_id, avg(quantity) over (partition by product_id order by date rows 6 preceding) from sales order by date desc limit 240' },
  { label: 'window: lag per product, days with a jump', sql: 'select count(*) from (select quantity - lag(quantity) over (partition by product_id order by date) as change from sales) x where change > 20' },
  { label: 'sort: every sale by units, first 10,000', sql: 'select * from sales order by quantity desc, date' },
  { label: 'sort: row values of product and units over 8 × sales', sql: 'select count(*) from (select (product_id, quantity) as r from sales, generate_series(1, 8) order by 1 offset 0) x' },
  { label: 'sort: distinct product and units', sql: 'select distinct product_id, quantity from sales' },
  { label: 'sort: integers over 2 × sales, on disk', sql: 'select count(*) from (select quantity + g from sales, generate_series(1, 2) g order by 1 offset 0) x' },
  { label: 'sort: integers over 8 × sales, on disk', sql: 'select count(*) from (select quantity + g from sales, generate_series(1, 8) g order by 1 offset 0) x' },
  { label: 'sort: integers of the sales, in memory', sql: 'select count(*) from (select quantity * product_id from sales order by 1 offset 0) x' },
  { label: 'sort: text of date and product over 2 × sales', sql: 'select count(*) from (select date::text || product_id::text from sales, generate_series(1, 2) g order by 1 offset 0) x' },
  { label: 'sort: row values of product and units over 2 × sales', sql: 'select count(*) from (select (product_id, quantity) from sales, generate_series(1, 2) g order by 1 offset 0) x' },
  { label: 'sort: whole rows over 2 × sales', sql: 'select count(*) from (select s from sales s, generate_series(1, 2) g order by 1 offset 0) x' },
  { label: 'sort: distinct row values over 8 × sales', sql: 'select count(*) from (select distinct (product_id, quantity + g) from sales, generate_series(1, 8) g) x' },
  { label: 'sort: sales × 4 by date, first 10,000', sql: 'select s.*, g from sales s, generate_series(1, 4) g order by s.date, g' },
  { label: 'scan: every sale (10,000 rows answered)', sql: 'select * from sales' },
  { label: 'subquery: units per product, correlated', sql: 'select p.product_code, (select sum(s.quantity) from sales s where s.product_id = p.id) from products p' },
  { label: 'view: forecast rows, count', sql: 'select count(*) from product_forecasts' },
  { label: 'view: stock projections by product', sql: 'select product_id, min(projected_stock) from stock_projections group by 1' },
  { label: 'view: reorder advice', sql: 'select * from reorder_advice' },
  { label: 'view: forecast demand, sum', sql: 'select sum(demand) from product_forecasts' },
  { label: 'view: forecast rows from today, count', sql: 'select count(*) from product_forecasts where date >= current_date' },
  { label: 'view: forecast demand of the next 14 days per product', sql: 'select product_code, sum(demand) from product_forecasts where date >= current_date and date < current_date + 14 group by 1' },
  { label: 'view: stock projections, sum of days ahead', sql: 'select sum(days_ahead) from stock_projections' },
  { label: 'view: stock projections from today, count', sql: 'select count(*) from stock_projections where date >= current_date' },
  { label: 'view: forecast rows × 8, days from today', sql: 'select count(*) from product_forecasts, generate_series(1, 8) g where date >= current_date + g' },
];

/** `ms`: wall time; `cpuMs`: this process's CPU time over the run, which is what the report takes on an idle machine (PGlite computes in this thread). */
type Measured = { label: string; kind: string; planner: number; worst: number; ms: number | null; cpuMs: number | null; error: string | null };

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const round = (value: number) => Math.round(value).toLocaleString('en');

async function makeDemoData(): Promise<{ dir: string; generated: { question: string; sql: string }[]; examples: { title: string; sql: string }[] }> {
  const dir = args['data-dir'] ?? path.join(mkdtempSync(path.join(os.tmpdir(), 'report-cost-')), 'data');
  // No cost ceiling while the SQL is collected: the table below says where each report stands.
  const server = await startServerProcess({ DATA_DIR: dir, DEMO_DATA: 'true', REPORT_MAX_COST: '1e15', REPORT_TIMEOUT_MS: '600000' }, { startupTimeoutMs: 600_000 });
  try {
    const token = (await callJson(server, '/api/token/', { body: { username: 'demo', password: 'stockwise-demo' } })).access as string;
    const forecasted = (await callJson(server, '/api/forecasting/latest-report/', { token })).success === true;
    const { task_id: taskId } = forecasted ? { task_id: null } : ((await callJson(server, '/api/forecasting/request-generation/', { token, body: {} })) as { task_id: string });
    while (taskId) {
      const status = (await callJson(server, `/api/forecasting/status/${taskId}/`, { token })) as { status: string; error: string | null };
      if (status.status === 'completed') break;
      if (status.status === 'failed') throw new Error(`forecast failed: ${status.error}`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const examples = ((await callJson(server, '/api/user-reports/', { token })) as unknown as { title: string; sql_code: string }[]).map((r) => ({ title: r.title, sql: r.sql_code }));
    const generated: { question: string; sql: string }[] = [];
    for (const question of QUESTIONS) {
      const body = { report_id: null, change_request: question, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null };
      const answer = (await callJson(server, '/api/user-reports/generate-from-request/', { token, body })) as { success: boolean; sql_code: string | null; error: string | null };
      if (!answer.success || !answer.sql_code) throw new Error(`the generator did not answer "${question}": ${answer.error}`);
      generated.push({ question, sql: answer.sql_code });
    }
    return { dir, generated, examples };
  } finally {
    await server.stop();
  }
}

const { dir, generated, examples } = await makeDemoData();
const database = await openDatabase({ kind: 'pglite', dataDir: dir });
const pglite = database.pglite;
if (!pglite) throw new Error('not PGlite');
await loadSqlParser();
const readable = await new ReadableCatalogue(database.db).names();
const sandbox = new EmbeddedSandbox(pglite, Number.POSITIVE_INFINITY);
const salesRows = (await pglite.query<{ n: number }>('select count(*)::int as n from data.sales')).rows[0]?.n;
const forecastRows = (await pglite.query<{ n: number }>('select count(*)::int as n from data.product_forecasts')).rows[0]?.n;
console.log(`demo data: ${salesRows} sales rows, ${forecastRows} forecast rows (${dir}); load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

async function measure(label: string, kind: string, sqlText: string, run: boolean): Promise<Measured> {
  const checked = checkReportSql(sqlText, { readable, embedded: true });
  const plan = await pglite!.transaction(async (tx) => {
    const explained = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`${EXPLAIN_PLAN}${checked.cursor}`);
    await tx.rollback();
    return (explained.rows[0]?.['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan;
  });
  const measured: Measured = { label, kind, planner: plan['Total Cost'], worst: worstCaseCost(plan), ms: null, cpuMs: null, error: null };
  if (!run) return measured;
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      await sandbox.run(checked, { deadline: Date.now() + 3_600_000, timeoutMs: 3_600_000, maxRows: MAX_ROWS });
    } catch (error) {
      if (!(error instanceof ReportRunError)) throw error;
      measured.error = error.message;
    }
    samples.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
    if ((cpuSamples[0] as number) > TIME_ONCE_ABOVE_MS) break;
  }
  measured.ms = median(samples);
  measured.cpuMs = median(cpuSamples);
  return measured;
}

// The first runs in a process also compile PGlite's WebAssembly hot paths: not the report's time.
for (let i = 0; i < 3; i++) await measure('warm-up', 'warm-up', 'select count(*) from (select * from sales limit 20) a, sales b', true);

const results: Measured[] = [];
const only = args.only ? new RegExp(args.only) : null;
const reports = [
  ...examples.map((e) => ({ label: `example: ${e.title}`, kind: 'ours', sql: e.sql, run: true })),
  ...generated.map((g) => ({ label: `generator: ${g.question}`, kind: 'ours', sql: g.sql, run: true })),
  ...SHAPES.map((s) => ({ label: s.label, kind: 'shape', sql: s.sql, run: s.run !== false })),
];
for (const item of reports) {
  if (only && !only.test(item.label)) continue;
  const measured = await measure(item.label, item.kind, item.sql, item.run);
  results.push(measured);
  console.log(`  ${measured.cpuMs === null ? 'not run' : `${(measured.cpuMs / 1000).toFixed(2)} s CPU`}  worst ${round(measured.worst)}  planner ${round(measured.planner)}  ${item.label}${measured.error ? `  (${measured.error})` : ''}`);
}
await database.close();

const costPerSecond = (m: Measured) => (m.cpuMs === null || m.cpuMs < 50 ? null : m.worst / (m.cpuMs / 1000));
console.log(`\nload after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
console.log(`| report | planner cost (top) | worst-case cost | CPU s | wall s | worst-case cost per CPU second | at ${round(DEFAULT_CEILING)} |`);
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const m of [...results].sort((a, b) => a.worst - b.worst)) {
  const rate = costPerSecond(m);
  console.log(`| ${m.label}${m.error ? ` — ${m.error}` : ''} | ${round(m.planner)} | ${round(m.worst)} | ${m.cpuMs === null ? 'not run' : (m.cpuMs / 1000).toFixed(2)} | ${m.ms === null ? '' : (m.ms / 1000).toFixed(2)} | ${rate === null ? '' : round(rate)} | ${m.worst > DEFAULT_CEILING ? 'refused' : 'runs'} |`);
}
const ours = results.filter((m) => m.kind === 'ours');
console.log(`\nlargest worst-case cost of the reports Stockwise writes: ${round(Math.max(...ours.map((m) => m.worst)))}`);
const rates = results.map(costPerSecond).filter((rate): rate is number => rate !== null && rate > 0);
console.log(`worst-case cost per second over the reports that took ≥ 50 ms of CPU: ${round(Math.min(...rates))} … ${round(Math.max(...rates))}`);
