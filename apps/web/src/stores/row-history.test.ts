// @vitest-environment node
// The undo history with the real tables store against a real loopback HTTP server that keeps two
// small tables the way the records API does (edits, adds, deletes refused while referred to).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TableRow } from '@stockwise/contract';
import { api } from '../api/http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { initialTablesState, useTablesStore } from './tables.ts';
import { historyLimit, initialRowHistoryState, sameStoredValue, useRowHistoryStore } from './row-history.ts';

type Call = { method: string; path: string; query: URLSearchParams; body: Record<string, unknown> | null };

let loopback: Loopback;
let calls: Call[] = [];
let data: Record<string, TableRow[]> = {};
let nextId = 100;
/** Rows something refers to (their delete is refused with a 409, as the server does). */
let referred = new Set<number>();
/** Rows never counted (unknown_values), by id. */
let notCounted = new Set<number>();

const columns = [
  { key: 'id', label: 'ID', type: 'AutoField', read_only: true },
  { key: 'product_code', label: 'Product code', type: 'CharField' },
  { key: 'current_stock', label: 'Current stock', type: 'IntegerField' },
  { key: 'unit_cost', label: 'Unit cost', type: 'DecimalField' },
];
const tables = [
  { name: 'products', folder: '', encodedName: 'products', displayName: 'products' },
  { name: 'suppliers', folder: '', encodedName: 'suppliers', displayName: 'suppliers' },
];
/** The server's spelling of a decimal: two places. */
const stored = (values: Record<string, unknown>): TableRow =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, key === 'unit_cost' && value !== null ? Number(value).toFixed(2) : (value as TableRow[string])]));

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const sent = body ? (JSON.parse(body) as Record<string, unknown>) : null;
    calls.push({ method: request.method ?? '', path, query: url.searchParams, body: sent });
    const table = /^\/api\/records\/tables\/([^/]+)\//.exec(path)?.[1] ?? '';
    const rows = data[table] ?? [];
    if (path === '/api/records/tables/structure/') return sendJson(response, 200, tables);
    if (path === '/api/records/folders/') return sendJson(response, 200, { folders: [] });
    if (path.endsWith('/variation-columns/')) return sendJson(response, 200, { columns });
    if (path.endsWith('/data/')) {
      const filter = url.searchParams.get('filters_json');
      const id = filter ? (JSON.parse(filter) as { id: { equals: number } }).id.equals : null;
      const results = id === null ? rows : rows.filter((row) => row['id'] === id);
      const unknown = results.filter((row) => notCounted.has(Number(row['id'])));
      const notes = unknown.length ? { unknown_values: { current_stock: Object.fromEntries(unknown.map((row) => [String(row['id']), 'not_counted'])) } } : {};
      return sendJson(response, 200, { results, count: results.length, count_is_estimate: false, next: null, previous: null, ...notes });
    }
    const referencesOf = /\/rows\/(\d+)\/references\/$/.exec(path);
    if (referencesOf) {
      const row = rows.find((candidate) => candidate['id'] === Number(referencesOf[1]));
      return sendJson(response, 200, { references: [], total: 0, label: row?.['product_code'] ? `${String(row['product_code'])} — Heat lamp` : null });
    }
    if (path.endsWith('/rows/add/') && sent) {
      const row = stored({ id: nextId++, ...sent });
      data[table] = [...rows, row];
      return sendJson(response, 201, row);
    }
    if (path.endsWith('/rows/edit/') && sent) {
      const index = rows.findIndex((row) => row['id'] === sent['id']);
      if (index < 0) return sendJson(response, 404, { detail: `Row ${String(sent['id'])} not found.`, code: 'not_found' });
      const row = stored({ ...rows[index], ...sent });
      rows[index] = row;
      return sendJson(response, 200, row);
    }
    if (path.endsWith('/rows/delete/') && sent) {
      const id = Number(sent['id']);
      if (referred.has(id) && sent['cascade'] !== true) {
        return sendJson(response, 409, { detail: `HEA-2 — Heat lamp (row ${id} of 'products') is referred to by 1 row of 'stock_snapshots'.`, code: 'conflict' });
      }
      data[table] = rows.filter((row) => row['id'] !== id);
      return sendJson(response, 200, { success: true, message: 'Row deleted.' });
    }
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});

afterAll(() => loopback.close());

beforeEach(async () => {
  calls = [];
  nextId = 100;
  referred = new Set();
  notCounted = new Set();
  data = {
    products: [
      { id: 1, product_code: 'HEA-1001', current_stock: 40, unit_cost: '2.40' },
      { id: 2, product_code: 'HEA-1002', current_stock: 0, unit_cost: '1.00' },
    ],
    suppliers: [{ id: 1, product_code: 'SUP-1', current_stock: 5, unit_cost: null }],
  };
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useTablesStore.setState(initialTablesState);
  useRowHistoryStore.setState(initialRowHistoryState);
  await useTablesStore.getState().loadStructure();
  await useTablesStore.getState().selectTable('products');
});

const history = () => useRowHistoryStore.getState();
const gridRow = (id: number) => useTablesStore.getState().rows.find((row) => row['id'] === id);
const serverRow = (table: string, id: number) => data[table]?.find((row) => row['id'] === id);
const writes = () => calls.filter((call) => call.method === 'POST').map((call) => ({ path: call.path.replace(/^\/api\/records\/tables\//, ''), body: call.body }));

async function editStock(id: number, stock: number) {
  const before = gridRow(id);
  if (!before) throw new Error(`row ${id} is not in the grid`);
  const result = await history().editRow({ id, current_stock: stock }, before);
  expect(result.ok).toBe(true);
}

describe('row history', () => {
  it('undoes an edit by writing the old value back through the edit call, after reading the row afresh; redo writes the edit again', async () => {
    await editStock(1, 35);
    expect(history().outcome).toMatchObject({ text: 'Saved HEA-1001 — Heat lamp.', offer: 'undo', refused: false });
    calls = [];

    expect(await history().undo()).toBe(true);
    expect(calls.map((call) => `${call.method} ${call.path}`).slice(0, 2)).toEqual(['GET /api/records/tables/products/data/', 'POST /api/records/tables/products/rows/edit/']);
    expect(calls[0]?.query.get('filters_json')).toBe('{"id":{"equals":1}}');
    expect(writes()).toEqual([{ path: 'products/rows/edit/', body: { id: 1, current_stock: 40 } }]);
    expect(serverRow('products', 1)?.['current_stock']).toBe(40);
    // The grid was read again from the server.
    expect(gridRow(1)?.['current_stock']).toBe(40);
    expect(history().outcome).toMatchObject({ text: 'Undone: Current stock of HEA-1001 — Heat lamp back to 40.', offer: 'redo', refused: false });
    expect(history().histories['products']).toMatchObject({ done: [], undone: [{ kind: 'edit', rowId: 1 }] });

    calls = [];
    expect(await history().redo()).toBe(true);
    expect(writes()).toEqual([{ path: 'products/rows/edit/', body: { id: 1, current_stock: 35 } }]);
    expect(gridRow(1)?.['current_stock']).toBe(35);
    expect(history().outcome?.text).toBe('Redone: Current stock of HEA-1001 — Heat lamp to 35.');
    expect(history().histories['products']).toMatchObject({ done: [{ kind: 'edit' }], undone: [] });
    // Nothing left to redo.
    expect(await history().redo()).toBe(false);
  });

  it('undoes only the fields the edit changed, the last edit first', async () => {
    const before = gridRow(1);
    if (!before) throw new Error('no row 1');
    await history().editRow({ id: 1, current_stock: 50, unit_cost: '3' }, before);
    await editStock(2, 7);
    calls = [];
    await history().undo();
    expect(writes()).toEqual([{ path: 'products/rows/edit/', body: { id: 2, current_stock: 0 } }]);
    calls = [];
    await history().undo();
    expect(writes()).toEqual([{ path: 'products/rows/edit/', body: { id: 1, current_stock: 40, unit_cost: '2.40' } }]);
    expect(history().outcome?.text).toBe('Undone: your edit of HEA-1001 — Heat lamp (2 fields).');
  });

  it('leaves a row changed since the edit as it is, and says what changed', async () => {
    await editStock(1, 42);
    // Someone else (another user, an import) counts 35 meanwhile.
    const row = serverRow('products', 1);
    if (row) row['current_stock'] = 35;
    calls = [];

    expect(await history().undo()).toBe(false);
    expect(history().outcome).toMatchObject({ text: 'HEA-1001 — Heat lamp was changed since your edit (Current stock 42 → 35): not undone.', refused: true, offer: null });
    expect(writes()).toEqual([]);
    expect(serverRow('products', 1)?.['current_stock']).toBe(35);
    // The grid shows what the server holds; the edit stays in the history.
    expect(gridRow(1)?.['current_stock']).toBe(35);
    expect(history().histories['products']?.done).toHaveLength(1);
  });

  it('says a row deleted since cannot be undone', async () => {
    await editStock(2, 9);
    data['products'] = data['products']?.filter((row) => row['id'] !== 2) ?? [];
    expect(await history().undo()).toBe(false);
    expect(history().outcome?.text).toBe('HEA-1002 — Heat lamp is no longer in the table: not undone.');
  });

  it('reads a decimal as the same value however the server spells it', () => {
    expect(sameStoredValue('2.40', 2.4)).toBe(true);
    expect(sameStoredValue('', null)).toBe(true);
    expect(sameStoredValue('2026-12-03T10:00:00Z', '2026-12-03T10:00:00.000Z')).toBe(true);
    expect(sameStoredValue('2.40', '2.41')).toBe(false);
    expect(sameStoredValue(0, null)).toBe(false);
    expect(sameStoredValue(true, 'true')).toBe(true);
    expect(sameStoredValue(false, 0)).toBe(false);
  });

  it('undoes an add by deleting the row (never with cascade), and redo adds it again', async () => {
    const added = await history().addRow({ product_code: 'HEA-2000', current_stock: '3' });
    expect(added.ok).toBe(true);
    expect(history().outcome?.text).toBe('Added HEA-2000 — Heat lamp.');
    calls = [];
    expect(await history().undo()).toBe(true);
    expect(writes()).toEqual([{ path: 'products/rows/delete/', body: { id: 100 } }]);
    expect(gridRow(100)).toBeUndefined();
    expect(history().outcome?.text).toBe('Undone: adding HEA-2000 — Heat lamp.');

    calls = [];
    expect(await history().redo()).toBe(true);
    expect(writes()).toEqual([{ path: 'products/rows/add/', body: { product_code: 'HEA-2000', current_stock: '3' } }]);
    expect(gridRow(101)?.['product_code']).toBe('HEA-2000');
    // Undone again, the row added by the redo goes.
    calls = [];
    await history().undo();
    expect(writes()).toEqual([{ path: 'products/rows/delete/', body: { id: 101 } }]);
  });

  it("says the server's refusal when the added row is now referred to, and keeps it", async () => {
    await history().addRow({ product_code: 'HEA-2000' });
    referred.add(100);
    expect(await history().undo()).toBe(false);
    expect(history().outcome).toMatchObject({ text: "Could not undo: HEA-2 — Heat lamp (row 100 of 'products') is referred to by 1 row of 'stock_snapshots'.", refused: true });
    expect(serverRow('products', 100)).toBeDefined();
    expect(history().histories['products']?.done).toHaveLength(1);
  });

  it('does not offer to undo a first count of a product never counted (it would record a count of 0)', async () => {
    notCounted.add(2);
    await useTablesStore.getState().refreshRows();
    await editStock(2, 12);
    expect(history().outcome).toMatchObject({ text: 'Saved HEA-1002 — Heat lamp.', offer: null });
    expect(history().histories['products']?.done ?? []).toEqual([]);
  });

  it('keeps each table its own history when switching, and a new change ends what could be redone', async () => {
    await editStock(1, 30);
    await useTablesStore.getState().selectTable('suppliers');
    // Nothing done on suppliers: Ctrl+Z there changes nothing on products.
    expect(await history().undo()).toBe(false);
    const supplier = gridRow(1);
    if (!supplier) throw new Error('no supplier');
    await history().editRow({ id: 1, current_stock: 6 }, supplier);
    await useTablesStore.getState().selectTable('products');
    expect(await history().undo()).toBe(true);
    expect(serverRow('products', 1)?.['current_stock']).toBe(40);
    expect(serverRow('suppliers', 1)?.['current_stock']).toBe(6);
    expect(history().histories['products']?.undone).toHaveLength(1);
    await editStock(2, 4);
    expect(history().histories['products']?.undone).toEqual([]);
  });

  it(`keeps the last ${historyLimit} changes of a table`, async () => {
    for (let stock = 1; stock <= historyLimit + 2; stock++) await editStock(1, stock);
    const done = history().histories['products']?.done ?? [];
    expect(done).toHaveLength(historyLimit);
    expect(done[0]).toMatchObject({ fields: [{ before: 2, after: 3 }] });
  });

  it('forgets every history when the user signs out', async () => {
    await editStock(1, 30);
    useSessionStore.getState().logout();
    expect(history().histories).toEqual({});
    expect(history().outcome).toBeNull();
  });
});
