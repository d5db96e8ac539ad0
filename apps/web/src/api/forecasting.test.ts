// @vitest-environment node
// The forecasting calls against a real loopback HTTP server: the shared forecast fetch (spec §4),
// status 404 → not_found, a missing task_id and product search.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from './http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from '../stores/session.ts';
import { forecastFixture } from '../pages/forecasting/fixtures.test-data.ts';
import { fetchProductForecast, fetchProducts, fetchTaskStatus, invalidateProductForecast, requestForecastGeneration, searchProducts, toProduct } from './forecasting.ts';

type Call = { method: string; raw: string; path: string; query: URLSearchParams; body: unknown };

let loopback: Loopback;
let calls: Call[] = [];
let release: (() => void) | null = null;
let held: Promise<void> | null = null;
let forecastStatus = 200;
let generationAnswer: unknown = { task_id: 'task-1' };

const rows = Array.from({ length: 260 }, (_, i) => ({ id: i + 1, product_code: `P-${1000 + i}`, name: i === 7 ? 'Garden Hose' : `Item ${i + 1}`, current_stock: i * 3, unit_cost: '2.50', lead_time_days: 5 }));

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback(async (request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    calls.push({ method: request.method ?? '', raw: url.pathname, path, query: url.searchParams, body: body ? JSON.parse(body) : null });
    if (path.startsWith('/api/forecasting/forecasts/')) {
      if (held) await held;
      if (forecastStatus !== 200) return sendJson(response, forecastStatus, { detail: "Product 'X' not found.", code: 'not_found' });
      return sendJson(response, 200, forecastFixture());
    }
    if (path === '/api/forecasting/request-generation/') return sendJson(response, 200, generationAnswer);
    if (path === '/api/forecasting/status/gone/') return sendJson(response, 404, { detail: "Task 'gone' not found.", code: 'not_found' });
    if (path === '/api/forecasting/status/broken/') return sendJson(response, 500, { detail: 'boom', code: 'internal' });
    if (path === '/api/records/tables/products/data/') {
      const filters = JSON.parse(url.searchParams.get('filters_json') ?? '{}') as Record<string, { contains?: string }>;
      let matching = rows;
      if (filters['product_code']?.contains) matching = matching.filter((row) => row.product_code.toLowerCase().includes(filters['product_code']!.contains!.toLowerCase()));
      if (filters['name']?.contains) matching = matching.filter((row) => row.name.toLowerCase().includes(filters['name']!.contains!.toLowerCase()));
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 50);
      const results = matching.slice((page - 1) * size, page * size);
      const next = page * size < matching.length ? `/api/records/tables/products/data/?page=${page + 1}&page_size=${size}&filters_json=${encodeURIComponent(url.searchParams.get('filters_json') ?? '')}` : null;
      return sendJson(response, 200, { results, count: matching.length, next, previous: null });
    }
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});

afterAll(() => loopback.close());

beforeEach(() => {
  calls = [];
  held = null;
  release = null;
  forecastStatus = 200;
  generationAnswer = { task_id: 'task-1' };
  invalidateProductForecast();
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
});

const forecastCalls = () => calls.filter((call) => call.path.startsWith('/api/forecasting/forecasts/'));
function hold() {
  held = new Promise<void>((resolve) => (release = resolve));
}

describe('shared forecast fetch (spec §4)', () => {
  it('two concurrent loads of one product make one request and get the same answer', async () => {
    hold();
    const first = fetchProductForecast('W-1');
    const second = fetchProductForecast('W-1');
    expect(second).toBe(first);
    await new Promise<void>((resolve) => {
      const check = () => (forecastCalls().length > 0 ? resolve() : setImmediate(check));
      check();
    });
    release?.();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(a.product.styleCode).toBe('W-1');
    expect(forecastCalls()).toHaveLength(1);
  });

  it('caches the answer, keys it by product, and asks again after invalidation', async () => {
    await fetchProductForecast('W-1');
    await fetchProductForecast('W-1');
    await fetchProductForecast('W-2');
    expect(forecastCalls().map((call) => call.path)).toEqual(['/api/forecasting/forecasts/W-1', '/api/forecasting/forecasts/W-2']);
    invalidateProductForecast('W-1');
    await fetchProductForecast('W-1');
    await fetchProductForecast('W-2');
    expect(forecastCalls()).toHaveLength(3);
    invalidateProductForecast('all');
    await fetchProductForecast('W-2');
    expect(forecastCalls()).toHaveLength(4);
  });

  it('forgets a failed fetch so the next load asks again', async () => {
    forecastStatus = 404;
    await expect(fetchProductForecast('X')).rejects.toMatchObject({ message: "Product 'X' not found.", code: 'not_found' });
    forecastStatus = 200;
    await expect(fetchProductForecast('X')).resolves.toMatchObject({ product: { styleCode: 'W-1' } });
    expect(forecastCalls()).toHaveLength(2);
  });

  it('URL-encodes the style code', async () => {
    await fetchProductForecast('A/B 1');
    expect(forecastCalls()[0]!.raw).toBe('/api/forecasting/forecasts/A%2FB%201');
  });
});

describe('generation calls', () => {
  it('posts style_code and forecast_days 90, or only forecast_days for the whole catalogue', async () => {
    expect(await requestForecastGeneration('W-1')).toBe('task-1');
    expect(await requestForecastGeneration(null)).toBe('task-1');
    expect(calls.map((call) => call.body)).toEqual([{ style_code: 'W-1', forecast_days: 90 }, { forecast_days: 90 }]);
  });

  it('an answer without task_id is the §8 error', async () => {
    generationAnswer = {};
    await expect(requestForecastGeneration('W-1')).rejects.toThrow('API response missing task_id for report generation');
  });

  it('a status 404 is not_found with the §8 message; other failures throw', async () => {
    expect(await fetchTaskStatus('gone')).toEqual({ task_id: 'gone', status: 'not_found', progress: { done: 0, total: 0 }, results: null, error: 'Task not found or not yet processed by backend.' });
    await expect(fetchTaskStatus('broken')).rejects.toMatchObject({ message: 'boom' });
  });
});

describe('products', () => {
  it('maps rows per spec §3 (styleCode from product_code, else styleCode, else id)', () => {
    expect(toProduct({ id: 4, product_code: 'A-1', name: 'A', current_stock: 3, unit_cost: '1.25', lead_time_days: 9 })).toEqual({ id: 4, styleCode: 'A-1', name: 'A', currentStock: 3, unitCost: 1.25, leadTimeDays: 9, category: null });
    expect(toProduct({ id: 5, styleCode: 'S-5', name: 'B' }).styleCode).toBe('S-5');
    expect(toProduct({ id: 6, product_code: null, name: 'C' }).styleCode).toBe('6');
  });

  it('reads page 1 with page size 50', async () => {
    const products = await fetchProducts();
    expect(products).toHaveLength(50);
    expect([calls[0]!.query.get('page'), calls[0]!.query.get('page_size')]).toEqual(['1', '50']);
  });

  it('searches code and name on the server, beyond the first page, merged without duplicates', async () => {
    const byCode = await searchProducts('p-125');
    expect(byCode.map((product) => product.styleCode)).toEqual(['P-1250', 'P-1251', 'P-1252', 'P-1253', 'P-1254', 'P-1255', 'P-1256', 'P-1257', 'P-1258', 'P-1259']);
    expect(calls.map((call) => call.query.get('filters_json')).sort()).toEqual(['{"name":{"contains":"p-125"}}', '{"product_code":{"contains":"p-125"}}']);
    const byName = await searchProducts('hose');
    expect(byName.map((product) => product.name)).toEqual(['Garden Hose']);
  });
});
