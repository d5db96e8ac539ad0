// An order recorded from the order list (ADR 0182), over HTTP: POST /api/order-advice/orders/ writes a
// scheduled delivery and runs the product's forecast again, whose advice then replaces the
// catalogue run's in the latest report and the dashboard's count — the product leaves the list when
// the order covers it, or stays to be hurried when it arrives after the stock runs out. A viewer is
// refused, and bad input is a 400 (an unknown product a 404) naming the field that writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dayInTimeZone, type DashboardResponse, type InventoryReport } from '@stockwise/contract';
import { forecastClient, insertSteadySeller, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpEachRole, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** A day counted from the server's today (UTC, the shop's until a test chooses a zone). */
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
const shiftDay = (from: string, days: number) => new Date(Date.parse(`${from}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

describe.each(backends)('an order recorded from the list, on %s', (backend) => {
  let server: TestServer;
  let tokens: Awaited<ReturnType<typeof signUpEachRole>>;
  let client: ForecastClient;
  const post = (body: unknown, role: 'admin' | 'editor' | 'viewer' = 'editor') => server.request('/api/order-advice/orders/', { token: tokens[role], body });
  const report = async () => ((await server.request('/api/forecasting/latest-report/?page_size=500', { token: tokens.viewer })).json as { report: InventoryReport }).report;
  const listed = async (code: string) => (await report()).products.find((product) => product.styleCode === code);
  const deliveries = async (code: string) =>
    (
      await sql<{ expected_date: string; quantity: number; status: string }>`
        select d.expected_date::text as expected_date, d.quantity::float8 as quantity, d.status
        from data.deliveries d join data.products p on p.id = d.product_id where p.product_code = ${code} order by d.expected_date`.execute(server.database.db)
    ).rows;
  const queuedRuns = async (code: string) => Number((await server.database.db.selectFrom('forecast_tasks').select((eb) => eb.fn.countAll().as('n')).where('style_code', '=', code).executeTakeFirstOrThrow()).n);
  const recorded = (body: object) => forecastClient(server, tokens.editor).recordOrder(body);

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    // Each sold the same every day for 120 days, and counted yesterday at its current stock.
    const shop = [
      // 200 on hand, a week to deliver: an order due in about a week.
      { product: { product_code: 'LAMP-1', name: 'Desk Lamp Pro', current_stock: 200, unit_cost: 12, lead_time_days: 7 }, soldPerDay: 10 },
      // 30 on hand, two weeks to deliver: runs out before any order arrives.
      { product: { product_code: 'LATE-1', name: 'Late lamp', current_stock: 30, unit_cost: 5, lead_time_days: 14 }, soldPerDay: 10 },
      // Cheese by the kilo: orders in kg, to the gram.
      { product: { product_code: 'CHEESE-1', name: 'Cheddar', current_stock: 4, unit_cost: 9, lead_time_days: 3, unit: 'kg' }, soldPerDay: 0.75 },
      // No unit, but sold by the metre on the till: orders in fractions, as its forecast does.
      { product: { product_code: 'ROPE-1', name: 'Rope', current_stock: 20, unit_cost: 1, lead_time_days: 5 }, soldPerDay: 2.5 },
    ];
    for (const { product, soldPerDay } of shop) await insertSteadySeller(db, product, soldPerDay);
    tokens = await signUpEachRole(server);
    client = forecastClient(server, tokens.admin);
    expect(await client.run()).toMatchObject({ status: 'completed' });
  });
  afterAll(() => server.stop());

  it('writes a scheduled delivery; after the product runs again it leaves the list, and the dashboard counts one fewer', async () => {
    const before = await report();
    const lamp = before.products.find((product) => product.styleCode === 'LAMP-1')!;
    expect(lamp).toMatchObject({ leadTimeDays: 7, orderBy: expect.any(String) });
    expect(lamp.orderQuantity).toBeGreaterThan(0);
    const dashboardBefore = (await server.request('/api/dashboard/', { token: tokens.editor })).json as unknown as DashboardResponse;
    expect(dashboardBefore.tasks.find((task) => task.kind === 'reorder')?.text).toContain(`(${before.total} on the reorder list)`);

    // Enough for the whole 90 days, as a buyer orders a supplier's pallet.
    const order = await recorded({ styleCode: 'LAMP-1', quantity: 1000, expectedDate: day(7) });
    expect(order).toMatchObject({ styleCode: 'LAMP-1', name: 'Desk Lamp Pro', unit: null, ordered: 1000, expectedDate: day(7), delivery: { quantity: 1000 } });
    expect(await deliveries('LAMP-1')).toEqual([{ expected_date: day(7), quantity: 1000, status: 'scheduled' }]);

    // The single-product run replaced the catalogue run's advice in the latest report.
    expect((await client.forecastOf('LAMP-1')).reorder).toMatchObject({ orderQuantity: 0, orderBy: null });
    const after = await report();
    expect(after.products.map((product) => product.styleCode)).not.toContain('LAMP-1');
    expect(after.total).toBe(before.total - 1);
    expect(after.order_units).toBeCloseTo(before.order_units - lamp.orderQuantity, 3);
    // The dashboard's reorder task is counted by every run's end, the product's too.
    const dashboard = (await server.request('/api/dashboard/', { token: tokens.editor })).json as unknown as DashboardResponse;
    expect(dashboard.tasks.find((task) => task.kind === 'reorder')?.text).toContain(`(${after.total} on the reorder list)`);
    // The Data screen names who wrote the row, as for its own saves.
    const edit = await sql<{ edited_by: number | null }>`select e.edited_by from data_row_edits e join data.deliveries d on d.id = e.row_id where e.table_name = 'deliveries' and d.id = ${order.delivery.id}`.execute(server.database.db);
    expect(edit.rows).toHaveLength(1);
    expect(edit.rows[0]!.edited_by).toEqual(expect.any(Number));
  });

  it('keeps an order that arrives after the product runs out on the list, to hurry', async () => {
    const late = (await listed('LATE-1'))!;
    expect(late.orderQuantity).toBeGreaterThan(0);
    const arrives = day(late.leadTimeDays);
    expect(late.firstStockout! < arrives).toBe(true);
    await recorded({ styleCode: 'LATE-1', quantity: late.orderQuantity, expectedDate: arrives });
    expect(await listed('LATE-1')).toMatchObject({ orderQuantity: 0, orderBy: null, onOrderArrives: arrives });
    expect((await report()).on_order_late).toBe(1);
  });

  it('adds a second order arriving the same day to that delivery, and refuses a day whose delivery was received', async () => {
    const first = await recorded({ styleCode: 'ROPE-1', quantity: 12, expectedDate: day(20) });
    const second = await recorded({ styleCode: 'ROPE-1', quantity: '8', expectedDate: day(20) });
    expect(second).toMatchObject({ ordered: 8, delivery: { id: first.delivery.id, quantity: 20 } });
    expect(await deliveries('ROPE-1')).toEqual([{ expected_date: day(20), quantity: 20, status: 'scheduled' }]);

    await sql`update data.deliveries set status = 'received' where id = ${first.delivery.id}`.execute(server.database.db);
    const runs = await queuedRuns('ROPE-1');
    const refused = await post({ styleCode: 'ROPE-1', quantity: 5, expectedDate: day(20) });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json).toMatchObject({ code: 'conflict', errors: { expectedDate: [expect.stringContaining('is recorded as received: choose another day')] } });
    expect(await deliveries('ROPE-1')).toEqual([{ expected_date: day(20), quantity: 20, status: 'received' }]);
    expect(await queuedRuns('ROPE-1')).toBe(runs);
  });

  it("reads a quantity in the product's unit: typed with a unit or a decimal comma, to the gram by measure, whole otherwise", async () => {
    expect((await recorded({ styleCode: 'CHEESE-1', quantity: '250 g', expectedDate: day(3) })).ordered).toBe(0.25);
    expect((await recorded({ styleCode: 'CHEESE-1', quantity: '1,5', expectedDate: day(4) })).ordered).toBe(1.5);
    // No unit, but a sale of it had a fraction: its forecast orders fractions, so may its buyer.
    expect((await recorded({ styleCode: 'ROPE-1', quantity: 2.5, expectedDate: day(5) })).ordered).toBe(2.5);
    expect(await deliveries('CHEESE-1')).toEqual([
      { expected_date: day(3), quantity: 0.25, status: 'scheduled' },
      { expected_date: day(4), quantity: 1.5, status: 'scheduled' },
    ]);
  });

  it.each([
    ['a quantity of 0', { quantity: 0 }, 'quantity', 'Enter a quantity above 0.'],
    ['a negative quantity', { quantity: '-3' }, 'quantity', 'Enter a quantity above 0.'],
    ['a quantity that is no number', { quantity: 'a dozen' }, 'quantity', 'Expected a number, not a dozen.'],
    ['no quantity', { quantity: '  ' }, 'quantity', 'Enter the quantity ordered.'],
    ['a fraction of a product counted in whole units', { quantity: 2.5 }, 'quantity', '2.5 is not a whole number, and Desk Lamp Pro is counted in whole units: it is no weight, length or volume, and no sale of it had a fraction.'],
    ['more places than a delivery keeps', { styleCode: 'CHEESE-1', quantity: 0.0005 }, 'quantity', '0.0005 has more than 3 decimal places: round it to 3.'],
    ['a unit of another kind', { styleCode: 'CHEESE-1', quantity: '0.5 l' }, 'quantity', 'Expected a quantity in kg (the unit of product CHEESE-1), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.'],
    ['a day gone by', { expectedDate: day(-1) }, 'expectedDate', 'is in the past: an order placed now arrives today'],
    ['a year mistyped', { expectedDate: shiftDay(day(0), 366 * 6) }, 'expectedDate', 'more than 5 years ahead: check the year.'],
    ['no day of the calendar', { expectedDate: '2027-02-30' }, 'expectedDate', '2027-02-30 is not a real date: February 2027 has 28 days.'],
    ['a day not written YYYY-MM-DD', { expectedDate: '30/11/2027' }, 'expectedDate', 'Expected a date as YYYY-MM-DD.'],
    ['no day', { expectedDate: undefined }, 'expectedDate', 'Enter the day the delivery is expected.'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_name, change, field, words) => {
    const body = { styleCode: 'LAMP-1', quantity: 10, expectedDate: day(9), ...change };
    const code = body.styleCode;
    const [written, runs] = [await deliveries(code), await queuedRuns(code)];
    const answer = await post(body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ code: 'validation_error', errors: { [field]: [expect.stringContaining(words)] } });
    expect(await deliveries(code)).toEqual(written);
    expect(await queuedRuns(code)).toBe(runs);
  });

  it('answers 404 for a product that does not exist, and 403 to a viewer, writing nothing', async () => {
    const count = async () => Number((await sql<{ n: number }>`select count(*)::int as n from data.deliveries`.execute(server.database.db)).rows[0]!.n);
    const before = await count();
    const unknown = await post({ styleCode: 'NO-SUCH-1', quantity: 5, expectedDate: day(9) });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found', detail: "Product 'NO-SUCH-1' not found." });
    const viewer = await post({ styleCode: 'LAMP-1', quantity: 5, expectedDate: day(9) }, 'viewer');
    expect(viewer.status).toBe(403);
    expect(viewer.json).toMatchObject({ code: 'forbidden' });
    expect(await count()).toBe(before);
  });

  // Last: the shop's zone moves the forecast's first day too.
  it("takes the shop's today as the earliest day, not the server's", async () => {
    // Of UTC+14 and UTC−11, the zone whose day is not UTC's now: a UTC rule would get one of the two answers wrong.
    const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((name) => dayInTimeZone(Date.now(), name) !== day(0))!;
    const chosen = await server.request('/api/shop/time-zone/', { token: tokens.admin, method: 'PUT', body: { timeZone: zone } });
    expect(chosen.status, chosen.text).toBe(200);
    const shopToday = dayInTimeZone(Date.now(), zone);
    const yesterday = await post({ styleCode: 'ROPE-1', quantity: 1, expectedDate: shiftDay(shopToday, -1) });
    expect(yesterday.status, yesterday.text).toBe(400);
    expect(yesterday.json).toMatchObject({ errors: { expectedDate: [expect.stringContaining('is in the past')] } });
    expect((await recorded({ styleCode: 'ROPE-1', quantity: 1, expectedDate: shopToday })).expectedDate).toBe(shopToday);
  });
});
