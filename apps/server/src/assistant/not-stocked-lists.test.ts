// The assistant's shelf lists leave a product not stocked out (ADR 0200, amendment 2026-12-07 "the
// assistant's shelf lists"): an Odoo card fee at 0 is not out of stock, a gift card holding 5 is not
// overstock, dead stock or a slow mover — each list says how many it left out — while a stocked
// saucer at 0 is out of stock and a stocked pot that never sells is on the other three. Through the
// real HTTP server and a model on loopback calling the tools, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { modelToolResults, startServerWithModel, stopServerWithModel } from '../testing/model-tool-results.ts';
import type { FakeChatModel } from '../testing/fake-chat-model.ts';
import { backends, signUpUser, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const TODAY = new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

// Counted five days ago; `sold` two days ago (none: no sales); `daily`: its forecast's demand a day.
const PRODUCTS = [
  { code: 'CARD-FEE', notStocked: true, counted: 0, sold: 20, daily: 5 },
  { code: 'GIFT-CARD', notStocked: true, counted: 5, sold: 0, daily: 0.01 },
  { code: 'SAUCER', notStocked: false, counted: 0, sold: 20, daily: 5 },
  { code: 'POT', notStocked: null, counted: 10, sold: 0, daily: 0.01 },
  { code: 'MUG', notStocked: null, counted: 10, sold: 3, daily: 1 },
];
const LEFT_OUT = '1 product not stocked (a service or fee) is not on this list: no stock is kept of it.';

describe.each(backends)("the assistant's shelf lists on %s", (backend) => {
  let started: { server: TestServer; model: FakeChatModel };
  let token = '';
  beforeAll(async () => {
    started = await startServerWithModel(backend);
    token = (await signUpUser(started.server, { role: 'viewer' })).access;
    const db = started.server.database.db;
    const rows = await db
      .insertInto('data.products')
      .values(PRODUCTS.map((p) => ({ product_code: p.code, name: p.code, current_stock: p.counted, unit_cost: 2, lead_time_days: 2, not_stocked: p.notStocked })))
      .returning(['id', 'product_code'])
      .execute();
    const idOf = (code: string) => rows.find((row) => row.product_code === code)?.id as number;
    await db.insertInto('data.stock_snapshots').values(PRODUCTS.map((p) => ({ product_id: idOf(p.code), date: addDays(TODAY, -5), stock_level: p.counted }))).execute();
    await db.insertInto('data.sales').values(PRODUCTS.filter((p) => p.sold > 0).map((p) => ({ product_id: idOf(p.code), date: addDays(TODAY, -2), quantity: p.sold }))).execute();
    await storeCatalogueAdvice(
      db,
      PRODUCTS.map((p) => ({ productId: idOf(p.code), forecastStart: TODAY, stockouts: [], reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: 0, orderBy: null, leadTimeDays: 2, serviceLevel: 0.95 } })),
    );
    for (const p of PRODUCTS) {
      const result = JSON.stringify({ stockouts: [], model: { name: 'Test' }, forecast: { from: TODAY, yhat: Array.from({ length: 90 }, () => p.daily) } });
      await db.updateTable('forecast_results').set({ result }).where('product_id', '=', idOf(p.code)).execute();
    }
  });
  afterAll(() => stopServerWithModel(started));

  it('leave the not-stocked products out of out of stock, overstock, dead stock and slow movers, and say so; the tools say it too', async () => {
    const { results, tools } = await modelToolResults(started.server, started.model, token, [
      { name: 'out_of_stock', args: {} },
      { name: 'overstock', args: {} },
      { name: 'dead_stock', args: {} },
      { name: 'top_sellers', args: { in_stock: true, order: 'worst' } },
    ]);
    const [outOfStock, overstock, deadStock, slowMovers] = results;
    expect(outOfStock?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['SAUCER']);
    expect(outOfStock?.text).toBe(`1 product is out of stock now (nothing on hand); it has no delivery scheduled. ${LEFT_OUT}`);
    expect(overstock?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['POT']);
    expect(overstock?.text).toBe(`1 product has more than 180 days of stock at the forecast demand: 20.00 tied up at unit cost. ${LEFT_OUT} The most value first:`);
    expect(deadStock?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['POT']);
    expect(deadStock?.text).toContain(`20.00 tied up at unit cost. ${LEFT_OUT}`);
    expect(slowMovers?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['POT', 'MUG']);
    expect(slowMovers?.text).toContain(`the 2 products of the 2 in stock that sold least`);
    expect(slowMovers?.text).toContain(LEFT_OUT);
    for (const name of ['out_of_stock', 'overstock', 'dead_stock']) expect(tools.find((t) => t.function.name === name)?.function.description).toContain('products not stocked (services, fees) left out, and counted');
    expect(tools.find((t) => t.function.name === 'top_sellers')?.function.parameters.properties.in_stock?.description).toContain('products not stocked (services, fees) left out, and counted');
  });
});
