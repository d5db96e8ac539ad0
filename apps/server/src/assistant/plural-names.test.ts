// A product's whole name said with its last word in the other number — "paper bags" for "Paper bag",
// "flower pot" for "Flower pots", "croissants", "Gießkannen" — is that product, and a name or code
// inside a longer word is none (ADR 0189, amendment 2026-12-06 (4)): through the real HTTP server, on
// both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_SALES_DAYS, startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

/** Units sold a day over the last 10 days. */
const PRODUCTS = [
  { code: 'PB-1', name: 'Paper bag', category: 'Packaging', daily: 1 },
  { code: 'FP-1', name: 'Flower pots', category: 'Garden', daily: 2 },
  { code: 'CR-1', name: 'Croissant', category: 'Bakery', daily: 3 },
  { code: 'GK-1', name: 'Gießkanne', category: 'Garden', daily: 4 },
  { code: 'AB12', name: 'Garden twine', category: 'Garden', daily: 5 },
  { code: 'TE-1', name: 'Tea', category: 'Drinks', daily: 6 },
  { code: 'TB-1', name: 'Tote bag', category: 'Packaging', daily: 7 },
  { code: 'TB-2', name: 'Tote bags', category: 'Packaging', daily: 8 },
];
const ALL_SOLD = PRODUCTS.reduce((sum, p) => sum + p.daily, 0) * DAILY_SALES_DAYS;
/** The answer for one product's sales, named by its name and code. */
const soldBy = (name: string, code: string, units: number) => new RegExp(`^${name} \\(${code}\\) sold ${units} units in the last 30 days [^\\n]*$`);

describe.each(backends)('a name in the other number, on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string, language?: string) => Promise<string>;
  beforeAll(async () => {
    ({ server, ask } = await startDailySalesShop(backend, PRODUCTS, 'en-GB'));
  });
  afterAll(() => server.stop());

  it('reads a whole name with its last word in either number as that product, in English, German and Dutch', async () => {
    for (const [question, name, code, units] of [
      // Before: 'Paper bag (PB-1) sold 10 units … I did not use "s"'.
      ['how many paper bags did we sell', 'Paper bag', 'PB-1', 10],
      ['how many paper bag did we sell', 'Paper bag', 'PB-1', 10],
      // Before: the products whose name holds "Flower pots", read as a phrase of names.
      ['how many flower pot did we sell', 'Flower pots', 'FP-1', 20],
      ['how many croissants did we sell', 'Croissant', 'CR-1', 30],
      ['hoeveel croissants hebben we verkocht', 'Croissant', 'CR-1', 30],
      ['wie viele Gießkannen haben wir verkauft', 'Gießkanne', 'GK-1', 40],
      // Two names on the same words: the one written as the question writes it.
      ['how many tote bags did we sell', 'Tote bags', 'TB-2', 80],
      ['how many tote bag did we sell', 'Tote bag', 'TB-1', 70],
    ] as const) {
      const answer = await ask(question);
      expect(answer, question).toMatch(soldBy(name, code, units));
      expect(answer, question).not.toMatch(/I did not use/);
    }
    expect(await ask('how many paper bags do we have')).toMatch(/^Paper bag \(PB-1\) [^\n]*$/);
  });

  it('reads no name or code inside a longer word, and leaves no part of a word unused', async () => {
    // "Tea" is no part of "teapots": the word is said back whole, not "pots".
    const teapots = await ask('how many teapots did we sell');
    expect(teapots).toMatch(new RegExp(`^${ALL_SOLD} units were sold in the last 30 days [^\\n]*\\nI did not use "teapots"`));
    expect(teapots).not.toMatch(/TE-1/);
    // A code inside a longer one is not that product: the code asked for is said to be none.
    const longer = await ask('how many AB123 did we sell');
    expect(longer).toMatch(/^There is no product AB123\. Did you mean AB12\?$/);
    expect(longer).not.toMatch(/Garden twine/);
    expect(await ask('how many AB12 did we sell')).toMatch(soldBy('Garden twine', 'AB12', 50));
  });
});
