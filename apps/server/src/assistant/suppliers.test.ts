// The assistant by supplier (ADR 0184, amendment 2026-12-06), over the real HTTP server: the reorder
// report, low stock and what runs out narrowed to the supplier a question names ("from Acme", "for
// Brakes Bros", "von Lieferant Müller"), a supplier no product names answered with those there are, a
// supplier's name that is also a word of product names left to the products, which suppliers there
// are and who supplies a product — and the model's tools given the same supplier, refused when wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantBlock, ChatMessage } from '@stockwise/contract';
import { upsertProductSummaries } from '../dashboard/repo.ts';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';
import { modelToolResults } from '../testing/model-tool-results.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TODAY = new Date().toISOString().slice(0, 10);
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayWords = (day: string) => `${Number(day.slice(8))} ${SHORT[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;

/** `order`: the forecast's advice, null where it advises none. "Lantern" is a supplier and a word of a product's name. */
const PRODUCTS = [
  { code: 'HEA-1001', name: 'Oil Radiator', supplier: 'Acme Wholesale', stockout: 8, order: { quantity: 10, by: 0 } },
  { code: 'HEA-1002', name: 'Fan Heater', supplier: ' Acme Wholesale ', stockout: 12, order: { quantity: 6, by: 3 } },
  { code: 'BRK-01', name: 'Brake Pads', supplier: 'Brakes Bros', stockout: 5, order: { quantity: 4, by: 1 } },
  { code: 'MUG-01', name: 'Blue Mug', supplier: 'Lieferant Müller', stockout: 20, order: { quantity: 24, by: 9 } },
  { code: 'LAN-01', name: 'Garden Lantern', supplier: 'Acme Wholesale', stockout: 15, order: null },
  { code: 'TEA-01', name: 'Tea Lights', supplier: 'Lantern', stockout: 30, order: { quantity: 48, by: 20 } },
  { code: 'NOS-01', name: 'Loose Twine', category: 'Crafts', supplier: null, stockout: null, order: { quantity: 12, by: 2 } },
];
const SUPPLIERS = 'Acme Wholesale, Brakes Bros, Lantern, Lieferant Müller';

/** The products, each sold 1 a day over the last 10 days and counted today, and a catalogue run's advice and stock-outs. */
async function loadProducts(server: TestServer) {
  const db = server.database.db;
  const rows = await db
    .insertInto('data.products')
    .values(PRODUCTS.map((p) => ({ product_code: p.code, name: p.name, category: p.category ?? null, supplier: p.supplier, current_stock: 20, unit_cost: 2, lead_time_days: 5 })))
    .returning(['id', 'product_code'])
    .execute();
  const idOf = (code: string) => rows.find((row) => row.product_code === code)?.id as number;
  await db.insertInto('data.stock_snapshots').values(PRODUCTS.map((p) => ({ product_id: idOf(p.code), date: TODAY, stock_level: 20 }))).execute();
  await db.insertInto('data.sales').values(PRODUCTS.flatMap((p) => Array.from({ length: 10 }, (_, at) => ({ product_id: idOf(p.code), date: addDays(TODAY, -1 - at), quantity: 1 })))).execute();
  await storeCatalogueAdvice(
    db,
    PRODUCTS.map((p) => ({
      productId: idOf(p.code),
      forecastStart: TODAY,
      stockouts: p.stockout === null ? [] : [{ date: addDays(TODAY, p.stockout), type: 'stockForecast' as const }],
      reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: p.order?.quantity ?? 0, orderBy: p.order ? addDays(TODAY, p.order.by) : null, leadTimeDays: 5, serviceLevel: 0.95 },
    })),
  );
  await upsertProductSummaries(db, PRODUCTS.map((p) => ({ productId: idOf(p.code), forecastStart: TODAY, cumDemand: [0], cumVariance: [0], firstStockout: p.stockout === null ? null : addDays(TODAY, p.stockout), orderQuantity: p.order?.quantity ?? 0 })));
}

/** Runs `check` while the product has nothing on hand now — the stored forecast's count (ADR 0030) — and gives it its 20 back after. */
async function withNoneOnHand(server: TestServer, code: string, check: () => Promise<void>) {
  const db = server.database.db;
  const { id } = await db.selectFrom('data.products').select('id').where('product_code', '=', code).executeTakeFirstOrThrow();
  const onHand = (units: number) => db.updateTable('forecast_results').set({ on_hand: units }).where('product_id', '=', id).execute();
  await onHand(0);
  try {
    await check();
  } finally {
    await onHand(20);
  }
}

const tableOf = (message: ChatMessage | undefined) => message?.blocks.find((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');
const actionOf = (message: ChatMessage | undefined) => message?.blocks.find((block): block is Extract<AssistantBlock, { type: 'action' }> => block.type === 'action');

describe.each(backends)('the assistant by supplier on %s', (backend) => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  const ask = async (content: string) => {
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
  };
  beforeAll(async () => {
    server = await startTestServer(backend);
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadProducts(server);
  });
  afterAll(() => server.stop());

  it("narrows the reorder report to the supplier named after from, for or von, named first, without a supplier column, its button creating that supplier's orders", async () => {
    for (const question of ['reorder report for Acme Wholesale', 'what should I order from acme wholesale?', 'Reorder report for supplier ACME WHOLESALE', 'wat moet ik bestellen bij Acme Wholesale?', 'wat moet ik bestellen bij de leverancier acme wholesale']) {
      const answer = await ask(question);
      expect(answer.content, question).toMatch(/^Reorder report for Acme Wholesale: 2 advised orders, 16 units/);
      expect(answer.content, question).not.toContain('I did not use');
      expect(tableOf(answer)?.rows.map((row) => row.styleCode), question).toEqual(['HEA-1001', 'HEA-1002']);
      expect(tableOf(answer)?.columns.map((column) => column.key), question).not.toContain('supplier');
      expect(actionOf(answer)?.payload, question).toEqual({ orders: [{ styleCode: 'HEA-1001', quantity: 10 }, { styleCode: 'HEA-1002', quantity: 6 }] });
    }
    const german = await ask('was muss ich von Brakes Bros bestellen?');
    expect(german.content).toMatch(/^Reorder report for Brakes Bros: 1 advised order, 4 units/);
    // A window and a supplier together: Acme's orders due by tomorrow.
    const soon = await ask('what should I order from Acme Wholesale in the next 2 days');
    expect(soon.content).toMatch(/^Reorder report for Acme Wholesale: 1 of 2 advised orders due by /);
    expect(tableOf(soon)?.rows.map((row) => row.styleCode)).toEqual(['HEA-1001']);
  });

  it('narrows low stock to the supplier, and shows the supplier column only on a list of several suppliers', async () => {
    const narrowed = await ask('low stock from Lieferant Müller');
    expect(narrowed.content).toMatch(/^Low stock from Lieferant Müller: 1 product needs an order, most urgent first: 24 units/);
    expect(tableOf(narrowed)?.rows.map((row) => row.styleCode)).toEqual(['MUG-01']);
    expect(tableOf(narrowed)?.columns.map((column) => column.key)).not.toContain('supplier');
    const all = await ask('show low stock');
    expect(all.content).toMatch(/^6 products need an order/);
    const table = tableOf(all);
    expect(table?.columns.map((column) => column.key).slice(0, 3)).toEqual(['styleCode', 'name', 'supplier']);
    expect(Object.fromEntries((table?.rows ?? []).map((row) => [row.styleCode, row.supplier]))).toEqual({ 'HEA-1001': 'Acme Wholesale', 'HEA-1002': 'Acme Wholesale', 'BRK-01': 'Brakes Bros', 'MUG-01': 'Lieferant Müller', 'TEA-01': 'Lantern', 'NOS-01': null });
    const report = tableOf(await ask('reorder report'));
    expect(report?.columns.map((column) => column.key)).toContain('supplier');
    expect(report?.totals).toMatchObject({ styleCode: 'Total', supplier: null });
  });

  it('narrows what runs out to the supplier named after "from"', async () => {
    const answer = await ask('what runs out from Acme Wholesale?');
    expect(answer.content).toBe(`Oil Radiator (HEA-1001) runs out first among the products from Acme Wholesale, on ${dayWords(addDays(TODAY, 8))}.`);
    expect(tableOf(answer)?.rows.map((row) => row.styleCode)).toEqual(['HEA-1001', 'HEA-1002', 'LAN-01']);
  });

  it('answers a supplier no product names with the suppliers there are, not with every supplier’s orders', async () => {
    for (const question of ['what should I order from Zeta Supplies?', 'low stock from Zeta Supplies', 'what runs out from Zeta Supplies']) {
      const answer = await ask(question);
      expect(answer.content, question).toBe(`No product is bought from a supplier named "Zeta Supplies". The suppliers are ${SUPPLIERS}: ask, for example, "what should I order from Acme Wholesale?".`);
      expect(tableOf(answer), question).toBeUndefined();
    }
  });

  it("leaves a supplier's name that is also a word of product names to the products after \"for\", and reads it as the supplier after \"from\"", async () => {
    // "Lantern" supplies the Tea Lights, and "Garden Lantern" is a product.
    const product = await ask('what runs out for lantern');
    expect(product.content).toContain(`Garden Lantern (LAN-01) is forecast to run out on ${dayWords(addDays(TODAY, 15))}.`);
    expect(product.content).not.toContain('TEA-01');
    expect((await ask('when does the Garden Lantern run out')).content).toContain('Garden Lantern (LAN-01) is forecast to run out on');
    expect((await ask('stock of lanterns')).content).toContain('Garden Lantern (LAN-01) has 20 units on hand');
    const supplier = await ask('what runs out from Lantern');
    expect(supplier.content).toBe(`Tea Lights (TEA-01) runs out first among the products from Lantern, on ${dayWords(addDays(TODAY, 30))}.`);
    expect((await ask('reorder report from Lantern')).content).toMatch(/^Reorder report for Lantern: 1 advised order, 48 units/);
  });

  it('lists the suppliers with their products and those that need an order, and says who supplies a product', async () => {
    const answer = await ask('which suppliers do we use?');
    expect(answer.content).toBe('4 suppliers supply 6 products; 1 product has no supplier. 6 products need an order.');
    expect(tableOf(answer)?.rows).toEqual([
      { supplier: 'Acme Wholesale', products: 3, toOrder: 2 },
      { supplier: 'Brakes Bros', products: 1, toOrder: 1 },
      { supplier: 'Lantern', products: 1, toOrder: 1 },
      { supplier: 'Lieferant Müller', products: 1, toOrder: 1 },
      { supplier: 'No supplier', products: 1, toOrder: 1 },
    ]);
    expect((await ask('who supplies HEA-1001?')).content).toBe('Oil Radiator (HEA-1001) is supplied by Acme Wholesale.');
    expect((await ask('who is the supplier of Loose Twine')).content).toBe("Loose Twine (NOS-01) has no supplier: set one in its Supplier column on the Data screen.");
    expect((await ask('who supplies the heaters?')).content).toBe('Fan Heater (HEA-1002) is supplied by Acme Wholesale.');
  });

  it("names the reorder report's download for the supplier it is narrowed to, as the screen's download is named", async () => {
    expect(tableOf(await ask('reorder report for Acme Wholesale'))?.download).toBe('reorder-report-acme-wholesale.csv');
    expect(tableOf(await ask('what should I order from Lieferant Müller?'))?.download).toBe('reorder-report-lieferant-muller.csv');
    expect(tableOf(await ask('reorder report'))?.download).toBe('reorder-report.csv');
  });

  it('narrows the orders and what runs out to the products without a supplier, the download named so', async () => {
    const report = await ask('what should I order without a supplier?');
    expect(report.content).toMatch(/^Reorder report for the products without a supplier: 1 advised order, 12 units/);
    expect(report.content).not.toContain('I did not use');
    expect(tableOf(report)?.rows.map((row) => row.styleCode)).toEqual(['NOS-01']);
    expect(tableOf(report)?.download).toBe('reorder-report-no-supplier.csv');
    expect(actionOf(report)?.payload).toEqual({ orders: [{ styleCode: 'NOS-01', quantity: 12 }] });
    const low = await ask('low stock with no supplier');
    expect(low.content).toMatch(/^Low stock for the products without a supplier: 1 product needs an order/);
    expect(tableOf(low)?.rows.map((row) => row.styleCode)).toEqual(['NOS-01']);
    const created = await ask('create the recommended orders without a supplier');
    expect(actionOf(created)?.payload).toEqual({ orders: [{ styleCode: 'NOS-01', quantity: 12 }] });
    // Loose Twine is not forecast to run out: none of the products without a supplier is.
    expect((await ask('what runs out without a supplier?')).content).toBe('Among the products without a supplier, none is forecast to run out within the forecast horizon (or no forecast has been made yet).');
  });

  it('lists the products without a supplier, asked in English, German or Dutch; of a product named, says its own', async () => {
    const questions = ['which products have no supplier?', 'products without a supplier', 'what has no supplier', 'list the products missing a supplier', 'welche Produkte haben keinen Lieferanten?', 'Produkte ohne Lieferant', 'welke producten hebben geen leverancier?', 'producten zonder leverancier'];
    for (const question of questions) {
      const answer = await ask(question);
      expect(answer.content, question).toBe("1 of the 7 products has no supplier. Set each one's Supplier on the Data screen, or import the products again with a Supplier column.");
      expect(tableOf(answer)?.rows, question).toEqual([{ styleCode: 'NOS-01', name: 'Loose Twine', category: 'Crafts' }]);
    }
    expect((await ask('does Loose Twine have no supplier?')).content).toBe('Loose Twine (NOS-01) has no supplier: set one in its Supplier column on the Data screen.');
    // "Which suppliers" is still the suppliers.
    expect((await ask('which suppliers do we use?')).content).toMatch(/^4 suppliers supply 6 products/);
  });

  it('says in its help that it answers by supplier', async () => {
    const answer = await ask('blorp');
    expect(answer.content).toContain('what should I order from Acme');
    expect(answer.content).toContain('which suppliers do we use, who supplies a product, which products have no supplier');
  });

  it("lists a supplier's products out of stock under its one spelling, not a product's stored one", async () => {
    // None left of the Fan Heater.
    await withNoneOnHand(server, 'HEA-1002', async () => {
      const answer = await ask('which products are out of stock from acme wholesale?');
      expect(answer.content).toBe('Among the products from Acme Wholesale, 1 is out of stock now (nothing on hand); it has no delivery scheduled.');
      expect(tableOf(answer)?.rows.map((row) => [row.styleCode, row.supplier])).toEqual([['HEA-1002', 'Acme Wholesale']]);
    });
  });

  // Last: it changes the products.
  it('says when every product has a supplier, and lists the first 50 by code of many without one, blank ones among them', async () => {
    const db = server.database.db;
    await db.updateTable('data.products').set({ supplier: 'Twine Co.' }).where('product_code', '=', 'NOS-01').execute();
    const every = await ask('which products have no supplier?');
    expect(every.content).toBe('Every product has a supplier: 7 products from 5 suppliers.');
    expect(tableOf(every)).toBeUndefined();
    await db
      .insertInto('data.products')
      .values(Array.from({ length: 60 }, (_, at) => ({ product_code: `ZZ-${String(at).padStart(3, '0')}`, name: `Spare ${at}`, supplier: at === 0 ? '  ' : null, current_stock: 0, unit_cost: 1, lead_time_days: 5 })))
      .execute();
    const many = await ask('products without a supplier');
    expect(many.content).toBe("60 of the 67 products have no supplier; the first 50 by code are listed. Set each one's Supplier on the Data screen, or import the products again with a Supplier column.");
    const rows = tableOf(many)?.rows ?? [];
    expect(rows).toHaveLength(50);
    expect([rows[0], rows.at(-1)]).toEqual([{ styleCode: 'ZZ-000', name: 'Spare 0', category: null }, { styleCode: 'ZZ-049', name: 'Spare 49', category: null }]);
  });
});

describe.each(backends)("the model's tools by supplier on %s", (backend) => {
  let server: TestServer;
  let model: FakeChatModel;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    model = await startFakeChatModel();
    server = await startTestServer(backend, { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' });
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadProducts(server);
  });
  afterAll(async () => {
    await server.stop();
    await model.close();
  });
  /** The model calls these tools in one round: each call's result as the model reads it (the answer's text, or the refusal), and the tools it was given. */
  const toolResults = async (calls: { name: string; args: Record<string, unknown> }[]) => {
    const { results, tools } = await modelToolResults(server, model, viewer.access, calls, 'what do I order from whom?');
    return { results: results.map((result) => result.text), tools };
  };

  it('gives the order and stock-out tools a supplier, read case aside, and refuses one no product names or that is no name', async () => {
    const { results, tools } = await toolResults([
      { name: 'reorder_report', args: { supplier: 'acme wholesale' } },
      { name: 'low_stock', args: { supplier: 'Brakes Bros', window: 'next week' } },
      { name: 'runs_out_first', args: { supplier: 'Lantern' } },
      { name: 'reorder_report', args: { supplier: 'Zeta' } },
      { name: 'low_stock', args: { supplier: 42 } },
      { name: 'runs_out_first', args: { supplier: 'x'.repeat(201) } },
      { name: 'reorder_report', args: { supplier: '  ' } },
      { name: 'suppliers', args: {} },
      { name: 'supplier_of_product', args: { product: 'HEA-1001' } },
      { name: 'products_without_supplier', args: {} },
    ]);
    for (const name of ['reorder_report', 'low_stock', 'runs_out_first']) {
      const parameter = tools.find((tool) => tool.function.name === name)?.function.parameters.properties.supplier;
      expect(parameter?.type, name).toBe('string');
      expect(parameter?.description, name).toContain("a supplier's name");
    }
    expect(results[0]).toMatch(/^Reorder report for Acme Wholesale: 2 advised orders, 16 units/);
    expect(results[1]).toMatch(/^Low stock from Brakes Bros: 1 of the 1 products that need an order must be ordered by /);
    expect(results[2]).toBe(`Tea Lights (TEA-01) runs out first among the products from Lantern, on ${dayWords(addDays(TODAY, 30))}.`);
    expect(results[3]).toBe(`Error: No supplier 'Zeta': the suppliers are ${SUPPLIERS}.`);
    expect(results[4]).toBe("Error: 'supplier' must be a supplier's name of up to 200 characters; got 42.");
    expect(results[5]).toMatch(/^Error: 'supplier' must be a supplier's name of up to 200 characters; got "x+\.$/);
    expect(results[6]).toMatch(/^Reorder report: 6 advised orders/);
    expect(results[7]).toBe('4 suppliers supply 6 products; 1 product has no supplier. 6 products need an order.');
    expect(results[8]).toBe('Oil Radiator (HEA-1001) is supplied by Acme Wholesale.');
    expect(results[9]).toBe("1 of the 7 products has no supplier. Set each one's Supplier on the Data screen, or import the products again with a Supplier column.");
  });

  it('narrows the order and stock-out tools to the products with no supplier, apart from every supplier, as the list\'s "No supplier" filter does', async () => {
    // None left of the Loose Twine.
    await withNoneOnHand(server, 'NOS-01', async () => {
      const { results, tools } = await toolResults([
        { name: 'reorder_report', args: { without_supplier: true } },
        { name: 'low_stock', args: { without_supplier: 'true', window: 'next week' } },
        { name: 'runs_out_first', args: { without_supplier: true } },
        { name: 'out_of_stock', args: { without_supplier: true } },
        { name: 'reorder_report', args: { without_supplier: false } },
        { name: 'reorder_report', args: { without_supplier: true, supplier: 'Acme Wholesale' } },
        { name: 'low_stock', args: { without_supplier: 'yes' } },
      ]);
      for (const name of ['reorder_report', 'low_stock', 'runs_out_first', 'out_of_stock']) {
        const parameter = tools.find((tool) => tool.function.name === name)?.function.parameters.properties.without_supplier;
        expect(parameter?.type, name).toBe('boolean');
        expect(parameter?.description, name).toContain('no supplier set');
      }
      expect(results[0]).toMatch(/^Reorder report for the products without a supplier: 1 advised order, 12 units/);
      expect(results[1]).toMatch(/^Low stock for the products without a supplier: 1 of the 1 products that need an order must be ordered by /);
      // Loose Twine has no stock-out forecast, so nothing without a supplier runs out.
      expect(results[2]).toMatch(/among the products without a supplier/i);
      expect(results[2]).not.toMatch(/Oil Radiator|Brake Pads|Tea Lights/);
      expect(results[3]).toMatch(/^Among the products without a supplier, 1 is out of stock now/);
      expect(results[4]).toMatch(/^Reorder report: 6 advised orders/);
      expect(results[5]).toBe("Error: Give 'supplier' or 'without_supplier', not both.");
      expect(results[6]).toBe("Error: 'without_supplier' must be true or false; got \"yes\".");
    });
  });
});
