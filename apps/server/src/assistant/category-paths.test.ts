// A wholesaler whose categories come from Odoo as paths, "All / Saleable / Office Furniture" (ADR
// 0198): "how much office furniture did we sell" is the category by its last part, not a word of the
// products' names, and the answer names it so (F14); "how many kg of coffee beans" takes the kg as the measure, not an unknown word —
// through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantBlock, ChatMessage } from '@stockwise/contract';
import { startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const FURNITURE = 'All / Saleable / Office Furniture';
/** Units sold a day over the last 10 days. */
const PRODUCTS = [
  { code: 'FURN_7800', name: 'Desk Combination', category: FURNITURE, daily: 1 },
  { code: 'FURN_0269', name: 'Office Chair Black', category: FURNITURE, daily: 2 },
  { code: 'FURN_7777', name: 'Office Lamp', category: FURNITURE, daily: 3 },
  { code: 'PAP_A4_80', name: 'Copier Paper A4 80gsm (ream)', category: 'All / Saleable / Paper', daily: 40 },
  { code: 'PAP_OFFICE', name: 'Office Paper Pack', category: 'All / Saleable / Paper', daily: 5 },
  { code: 'BRK_COF_1K', name: 'Coffee Beans House Blend', category: 'All / Saleable / Break Room', daily: 2 },
];

describe.each(backends)('categories written as paths on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string) => Promise<string>;
  let token: string;
  beforeAll(async () => {
    ({ server, ask, token } = await startDailySalesShop(backend, PRODUCTS, 'en-US,en;q=0.9'));
  });
  afterAll(() => server.stop());

  it('names a category by the last part of its path', async () => {
    // 1 + 2 + 3 units a day over 10 days; not the Office Paper Pack, whose name holds "Office".
    expect(await ask('How much office furniture did we sell?')).toMatch(/^60 units were sold in the Office Furniture category in the last 30 days/);
    expect(await ask('How much paper did we sell in the paper category?')).toMatch(/^450 units were sold in the Paper category/);
  });

  it('names a path by its last part, where the products of a word of their names are (F14)', async () => {
    // Office Chair Black, Office Lamp (Office Furniture) and Office Paper Pack (Paper): 2 + 3 + 5 a day.
    expect(await ask('How many office did we sell?')).toMatch(/^100 units were sold of products whose name holds "Office" \(3 products in the Office Furniture and Paper categories: /);
  });

  it("names sales by category's categories by their last parts; the table keeps the paths, marked for the screen to shorten (F14)", async () => {
    const response = await server.request('/api/assistant/messages/', { token, body: { content: 'Sales by category' } });
    expect(response.status, response.text).toBe(200);
    const answer = (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
    expect(answer.content).toMatch(/, ranked by units sold: Paper sold the most, 450 units, /);
    const table = answer.blocks.find((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');
    expect(table?.columns[0]).toEqual({ key: 'category', label: 'Category', kind: 'category' });
    expect(table?.rows.map((row) => row['category'])).toEqual(['All / Saleable / Paper', 'All / Saleable / Office Furniture', 'All / Saleable / Break Room']);
  });

  it('takes the measure a product is counted in as used, not as a word it did not understand (F13)', async () => {
    for (const question of ['How many kg of coffee beans did we sell?', 'How many kilos of coffee beans did we sell?']) {
      const answer = await ask(question);
      expect(answer, question).toMatch(/^20 units were sold of products whose name holds "Coffee Beans"/);
      expect(answer, question).not.toContain('I did not use');
    }
  });
});
