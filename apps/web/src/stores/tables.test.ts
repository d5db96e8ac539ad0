// @vitest-environment node
// The tables store against a real loopback HTTP server playing the /api/records/* endpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TableRow } from '@stockwise/contract';
import { DEFAULT_PAGE_SIZE } from '@stockwise/contract';
import { api } from '../api/http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { defaultPageSize, initialTablesState, joinTail, useTablesStore, type TablesStore } from './tables.ts';

type Call = { method: string; path: string; query: URLSearchParams; body: unknown };

let loopback: Loopback;
let calls: Call[] = [];
/** Answers held back until released, to look at the flags mid-request. */
let hold: Promise<void> | null = null;
let failData: { status: number; body: unknown } | null = null;
let failAdd: { status: number; body: unknown } | null = null;
const allRows: TableRow[] = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, name: `Item ${i + 1}` }));
const tables = [
  { name: 'Stock items', folder: 'Inventory', encodedName: 'stock$20$items', displayName: 'Stock items' },
  { name: 'loose', folder: '', encodedName: 'loose', displayName: 'loose' },
  { name: 'stale', folder: '', encodedName: 'stale', displayName: 'stale' },
];

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback(async (request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    calls.push({ method: request.method ?? '', path: decodeURIComponent(url.pathname), query: url.searchParams, body: body ? JSON.parse(body) : null });
    if (hold) await hold;
    const path = decodeURIComponent(url.pathname);
    if (path === '/api/records/tables/structure/') return sendJson(response, 200, tables);
    if (path === '/api/records/folders/') return sendJson(response, 200, { folders: ['Inventory'] });
    if (path.endsWith('/variation-columns/')) {
      if (path.includes('gone')) return sendJson(response, 404, { detail: "Table 'gone' not found", code: 'not_found' });
      return sendJson(response, 200, {
        columns: [
          { key: 'id', label: 'ID', type: 'AutoField', read_only: true },
          { key: 'name', label: 'Name', type: 'CharField', read_only: false, required: true },
          { key: 'qty', label: 'Qty', type: 'IntegerField', read_only: false },
        ],
      });
    }
    if (path.endsWith('/export/')) {
      if (url.searchParams.get('filters_json') === '{"qty":{"gte":99}}') return sendJson(response, 400, { detail: "Invalid filter for column 'qty': no.", code: 'validation_error' });
      if (url.searchParams.get('format') === 'xlsx') {
        response.writeHead(200, { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
        response.end(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]));
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
      response.end('\uFEFFID,Name,Qty\r\n1,Item 1,\r\n');
      return;
    }
    if (path.endsWith('/data/')) {
      if (failData) return sendJson(response, failData.status, failData.body);
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 50);
      const results = allRows.slice((page - 1) * size, page * size);
      // 'stale' plays a table that grew after its statistics were taken: the server's estimated
      // count (60) ends its next links before the 120 rows do.
      const stale = path.includes('stale');
      const count = stale ? 60 : allRows.length;
      if (url.searchParams.get('from_end') === 'true') {
        const last = allRows.slice(-size);
        return sendJson(response, 200, { results: last, count, count_is_estimate: stale, next: null, previous: null, offset: Math.max(0, count - last.length) });
      }
      const more = page * size < count;
      const next = more ? `/api/records/tables/stock$20$items/data/?page=${page + 1}&page_size=${size}&sort_dir=asc&after=cursor${page}` : null;
      return sendJson(response, 200, { results, count, count_is_estimate: stale, next, previous: null });
    }
    if (path.endsWith('/rows/add/')) {
      if (failAdd) return sendJson(response, failAdd.status, failAdd.body);
      return sendJson(response, 201, { id: 999, name: 'new' });
    }
    if (path.endsWith('/rows/7/references/')) return sendJson(response, 200, { references: [{ table: 'sales', count: 2 }, { table: 'forecasts', count: 1 }], total: 3 });
    if (path.endsWith('/rows/delete/')) {
      const { id } = JSON.parse(body) as { id: number };
      if (id === 7) return sendJson(response, 200, { success: true, message: 'Row deleted.' });
      return sendJson(response, 404, { detail: 'Row 5 not found.', code: 'not_found' });
    }
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});

afterAll(() => loopback.close());

beforeEach(() => {
  calls = [];
  hold = null;
  failData = null;
  failAdd = null;
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useTablesStore.setState(initialTablesState);
});

const state = (): TablesStore => useTablesStore.getState();
const dataCalls = () => calls.filter((call) => call.path.endsWith('/data/'));

async function flagsDuring(start: () => Promise<unknown>, pick: (s: TablesStore) => unknown) {
  let release!: () => void;
  hold = new Promise<void>((resolve) => (release = resolve));
  const running = start();
  await new Promise<void>((resolve) => {
    const check = () => (calls.length > 0 ? resolve() : setImmediate(check));
    check();
  });
  const during = pick(state());
  hold = null;
  release();
  await running;
  return { during, after: pick(state()) };
}

describe('tables store', () => {
  it('uses the spec page size (50)', () => {
    expect(defaultPageSize).toBe(DEFAULT_PAGE_SIZE);
    expect(state().pageSize).toBe(50);
  });

  it('skips loading until the session has loaded and the user is logged in', async () => {
    useSessionStore.setState({ isLoading: true });
    await state().loadStructure();
    useSessionStore.setState({ isLoading: false, isLoggedIn: false });
    await state().loadStructure();
    expect(calls).toHaveLength(0);
  });

  it('loadStructure: loading set at start and cleared at end, error cleared at start', async () => {
    useTablesStore.setState({ error: 'old' });
    const flags = await flagsDuring(() => state().loadStructure(), (s) => ({ isLoading: s.isLoading, error: s.error }));
    expect(flags.during).toEqual({ isLoading: true, error: null });
    expect(flags.after).toEqual({ isLoading: false, error: null });
    expect(state().tables.map((t) => t.name)).toEqual(['Stock items', 'loose', 'stale']);
    expect(state().folders).toEqual(['Inventory']);
  });

  it('selecting a table resets sort, filters and data and loads page 1 of 50 by the encoded name', async () => {
    await state().loadStructure();
    useTablesStore.setState({ sort: { sortBy: 'name', sortDir: 'desc' }, filters: { name: 'x' }, rows: [{ id: 1 }] });
    const flags = await flagsDuring(() => state().selectTable('Stock items'), (s) => ({ loading: s.isLoadingRows, rowsError: s.rowsError, rows: s.rows.length, sort: s.sort, filters: s.filters }));
    expect(flags.during).toEqual({ loading: true, rowsError: null, rows: 0, sort: { sortBy: null, sortDir: 'asc' }, filters: {} });
    expect(flags.after).toMatchObject({ loading: false, rowsError: null, rows: 50 });
    const [call] = dataCalls();
    expect(call?.path).toBe('/api/records/tables/stock$20$items/data/');
    // jsdom's browser speaks en-US: the viewer's date order goes with every page and export (ADR 0167).
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ page: '1', page_size: '50', sort_dir: 'asc', date_order: 'month-first' });
    expect(state().count).toBe(120);
    expect(state().columns.map((c) => c.key)).toEqual(['id', 'name', 'qty']);
  });

  it('follows next links while a next page exists, then stops', async () => {
    await state().loadStructure();
    await state().selectTable('Stock items');
    await state().loadMore();
    expect(Object.fromEntries(dataCalls()[1]?.query ?? [])).toEqual({ page: '2', page_size: '50', sort_dir: 'asc', after: 'cursor1' });
    await state().loadMore();
    expect(state().rows).toHaveLength(120);
    expect(state().next).toBeNull();
    await state().loadMore();
    expect(dataCalls()).toHaveLength(3);
  });

  it('sorting and filtering reload from page 1 with sort_by/sort_dir and filters_json', async () => {
    await state().loadStructure();
    await state().selectTable('Stock items');
    await state().loadMore();
    await state().toggleSort('name');
    expect(state().rows).toHaveLength(50);
    expect(Object.fromEntries(dataCalls().at(-1)?.query ?? [])).toEqual({ page: '1', page_size: '50', sort_by: 'name', sort_dir: 'asc', date_order: 'month-first' });
    await state().toggleSort('name');
    expect(dataCalls().at(-1)?.query.get('sort_dir')).toBe('desc');
    await state().setFilter('name', 'Item 1');
    expect(dataCalls().at(-1)?.query.get('filters_json')).toBe('{"name":"Item 1"}');
    expect(dataCalls().at(-1)?.query.get('sort_by')).toBe('name');
    await state().setFilter('name', '');
    expect(dataCalls().at(-1)?.query.has('filters_json')).toBe(false);
    expect(state().filters).toEqual({});
  });

  it('sends a number filter typed as <10 or 5-20 as a range; keeps a text it cannot read out of the request, and the rows as they were', async () => {
    await state().loadStructure();
    await state().selectTable('Stock items');
    await state().setFilter('qty', '<10');
    expect(dataCalls().at(-1)?.query.get('filters_json')).toBe('{"qty":{"lt":10}}');
    await state().setFilter('qty', ' 20-5 ');
    expect(dataCalls().at(-1)?.query.get('filters_json')).toBe('{"qty":{"gte":5,"lte":20}}');
    const before = dataCalls().length;
    const rows = state().rows;
    await state().setFilter('qty', '<1x');
    expect(dataCalls()).toHaveLength(before);
    expect(state().filterProblems).toEqual({ qty: { problem: 'wholeNumber', text: '<1x' } });
    expect(state().filters).toEqual({ qty: ' 20-5 ' });
    expect(state().rows).toBe(rows);
    expect(state().rowsError).toBeNull();
    // Another column's filter still goes out with the one in force; clearing the box clears the hint and the filter.
    await state().setFilter('name', 'Item');
    expect(dataCalls().at(-1)?.query.get('filters_json')).toBe('{"qty":{"gte":5,"lte":20},"name":"Item"}');
    expect(state().filterProblems).toEqual({ qty: { problem: 'wholeNumber', text: '<1x' } });
    await state().setFilter('qty', '');
    expect(dataCalls().at(-1)?.query.get('filters_json')).toBe('{"name":"Item"}');
    expect(state().filterProblems).toEqual({});
    await state().selectTable('Stock items');
    expect(state().filterProblems).toEqual({});
  });

  it('exports the rows of the sort and filters in force as CSV or .xlsx, byte for byte, and says why when refused', async () => {
    await state().loadStructure();
    await state().selectTable('Stock items');
    await state().toggleSort('name');
    await state().setFilter('qty', '>=5');
    const csv = await state().exportRows('csv');
    if (!csv.ok) throw new Error(csv.message);
    // The server's byte order mark is kept: Excel needs it, and nothing adds a second one.
    expect([...new Uint8Array(await csv.value.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await csv.value.text()).toBe('ID,Name,Qty\r\n1,Item 1,\r\n');
    expect(csv.value.type).toBe('text/csv;charset=utf-8');
    let call = calls.at(-1);
    expect(call?.path).toBe('/api/records/tables/stock$20$items/export/');
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ sort_by: 'name', sort_dir: 'asc', date_order: 'month-first', filters_json: '{"qty":{"gte":5}}', format: 'csv' });
    const workbook = await state().exportRows('xlsx');
    if (!workbook.ok) throw new Error(workbook.message);
    expect([...new Uint8Array(await workbook.value.arrayBuffer())]).toEqual([0x50, 0x4b, 0x03, 0x04, 0xff]);
    expect(workbook.value.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    call = calls.at(-1);
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ sort_by: 'name', sort_dir: 'asc', date_order: 'month-first', filters_json: '{"qty":{"gte":5}}', format: 'xlsx' });
    await state().setFilter('qty', '>=99');
    expect(await state().exportRows('csv')).toEqual({ ok: false, message: "Failed to download CSV: Invalid filter for column 'qty': no.", fieldErrors: {} });
    expect(await state().exportRows('xlsx')).toEqual({ ok: false, message: "Failed to download the Excel file: Invalid filter for column 'qty': no.", fieldErrors: {} });
  });

  it("shows 'Failed to fetch table data' with the server's detail", async () => {
    await state().loadStructure();
    failData = { status: 500, body: { detail: 'boom', code: 'internal_error' } };
    await state().selectTable('Stock items');
    expect(state().rowsError).toBe('Failed to fetch table data: boom');
    expect(state().isLoadingRows).toBe(false);
  });

  it("says Table '{name}' not found for an unknown table", async () => {
    await state().loadStructure();
    await state().selectTable('nope');
    expect(state().rowsError).toBe("Table 'nope' not found");
    useTablesStore.setState({ tables: [...state().tables, { name: 'gone', folder: '', encodedName: 'gone', displayName: 'gone' }] });
    await state().selectTable('gone');
    expect(state().rowsError).toBe("Table 'gone' not found");
  });

  it("adds a row; a 400 is 'Invalid row data: ' + the server message with the field errors", async () => {
    expect(await state().addRow({ name: 'x' })).toEqual({ ok: false, message: 'No table selected to add row.', fieldErrors: {} });
    await state().loadStructure();
    await state().selectTable('Stock items');
    failAdd = { status: 400, body: { detail: 'name: This field is required.', code: 'validation_error', errors: { name: ['This field is required.'] } } };
    const flags = await flagsDuring(() => state().addRow({}), (s) => ({ isSaving: s.isSaving, saveError: s.saveError }));
    expect(flags.during).toEqual({ isSaving: true, saveError: null });
    expect(flags.after).toEqual({ isSaving: false, saveError: 'Invalid row data: name: This field is required.' });
    failAdd = { status: 500, body: { detail: 'disk full', code: 'internal_error' } };
    expect(await state().addRow({ name: 'x' })).toMatchObject({ ok: false, message: 'Failed to add row: disk full' });
    // A conflict marks the fields it names.
    const taken = "'Stock items' already has a row for Name x: edit that row instead.";
    failAdd = { status: 409, body: { detail: taken, code: 'conflict', errors: { name: [taken] } } };
    expect(await state().addRow({ name: 'x' })).toEqual({ ok: false, message: `Failed to add row: ${taken}`, fieldErrors: { name: [taken] } });
    failAdd = null;
    calls = [];
    expect(await state().addRow({ name: 'x' })).toMatchObject({ ok: true });
    expect(calls.map((c) => c.path)).toEqual(['/api/records/tables/stock$20$items/rows/add/', '/api/records/tables/stock$20$items/data/']);
  });

  it('edit needs a table and a row id; delete needs a table', async () => {
    expect(await state().editRow({ id: 1 })).toMatchObject({ ok: false, message: 'No table selected or missing row ID for edit.' });
    expect(await state().deleteRow(1)).toMatchObject({ ok: false, message: 'No table selected to delete row from.' });
    await state().loadStructure();
    await state().selectTable('Stock items');
    expect(await state().editRow({ name: 'x' })).toMatchObject({ ok: false, message: 'No table selected or missing row ID for edit.' });
    expect(await state().deleteRow(5)).toMatchObject({ ok: false, message: 'Failed to delete row: Row 5 not found.' });
  });

  it('asks what refers to a row, and asks for the cascade only when told to', async () => {
    await state().loadStructure();
    await state().selectTable('Stock items');
    calls = [];
    expect(await state().rowReferences(7)).toEqual({ ok: true, value: { references: [{ table: 'sales', count: 2 }, { table: 'forecasts', count: 1 }], total: 3 } });
    expect(calls.map((call) => call.path)).toEqual(['/api/records/tables/stock$20$items/rows/7/references/']);
    expect(await state().rowReferences(5)).toMatchObject({ ok: false, message: 'Failed to check what refers to the row: no route' });
    expect(await state().deleteRow(7, { cascade: true })).toEqual({ ok: true, value: null });
    expect(await state().deleteRow(7)).toEqual({ ok: true, value: null });
    expect(calls.filter((call) => call.path.endsWith('/rows/delete/')).map((call) => call.body)).toEqual([{ id: 7, cascade: true }, { id: 7 }]);
  });

  it('refuses an empty table name and folder path before calling', async () => {
    expect(await state().createTable({ name: '  ', folder: '' })).toMatchObject({ ok: false, message: 'Table name is required.' });
    expect(await state().createFolder(' / ')).toMatchObject({ ok: false, message: 'Folder path is required.' });
    expect(calls).toHaveLength(0);
    expect(await state().createTable({ name: 'x', folder: '' })).toMatchObject({ ok: false, message: 'Failed to create table: no route' });
  });
});

describe('the end of a large table', () => {
  const ids = (rows: readonly TableRow[]) => rows.map((row) => row['id']);

  it('reads the last page with one from_end request, and joins it when the pages from the top reach it', async () => {
    await state().loadStructure();
    state().setPageSize(20);
    await state().selectTable('Stock items');
    await state().loadEnd();
    expect(dataCalls().map((call) => call.query.get('from_end'))).toEqual([null, 'true']);
    // A screenful at least, however small the page size: 100 rows.
    expect(dataCalls()[1]?.query.get('page_size')).toBe('100');
    expect(state()).toMatchObject({ tailOffset: 20, hasMore: true });
    expect(ids(state().rows)).toEqual(ids(allRows.slice(0, 20)));
    expect(ids(state().tail)).toEqual(ids(allRows.slice(20)));
    // Asked again while it is there: nothing more is read.
    await state().loadEnd();
    expect(dataCalls()).toHaveLength(2);
    await state().loadMore();
    // Row 21 arrived from the top: the table is whole, the tail is gone, nothing left to ask.
    expect(ids(state().rows)).toEqual(ids(allRows));
    expect(state()).toMatchObject({ tail: [], hasMore: false, next: null });
  });

  it('reads nothing from the end of a table that is already whole', async () => {
    await state().loadStructure();
    state().setPageSize(500);
    await state().selectTable('Stock items');
    await state().loadEnd();
    expect(dataCalls()).toHaveLength(1);
    expect(state().tail).toEqual([]);
  });

  it('keeps the last rows apart until the rows from the top contain their first row', () => {
    const head = allRows.slice(0, 30);
    const tail = allRows.slice(100);
    expect(joinTail(head, true, 'next', tail, 90)).toMatchObject({ rows: head, tail, tailOffset: 90, hasMore: true });
    // The top ran out first (the count was an estimate): whatever the tail adds is appended, without repeats.
    expect(ids(joinTail(allRows.slice(0, 110), false, null, tail, 100).rows)).toEqual(ids(allRows));
  });
});

