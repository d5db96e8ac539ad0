// A Dutch garden centre (ADR 0189, amendment 2026-12-06): its compost is in the category "Potgrond",
// its products named "… compost …"; "hoeveel compost hebben we verkocht" counts those products and
// says which it counted — through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_SALES_DAYS, startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

/** Units sold a day over the last 10 days. */
const PRODUCTS = [
  { code: 'PG-01', name: 'Tuinaarde compost 40L', category: 'Potgrond', daily: 2 },
  { code: 'PG-02', name: 'Bio compost 20L', category: 'Potgrond', daily: 3 },
  { code: 'PG-03', name: 'Champost compost 50L', category: 'Potgrond', daily: 1 },
  { code: 'PG-04', name: 'Potgrond universeel 40L', category: 'Potgrond', daily: 5 },
  { code: 'TA-01', name: 'Compostbak 300L', category: 'Tuinartikelen', daily: 4 },
  { code: 'TA-02', name: 'Kruiwagen', category: 'Tuinartikelen', daily: 7 },
  { code: 'PG-05', name: 'Bio-compost 10L', category: 'Potgrond', daily: 1 },
];

/** How many of the days sold on (yesterday back DAILY_SALES_DAYS days) fall in last week, Monday to Sunday: 4 on a Sunday, 7 on a Monday. */
const soldDaysLastWeek = (() => {
  const daysSinceMonday = (new Date().getUTCDay() + 6) % 7;
  const [from, to] = [daysSinceMonday + 7, daysSinceMonday + 1];
  return Array.from({ length: DAILY_SALES_DAYS }, (_, at) => at + 1).filter((daysAgo) => daysAgo <= from && daysAgo >= to).length;
})();

describe.each(backends)('a Dutch garden centre asks about its compost on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string) => Promise<string>;
  beforeAll(async () => {
    ({ server, ask } = await startDailySalesShop(backend, PRODUCTS, 'nl-NL,nl;q=0.9'));
  });
  afterAll(() => server.stop());

  it('counts the products a word of names selects across the category they are in, and says the category, asked in Dutch or English', async () => {
    for (const question of ['hoeveel compost hebben we verkocht', 'hoeveel composten verkocht?', 'how much compost did we sell', 'How many compost products did we sell?']) {
      // 2 + 3 + 1 + 1 units a day over 10 days; not the Compostbak (a word of its own) nor the Potgrond universeel.
      expect(await ask(question), question).toMatch(/^70 units were sold of products whose name holds "compost" \(4 products in the Potgrond category: PG-01, PG-02, PG-03 and 1 more\) in the last 30 days /);
    }
    expect(await ask('hoeveel compost hebben we verkocht vorige week')).toMatch(new RegExp(`^${7 * soldDaysLastWeek} units were sold of products whose name holds "compost" \\(4 products in the Potgrond category: `));
    expect(await ask('hoeveel compost hebben we op voorraad')).toMatch(/^4 products' names hold "compost" \(in the Potgrond category\):\nTuinaarde compost 40L \(PG-01\)/);
    // The category by its own name is every product in it.
    expect(await ask('hoeveel potgrond hebben we verkocht')).toMatch(/^120 units were sold in the Potgrond category in the last 30 days /);
    // Narrowed to the category, it is said once.
    expect(await ask('hoeveel compost verkocht in potgrond')).toMatch(/^70 units were sold of products in the Potgrond category whose name holds "compost" \(4 products: PG-01, PG-02, PG-03 and 1 more\)/);
  });

  it('does not match a word that is no word of the names, however near', async () => {
    for (const question of ['hoeveel kompost hebben we verkocht', 'hoeveel composteren hebben we verkocht']) {
      expect(await ask(question), question).not.toContain('compost"');
    }
  });

  // Last: it adds products.
  it('names each category the word found products in, and "or none" for those without one', async () => {
    const db = server.database.db;
    await db.insertInto('data.products').values([
      { product_code: 'TA-03', name: 'Compost activator 1kg', category: 'Tuinartikelen', current_stock: 10, unit_cost: 3, lead_time_days: 7 },
      { product_code: 'ZZ-01', name: 'Compost proefzak', category: null, current_stock: 10, unit_cost: 3, lead_time_days: 7 },
    ]).execute();
    // Its spelling is the names' most common one, as any word of names (the new products write "Compost").
    expect(await ask('how much compost did we sell')).toMatch(/^70 units were sold of products whose name holds "Compost" \(6 products in the Potgrond and Tuinartikelen categories or none: PG-01, PG-02, PG-03 and 3 more\)/);
  });
});
