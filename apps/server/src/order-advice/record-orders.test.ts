// A supplier's purchase order recorded at once (ADR 0185), over HTTP: POST /api/order-advice/orders/batch/
// writes every order as the single route does, in one transaction, and one forecast run counts them
// all — or, when one order is refused, writes nothing: a 400 naming the order's position and field,
// a 404 naming the unknown codes, a 409 naming the products whose day holds a received delivery. A
// viewer is refused, and bad input is a 400, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MAX_BATCH_ORDERS, type RecordedOrders } from '@stockwise/contract';
import { forecastClient, insertSteadySeller, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpEachRole, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
const NUL = String.fromCharCode(0);

describe.each(backends)('a purchase order recorded at once, on %s', (backend) => {
  let server: TestServer;
  let tokens: Awaited<ReturnType<typeof signUpEachRole>>;
  let client: ForecastClient;
  const post = (body: unknown, role: 'admin' | 'editor' | 'viewer' = 'editor') => server.request('/api/order-advice/orders/batch/', { token: tokens[role], body });
  const allDeliveries = async () =>
    (
      await sql<{ code: string; expected_date: string; quantity: number; status: string }>`
        select p.product_code as code, d.expected_date::text as expected_date, d.quantity::float8 as quantity, d.status
        from data.deliveries d join data.products p on p.id = d.product_id order by p.product_code, d.expected_date`.execute(server.database.db)
    ).rows;
  const queuedRuns = async () => Number((await server.database.db.selectFrom('forecast_tasks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  /** Posts a body that must change nothing: no delivery written, no run queued. */
  const refused = async (body: unknown, role: 'editor' | 'viewer' = 'editor') => {
    const [written, runs] = [await allDeliveries(), await queuedRuns()];
    const answer = await post(body, role);
    expect(await allDeliveries()).toEqual(written);
    expect(await queuedRuns()).toBe(runs);
    return answer;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const shop = [
      { product_code: 'LAMP-1', name: 'Desk Lamp Pro', current_stock: 200, unit_cost: 12, lead_time_days: 7, supplier: 'Lumen Ltd' },
      { product_code: 'LAMP-2', name: 'Floor Lamp', current_stock: 150, unit_cost: 30, lead_time_days: 7, supplier: 'Lumen Ltd' },
      { product_code: 'CHEESE-1', name: 'Cheddar', current_stock: 4, unit_cost: 9, lead_time_days: 3, unit: 'kg', supplier: 'Dairy Co' },
    ];
    for (const product of shop) await insertSteadySeller(db, product, product.unit === 'kg' ? 0.75 : 10);
    tokens = await signUpEachRole(server);
    client = forecastClient(server, tokens.admin);
    expect(await client.run()).toMatchObject({ status: 'completed' });
  });
  afterAll(() => server.stop());

  it('refuses the whole batch when one order is bad: a 400 naming its position and field, nothing written or queued', async () => {
    const answer = await refused({
      orders: [
        { styleCode: 'LAMP-1', quantity: 100, expectedDate: day(7) },
        { styleCode: 'LAMP-2', quantity: 2.5, expectedDate: day(7) },
        { styleCode: 'CHEESE-1', quantity: '3 kg', expectedDate: day(-1) },
      ],
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({
      code: 'validation_error',
      detail: expect.stringContaining('orders[1].quantity: 2.5 is not a whole number'),
      errors: { 'orders.1.quantity': [expect.stringContaining('2.5 is not a whole number')], 'orders.2.expectedDate': [expect.stringContaining('is in the past')] },
    });
    expect(Object.keys(answer.json.errors as object)).toHaveLength(2);
  });

  it('refuses two orders of one product for one day in a batch (one line per product and day)', async () => {
    const answer = await refused({
      orders: [
        { styleCode: 'LAMP-1', quantity: 100, expectedDate: day(7) },
        { styleCode: 'LAMP-1', quantity: 50, expectedDate: day(7) },
      ],
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ errors: { 'orders.1.expectedDate': [expect.stringContaining('is already order 1 of this list')] } });
  });

  it('answers 404 naming every unknown code, and 403 to a viewer, writing nothing', async () => {
    const unknown = await refused({
      orders: [
        { styleCode: 'NO-SUCH-1', quantity: 5, expectedDate: day(7) },
        { styleCode: 'LAMP-1', quantity: 5, expectedDate: day(7) },
        { styleCode: 'NO-SUCH-2', quantity: 5, expectedDate: day(7) },
      ],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found', detail: "Products not found: 'NO-SUCH-1', 'NO-SUCH-2'." });
    const viewer = await refused({ orders: [{ styleCode: 'LAMP-1', quantity: 5, expectedDate: day(7) }] }, 'viewer');
    expect(viewer.status).toBe(403);
    expect(viewer.json).toMatchObject({ code: 'forbidden' });
  });

  it.each([
    ['no list', {}],
    ['a list that is no list', { orders: 'LAMP-1' }],
    ['an empty list', { orders: [] }],
    [`${MAX_BATCH_ORDERS + 1} orders`, { orders: Array.from({ length: MAX_BATCH_ORDERS + 1 }, (_, i) => ({ styleCode: 'LAMP-1', quantity: 1, expectedDate: day(7 + i) })) }],
    ['a quantity that is neither number nor text', { orders: [{ styleCode: 'LAMP-1', quantity: true, expectedDate: day(7) }] }],
    ['a code that is a number', { orders: [{ styleCode: 12, quantity: 1, expectedDate: day(7) }] }],
    ['an order that is no object', { orders: [null] }],
    ['a field no order has', { orders: [{ styleCode: 'LAMP-1', quantity: 1, expectedDate: day(7), supplier: 'Lumen Ltd' }] }],
    ['a NUL in a code', { orders: [{ styleCode: `LAMP-1${NUL}`, quantity: 1, expectedDate: day(7) }] }],
    ['a NUL in a quantity', { orders: [{ styleCode: 'LAMP-1', quantity: `1${NUL}`, expectedDate: day(7) }] }],
    ['truncated JSON', '{"orders": [{"styleCode": "LAMP-1", "quantity": 1'],
  ])('refuses %s with a 400, never a 500, writing nothing', async (_name, body) => {
    const answer = await refused(body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ code: 'validation_error' });
  });

  it('names the position of an order the schema refuses', async () => {
    const answer = await refused({ orders: [{ styleCode: 'LAMP-1', quantity: 1, expectedDate: day(7) }, { styleCode: 'LAMP-2', quantity: true, expectedDate: day(7) }] });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ errors: { 'orders.1.quantity': [expect.any(String)] } });
  });

  it('writes every order, one run re-forecasts them all, and they leave the list', async () => {
    const listed = async () =>
      ((await server.request('/api/forecasting/latest-report/?page_size=500', { token: tokens.viewer })).json as { report: { products: { styleCode: string }[] } }).report.products.map((p) => p.styleCode);
    expect(await listed()).toEqual(expect.arrayContaining(['LAMP-1', 'LAMP-2']));
    const answer = await post({
      orders: [
        { styleCode: 'LAMP-1', quantity: 1000, expectedDate: day(7) },
        { styleCode: 'LAMP-2', quantity: '800', expectedDate: day(8) },
      ],
    });
    expect(answer.status, answer.text).toBe(201);
    const batch = answer.json as unknown as RecordedOrders;
    expect(batch).toMatchObject({
      recorded: 2,
      deliveries: [
        { styleCode: 'LAMP-1', name: 'Desk Lamp Pro', ordered: 1000, expectedDate: day(7), delivery: { quantity: 1000 } },
        { styleCode: 'LAMP-2', name: 'Floor Lamp', ordered: 800, expectedDate: day(8), delivery: { quantity: 800 } },
      ],
    });
    expect(await allDeliveries()).toEqual([
      { code: 'LAMP-1', expected_date: day(7), quantity: 1000, status: 'scheduled' },
      { code: 'LAMP-2', expected_date: day(8), quantity: 800, status: 'scheduled' },
    ]);
    expect(await client.completed(batch.taskId!)).toMatchObject({ status: 'completed' });
    for (const code of ['LAMP-1', 'LAMP-2']) expect((await client.forecastOf(code)).reorder).toMatchObject({ orderQuantity: 0, orderBy: null });
    expect(await listed()).not.toEqual(expect.arrayContaining(['LAMP-1']));
    expect(await listed()).not.toEqual(expect.arrayContaining(['LAMP-2']));
    // Each delivery named as the editor's, as a Data screen save is.
    const edits = await sql<{ n: number }>`select count(*)::int as n from data_row_edits where table_name = 'deliveries' and edited_by is not null`.execute(server.database.db);
    expect(edits.rows[0]!.n).toBe(2);
  });

  it("refuses the whole batch when a day holds a received delivery: 409 naming the product, nothing written", async () => {
    await sql`update data.deliveries set status = 'received' where expected_date = ${day(8)}::date`.execute(server.database.db);
    const answer = await refused({
      orders: [
        { styleCode: 'CHEESE-1', quantity: '2,5', expectedDate: day(3) },
        { styleCode: 'LAMP-2', quantity: 10, expectedDate: day(8) },
      ],
    });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.json).toMatchObject({
      code: 'conflict',
      detail: expect.stringContaining('Nothing was recorded: the day of the order of LAMP-2'),
      errors: { 'orders.1.expectedDate': [expect.stringContaining('is recorded as received: choose another day')] },
    });
  });
});
