// A database whose deliveries repeated a product's day when migration 0020 ran has no unique key on
// them (ADR 0182, amendment 2026-12-06). Recording an order and the assistant's "Create the
// recommended orders" work there as where the key is: the order added to the day's first scheduled
// delivery (lowest id), else a new one; a day holding only received or cancelled ones refused 409; the
// assistant skipping a day that has a delivery; orders saved at once adding up in one row. Nobody's
// deliveries are merged or deleted. The deliveries import still refuses there, with a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ChatMessage } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpEachRole, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);

describe.each(backends)('orders on a database whose delivery days repeat, on %s', (backend) => {
  let server: TestServer;
  let tokens: Awaited<ReturnType<typeof signUpEachRole>>;
  let client: ForecastClient;
  const ids: Record<string, number> = {};
  const post = (body: unknown) => server.request('/api/order-advice/orders/', { token: tokens.editor, body });
  const deliveries = async (code: string) =>
    (
      await sql<{ expected_date: string; quantity: number; status: string }>`
        select d.expected_date::text as expected_date, d.quantity::float8 as quantity, d.status
        from data.deliveries d join data.products p on p.id = d.product_id where p.product_code = ${code} order by d.expected_date, d.id`.execute(server.database.db)
    ).rows;
  const deliver = async (code: string, expectedDate: string, rows: { quantity: number; status: 'scheduled' | 'received' | 'cancelled' }[]) =>
    (await server.database.db.insertInto('data.deliveries').values(rows.map((row) => ({ product_id: ids[code]!, expected_date: expectedDate, ...row }))).returning('id').execute()).map((row) => Number(row.id));
  const recorded = (body: object) => forecastClient(server, tokens.editor).recordOrder(body);

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const shop = [
      { product_code: 'ROPE-1', name: 'Rope', current_stock: 200, unit_cost: 1, lead_time_days: 5 },
      { product_code: 'LAMP-1', name: 'Desk Lamp Pro', current_stock: 200, unit_cost: 12, lead_time_days: 7 },
      { product_code: 'BULB-1', name: 'Bulb', current_stock: 100, unit_cost: 2, lead_time_days: 7 },
      { product_code: 'FAN-1', name: 'Fan', current_stock: 100, unit_cost: 20, lead_time_days: 7 },
    ];
    for (const product of shop) {
      const { id } = await db.insertInto('data.products').values(product).returning('id').executeTakeFirstOrThrow();
      ids[product.product_code] = Number(id);
      await db.insertInto('data.sales').values(Array.from({ length: 120 }, (_, i) => ({ product_id: id, date: day(i - 120), quantity: 10 }))).execute();
      await db.insertInto('data.stock_snapshots').values({ product_id: id, date: day(-1), stock_level: product.current_stock }).execute();
    }
    tokens = await signUpEachRole(server);
    client = forecastClient(server, tokens.admin);
    expect(await client.run()).toMatchObject({ status: 'completed' });
    // As 0020 left a database that repeated a day: no key.
    await sql`drop index data.deliveries_product_expected_date`.execute(db);
  });
  afterAll(() => server.stop());

  it("adds an order to the day's first scheduled delivery, leaving the others as they are", async () => {
    const [first, second] = await deliver('ROPE-1', day(20), [
      { quantity: 3, status: 'scheduled' },
      { quantity: 4, status: 'scheduled' },
    ]);
    expect(await recorded({ styleCode: 'ROPE-1', quantity: 5, expectedDate: day(20) })).toMatchObject({ ordered: 5, delivery: { id: first, quantity: 8 } });
    expect(first! < second!).toBe(true);
    // A received one before it: the order goes to the day's scheduled delivery.
    const [, scheduled] = await deliver('ROPE-1', day(21), [
      { quantity: 6, status: 'received' },
      { quantity: 7, status: 'scheduled' },
    ]);
    expect(await recorded({ styleCode: 'ROPE-1', quantity: 2, expectedDate: day(21) })).toMatchObject({ delivery: { id: scheduled, quantity: 9 } });
    // A day without one: a new delivery, and the next order adds to it.
    const fresh = await recorded({ styleCode: 'ROPE-1', quantity: 1, expectedDate: day(22) });
    expect(await recorded({ styleCode: 'ROPE-1', quantity: 1, expectedDate: day(22) })).toMatchObject({ delivery: { id: fresh.delivery.id, quantity: 2 } });
    expect(await deliveries('ROPE-1')).toEqual([
      { expected_date: day(20), quantity: 8, status: 'scheduled' },
      { expected_date: day(20), quantity: 4, status: 'scheduled' },
      { expected_date: day(21), quantity: 6, status: 'received' },
      { expected_date: day(21), quantity: 9, status: 'scheduled' },
      { expected_date: day(22), quantity: 2, status: 'scheduled' },
    ]);
  });

  it('refuses 409 a day whose deliveries were all received or cancelled, changing none', async () => {
    await deliver('ROPE-1', day(30), [
      { quantity: 6, status: 'received' },
      { quantity: 7, status: 'cancelled' },
    ]);
    const before = await deliveries('ROPE-1');
    const refused = await post({ styleCode: 'ROPE-1', quantity: 5, expectedDate: day(30) });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json).toMatchObject({ code: 'conflict', errors: { expectedDate: [expect.stringContaining('is recorded as received: choose another day')] } });
    expect(await deliveries('ROPE-1')).toEqual(before);
  });

  it('adds orders saved at once for one product and day up in one delivery', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post({ styleCode: 'LAMP-1', quantity: 10, expectedDate: day(40) })));
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect((await deliveries('LAMP-1')).filter((row) => row.expected_date === day(40))).toEqual([{ expected_date: day(40), quantity: 60, status: 'scheduled' }]);
  });

  it('leaves the deliveries import refusing such a database with a 400, writing nothing', async () => {
    const before = await deliveries('ROPE-1');
    const mapping = { entities: { deliveries: { field_mappings: { product_id: 'Item', expected_date: 'Due', quantity: 'Qty' } } } };
    const imported = await importFile(server, tokens.editor, { fileName: 'd.csv', content: `Item,Due,Qty\nROPE-1,${day(50)},10\n`, mapping, entityType: 'deliveries' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(400);
    expect(imported.json.error).toBe('Invalid configuration: the entity key is not a unique key of its table.');
    expect(await deliveries('ROPE-1')).toEqual(before);
  });

  it("creates the recommended orders, skipping a product whose arrival day already holds deliveries", async () => {
    await deliver('BULB-1', day(7), [
      { quantity: 30, status: 'received' },
      { quantity: 40, status: 'received' },
    ]);
    const created = await server.request('/api/assistant/actions/', { token: tokens.editor, body: { action: 'create_recommended_orders' } });
    expect(created.status, created.text).toBe(200);
    expect((created.json.messages as ChatMessage[])[1]?.content).toContain('Created 1 scheduled delivery');
    expect(await deliveries('BULB-1')).toEqual([
      { expected_date: day(7), quantity: 30, status: 'received' },
      { expected_date: day(7), quantity: 40, status: 'received' },
    ]);
    expect(await deliveries('FAN-1')).toEqual([{ expected_date: day(7), quantity: expect.any(Number), status: 'scheduled' }]);
  });
});
