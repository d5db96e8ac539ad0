import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('named queries on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    for (const [code, stock] of [['Q-1', 5], ['Q-2', 50], ['Q-3', 500]] as const) {
      await server.request('/api/records/tables/products/rows/add/', { token, body: { product_code: code, name: code, current_stock: stock } });
    }
  });
  afterAll(() => server.stop());

  it('lists the configured queries with their parameters', async () => {
    const response = await server.request('/api/queries/queries/', { token });
    expect(response.status).toBe(200);
    const list = response.json as unknown as { name: string; params: Record<string, { type: string }> }[];
    expect(list.find((q) => q.name === 'low_stock_products')?.params).toEqual({ threshold: { type: 'integer', default: 100 } });
  });

  it('runs a query with bound parameters and answers {id, value} rows', async () => {
    const low = await server.request('/api/queries/queries/low_stock_products/?threshold=60', { token });
    expect(low.status).toBe(200);
    expect((low.json as unknown as { value: number }[]).map((r) => r.value).sort((a, b) => a - b)).toEqual([5, 50]);
    const byDefault = await server.request('/api/queries/queries/low_stock_products/', { token });
    expect((byDefault.json as unknown as unknown[]).length).toBe(2);
  });

  it('counts "sold in the last 30 days" over the 30 whole days before today, as the assistant does (QA8 F16)', async () => {
    const db = server.database.db;
    const product = await db.selectFrom('data.products').select('id').where('product_code', '=', 'Q-1').executeTakeFirstOrThrow();
    const { today } = await db.selectNoFrom(sql<string>`current_date::text`.as('today')).executeTakeFirstOrThrow();
    const daysBefore = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    // Today's few hours are not a day yet; the 30th day back is the window's first, the 31st outside it.
    await db.insertInto('data.sales').values([0, 1, 30, 31].map((days, at) => ({ product_id: product.id, date: daysBefore(days), quantity: 10 ** at }))).execute();
    try {
      const sold = await server.request('/api/queries/queries/units_sold_last_30_days/', { token });
      expect(sold.json).toEqual([{ id: product.id, value: 10 + 100 }]);
    } finally {
      await db.deleteFrom('data.sales').where('product_id', '=', product.id).execute();
    }
  });

  it('counts a product sold by the kg to the gram: 12.5 kg sold and 2.25 kg on order are not rounded (QA garden centre F14)', async () => {
    const db = server.database.db;
    const product = await db.selectFrom('data.products').select('id').where('product_code', '=', 'Q-2').executeTakeFirstOrThrow();
    const { yesterday } = await db.selectNoFrom(sql<string>`(current_date - 1)::text`.as('yesterday')).executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values([{ product_id: product.id, date: yesterday, quantity: 12.5 }]).execute();
    await db.insertInto('data.deliveries').values([{ product_id: product.id, expected_date: yesterday, quantity: 2.25, status: 'scheduled' }]).execute();
    try {
      expect((await server.request('/api/queries/queries/units_sold_last_30_days/', { token })).json).toEqual([{ id: product.id, value: 12.5 }]);
      expect((await server.request('/api/queries/queries/stock_on_order/', { token })).json).toEqual([{ id: product.id, value: 2.25 }]);
    } finally {
      await db.deleteFrom('data.sales').where('product_id', '=', product.id).execute();
      await db.deleteFrom('data.deliveries').where('product_id', '=', product.id).execute();
    }
  });

  it.each([
    ['an unknown query', '/api/queries/queries/nope/'],
    ['a parameter of the wrong type', '/api/queries/queries/low_stock_products/?threshold=many'],
    ['an undeclared parameter', "/api/queries/queries/low_stock_products/?threshold=1&x='"],
    ['an injection attempt in a parameter', "/api/queries/queries/low_stock_products/?threshold=1;drop table users"],
  ])('answers %s with the spec message', async (_name, path) => {
    const response = await server.request(path, { token });
    expect(response.status).toBe(404);
    expect(response.json.detail).toMatch(/^Query '.+' not found or parameter error\.$/);
  });

  it('names the wrong parameter and why, a number of days below 1 too', async () => {
    const negative = await server.request('/api/queries/queries/units_sold_last_30_days/?days=-5', { token });
    expect(negative.status).toBe(404);
    expect(negative.json.detail).toBe("Query 'units_sold_last_30_days' not found or parameter error.");
    expect(negative.json.errors).toEqual({ days: ['Must be at least 1.'] });
    const wrongType = await server.request('/api/queries/queries/units_sold_last_30_days/?days=many&week=1', { token });
    expect(wrongType.json.errors).toEqual({ days: ['Expected a whole number.'], week: ['Not a parameter of this query (it takes days).'] });
    expect((await server.request('/api/queries/queries/units_sold_last_30_days/?days=7', { token })).status).toBe(200);
  });
});
