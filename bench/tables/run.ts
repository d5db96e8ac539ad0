// Data-table API benchmark (issue "Configurable data tables"): a 1,000,000-row table, 50-row pages
// sorted by an indexed column, with and without a contains filter, and deep pages by offset and by
// keyset cursor. For each backend: the same SQL the API runs, timed directly through the same
// driver; then the real server in its own process, timed one request at a time (exact p50) and
// with autocannon at 1 and 32 connections. PGlite always; PostgreSQL at BENCH_DATABASE_URL
// (default: the local server; skipped when unreachable).
//   node bench/tables/run.ts [--rows 1000000] [--seconds 5]
import http from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { productConfig, type ColumnDefinition } from '@stockwise/contract';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { buildFilterConditions, pageConditionsOf } from '../../apps/server/src/tables/filters.ts';
import { countRows, pageStartCondition, selectRows } from '../../apps/server/src/tables/repo.ts';
import { CatalogueCache } from '../../apps/server/src/tables/catalogue-cache.ts';
import { createTable, EXACT_COUNT_LIMIT } from '../../apps/server/src/tables/service.ts';
import { startServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase, postgresReachable } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, seconds: { type: 'string', default: '5' } } });
const ROWS = Number(args.rows);
const SECONDS = Number(args.seconds);
const PAGE_SIZE = 50;
const DEEP_ROW = Math.floor(ROWS / 2);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const columns: ColumnDefinition[] = [
  { key: 'sku', type: 'CharField', max_length: 32, required: true },
  { key: 'name', type: 'CharField', max_length: 100, required: true, indexed: true },
  { key: 'qty', type: 'IntegerField', required: true, indexed: true },
  { key: 'price', type: 'DecimalField', max_digits: 10, decimal_places: 2 },
];

type Figures = { p50: number; p99: number; max: number; rps: number; over1s?: number };
const format = (label: string, f: Figures) =>
  `| ${label} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${f.max.toFixed(1)} | ${Math.round(f.rps)} | ${f.over1s ?? '-'} |`;

function summarise(samples: number[], seconds: number): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, rps: samples.length / seconds, over1s: sorted.filter((s) => s > 1000).length };
}

async function timeSequentially(run: () => Promise<unknown>): Promise<Figures> {
  for (let warm = 0; warm < 5; warm++) await run();
  const samples: number[] = [];
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return summarise(samples, (performance.now() - started) / 1000);
}

type Scenario = { label: string; query: string; filters?: string; offset: number; keysetAfter?: { qty: number; id: number } };

/** Seeds the table and times the API's SQL directly; returns what the HTTP phase needs. */
async function seedAndTimeDirectSql(backend: 'pglite' | 'postgres', target: DatabaseTarget, lines: string[]) {
  const database = await openDatabase(target);
  await migrateToLatest(database.db);
  const emptyConfig = productConfig.parse({});
  const table = await createTable({ db: database.db, loadConfig: async () => emptyConfig, catalogueCache: new CatalogueCache() }, { name: 'bench rows', folder: 'Bench', columns });
  const seedStart = performance.now();
  await sql`insert into ${sql.id('data', table.encodedName)} (sku, name, qty, price)
    select 'SKU-' || lpad(i::text, 7, '0'), 'Item ' || i, (i::int8 * 7919) % 1000, (i % 10000) / 100.0
    from generate_series(1, ${ROWS}) as i`.execute(database.db);
  // What autovacuum does to a settled table: statistics, and the visibility map index-only scans need.
  await sql`vacuum analyze ${sql.id('data', table.encodedName)}`.execute(database.db);
  console.log(`  ${backend}: seeded ${ROWS.toLocaleString()} rows with indexes in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const deep = (await sql<{ qty: number; id: number }>`select qty, id from ${sql.id('data', table.encodedName)} order by qty, id offset ${DEEP_ROW - 1} limit 1`.execute(database.db)).rows[0] as { qty: number; id: number };
  const cursor = Buffer.from(JSON.stringify([deep.qty, deep.id])).toString('base64url');
  const contains = JSON.stringify({ name: '7777' });
  const scenarios: Scenario[] = [
    { label: 'sorted page (indexed qty)', query: `sort_by=qty&page_size=${PAGE_SIZE}`, offset: 0 },
    { label: "sorted + contains 'name ~ 7777'", query: `sort_by=qty&page_size=${PAGE_SIZE}&filters_json=${encodeURIComponent(contains)}`, filters: contains, offset: 0 },
    { label: `deep page by offset (row ${DEEP_ROW.toLocaleString()})`, query: `sort_by=qty&page_size=${PAGE_SIZE}&page=${DEEP_ROW / PAGE_SIZE + 1}`, offset: DEEP_ROW },
    { label: `deep page by keyset cursor (row ${DEEP_ROW.toLocaleString()})`, query: `sort_by=qty&page_size=${PAGE_SIZE}&after=${cursor}`, offset: 0, keysetAfter: deep },
  ];
  for (const scenario of scenarios) {
    const conditions = pageConditionsOf(buildFilterConditions(scenario.filters, columns));
    const after = scenario.keysetAfter;
    // The same SQL the API runs: keyset after a cursor, the index-first start of a deep numbered page.
    const pageConditions = after
      ? { sql: [...conditions.sql, sql`(qty, id) > (${after.qty}, ${after.id})`] }
      : scenario.offset >= 1000
        ? { sql: [...conditions.sql, pageStartCondition({ encodedName: table.encodedName, sortBy: 'qty', sortDir: 'asc', conditions: conditions.sql, offset: scenario.offset })] }
        : conditions;
    const figures = await timeSequentially(() =>
      Promise.all([
        selectRows(database.db, { encodedName: table.encodedName, columns: ['id', ...columns.map((c) => c.key)], conditions: pageConditions, sortBy: 'qty', sortDir: 'asc', limit: PAGE_SIZE, offset: scenario.offset >= 1000 ? 0 : scenario.offset }),
        countRows(database.db, table.encodedName, conditions, EXACT_COUNT_LIMIT),
      ]),
    );
    lines.push(format(`${backend} | ${scenario.label} | direct SQL, 1 conn`, figures));
  }
  await database.close();
  return { encodedName: table.encodedName, scenarios };
}

async function timeApi(backend: string, env: Record<string, string>, encodedName: string, scenarios: Scenario[], lines: string[]) {
  const server = await startServerProcess({ ...env, DEMO_DATA: 'false', ROLE: 'api', LOGIN_MAX_FAILURES_PER_IP: '1000' });
  const post = (route: string, body: unknown) => fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  await post('/api/accounts/register/', { username: 'bench', password: 'bench password 2026' });
  const token = (await post('/api/token/', { username: 'bench', password: 'bench password 2026' })).access as string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (const scenario of scenarios) {
    const url = `${server.url}/api/records/tables/${encodedName}/data/?${scenario.query}`;
    const getOnce = () =>
      new Promise<void>((resolve, reject) => {
        http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`${scenario.label}: HTTP ${response.statusCode}`));
          response.resume().on('end', () => resolve());
        }).on('error', reject);
      });
    lines.push(format(`${backend} | ${scenario.label} | API, 1 conn, sequential`, await timeSequentially(getOnce)));
    for (const connections of [1, 32]) {
      const result = await autocannon({ url, connections, duration: SECONDS, timeout: 30, headers: { authorization: `Bearer ${token}` } });
      if (result.non2xx || result.errors || result.timeouts) throw new Error(`${scenario.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      lines.push(format(`${backend} | ${scenario.label} | API, ${connections} conn, autocannon`, { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, rps: result.requests.average }));
    }
  }
  agent.destroy();
  await server.stop();
}

console.log(`Data-table benchmark: ${ROWS.toLocaleString()} rows, ${PAGE_SIZE}-row pages, ${SECONDS} s per measurement`);
const backends: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresReachable(postgresUrl)) backends.push('postgres');
else console.log(`  PostgreSQL at ${postgresUrl} unreachable: PGlite only`);
const lines = ['| backend | scenario | path | p50 ms | p99 ms | max ms | req/s | >1 s |', '|---|---|---|---|---|---|---|---|'];
for (const backend of backends) {
  const database = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-bench' });
  const { encodedName, scenarios } = await seedAndTimeDirectSql(backend, database.target, lines);
  await timeApi(backend, database.env, encodedName, scenarios, lines);
  await database.drop();
}
console.log(lines.join('\n'));
