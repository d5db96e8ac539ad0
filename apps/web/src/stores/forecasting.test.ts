// @vitest-environment node
// The forecasting store against a real loopback HTTP server playing /api/forecasting/* and the
// products table: flags, the §8 messages, and a regeneration run with an injected sleep.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/http.ts';
import { invalidateProductForecast } from '../api/forecasting.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { forecastFixture } from '../pages/forecasting/fixtures.test-data.ts';
import { useSessionStore } from './session.ts';
import { initialForecastingState, useForecastingStore } from './forecasting.ts';

let loopback: Loopback;
let paths: string[] = [];
/** The query of each latest-report call. */
let queries: Record<string, string>[] = [];
let fail: Record<string, number> = {};
const widgetRow = { id: 1, product_code: 'W-1', name: 'Widget', current_stock: 12, unit_cost: 2.5, lead_time_days: 7 };
let productRows: object[] = [widgetRow];
let statuses: unknown[] = [];
let generationAnswer: unknown = { task_id: 'task-9' };
let reportAnswer: unknown = { success: false, message: 'No latest report available...' };
const noSleep = { sleep: async () => {}, log: () => {} };

const report = {
  id: 'r', type: 'inventory', title: 'Inventory forecast report', productCode: null, timestamp: '2026-01-04T00:00:00.000Z', forecast_days: 90,
  products: [{ styleCode: 'W-1', name: 'Widget', currentStock: 12, unitCost: 2.5, firstStockout: '2026-01-05', stockoutType: 'stockForecast', reorderPoint: 20, orderQuantity: 40, orderBy: '2026-01-04', model: 'SES' }],
};

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, _body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    paths.push(path);
    if (path === '/api/forecasting/latest-report/') queries.push(Object.fromEntries(url.searchParams));
    const failure = Object.entries(fail).find(([prefix]) => path.startsWith(prefix));
    if (failure) return sendJson(response, failure[1], { detail: 'server says no', code: 'nope' });
    if (path === '/api/records/tables/products/data/') return sendJson(response, 200, { results: productRows, count: productRows.length, next: null });
    if (path.startsWith('/api/forecasting/forecasts/W-1')) return sendJson(response, 200, forecastFixture());
    if (path.startsWith('/api/forecasting/forecasts/')) return sendJson(response, 404, { detail: `Product '${path.split('/').pop()}' not found.`, code: 'not_found' });
    if (path === '/api/forecasting/latest-report/') return sendJson(response, 200, reportAnswer);
    if (path === '/api/forecasting/request-generation/') return sendJson(response, 200, generationAnswer);
    if (path.startsWith('/api/forecasting/status/')) {
      const next = statuses.shift();
      if (next === 404) return sendJson(response, 404, { detail: 'Task not found', code: 'not_found' });
      return sendJson(response, 200, next);
    }
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(() => loopback.close());

beforeEach(() => {
  paths = [];
  queries = [];
  fail = {};
  productRows = [widgetRow];
  statuses = [];
  generationAnswer = { task_id: 'task-9' };
  reportAnswer = { success: false, message: 'No latest report available...' };
  invalidateProductForecast();
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useForecastingStore.setState(initialForecastingState);
});

const state = () => useForecastingStore.getState();
const results = { style_code: 'W-1', forecast_days: 90, products: 1, failed: [], stockouts: 1, duration_ms: 5 };
const status = (value: string, extra: object = {}) => ({ task_id: 'task-9', status: value, progress: { done: 0, total: 1 }, results: null, error: null, ...extra });

describe('products', () => {
  it('loads page 1 and clears the loading flag', async () => {
    const loading = state().loadProducts();
    expect(state().isLoadingProducts).toBe(true);
    await loading;
    expect(state()).toMatchObject({ isLoadingProducts: false, productsError: null });
    expect(state().products.map((product) => product.styleCode)).toEqual(['W-1']);
  });

  it('knows when the catalogue has no product at all', async () => {
    await state().loadProducts();
    expect(state().catalogueEmpty).toBe(false);
    productRows = [];
    await state().loadProducts();
    expect(state()).toMatchObject({ products: [], catalogueEmpty: true });
  });

  it("knows it also when the picker's blank search supersedes the first load (a slow server)", async () => {
    productRows = [];
    const load = state().loadProducts();
    const search = state().searchProducts('');
    await Promise.all([load, search]);
    expect(state()).toMatchObject({ products: [], catalogueEmpty: true, isLoadingProducts: false });
    // A search that finds nothing says nothing about the catalogue.
    productRows = [widgetRow];
    await state().loadProducts();
    productRows = [];
    await state().searchProducts('nothing like it');
    expect(state().catalogueEmpty).toBe(false);
  });

  it("fails with 'Failed to fetch products'", async () => {
    fail = { '/api/records/': 500 };
    await state().loadProducts();
    expect(state()).toMatchObject({ isLoadingProducts: false, productsError: 'Failed to fetch products' });
  });
});

describe('forecast', () => {
  it('selecting a product loads its forecast', async () => {
    await state().loadProducts();
    const loading = state().selectProduct('W-1');
    expect(state()).toMatchObject({ selectedCode: 'W-1', isLoadingForecast: true, selectedProduct: { name: 'Widget' } });
    await loading;
    expect(state()).toMatchObject({ isLoadingForecast: false, forecastError: null, forecast: { product: { styleCode: 'W-1' } } });
  });

  it("a failed fetch is 'Failed to fetch forecast for {code}' with the server's reason beside it", async () => {
    await state().selectProduct('NOPE');
    expect(state()).toMatchObject({ isLoadingForecast: false, forecast: null, forecastError: 'Failed to fetch forecast for NOPE', forecastErrorDetail: "Product 'NOPE' not found." });
  });

  it("no product: 'No product selected.'", async () => {
    await state().selectProduct('  ');
    expect(state().selectedCode).toBeNull();
    await state().reloadForecast();
    expect(state().forecastError).toBe('No product selected.');
  });

  it('an answer for a product no longer selected is dropped', async () => {
    const first = state().selectProduct('W-1');
    const second = state().selectProduct('NOPE');
    await Promise.all([first, second]);
    expect(state()).toMatchObject({ selectedCode: 'NOPE', forecast: null, forecastError: 'Failed to fetch forecast for NOPE' });
  });
});

describe('low stock', () => {
  it('reads the order advice, its own page and filter, kept for reloads', async () => {
    reportAnswer = { success: true, report };
    await state().loadLowStock({ page: 3, includeInactive: true });
    expect(state()).toMatchObject({ lowStock: { id: 'r' }, lowStockPage: 3, lowStockIncludeInactive: true, lowStockMessage: null, isLoadingLowStock: false });
    // The report's page and filter are its own.
    expect(state()).toMatchObject({ reportPage: 1, reportIncludeInactive: false });
    await state().loadLowStock();
    expect(queries.at(-1)).toEqual({ page: '3', include_inactive: 'true' });
  });

  it("narrows a list to one supplier, or to the products with none, kept for reloads and that list's own (ADR 0184)", async () => {
    reportAnswer = { success: true, report };
    await state().loadLowStock({ page: 1, supplier: 'Acme Wholesale' });
    expect(queries.at(-1)).toEqual({ page: '1', include_inactive: 'false', supplier: 'Acme Wholesale' });
    expect(state()).toMatchObject({ lowStockSupplier: 'Acme Wholesale', reportSupplier: undefined });
    await state().loadLowStock({ page: 2 });
    expect(queries.at(-1)).toEqual({ page: '2', include_inactive: 'false', supplier: 'Acme Wholesale' });
    // No supplier: the parameter blank.
    await state().loadLowStock({ page: 1, supplier: null });
    expect(queries.at(-1)).toEqual({ page: '1', include_inactive: 'false', supplier: '' });
    expect(state().lowStockSupplier).toBeNull();
    // Every supplier again: no parameter.
    await state().loadLowStock({ supplier: undefined });
    expect(queries.at(-1)).toEqual({ page: '1', include_inactive: 'false' });
    await state().loadLatestReport();
    expect(queries.at(-1)).toEqual({ page: '1', include_inactive: 'false' });
  });

  it('takes the supplier filter in the spelling the answer gives its supplier (ADR 0186)', async () => {
    reportAnswer = { success: true, report: { ...report, supplier: 'ACME', suppliers: [{ supplier: 'ACME', count: 1 }] } };
    await state().loadLatestReport({ page: 1, supplier: 'Acme' });
    expect(queries.at(-1)).toEqual({ page: '1', include_inactive: 'false', supplier: 'Acme' });
    expect(state().reportSupplier).toBe('ACME');
    await state().loadLatestReport({ page: 2 });
    expect(queries.at(-1)).toEqual({ page: '2', include_inactive: 'false', supplier: 'ACME' });
  });

  it('opening the screen reads the first page once for both panels', async () => {
    reportAnswer = { success: true, report };
    await Promise.all([state().loadLatestReport(), state().loadLowStock()]);
    expect(queries).toEqual([{ page: '1', include_inactive: 'false' }]);
    expect(state()).toMatchObject({ report: { id: 'r' }, lowStock: { id: 'r' } });
  });

  it("no catalogue forecast yet: the server's message, no list", async () => {
    await state().loadLowStock();
    expect(state()).toMatchObject({ lowStock: null, lowStockMessage: 'No latest report available...', isLoadingLowStock: false, lowStockError: null });
  });

  it("fails with 'Failed to fetch latest report'", async () => {
    fail = { '/api/forecasting/latest-report/': 500 };
    await state().loadLowStock();
    expect(state()).toMatchObject({ isLoadingLowStock: false, lowStockError: 'Failed to fetch latest report' });
  });
});

describe('latest report', () => {
  it("no report: the server's message", async () => {
    await state().loadLatestReport();
    expect(state()).toMatchObject({ report: null, reportMessage: 'No latest report available...', isLoadingReport: false });
  });

  it('a report', async () => {
    reportAnswer = { success: true, report };
    await state().loadLatestReport();
    expect(state()).toMatchObject({ report: { id: 'r' }, reportMessage: null, reportError: null });
  });

  it("fails with 'Failed to fetch latest report'", async () => {
    fail = { '/api/forecasting/latest-report/': 500 };
    await state().loadLatestReport();
    expect(state()).toMatchObject({ reportError: 'Failed to fetch latest report', isLoadingReport: false });
  });
});

describe('regenerate', () => {
  it('product: polls with progress, then reloads the forecast and the report', async () => {
    await state().selectProduct('W-1');
    reportAnswer = { success: true, report };
    statuses = [404, status('pending'), status('running', { progress: { done: 0, total: 1 } }), status('completed', { progress: { done: 1, total: 1 }, results })];
    const seen: string[] = [];
    const unsubscribe = useForecastingStore.subscribe((now) => seen.push(`${now.generation.phase}:${now.generation.status ?? ''}`));
    await state().regenerate('product', noSleep);
    unsubscribe();
    expect(seen).toContain('running:not_found');
    expect(seen).toContain('running:running');
    expect(state().generation).toMatchObject({ phase: 'done', scope: 'product', styleCode: 'W-1', progress: { done: 1, total: 1 }, results, error: null });
    expect(paths.filter((path) => path === '/api/forecasting/forecasts/W-1')).toHaveLength(2);
    expect(state().report).toMatchObject({ id: 'r' });
  });

  it('keeps what the server says of a run restarted after it stopped, to the end of the run', async () => {
    const restart = { stopped_at: '2026-12-05T14:02:00.000Z', done_before: 1200, total: 3000, resumed: true, message: 'Restarted after the server stopped at 14:02 UTC; 1,200 of 3,000 products were done before and are not forecast again.' };
    statuses = [status('running', { progress: { done: 1500, total: 3000 }, restart }), status('completed', { progress: { done: 3000, total: 3000 }, results, restart })];
    await state().regenerate('all', noSleep);
    expect(state().generation).toMatchObject({ phase: 'done', restart: restart.message });
    statuses = [status('completed', { results })];
    await state().regenerate('all', noSleep);
    expect(state().generation.restart).toBeNull();
  });

  it('failed: the task error, else the §8 message', async () => {
    await state().selectProduct('W-1');
    statuses = [status('failed')];
    await state().regenerate('all', noSleep);
    expect(state().generation).toMatchObject({ phase: 'error', scope: 'all', error: 'Report generation failed.' });
    statuses = [status('completed')];
    await state().regenerate('all', noSleep);
    expect(state().generation.error).toBe('Generation completed but results were missing.');
  });

  it('times out after 60 polls', async () => {
    statuses = Array.from({ length: 60 }, () => status('running'));
    await state().regenerate('all', noSleep);
    expect(state().generation).toMatchObject({ phase: 'error', error: 'Report generation timed out.' });
    expect(paths.filter((path) => path.startsWith('/api/forecasting/status/'))).toHaveLength(60);
  });

  it("start failures: 'Failed to start report generation', a missing task_id, no product", async () => {
    fail = { '/api/forecasting/request-generation/': 500 };
    await state().regenerate('all', noSleep);
    expect(state().generation).toMatchObject({ phase: 'error', error: 'Failed to start report generation' });
    fail = {};
    generationAnswer = { id: 'x' };
    await state().regenerate('all', noSleep);
    expect(state().generation.error).toBe('API response missing task_id for report generation');
    await state().regenerate('product', noSleep);
    expect(state().generation.error).toBe('No product selected.');
  });

  it('ignores a second run while one is running', async () => {
    statuses = [status('completed', { results })];
    const first = state().regenerate('all', noSleep);
    const second = state().regenerate('all', noSleep);
    await Promise.all([first, second]);
    expect(paths.filter((path) => path === '/api/forecasting/request-generation/')).toHaveLength(1);
  });
});

describe('an order recorded from the lists (ADR 0182)', () => {
  // Arriving next January: written with its year, whatever today is.
  const recorded = { styleCode: 'W-1', name: 'Widget', unit: null, ordered: 40, expectedDate: `${new Date().getUTCFullYear() + 1}-01-11`, delivery: { id: 1, quantity: 40 }, taskId: 'task-9' };
  const said = `Recorded: 40 Widget arriving 11 Jan ${new Date().getUTCFullYear() + 1}.`;

  it("reads the lists and the product's advice again once its run ends, and says what the advice is now", async () => {
    reportAnswer = { success: true, report };
    useForecastingStore.setState({ ordersUpdating: { 'W-1': true } });
    statuses = [status('running'), status('completed', { results })];
    await state().followRecordedOrder(recorded, noSleep);
    expect(state().ordersUpdating).toEqual({});
    expect(paths.filter((path) => path.startsWith('/api/forecasting/status/'))).toHaveLength(2);
    expect(paths.filter((path) => path === '/api/forecasting/latest-report/').length).toBeGreaterThan(0);
    // The fixture still orders 40 by 4 Jan 2026, a day gone by: due now.
    expect(state().orderNotices.at(-1)).toMatchObject({ settled: true, failed: false, text: `${said} Its advice now: order 40 more now.` });
  });

  it('says why the advice could not be updated, keeps the order as recorded, and stops showing the row as updating', async () => {
    useForecastingStore.setState({ ordersUpdating: { 'W-1': true } });
    statuses = [status('failed', { error: 'Forecast generation failed (error id abc123); the details are in the server log.' })];
    await state().followRecordedOrder(recorded, noSleep);
    expect(state().ordersUpdating).toEqual({});
    expect(state().orderNotices.at(-1)).toMatchObject({
      settled: true,
      failed: true,
      text: `${said} Its advice could not be updated now; the next forecast run counts the order. Forecast generation failed (error id abc123); the details are in the server log.`,
    });

    // No run could be queued: nothing to wait for.
    useForecastingStore.setState({ ordersUpdating: { 'W-1': true } });
    paths = [];
    await state().followRecordedOrder({ ...recorded, taskId: null }, noSleep);
    expect(paths.filter((path) => path.startsWith('/api/forecasting/status/'))).toEqual([]);
    expect(state().orderNotices.at(-1)?.text).toBe(`${said} Its advice could not be updated now; the next forecast run counts the order. Its forecast could not be queued.`);
  });
});
