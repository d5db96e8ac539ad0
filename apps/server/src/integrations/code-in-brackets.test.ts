// A mapping's code_in_brackets (ADR 0198) read from an endpoint, on PGlite and PostgreSQL, the shop a
// real HTTP server on 127.0.0.1: an ERP's order lines name the product "[FURN_7800] Desk
// Combination"; Try the endpoint reads the code in the brackets (and proposes it, with a line
// without brackets known by that name), a run stores the lines under the product's code and skips a
// line without brackets (a product without a code).
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const MAPPING = { field_mappings: { product_id: 'product', date: 'date_order', quantity: 'product_uom_qty' }, code_in_brackets: true, skip_rows_without_code: true };
const LINES = [
  { product: '[FURN_7800] Desk Combination', date_order: '2026-12-01 14:32:10', product_uom_qty: 3 },
  { product: '[FURN_7800] Desk Combination', date_order: '2026-12-01 15:00:00', product_uom_qty: 1 },
  { product: '[FURN_6666] Acoustic Bloc Screens', date_order: '2026-12-02 09:10:00', product_uom_qty: 2 },
  { product: 'Printer Toner Black', date_order: '2026-12-02 09:12:00', product_uom_qty: 5 },
];

describe.each(backends)('the product code in brackets read from an endpoint on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);

  beforeAll(async () => {
    await server().database.db.insertInto('data.products').values(['FURN_7800', 'FURN_6666'].map((code) => ({ product_code: code, name: code, current_stock: 5, unit_cost: 100, lead_time_days: 14 }))).execute();
    shop().route('/order-lines', (_request, response) => sendJson(response, { lines: LINES }));
    await saveMapping('erp_order_lines', { entities: { sales: MAPPING } });
  });

  it('reads the code in the brackets in Try the endpoint, as the mapping says', async () => {
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/order-lines`, target_entity: 'sales', mapping: MAPPING }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    const rows = (tried.json as { rows: { values: Record<string, unknown>; problems: Record<string, string> }[] }).rows;
    expect(rows[0]).toMatchObject({ values: { product_id: 'FURN_7800', quantity: 3 }, problems: {} });
  });

  it('proposes the code in the brackets and, for the line without one naming a stored product, knowing it by the same path (ADR 0195 F4 in integrations)', async () => {
    await server().database.db.insertInto('data.products').values({ product_code: 'TONER-BLK', name: 'Printer Toner Black', current_stock: 5, unit_cost: 10, lead_time_days: 7 }).execute();
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/order-lines`, target_entity: 'sales' }, token: admin() });
    expect(tried.status, tried.text).toBe(200);
    const answer = tried.json as { proposed_code_in_brackets?: true; proposed_blank_code_by_name?: true; proposed_new_products?: Record<string, string | null>; blank_code_matched?: number; rows: { values: Record<string, unknown>; problems: Record<string, string> }[] };
    expect(answer).toMatchObject({ proposed_code_in_brackets: true, proposed_blank_code_by_name: true, proposed_new_products: { name: 'product' }, blank_code_matched: 1 });
    expect(answer.rows[3]).toMatchObject({ values: { product_id: 'TONER-BLK', quantity: 5 }, problems: {} });
    await server().database.db.deleteFrom('data.products').where('product_code', '=', 'TONER-BLK').execute();
  });

  it('stores a run’s lines under the codes in their brackets and skips the line without one', async () => {
    const { id } = await createIntegration({ endpoint: `${shop().origin}/order-lines`, target_entity: 'sales', mapping_selection: 'erp_order_lines', pagination: 'none', rate_limit: 6000, batch_size: 2 });
    const outcome = await runNow(id);
    expect(outcome).toMatchObject({ status: 'success' });
    const stored = await sql<{ code: string; day: string; quantity: string }>`select p.product_code as code, s.date::text as day, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id order by 1, 2`.execute(server().database.db);
    expect(stored.rows.map((row) => [row.code, row.day, Number(row.quantity)])).toEqual([
      ['FURN_6666', '2026-12-02', 2],
      ['FURN_7800', '2026-12-01', 4],
    ]);
  });
});
