// A web shop's orders with line items (records_path `orders[].line_items`, ADR 0060's amendment of
// 2026-12-04) on PGlite and PostgreSQL, the shop a real HTTP server on 127.0.0.1: every line is a
// record with its order under `order.`, a row filter reads the order's status, an order without
// lines gives none and does not end the paging, a refused line is named by page, record and line;
// Try the endpoint proposes the nested path (and warns of a path reading an array's first element);
// a records path whose inner array no record holds is a 400 naming records_path; a run failing
// after a batch that ended within an order says up to which of its lines it wrote.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationTryResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';

type Line = { sku?: string; product_id?: number; quantity: unknown };
const order = (id: number, day: string, status: string, lines: Line[]) => ({ id, created_at: `${day}T09:12:00+01:00`, financial_status: status, line_items: lines });

describe.each(backends)('orders with line items on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '500' });
  let viewer: string;
  const code = (n: number) => `LI${backend[0]}-${n}`;

  beforeAll(async () => {
    viewer = (await signUpUser(server(), { role: 'viewer' })).access;
    for (const n of [1, 2, 5]) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code(n), name: `Item ${n}` }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
  });

  const sales = async () =>
    (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`LI${backend[0]}-%`} order by 1, 2`.execute(server().database.db)).rows;
  const saveSalesMapping = (name: string, mapping: Record<string, unknown>) => saveMapping(name, { entities: { sales: mapping } });
  const createSalesIntegration = (body: Record<string, unknown>) => createIntegration({ target_entity: 'sales', ...body });
  const tryEndpoint = (body: Record<string, unknown>) => server().request('/api/integrations/try/', { body: { target_entity: 'sales', ...body }, token: admin() });

  it("imports every line of every order, leaves out a refunded order by the order's status, pages past an order without lines, and names a refused line", async () => {
    await saveSalesMapping('shop_lines', {
      field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'order.created_at' },
      skip_rows_where: [{ column: 'order.financial_status', values: ['refunded', 'voided'] }],
    });
    const pages = [
      [order(5001, '2026-12-02', 'paid', [{ sku: code(1), quantity: 2 }, { sku: code(2), quantity: 1 }])],
      [order(5002, '2026-12-02', 'paid', [])],
      [order(5003, '2026-12-02', 'refunded', [{ sku: code(1), quantity: 40 }]), order(5004, '2026-12-03', 'paid', [{ sku: code(1), quantity: 3 }, { sku: code(5), quantity: 'lots' }])],
      [],
    ];
    shop().route('/orders', (request, response) => sendJson(response, { orders: pages[Number(request.url.searchParams.get('page')) - 1] ?? [] }));
    const integration = await createSalesIntegration({ endpoint: `${shop().origin}/orders`, mapping_selection: 'shop_lines', records_path: 'orders[].line_items', pagination: 'page_parameter', batch_size: 2, rate_limit: 6000 });
    expect(integration.records_path).toBe('orders[].line_items');

    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ status: 'success', counts: { pages: 4, inserted: 3, rejected: 1, filtered: 1 } });
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-12-02', quantity: 2 },
      { code: code(1), date: '2026-12-03', quantity: 3 },
      { code: code(2), date: '2026-12-02', quantity: 1 },
    ]);
    const [entry] = ((await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: viewer })).json as { results: Record<string, unknown>[] }).results;
    expect(entry).toMatchObject({ rows_filtered: 1, rejections: [{ page: 3, record: 2, line: 2, field: 'quantity', reason: expect.any(String) }] });
    const status = await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer });
    expect(status.json).toMatchObject({ last_run_rejected: 1, last_run_warning: expect.stringMatching(/^page 3, record 2, line 2, quantity: ./) });
  });

  it('fails a run, and refuses a try naming records_path, when no order holds the inner array; refuses a path with two []', async () => {
    shop().route('/flat-orders', (_request, response) => sendJson(response, { orders: [{ id: 1, created_at: '2026-12-02', sku: code(1), quantity: 1 }] }));
    const tried = await tryEndpoint({ endpoint: `${shop().origin}/flat-orders`, records_path: 'orders[].line_items' });
    expect(tried.status).toBe(400);
    expect(tried.json.errors).toEqual({ records_path: ["No record of the answer has an array at 'line_items' (records path 'orders[].line_items')."] });

    const integration = await createSalesIntegration({ endpoint: `${shop().origin}/flat-orders`, mapping_selection: 'shop_lines', records_path: 'orders[].line_items' });
    const before = await sales();
    expect(await runNow(integration.id)).toMatchObject({
      status: 'failed',
      message: "No record of the answer has an array at 'line_items' (records path 'orders[].line_items').",
    });
    expect(await sales()).toEqual(before);

    const twice = await server().request('/api/integrations/scheduled/', { body: { endpoint: `${shop().origin}/x`, target_entity: 'sales', mapping_selection: 'shop_lines', records_path: 'orders[].fulfillments[].line_items' }, token: admin() });
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.json.errors as object)).toEqual(['records_path']);
  });

  it("says up to which line of an order a run that failed later wrote, the order's other lines not written", async () => {
    shop().route('/long-order', (request, response) =>
      request.url.searchParams.get('page') === '1'
        ? sendJson(response, { orders: [order(6001, '2026-11-01', 'paid', [{ sku: code(1), quantity: 1 }, { sku: code(2), quantity: 1 }, { sku: code(5), quantity: 1 }])] })
        : void response.writeHead(404).end(),
    );
    const integration = await createSalesIntegration({ endpoint: `${shop().origin}/long-order`, mapping_selection: 'shop_lines', records_path: 'orders[].line_items', pagination: 'page_parameter', batch_size: 2, rate_limit: 6000 });
    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ status: 'failed', message: `Lines 1–2 of record 1 of page 1 were written and kept (2 records); page 2 failed: 127.0.0.1:${shop().port} answered HTTP 404 for page 2.` });
    expect((await sales()).filter((sale) => sale.date === '2026-11-01').map((sale) => sale.code)).toEqual([code(1), code(2)]);
  });

  it("proposes one record per line item with the order's date and the line's sku (not its numeric product_id), and warns that a path by position reads the first line only", async () => {
    // As Shopify sends them: a line's product_id and variant_id are the shop's numeric ids, its sku the shop's own code.
    const shopifyLine = (n: number, sku: string, quantity: number) => ({ id: 9000 + n, product_id: 7_513_594_000 + n, variant_id: 4_231_000 + n, sku, quantity });
    const body = {
      orders: [
        order(5001, '2026-12-02', 'paid', [shopifyLine(1, code(1), 2), shopifyLine(2, code(2), 1)]),
        order(5002, '2026-12-02', 'paid', [shopifyLine(3, code(5), 1)]),
        order(5003, '2026-12-03', 'refunded', []),
      ],
    };
    shop().route('/shopify-orders', (_request, response) => sendJson(response, body));
    const before = await sales();

    const flat = await tryEndpoint({ endpoint: `${shop().origin}/shopify-orders`, records_path: 'orders' });
    expect(flat.status, flat.text).toBe(200);
    const orders = flat.json as unknown as IntegrationTryResponse;
    expect(orders.record_count).toBe(3);
    expect(orders.proposed_mapping).toEqual({ product_id: 'line_items.0.sku', date: 'created_at', quantity: 'line_items.0.quantity' });
    expect(orders.records_path_proposal).toEqual({ records_path: 'orders[].line_items', record_count: 3, proposed_mapping: { product_id: 'sku', date: 'order.created_at', quantity: 'quantity' } });
    expect(orders.warnings).toEqual([
      "product_id reads 'line_items.0.sku': element 1 of each record's 'line_items' only; the record's other elements of 'line_items' are not imported. To import every one, read one record per line with the records path 'orders[].line_items'.",
      "quantity reads 'line_items.0.quantity': element 1 of each record's 'line_items' only; the record's other elements of 'line_items' are not imported. To import every one, read one record per line with the records path 'orders[].line_items'.",
    ]);
    // Without a records path the orders are found as the answer's first array: the same proposal.
    expect(((await tryEndpoint({ endpoint: `${shop().origin}/shopify-orders` })).json as unknown as IntegrationTryResponse).records_path_proposal?.records_path).toBe('orders[].line_items');

    const nested = await tryEndpoint({ endpoint: `${shop().origin}/shopify-orders`, records_path: 'orders[].line_items' });
    expect(nested.status, nested.text).toBe(200);
    const lines = nested.json as unknown as IntegrationTryResponse;
    expect(lines).toMatchObject({ record_count: 3, proposed_mapping: { product_id: 'sku', date: 'order.created_at', quantity: 'quantity' }, records_path_proposal: null, warnings: [] });
    expect(lines.paths.map((path) => path.path)).toEqual(['id', 'product_id', 'variant_id', 'sku', 'quantity', 'order.id', 'order.created_at', 'order.financial_status']);
    expect(lines.rows.map((row) => row.values)).toEqual([
      { product_id: code(1), date: '2026-12-02', quantity: 2 },
      { product_id: code(2), date: '2026-12-02', quantity: 1 },
      { product_id: code(5), date: '2026-12-02', quantity: 1 },
    ]);
    // Lines without a sku: their numeric product_id is all there is, and is proposed.
    shop().route('/ids-only', (_request, response) => sendJson(response, { orders: [order(5010, '2026-12-02', 'paid', [{ product_id: 7_513_594_001, quantity: 1 }])] }));
    const idsOnly = (await tryEndpoint({ endpoint: `${shop().origin}/ids-only`, records_path: 'orders[].line_items' })).json as unknown as IntegrationTryResponse;
    expect(idsOnly.proposed_mapping).toMatchObject({ product_id: 'product_id', quantity: 'quantity' });
    // Products take no quantity of a line: nothing is proposed, but the path by position is still said.
    const ontoProducts = (await tryEndpoint({ endpoint: `${shop().origin}/shopify-orders`, records_path: 'orders', target_entity: 'products', mapping: { field_mappings: { product_code: 'line_items.0.sku' } } })).json as unknown as IntegrationTryResponse;
    expect(ontoProducts.records_path_proposal).toBeNull();
    expect(ontoProducts.warnings).toEqual(["product_code reads 'line_items.0.sku': element 1 of each record's 'line_items' only; the record's other elements of 'line_items' are not imported."]);
    expect(await sales()).toEqual(before);
  });
});
