// A line without a product code known by its name (blank_code_by_name, ADR 0195 F4 in
// integrations) read from an endpoint, on PGlite and PostgreSQL, the shop a real HTTP server on
// 127.0.0.1: Try the endpoint proposes the option with the path naming the line's product where a
// line's name reads as one stored product's; a run with the mapping saved as proposed matches those
// lines; and a run matches a line naming a product an earlier batch of the same run created; a
// till's line is named by its item followed by its variation (joined columns of new_products.name, ADR 0201 F6),
// as Try proposes it for a Square sales export served as CSV (ADR 0201, amendment 2026-12-07).
import { mappingFromProposal } from '@stockwise/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityMapping, IntegrationTryResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { cellsOf } from '../testing/proposed-mapping.ts';
import { salesCsv, variations } from '../../../../e2e/fixtures/square-giftshop.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const LINES = [
  { sku: 'CARD-M', title: 'Chunky Cable Cardigan - M', quantity: 1, created_at: '2026-12-01' },
  { sku: '', title: 'Chunky Cable Cardigan - M', quantity: 2, created_at: '2026-12-01' },
  { sku: null, title: 'Canvas Tote Bag', quantity: 1, created_at: '2026-12-02' },
  { sku: '', title: 'Gift Card - £25', quantity: 1, created_at: '2026-12-02' },
];
// Linen Shirt M is no product yet: the first batch (two records) creates it, the second's line without a sku names it.
const NEW_PRODUCT_LINES = [
  { sku: 'LINEN-M', title: 'Linen Shirt - M', quantity: 1, created_at: '2026-12-03' },
  { sku: 'CARD-M', title: 'Chunky Cable Cardigan - M', quantity: 1, created_at: '2026-12-03' },
  { sku: '', title: 'Linen Shirt M', quantity: 2, created_at: '2026-12-04' },
];

describe.each(backends)('lines without a product code known by their name, from an endpoint, on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);

  beforeAll(async () => {
    for (const [code, name] of [
      ['CARD-M', 'Chunky Cable Cardigan M'],
      ['TOTE', 'Canvas Tote Bag'],
    ]) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code, name }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
    shop().route('/lines', (_request, response) => sendJson(response, { lines: LINES }));
    shop().route('/new-lines', (_request, response) => sendJson(response, { lines: NEW_PRODUCT_LINES }));
  });

  const sales = async () =>
    (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date::text as date, s.quantity::float8 as quantity from data.sales s join data.products p on p.id = s.product_id order by 1, 2`.execute(server().database.db)).rows;

  const runWith = async (name: string, path: string, mapping: EntityMapping) => {
    await saveMapping(name, { entities: { sales: mapping } });
    const { id } = await createIntegration({ endpoint: `${shop().origin}${path}`, target_entity: 'sales', mapping_selection: name, pagination: 'none', rate_limit: 6000, batch_size: 2 });
    const outcome = await runNow(id);
    const status = await server().request(`/api/integrations/scheduled/${id}/status/`, { token: admin() });
    return { outcome, summary: (status.json as { last_run_summary: string }).last_run_summary };
  };

  it('proposes matching the lines without a sku by the path naming their product, and a run with the mapping saved as proposed matches them', async () => {
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/lines`, target_entity: 'sales' }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    const answer = tried.json as unknown as IntegrationTryResponse;
    expect(answer).toMatchObject({ proposed_blank_code_by_name: true, proposed_new_products: { name: 'title' }, blank_code_lines: 3, blank_code_matched: 2, proposed_skip_rows_without_code: true });
    expect(answer.proposed_mapping).toMatchObject({ product_id: 'sku', quantity: 'quantity', date: 'created_at' });
    // The proposal's rows are read with it: the second line is the cardigan's.
    expect(answer.rows[1]).toMatchObject({ values: { product_id: 'CARD-M', quantity: 2 }, problems: {} });
    expect(answer.proposed_code_in_brackets).toBeUndefined();

    // The mapping as the integration editor's draft takes the proposal (draftFromProposal).
    const proposed: EntityMapping = {
      field_mappings: Object.fromEntries(Object.entries(answer.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
      skip_rows_without_code: true,
      blank_code_by_name: true,
      new_products: { name: answer.proposed_new_products?.['name'] as string },
    };
    const { outcome, summary } = await runWith(`by_name_${backend}`, '/lines', proposed);
    expect(outcome).toMatchObject({ status: 'success', counts: { rejected: 0, skipped: 1 } });
    expect(await sales()).toEqual([
      { code: 'CARD-M', date: '2026-12-01', quantity: 3 },
      { code: 'TOTE', date: '2026-12-02', quantity: 1 },
    ]);
    expect(summary).toContain('2 lines without a product code were matched to products by name.');
  });

  it('matches a line without a sku to the product an earlier batch of the same run created for its unknown code', async () => {
    const mapping: EntityMapping = {
      field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'created_at' },
      create_missing_products: true,
      new_products: { name: 'title' },
      skip_rows_without_code: true,
      blank_code_by_name: true,
    };
    const { outcome, summary } = await runWith(`creates_then_names_${backend}`, '/new-lines', mapping);
    expect(outcome).toMatchObject({ status: 'success', counts: { rejected: 0, skipped: 0 } });
    expect((await sales()).filter((sale) => sale.code === 'LINEN-M')).toEqual([
      { code: 'LINEN-M', date: '2026-12-03', quantity: 1 },
      { code: 'LINEN-M', date: '2026-12-04', quantity: 2 },
    ]);
    expect(summary).toContain('1 line without a product code was matched to products by name.');
  });

  it("matches a till's line without a sku by its item followed by its variation, on Try and in a run (ADR 0201 F6)", async () => {
    const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: 'Greeting Card Regular', name: 'Greeting Card Regular' }, token: admin() });
    expect(added.status, added.text).toBeLessThan(300);
    shop().route('/till-lines', (_request, response) => sendJson(response, { lines: [{ sku: '', item: 'Greeting Card', variation: 'Regular', quantity: 3, created_at: '2026-12-05' }] }));
    const mapping: EntityMapping = {
      field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'created_at' },
      new_products: { name: 'item' },
      joined_columns: { 'new_products.name': ['variation'] },
      skip_rows_without_code: true,
      blank_code_by_name: true,
    };
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/till-lines`, target_entity: 'sales', mapping }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    expect(tried.json).toMatchObject({ blank_code_matched: 1, rows: [{ values: { product_id: 'Greeting Card Regular', 'new_products.name': 'Greeting Card Regular' }, problems: {} }] });
    const { outcome, summary } = await runWith(`item_variation_${backend}`, '/till-lines', mapping);
    expect(outcome).toMatchObject({ status: 'success', counts: { rejected: 0, skipped: 0 } });
    expect((await sales()).filter((sale) => sale.code === 'Greeting Card Regular')).toEqual([{ code: 'Greeting Card Regular', date: '2026-12-05', quantity: 3 }]);
    expect(summary).toContain('1 line without a product code was matched to products by name.');
  });

  it("proposes a Square sales export's line name as Item followed by Price Point Name, and a run with the proposal matches its lines without a SKU (ADR 0201, amendment 2026-12-07)", async () => {
    // The library as imported: a variation without a SKU is coded and named by its item and variation,
    // Square's "Regular" left out (ADR 0201 F8).
    const stored = new Set((await sql<{ code: string }>`select product_code as code from data.products`.execute(server().database.db)).rows.map((row) => row.code));
    for (const variation of variations()) {
      const name = variation.name === 'Regular' ? variation.item.name : `${variation.item.name} ${variation.name}`;
      if (stored.has(variation.sku || name)) continue;
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: variation.sku || name, name }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
    const [header = '', ...lines] = salesCsv().trim().split('\n');
    // The newest days, Greeting Card Regular and Felt Robin Decoration Regular among them (no SKU).
    const page = [header, ...lines.slice(0, 120)].join('\n');
    shop().route('/square-sales.csv', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' });
      response.end(page);
    });
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/square-sales.csv`, target_entity: 'sales' }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    const answer = tried.json as unknown as IntegrationTryResponse;
    // As the file preview proposes it (import/square-giftshop.test.ts): the same proposal code.
    expect(answer).toMatchObject({ proposed_joined_columns: { 'new_products.name': ['Price Point Name'] }, proposed_new_products: { name: 'Item' }, proposed_blank_code_by_name: true });
    expect(answer.blank_code_lines).toBeGreaterThan(0);
    expect(answer.blank_code_matched).toBe(answer.blank_code_lines);

    const mapping = mappingFromProposal(answer) as EntityMapping;
    expect(mapping.joined_columns).toEqual({ 'new_products.name': ['Price Point Name'] });
    expect(mapping.joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    const cardSales = async () => (await sales()).filter((sale) => sale.code === 'Greeting Card').reduce((sum, sale) => sum + sale.quantity, 0);
    const before = await cardSales();
    const { outcome, summary } = await runWith(`square_sales_${backend}`, '/square-sales.csv', mapping);
    expect(outcome).toMatchObject({ status: 'success', counts: { rejected: 0, skipped: 0 } });
    expect(summary).toContain(`${answer.blank_code_lines} lines without a product code were matched to products by name.`);
    // Every Greeting Card line of the page (all without a SKU) is in the sales, refunds netted.
    const cardUnits = lines.slice(0, 120).map(cellsOf).filter((cells) => cells[4] === 'Greeting Card').reduce((sum, cells) => sum + Number(cells[5]), 0);
    expect(cardUnits).toBeGreaterThan(0);
    expect((await cardSales()) - before).toBe(cardUnits);
  });
});
