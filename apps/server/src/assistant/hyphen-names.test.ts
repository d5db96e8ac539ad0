// Product names with hyphens and apostrophes ("T-Shirt Crew M", "linen-shirt XS", "V-Neck Jumper",
// "Men’s Socks") read by their words whole and by their parts, and an order or low-stock question
// naming products by a word or phrase of their names narrowed to them (ADR 0189, amendment
// 2026-12-06 (5); ADR 0195 F7, F8) — and so are the model's order tools given those words
// (amendment (7)), the model a real loopback HTTP server: through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProductSummaries } from '../dashboard/repo.ts';
import { DAILY_SALES_DAYS, startDailySalesShop } from '../testing/daily-sales-shop.ts';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';
import { modelToolResults } from '../testing/model-tool-results.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const TODAY = new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Units sold a day over the last 10 days; `order`: the forecast's advised order, none where it advises none. */
const PRODUCTS = [
  { code: 'TS-M', name: 'T-Shirt Crew M', category: 'Tops', daily: 1, order: 5 },
  { code: 'TS-L', name: 'T-Shirt Crew L', category: 'Tops', daily: 2, order: 0 },
  { code: 'VN-M', name: 'V-Neck Jumper M', category: 'Knitwear', daily: 3, order: 0 },
  { code: 'CN-M', name: 'Crew-Neck Jumper M', category: 'Knitwear', daily: 4, order: 0 },
  { code: 'LS-XS', name: 'linen-shirt XS', category: null, daily: 5, order: 3 },
  { code: 'LS-M', name: 'linen-shirt M', category: null, daily: 6, order: 0 },
  { code: 'MJ-S', name: 'Merino Jumper S', category: 'Knitwear', daily: 7, order: 10 },
  { code: 'MJ-M', name: 'Merino Jumper M', category: 'Knitwear', daily: 8, order: 6 },
  { code: 'MJ-L', name: 'Merino Jumper L', category: 'Knitwear', daily: 9, order: 0 },
  { code: 'MS-1', name: 'Men’s Socks', category: null, daily: 10, order: 0 },
];
const soldOf = (...codes: string[]) => PRODUCTS.filter((p) => codes.includes(p.code)).reduce((sum, p) => sum + p.daily, 0) * DAILY_SALES_DAYS;

/** Every product counted today (50 on hand) and a catalogue run's advice: `order` units to order by today + 2, a stock-out in a week. */
async function storeAdvice(server: TestServer) {
  const db = server.database.db;
  const rows = await db.selectFrom('data.products').select(['id', 'product_code']).execute();
  const order = (code: string) => PRODUCTS.find((p) => p.code === code)?.order ?? 0;
  await db.insertInto('data.stock_snapshots').values(rows.map((row) => ({ product_id: row.id, date: TODAY, stock_level: 50 }))).execute();
  await storeCatalogueAdvice(
    db,
    rows.map((row) => ({
      productId: row.id,
      forecastStart: TODAY,
      stockouts: [{ date: addDays(TODAY, 7), type: 'stockForecast' as const }],
      reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: order(row.product_code), orderBy: order(row.product_code) ? addDays(TODAY, 2) : null, leadTimeDays: 5, serviceLevel: 0.95 },
    })),
  );
  await upsertProductSummaries(db, rows.map((row) => ({ productId: row.id, forecastStart: TODAY, cumDemand: [0], cumVariance: [0], firstStockout: addDays(TODAY, 7), orderQuantity: order(row.product_code) })));
}

describe.each(backends)('names with hyphens and apostrophes, on %s', (backend) => {
  let server: TestServer;
  let ask: (content: string, language?: string) => Promise<string>;
  beforeAll(async () => {
    ({ server, ask } = await startDailySalesShop(backend, PRODUCTS, 'en-GB'));
    await storeAdvice(server);
  });
  afterAll(() => server.stop());

  it('reads a hyphenated word of a question whole, and its parts, against the words of names', async () => {
    for (const [question, codes] of [
      // Before: every product, "I did not use …".
      ['How many t-shirts did we sell?', ['TS-L', 'TS-M']],
      ['How many linen shirts did we sell?', ['LS-M', 'LS-XS']],
      ['how many linen-shirts did we sell', ['LS-M', 'LS-XS']],
      ['how many shirts did we sell', ['LS-M', 'LS-XS', 'TS-L', 'TS-M']],
      ['how many v-neck jumpers did we sell', ['VN-M']],
      ['how many merino jumpers did we sell', ['MJ-L', 'MJ-M', 'MJ-S']],
    ] as const) {
      const answer = await ask(question);
      expect(answer, question).toMatch(new RegExp(`^${soldOf(...codes)} units were sold of products whose name holds `));
      expect(answer, question).toContain(`(${codes.length} product${codes.length === 1 ? '' : 's'}`);
      expect(answer, question).toContain(`: ${codes.slice(0, 3).join(', ')}`);
      expect(answer, question).not.toMatch(/I did not use|No product/);
    }
    // A whole name with the other apostrophe is that product by its name (amendment 2026-12-06 (6)); before, the products whose name holds it.
    const socks = await ask("how many men's socks did we sell");
    expect(socks).toMatch(new RegExp(`^Men’s Socks \\(MS-1\\) sold ${soldOf('MS-1')} units in the last 30 days`));
    expect(socks).not.toMatch(/I did not use|No product/);
    const stock = await ask('v-neck jumpers in stock');
    expect(stock).toMatch(/^V-Neck Jumper M \(VN-M\) has 50 units on hand/);
    expect(stock).not.toMatch(/CN-M/);
    // A single letter of a name is no word of it.
    expect(await ask('how many v did we sell')).toMatch(/I did not use "v"/);
  });

  it('narrows a reorder or low-stock question to the products a phrase of their names selects, and says so', async () => {
    // Before: the whole reorder report (the T-shirt and the linen shirt too).
    const reorder = await ask('Which sizes of the merino jumper should I reorder?');
    expect(reorder).toMatch(/^Reorder report of products whose name holds "Merino Jumper" \(3 products in the Knitwear category: MJ-L, MJ-M, MJ-S\): 2 advised orders, 16 units/);
    expect(reorder).not.toMatch(/TS-M|LS-XS|I did not use/);
    const low = await ask('low stock of linen shirts');
    expect(low).toMatch(/^Low stock of products whose name holds "linen shirt" \(2 products: LS-M, LS-XS\): 1 product needs an order, most urgent first: 3 units/);
    const none = await ask('should I reorder v-neck jumpers?');
    expect(none).toMatch(/^Nothing to order of products whose name holds "V-Neck Jumper" \(1 product in the Knitwear category: VN-M\)\. No product needs an order/);
    // The whole list unchanged without words of names.
    expect(await ask('reorder report')).toMatch(/^Reorder report: 4 advised orders, 24 units/);
  });
});

describe.each(backends)("the model's order tools narrowed by words of names, on %s", (backend) => {
  let server: TestServer;
  let model: FakeChatModel;
  let token: string;
  beforeAll(async () => {
    model = await startFakeChatModel();
    ({ server, token } = await startDailySalesShop(backend, PRODUCTS, 'en-GB', { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' }));
    await storeAdvice(server);
  });
  afterAll(async () => {
    await server.stop();
    await model.close();
  });

  it('gives reorder_report and low_stock product_words, narrows as a question naming them does, says to what, and refuses words naming no product', async () => {
    const { results, tools } = await modelToolResults(server, model, token, [
      { name: 'reorder_report', args: { product_words: 'merino jumper' } },
      { name: 'low_stock', args: { product_words: 'linen shirts' } },
      { name: 'reorder_report', args: { product_words: 'v-neck jumpers' } },
      { name: 'reorder_report', args: { product_words: 'sizes of the merino jumper', window: 'the next 30 days' } },
      { name: 'low_stock', args: { product_words: 'Merino Jumper S' } },
      { name: 'reorder_report', args: { product_words: 'cashmere merino jumpers' } },
      { name: 'reorder_report', args: { product_words: 'kettles' } },
      { name: 'low_stock', args: { product_words: 42 } },
      { name: 'reorder_report', args: { product_words: '  ' } },
    ], 'which sizes of the merino jumper should I reorder?');
    for (const name of ['reorder_report', 'low_stock']) {
      const tool = tools.find((offered) => offered.function.name === name)?.function;
      expect(tool?.parameters.properties.product_words?.type, name).toBe('string');
      expect(tool?.parameters.properties.product_words?.description, name).toContain('"merino jumper"');
      expect(tool?.description, name).toContain('with product_words, the products they name');
    }
    const [merino, linen, vNeck, sizes, small, cashmere, kettles, notText, blank] = results.map((result) => result.text);
    // Before: the whole report, 4 orders (the T-shirt and the linen shirt too).
    expect(merino).toMatch(/^Reorder report of products whose name holds "Merino Jumper" \(3 products in the Knitwear category: MJ-L, MJ-M, MJ-S\): 2 advised orders, 16 units/);
    expect(results[0]?.tables[0]?.rows.map((row) => row.styleCode)).toEqual(['MJ-M', 'MJ-S']);
    expect(linen).toMatch(/^Low stock of products whose name holds "linen shirt" \(2 products: LS-M, LS-XS\): 1 product needs an order, most urgent first: 3 units/);
    expect(vNeck).toMatch(/^Nothing to order of products whose name holds "V-Neck Jumper" \(1 product in the Knitwear category: VN-M\)\./);
    expect(sizes).toMatch(/^Reorder report of products whose name holds "Merino Jumper" .*: 2 of 2 advised orders due /);
    expect(sizes).not.toMatch(/Not narrowed/);
    // A product's whole name is that product alone.
    expect(small).toMatch(/^Low stock of Merino Jumper S \(MJ-S\): 1 product needs an order, most urgent first: 10 units/);
    // Words that select no product are said, not dropped in silence.
    expect(cashmere).toMatch(/^Reorder report of products whose name holds "Merino Jumper" /);
    expect(cashmere).toMatch(/Not narrowed by "cashmere": no product's name holds it\.$/);
    expect(kettles).toBe("Error: No product is named 'kettles', and no product's name holds it.");
    expect(notText).toBe("Error: 'product_words' must be words of product names of up to 200 characters; got 42.");
    expect(blank).toMatch(/^Reorder report: 4 advised orders, 24 units/);
  });
});
