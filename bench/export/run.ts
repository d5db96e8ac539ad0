// Table download benchmark (ADR 0161 "Amendment: Download Excel"): the demo sales table (about
// 140,000 rows) downloaded as CSV and as .xlsx from the real server in its own process, on PGlite
// (a fresh data directory, the demo seeded by a first start; ROLE=api, so no forecast job competes).
// Each download runs on a server started for it, after one small download of its format. Per
// download: wall time, file size, the server's peak RSS during it and its growth over the RSS before
// (/proc: VmHWM after clear_refs), and the server's CPU seconds. The formats take turns, so load on
// the shared machine falls on both alike.
//   flock /tmp/bench.lock bash scripts/with-node24.sh node bench/export/run.ts [--runs 3] [--table sales]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEMO_USERNAME } from '../../apps/server/src/demo/seed.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, table: { type: 'string', default: 'sales' } } });
const RUNS = Number(args.runs);
const TABLE = args.table as string;
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

async function download(server: ServerProcess, token: string, format: (typeof formats)[number]): Promise<Figures> {
  const rssBefore = memoryMiB(server, 'VmRSS');
  // The peak so far is the server's start (PGlite's initdb, the demo seed); reset it so the peak read after is the download's.
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
  const cpuBefore = cpuSeconds(server);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/records/tables/${TABLE}/export/?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
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

/** One download on a server started for it: its peak and growth are that download's alone. */
async function measure(env: Record<string, string>, format: (typeof formats)[number]): Promise<Figures> {
  const server = await startServerProcess(env);
  try {
    const token = await signIn(server);
    // One small download first: the code paths compiled, exceljs loaded.
    await fetch(`${server.url}/api/records/tables/${TABLE}/export/?format=${format}&filters_json=${encodeURIComponent('{"id":1}')}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
    return await download(server, token, format);
  } finally {
    await server.stop();
  }
}

const environment = await createScratchDatabase('pglite-disk', { namePrefix: 'stockwise-export-bench' });
const env = { ...environment.env, ROLE: 'api', DEMO_DATA: 'true', DEMO_PASSWORD: PASSWORD };

try {
  const seeding = performance.now();
  // The first start seeds the demo; each download is then measured on a server of its own.
  const seeder = await startServerProcess(env, { startupTimeoutMs: 600_000 });
  const token = await signIn(seeder);
  const page = (await (await fetch(`${seeder.url}/api/records/tables/${TABLE}/data/?page_size=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { count: number; count_is_estimate: boolean };
  await seeder.stop();
  console.log(`demo seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; table ${TABLE}: ${page.count.toLocaleString('en')} rows${page.count_is_estimate ? ' (estimated)' : ''}`);
  const results: Record<string, Figures[]> = { csv: [], xlsx: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const format of run % 2 === 0 ? formats : [...formats].reverse()) results[format]?.push(await measure(env, format));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log('\n| format | runs | seconds (median, min–max) | file MB | server peak RSS MiB (median, max) | RSS growth MiB (median, max) | server CPU s (median) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const format of formats) {
    const figures = results[format] as Figures[];
    const seconds = figures.map((f) => f.seconds);
    const peaks = figures.map((f) => f.peakMiB);
    const growths = figures.map((f) => f.growthMiB);
    console.log(
      `| ${format} | ${figures.length} | ${median(seconds).toFixed(1)} (${Math.min(...seconds).toFixed(1)}–${Math.max(...seconds).toFixed(1)}) | ${median(figures.map((f) => f.megabytes)).toFixed(1)} | ${median(peaks).toFixed(0)}, ${Math.max(...peaks).toFixed(0)} | ${median(growths).toFixed(0)}, ${Math.max(...growths).toFixed(0)} | ${median(figures.map((f) => f.cpu)).toFixed(1)} |`,
    );
  }
} finally {
  await environment.drop();
}
