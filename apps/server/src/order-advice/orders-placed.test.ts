// QA4 #4: "Create the recommended orders", then a catalogue run, then the button again. An order
// that is on its way is not advised again for the demand before it arrives (lost whatever is ordered
// now): the list orders nothing more for the products it covers (it lists them to hurry the
// delivery) and the second press creates nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ChatMessage, InventoryReport } from '@stockwise/contract';
import { seedDemoData } from '../demo/seed.ts';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('recommended orders placed, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const report = async () => ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
  const createOrders = async () => {
    const response = await api('/api/assistant/actions/', { action: 'create_recommended_orders' });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)!.content;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    // History up to yesterday: the forecast starts today, the day an order placed now is placed.
    const db = server.database.db;
    const today = new Date();
    await seedDemoData(db, { password: 'unused password', productCount: 40, today });
    // Sells 10 a day, 5 on hand at yesterday's close, 14 days to deliver: empty long before an order placed today arrives.
    const late = await db.insertInto('data.products').values({ product_code: 'LATE-1', name: 'Late one', current_stock: 5, unit_cost: 2, lead_time_days: 14 }).returning('id').executeTakeFirstOrThrow();
    const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    await db.insertInto('data.sales').values(Array.from({ length: 120 }, (_, i) => ({ product_id: late.id, date: day(i - 120), quantity: 10 }))).execute();
    await db.insertInto('data.stock_snapshots').values({ product_id: late.id, date: day(-1), stock_level: 5 }).execute();
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
  });
  afterAll(() => server.stop());

  it('advises nothing more for a product whose advised order is on its way, though it runs out before it arrives', async () => {
    await client.run();
    const before = await report();
    // Expected to run out before an order placed today could arrive: some of these lose sales whatever is ordered.
    const tooLate = before.products.filter((p) => p.stockoutType === 'stockForecast' && p.urgencyDays < 0).map((p) => p.styleCode);
    expect(tooLate.length).toBeGreaterThan(0);

    const scheduled = async () =>
      (await sql<{ product_code: string; quantity: number }>`select p.product_code, d.quantity from data.deliveries d join data.products p on p.id = d.product_id where d.status = 'scheduled' order by d.id`.execute(server.database.db)).rows;
    const earlier = (await scheduled()).length;
    const created = await createOrders();
    const ordered = (await scheduled()).slice(earlier);
    expect(created).toContain(`Created ${ordered.length} scheduled deliveries of the advised quantities`);
    // Exactly the advised quantities (the demo's products with a delivery on the way already were left alone).
    const advised = new Map(before.products.map((p) => [p.styleCode, p.orderQuantity]));
    expect(ordered.map((row) => [row.product_code, row.quantity])).toEqual(ordered.map((row) => [row.product_code, advised.get(row.product_code)]));
    const orderedTooLate = tooLate.filter((code) => ordered.some((row) => row.product_code === code));
    expect(orderedTooLate).toContain('LATE-1');

    await client.run();
    const after = await report();
    const listedAgain = after.products.filter((p) => orderedTooLate.includes(p.styleCode));
    // Before the fix each of these was listed again with the demand before the arrival as a new order;
    // now it is listed with no order, to hurry the delivery that arrives after it runs out.
    expect(listedAgain.filter((p) => p.orderQuantity > 0 || p.orderBy !== null).map((p) => p.styleCode)).toEqual([]);
    expect(listedAgain.filter((p) => p.onOrderArrives === undefined).map((p) => p.styleCode)).toEqual([]);
    expect(listedAgain.map((p) => p.styleCode)).toContain('LATE-1');
    // The stockout before the delivery arrives is still in each forecast, for the product panel to explain.
    for (const code of orderedTooLate.slice(0, 3)) expect((await client.forecastOf(code)).stockouts.some((s) => s.type === 'stockForecast')).toBe(true);
    // With the day the delivery on its way arrives, for the panel's "hurry the delivery".
    const arrives = (await sql<{ day: string }>`select d.expected_date::text as day from data.deliveries d join data.products p on p.id = d.product_id where p.product_code = 'LATE-1'`.execute(server.database.db)).rows;
    expect((await client.forecastOf('LATE-1')).reorder).toMatchObject({ orderQuantity: 0, orderBy: null, onOrderArrives: arrives[0]!.day });

    expect(await createOrders()).toMatch(/^Created 0 scheduled deliveries/);
    expect((await sql<{ n: number }>`select count(*)::int as n from data.deliveries where status = 'scheduled'`.execute(server.database.db)).rows[0]!.n).toBe(earlier + ordered.length);
  });
});
