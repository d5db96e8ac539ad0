// Data safety (issue #11): a product with history is not deleted by accident (409 with counts;
// cascade only for admins), and table names live in one namespace, so no table can shadow another.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productRunsSettled } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('data safety on %s', (backend) => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = (await signUpUser(server)).access;
    editor = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  const call = (token: string, path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const added = async (table: string, row: Record<string, unknown>) => {
    const response = await call(admin, `/api/records/tables/${table}/rows/add/`, row);
    expect(response.status, response.text).toBe(201);
    return response.json.id as number;
  };
  const countWhere = async (table: string, column: string, id: number) =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(...(table.includes('.') ? table.split('.') : [table]))} where ${sql.id(column)} = ${id}`.execute(server.database.db)).rows[0]?.n;

  /** A product with a life: two days of sales, a stock count, a delivery, its forecast and a user table row. */
  async function productWithHistory(code: string, orders: string) {
    const id = await added('products', { product_code: code, name: `Hose ${code}`, current_stock: 4, unit_cost: 3.2 });
    await added('sales', { product_id: id, date: '2025-12-23', quantity: 5 });
    await added('sales', { product_id: id, date: '2025-12-24', quantity: 9 });
    await added('stock_snapshots', { product_id: id, date: '2025-12-24', stock_level: 4 });
    await added('deliveries', { product_id: id, expected_date: '2026-01-08', quantity: 50, status: 'scheduled' });
    // The rows written queue the product's forecast (ADR 0133): it is stored when that run ends.
    await productRunsSettled(server.database.db, code);
    await added(orders, { product_id: id, note: 'Christmas order' });
    return id;
  }

  it('refuses to delete a product that rows refer to, saying how many, and deletes it with cascade for an admin only', async () => {
    const orders = (await call(admin, '/api/records/tables/create/', { name: 'Shop orders', folder: 'Tests', columns: [{ key: 'product_id', type: 'ForeignKey', related_table: 'products' }, { key: 'note', type: 'TextField' }] })).json.encodedName as string;
    const product = await productWithHistory('XMAS-TREE-1', orders);
    const bystander = await productWithHistory('XMAS-STAR-2', orders);

    const references = await call(editor, `/api/records/tables/products/rows/${product}/references/`);
    expect(references.status).toBe(200);
    expect(references.json).toEqual({
      references: expect.arrayContaining([
        { table: 'sales', count: 2 },
        // The stock typed on the product is today's snapshot (one stock truth), beside the counted one.
        { table: 'stock_snapshots', count: 2 },
        { table: 'deliveries', count: 1 },
        { table: 'Shop orders', count: 1 },
      ]),
      // Its forecast is not among them: made from the rows, it goes with the product.
      total: 6,
      label: 'XMAS-TREE-1 — Hose XMAS-TREE-1',
    });

    const refused = await call(editor, '/api/records/tables/products/rows/delete/', { id: product });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('conflict');
    for (const words of ["2 rows of 'sales'", "2 rows of 'stock_snapshots'", "1 row of 'deliveries'", "1 row of 'Shop orders'"]) {
      expect(refused.json.detail).toContain(words);
    }
    expect(refused.json.detail).not.toContain('forecasts');
    expect(await countWhere('forecast_results', 'product_id', product)).toBe(1);
    const asEditor = await call(editor, '/api/records/tables/products/rows/delete/', { id: product, cascade: true });
    expect(asEditor.status).toBe(403);
    expect(asEditor.json).toMatchObject({ code: 'forbidden', detail: 'Only an administrator can delete a row together with the rows that refer to it.' });
    expect(await countWhere('data.sales', 'product_id', product)).toBe(2);

    const cascaded = await call(admin, '/api/records/tables/products/rows/delete/', { id: product, cascade: true });
    expect(cascaded.status, cascaded.text).toBe(200);
    for (const [table, column] of [['data.products', 'id'], ['data.sales', 'product_id'], ['data.stock_snapshots', 'product_id'], ['data.deliveries', 'product_id'], ['forecast_results', 'product_id'], [`data.${orders}`, 'product_id']] as const) {
      expect({ table, rows: await countWhere(table, column, product) }).toEqual({ table, rows: 0 });
      expect({ table, rows: await countWhere(table, column, bystander) }).toEqual({ table, rows: table === 'data.sales' || table === 'data.stock_snapshots' ? 2 : 1 });
    }
  });

  it('deletes a product nothing refers to without asking for cascade', async () => {
    const lonely = await added('products', { product_code: 'NEW-ONLY-1', name: 'Three days old' });
    expect((await call(editor, `/api/records/tables/products/rows/${lonely}/references/`)).json).toEqual({ references: [], total: 0, label: 'NEW-ONLY-1 — Three days old' });
    expect((await call(editor, '/api/records/tables/products/rows/delete/', { id: lonely })).status).toBe(200);
    expect((await call(editor, `/api/records/tables/products/rows/${lonely}/references/`)).status).toBe(404);
  });

  it("lets an editor delete a mistyped new product whose only references are its stock count's forecast, once the count is gone", async () => {
    const typo = await added('products', { product_code: 'QA-TYPO', name: 'typo product', current_stock: 10 });
    await productRunsSettled(server.database.db, 'QA-TYPO');
    expect(await countWhere('forecast_results', 'product_id', typo)).toBe(1);
    const references = await call(editor, `/api/records/tables/products/rows/${typo}/references/`);
    expect(references.json).toMatchObject({ references: [{ table: 'stock_snapshots', count: 1 }], total: 1 });
    // The count typed with it is a row the editor can reach on the Data screen; the forecast is not, and does not keep the product.
    const { rows } = await sql<{ id: number }>`select id::int from data.stock_snapshots where product_id = ${typo}`.execute(server.database.db);
    expect((await call(editor, '/api/records/tables/stock_snapshots/rows/delete/', { id: rows[0]!.id })).status).toBe(200);
    await productRunsSettled(server.database.db, 'QA-TYPO');
    expect((await call(editor, `/api/records/tables/products/rows/${typo}/references/`)).json).toMatchObject({ references: [], total: 0 });
    const deleted = await call(editor, '/api/records/tables/products/rows/delete/', { id: typo });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await countWhere('forecast_results', 'product_id', typo)).toBe(0);
    expect(await countWhere('data.products', 'id', typo)).toBe(0);
  });

  it("names a day's second sales row by its product and date, marks both fields, and writes nothing", async () => {
    const hose = await added('products', { product_code: 'HOSE-S', name: 'Hose Small' });
    await added('sales', { product_id: hose, date: '2026-12-01', quantity: 3 });
    const problem = "'sales' already has a row for Product HOSE-S — Hose Small and Date 1 Dec 2026: edit that row instead.";
    const twice = await call(editor, '/api/records/tables/sales/rows/add/', { product_id: hose, date: '2026-12-01', quantity: 5 });
    expect(twice.status).toBe(409);
    expect(twice.json).toMatchObject({ code: 'conflict', detail: problem, errors: { product_id: [problem], date: [problem] } });
    // Moving another day's row onto it is refused the same way.
    const other = await added('sales', { product_id: hose, date: '2026-12-02', quantity: 4 });
    const moved = await call(editor, '/api/records/tables/sales/rows/edit/', { id: other, date: '2026-12-01' });
    expect(moved.status).toBe(409);
    expect(moved.json.detail).toBe(problem);
    const { rows } = await sql<{ date: string; quantity: number }>`select date::text, quantity from data.sales where product_id = ${hose} order by date`.execute(server.database.db);
    expect(rows).toEqual([{ date: '2026-12-01', quantity: 3 }, { date: '2026-12-02', quantity: 4 }]);
  });

  it('keeps RESTRICT in the database itself, so no path around the API deletes history', async () => {
    const { rows } = await sql<{ conname: string; confdeltype: string }>`
      select conname, confdeltype from pg_constraint
      where contype = 'f' and confrelid = 'data.products'::regclass and conname in ('sales_product_id_fkey', 'stock_snapshots_product_id_fkey', 'deliveries_product_id_fkey', 'forecast_results_product_id_fkey')
      order by conname`.execute(server.database.db);
    expect(rows).toEqual(['deliveries', 'forecast_results', 'sales', 'stock_snapshots'].map((table) => ({ conname: `${table}_product_id_fkey`, confdeltype: 'r' })));
  });

  it('keeps display names and encoded names in one namespace, so rows always reach the table they name', async () => {
    const q1 = (await call(admin, '/api/records/tables/create/', { name: 'Q1 Orders', folder: 'Tests', columns: [{ key: 'note', type: 'TextField' }] })).json as { encodedName: string };
    // The shadow: a table whose display name is Q1 Orders' identifier would be found first, or second,
    // depending on which route form a client uses.
    const shadow = await call(admin, '/api/records/tables/create/', { name: q1.encodedName, folder: 'Tests', columns: [{ key: 'note', type: 'TextField' }] });
    expect(shadow.status).toBe(409);
    expect(shadow.json.detail).toBe(`The name '${q1.encodedName}' cannot be used: it would be confused with table 'Q1 Orders' (whose name or identifier it equals).`);

    // The other order: a table takes the identifier "Q3 Orders" would get, then "Q3 Orders" is refused.
    const q3Identifier = (await call(admin, '/api/records/encode/', { text: 'Q3 Orders' })).json.encoded as string;
    expect((await call(admin, '/api/records/tables/create/', { name: q3Identifier, folder: 'Tests' })).status).toBe(201);
    expect((await call(admin, '/api/records/tables/create/', { name: 'Q3 Orders', folder: 'Tests' })).status).toBe(409);

    // Rows added and deleted through either route form land in Q1 Orders and nowhere else.
    const byIdentifier = await call(editor, `/api/records/tables/${q1.encodedName}/rows/add/`, { note: 'by identifier' });
    const byName = await call(editor, `/api/records/tables/${encodeURIComponent('Q1 Orders')}/rows/add/`, { note: 'by name' });
    expect([byIdentifier.status, byName.status]).toEqual([201, 201]);
    const rows = (await sql<{ note: string }>`select note from ${sql.id('data', q1.encodedName)} order by id`.execute(server.database.db)).rows;
    expect(rows.map((r) => r.note)).toEqual(['by identifier', 'by name']);
    expect((await call(editor, `/api/records/tables/${q1.encodedName}/rows/delete/`, { id: byName.json.id })).status).toBe(200);
    expect((await call(editor, `/api/records/tables/${encodeURIComponent('Q1 Orders')}/data/`)).json.count).toBe(1);
    const names = ((await call(editor, '/api/records/tables/structure/')).json as unknown as { name: string }[]).map((t) => t.name);
    expect(names.filter((name) => name === q1.encodedName || name === 'Q3 Orders')).toEqual([]);
  });
  it('refuses a sale or stock count dated in the future or before 1970, changing nothing; a delivery may be planned ahead', async () => {
    const id = await added('products', { product_code: 'DATE-TYPO-1', name: 'Typo', current_stock: 1 });
    const sale = await added('sales', { product_id: id, date: '2025-11-03', quantity: 2 });
    // Its stock on hand is today's count (one stock truth); the refused ones add none.
    const counts = await countWhere('data.stock_snapshots', 'product_id', id);
    for (const date of ['2099-12-31', '1900-01-03']) {
      const typed = await call(editor, '/api/records/tables/sales/rows/edit/', { id: sale, date });
      expect(typed.status, typed.text).toBe(400);
      expect(typed.json.errors).toEqual({ date: [expect.stringContaining(date)] });
      const counted = await call(editor, '/api/records/tables/stock_snapshots/rows/add/', { product_id: id, date, stock_level: 3 });
      expect(counted.status, counted.text).toBe(400);
    }
    expect(await countWhere('data.stock_snapshots', 'product_id', id)).toBe(counts);
    const stored = await server.database.db.selectFrom('data.sales').select('date').where('id', '=', sale).executeTakeFirstOrThrow();
    expect(stored.date).toBe('2025-11-03');
    const nextYear = new Date().getUTCFullYear() + 1;
    expect((await call(editor, '/api/records/tables/deliveries/rows/add/', { product_id: id, expected_date: `${nextYear}-02-01`, quantity: 5, status: 'scheduled' })).status).toBe(201);
  });

  it('refuses a delivery expected more than 5 years ahead or before 1970 (a typo in the year), and shows the status a new delivery gets', async () => {
    const id = await added('products', { product_code: 'DATE-TYPO-2', name: 'Typo', current_stock: 1 });
    const before = await countWhere('data.deliveries', 'product_id', id);
    const century = `${new Date().getUTCFullYear() + 100}-02-02`;
    for (const [date, reason] of [[century, `${century} is more than 5 years ahead: check the year.`], ['1215-02-02', '1215-02-02 is before 1970-01-01: check the year.']]) {
      const typed = await call(editor, '/api/records/tables/deliveries/rows/add/', { product_id: id, expected_date: date, quantity: 5 });
      expect(typed.status, typed.text).toBe(400);
      expect(typed.json.errors).toEqual({ expected_date: [reason] });
    }
    expect(await countWhere('data.deliveries', 'product_id', id)).toBe(before);
    const columns = (await call(editor, '/api/records/tables/deliveries/variation-columns/')).json as unknown as { columns: { key: string; default_value?: string }[] };
    expect(columns.columns.filter((c) => c.default_value !== undefined).map((c) => [c.key, c.default_value])).toEqual([['status', 'scheduled']]);
  });
});
