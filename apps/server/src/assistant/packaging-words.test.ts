// The words goods are counted in — "zakken", "bags", "Säcke", "flessen", "cans" — frame a question
// that names products by another word, and a by-category answer names its categories once (ADR 0189,
// amendment 2026-12-06 (3)): through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

/** Units sold a day over the last 10 days. */
const PRODUCTS = [
  { code: 'PG-01', name: 'Tuinaarde compost 40L', category: 'Potgrond', daily: 2 },
  { code: 'PG-02', name: 'Bio compost 20L', category: 'Potgrond', daily: 3 },
  { code: 'PG-06', name: 'Compost zak 40L', category: 'Potgrond', daily: 1 },
  { code: 'PG-07', name: 'Potgrond universeel 40L', category: 'Potgrond', daily: 6 },
  { code: 'TA-03', name: 'Compost activator 1kg', category: 'Tuinartikelen', daily: 4 },
  { code: 'VP-01', name: 'Paper bag large', category: 'Verpakking', daily: 5 },
  { code: 'MU-01', name: 'Rindenmulch 60L', category: 'Mulch', daily: 7 },
  { code: 'WN-01', name: 'Rode wijn 75cl', category: 'Dranken', daily: 8 },
  { code: 'VF-01', name: 'Wall paint 2.5L', category: 'Verf', daily: 9 },
];
/** Units sold of the products whose name holds "compost": PG-01, PG-02, PG-06 and TA-03, over 10 days. */
const COMPOST_SOLD = (2 + 3 + 1 + 4) * 10;

describe.each(backends)('the words goods are counted in, on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string, language?: string) => Promise<string>;
  beforeAll(async () => {
    ({ server, ask } = await startDailySalesShop(backend, PRODUCTS, 'nl-NL,nl;q=0.9'));
  });
  afterAll(() => server.stop());

  it('reads "zakken", "bags", "Säcke", "Kisten", "flessen", "cans" beside a product word as framing, in Dutch, English and German', async () => {
    const sold = (units: number, word: string, count: number) => new RegExp(`^${units} units were sold of products whose name holds "${word}" \\(${count} products? `, 'i');
    for (const question of ['hoeveel zakken compost hebben we verkocht', 'how many bags of compost did we sell', 'how many compost bags did we sell', 'wie viele Säcke compost haben wir verkauft']) {
      const answer = await ask(question);
      // Before: "No product's name holds "zakken compost"", or "I did not use "bags"".
      expect(answer, question).toMatch(sold(COMPOST_SOLD, 'compost', 4));
      expect(answer, question).not.toMatch(/No product's name holds|I did not use/);
    }
    for (const [question, units, word] of [
      ['wie viele Säcke Rindenmulch haben wir verkauft', 70, 'Rindenmulch'],
      ['hoeveel flessen wijn hebben we verkocht', 80, 'wijn'],
      ['how many cans of paint did we sell', 90, 'paint'],
    ] as const) {
      const answer = await ask(question);
      expect(answer, question).toMatch(sold(units, word, 1));
      expect(answer, question).not.toMatch(/No product's name holds|I did not use/);
    }
    // The stock of the products, and a category or a product named by its code counted in bags.
    const stock = await ask('hoeveel zakken compost hebben we');
    expect(stock).toMatch(/^4 products' names hold "compost" \(in the Potgrond and Tuinartikelen categories\):\n/i);
    expect(stock).not.toMatch(/zakken|I did not use/);
    expect(await ask('hoeveel zakken potgrond hebben we verkocht')).toMatch(/^120 units were sold in the Potgrond category in the last 30 days [^\n]*$/);
    expect(await ask('how many bags of PG-01 do we have', 'en-GB')).toMatch(/^Tuinaarde compost 40L \(PG-01\) [^\n]*$/);
  });

  it('keeps a name that holds the word, and reads the word as a name when nothing else names products', async () => {
    expect(await ask('hoeveel compost zak hebben we verkocht')).toMatch(/^10 units were sold of products whose name holds "Compost zak" \(1 product in the Potgrond category: PG-06\)/);
    expect(await ask('how many paper bags did we sell', 'en-GB')).toMatch(/^50 units were sold of products whose name holds "Paper bag" \(1 product in the Verpakking category: VP-01\)/);
    expect(await ask('how many bags did we sell', 'en-GB')).toMatch(/^50 units were sold of products whose name holds "bag" \(1 product in the Verpakking category: VP-01\)/);
    // Nothing named: the word is not used, and said so.
    expect(await ask('how many crates did we sell', 'en-GB')).toMatch(/^450 units were sold in the last 30 days [^\n]*\nI did not use "crates"/);
  });

  it('names the categories of a by-category answer once, in its rows, not in the words of the products counted', async () => {
    for (const question of ['sales by category of products whose name holds compost', 'compost sales by category', 'verkochte compost per categorie']) {
      const answer = await ask(question);
      // Before: "… whose name holds "compost" (4 products in the Potgrond and Tuinartikelen categories: …) …: Potgrond sold the most".
      expect(answer, question).toMatch(/^Sales by category of products whose name holds "compost" \(4 products: PG-01, PG-02, PG-06 and 1 more\) in the last 30 days [^:]*, ranked by units sold: Potgrond sold the most, 60 units, worth 240\.00 at unit cost\. 2 categories\.$/im);
      expect(answer.split('\n')[0]?.match(/Potgrond/g), question).toHaveLength(1);
      expect(answer, question).not.toMatch(/No product's name holds|I did not use/);
    }
    const stock = await ask('stock by category of products named compost', 'en-GB');
    expect(stock).toMatch(/^Stock on hand by category of products whose name holds "compost" \(4 products: PG-01, PG-02, PG-06 and 1 more\), ranked by units on hand: /i);
    expect(stock.split('\n')[0]?.match(/Tuinartikelen/g)).toBeNull();
    // Across the catalogue the answer's words still say where it found them.
    expect(await ask('how much compost did we sell', 'en-GB')).toMatch(/\(4 products in the Potgrond and Tuinartikelen categories: /);
  });
});
