// Products not stocked (a service or fee, ADR 0200, amendment 2026-12-07) are in no stock total: a
// file that wrote stock beside a gift card or a delivery charge does not add it to the dashboard's
// inventory, its worth or its growth, nor to the assistant's stock value or the report writer's; each
// says how many it leaves out. Through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, DashboardResponse } from '@stockwise/contract';
import { importFile } from '../testing/uploads.ts';
import { tableOf } from '../testing/advised-shop.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { refreshCatalogueSummary } from './repo.ts';

// The pot is stocked; the gift card and the delivery charge are services holding stock in the file (the charge without a cost),
// the kinds said as yes or no by the mapping's value map (ADR 0200, amendment 2026-12-07).
const PRODUCTS = 'Code,Name,Stock,Cost,Type,Category\nPOT-1,Clay pot,10,2.50,Storable Product,Pots\nGIFT,Gift card,5,10,Service,Gifts\nDEL,Delivery charge,3,,Service,Services\n';

describe.each(backends)('stock totals without the products not stocked on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const dashboard = async () => (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
  const ask = async (content: string) => {
    const response = await server.request('/api/assistant/messages/', { token, body: { content, context: { page: 'home', path: '/home' } } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    const imported = await importFile(server, token, {
      fileName: 'products.csv',
      content: PRODUCTS,
      mapping: { entities: { products: { field_mappings: { product_code: 'Code', name: 'Name', current_stock: 'Stock', unit_cost: 'Cost', not_stocked: 'Type', category: 'Category' }, value_maps: { not_stocked: { Service: 'true', 'Storable Product': 'false' } } } } },
      entityType: 'products',
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  });
  afterAll(() => server.stop());

  it("the dashboard's total, worth and growth leave their stock out and say how many they leave out", async () => {
    const db = server.database.db;
    const ids = new Map((await db.selectFrom('data.products').select(['id', 'product_code']).execute()).map((row) => [row.product_code, row.id]));
    // The import counted each today (its stock column); 40 days before, the pot 8 (+25 % since) and the gift card 50, which would make it −74.1 %.
    const before = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await db
      .insertInto('data.stock_snapshots')
      .values([
        { product_id: ids.get('POT-1') as number, date: before, stock_level: 8 },
        { product_id: ids.get('GIFT') as number, date: before, stock_level: 50 },
      ])
      .execute();
    await refreshCatalogueSummary(db);
    const read = await dashboard();
    // The catalogue's three products; the figures of the pot alone (the charge's 3 with no cost not counted as "without cost" either).
    expect(read).toMatchObject({ state: 'ready', products: 3 });
    expect(read.inventoryStats).toMatchObject({ totalInventory: 10, inventoryByUnit: [{ unit: null, quantity: 10 }], totalValue: 25, withoutCost: 0, notStocked: 2, monthlyGrowth: 25, growthByUnit: [{ unit: null, percent: 25 }] });
  });

  it("the assistant's stock value and stock by category leave them out and say so", async () => {
    expect((await ask('What is the value of our stock?')).content).toBe(
      'The stock on hand is worth 25.00 at unit cost: 10 units across 1 product. 2 products not stocked (services or fees) are not in that value: no stock is kept of them.',
    );
    const byCategory = await ask('stock value by category');
    expect(tableOf(byCategory)?.rows.map((row) => [row.category, row.value])).toEqual([['Pots', 25]]);
  });

  it("the report writer's stock value leaves them out, and its steps say so", async () => {
    const generated = await server.request('/api/user-reports/generate-from-request/', {
      token,
      body: { report_id: null, change_request: 'stock value by category', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
    });
    const report = generated.json as { success: boolean; sql_code: string; pseudocode: string };
    expect(report.success, generated.text).toBe(true);
    expect(report.sql_code).toContain('not coalesce(p.not_stocked, false)');
    expect(report.pseudocode).toContain('so is a product not stocked (a service or fee): no stock is kept of it.');
    const run = await server.request('/api/user-reports/execute/', { token, body: { sql_code: report.sql_code } });
    expect(run.status, run.text).toBe(200);
    expect((run.json as { results: Record<string, unknown>[] }).results.map((row) => [row.category, Number(row.stock_value)])).toEqual([['Pots', 25]]);
  });
});
