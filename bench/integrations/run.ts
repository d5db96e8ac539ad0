// Integration run benchmark: a paged JSON source on 127.0.0.1 (this process) holding N product
// records, pulled by the real server (its own process) through a scheduled integration's "run
// now", per batch size: the first run (every row new) and a second run (every row an update).
// The reference, measured in the same run: the same records as one JSON file through the file
// import (POST /api/records/process-file/), which writes through the same records writer in one
// transaction. Times are the server's own (the run log's start and end; the import's duration_ms).
//   flock /tmp/stockwise-bench.lock node bench/integrations/run.ts [--rows 100000] [--page-size 1000] [--batch-sizes 100,1000,5000] [--backends postgres]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEndpointServer } from '../../apps/server/src/testing/endpoint-server.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';
import { callJson, startServerProcess, type ServerProcess } from '../../apps/server/src/testing/server-process.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'page-size': { type: 'string', default: '1000' },
    'batch-sizes': { type: 'string', default: '100,1000,5000' },
    backends: { type: 'string', default: 'postgres' },
  },
});
const rows = Number(args.rows);
const pageSize = Number(args['page-size']);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// The shipped shop_export_json mapping reads these paths (nested objects, as a web shop exports).
const record = (i: number) => ({
  sku: `INT-${String(i).padStart(8, '0')}`,
  title: `Benchmark product ${i}, size ${i % 7}`,
  category: { name: `Category ${i % 40}` },
  stock: { on_hand: i % 1000 },
  pricing: { unit_cost: ((i % 10_000) / 100).toFixed(2) },
  supplier: { lead_time_days: 7 + (i % 14) },
});
const pages = Math.ceil(rows / pageSize);
// Built before any timing so the source answers at once.
const pageBodies = Array.from({ length: pages + 1 }, (_, p) => JSON.stringify({ items: Array.from({ length: p < pages ? Math.min(pageSize, rows - p * pageSize) : 0 }, (_, i) => record(p * pageSize + i)) }));
const wholeFile = JSON.stringify(Array.from({ length: rows }, (_, i) => record(i)));

const source = await startEndpointServer();
source.route('/products', (request, response) => {
  const page = Number(request.url.searchParams.get('page'));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(pageBodies[page - 1] ?? pageBodies[pages]);
});

const credentials = { username: 'bench', password: 'bench password 2026' };
const call = callJson;

type RunLog = { status: string; started_at: string; finished_at: string; rows_inserted: number; rows_updated: number; requests: number; error_message: string | null };

async function runNow(server: ServerProcess, token: string, id: number): Promise<RunLog> {
  await call(server, `/api/integrations/scheduled/${id}/run/`, { token, body: {} });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const status = (await call(server, `/api/integrations/scheduled/${id}/status/`, { token })).status;
    if (status === 'idle' || status === 'failed') break;
  }
  const [latest] = ((await call(server, `/api/integrations/scheduled/${id}/logs/?page_size=1`, { token })) as { results: RunLog[] }).results;
  if (!latest || latest.status !== 'success') throw new Error(`run failed: ${latest?.error_message ?? 'no log'}`);
  return latest;
}

const seconds = (log: RunLog) => (Date.parse(log.finished_at) - Date.parse(log.started_at)) / 1000;

async function measure(backend: string, batchSize: number) {
  const database = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-integration-bench' });
  const server = await startServerProcess({ ...database.env, DEMO_DATA: 'false', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  try {
    await call(server, '/api/accounts/register/', { body: credentials });
    const token = (await call(server, '/api/token/', { body: credentials })).access as string;
    const created = await call(server, '/api/integrations/scheduled/', {
      token,
      body: { endpoint: `${source.origin}/products?per_page=${pageSize}`, pagination: 'page_parameter', records_path: 'items', rate_limit: 6000, batch_size: batchSize, mapping_selection: 'shop_export_json', target_entity: 'products' },
    });
    const first = await runNow(server, token, created.id as number);
    const second = await runNow(server, token, created.id as number);
    return { first, second };
  } finally {
    await server.stop();
    await database.drop();
  }
}

async function fileImport(backend: string) {
  const database = await createScratchDatabase(backend === 'pglite' ? 'pglite-disk' : 'postgres', { adminUrl: postgresUrl, namePrefix: 'stockwise-integration-bench' });
  const server = await startServerProcess({ ...database.env, DEMO_DATA: 'false', UPLOAD_MAX_BYTES: String(1024 ** 3) });
  try {
    await call(server, '/api/accounts/register/', { body: credentials });
    const token = (await call(server, '/api/token/', { body: credentials })).access as string;
    const form = new FormData();
    form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'sku', name: 'title', category: 'category.name', current_stock: 'stock.on_hand', unit_cost: 'pricing.unit_cost', lead_time_days: 'supplier.lead_time_days' } } } }));
    form.append('entity_type', 'products');
    form.append('file', new Blob([wholeFile], { type: 'application/json' }), 'products.json');
    const response = await fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const result = (await response.json()) as { duration_ms?: number; counts?: { inserted: number } };
    if (response.status !== 200 || result.duration_ms === undefined) throw new Error(`import failed: ${response.status} ${JSON.stringify(result).slice(0, 300)}`);
    return { seconds: result.duration_ms / 1000, inserted: result.counts?.inserted ?? 0 };
  } finally {
    await server.stop();
    await database.drop();
  }
}

console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
const lines = [
  `${rows.toLocaleString()} product records, ${pages} pages of ${pageSize} (page parameter), shop_export_json mapping (nested paths), rate_limit 6000/min`,
  '',
  '| backend | batch_size | first run s | first run rows/s | second run (updates) s | second run rows/s |',
  '|---|---|---|---|---|---|',
];
for (const backend of (args.backends ?? '').split(',').filter(Boolean)) {
  for (const batchSize of (args['batch-sizes'] ?? '').split(',').map(Number)) {
    const { first, second } = await measure(backend, batchSize);
    if (first.rows_inserted !== rows || second.rows_updated !== rows) throw new Error(`unexpected counts: ${JSON.stringify({ first, second })}`);
    lines.push(`| ${backend} | ${batchSize} | ${seconds(first).toFixed(1)} | ${Math.round(rows / seconds(first)).toLocaleString()} | ${seconds(second).toFixed(1)} | ${Math.round(rows / seconds(second)).toLocaleString()} |`);
    console.log(lines.at(-1));
  }
  const reference = await fileImport(backend);
  lines.push(`| ${backend} | file import (one transaction, reference) | ${reference.seconds.toFixed(1)} | ${Math.round(rows / reference.seconds).toLocaleString()} | | |`);
  console.log(lines.at(-1));
}
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
await source.close();
console.log(lines.join('\n'));
