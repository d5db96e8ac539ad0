// Trying an endpoint before saving (POST /api/integrations/try/) on PGlite and PostgreSQL, the shop a
// real HTTP server on 127.0.0.1 admitted through OUTBOUND_ALLOWED_HOSTS: a nested orders page gets
// a mapping proposed and its first records typed, a mapping sent types them instead (a bad value is
// its row's error), the first run's window and the auth header go out as a run sends them, what
// cannot be fetched or read is a 400 naming the field, and nothing is ever written.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { MASKED_SECRET, type IntegrationTryResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;

/** A web shop's orders page: one line per order, the product and quantity nested, the date as the shop writes it. */
const ordersPage = (codes: string[]) => ({
  data: {
    orders: codes.map((code, at) => ({
      id: 1000 + at,
      created_at: `2026-03-0${at + 1}T10:15:00Z`,
      customer: { email: `buyer${at}@example.com` },
      line: { product: { sku: code, title: `Item ${code}` }, quantity: at + 2, price: '9.90' },
    })),
  },
  next: null,
});

describe.each(backends)('trying an endpoint on %s', (backend) => {
  const { server, source: shop, admin } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '500', OUTBOUND_MAX_RESPONSE_BYTES: '100000' });
  let editor: string;

  beforeAll(async () => {
    editor = (await signUpUser(server(), { role: 'editor' })).access;
    for (const code of ['TRY-1', 'TRY-2']) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code, name: `Item ${code}` }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
  });

  const tryEndpoint = (body: Record<string, unknown>, token = admin()) => server().request('/api/integrations/try/', { body: { target_entity: 'sales', ...body }, token });
  const stored = async () => ({
    sales: (await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(server().database.db)).rows[0]?.n,
    integrations: (await sql<{ n: number }>`select count(*)::int as n from integrations`.execute(server().database.db)).rows[0]?.n,
  });

  it('proposes product code, date and quantity from a nested orders page and types its first five records, writing nothing', async () => {
    shop().route('/orders', (_request, response) => sendJson(response, ordersPage(['TRY-1', 'TRY-2', 'NOPE-9', 'TRY-1', 'TRY-2', 'TRY-1'])));
    const before = await stored();
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/orders`, records_path: 'data.orders' });
    expect(answer.status, answer.text).toBe(200);
    const tried = answer.json as unknown as IntegrationTryResponse;
    expect(tried.record_count).toBe(6);
    expect(tried.proposed_mapping).toEqual({ product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' });
    expect(tried.paths.map((p) => p.path)).toEqual(['id', 'created_at', 'customer.email', 'line.product.sku', 'line.product.title', 'line.quantity', 'line.price']);
    expect(tried.paths.find((p) => p.path === 'line.product.sku')?.samples).toEqual(['TRY-1', 'TRY-2', 'NOPE-9']);
    expect(tried.rows).toHaveLength(5);
    expect(tried.rows[0]).toEqual({ row: 1, values: { product_id: 'TRY-1', date: '2026-03-01', quantity: 2 }, problems: {} });
    expect(tried.rows[2]?.problems).toEqual({ product_id: "product code NOPE-9 does not exist. Save the mapping with 'Create products for unknown codes' ticked (Settings → Data integration) to create it, or add it on the Data screen." });
    expect(tried.targets.map((t) => t.field)).toEqual(['product_id', 'date', 'quantity']);
    expect(await stored()).toEqual(before);
  });

  it("proposes leaving out refunded, voided and cancelled orders though its first page holds only a refunded one: later pages hold the others (QA feed F4)", async () => {
    const lines = (status: string, code: string) => ({ id: 1, created_at: '2026-03-01T10:15:00-06:00', financial_status: status, line_items: [{ sku: code, quantity: 2 }] });
    shop().route('/feed-orders', (_request, response) => sendJson(response, { orders: [lines('paid', 'TRY-1'), lines('refunded', 'TRY-2')], next: null }));
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/feed-orders`, records_path: 'orders[].line_items' });
    expect(answer.status, answer.text).toBe(200);
    const tried = answer.json as unknown as IntegrationTryResponse;
    expect(tried.proposed_row_filters).toEqual([{ column: 'order.financial_status', values: ['refunded', 'voided', 'cancelled'] }]);
  });

  it('types the records by a mapping sent, a bad value being its row\u2019s error', async () => {
    shop().route('/lines', (_request, response) => sendJson(response, [{ sku: 'TRY-1', day: '05.03.2026', qty: 'zwei' }, { sku: 'TRY-2', day: '06.03.2026', qty: '4' }]));
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/lines`, mapping: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } });
    expect(answer.status, answer.text).toBe(200);
    const tried = answer.json as unknown as IntegrationTryResponse;
    expect(tried.rows.map((r) => r.values)).toEqual([
      { product_id: 'TRY-1', date: '2026-03-05', quantity: 'zwei' },
      { product_id: 'TRY-2', date: '2026-03-06', quantity: 4 },
    ]);
    expect(tried.rows[0]?.problems).toEqual({ quantity: 'Expected a number, found "zwei".' });
    expect(tried.rows[1]?.problems).toEqual({});
    expect(tried.date_format.detected).toBe('dd.mm.yyyy');
  });

  it('shows a date refused for its range, and a skipped line\u2019s date, as read (as the other lines), a date that does not read as found', async () => {
    shop().route('/dated', (_request, response) =>
      sendJson(response, [
        { sku: 'TRY-1', day: '05.03.2026', qty: 1 },
        { sku: 'TRY-2', day: '05.01.2126', qty: 1 },
        { sku: '', day: '06.03.2026', qty: 1 },
        { sku: 'TRY-1', day: 'soon', qty: 1 },
        { sku: 'TRY-2', day: '2026-03-07T10:15:00Z', qty: 1 },
      ]),
    );
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/dated`, mapping: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, skip_rows_without_code: true } });
    expect(answer.status, answer.text).toBe(200);
    const tried = answer.json as unknown as IntegrationTryResponse;
    expect(tried.rows.map((r) => r.values.date)).toEqual(['2026-03-05', '2126-01-05', '2026-03-06', 'soon', '2026-03-07']);
    expect(tried.rows[1]?.problems).toEqual({ date: '2126-01-05 is in the future: sales and stock counts are dated when they happened (today at the latest).' });
    expect(tried.rows[2]).toMatchObject({ skipped: true, problems: {} });
    expect(tried.rows[3]?.problems.date).toMatch(/^Expected a date/);
  });

  it("reads records through a file's mapping that says its header row: JSON has none, the row is not looked at", async () => {
    shop().route('/counted', (_request, response) => sendJson(response, [{ sku: 'TRY-1', day: '2026-03-05', qty: 3 }]));
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/counted`, mapping: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, header_row: 3 } });
    expect(answer.status, answer.text).toBe(200);
    expect((answer.json as unknown as IntegrationTryResponse).rows).toEqual([{ row: 1, values: { product_id: 'TRY-1', date: '2026-03-05', quantity: 3 }, problems: {} }]);
  });

  it("asks for the first run's {from}/{to} window and sends the auth header, the typed one or the stored one of the integration edited", async () => {
    shop().route('/locked', (request, response) => (request.headers['x-api-key'] === 'secret-1' ? sendJson(response, ordersPage(['TRY-1'])) : void response.writeHead(401).end()));
    const endpoint = `${shop().origin}/locked?from={from}&to={to}`;
    const typed = await tryEndpoint({ endpoint, records_path: 'data.orders', previous_days: 7, auth_header_name: 'X-Api-Key', auth_header_value: 'secret-1' });
    expect(typed.status, typed.text).toBe(200);
    const [request] = shop().requestsTo('/locked');
    const today = Date.now();
    expect([request?.url.searchParams.get('from'), request?.url.searchParams.get('to')]).toEqual([new Date(today - 7 * DAY_MS).toISOString().slice(0, 10), new Date(today).toISOString().slice(0, 10)]);

    const saved = await server().request('/api/integrations/scheduled/', { body: { endpoint, mapping_selection: 'shop_export_json', target_entity: 'products', auth_header_name: 'X-Api-Key', auth_header_value: 'secret-1' }, token: admin() });
    expect(saved.status, saved.text).toBe(201);
    const withStored = await tryEndpoint({ endpoint, records_path: 'data.orders', integration_id: saved.json.id, auth_header_name: 'X-Api-Key', auth_header_value: MASKED_SECRET });
    expect(withStored.status, withStored.text).toBe(200);
    expect(withStored.json.record_count).toBe(1);

    const without = await tryEndpoint({ endpoint });
    expect(without.status).toBe(400);
    expect(without.json.errors).toEqual({ endpoint: [expect.stringMatching(/answered HTTP 401 for page 1\. The integration sends no auth header: add one \(the integration.s Authentication: Header name and Header value\)/)] });
  });

  it('refuses an address inside the network in the words saving uses, and says what a page that cannot be read was', async () => {
    shop().route('/login-page', (_request, response) => void response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title>'));
    shop().route('/no-orders', (_request, response) => sendJson(response, { data: { orders: [] } }));
    shop().route('/flat', (_request, response) => sendJson(response, { status: 'ok' }));
    const before = shop().requests.length;
    const refused = await tryEndpoint({ endpoint: `http://127.0.0.2:${shop().port}/orders` });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ endpoint: [expect.stringMatching(/^This address is on the Stockwise server's own machine \(127\.0\.0\.2\)\. .*OUTBOUND_ALLOWED_HOSTS=127\.0\.0\.2\)/)] });
    expect(shop().requests.length).toBe(before);

    const html = await tryEndpoint({ endpoint: `${shop().origin}/login-page` });
    expect(html.status).toBe(400);
    expect(html.json).toMatchObject({ code: 'validation_error', detail: 'Page 1 is neither JSON nor CSV: the endpoint answered text/html ("<!doctype html><title>Sign in</title>").', errors: { endpoint: [expect.any(String)] } });

    const wrongPath = await tryEndpoint({ endpoint: `${shop().origin}/no-orders`, records_path: 'orders' });
    expect(wrongPath.status).toBe(400);
    expect(wrongPath.json.errors).toEqual({ records_path: ["The answer has no array at 'orders'."] });
    expect((await tryEndpoint({ endpoint: `${shop().origin}/flat` })).json.errors).toEqual({ records_path: ['The answer holds no array of records (set the records path).'] });

    const empty = await tryEndpoint({ endpoint: `${shop().origin}/no-orders`, records_path: 'data.orders' });
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({ record_count: 0, paths: [], rows: [] });

    const closed = await tryEndpoint({ endpoint: 'http://127.0.0.1:1/orders' });
    expect(closed.status).toBe(400);
    expect(closed.json.errors).toEqual({ endpoint: [expect.stringMatching(/127\.0\.0\.1/)] });
  });

  it("waits out a shop's 429 asking for a second once, and says when to try again when it asks for longer (QA6 #20)", async () => {
    let asked = 0;
    shop().route('/limited-once', (_request, response) => {
      asked += 1;
      if (asked === 1) return void response.writeHead(429, { 'retry-after': '1' }).end();
      return sendJson(response, ordersPage(['TRY-1']));
    });
    const started = Date.now();
    const waited = await tryEndpoint({ endpoint: `${shop().origin}/limited-once`, records_path: 'data.orders' });
    expect(waited.status, waited.text).toBe(200);
    expect(asked).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    shop().route('/limited-long', (_request, response) => void response.writeHead(429, { 'retry-after': '30' }).end());
    const long = await tryEndpoint({ endpoint: `${shop().origin}/limited-long`, records_path: 'data.orders' });
    expect(long.status).toBe(400);
    expect(long.json.errors).toEqual({ endpoint: ['The shop is limiting requests (HTTP 429): try again in 30 seconds.'] });

    let limitedAgain = 0;
    shop().route('/limited-again', (_request, response) => {
      limitedAgain += 1;
      return void response.writeHead(429, { 'retry-after': '1' }).end();
    });
    const again = await tryEndpoint({ endpoint: `${shop().origin}/limited-again`, records_path: 'data.orders' });
    expect(again.json.errors).toEqual({ endpoint: ['The shop is limiting requests (HTTP 429): try again in 1 second.'] });
    expect(limitedAgain).toBe(2);
  });

  it('is for admins, as creating an integration is', async () => {
    const answer = await tryEndpoint({ endpoint: `${shop().origin}/orders` }, editor);
    expect(answer.status).toBe(403);
  });
});
