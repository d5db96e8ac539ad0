// The reference of bench/api-overhead: node:http and the database driver, nothing else. It answers
// the benchmark's three requests by running exactly the statements the API runs for them (the
// text of apps/server/src/tables/repo.ts as Kysely compiles it, checked against PostgreSQL's
// statement log; the forecast read's text imported from forecasting/repo.ts) and writing the same JSON. No authentication, no routing
// library, no validation: what is left is the cost of the database and of Node itself.
//   DATABASE_URL=postgres://… | DATA_DIR=/pglite/dir  PORT=…  node bench/api-overhead/bare-server.ts
import http from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { PRODUCT_FORECAST_BY_CODE } from '../../apps/server/src/forecasting/repo.ts';
import { HISTORY_DAYS, productForecastJson } from '../../apps/server/src/forecasting/service.ts';

// The API's type parsers (apps/server/src/db/database.ts): int8 and numeric as numbers, dates as text.
const valueParsers: Record<number, (value: string) => unknown> = { 20: Number, 1700: Number, 1082: (value) => value };
type Row = Record<string, unknown>;
type Query = (text: string, values: unknown[]) => Promise<Row[]>;

async function connect(): Promise<Query> {
  if (process.env.DATA_DIR) {
    const pglite = await PGlite.create(process.env.DATA_DIR, { parsers: valueParsers, extensions: { pg_trgm } });
    return async (text, values) => (await pglite.query<Row>(text, values)).rows;
  }
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => valueParsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser },
  });
  return async (text, values) => (await pool.query<Row>(text, values)).rows;
}

const EXACT_COUNT_LIMIT = 10_000;
const SALES_COLUMNS = ['id', 'product_id', 'date', 'quantity'];

/** `GET /api/records/tables/sales/data/?page=1&page_size=N&sort_by=C&sort_dir=D[&filters_json={"product_id":ID}]`. */
async function salesPage(query: Query, params: URLSearchParams): Promise<string> {
  const pageSize = Number(params.get('page_size'));
  const sortBy = params.get('sort_by') ?? 'id';
  if (!SALES_COLUMNS.includes(sortBy)) throw new Error(`bare server: cannot sort by ${sortBy}`);
  const sortDir = params.get('sort_dir') === 'desc' ? 'desc' : 'asc';
  const filtersJson = params.get('filters_json');
  const productId = filtersJson ? (JSON.parse(filtersJson) as { product_id: number }).product_id : null;
  const where = productId === null ? '' : 'where "product_id" = $1';
  const next = productId === null ? 1 : 2;
  const filterValues = productId === null ? [] : [productId];
  const [rows, total] = await Promise.all([
    query(`select "id", "product_id", "date", "quantity", xmin::text as "_version" from "data"."sales" ${where} order by "${sortBy}" ${sortDir}, id ${sortDir} limit $${next} offset $${next + 1}`, [
      ...filterValues,
      pageSize + 1,
      0,
    ]),
    (async () => {
      if (productId === null) {
        const [estimate] = await query(
          `select c.reltuples::float8 as estimate from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'data' and c.relname = $1`,
          ['sales'],
        );
        const value = Number(estimate?.estimate ?? -1);
        if (value > EXACT_COUNT_LIMIT) return { count: Math.round(value), estimated: true };
      }
      const [capped] = await query(`select count(*)::int as n from (select 1 from "data"."sales" ${where} limit $${next}) capped`, [...filterValues, EXACT_COUNT_LIMIT + 1]);
      const n = Number(capped?.n ?? 0);
      if (n <= EXACT_COUNT_LIMIT) return { count: n, estimated: false };
      const [plan] = await query(`explain (format json) select 1 from "data"."sales" ${where}`, filterValues);
      const estimate = Number((plan?.['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }] | undefined)?.[0].Plan['Plan Rows'] ?? 0);
      return { count: Math.max(estimate, n), estimated: true };
    })(),
  ]);
  const hasNext = rows.length > pageSize;
  const results = hasNext ? rows.slice(0, pageSize) : rows;
  // The page's products as `code — name` (the configuration's entity key of products, and its name).
  const productIds = [...new Set(results.map((row) => row.product_id).filter((id) => id !== null && id !== undefined).map(Number))];
  const labels: Record<string, string> = {};
  if (productIds.length) {
    const found = await query('select id::text as id, "product_code"::text as key, "name"::text as name from "data"."products" where id = any($1::bigint[])', [productIds]);
    for (const row of found) labels[row.id as string] = [row.key, row.name].filter((part) => part !== null && part !== '').join(' — ');
  }
  const last = results.at(-1);
  let nextLink: string | null = null;
  if (hasNext && last) {
    const link = new URLSearchParams({ page: '2', page_size: String(pageSize), sort_dir: sortDir, sort_by: sortBy });
    if (filtersJson) link.set('filters_json', filtersJson);
    link.set('after', Buffer.from(JSON.stringify([last[sortBy] ?? null, Number(last.id)])).toString('base64url'));
    nextLink = `/api/records/tables/sales/data/?${link.toString()}`;
  }
  return JSON.stringify({ results, count: total.count, count_is_estimate: total.estimated, next: nextLink, previous: null, ...(results.length ? { references: { product_id: labels } } : {}) });
}

/** `GET /api/forecasting/forecasts/{code}` of a product with a stored forecast. */
async function productForecast(query: Query, code: string): Promise<string | null> {
  const [row] = await query(PRODUCT_FORECAST_BY_CODE, [HISTORY_DAYS, code]);
  return row?.result ? productForecastJson(row as never) : null;
}

const query = await connect();
const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bare');
  const send = (status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  const forecast = /^\/api\/forecasting\/forecasts\/([^/]+)$/.exec(url.pathname);
  const answer =
    url.pathname === '/api/records/tables/sales/data/' ? salesPage(query, url.searchParams) : forecast ? productForecast(query, decodeURIComponent(forecast[1] as string)) : Promise.resolve(null);
  answer.then(
    (body) => (body === null ? send(404, '{"error":"not found"}') : send(200, body)),
    (error: unknown) => send(500, JSON.stringify({ error: String(error) })),
  );
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
