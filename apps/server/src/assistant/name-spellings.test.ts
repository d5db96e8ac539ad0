// A product's whole name said in the other number when its last word is joined by a hyphen or an
// apostrophe ("crew t-shirts" for "Crew T-Shirt"), and names stored with their spaces as shops' files
// write them ("Paper  bag", " Oat latte ") found by their name (ADR 0189, amendment 2026-12-06 (6)):
// through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_SALES_DAYS, startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

/** Units sold a day over the last 10 days; names as stored, their spaces and apostrophes as a shop's file writes them. */
const PRODUCTS = [
  { code: 'CT-1', name: 'Crew T-Shirt', category: 'Tops', daily: 1 },
  { code: 'VN-1', name: 'V-Neck T-Shirt', category: 'Tops', daily: 2 },
  { code: 'MJ-1', name: "Men's Jumper", category: 'Knitwear', daily: 3 },
  { code: 'MG-1', name: 'Men’s Glove', category: 'Knitwear', daily: 4 },
  { code: 'PB-1', name: 'Paper  bag', category: 'Packaging', daily: 5 },
  { code: 'OL-1', name: ' Oat latte ', category: 'Drinks', daily: 6 },
  { code: 'TB-1', name: 'Tote\u00a0bag\t', category: 'Packaging', daily: 7 },
  { code: 'KK-1', name: 'Kaffee-Kanne', category: 'Küche', daily: 8 },
  { code: 'PS-1', name: 'Polo-shirt', category: 'Tops', daily: 9 },
];
/** The answer for one product's sales: its name as stored, its code, its units. */
const soldBy = (code: string, units = (PRODUCTS.find((p) => p.code === code)?.daily ?? 0) * DAILY_SALES_DAYS) => new RegExp(`^[^\\n]*\\(${code}\\) sold ${units} units in the last 30 days [^\\n]*$`);

describe.each(backends)('names by their spellings, on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string, language?: string) => Promise<string>;
  beforeAll(async () => {
    ({ server, ask } = await startDailySalesShop(backend, PRODUCTS, 'en-GB'));
  });
  afterAll(() => server.stop());
  /** Each question answers for the one product by its name, no word left unused. */
  const expectNamed = async (questions: readonly (readonly [string, string])[]) => {
    for (const [question, code] of questions) {
      const answer = await ask(question);
      expect(answer, question).toMatch(soldBy(code));
      expect(answer, question).not.toMatch(/I did not use/);
    }
  };

  it('reads a whole name whose last word is joined by a hyphen or an apostrophe in either number, in English, German and Dutch', async () => {
    await expectNamed([
      // Before: the products whose name holds "Crew T-Shirt" (a phrase of names), not the product.
      ['how many crew t-shirts did we sell', 'CT-1'],
      ['how many crew t-shirt did we sell', 'CT-1'],
      ['how many v-neck t-shirts did we sell', 'VN-1'],
      // An apostrophe straight or curly on either side.
      ['how many men’s jumpers did we sell', 'MJ-1'],
      ["how many men's jumper did we sell", 'MJ-1'],
      ["how many men's gloves did we sell", 'MG-1'],
      ['wie viele Kaffee-Kannen haben wir verkauft', 'KK-1'],
      ['hoeveel polo-shirts hebben we verkocht', 'PS-1'],
    ]);
    // The joined word alone is still a word of names: every T-shirt.
    const tShirts = await ask('how many t-shirts did we sell');
    expect(tShirts).toMatch(/^30 units were sold of products whose name holds "T-Shirt" \(2 products in the Tops category: CT-1, VN-1\)/);
    expect(tShirts).not.toMatch(/I did not use/);
  });

  it('finds a name stored with double, leading, trailing or other white space by its name, the stored name unchanged', async () => {
    await expectNamed([
      // Before: the products whose name holds the phrase "Paper bag", not the product (the database's pick compared the stored spaces).
      ['how many paper bags did we sell', 'PB-1'],
      ['how many paper  bag did we sell', 'PB-1'],
      ['how many oat lattes did we sell', 'OL-1'],
      ['  how many oat latte did we sell  ', 'OL-1'],
      ['how many tote bags did we sell', 'TB-1'],
    ]);
    const stored = await server.database.db.selectFrom('data.products').select('name').where('product_code', 'in', ['PB-1', 'OL-1', 'TB-1']).orderBy('product_code').execute();
    expect(stored.map((row) => row.name)).toEqual([' Oat latte ', 'Paper  bag', 'Tote\u00a0bag\t']);
  });
});
