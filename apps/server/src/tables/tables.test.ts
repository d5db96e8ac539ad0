import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import * as unitCostIsMoney from '../db/migrations/0440-unit-cost-is-money.ts';

const allFieldTypes = [
  { key: 'title', type: 'CharField', max_length: 20, required: true },
  { key: 'contact', type: 'EmailField' },
  { key: 'quantity', type: 'IntegerField' },
  { key: 'price', type: 'DecimalField', max_digits: 6, decimal_places: 2 },
  { key: 'notes', type: 'TextField' },
  { key: 'due', type: 'DateField' },
  { key: 'seen_at', type: 'DateTimeField' },
  { key: 'active', type: 'BooleanField' },
  { key: 'product_id', type: 'ForeignKey', related_table: 'products' },
  { key: 'size', type: 'CharField', max_length: 5, choices: ['S', 'M', 'L'] },
  { key: 'on_order', type: 'query', query_name: 'stock_on_order' },
  { key: 'parts', type: 'nestedTable', nested_table: 'parts' },
];

describe.each(backends)('configurable tables on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let productId: number;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    const product = await server.request('/api/records/tables/products/rows/add/', { token, body: { product_code: 'P-TEST', name: 'Test product', current_stock: 3, unit_cost: 2.5 } });
    productId = product.json.id as number;
  });
  afterAll(() => server.stop());

  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const post = (path: string) => server.request(path, { token, method: 'POST' });
  let tableCounter = 0;
  const createTable = async (columns: unknown[] = allFieldTypes, folder = 'Tests') => {
    tableCounter += 1;
    const name = `Orders ${backend} #${tableCounter} été`;
    const created = await api('/api/records/tables/create/', { name, folder, columns });
    expect(created.status, created.text).toBe(201);
    return created.json as { name: string; encodedName: string };
  };

  describe('structure and creation', () => {
    it('lists the inventory tables of the configuration', async () => {
      const structure = await api('/api/records/tables/structure/');
      expect(structure.status).toBe(200);
      const names = (structure.json as unknown as { name: string; folder: string }[]).map((t) => `${t.folder}/${t.name}`);
      expect(names).toEqual(expect.arrayContaining(['Inventory/products', 'Inventory/sales', 'Inventory/stock_snapshots', 'Inventory/deliveries']));
    });

    it('creates a real table with a column type per field type', async () => {
      const table = await createTable();
      const { rows } = await sql<{ column_name: string; data_type: string; character_maximum_length: number | null; numeric_precision: number | null; numeric_scale: number | null }>`
        select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale
        from information_schema.columns where table_schema = 'data' and table_name = ${table.encodedName}`.execute(server.database.db);
      const byName = Object.fromEntries(rows.map((r) => [r.column_name, r]));
      expect(byName.id?.data_type).toBe('bigint');
      expect(byName.title).toMatchObject({ data_type: 'character varying', character_maximum_length: 20 });
      expect(byName.price).toMatchObject({ data_type: 'numeric', numeric_precision: 6, numeric_scale: 2 });
      expect(byName.due?.data_type).toBe('date');
      expect(byName.seen_at?.data_type).toBe('timestamp with time zone');
      expect(byName.active?.data_type).toBe('boolean');
      expect(byName.product_id?.data_type).toBe('bigint');
      expect(byName.on_order).toBeUndefined();
      expect(byName.parts).toBeUndefined();
      const columns = await api(`/api/records/tables/${table.encodedName}/variation-columns/`);
      const presented = columns.json.columns as { key: string; read_only: boolean; label: string; min_width?: number; foreign_key?: unknown }[];
      expect(presented[0]).toMatchObject({ key: 'id', read_only: true, min_width: 80, max_width: 120 });
      expect(presented.find((c) => c.key === 'on_order')?.read_only).toBe(true);
      expect(presented.find((c) => c.key === 'product_id')?.foreign_key).toEqual({ table: 'products', encodedName: 'products', column: 'id' });
      expect(presented.find((c) => c.key === 'due')?.label).toBe('Due');
    });

    it.each([
      ['a blank name', { name: '  ', folder: '' }, 'Table name is required.'],
      ['a foreign key to a missing table', { name: 'Bad FK', columns: [{ key: 'x', type: 'ForeignKey', related_table: 'nope' }] }, 'refers to a table that does not exist'],
      ['a query column with an unknown query', { name: 'Bad query', columns: [{ key: 'x', type: 'query', query_name: 'nope' }] }, 'uses a query that does not exist'],
      ['an unsafe column key', { name: 'Bad key', columns: [{ key: 'x"; drop table users; --', type: 'TextField' }] }, 'Column keys'],
      ['a name too long for an identifier', { name: '表'.repeat(20) }, 'too long'],
      ['money on a column that is not a decimal', { name: 'Bad money', columns: [{ key: 'price', type: 'TextField', money: true }] }, "Column 'price': only a decimal column can be money."],
    ])('refuses %s with a 400', async (_name, body, message) => {
      const response = await api('/api/records/tables/create/', body);
      expect(response.status).toBe(400);
      expect(response.json.detail).toContain(message);
    });

    it("describes a decimal column as money only when its definition says so: the shipped products' unit cost, a created table's marked price", async () => {
      const moneyOf = async (encodedName: string) =>
        Object.fromEntries(((await api(`/api/records/tables/${encodedName}/variation-columns/`)).json.columns as { key: string; money?: boolean }[]).map((c) => [c.key, c.money ?? false]));
      expect(await moneyOf('products')).toMatchObject({ unit_cost: true, current_stock: false, lead_time_days: false });
      const table = await createTable([
        { key: 'price', type: 'DecimalField', money: true },
        { key: 'vat_rate', type: 'DecimalField', decimal_places: 2 },
      ]);
      expect(await moneyOf(table.encodedName)).toMatchObject({ price: true, vat_rate: false });
    });

    it("marks the unit cost of a products table made before the flag as money (migration 0440), once, leaving the rest alone", async () => {
      const db = server.database.db;
      // A migration sees the database untyped, as the migrator hands it over.
      const untyped = db as unknown as Kysely<unknown>;
      const columnsOf = async () => (await db.selectFrom('data_tables').select('columns').where('name', '=', 'products').executeTakeFirstOrThrow()).columns;
      const shipped = await columnsOf();
      const unmarked = shipped.map(({ money: _money, ...column }) => column);
      await db.updateTable('data_tables').set({ columns: JSON.stringify(unmarked) }).where('name', '=', 'products').execute();
      try {
        await unitCostIsMoney.up(untyped);
        await unitCostIsMoney.up(untyped);
        expect(await columnsOf()).toEqual(shipped);
        expect(shipped.filter((c) => c.money).map((c) => c.key)).toEqual(['unit_cost']);
      } finally {
        await db.updateTable('data_tables').set({ columns: JSON.stringify(shipped) }).where('name', '=', 'products').execute();
      }
    });

    it('refuses a duplicate name with a 409', async () => {
      const table = await createTable();
      const again = await api('/api/records/tables/create/', { name: table.name, folder: '' });
      expect(again.status).toBe(409);
    });

    it('answers an unknown table with the spec message', async () => {
      const response = await api('/api/records/tables/nope/data/');
      expect(response.status).toBe(404);
      expect(response.json.detail).toBe("Table 'nope' not found");
    });
  });

  describe('rows', () => {
    let table: { name: string; encodedName: string };
    beforeAll(async () => {
      table = await createTable();
    });
    const add = (row: Record<string, unknown>) => api(`/api/records/tables/${table.encodedName}/rows/add/`, row);

    it('adds, edits and deletes a row with every type', async () => {
      const added = await add({
        title: 'First', contact: 'a@example.com', quantity: '7', price: 12.5, notes: 'x', due: '2026-12-01',
        seen_at: '2026-11-22T10:00:00Z', active: true, product_id: productId, size: 'M', on_order: 99, id: 12345,
      });
      expect(added.status, added.text).toBe(201);
      expect(added.json).toMatchObject({ title: 'First', quantity: 7, price: 12.5, due: '2026-12-01', active: true, size: 'M', seen_at: '2026-11-22T10:00:00.000Z' });
      expect(added.json.id).not.toBe(12345);
      const edited = await api(`/api/records/tables/${table.encodedName}/rows/edit/`, { id: added.json.id, quantity: 8, notes: null });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({ title: 'First', quantity: 8, notes: null });
      const deleted = await api(`/api/records/tables/${table.encodedName}/rows/delete/`, { id: added.json.id });
      expect(deleted.status).toBe(200);
      const again = await api(`/api/records/tables/${table.encodedName}/rows/delete/`, { id: added.json.id });
      expect(again.status).toBe(404);
    });

    it.each([
      ['a missing required field', { quantity: 1 }, 'title'],
      ['a too-long text', { title: 'x'.repeat(21) }, 'title'],
      ['a non-integer', { title: 'a', quantity: 1.5 }, 'quantity'],
      ['too many decimals', { title: 'a', price: 1.234 }, 'price'],
      ['too many digits', { title: 'a', price: 12345.6 }, 'price'],
      ['a bad email', { title: 'a', contact: 'nope' }, 'contact'],
      ['an impossible date', { title: 'a', due: '2026-02-30' }, 'due'],
      ['a bad datetime', { title: 'a', seen_at: 'yesterday' }, 'seen_at'],
      ['a non-boolean', { title: 'a', active: 'maybe' }, 'active'],
      ['a value outside the choices', { title: 'a', size: 'XL' }, 'size'],
      ['an unknown column', { title: 'a', owner: 'me' }, 'owner'],
      ['an object value', { title: { $gt: '' } }, 'title'],
    ])('refuses %s with a field error and writes nothing', async (_name, row, field) => {
      const before = await api(`/api/records/tables/${table.encodedName}/data/`);
      const response = await add(row);
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('validation_error');
      expect(Object.keys(response.json.errors as object)).toContain(field);
      const after = await api(`/api/records/tables/${table.encodedName}/data/`);
      expect(after.json.count).toBe(before.json.count);
    });

    it('words a refused row in sentences by the column labels, the day that does not exist and the length allowed', async () => {
      const labelled = await createTable([
        { key: 'name', label: 'Product name', type: 'CharField', max_length: 200, required: true },
        { key: 'current_stock', label: 'Current stock', type: 'IntegerField' },
        { key: 'unit_cost', type: 'DecimalField' },
        { key: 'due', type: 'DateField' },
      ]);
      const refused = await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'x'.repeat(201), current_stock: '12.7abc', unit_cost: '1e9999', due: '2026-02-30' });
      expect(refused.status).toBe(400);
      expect(refused.json.errors).toEqual({
        name: ['At most 200 characters (this has 201).'],
        current_stock: ['Expected a whole number, found "12.7abc".'],
        unit_cost: ['Expected a number, found "1e9999".'],
        due: ['2026-02-30 is not a real date: February 2026 has 28 days.'],
      });
      expect(refused.json.detail).toBe(
        'Product name: At most 200 characters (this has 201). Current stock: Expected a whole number, found "12.7abc". Unit Cost: Expected a number, found "1e9999". Due: 2026-02-30 is not a real date: February 2026 has 28 days.',
      );
      // A number too large for the column is a number: the range is said. A spreadsheet's exponent is read.
      const huge = await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'Huge', unit_cost: '1e20' });
      expect(huge.json.errors).toEqual({ unit_cost: ['Expected a number from -9,999,999,999.99 to 9,999,999,999.99, with at most 2 decimal places.'] });
      const exponent = await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'Exponent', unit_cost: '1.5E+3' });
      expect(exponent.status, exponent.text).toBe(201);
      expect(exponent.json.unit_cost).toBe(1500);
      // A pasted US price is read as the import reads a money column (QA6 #18): its sign, its thousands commas.
      const priced = await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'Priced', unit_cost: '$24.99' });
      expect(priced.status, priced.text).toBe(201);
      expect(priced.json.unit_cost).toBe(24.99);
      const repriced = await api(`/api/records/tables/${labelled.encodedName}/rows/edit/`, { id: priced.json.id, unit_cost: '$1,119.63' });
      expect(repriced.status, repriced.text).toBe(200);
      expect(repriced.json.unit_cost).toBe(1119.63);
      expect((await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'x', unit_cost: '$abc' })).json.errors).toEqual({ unit_cost: ['Expected a number, found "$abc".'] });
      const leapDay = await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'Leap', due: '2028-02-29' });
      expect(leapDay.status, leapDay.text).toBe(201);
      for (const [due, reason] of [['2026-13-01', '2026-13-01 is not a real date: a year has 12 months.'], ['1.2.2026', 'Expected a date as YYYY-MM-DD, found "1.2.2026".']]) {
        expect((await api(`/api/records/tables/${labelled.encodedName}/rows/add/`, { name: 'x', due })).json.errors).toEqual({ due: [reason] });
      }
    });

    it("refuses values below the columns' rules and emptied required columns as field errors, every such field at once, and changes nothing", async () => {
      const before = await api('/api/records/tables/products/data/');
      const added = await api('/api/records/tables/products/rows/add/', { product_code: 'P-NEGATIVE', name: 'Negative', unit_cost: -1, lead_time_days: -3 });
      expect(added.status, added.text).toBe(400);
      expect(added.json.errors).toEqual({ unit_cost: ['Must be 0 or more (negative values are not allowed here).'], lead_time_days: ['Must be 0 or more (negative values are not allowed here).'] });
      expect(added.json.detail).toBe('Unit cost: Must be 0 or more (negative values are not allowed here). Lead time (days): Must be 0 or more (negative values are not allowed here).');
      expect((await api('/api/records/tables/products/data/')).json.count).toBe(before.json.count);
      const edited = await api('/api/records/tables/products/rows/edit/', { id: productId, lead_time_days: -3 });
      expect(edited.status, edited.text).toBe(400);
      expect(edited.json.errors).toEqual({ lead_time_days: ['Must be 0 or more (negative values are not allowed here).'] });
      const { rows } = await sql<{ lead_time_days: number }>`select lead_time_days from data.products where id = ${productId}`.execute(server.database.db);
      expect(rows[0]?.lead_time_days).toBe(14);
      // A cleared unit cost (the column keeps 0 for none) is the field's mistake too, not "products: unit_cost is required."
      const cleared = await api('/api/records/tables/products/rows/edit/', { id: productId, unit_cost: null });
      expect(cleared.status, cleared.text).toBe(400);
      expect(cleared.json.errors).toEqual({ unit_cost: ['Required: it cannot be left empty.'] });
      expect(cleared.json.detail).toBe('Unit cost: Required: it cannot be left empty.');
    });

    it('refuses a negative count (what is on the shelf) in the words of the column minimums, and keeps a negative sale (a return)', async () => {
      const negativeStock = await api('/api/records/tables/products/rows/add/', { product_code: 'P-MINUS', name: 'Minus', current_stock: -5 });
      expect(negativeStock.status, negativeStock.text).toBe(400);
      expect(negativeStock.json.errors).toEqual({ current_stock: ['Must be 0 or more (negative values are not allowed here).'] });
      expect(negativeStock.json.detail).toBe('Current stock: Must be 0 or more (negative values are not allowed here).');
      const editedStock = await api('/api/records/tables/products/rows/edit/', { id: productId, current_stock: -5 });
      expect(editedStock.status, editedStock.text).toBe(400);
      const count = await api('/api/records/tables/stock_snapshots/rows/add/', { product_id: productId, date: '2026-01-05', stock_level: -5 });
      expect(count.status, count.text).toBe(400);
      expect(count.json.errors).toEqual({ stock_level: ['Must be 0 or more (negative values are not allowed here).'] });
      const { rows } = await sql<{ current_stock: number; counts: number }>`
        select current_stock, (select count(*)::int from data.stock_snapshots where product_id = ${productId} and stock_level < 0) as counts from data.products where id = ${productId}`.execute(server.database.db);
      expect(rows).toEqual([{ current_stock: 3, counts: 0 }]);
      const returned = await api('/api/records/tables/sales/rows/add/', { product_id: productId, date: '2026-01-05', quantity: -2 });
      expect(returned.status, returned.text).toBe(201);
    });

    it('refuses a foreign key to a missing row with a 400 naming the field', async () => {
      const response = await add({ title: 'a', product_id: 987_654 });
      expect(response.status).toBe(400);
      expect(response.json.errors).toEqual({ product_id: ["No row of 'products' has the id 987654: choose one of its rows."] });
    });

    it('asks for the row id when editing', async () => {
      const response = await api(`/api/records/tables/${table.encodedName}/rows/edit/`, { title: 'b' });
      expect(response.status).toBe(400);
      expect(response.json.errors).toEqual({ id: ['Row ID is required.'] });
      const missing = await api(`/api/records/tables/${table.encodedName}/rows/edit/`, { id: 999_999, title: 'b' });
      expect(missing.status).toBe(404);
    });
  });

  describe('reading pages', () => {
    let table: { name: string; encodedName: string };
    beforeAll(async () => {
      table = await createTable([
        { key: 'label', type: 'CharField', max_length: 50, required: true, indexed: true },
        { key: 'amount', type: 'IntegerField' },
        { key: 'note', type: 'TextField' },
        { key: 'sold', type: 'query', query_name: 'stock_on_order' },
      ]);
      for (let i = 1; i <= 120; i++) {
        const response = await api(`/api/records/tables/${table.encodedName}/rows/add/`, { label: `item ${String(i).padStart(3, '0')}`, amount: i % 10, note: i % 3 === 0 ? null : `n${i}` });
        expect(response.status).toBe(201);
      }
    });
    const page = (query: string) => api(`/api/records/tables/${table.encodedName}/data/?${query}`);
    type Page = { results: Record<string, unknown>[]; count: number; next: string | null; previous: string | null };

    it('pages 50 rows by default with count and next', async () => {
      const first = (await page('')).json as unknown as Page;
      expect(first.results).toHaveLength(50);
      expect(first.count).toBe(120);
      expect(first.next).toContain('page=2');
      expect(first.previous).toBeNull();
    });

    it('follows next links through every row exactly once, in order', async () => {
      const seen: string[] = [];
      let next: string | null = `/api/records/tables/${table.encodedName}/data/?page_size=17&sort_by=label&sort_dir=desc`;
      while (next) {
        const current = (await api(next)).json as unknown as Page;
        seen.push(...current.results.map((r) => r.label as string));
        next = current.next;
      }
      expect(seen).toHaveLength(120);
      expect(seen).toEqual([...seen].sort().reverse());
      expect(new Set(seen).size).toBe(120);
    });

    it('follows next links by a cursor of every required column type, both ways', async () => {
      const typed = await createTable([
        { key: 'day', type: 'DateField', required: true },
        { key: 'seen_at', type: 'DateTimeField', required: true },
        { key: 'price', type: 'DecimalField', max_digits: 6, decimal_places: 2, required: true },
        { key: 'count', type: 'IntegerField', required: true },
        { key: 'open', type: 'BooleanField', required: true },
        { key: 'code', type: 'CharField', max_length: 10, required: true },
      ]);
      for (let i = 1; i <= 23; i++) {
        const row = { day: `2025-12-${String(i).padStart(2, '0')}`, seen_at: `2025-12-${String(i).padStart(2, '0')}T0${i % 10}:30:00.250+01:00`, price: (i % 7) + 0.25, count: i % 5, open: i % 2 === 0, code: `C-${i % 4}` };
        expect((await api(`/api/records/tables/${typed.encodedName}/rows/add/`, row)).status).toBe(201);
      }
      for (const sortBy of ['day', 'seen_at', 'price', 'count', 'open', 'code']) {
        for (const dir of ['asc', 'desc']) {
          const ids: number[] = [];
          let next: string | null = `/api/records/tables/${typed.encodedName}/data/?page_size=4&sort_by=${sortBy}&sort_dir=${dir}`;
          while (next) {
            const current = await api(next);
            expect(current.status, `${sortBy} ${dir}: ${current.text}`).toBe(200);
            ids.push(...(current.json as unknown as Page).results.map((r) => r.id as number));
            next = (current.json as unknown as Page).next;
          }
          expect({ sortBy, dir, rows: new Set(ids).size }).toEqual({ sortBy, dir, rows: 23 });
        }
      }
    });

    it('keeps offering next pages when the count is a stale estimate', async () => {
      const grown = await createTable([{ key: 'n', type: 'IntegerField', required: true }]);
      const target = sql.id('data', grown.encodedName);
      await sql`insert into ${target} (n) select i from generate_series(1, 12000) as i`.execute(server.database.db);
      await sql`analyze ${target}`.execute(server.database.db);
      // The table doubles after its statistics were taken: the estimate still says ~12,000.
      await sql`insert into ${target} (n) select i from generate_series(12001, 24000) as i`.execute(server.database.db);
      let seen = 0;
      let next: string | null = `/api/records/tables/${grown.encodedName}/data/?page_size=1000`;
      while (next) {
        const current = (await api(next)).json as unknown as Page;
        seen += current.results.length;
        next = current.next;
      }
      expect(seen).toBe(24000);
    });

    it('sorts both ways, with id breaking ties', async () => {
      const asc = (await page('sort_by=amount&sort_dir=asc&page_size=120')).json as unknown as Page;
      const desc = (await page('sort_by=amount&sort_dir=desc&page_size=120')).json as unknown as Page;
      expect(asc.results.map((r) => r.amount)).toEqual([...asc.results.map((r) => r.amount as number)].sort((a, b) => a - b));
      expect(desc.results.map((r) => r.id)).toEqual([...asc.results.map((r) => r.id)].reverse());
    });

    it.each([
      ['contains (case-insensitive)', { label: 'ITEM 01' }, 10],
      ['equals', { amount: { equals: 3 } }, 12],
      ['a range', { amount: { gte: 2, lte: 4 } }, 36],
      ['below and above (strict)', { amount: { gt: 2, lt: 5 } }, 24],
      ['typed as text: below', { amount: '<3' }, 36],
      ['typed as text: a range', { amount: '2-4' }, 36],
      ['typed as text: at least', { amount: '>= 8' }, 24],
      ['empty', { note: { empty: true } }, 40],
      ['not empty', { note: { empty: false } }, 80],
      ['two columns', { label: 'item 1', amount: 0 }, 3],
      ['an empty value (removed)', { label: '' }, 120],
      ['contains with LIKE wildcards taken literally', { label: '%' }, 0],
    ])('filters: %s', async (_name, filters, count) => {
      const response = await page(`filters_json=${encodeURIComponent(JSON.stringify(filters))}`);
      expect(response.status, response.text).toBe(200);
      expect(response.json.count).toBe(count);
    });

    it('reads every filter of one shape with its own values (statements compiled once per shape)', async () => {
      for (const amount of [3, 4, 0, 3]) {
        const filtered = (await page(`page_size=120&filters_json=${encodeURIComponent(JSON.stringify({ amount: { equals: amount } }))}`)).json as unknown as Page;
        expect(filtered.count).toBe(12);
        expect(new Set(filtered.results.map((r) => r.amount))).toEqual(new Set([amount]));
      }
      for (const [gte, lte, count] of [[2, 4, 36], [0, 0, 12], [5, 9, 60]] as const) {
        const ranged = (await page(`filters_json=${encodeURIComponent(JSON.stringify({ amount: { gte, lte } }))}`)).json as unknown as Page;
        expect(ranged.count).toBe(count);
      }
      const labelled = (await page(`sort_by=label&filters_json=${encodeURIComponent(JSON.stringify({ label: 'item 11', amount: { gte: 1 } }))}`)).json as unknown as Page;
      expect(labelled.results.map((r) => r.label)).toEqual(['item 111', 'item 112', 'item 113', 'item 114', 'item 115', 'item 116', 'item 117', 'item 118', 'item 119']);
    });

    it.each([
      ['an unknown sort column', 'sort_by=nope', 'Cannot sort by'],
      ['a bad sort direction', 'sort_dir=sideways', 'sort_dir'],
      ['a page size over the limit', 'page_size=5000', 'page_size'],
      ['broken filters_json', 'filters_json=%7Bbad', 'filters_json'],
      ['a filter on an unknown column', `filters_json=${encodeURIComponent('{"nope":"x"}')}`, "Cannot filter on 'nope'"],
      ['a filter value of the wrong type', `filters_json=${encodeURIComponent('{"amount":{"gte":"many"}}')}`, "Invalid filter for column 'amount': Expected a whole number."],
      ['a text on a number column that is no number', `filters_json=${encodeURIComponent('{"amount":"lots"}')}`, "Invalid filter for column 'amount': Type a whole number, or <, <=, >, >= and one, or a range like 10-50."],
      ['a forged cursor', 'after=AAAA', 'cursor'],
    ])('refuses %s with a 400', async (_name, query, message) => {
      const response = await page(query);
      expect(response.status).toBe(400);
      expect(response.json.detail).toContain(message);
    });

    it('answers deep pages by number exactly as the plain order would, both ways', async () => {
      const deep = await createTable([{ key: 'amount', type: 'IntegerField', required: true, indexed: true }]);
      await sql`insert into ${sql.id('data', deep.encodedName)} (amount) select (i * 37) % 100 from generate_series(1, 2500) as i`.execute(server.database.db);
      const all = await sql<{ id: number }>`select id from ${sql.id('data', deep.encodedName)} order by amount desc, id desc`.execute(server.database.db);
      for (const [dir, expected] of [['desc', all.rows.map((r) => r.id)], ['asc', all.rows.map((r) => r.id).reverse()]] as const) {
        const response = await api(`/api/records/tables/${deep.encodedName}/data/?sort_by=amount&sort_dir=${dir}&page=31&page_size=50`);
        expect((response.json.results as { id: number }[]).map((r) => r.id)).toEqual(expected.slice(1500, 1550));
      }
      const past = await api(`/api/records/tables/${deep.encodedName}/data/?sort_by=amount&page=60&page_size=50`);
      expect(past.json.results).toEqual([]);
    });

    it('writes page links as URLSearchParams writes the query, whatever the filter text', async () => {
      const filtersJson = JSON.stringify({ label: "item 1 (a+b) ~'!*é/&=?#%" });
      const middle = (await page(`page=2&page_size=1&sort_by=label&sort_dir=asc&filters_json=${encodeURIComponent(filtersJson)}`)).json as unknown as Page;
      expect(middle.previous).toBe(`/api/records/tables/${table.encodedName}/data/?${new URLSearchParams({ page: '1', page_size: '1', sort_dir: 'asc', sort_by: 'label', filters_json: filtersJson })}`);
      const first = (await page(`page_size=50&filters_json=${encodeURIComponent(JSON.stringify({ label: 'item 0' }))}`)).json as unknown as Page;
      const cursor = new URL(first.next as string, 'http://x').searchParams.get('after') as string;
      expect(first.next).toBe(`/api/records/tables/${table.encodedName}/data/?${new URLSearchParams({ page: '2', page_size: '50', sort_dir: 'asc', filters_json: '{"label":"item 0"}', after: cursor })}`);
    });

    it('reads a filter again by the columns a table has now, after it is made anew under the same name', async () => {
      const name = `Replanned ${backend}`;
      const create = async (type: string) => {
        const created = await api('/api/records/tables/create/', { name, folder: 'Tests', columns: [{ key: 'amount', type }] });
        expect(created.status, created.text).toBe(201);
        for (const amount of ['3', '13', '4']) expect((await api(`/api/records/tables/${created.json.encodedName as string}/rows/add/`, { amount })).status).toBe(201);
        return created.json.encodedName as string;
      };
      const filtered = async (encodedName: string) =>
        ((await api(`/api/records/tables/${encodedName}/data/?filters_json=${encodeURIComponent('{"amount":"3"}')}`)).json as unknown as Page).results.map((r) => r.amount);
      const asNumbers = await create('IntegerField');
      expect(await filtered(asNumbers)).toEqual([3]);
      expect((await post(`/api/records/tables/${asNumbers}/delete/`)).status).toBe(200);
      // The same table name and filters_json: now a text column, so "3" is a contains filter.
      expect(await filtered(await create('CharField'))).toEqual(['3', '13']);
    });

    it('shows 0 in a query column where the query has no row', async () => {
      const first = (await page('page_size=5')).json as unknown as Page;
      expect(first.results.every((r) => r.sold === 0)).toBe(true);
    });
  });

  describe('folders', () => {
    it('creates folders, lists empty ones, and moves tables', async () => {
      const folder = `Archive ${backend}/2026`;
      expect((await api('/api/records/tables/create-folder/', { folderPath: folder })).status).toBe(201);
      const folders = (await api('/api/records/folders/')).json.folders as string[];
      expect(folders).toEqual(expect.arrayContaining([`Archive ${backend}`, folder]));
      const table = await createTable([{ key: 'x', type: 'TextField' }]);
      const moved = await api(`/api/records/tables/${table.encodedName}/update-folder/`, { folder });
      expect(moved.status).toBe(200);
      const structure = (await api('/api/records/tables/structure/')).json as unknown as { name: string; folder: string }[];
      expect(structure.find((t) => t.name === table.name)?.folder).toBe(folder);
    });

    it('refuses a blank folder path and empty segments', async () => {
      expect((await api('/api/records/tables/create-folder/', { folderPath: '' })).status).toBe(400);
      expect((await api('/api/records/tables/create-folder/', { folderPath: 'a//b' })).status).toBe(400);
      expect((await api('/api/records/tables/nope/update-folder/', { folder: 'x' })).status).toBe(404);
    });
  });

  describe('variations', () => {
    it("creates 'Base #N' copies tied to parent rows, once per row", async () => {
      const base = await createTable([{ key: 'title', type: 'CharField', max_length: 30, required: true, unique: true }]);
      const rowA = (await api(`/api/records/tables/${base.encodedName}/rows/add/`, { title: 'A' })).json.id as number;
      const rowB = (await api(`/api/records/tables/${base.encodedName}/rows/add/`, { title: 'B' })).json.id as number;
      const preview = await api(`/api/records/tables/get-variation-name/?base_table=${encodeURIComponent(base.name)}&parent_id=${rowA}`);
      expect(preview.json).toMatchObject({ decodedName: `${base.name} #1`, variationNumber: 1, exists: false });
      const first = await api('/api/records/tables/create-variation/', { base_table: base.name, parent_id: rowA });
      expect(first.json).toMatchObject({ decodedName: `${base.name} #1`, variationNumber: 1, exists: true });
      expect((await api('/api/records/tables/create-variation/', { base_table: base.name, parent_id: rowA })).json).toEqual(first.json);
      const second = await api('/api/records/tables/create-variation/', { base_table: base.encodedName, parent_id: rowB });
      expect(second.json).toMatchObject({ decodedName: `${base.name} #2`, variationNumber: 2 });
      const columns = await api(`/api/records/tables/${first.json.encodedName as string}/variation-columns/`);
      expect((columns.json.columns as { key: string }[]).map((c) => c.key)).toEqual(['id', 'title']);
      const copyRow = await api(`/api/records/tables/${first.json.encodedName as string}/rows/add/`, { title: 'A' });
      expect(copyRow.status).toBe(201);

      expect((await post(`/api/records/tables/${base.encodedName}/delete/`)).status).toBe(200);
      const structure = (await api('/api/records/tables/structure/')).json as unknown as { name: string }[];
      expect(structure.map((t) => t.name)).not.toContain(first.json.decodedName);
    });

    it.each([
      ['a missing base table name', '/api/records/tables/get-variation-name/?parent_id=1', 400],
      ['an unknown base table', '/api/records/tables/get-variation-name/?base_table=nope&parent_id=1', 404],
      ['a missing parent row', '/api/records/tables/get-variation-name/?base_table=products&parent_id=999999', 404],
    ])('answers %s', async (_name, path, status) => {
      const response = await api(path);
      expect(response.status).toBe(status);
      if (status === 400) expect(response.json.detail).toContain('Base table name is required.');
    });
  });

  describe('deleting tables', () => {
    it('refuses to delete a table other tables refer to', async () => {
      const response = await post('/api/records/tables/products/delete/');
      expect(response.status).toBe(409);
      expect(response.json.detail).toContain('referenced by');
    });

    it('drops the real table', async () => {
      const table = await createTable([{ key: 'x', type: 'TextField' }]);
      expect((await post(`/api/records/tables/${table.encodedName}/delete/`)).status).toBe(200);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = 'data' and table_name = ${table.encodedName}`.execute(server.database.db);
      expect(rows[0]?.n).toBe(0);
      expect((await api(`/api/records/tables/${table.encodedName}/data/`)).status).toBe(404);
    });
  });

  describe('name encoding', () => {
    it('encodes and decodes one name or a batch', async () => {
      const one = await api('/api/records/encode/', { text: 'Sales #2' });
      expect(one.json).toEqual({ encoded: '$53$ales$20$$23$2' });
      expect((await api('/api/records/decode/', { text: one.json.encoded })).json).toEqual({ decoded: 'Sales #2' });
      const batch = await api('/api/records/encode/', { texts: ['a', 'B'] });
      expect(batch.json).toEqual({ encoded: ['a', '$42$'] });
    });

    it('reports failures in the error field', async () => {
      const bad = await api('/api/records/decode/', { text: 'Not Encoded' });
      expect(bad.status).toBe(200);
      expect(bad.json.error).toContain('not an encoded table name');
      const batch = await api('/api/records/decode/', { texts: ['ok', 'BAD'] });
      expect(batch.json.decoded).toEqual(['ok', null]);
      expect(batch.json.error).toBeTruthy();
    });
  });
});
