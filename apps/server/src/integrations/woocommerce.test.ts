// A WooCommerce shop ("Wattle & Co", QA pass 7) on PGlite and PostgreSQL, the shop a real HTTP server
// on 127.0.0.1: `GET /wp-json/wc/v3/orders?page=N` under Basic auth, `X-WP-TotalPages`, orders
// completed or refunded with local dates and line_items, a gift-wrap line without a sku. Try the
// endpoint proposes, as a file import does, leaving out the refunded orders' lines (order.status)
// and skipping the lines without a product code (saying how many); a run with that mapping writes
// the rest with nothing rejected, and stops paging at the page the total-pages header names.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationTryResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const ORDERS = '/wp-json/wc/v3/orders';
const BASIC = `Basic ${Buffer.from('ck_wattle:cs_secret').toString('base64')}`;

type Line = { sku: string; quantity: number; name: string };
const order = (id: number, day: string, status: 'completed' | 'refunded', lines: Line[]) => ({ id, status, date_created: `${day}T13:40:00`, line_items: lines });

describe.each(backends)('a WooCommerce shop on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '500' });
  const code = (n: number) => `WC${backend[0]}-${n}`;
  const giftWrap: Line = { sku: '', quantity: 1, name: 'Gift wrap' };
  const pages = () => [
    [order(101, '2026-12-01', 'completed', [{ sku: code(1), quantity: 2, name: 'Tea towel' }, giftWrap]), order(102, '2026-12-01', 'refunded', [{ sku: code(2), quantity: 5, name: 'Candle' }])],
    [order(103, '2026-12-02', 'completed', [{ sku: code(2), quantity: 1, name: 'Candle' }, giftWrap])],
    [order(104, '2026-12-03', 'completed', [{ sku: code(1), quantity: 3, name: 'Tea towel' }])],
  ];

  beforeAll(async () => {
    for (const n of [1, 2]) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code(n), name: `Item ${n}` }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
    // WooCommerce: Basic auth with the consumer key and secret; past the last page, an empty array.
    shop().route(ORDERS, (request, response) => {
      if (request.headers.authorization !== BASIC) return void response.writeHead(401).end('{"code":"woocommerce_rest_cannot_view"}');
      const all = pages();
      sendJson(response, all[Number(request.url.searchParams.get('page')) - 1] ?? [], { 'X-WP-Total': '4', 'X-WP-TotalPages': String(all.length) });
    });
  });

  const sales = async () =>
    (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`WC${backend[0]}-%`} order by 1, 2`.execute(server().database.db)).rows;
  const shopSettings = { records_path: '[].line_items', pagination: 'page_parameter', auth_header_name: 'Authorization', auth_header_value: BASIC };

  it("proposes leaving out a refunded order's lines by order.status and skipping the gift-wrap lines without a sku, saying how many", async () => {
    const tried = await server().request('/api/integrations/try/', { body: { ...shopSettings, endpoint: `${shop().origin}${ORDERS}?per_page=50`, target_entity: 'sales' }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    const answer = tried.json as unknown as IntegrationTryResponse;
    expect(answer.record_count).toBe(3);
    expect(answer.proposed_mapping).toMatchObject({ product_id: 'sku', quantity: 'quantity', date: 'order.date_created' });
    expect(answer.proposed_row_filters).toEqual([{ column: 'order.status', values: ['refunded', 'voided', 'cancelled'] }]);
    // The refunded order's line is left out by its status, not counted as a line without a code.
    expect(answer.blank_code_lines).toBe(1);
    expect(answer.proposed_skip_rows_without_code).toBe(true);
    expect(answer.rows.map((row) => ({ row: row.row, skipped: row.skipped ?? false, left_out: row.left_out ?? null, problems: row.problems }))).toEqual([
      { row: 1, skipped: false, left_out: null, problems: {} },
      { row: 2, skipped: true, left_out: null, problems: {} },
      { row: 3, skipped: false, left_out: { column: 'order.status', value: 'refunded' }, problems: {} },
    ]);

    // The mapping sent back without the option: nothing proposed over it, the blank lines still counted (the screen's words), and refused.
    const without = await server().request('/api/integrations/try/', {
      body: { ...shopSettings, endpoint: `${shop().origin}${ORDERS}?per_page=50`, target_entity: 'sales', mapping: { field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'order.date_created' } } },
      token: admin(),
    });
    const plain = without.json as unknown as IntegrationTryResponse;
    expect(plain).toMatchObject({ blank_code_lines: 1 });
    expect(plain.proposed_skip_rows_without_code).toBeUndefined();
    expect(plain.rows[1]?.problems.product_id).toMatch(/required/i);
  });

  it('runs with the proposed mapping: nothing rejected, the gift wrap skipped, the refund left out, and no request past X-WP-TotalPages', async () => {
    await saveMapping(`wattle_${backend}`, {
      entities: { sales: { field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'order.date_created' }, skip_rows_where: [{ column: 'order.status', values: ['refunded'] }], skip_rows_without_code: true } },
    });
    const integration = await createIntegration({ ...shopSettings, endpoint: `${shop().origin}${ORDERS}?per_page=50`, target_entity: 'sales', mapping_selection: `wattle_${backend}`, rate_limit: 6000 });
    const before = shop().requestsTo(ORDERS).length;

    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ status: 'success', counts: { pages: 3, inserted: 3, rejected: 0, filtered: 1, skipped: 2 } });
    // Pages 1 to 3, as X-WP-TotalPages said: no fourth request for an empty page.
    expect(shop().requestsTo(ORDERS).slice(before).map((request) => request.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(await sales()).toEqual([
      { code: code(1), date: '2026-12-01', quantity: 2 },
      { code: code(1), date: '2026-12-03', quantity: 3 },
      { code: code(2), date: '2026-12-02', quantity: 1 },
    ]);
  });

  it('runs a mapping that knows a line without a sku by its name (blank_code_by_name): the gift wrap matched to the product named so, and said in the summary (ADR 0195 F4)', async () => {
    const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code(3), name: 'Gift-Wrap' }, token: admin() });
    expect(added.status, added.text).toBeLessThan(300);
    const mapping = { field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'order.date_created' }, skip_rows_where: [{ column: 'order.status', values: ['refunded'] }], skip_rows_without_code: true, blank_code_by_name: true, new_products: { name: 'name' } };
    // Try the endpoint reads the saved mapping's option as the run does: the gift wrap's line has its product.
    const tried = await server().request('/api/integrations/try/', { body: { ...shopSettings, endpoint: `${shop().origin}${ORDERS}?per_page=50`, target_entity: 'sales', mapping }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    expect((tried.json as unknown as IntegrationTryResponse).rows[1]).toMatchObject({ values: { product_id: code(3) }, problems: {} });
    await saveMapping(`wattle_by_name_${backend}`, { entities: { sales: mapping } });
    const { id } = await createIntegration({ ...shopSettings, endpoint: `${shop().origin}${ORDERS}?per_page=50`, target_entity: 'sales', mapping_selection: `wattle_by_name_${backend}`, rate_limit: 6000 });
    const outcome = await runNow(id);
    // The gift wrap's two days are new rows (the other lines' product-days the run before stored, added to); none skipped.
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0, filtered: 1, skipped: 0 } });
    expect((await sales()).filter((sale) => sale.code === code(3))).toEqual([
      { code: code(3), date: '2026-12-01', quantity: 1 },
      { code: code(3), date: '2026-12-02', quantity: 1 },
    ]);
    const status = await server().request(`/api/integrations/scheduled/${id}/status/`, { token: admin() });
    // (Its other lines' sales are added to the first integration's: another source of the same product-days, said first.)
    expect((status.json as { last_run_summary: string }).last_run_summary).toContain('2 lines without a product code were matched to products by name. 1 line whose order.status is refunded was left out.');
  });
});
