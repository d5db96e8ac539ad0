// Import benchmark (issue "File import"): generated products CSV files (100,000 and 1,000,000 rows,
// ~60 MB at 1M) uploaded to the real server (its own process) through POST /api/records/process-file/.
// Prints rows/s and the server's RSS growth (its peak during the upload minus its RSS before), on
// PGlite and PostgreSQL, and PostgreSQL's own COPY of the same file into an identical empty table
// as the limit.
//   node bench/import/run.ts [--rows 100000,1000000] [--backends pglite,postgres]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '100000,1000000' }, backends: { type: 'string', default: 'pglite,postgres' } } });
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = mkdtempSync(path.join(tmpdir(), 'stockwise-import-bench-'));
const columns = ['product_code', 'name', 'category', 'current_stock', 'unit_cost', 'lead_time_days'];
const mapping = { entities: { products: { field_mappings: Object.fromEntries(columns.map((c) => [c, c])) } } };

async function writeCsv(rows: number): Promise<string> {
  const file = path.join(scratch, `products-${rows}.csv`);
  const out = createWriteStream(file);
  out.write(`${columns.join(',')}\n`);
  for (let i = 0; i < rows; i++) {
    const line = `BENCH-${String(i).padStart(8, '0')},"Benchmark product ${i}, size ${i % 7}",Category ${i % 40},${i % 1000},${((i % 10000) / 100).toFixed(2)},${7 + (i % 14)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

const memory = (server: ServerProcess, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function importThroughApi(backend: string, file: string, rows: number) {
  const environment = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-import-bench' });
  const directUrl = environment.target.kind === 'postgres' ? environment.target.url : null;
  const server = await startServerProcess({ ...environment.env, DEMO_DATA: 'false', UPLOAD_MAX_BYTES: String(1024 ** 3) });
  const credentials = { username: 'bench', password: 'bench password 2026' };
  const post = (route: string, body: unknown) => fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  await post('/api/accounts/register/', credentials);
  const token = (await post('/api/token/', credentials)).access;
  const rssBefore = memory(server, 'VmRSS');
  // The peak so far is the server's start (PGlite's initdb and WebAssembly compilation: ~1.1 GiB,
  // above anything an import reaches); reset it so the peak read after the upload is the import's.
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
  const form = new FormData();
  form.append('import_id', randomUUID());
  form.append('mapping_config', JSON.stringify(mapping));
  form.append('entity_type', 'products');
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const result = (await response.json()) as { counts?: { inserted: number }; error?: string };
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200 || result.counts?.inserted !== rows) throw new Error(`import failed: ${response.status} ${JSON.stringify(result).slice(0, 300)}`);
  const growth = memory(server, 'VmHWM') - rssBefore;
  await server.stop();
  let copySeconds: number | null = null;
  if (directUrl) {
    // The limit: PostgreSQL's COPY of the same file into an identical, empty table.
    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    await client.query('create table data.copy_target (like data.products including all)');
    await client.end();
    const copyStarted = performance.now();
    execFileSync('psql', [directUrl, '-qc', `\\copy data.copy_target (${columns.join(', ')}) from '${file}' with (format csv, header true)`]);
    copySeconds = (performance.now() - copyStarted) / 1000;
  }
  await environment.drop();
  return { seconds, growth, copySeconds };
}

const lines = ['| backend | rows | file MB | seconds | rows/s | server RSS growth MiB | COPY s | COPY rows/s | API / COPY time |', '|---|---|---|---|---|---|---|---|---|'];
for (const rows of (args.rows ?? '').split(',').map(Number)) {
  const file = await writeCsv(rows);
  const megabytes = statSync(file).size / 1024 / 1024;
  for (const backend of (args.backends ?? '').split(',').filter(Boolean)) {
    const { seconds, growth, copySeconds } = await importThroughApi(backend, file, rows);
    lines.push(
      `| ${backend} | ${rows.toLocaleString()} | ${megabytes.toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(rows / seconds).toLocaleString()} | ${Math.round(growth)} | ${copySeconds?.toFixed(1) ?? '-'} | ${copySeconds ? Math.round(rows / copySeconds).toLocaleString() : '-'} | ${copySeconds ? (seconds / copySeconds).toFixed(1) : '-'} |`,
    );
    console.log(lines.at(-1));
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log(lines.join('\n'));
