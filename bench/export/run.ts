// Table download benchmark (ADR 0161 "Amendment: Download Excel"): the demo sales table (about
// 140,000 rows) downloaded as CSV and as .xlsx from the real server in its own process, on PGlite
// (a fresh data directory, the demo seeded by a first start; ROLE=api, so no forecast job competes).
// Each download runs on a server started for it, after one small download of its format. Per
// download: wall time, file size, the server's peak RSS during it and its growth over the RSS before
// (/proc: VmHWM after clear_refs), and the server's CPU seconds. The formats take turns, so load on
// the shared machine falls on both alike.
// --rows N adds a generated table of N rows (text, day, whole number, decimal), downloaded the same
// way: the memory a download takes should not grow with the table.
//   flock /tmp/bench.lock bash scripts/with-node24.sh node bench/export/run.ts [--runs 3] [--rows 1000000]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { productConfig, type ColumnDefinition } from '@stockwise/contract';
import { openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';
import { DEMO_USERNAME } from '../../apps/server/src/demo/seed.ts';
import { CatalogueCache } from '../../apps/server/src/tables/catalogue-cache.ts';
import { createTable } from '../../apps/server/src/tables/service.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, rows: { type: 'string', default: '0' } } });
const RUNS = Number(args.runs);
const GENERATED_ROWS = Number(args.rows);
const GENERATED_TABLE = 'export bench';
const generatedColumns: ColumnDefinition[] = [
  { key: 'sku', label: 'SKU', type: 'CharField', max_length: 32, required: true },
  { key: 'day', label: 'Day', type: 'DateField' },
  { key: 'qty', label: 'Quantity', type: 'IntegerField', required: true },
  { key: 'price', label: 'Price', type: 'DecimalField', max_digits: 10, decimal_places: 2 },
];
const PASSWORD = 'export bench password 2026';
const formats = ['csv', 'xlsx'] as const;

const memoryMiB = (server: ServerProcess, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
// User + system CPU of the server process (/proc/<pid>/stat fields 14 and 15, in 1/100 s).
const cpuSeconds = (server: ServerProcess) => {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

type Figures = { seconds: number; megabytes: number; peakMiB: number; growthMiB: number; cpu: number };

async function download(server: ServerProcess, token: string, table: string, format: (typeof formats)[number]): Promise<Figures> {
  const rssBefore = memoryMiB(server, 'VmRSS');
  // The peak so far is the server's start (PGlite's initdb, the demo seed); reset it so the peak read after is the download's.
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
  const cpuBefore = cpuSeconds(server);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/records/tables/${encodeURIComponent(table)}/export/?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`${format}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.byteLength;
  const seconds = (performance.now() - started) / 1000;
  const peakMiB = memoryMiB(server, 'VmHWM');
  return { seconds, megabytes: bytes / 1e6, peakMiB, growthMiB: peakMiB - rssBefore, cpu: cpuSeconds(server) - cpuBefore };
}

async function signIn(server: ServerProcess): Promise<string> {
  const answer = await fetch(`${server.url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: DEMO_USERNAME, password: PASSWORD }) });
  return ((await answer.json()) as { access: string }).access;
}

/** The generated table, written straight into the stopped server's data directory. */
async function generateTable(target: DatabaseTarget): Promise<void> {
  const database = await openDatabase(target);
  const emptyConfig = productConfig.parse({});
  const table = await createTable({ db: database.db, loadConfig: async () => emptyConfig, catalogueCache: new CatalogueCache() }, { name: GENERATED_TABLE, folder: 'Bench', columns: generatedColumns });
  await sql`insert into ${sql.id('data', table.encodedName)} (sku, day, qty, price)
    select 'SKU-' || lpad(i::text, 7, '0'), date '2024-01-01' + (i % 700), (i::int8 * 7919) % 1000, (i % 10000) / 100.0
    from generate_series(1, ${GENERATED_ROWS}) as i`.execute(database.db);
  await sql`analyze ${sql.id('data', table.encodedName)}`.execute(database.db);
  await database.close();
}

/** One download on a server started for it: its peak and growth are that download's alone. */
async function measure(env: Record<string, string>, table: string, format: (typeof formats)[number]): Promise<Figures> {
  const server = await startServerProcess(env);
  try {
    const token = await signIn(server);
    // One small download first: the code paths compiled, exceljs loaded.
    await fetch(`${server.url}/api/records/tables/${encodeURIComponent(table)}/export/?format=${format}&filters_json=${encodeURIComponent('{"id":1}')}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
    return await download(server, token, table, format);
  } finally {
    await server.stop();
  }
}

const environment = await createScratchDatabase('pglite-disk', { namePrefix: 'stockwise-export-bench' });
const env = { ...environment.env, ROLE: 'api', DEMO_DATA: 'true', DEMO_PASSWORD: PASSWORD };

try {
  const seeding = performance.now();
  // The first start seeds the demo; each download is then measured on a server of its own.
  await (await startServerProcess(env, { startupTimeoutMs: 600_000 })).stop();
  if (GENERATED_ROWS > 0) await generateTable(environment.target);
  console.log(`demo seeded${GENERATED_ROWS > 0 ? ` and ${GENERATED_ROWS.toLocaleString('en')} rows generated` : ''} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const tables = ['sales', ...(GENERATED_ROWS > 0 ? [GENERATED_TABLE] : [])];
  const results = new Map<string, Figures[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const table of tables) {
      for (const format of run % 2 === 0 ? formats : [...formats].reverse()) {
        const key = `${table}|${format}`;
        results.set(key, [...(results.get(key) ?? []), await measure(env, table, format)]);
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log('\n| table | format | runs | seconds (median, min–max) | file MB | server peak RSS MiB (median, max) | RSS growth MiB (median, max) | server CPU s (median) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [key, figures] of results) {
    const [table, format] = key.split('|');
    const seconds = figures.map((f) => f.seconds);
    const peaks = figures.map((f) => f.peakMiB);
    const growths = figures.map((f) => f.growthMiB);
    console.log(
      `| ${table} | ${format} | ${figures.length} | ${median(seconds).toFixed(1)} (${Math.min(...seconds).toFixed(1)}–${Math.max(...seconds).toFixed(1)}) | ${median(figures.map((f) => f.megabytes)).toFixed(1)} | ${median(peaks).toFixed(0)}, ${Math.max(...peaks).toFixed(0)} | ${median(growths).toFixed(0)}, ${Math.max(...growths).toFixed(0)} | ${median(figures.map((f) => f.cpu)).toFixed(1)} |`,
    );
  }
} finally {
  await environment.drop();
}
