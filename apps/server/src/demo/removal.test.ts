// Settings → Demo data: the demo shop's products go with every row that refers to them; the shop's
// own products, the example reports and the demo account stay (ADR 0165).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { demoReports, seedDemoData } from './seed.ts';

const count = async (server: TestServer, query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(server.database.db)).rows[0]?.n);

describe.each(backends)('demo data removal on %s', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  let ownProductId: number;
  let renamedDemoId: number;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const seeded = await seedDemoData(server.database.db, { password: 'stockwise-demo', productCount: 12 });
    expect(seeded).toMatchObject({ seeded: true, products: 12 });
    admin = await signUpUser(server);
    const db = server.database.db;
    // The shop's own product, with a sale and a delivery; and a demo product the shop took over and renamed.
    ownProductId = (await db.insertInto('data.products').values({ product_code: 'HW-10000', name: 'Snow Shovel 18in', current_stock: 7, unit_cost: 12.5, lead_time_days: 10 }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('data.sales').values({ product_id: ownProductId, date: '2026-11-30', quantity: 3 }).execute();
    await db.insertInto('data.deliveries').values({ product_id: ownProductId, expected_date: '2026-12-20', quantity: 20, status: 'scheduled' }).execute();
    renamedDemoId = (await db.selectFrom('data.products').select('id').orderBy('id').limit(1).offset(11).executeTakeFirstOrThrow()).id;
    await db.updateTable('data.products').set({ name: 'Our own kettle' }).where('id', '=', renamedDemoId).execute();
  });
  afterAll(() => server.stop());

  it('says how much demo data there is, removes it with its sales, stock counts, deliveries and forecasts, and keeps the rest', async () => {
    const salesOfDemo = await count(server, sql<{ n: string }>`select count(*)::text as n from data.sales where product_id not in (${ownProductId}, ${renamedDemoId})`);
    expect(salesOfDemo).toBeGreaterThan(0);
    const before = await server.request('/api/demo/', { token: admin.access });
    expect(before.status, before.text).toBe(200);
    expect(before.json).toEqual({ products: 11, sales_rows: salesOfDemo });

    const removed = await server.request('/api/demo/remove/', { token: admin.access, body: {} });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ products: 11, sales_rows: salesOfDemo });
    expect(removed.json.message).toBe(`Removed the demo data: 11 products with their ${salesOfDemo.toLocaleString('en')} rows of sales, their stock counts, deliveries and forecasts. The example reports stay: they now read your products.`);

    const left = await server.database.db.selectFrom('data.products').select(['id', 'product_code']).orderBy('id').execute();
    expect(left.map((product) => product.id)).toEqual([renamedDemoId, ownProductId]);
    expect(await count(server, sql<{ n: string }>`select count(*)::text as n from data.sales where product_id = ${ownProductId}`)).toBe(1);
    expect(await count(server, sql<{ n: string }>`select count(*)::text as n from data.deliveries where product_id = ${ownProductId}`)).toBe(1);
    for (const table of ['data.sales', 'data.stock_snapshots', 'data.deliveries', 'forecast_results']) {
      expect(await count(server, sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)} where product_id not in (${ownProductId}, ${renamedDemoId})`), table).toBe(0);
    }
    // The example reports and the demo account stay.
    const titles = ((await server.request('/api/user-reports/', { token: admin.access })).json as unknown as { title: string }[]).map((report) => report.title);
    expect(titles).toEqual(expect.arrayContaining(demoReports.map((report) => report.title)));
    expect(await server.database.db.selectFrom('users').select('username').where('username', '=', 'demo').executeTakeFirst()).toBeDefined();
    // The shop's products are forecast again without the demo's calendar.
    expect(await count(server, sql<{ n: string }>`select count(*)::text as n from forecast_tasks where style_code is null`)).toBeGreaterThan(0);

    expect((await server.request('/api/demo/', { token: admin.access })).json).toEqual({ products: 0, sales_rows: 0 });
    const again = await server.request('/api/demo/remove/', { token: admin.access, body: {} });
    expect(again.status).toBe(404);
    expect(again.json.detail).toBe('There is no demo data to remove: the demo products are gone already.');
  });
});
