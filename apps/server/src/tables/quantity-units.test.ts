// A quantity typed on the Data screen with its unit (ADR 0178's amendment of 2026-12-06): read in the
// product's unit as the import reads a file's cell — 0.25 kg and 250 g of a product in kg are 0.25,
// a volume for it is refused on the field with nothing changed, a product without a unit takes the
// number as written — in the row form's add and in a one-field edit, of sales, counts, deliveries
// and a product's own stock.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('a quantity typed with its unit on the Data screen on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const write = (table: string, action: 'add' | 'edit', body: Record<string, unknown>) => server.request(`/api/records/tables/${table}/rows/${action}/`, { token, body });
  const added = async (table: string, body: Record<string, unknown>) => {
    const response = await write(table, 'add', body);
    expect(response.status, response.text).toBe(201);
    return response.json as Record<string, unknown>;
  };
  /** The stored figure as the database holds it: numeric text, exact. */
  const stored = async (table: string, column: string, id: unknown) =>
    (await sql<{ value: string }>`select ${sql.ref(column)}::text as value from ${sql.table(`data.${table}`)} where id = ${Number(id)}`.execute(server.database.db)).rows[0]?.value;
  let cheese: number;
  let candle: number;

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    cheese = Number((await added('products', { product_code: 'CHE-001', name: 'Cheddar mature', unit: 'kg' })).id);
    candle = Number((await added('products', { product_code: 'CAN-001', name: 'Church candle' })).id);
  });
  afterAll(() => server.stop());

  it('stores 0.25 kg and 250 g of a product in kg as 0.25, in an added sale and in an edited one', async () => {
    const inKilos = await added('sales', { product_id: String(cheese), date: '2026-12-01', quantity: '0.25 kg' });
    expect(await stored('sales', 'quantity', inKilos.id)).toBe('0.250');
    const inGrams = await added('sales', { product_id: String(cheese), date: '2026-12-02', quantity: '250 g' });
    expect(await stored('sales', 'quantity', inGrams.id)).toBe('0.250');
    const edited = await write('sales', 'edit', { id: inGrams.id, quantity: '1,5 kg' });
    expect(edited.status, edited.text).toBe(200);
    expect(await stored('sales', 'quantity', inGrams.id)).toBe('1.500');
  });

  it('refuses 0.5 l of a product in kg on the field, naming both units, and changes nothing', async () => {
    const sale = await added('sales', { product_id: String(cheese), date: '2026-12-03', quantity: '0.4' });
    const refused = await write('sales', 'edit', { id: sale.id, quantity: '0.5 l' });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ quantity: ['Expected a quantity in kg (the unit of product CHE-001), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.'] });
    expect(await stored('sales', 'quantity', sale.id)).toBe('0.400');
    const notAdded = await write('stock_snapshots', 'add', { product_id: String(cheese), date: '2026-12-03', stock_level: '0.5 g' });
    expect(notAdded.status).toBe(400);
    expect(notAdded.json.errors).toEqual({ stock_level: ['0.5 g is 0.0005 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg, rounded to 3.'] });
    const unknownWord = await write('deliveries', 'add', { product_id: String(cheese), expected_date: '2026-12-20', quantity: '3 boxes' });
    expect(unknownWord.json.errors).toEqual({ quantity: ['Expected a quantity in kg (the unit of product CHE-001), not 3 boxes: boxes is not a unit Stockwise reads (kg, g, mg, t, lb, lbs, oz, l, ml, cl, dl, m, cm, mm, in, ft, yd, or pcs for pieces); write the number alone.'] });
    expect(Number((await sql<{ n: string }>`select (select count(*) from data.stock_snapshots) + (select count(*) from data.deliveries) as n`.execute(server.database.db)).rows[0]?.n)).toBe(0);
  });

  it('reads 3 pcs of a product without a unit as 3, and a count or delivery of the product in kg in its unit', async () => {
    const pieces = await added('sales', { product_id: String(candle), date: '2026-12-01', quantity: '3 pcs' });
    expect(await stored('sales', 'quantity', pieces.id)).toBe('3.000');
    const count = await added('stock_snapshots', { product_id: String(cheese), date: '2026-12-04', stock_level: '1500 g' });
    expect(await stored('stock_snapshots', 'stock_level', count.id)).toBe('1.500');
    const delivery = await added('deliveries', { product_id: String(cheese), expected_date: '2026-12-20', quantity: '5 KG' });
    expect(await stored('deliveries', 'quantity', delivery.id)).toBe('5.000');
  });

  it("reads a product's current stock in the Unit sent with it, else in its stored unit", async () => {
    const ham = await added('products', { product_code: 'HAM-002', name: 'Serrano ham', unit: 'kg', current_stock: '750 g' });
    expect(await stored('products', 'current_stock', ham.id)).toBe('0.750');
    const edited = await write('products', 'edit', { id: cheese, current_stock: '2500 g' });
    expect(edited.status, edited.text).toBe(200);
    expect(await stored('products', 'current_stock', cheese)).toBe('2.500');
    const toLitres = await write('products', 'edit', { id: cheese, unit: 'l', current_stock: '2 kg' });
    expect(toLitres.status).toBe(400);
    expect(toLitres.json.errors).toEqual({ current_stock: ["Expected a quantity in l (this row's Unit), not 2 kg: kg is a weight, l is a volume; write the quantity in l."] });
    expect(await stored('products', 'unit', cheese)).toBe('kg');
  });
});
