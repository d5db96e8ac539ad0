// Scheduled integrations on PGlite and PostgreSQL, each data source a real HTTP server on 127.0.0.1
// admitted through OUTBOUND_ALLOWED_HOSTS: CRUD with the spec's defaults and field errors, roles,
// the masked auth header, paging (next field, Link header, page parameter), pacing, batches as
// transactions, retries, timeouts, size caps, redirects, SSRF refusals, the {from}/{to} window,
// a mapping that does not fit, pausing after failed runs, run now and the paged log.
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, MASKED_SECRET, type Integration } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';
import { catalogueRunsSettled } from '../testing/forecast-client.ts';

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Shop-export records (the shipped shop_export_json mapping reads sku, title, stock.on_hand, pricing.unit_cost). */
const shopRecords = (prefix: string, from: number, count: number, stock = 1) =>
  Array.from({ length: count }, (_, i) => ({ sku: `${prefix}${String(from + i).padStart(4, '0')}`, title: `Item ${from + i}`, stock: { on_hand: stock + i }, pricing: { unit_cost: '2.50' }, category: { name: 'Garden' } }));

describe.each(backends)('scheduled integrations on %s', (backend) => {
  const { server, source, admin, saveMapping, createIntegration, runNow: run } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '500', OUTBOUND_MAX_RESPONSE_BYTES: '100000', INTEGRATION_RETRIES: '2', INTEGRATION_RETRY_DELAY_MS: '20', INTEGRATION_PAUSE_AFTER_FAILURES: '3' });
  let editor: string;
  let viewer: string;
  let prefixCounter = 0;

  beforeAll(async () => {
    [editor, viewer] = [(await signUpUser(server(), { role: 'editor' })).access, (await signUpUser(server(), { role: 'viewer' })).access];
  });

  const uniquePrefix = () => `I${backend[0]}${(prefixCounter += 1)}-`;
  const create = async (body: Record<string, unknown>, token = admin()) => server().request('/api/integrations/scheduled/', { body, token });
  const createOk = (body: Record<string, unknown>) => createIntegration({ mapping_selection: 'shop_export_json', target_entity: 'products', ...body });
  const products = async (prefix: string) =>
    (await sql<{ product_code: string; name: string; current_stock: number }>`select product_code, name, current_stock from data.products where product_code like ${`${prefix}%`} order by product_code`.execute(server().database.db)).rows;
  /** Products `<prefix>0001`… (`code(n)`) under a fresh prefix, stored by a run of the shop export, for a test's sales to refer to. */
  const storeCatalogue = async (count: number) => {
    const prefix = uniquePrefix();
    source().route(`/catalogue-${prefix}`, (_request, response) => sendJson(response, shopRecords(prefix, 1, count)));
    expect(await run((await createOk({ endpoint: `${source().origin}/catalogue-${prefix}` })).id)).toMatchObject({ status: 'success' });
    return { prefix, code: (n: number) => `${prefix}${String(n).padStart(4, '0')}` };
  };
  const logs = async (id: number, query = '') => (await server().request(`/api/integrations/scheduled/${id}/logs/${query}`, { token: viewer })).json as { results: Record<string, unknown>[]; count: number; next: number | null };

  it('creates with the spec defaults, lists, reads, changes only what is sent, and deletes', async () => {
    const created = await create({ endpoint: `${source().origin}/none` });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      enabled: false,
      schedule_frequency: 'hourly',
      schedule_cron: '0 * * * *',
      time_zone: 'UTC',
      data_action: 'upsert',
      data_fetch_type: 'latest',
      initial_setup: false,
      rate_limit: 60,
      batch_size: 100,
      previous_days: null,
      status: 'idle',
      mapping_selection: 'product_catalogue_csv',
      target_entity: 'products',
      next_run_time: null,
      auth_header_value: null,
    });
    const id = created.json.id as number;
    const enabled = await server().request(`/api/integrations/scheduled/${id}/`, { method: 'PUT', body: { enabled: true, schedule_frequency: 'custom', cron_expression: '30 6 * * 1-5', rate_limit: null, batch_size: null }, token: admin() });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.json).toMatchObject({ enabled: true, endpoint: `${source().origin}/none`, schedule_cron: '30 6 * * 1-5', rate_limit: 60, batch_size: 100 });
    const next = new Date(enabled.json.next_run_time as string);
    expect(next.getUTCHours() * 60 + next.getUTCMinutes()).toBe(6 * 60 + 30);
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());
    expect((await server().queue.boss.getSchedules('integrations.run', String(id))).map((s) => s.cron)).toEqual(['30 6 * * 1-5']);
    expect((await server().request('/api/integrations/scheduled/', { token: viewer })).json).toEqual(expect.arrayContaining([expect.objectContaining({ id, enabled: true })]));
    expect((await server().request(`/api/integrations/scheduled/${id}/status/`, { token: viewer })).json).toMatchObject({ id, status: 'idle', enabled: true, last_run_time: null, next_run_time: enabled.json.next_run_time, last_error_message: null });
    const disabled = await server().request(`/api/integrations/scheduled/${id}/`, { method: 'PUT', body: { enabled: false }, token: admin() });
    expect(disabled.json).toMatchObject({ enabled: false, next_run_time: null, schedule_cron: '30 6 * * 1-5' });
    expect(await server().queue.boss.getSchedules('integrations.run', String(id))).toEqual([]);
    expect((await server().request(`/api/integrations/scheduled/${id}/`, { method: 'DELETE', token: admin() })).status).toBe(200);
    expect((await server().request(`/api/integrations/scheduled/${id}/`, { token: viewer })).status).toBe(404);
    expect((await server().request(`/api/integrations/scheduled/${id}/status/`, { token: viewer })).json).toMatchObject({ code: 'not_found', detail: `Integration ${id} not found.` });
  });

  it("runs a daily schedule at midnight in the integration's time zone, and moves it when the zone changes", async () => {
    const created = await create({ endpoint: `${source().origin}/none`, enabled: true, schedule_frequency: 'daily', time_zone: 'America/New_York' });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const hourThere = (iso: unknown, zone: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(new Date(iso as string));
    expect(created.json).toMatchObject({ time_zone: 'America/New_York', schedule_cron: '0 0 * * *' });
    expect(hourThere(created.json.next_run_time, 'America/New_York')).toBe('00:00');
    expect(hourThere(created.json.next_run_time, 'UTC')).not.toBe('00:00');
    expect((await server().queue.boss.getSchedules('integrations.run', String(id))).map((s) => [s.cron, s.timezone])).toEqual([['0 0 * * *', 'America/New_York']]);

    const moved = await server().request(`/api/integrations/scheduled/${id}/`, { method: 'PUT', body: { time_zone: 'Asia/Tokyo' }, token: admin() });
    expect(hourThere(moved.json.next_run_time, 'Asia/Tokyo')).toBe('00:00');
    expect((await server().queue.boss.getSchedules('integrations.run', String(id))).map((s) => s.timezone)).toEqual(['Asia/Tokyo']);

    const refused = await server().request(`/api/integrations/scheduled/${id}/`, { method: 'PUT', body: { time_zone: 'Mars/Olympus_Mons' }, token: admin() });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ time_zone: ['Choose a time zone such as Europe/Berlin or America/New_York.'] });
    expect((await server().request(`/api/integrations/scheduled/${id}/`, { token: viewer })).json).toMatchObject({ time_zone: 'Asia/Tokyo' });
  });

  it('describes every integration route in the OpenAPI document', async () => {
    const docs = await server().request('/api/docs/json');
    expect(docs.status).toBe(200);
    const paths = Object.keys((docs.json.paths ?? {}) as object).filter((path) => path.startsWith('/api/integrations/'));
    expect(paths.sort()).toEqual(['/api/integrations/scheduled/', '/api/integrations/scheduled/{id}/', '/api/integrations/scheduled/{id}/logs/', '/api/integrations/scheduled/{id}/run/', '/api/integrations/scheduled/{id}/status/', '/api/integrations/try/']);
  });

  it('refuses what cannot be saved with a 400 naming each field, and saves nothing', async () => {
    const before = (await server().request('/api/integrations/scheduled/', { token: admin() })).json as unknown as unknown[];
    const answer = await create({ endpoint: 'gopher://x', schedule_frequency: 'custom', cron_expression: '61 * * * *', data_fetch_type: 'historical', mapping_selection: 'nope' });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('validation_error');
    expect(Object.keys(answer.json.errors as object)).toEqual(['endpoint']);
    const semantic = await create({ endpoint: `${source().origin}/x`, schedule_frequency: 'custom', cron_expression: '61 * * * *', data_fetch_type: 'historical', mapping_selection: 'nope' });
    expect(semantic.status).toBe(400);
    expect(semantic.json.errors).toMatchObject({
      cron_expression: [expect.stringMatching(/Not a valid cron expression/)],
      mapping_selection: ["Mapping config 'nope' not found."],
      previous_days: ['A historical fetch needs the number of previous days.'],
    });
    expect((await create({ endpoint: `${source().origin}/x`, schedule_frequency: 'custom', cron_expression: '*/5 * * * * *' })).json.errors).toMatchObject({ cron_expression: [expect.stringMatching(/five fields/)] });
    expect((await create({ endpoint: `${source().origin}/x`, rate_limit: 0, batch_size: 'ten' })).status).toBe(400);
    // A batch size of 0 is refused with the allowed range, never saved as another number.
    expect((await create({ endpoint: `${source().origin}/x`, batch_size: 0, rate_limit: 6001, previous_days: 0 })).json).toMatchObject({
      code: 'validation_error',
      errors: { batch_size: ['Enter a whole number from 1 to 10,000.'], rate_limit: ['Enter a whole number from 1 to 6,000.'], previous_days: ['Enter a whole number from 1 to 3,660.'] },
    });
    // Text PostgreSQL cannot store is refused at the contract, never a 500 from the database.
    for (const field of ['endpoint', 'records_path', 'page_parameter', 'auth_header_value', 'mapping_selection']) {
      const value = field === 'endpoint' ? `${source().origin}/x\u0000` : 'a\u0000b';
      expect((await create({ endpoint: `${source().origin}/x`, [field]: value })).json, field).toMatchObject({ code: 'validation_error', errors: { [field]: [expect.stringMatching(/NUL/)] } });
    }
    expect((await server().request('/api/integrations/scheduled/', { token: admin() })).json).toHaveLength(before.length);
    for (const id of ['abc', '0', '1.5', '99999999999999']) expect((await server().request(`/api/integrations/scheduled/${id}/`, { token: admin() })).status, id).toBe(400);
    expect((await server().request('/api/integrations/scheduled/1/logs/?page=99999999999', { token: admin() })).status).toBe(400);
  });

  it('lets admins change, editors run and viewers read', async () => {
    const integration = await createOk({ endpoint: `${source().origin}/roles` });
    source().route('/roles', (_request, response) => sendJson(response, []));
    expect((await create({ endpoint: `${source().origin}/x` }, editor)).status).toBe(403);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'PUT', body: { enabled: true }, token: editor })).status).toBe(403);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'DELETE', token: editor })).status).toBe(403);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/run/`, { body: {}, token: viewer })).status).toBe(403);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/run/`, { body: {}, token: editor })).status).toBe(200);
    // A bare POST (curl -X POST, no body) runs too: the body has nothing to say yet (QA3 #13).
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/run/`, { method: 'POST', token: editor })).status).toBe(200);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: viewer })).status).toBe(200);
  });

  it('stores the auth header encrypted, sends it in clear only to the endpoint, and answers it masked', async () => {
    const secret = `Bearer tok-${Math.random().toString(36).slice(2)}`;
    const prefix = uniquePrefix();
    source().route('/auth', (request, response) => (request.headers['x-api-key'] === secret ? sendJson(response, shopRecords(prefix, 1, 2)) : response.writeHead(401).end()));
    const integration = await createOk({ endpoint: `${source().origin}/auth`, auth_header_name: 'X-Api-Key', auth_header_value: secret });
    expect(integration.auth_header_value).toBe(MASKED_SECRET);
    const stored = await server().database.db.selectFrom('integrations').select('auth_header_secret').where('id', '=', integration.id).executeTakeFirstOrThrow();
    expect(stored.auth_header_secret).not.toContain(secret.slice(7));
    for (const path of ['/api/integrations/scheduled/', `/api/integrations/scheduled/${integration.id}/`]) {
      expect((await server().request(path, { token: admin() })).text).not.toContain(secret.slice(7));
    }
    // Sending the mask back (as the editor does) keeps the stored value.
    const kept = await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'PUT', body: { auth_header_value: MASKED_SECRET, batch_size: 50 }, token: admin() });
    expect(kept.text).not.toContain(secret.slice(7));
    expect(await run(integration.id)).toMatchObject({ status: 'success' });
    expect(await products(prefix)).toHaveLength(2);
    const removed = await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'PUT', body: { auth_header_value: null }, token: admin() });
    expect(removed.json.auth_header_value).toBeNull();
    expect(await run(integration.id)).toMatchObject({ status: 'failed', message: expect.stringMatching(/HTTP 401/) });
  });

  it('follows next links in the body and in a Link header, and page parameters until an empty page', async () => {
    const prefix = uniquePrefix();
    source().route('/next-body', (request, response) => {
      const page = Number(request.url.searchParams.get('p') ?? '1');
      sendJson(response, { data: { items: shopRecords(prefix, page * 10, 3) }, links: { next: page < 3 ? `/next-body?p=${page + 1}` : null } });
    });
    const byBody = await createOk({ endpoint: `${source().origin}/next-body`, pagination: 'next_link', next_field: 'links.next', records_path: 'data.items', rate_limit: 6000 });
    expect(await run(byBody.id)).toMatchObject({ status: 'success', counts: { pages: 3, requests: 3, inserted: 9 } });

    const linkPrefix = uniquePrefix();
    source().route('/next-header', (request, response) => {
      const page = Number(request.url.searchParams.get('page') ?? '1');
      const link = page < 4 ? `<${source().origin}/next-header?page=${page + 1}>; rel="next", <${source().origin}/next-header?page=1>; rel="first"` : `<${source().origin}/next-header?page=1>; rel="first"`;
      sendJson(response, shopRecords(linkPrefix, page * 10, 2), { link });
    });
    const byHeader = await createOk({ endpoint: `${source().origin}/next-header`, pagination: 'next_link', rate_limit: 6000 });
    expect(await run(byHeader.id)).toMatchObject({ status: 'success', counts: { pages: 4, inserted: 8 } });

    const pagePrefix = uniquePrefix();
    source().route('/paged', (request, response) => {
      const page = Number(request.url.searchParams.get('pg'));
      sendJson(response, { results: page <= 2 ? shopRecords(pagePrefix, page * 10, 5) : [] });
    });
    const byPage = await createOk({ endpoint: `${source().origin}/paged?size=5`, pagination: 'page_parameter', page_parameter: 'pg', rate_limit: 6000 });
    expect(await run(byPage.id)).toMatchObject({ status: 'success', counts: { pages: 3, inserted: 10 } });
    expect(source().requestsTo('/paged').map((r) => r.url.search)).toEqual(['?size=5&pg=1', '?size=5&pg=2', '?size=5&pg=3']);
    expect(await products(prefix)).toHaveLength(9);
    expect(await products(linkPrefix)).toHaveLength(8);
    expect((await products(pagePrefix)).map((p) => p.product_code)).toEqual([...shopRecords(pagePrefix, 10, 5), ...shopRecords(pagePrefix, 20, 5)].map((r) => r.sku));
  });

  it('stops on an endpoint that ignores the page parameter, and on a next link back to a read page', async () => {
    source().route('/same-page', (_request, response) => sendJson(response, shopRecords('SAME', 1, 2)));
    const ignoring = await createOk({ endpoint: `${source().origin}/same-page`, pagination: 'page_parameter', rate_limit: 6000 });
    expect(await run(ignoring.id)).toMatchObject({ status: 'failed', counts: { requests: 2 }, message: "Page 2 is the same as page 1: does the endpoint read the page parameter 'page'?" });
    source().route('/circular', (request, response) => sendJson(response, { items: [], next: request.url.searchParams.get('p') === '2' ? '/circular?p=1' : '/circular?p=2' }));
    const circular = await createOk({ endpoint: `${source().origin}/circular?p=1`, pagination: 'next_link', rate_limit: 6000 });
    expect(await run(circular.id)).toMatchObject({ status: 'failed', message: expect.stringMatching(/^Page 3 links back to a page already read/) });
  });

  it('gives the same rows when the same source is upserted twice', async () => {
    const prefix = uniquePrefix();
    source().route('/twice', (_request, response) => sendJson(response, shopRecords(prefix, 1, 4, 10)));
    const integration = await createOk({ endpoint: `${source().origin}/twice` });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 4, updated: 0 } });
    const first = await products(prefix);
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 0, updated: 4 } });
    expect(await products(prefix)).toEqual(first);
    expect(first.map((p) => p.current_stock)).toEqual([10, 11, 12, 13]);
  });

  it('inserts: keys already stored are refused, counted and logged; the run still succeeds', async () => {
    const prefix = uniquePrefix();
    let round = 0;
    source().route('/insert', (_request, response) => sendJson(response, (round += 1) === 1 ? shopRecords(prefix, 1, 3) : shopRecords(prefix, 2, 3, 50)));
    const integration = await createOk({ endpoint: `${source().origin}/insert`, data_action: 'insert' });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 3, updated: 0, rejected: 0 } });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 1, updated: 0, rejected: 2 } });
    expect((await products(prefix)).map((p) => [p.product_code, p.current_stock])).toEqual([
      [`${prefix}0001`, 1],
      [`${prefix}0002`, 2],
      [`${prefix}0003`, 3],
      [`${prefix}0004`, 52],
    ]);
    const [latest] = (await logs(integration.id)).results;
    expect(latest).toMatchObject({ rows_inserted: 1, rows_rejected: 2, rejections: [{ page: 1, record: 1, field: 'product_code', reason: '2 of the 3 records of this batch (from here on) have a key (product_code) that is already stored; insert refuses them.' }] });
  });

  it('writes sales by product code summed per day, refuses a bad record by page, record and field, replaces at the end, and asks for new forecasts', async () => {
    const { prefix, code } = await storeCatalogue(2);
    await saveMapping(`orders_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'line.sku', date: 'day', quantity: 'units' } } } });
    const line = (n: number, day: string, units: unknown) => ({ line: { sku: code(n) }, day, units });
    let round = 0;
    source().route('/orders', (_request, response) =>
      sendJson(
        response,
        (round += 1) === 1
          ? [line(1, '2026-03-01', 5), line(1, '2026-03-01', 2), line(1, '2026-03-02', 3), line(2, '2026-03-01', 1), line(2, '2026-03-05', 'lots')]
          : [line(1, '2026-03-02', 4), line(2, '2026-03-01', 1), line(2, '2026-03-03', 7)],
      ),
    );
    // The products run queued one; once it has run, the sales queue another.
    await catalogueRunsSettled(server().database.db);
    const forecastsBefore = Number((await sql<{ n: number }>`select count(*)::int as n from forecast_tasks`.execute(server().database.db)).rows[0]?.n);
    const integration = await createOk({ endpoint: `${source().origin}/orders`, mapping_selection: `orders_${prefix}`, target_entity: 'sales', data_action: 'replace', batch_size: 4 });
    const sales = async () =>
      (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1, 2`.execute(server().database.db)).rows;
    // The first batch (4 lines) is summed per product and day; the second batch's record is refused alone.
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 3, rejected: 1 } });
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-03-01', quantity: 7 },
      { code: code(1), date: '2026-03-02', quantity: 3 },
      { code: code(2), date: '2026-03-01', quantity: 1 },
    ]);
    expect((await logs(integration.id)).results[0]?.rejections).toEqual([{ page: 1, record: 5, field: 'quantity', reason: expect.any(String) }]);
    // The list and the status say the run refused a record, and which first: not only its log.
    const refusedOne = { status: 'idle', last_run_rejected: 1, last_run_warning: expect.stringMatching(/^page 1, record 5, quantity: ./) };
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject(refusedOne);
    expect((await server().request('/api/integrations/scheduled/', { token: viewer })).json).toEqual(expect.arrayContaining([expect.objectContaining({ id: integration.id, ...refusedOne })]));
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from forecast_tasks`.execute(server().database.db)).rows[0]?.n)).toBeGreaterThan(forecastsBefore);
    // Replace: what the source no longer sends goes, at the end of the run.
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { deleted: 1 } });
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-03-02', quantity: 4 },
      { code: code(2), date: '2026-03-01', quantity: 1 },
      { code: code(2), date: '2026-03-03', quantity: 7 },
    ]);
    expect((await logs(integration.id)).results[0]).toMatchObject({ rows_deleted: 1, rows_kept: 0, kept_message: null });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'idle', last_run_rejected: 0, last_run_warning: null, last_run_kept_message: null });
  });

  it("writes a batch's good records and rejects its bad ones, one status, honest counts; new products only for written records", async () => {
    const { prefix, code } = await storeCatalogue(3);
    const mapping = `night_${prefix}`;
    await saveMapping(mapping, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, create_missing_products: true } } });
    // A night's six order lines in one batch: record 4's quantity is a word, record 5's product is new but its date is not a date.
    source().route('/night', (_request, response) =>
      sendJson(response, [
        { sku: code(1), day: '2026-12-01', qty: 2 },
        { sku: code(2), day: '2026-12-01', qty: 1 },
        { sku: code(3), day: '2026-12-02', qty: 4 },
        { sku: code(1), day: '2026-12-02', qty: 'zwei' },
        { sku: code(9), day: '2026-12-32', qty: 1 },
        { sku: code(8), day: '2026-12-02', qty: 5 },
      ]),
    );
    const integration = await createOk({ endpoint: `${source().origin}/night`, mapping_selection: mapping, target_entity: 'sales' });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 4, updated: 0, rejected: 2 }, message: null });
    const sales = (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1, 2`.execute(server().database.db)).rows;
    expect(sales).toEqual([
      { code: code(1), date: '2026-12-01', quantity: 2 },
      { code: code(2), date: '2026-12-01', quantity: 1 },
      { code: code(3), date: '2026-12-02', quantity: 4 },
      { code: code(8), date: '2026-12-02', quantity: 5 },
    ]);
    // The written record's new product was created; the rejected record's was not.
    expect((await products(prefix)).map((product) => product.product_code)).toEqual([code(1), code(2), code(3), code(8)]);
    const [entry] = (await logs(integration.id)).results;
    expect(entry).toMatchObject({ status: 'success', rows_inserted: 4, rows_updated: 0, rows_rejected: 2, error_message: null });
    expect(entry?.rejections).toEqual([
      { page: 1, record: 4, field: 'quantity', reason: 'Expected a number, found "zwei".' },
      { page: 1, record: 5, field: 'date', reason: expect.stringMatching(/2026-12-32/) },
    ]);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({
      status: 'idle',
      last_error_message: null,
      last_run_rejected: 2,
      last_run_warning: expect.stringMatching(/^page 1, record 4, quantity: /),
    });

    // Every record rejected: the run failed, and says how many records, not batches.
    source().route('/night', (_request, response) => sendJson(response, [{ sku: code(1), day: '2026-12-03', qty: 'drei' }]));
    expect(await run(integration.id)).toMatchObject({ status: 'failed', counts: { inserted: 0, rejected: 1 }, message: expect.stringMatching(/^Nothing was written: the one record was rejected\. The first problem: page 1, record 1, quantity: /) });
  });

  it('sets aside records with unknown product codes and repeated keys, and writes the rest of their batch', async () => {
    const { prefix, code } = await storeCatalogue(2);
    const mapping = `strict_${prefix}`;
    await saveMapping(mapping, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, repeated_keys: 'refuse' } } });
    source().route('/strict', (_request, response) =>
      sendJson(response, [
        { sku: code(1), day: '2026-12-01', qty: 2 },
        { sku: code(9), day: '2026-12-01', qty: 1 },
        { sku: code(2), day: '2026-12-01', qty: 3 },
        { sku: code(1), day: '2026-12-01', qty: 4 },
      ]),
    );
    const integration = await createOk({ endpoint: `${source().origin}/strict`, mapping_selection: mapping, target_entity: 'sales' });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 2 } });
    const sales = (await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1`.execute(server().database.db)).rows;
    expect(sales).toEqual([
      { code: code(1), quantity: 2 },
      { code: code(2), quantity: 3 },
    ]);
    expect((await logs(integration.id)).results[0]?.rejections).toEqual([
      // The way out names the run's saved mapping; the repeated key names its first record where the endpoint sent it, not its place in the batch.
      { page: 1, record: 2, field: 'product_id', reason: `product code ${code(9)} does not exist. Save the mapping '${mapping}' with 'Create products for unknown codes' ticked (Settings → Data integration) to create it, or add it on the Data screen.` },
      { page: 1, record: 4, field: 'product_id, date', reason: `The key ${code(1)}, 2026-12-01 already appears in page 1, record 1; sales refuses repeated keys in one batch.` },
    ]);
    expect((await products(prefix)).map((product) => product.product_code)).toEqual([code(1), code(2)]);
  });

  it("dates a till's day total without dates by a mapping's field value today: the run's day in the integration's time zone", async () => {
    const { prefix, code } = await storeCatalogue(2);
    const mapping = `day_total_${prefix}`;
    await saveMapping(mapping, { entities: { sales: { field_mappings: { product_id: 'sku', quantity: 'qty' }, field_values: { date: 'today' } } } });
    // The till's end-of-day feed: one line per receipt, no dates.
    source().route(`/day-total-${prefix}`, (_request, response) =>
      sendJson(response, [
        { sku: code(1), qty: 2 },
        { sku: code(2), qty: 1 },
        { sku: code(1), qty: 3 },
      ]),
    );
    // Kiritimati (UTC+14) is a calendar day ahead of UTC for 14 hours of every day, Pago Pago (UTC-11) behind it for 11.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const integration = await createOk({ endpoint: `${source().origin}/day-total-${prefix}`, mapping_selection: mapping, target_entity: 'sales', time_zone: zone });
      expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { rejected: 0 } });
      const day = dayInTimeZone(Date.now(), zone);
      const sales = (await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} and s.date = ${day}::date order by 1`.execute(server().database.db)).rows;
      expect(sales, zone).toEqual([
        { code: code(1), quantity: 5 },
        { code: code(2), quantity: 1 },
      ]);
    }
  });

  it("updates only the stored products' counts through a mapping without names, sets aside unknown codes, and refuses data action insert", async () => {
    const { prefix, code } = await storeCatalogue(2);
    const before = await products(prefix);
    const mapping = `stock_take_${prefix}`;
    await saveMapping(mapping, { entities: { products: { field_mappings: { product_code: 'sku', current_stock: 'counted' } } } });
    source().route('/stock-take', (_request, response) =>
      sendJson(response, [
        { sku: code(1), name: 'Short till name', counted: 40 },
        { sku: code(9), name: 'Unknown', counted: 5 },
      ]),
    );
    const integration = await createOk({ endpoint: `${source().origin}/stock-take`, mapping_selection: mapping });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 0, updated: 1, rejected: 1 } });
    expect(await products(prefix)).toEqual([{ ...before[0], current_stock: 40 }, before[1]]);
    expect((await logs(integration.id)).results[0]?.rejections).toEqual([{ page: 1, record: 2, field: 'product_code', reason: `product code ${code(9)} does not exist.` }]);
    const inserting = await createOk({ endpoint: `${source().origin}/stock-take`, mapping_selection: mapping, data_action: 'insert' });
    const refused = await run(inserting.id);
    expect(refused).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(refused)).toContain('data action insert adds new rows only');
    expect(await products(prefix)).toEqual([{ ...before[0], current_stock: 40 }, before[1]]);
  });

  it('replace keeps the stored row of a rejected record: a run with rejected records deletes nothing', async () => {
    const { prefix } = await storeCatalogue(3);
    const mapping = `mirror_${prefix}`;
    await saveMapping(mapping, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } });
    const line = (n: number, qty: unknown) => ({ sku: `${prefix}${String(n).padStart(4, '0')}`, day: '2026-11-30', qty });
    let answer = [line(1, 5), line(2, 6), line(3, 7)];
    source().route('/mirror', (_request, response) => sendJson(response, answer));
    const integration = await createOk({ endpoint: `${source().origin}/mirror`, mapping_selection: mapping, target_entity: 'sales', data_action: 'replace' });
    const sales = async () =>
      (await sql<{ code: string; quantity: number }>`select right(p.product_code, 1) as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1`.execute(server().database.db)).rows.map((r) => [r.code, r.quantity]);
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 3, rejected: 0 } });
    // Product 2's line comes back unreadable and product 3's no longer comes: neither row goes while a record is rejected.
    answer = [line(1, 8), line(2, 'many')];
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { updated: 1, rejected: 1, deleted: 0 }, message: expect.stringMatching(/^Replace deleted nothing this run: 1 record was rejected/) });
    expect(await sales()).toEqual([['1', 8], ['2', 6], ['3', 7]]);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ last_run_rejected: 1, last_run_kept_message: expect.stringMatching(/^Replace deleted nothing/) });
    // The next clean run deletes what the endpoint no longer sends.
    answer = [line(1, 8), line(2, 9)];
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { updated: 2, rejected: 0, deleted: 1 } });
    expect(await sales()).toEqual([['1', 8], ['2', 9]]);
  });

  it("adds up a product-day's lines across the run's batches, as a file's; replace deletes only rows it created", async () => {
    const { prefix, code } = await storeCatalogue(2);
    // Sales stored before the integration (a file's): the run's totals replace them, and stay theirs.
    await sql`insert into data.sales (product_id, date, quantity) select id, d::date, 50 from data.products cross join (values ('2026-04-01'), ('2026-04-02')) as days (d) where product_code = ${code(1)}`.execute(server().database.db);
    await saveMapping(`lines_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } });
    const line = (n: number, day: string, qty: number) => ({ sku: code(n), day, qty });
    let round = 0;
    source().route('/lines', (_request, response) =>
      sendJson(
        response,
        (round += 1) === 1
          ? [line(1, '2026-04-01', 1), line(2, '2026-04-01', 1), line(1, '2026-04-01', 1), line(2, '2026-04-01', 1), line(1, '2026-04-01', 1), line(1, '2026-04-02', 3), line(2, '2026-04-03', 4)]
          : [line(2, '2026-04-01', 5)],
      ),
    );
    const integration = await createOk({ endpoint: `${source().origin}/lines`, mapping_selection: `lines_${prefix}`, target_entity: 'sales', data_action: 'replace', batch_size: 2 });
    const sales = async () =>
      (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1, 2`.execute(server().database.db)).rows;
    // Four batches of two: each product-day holds the sum of all its lines, not its last batch's.
    expect(await run(integration.id)).toMatchObject({ status: 'success' });
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-04-01', quantity: 3 },
      { code: code(1), date: '2026-04-02', quantity: 3 },
      { code: code(2), date: '2026-04-01', quantity: 2 },
      { code: code(2), date: '2026-04-03', quantity: 4 },
    ]);
    // The next run sends one line: replace deletes the row the integration created and did not get
    // again, and keeps the ones stored before it that it had only updated.
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { deleted: 1 } });
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-04-01', quantity: 3 },
      { code: code(1), date: '2026-04-02', quantity: 3 },
      { code: code(2), date: '2026-04-01', quantity: 5 },
    ]);
  });

  it("refuses a product-day's lines that take the total the run's earlier batches stored beyond the column, by page and record, and writes the batch's others", async () => {
    const { prefix, code } = await storeCatalogue(2);
    await saveMapping(`big_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } });
    const line = (n: number, qty: number) => ({ sku: code(n), day: '2026-07-01', qty });
    // Batches of three across two pages: [p1 1–3], [p1 4, p2 1–2], [p2 3–5]. The second batch's 200,000,000 takes
    // product 1's 99,900,000,000 beyond 99,999,999,999.999 (numeric(14, 3), ADR 0176), and so do the third's two lines, added up while read;
    // product 2's lines in both are written.
    const pages = [
      [line(1, 99_000_000_000), line(2, 1), line(1, 900_000_000), line(2, 2)],
      [line(1, 200_000_000), line(2, 3), line(1, 80_000_000), line(1, 50_000_000), line(2, 4)],
    ];
    source().route('/big', (request, response) => sendJson(response, pages[Number(request.url.searchParams.get('page')) - 1] ?? []));
    const integration = await createOk({ endpoint: `${source().origin}/big`, mapping_selection: `big_${prefix}`, target_entity: 'sales', pagination: 'page_parameter', batch_size: 3, rate_limit: 6000 });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { pages: 3, rejected: 3 } });
    const sales = async (like: string) =>
      (await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${like} order by 1`.execute(server().database.db)).rows;
    expect(await sales(`${prefix}%`)).toEqual([
      { code: code(1), quantity: 99_900_000_000 },
      { code: code(2), quantity: 10 },
    ]);
    const reason = 'Page 2, record 1 (a product and date this run\'s earlier batches stored 99,900,000,000 for): 99,900,000,000 + 200,000,000 = 100,100,000,000 is more than the Quantity column holds (at most 99,999,999,999.999).';
    expect((await logs(integration.id)).results[0]).toMatchObject({
      status: 'success',
      rows_rejected: 3,
      rejections: [
        { page: 2, record: 1, field: 'quantity', reason },
        {
          page: 2,
          record: 3,
          field: 'quantity',
          reason: "Page 2, record 3 and 1 more line of the same product and date add up, with the 99,900,000,000 this run's earlier batches stored for it, to 100,030,000,000, which is more than the Quantity column holds (at most 99,999,999,999.999). Sent: 80000000.",
        },
      ],
    });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ last_run_rejected: 3, last_run_warning: `page 2, record 1, quantity: ${reason}` });

    // Lines not added up while read (new products' names ride along) are each named, after the stored total;
    // a batch's own lines beyond the column are named by page and record too, and create no product.
    const newPrefix = uniquePrefix();
    const shop = { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, create_missing_products: true, new_products: { name: 'title' } };
    await saveMapping(`new_${newPrefix}`, { entities: { sales: shop } });
    const newLine = (qty: number) => ({ sku: `${newPrefix}1`, title: 'Watering can', day: '2026-07-02', qty });
    const hose = (qty: number) => ({ sku: `${newPrefix}3`, title: 'Hose', day: '2026-07-02', qty });
    source().route('/big-new', (_request, response) =>
      sendJson(response, [newLine(99_000_000_000), newLine(900_000_000), newLine(80_000_000), newLine(50_000_000), hose(60_000_000_000), hose(50_000_000_000), { sku: `${newPrefix}2`, title: 'Rake', day: '2026-07-02', qty: 4 }]),
    );
    const created = await createOk({ endpoint: `${source().origin}/big-new`, mapping_selection: `new_${newPrefix}`, target_entity: 'sales', batch_size: 2 });
    expect(await run(created.id)).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 4, created: 2 } });
    expect(await sales(`${newPrefix}%`)).toEqual([
      { code: `${newPrefix}1`, quantity: 99_900_000_000 },
      { code: `${newPrefix}2`, quantity: 4 },
    ]);
    expect((await logs(created.id)).results[0]?.rejections).toEqual([
      {
        page: 1,
        record: 4,
        field: 'quantity',
        reason: "Page 1, records 3 and 4 (the same product and date, which this run's earlier batches stored 99,900,000,000 for): 99,900,000,000 + 80,000,000 + 50,000,000 = 100,030,000,000 is more than the Quantity column holds (at most 99,999,999,999.999).",
      },
      { page: 1, record: 6, field: 'quantity', reason: 'Page 1, records 5 and 6 (the same product and date): 60,000,000,000 + 50,000,000,000 = 110,000,000,000 is more than the Quantity column holds (at most 99,999,999,999.999).' },
    ]);
  });

  it('counts the lines without a product code that skip_rows_without_code leaves out, per batch, in the log, the summary and the status', async () => {
    const { prefix, code } = await storeCatalogue(1);
    const mapping = { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, skip_rows_without_code: true };
    await saveMapping(`giftcards_${prefix}`, { entities: { sales: mapping } });
    // A web shop's gift card and shipping lines have no SKU; batches of two put them in different batches.
    let giftCardsOnly = false;
    source().route('/gift-cards', (_request, response) =>
      sendJson(response, giftCardsOnly ? [{ sku: '', day: '2026-08-03', qty: 1 }, { sku: ' ', day: '2026-08-03', qty: 1 }] : [
        { sku: code(1), day: '2026-08-01', qty: 2 },
        { sku: '', day: '2026-08-01', qty: 1 },
        { sku: null, day: '2026-08-01', qty: 1 },
        { sku: code(1), day: '2026-08-02', qty: 3 },
        { day: '2026-08-02', qty: 1 },
      ]),
    );
    const integration = await createOk({ endpoint: `${source().origin}/gift-cards`, mapping_selection: `giftcards_${prefix}`, target_entity: 'sales', batch_size: 2 });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0, skipped: 3 } });
    const summary = '3 lines without a product code were skipped.';
    expect((await logs(integration.id)).results[0]).toMatchObject({ status: 'success', rows_inserted: 2, rows_rejected: 0, rows_skipped: 3, rows_filtered: 0, summary, rejections: [] });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ last_run_summary: summary });
    // A day with only gift cards: nothing written, and the run succeeds saying why (a file would be a 400).
    giftCardsOnly = true;
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 0, updated: 0, rejected: 0, skipped: 2 } });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'idle', last_run_summary: '2 lines without a product code were skipped.' });
  });

  it("leaves out a shop's refunded orders by a record's field, an order's status read from its first record across batches", async () => {
    const { prefix, code } = await storeCatalogue(2);
    const filter = { column: 'order.financial_status', values: ['refunded', 'voided'], blank_means_same_as: 'order.name' };
    await saveMapping(`orders_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, skip_rows_where: [filter] } } });
    const line = (order: string, status: string | null, n: number, qty: number) => ({ order: { name: order, financial_status: status }, sku: code(n), day: '2026-05-04', qty });
    // Batches of two: order #2's second line (status blank) comes in the batch after its first.
    source().route('/orders', (_request, response) => sendJson(response, [line('#1', 'paid', 1, 2), line('#2', 'Refunded', 1, 5), line('#2', null, 2, 4), line('#3', 'voided', 2, 7), line('#4', 'partially_refunded', 2, 1)]));
    const integration = await createOk({ endpoint: `${source().origin}/orders`, mapping_selection: `orders_${prefix}`, target_entity: 'sales', batch_size: 2 });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { rejected: 0 } });
    const sales = await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1`.execute(server().database.db);
    expect(sales.rows).toEqual([
      { code: code(1), quantity: 2 },
      { code: code(2), quantity: 1 },
    ]);
  });

  it('says what a file import says: the lines its row filter left out and the products it created, in the log, the status and the list', async () => {
    const { prefix, code } = await storeCatalogue(1);
    const filter = { column: 'order.financial_status', values: ['refunded', 'voided'], blank_means_same_as: 'order.name' };
    const mapping = { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, skip_rows_where: [filter], create_missing_products: true, new_products: { name: 'title' } };
    await saveMapping(`shop_${prefix}`, { entities: { sales: mapping } });
    const line = (order: string, status: string | null, n: number, title: string) => ({ order: { name: order, financial_status: status }, sku: code(n), title, day: '2026-06-01', qty: 1 });
    // Refunded order #2's second line (status blank, in the next batch) names a product the shop does not list: left out, never created.
    source().route('/shop-orders', (_request, response) =>
      sendJson(response, [line('#1', 'paid', 1, 'Item 1'), line('#2', 'refunded', 1, 'Item 1'), line('#2', null, 9, 'Rake'), line('#3', 'paid', 5, 'Garden hose')]),
    );
    const integration = await createOk({ endpoint: `${source().origin}/shop-orders`, mapping_selection: `shop_${prefix}`, target_entity: 'sales', batch_size: 2 });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0, filtered: 2, created: 1 } });
    expect((await products(prefix)).map((product) => [product.product_code, product.name])).toEqual([
      [code(1), 'Item 1'],
      [code(5), 'Garden hose'],
    ]);
    const summary = `1 new product created for unknown codes: ${code(5)} Garden hose. 2 lines of orders whose order.financial_status is refunded or voided were left out.`;
    expect((await logs(integration.id)).results[0]).toMatchObject({
      status: 'success',
      rows_inserted: 2,
      rows_rejected: 0,
      rows_filtered: 2,
      filtered_by: [{ column: 'order.financial_status', values: ['refunded', 'voided'], lines: 2 }],
      products_created: 1,
      new_products: [{ code: code(5), values: { name: 'Garden hose' } }],
      summary,
      rejections: [],
    });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'idle', last_run_summary: summary });
    // The next run creates nothing (the product is stored now) and still leaves the refunded order out;
    // its totals replace its own earlier ones (ADR 0164) without a word about them.
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { filtered: 2, created: 0, updated: 2 } });
    const listed = (await server().request('/api/integrations/scheduled/', { token: viewer })).json as unknown as Integration[];
    expect(listed.find((item) => item.id === integration.id)).toMatchObject({ last_run_summary: '2 lines of orders whose order.financial_status is refunded or voided were left out.' });
    expect((await logs(integration.id)).results[0]).toMatchObject({ rows_filtered: 2, products_created: 0, new_products: [] });
  });

  it('counts the lines a row filter or a blank code left out of a batch refused whole as filtered and skipped, not rejected: the counts add up to the records received', async () => {
    const { prefix, code } = await storeCatalogue(1);
    const filter = { column: 'order.financial_status', values: ['refunded'] };
    await saveMapping(`ambiguous_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, skip_rows_where: [filter], skip_rows_without_code: true } } });
    // Slashed dates none of which tells day-first from month-first: the batch is refused whole.
    const line = (status: string, day: string) => ({ order: { financial_status: status }, sku: code(1), day, qty: 1 });
    source().route('/ambiguous', (_request, response) => sendJson(response, [line('paid', '03/09/2026'), line('refunded', '04/09/2026'), { ...line('paid', '04/09/2026'), sku: '' }, line('paid', '05/09/2026')]));
    const integration = await createOk({ endpoint: `${source().origin}/ambiguous`, mapping_selection: `ambiguous_${prefix}`, target_entity: 'sales', batch_size: 10 });
    expect(await run(integration.id)).toMatchObject({ status: 'failed', counts: { inserted: 0, rejected: 2, filtered: 1, skipped: 1 }, message: expect.stringContaining('Nothing was written: all 2 records were rejected') });
    expect((await logs(integration.id)).results[0]).toMatchObject({
      status: 'failed',
      rows_inserted: 0,
      rows_rejected: 2,
      rows_filtered: 1,
      rows_skipped: 1,
      filtered_by: [{ column: 'order.financial_status', values: ['refunded'], lines: 1 }],
    });
  });

  it('learns day-first dates from one batch for the next ones and the next runs; a new endpoint learns anew (ADR 0140)', async () => {
    const { prefix } = await storeCatalogue(1);
    const code = `${prefix}0001`;
    await saveMapping(`dates_${prefix}`, { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } });
    let days = ['25/09/2026', '26/09/2026', '03/09/2026', '04/09/2026'];
    source().route('/dated', (_request, response) => sendJson(response, days.map((day) => ({ sku: code, day, qty: 1 }))));
    const integration = await createOk({ endpoint: `${source().origin}/dated`, mapping_selection: `dates_${prefix}`, target_entity: 'sales', batch_size: 2 });
    const dates = async () =>
      (await sql<{ date: string }>`select s.date from data.sales s join data.products p on p.id = s.product_id where p.product_code = ${code} order by 1`.execute(server().database.db)).rows.map((r) => r.date);
    // The first batch's 25/09 tells day-first; the second batch's 03/09 and 04/09 are read so, not refused as ambiguous.
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 4, rejected: 0 } });
    expect(await dates()).toEqual(['2026-09-03', '2026-09-04', '2026-09-25', '2026-09-26']);
    // A later run of early-month days alone knows it too.
    days = ['05/10/2026', '06/10/2026'];
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0 } });
    expect((await dates()).slice(-2)).toEqual(['2026-10-05', '2026-10-06']);
    // Another endpoint may write its dates the other way round: it is learnt anew, and until a date tells, refused.
    const moved = await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'PUT', body: { endpoint: `${source().origin}/dated?v=2` }, token: admin() });
    expect(moved.status, moved.text).toBe(200);
    days = ['07/10/2026'];
    expect(await run(integration.id)).toMatchObject({ status: 'failed', message: expect.stringContaining('could be day-first (dd/mm/yyyy) or month-first') });
  });

  it('paces requests to rate_limit per minute', async () => {
    source().route('/paced', (request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      sendJson(response, page <= 3 ? shopRecords(uniquePrefix(), 1, 1) : []);
    });
    const integration = await createOk({ endpoint: `${source().origin}/paced`, pagination: 'page_parameter', rate_limit: 150 });
    expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { requests: 4 } });
    const times = source().requestsTo('/paced').map((r) => r.at);
    // 150 a minute: starts 400 ms apart. An arrival lags its start by its connection's setup, and by
    // the embedded database's turns on the event loop this endpoint shares (the first request's also by
    // the run's first lookup): a gap or the span may look up to 150 ms short (CI once saw 74 ms).
    // Unpaced, the gaps would be ~1 ms; a pacer 25 % too fast would leave the span 300 ms short.
    const lag = 150;
    for (let i = 1; i < times.length; i += 1) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(400 - lag);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(3 * 400 - lag);
  });

  it('writes batch_size records per transaction, across pages', async () => {
    const prefix = uniquePrefix();
    // Three pages of nine records: batches of ten take records from two pages.
    source().route('/batches', (request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      sendJson(response, page <= 3 ? shopRecords(prefix, (page - 1) * 9 + 1, 9) : []);
    });
    // Every row written notes its transaction id: the distinct ids are the transactions.
    await sql`create table if not exists public.test_row_transactions (product_code text, tx bigint)`.execute(server().database.db);
    await sql`create or replace function public.test_note_transaction() returns trigger language plpgsql as $$
      begin insert into public.test_row_transactions values (new.product_code, txid_current()); return new; end $$`.execute(server().database.db);
    await sql`drop trigger if exists test_note_transaction on data.products`.execute(server().database.db);
    await sql`create trigger test_note_transaction after insert or update on data.products for each row execute function public.test_note_transaction()`.execute(server().database.db);
    try {
      const integration = await createOk({ endpoint: `${source().origin}/batches`, pagination: 'page_parameter', rate_limit: 6000, batch_size: 10 });
      expect(await run(integration.id)).toMatchObject({ status: 'success', counts: { pages: 4, inserted: 27 } });
      const { rows } = await sql<{ tx: number; n: number }>`select tx, count(*)::int as n from public.test_row_transactions where product_code like ${`${prefix}%`} group by tx order by min(product_code)`.execute(server().database.db);
      expect(rows.map((r) => r.n)).toEqual([10, 10, 7]);
    } finally {
      await sql`drop trigger if exists test_note_transaction on data.products`.execute(server().database.db);
    }
  });

  it('retries a 500 and succeeds; gives up on a 4xx at once and after retries on timeouts', async () => {
    const prefix = uniquePrefix();
    let calls = 0;
    source().route('/flaky', (_request, response) => ((calls += 1) === 1 ? response.writeHead(500).end('busy') : sendJson(response, shopRecords(prefix, 1, 2))));
    const flaky = await createOk({ endpoint: `${source().origin}/flaky`, rate_limit: 6000 });
    expect(await run(flaky.id)).toMatchObject({ status: 'success', counts: { requests: 2, inserted: 2 } });

    source().route('/gone', (_request, response) => response.writeHead(404).end());
    const gone = await createOk({ endpoint: `${source().origin}/gone`, rate_limit: 6000 });
    expect(await run(gone.id)).toMatchObject({ status: 'failed', counts: { requests: 1 }, message: expect.stringMatching(/HTTP 404/) });

    source().route('/slow', async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      sendJson(response, []);
    });
    const slow = await createOk({ endpoint: `${source().origin}/slow`, rate_limit: 6000 });
    expect(await run(slow.id)).toMatchObject({ status: 'failed', counts: { requests: 3 }, message: expect.stringMatching(/within 0.5 seconds \(after 3 tries\)/) });
    expect((await server().request(`/api/integrations/scheduled/${slow.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'failed', last_error_message: expect.stringMatching(/within 0.5 seconds/) });
  });

  it('a run that fails on page 3 keeps pages 1–2 and says so, in its message, status and log', async () => {
    const prefix = uniquePrefix();
    source().route('/third-fails', (request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      if (page === 3) response.writeHead(404).end();
      else sendJson(response, shopRecords(prefix, (page - 1) * 2 + 1, 2));
    });
    const whole = await createOk({ endpoint: `${source().origin}/third-fails`, pagination: 'page_parameter', rate_limit: 6000, batch_size: 2 });
    const wholePages = `Pages 1–2 were written and kept (4 records); page 3 failed: 127.0.0.1:${source().port} answered HTTP 404 for page 3.`;
    expect(await run(whole.id)).toMatchObject({ status: 'failed', message: wholePages });
    expect(await products(prefix)).toHaveLength(4);
    expect((await logs(whole.id)).results[0]).toMatchObject({ status: 'failed', error_message: wholePages, rows_inserted: 4 });
    expect((await server().request(`/api/integrations/scheduled/${whole.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'failed', last_error_message: wholePages });
    // Batches of three: page 2's second record waited for a batch that never came, and it is not said to be kept.
    const split = await createOk({ endpoint: `${source().origin}/third-fails`, pagination: 'page_parameter', rate_limit: 6000, batch_size: 3, data_action: 'replace' });
    expect(await run(split.id)).toMatchObject({
      status: 'failed',
      message: `Page 1 and record 1 of page 2 were written and kept (3 records); page 3 failed: 127.0.0.1:${source().port} answered HTTP 404 for page 3. Replace deleted nothing, as it does only after a complete run.`,
    });
  });

  it('says what an answer that is not JSON was, and points a 401 or 403 to the auth header', async () => {
    source().route('/login-page', (_request, response) => void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html>\n<html><head><title>Sign in to the shop</title></head><body></body></html>'));
    const html = await createOk({ endpoint: `${source().origin}/login-page` });
    expect(await run(html.id)).toMatchObject({ status: 'failed', message: 'Page 1 is neither JSON nor CSV: the endpoint answered text/html ("<!doctype html> <html><head><title>Sign…").' });
    source().route('/empty', (_request, response) => void response.writeHead(200).end());
    expect(await run((await createOk({ endpoint: `${source().origin}/empty` })).id)).toMatchObject({ message: 'Page 1 is neither JSON nor CSV: the endpoint answered without a content type (an empty body).' });
    // JSON that says it is JSON and is broken: cut off, or wrong inside.
    source().route('/cut-off', (_request, response) => void response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"orders": [ {"id": 1,'));
    expect(await run((await createOk({ endpoint: `${source().origin}/cut-off` })).id)).toMatchObject({
      message: 'Page 1 is not valid JSON: line 1, column 23 — it ends in the middle, as if cut off; the endpoint answered application/json ("{"orders": [ {"id": 1,").',
    });
    source().route('/broken', (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"orders": [] } trailing'));
    expect(await run((await createOk({ endpoint: `${source().origin}/broken` })).id)).toMatchObject({
      message: "Page 1 is not valid JSON: line 1, column 17 — unexpected 't'; the endpoint answered application/json (\"{\"orders\": [] } trailing\").",
    });
    source().route('/stray-comma', (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"orders": [\n  {"id": 1},\n  ,{"id": 2}\n]}'));
    expect(await run((await createOk({ endpoint: `${source().origin}/stray-comma` })).id)).toMatchObject({
      message: `Page 1 is not valid JSON: line 3, column 3 — unexpected ','; the endpoint answered application/json ("{"orders": [ {"id": 1}, ,{"id": 2} ]}").`,
    });

    source().route('/locked', (request, response) => void response.writeHead(request.headers['x-api-key'] === 'right' ? 200 : 401, { 'content-type': 'application/json' }).end('[]'));
    const without = await createOk({ endpoint: `${source().origin}/locked`, rate_limit: 6000 });
    expect(await run(without.id)).toMatchObject({ status: 'failed', counts: { requests: 1 }, message: expect.stringMatching(/answered HTTP 401 for page 1\. The integration sends no auth header: add one/) });
    const wrong = await createOk({ endpoint: `${source().origin}/locked`, rate_limit: 6000, auth_header_name: 'X-Api-Key', auth_header_value: 'wrong' });
    expect(await run(wrong.id)).toMatchObject({ status: 'failed', message: expect.stringMatching(/answered HTTP 401 for page 1\. Check the integration's auth header \(X-Api-Key\) and its value/) });
    source().route('/forbidden', (_request, response) => void response.writeHead(403).end());
    expect(await run((await createOk({ endpoint: `${source().origin}/forbidden`, auth_header_value: 'Bearer x' })).id)).toMatchObject({ message: expect.stringMatching(/HTTP 403 for page 1\. Check the integration's auth header \(Authorization\)/) });
  });

  it('refuses an oversized answer, also when it is gzip-compressed', async () => {
    source().route('/huge', (_request, response) => sendJson(response, shopRecords('HUGE', 1, 2000)));
    source().route('/huge-gzip', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify(shopRecords('HUGZ', 1, 2000))));
    });
    for (const path of ['/huge', '/huge-gzip']) {
      const integration = await createOk({ endpoint: `${source().origin}${path}` });
      expect(await run(integration.id), path).toMatchObject({ status: 'failed', counts: { requests: 1 }, message: expect.stringMatching(/larger than 100000 bytes/) });
    }
    expect(await products('HUG')).toEqual([]);
  });

  it('refuses a redirect loop, a redirect to the metadata address and a redirect to loopback that is not allowed', async () => {
    source().route('/loop', (_request, response) => response.writeHead(302, { location: '/loop?again' }).end());
    source().route('/metadata', (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end());
    source().route('/elsewhere', (_request, response) => response.writeHead(302, { location: `http://127.0.0.2:${source().port}/x` }).end());
    const cases: [string, RegExp][] = [
      [`${source().origin}/loop`, /Too many redirects/],
      [`${source().origin}/metadata`, /cloud metadata address/],
      [`${source().origin}/elsewhere`, /This address is on the Stockwise server's own machine \(127\.0\.0\.2\)\. .*OUTBOUND_ALLOWED_HOSTS=127\.0\.0\.2\)/],
    ];
    for (const [endpoint, reason] of cases) {
      const integration = await createOk({ endpoint });
      const outcome = await run(integration.id);
      expect(outcome, endpoint).toMatchObject({ status: 'failed', message: expect.stringMatching(reason) });
      const [entry] = (await logs(integration.id)).results;
      expect(entry).toMatchObject({ status: 'failed', error_message: expect.stringMatching(reason) });
    }
  });

  it('refuses at save an endpoint whose address the runs may not reach, and keeps nothing', async () => {
    const before = (await server().request('/api/integrations/scheduled/', { token: admin() })).json as unknown as unknown[];
    const cases: [string, RegExp][] = [
      [`http://127.0.0.2:${source().port}/x`, /^This address is on the Stockwise server's own machine \(127\.0\.0\.2\)\. .*OUTBOUND_ALLOWED_HOSTS=127\.0\.0\.2\)/],
      [`http://2130706434:${source().port}/x`, /^This address is on the Stockwise server's own machine \(127\.0\.0\.2\)/],
      [`http://[::1]:${source().port}/x?from={from}`, /^This address is on the Stockwise server's own machine \(::1\)/],
      [
        'http://192.168.1.20/till/export.json',
        /^This address is inside your network \(192\.168\.1\.20\)\. Stockwise only fetches from addresses on the internet unless the person who runs the Stockwise server allows this one\. For them: add 192\.168\.1\.20 to the server setting OUTBOUND_ALLOWED_HOSTS \(for example OUTBOUND_ALLOWED_HOSTS=192\.168\.1\.20\) and restart the server\.$/,
      ],
      ['http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
    ];
    for (const [endpoint, reason] of cases) {
      const answer = await create({ endpoint });
      expect(answer.status, endpoint).toBe(400);
      expect(answer.json.errors, endpoint).toEqual({ endpoint: [expect.stringMatching(reason)] });
    }
    // A name that does not resolve now is kept: the run says so, and it may resolve later.
    const unresolved = await createOk({ endpoint: 'http://till.invalid/export.json' });
    expect(await run(unresolved.id)).toMatchObject({ status: 'failed', message: expect.stringMatching(/till\.invalid could not be resolved/) });
    expect((await server().request('/api/integrations/scheduled/', { token: admin() })).json).toHaveLength(before.length + 1);
  });

  it('fills {from} and {to}: latest from the last success, historical previous_days back, initial setup backfills', async () => {
    source().route('/window', (_request, response) => sendJson(response, []));
    const today = Date.now();
    const latest = await createOk({ endpoint: `${source().origin}/window?kind=latest&from={from}&to={to}`, previous_days: 7 });
    await run(latest.id);
    await run(latest.id);
    const historical = await createOk({ endpoint: `${source().origin}/window?kind=historical&from={from}&to={to}`, data_fetch_type: 'historical', previous_days: 30 });
    await run(historical.id);
    await run(historical.id);
    const backfill = await createOk({ endpoint: `${source().origin}/window?kind=backfill&from={from}&to={to}`, initial_setup: true, previous_days: 90 });
    await run(backfill.id);
    await run(backfill.id);
    const windows = (kind: string) => source().requestsTo('/window').filter((r) => r.url.searchParams.get('kind') === kind).map((r) => [r.url.searchParams.get('from'), r.url.searchParams.get('to')]);
    const day = (daysBack: number) => isoDay(today - daysBack * DAY_MS);
    expect(windows('latest')).toEqual([[day(7), day(0)], [day(0), day(0)]]);
    expect(windows('historical')).toEqual([[day(30), day(0)], [day(30), day(0)]]);
    expect(windows('backfill')).toEqual([[day(90), day(0)], [day(0), day(0)]]);
    expect((await logs(latest.id)).results[0]).toMatchObject({ window_from: day(0), window_to: day(0) });
  });

  it('reports a mapping path that matches nothing in the records', async () => {
    source().route('/other-shape', (_request, response) => sendJson(response, [{ code: 'X1', label: 'Other shape' }]));
    const integration = await createOk({ endpoint: `${source().origin}/other-shape` });
    const outcome = await run(integration.id);
    expect(outcome).toMatchObject({ status: 'failed', message: "No record has the fields 'sku' (mapped to Product code) and 'title' (mapped to Name); the records have: code, label. Were they renamed? Update the mapping 'shop_export_json'." });
  });

  it('pauses itself after failed runs in a row and says so; switching it on starts afresh', async () => {
    source().route('/down', (_request, response) => response.writeHead(400).end());
    const integration = await createOk({ endpoint: `${source().origin}/down`, enabled: true });
    for (let i = 0; i < 3; i += 1) await run(integration.id);
    const status = (await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json;
    expect(status).toMatchObject({ status: 'failed', enabled: false, consecutive_failures: 3, next_run_time: null, last_error_message: expect.stringMatching(/^Paused after 3 failed runs in a row.*HTTP 400/) });
    expect(await server().queue.boss.getSchedules('integrations.run', String(integration.id))).toEqual([]);
    const again = await server().request(`/api/integrations/scheduled/${integration.id}/`, { method: 'PUT', body: { enabled: true }, token: admin() });
    expect(again.json).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  it('runs now through the queue: queued, then the status and the log say how it went, newest first and paged', async () => {
    const prefix = uniquePrefix();
    source().route('/now', (_request, response) => sendJson(response, shopRecords(prefix, 1, 3)));
    const integration = await createOk({ endpoint: `${source().origin}/now` });
    for (let i = 0; i < 3; i += 1) {
      const queued = await server().request(`/api/integrations/scheduled/${integration.id}/run/`, { body: {}, token: editor });
      expect(queued.json).toMatchObject({ id: integration.id, status: expect.stringMatching(/queued|running/) });
      let status = '';
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        status = (await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json.status as string;
        if (status === 'idle' || status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe('idle');
    }
    expect(await products(prefix)).toHaveLength(3);
    const firstPage = await logs(integration.id, '?page=1&page_size=2');
    expect(firstPage).toMatchObject({ count: 3, next: 2 });
    expect(firstPage.results).toHaveLength(2);
    expect(firstPage.results[0]).toMatchObject({ trigger: 'manual', status: 'success', pages: 1, rows_inserted: 0, rows_updated: 3, rows_rejected: 0 });
    const secondPage = await logs(integration.id, '?page=2&page_size=2');
    expect(secondPage).toMatchObject({ count: 3, next: null, results: [expect.objectContaining({ rows_inserted: 3 })] });
    const started = [...firstPage.results, ...secondPage.results].map((entry) => Date.parse(entry.started_at as string));
    expect([...started].sort((a, b) => b - a)).toEqual(started);
  });
});
