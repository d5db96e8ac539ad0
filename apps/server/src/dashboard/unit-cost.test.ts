// A unit cost left blank is unknown, not free (the column has no empty value, so it is stored as 0):
// the import says so, and the stock value on the dashboard and in the assistant's answer leaves
// such stock out and says how many products it leaves out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, DashboardResponse } from '@stockwise/contract';
import { importFile } from '../testing/uploads.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('stock without a unit cost on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const importProducts = (content: string) =>
    importFile(server, token, {
      fileName: 'products.csv',
      content,
      mapping: { entities: { products: { field_mappings: { product_code: 'Code', name: 'Name', current_stock: 'Stock', unit_cost: 'Cost' } } } },
      entityType: 'products',
    });
  const dashboardStats = async () => ((await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse).inventoryStats;
  const stockValueAnswer = async () => {
    const response = await server.request('/api/assistant/messages/', { token, body: { content: 'What is the value of our stock?', context: { page: 'home', path: '/home' } } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
  });
  afterAll(() => server.stop());

  it('says a blank cost is stored as 0 and left out of stock values', async () => {
    // Two costs left blank: one product on hand, one with nothing on hand.
    const result = await importProducts('Code,Name,Stock,Cost\nPOT-1,Clay pot,10,2.50\nPOT-2,Glazed pot,4,\nPOT-3,Pot saucer,0,\n');
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.warnings).toContainEqual({ field: 'unit_cost', rows: 2, value: '0', message: '2 rows had no unit cost: stored as 0, and left out of stock values as having no cost until one is imported or typed' });
  });

  it('values the stock with a cost and counts the products on hand without one', async () => {
    expect(await dashboardStats()).toMatchObject({ totalInventory: 14, totalValue: 25, withoutCost: 1 });
    expect(await stockValueAnswer()).toBe(
      'The stock on hand is worth 25.00 at unit cost: 14 units across 3 products. 1 product on hand has no unit cost (0 or left blank), so its stock is not in that value: add the cost on the Data screen.',
    );
  });

  it('says nothing more once every product on hand has a cost', async () => {
    expect((await importProducts('Code,Name,Stock,Cost\nPOT-2,Glazed pot,4,3.00\n')).status).toBe(200);
    expect(await dashboardStats()).toMatchObject({ totalInventory: 14, totalValue: 37, withoutCost: 0 });
    expect(await stockValueAnswer()).toBe('The stock on hand is worth 37.00 at unit cost: 14 units across 3 products.');
  });
});
