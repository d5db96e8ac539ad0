// Import benchmark, uploaded to the real server (its own process) through POST /api/records/process-file/.
// Prints source rows/s and the server's RSS growth (its peak during the upload minus its RSS before),
// and the CPU seconds the server process used for the import (PGlite runs inside it; PostgreSQL does not),
// on PGlite and PostgreSQL, and PostgreSQL's own COPY of the finished rows into an identical empty
// table (same run) as the limit.
//   products: generated product CSV files (issue "File import").
//   sales:    transaction lines (product codes, day-first timestamps, ~2 % returns) of 5,000 products
//             over two years (see saleOf), looked up by code and summed per product and day (issue "Real data in");
//             the COPY reference loads the finished daily rows.
//   xlsx:     the same sales lines as an .xlsx workbook (--rows sets the lines).
//   stock:    stock counts of the same 5,000 products, one line per product and day (a stock take a
//             day, --rows / 5,000 days), each count written with its before-image for an undo (ADR 0175);
//             the COPY reference loads the finished snapshot rows.
//   node bench/import/run.ts [--scenario products|sales|xlsx|stock] [--rows 100000,1000000] [--backends pglite,postgres]
//     [--reference DIR]      also runs the server of another checkout (e.g. /work/main) on the same files, in turn, in the same run
//     [--again]              also times a second upload of the same file (every key stored: the upsert path)
//     [--cpu-prof-dir DIR]   writes the server's CPU profile of each import (node --cpu-prof) into DIR
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'products' },
    rows: { type: 'string', default: '100000,1000000' },
    backends: { type: 'string', default: 'pglite,postgres' },
    reference: { type: 'string' },
    again: { type: 'boolean', default: false },
    'cpu-prof-dir': { type: 'string' },
  },
});
const scenario = args.scenario as 'products' | 'sales' | 'xlsx' | 'stock';
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = mkdtempSync(path.join(tmpdir(), 'stockwise-import-bench-'));
const productColumns = ['product_code', 'name', 'category', 'current_stock', 'unit_cost', 'lead_time_days'];
const productMapping = { entities: { products: { field_mappings: Object.fromEntries(productColumns.map((c) => [c, c])) } } };
const salesMapping = { entities: { sales: { field_mappings: { product_id: 'StockCode', date: 'InvoiceDate', quantity: 'Quantity' } } } };
const stockMapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'StockCode', date: 'Day', stock_level: 'Counted' } } } };
const CATALOGUE = 5000;
const DAYS = 730;
const code = (i: number) => `${84000 + i}${'ABCDEFGH'[i % 8]}`;

async function writeLines(file: string, header: string, rows: number, line: (i: number) => string): Promise<string> {
  const out = createWriteStream(file);
  out.write(`${header}\n`);
  for (let i = 0; i < rows; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return file;
}

const productLine = (i: number) => `BENCH-${String(i).padStart(8, '0')},"Benchmark product ${i}, size ${i % 7}",Category ${i % 40},${i % 1000},${((i % 10000) / 100).toFixed(2)},${7 + (i % 14)}`;
const catalogueLine = (i: number) => `${code(i)},"Wholesale item ${i}",Category ${i % 40},0,1.00,14`;

/**
 * Deterministic pseudo-random lines: the day advances through the file (a till export); each day
 * sells from a rotating assortment of 600 of the 5,000 products, skewed towards its popular ones,
 * so a product-day has a few lines (the Online Retail data set has about two).
 */
const ASSORTMENT = 600;
function saleOf(i: number, rows: number) {
  const day = Math.floor((i / rows) * DAYS);
  const h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  const product = (day * 211 + Math.floor(((h % 10007) / 10007) ** 2 * ASSORTMENT)) % CATALOGUE;
  const date = new Date(Date.UTC(2023, 0, 1) + day * 86_400_000);
  const quantity = h % 50 === 0 ? -((h % 3) + 1) : (h % 12) + 1;
  return { product, date, quantity, hour: 8 + (h % 10), minute: h % 60 };
}
const pad = (n: number) => String(n).padStart(2, '0');
const saleLine = (rows: number) => (i: number) => {
  const s = saleOf(i, rows);
  return `${code(s.product)},${pad(s.date.getUTCDate())}/${pad(s.date.getUTCMonth() + 1)}/${s.date.getUTCFullYear()} ${pad(s.hour)}:${pad(s.minute)},${s.quantity}`;
};

/** A stock take a day: every product of the catalogue counted, the days going back from the start of 2023. */
const countLine = (i: number) => {
  const date = new Date(Date.UTC(2023, 0, 1) - Math.floor(i / CATALOGUE) * 86_400_000);
  return `${code(i % CATALOGUE)},${date.toISOString().slice(0, 10)},${Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) >>> 24}`;
};

async function writeXlsx(file: string, rows: number): Promise<string> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Sales');
  sheet.addRow(['StockCode', 'InvoiceDate', 'Quantity']).commit();
  for (let i = 0; i < rows; i++) {
    const s = saleOf(i, rows);
    sheet.addRow([code(s.product), new Date(s.date.getTime() + (s.hour * 60 + s.minute) * 60_000), s.quantity]).commit();
  }
  sheet.commit();
  await workbook.commit();
  return file;
}

const memory = (server: ServerProcess, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// CPU seconds the server process used (user + system; /proc/<pid>/stat fields 14 and 15, in 1/100 s):
// steadier than wall time on a shared machine.
const cpuSeconds = (server: ServerProcess) => {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

async function upload(server: ServerProcess, token: string, file: string, mapping: unknown, entityType: string, type: string) {
  const form = new FormData();
  form.append('import_id', randomUUID());
  form.append('mapping_config', JSON.stringify(mapping));
  form.append('entity_type', entityType);
  form.append('file', await openAsBlob(file, { type }), path.basename(file));
  const response = await fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const result = (await response.json()) as { counts?: { rows: number; written?: number; inserted: number }; error?: string };
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${JSON.stringify(result).slice(0, 300)}`);
  return result.counts as { rows: number; written?: number; inserted: number };
}

/** The scenario's file uploaded with its mapping. */
const uploadScenario = (server: ServerProcess, token: string, file: string) =>
  scenario === 'products'
    ? upload(server, token, file, productMapping, 'products', 'text/csv')
    : scenario === 'stock'
      ? upload(server, token, file, stockMapping, 'stock_snapshots', 'text/csv')
      : upload(server, token, file, salesMapping, 'sales', scenario === 'xlsx' ? 'application/octet-stream' : 'text/csv');

async function importThroughApi(backend: string, file: string, catalogue: string | null, mainScript: string | undefined) {
  const environment = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-import-bench' });
  const directUrl = environment.target.kind === 'postgres' ? environment.target.url : null;
  const profile: Record<string, string> = args['cpu-prof-dir'] ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(args['cpu-prof-dir'])}` } : {};
  const server = await startServerProcess({ ...environment.env, ...profile, DEMO_DATA: 'false', UPLOAD_MAX_BYTES: String(1024 ** 3) }, { mainScript });
  const credentials = { username: 'bench', password: 'bench password 2026' };
  const post = (route: string, body: unknown) => fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  await post('/api/accounts/register/', credentials);
  const token = (await post('/api/token/', credentials)).access as string;
  if (catalogue) await upload(server, token, catalogue, productMapping, 'products', 'text/csv');
  const rssBefore = memory(server, 'VmRSS');
  // The peak so far is the server's start (PGlite's initdb and WebAssembly compilation: ~1.1 GiB,
  // above anything an import reaches); reset it so the peak read after the upload is the import's.
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
  const cpuBefore = cpuSeconds(server);
  const started = performance.now();
  const counts = await uploadScenario(server, token, file);
  const seconds = (performance.now() - started) / 1000;
  const growth = memory(server, 'VmHWM') - rssBefore;
  const serverCpu = cpuSeconds(server) - cpuBefore;
  let againSeconds: number | null = null;
  if (args.again) {
    const againStarted = performance.now();
    await uploadScenario(server, token, file);
    againSeconds = (performance.now() - againStarted) / 1000;
  }
  await server.stop();
  let copySeconds: number | null = null;
  if (directUrl) {
    // The limit: PostgreSQL's COPY of the finished rows into an identical, empty table (with the same foreign key).
    const table = scenario === 'products' ? 'products' : scenario === 'stock' ? 'stock_snapshots' : 'sales';
    const columns = scenario === 'products' ? productColumns : scenario === 'stock' ? ['product_id', 'date', 'stock_level'] : ['product_id', 'date', 'quantity'];
    const finished = path.join(scratch, 'finished.csv');
    if (scenario === 'products') execFileSync('cp', [file, finished]);
    else execFileSync('psql', [directUrl, '-qc', `\\copy (select ${columns.join(', ')} from data.${table}) to '${finished}' with (format csv, header true)`]);
    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    await client.query(`create table data.copy_target (like data.${table} including all)`);
    if (table !== 'products') await client.query('alter table data.copy_target add foreign key (product_id) references data.products (id)');
    await client.end();
    const copyStarted = performance.now();
    execFileSync('psql', [directUrl, '-qc', `\\copy data.copy_target (${columns.join(', ')}) from '${finished}' with (format csv, header true)`]);
    copySeconds = (performance.now() - copyStarted) / 1000;
  }
  await environment.drop();
  return { seconds, growth, serverCpu, copySeconds, counts, againSeconds };
}

console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
const lines = ['| scenario | backend | server | source rows | rows written | file MB | seconds | source rows/s | server RSS growth MiB | server CPU s | COPY s | API / COPY time | again s |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|'];
const servers: [string, string | undefined][] = [['this', undefined], ...(args.reference ? [['reference', path.resolve(args.reference, 'apps/server/src/main.ts')] as [string, string]] : [])];
const catalogue = scenario === 'products' ? null : await writeLines(path.join(scratch, 'catalogue.csv'), productColumns.join(','), CATALOGUE, catalogueLine);
for (const rows of (args.rows ?? '').split(',').map(Number)) {
  const file =
    scenario === 'products'
      ? await writeLines(path.join(scratch, `products-${rows}.csv`), productColumns.join(','), rows, productLine)
      : scenario === 'sales'
        ? await writeLines(path.join(scratch, `sales-${rows}.csv`), 'StockCode,InvoiceDate,Quantity', rows, saleLine(rows))
        : scenario === 'stock'
          ? await writeLines(path.join(scratch, `stock-${rows}.csv`), 'StockCode,Day,Counted', rows, countLine)
          : await writeXlsx(path.join(scratch, `sales-${rows}.xlsx`), rows);
  const megabytes = statSync(file).size / 1024 / 1024;
  for (const backend of (args.backends ?? '').split(',').filter(Boolean)) {
    for (const [serverName, mainScript] of servers) {
      const { seconds, growth, serverCpu, copySeconds, counts, againSeconds } = await importThroughApi(backend, file, catalogue, mainScript);
      lines.push(
        `| ${scenario} | ${backend} | ${serverName} | ${rows.toLocaleString()} | ${(counts.written ?? counts.inserted).toLocaleString()} | ${megabytes.toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(rows / seconds).toLocaleString()} | ${Math.round(growth)} | ${serverCpu.toFixed(1)} | ${copySeconds?.toFixed(1) ?? '-'} | ${copySeconds ? (seconds / copySeconds).toFixed(1) : '-'} | ${againSeconds?.toFixed(1) ?? '-'} |`,
      );
      console.log(lines.at(-1));
    }
  }
}
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
rmSync(scratch, { recursive: true, force: true });
console.log(lines.join('\n'));
