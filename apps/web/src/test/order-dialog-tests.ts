// What the tests of the order dialogs ("Record order…", ADR 0182; a supplier's orders at once, ADR
// 0185) start from: the translations and jsdom's layout, a loopback server playing the routes a file
// names, every forecast run it queues done at once, and before each test the browser's languages
// (en-GB), the shop's time zone (UTC) and an empty forecasting store.
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { useForecastingStore, initialForecastingState } from '../stores/forecasting.ts';
import { useShopStore } from '../stores/shop.ts';
import { initTestI18n } from './i18n.ts';
import { stubBrowserLayout, useBrowserLanguages } from './jsdom.ts';
import { startLoopbackApi } from './loopback-api.ts';
import { sendJson, type Loopback } from './loopback.ts';

/**
 * `GET /api/forecasting/open-day/` as the server answers it for a shop closed on `closedDays` (each
 * with the note of its own closed day): the next open day is the first day after a run of them.
 * Returns the day asked about.
 */
export function answerOpenDay(url: URL, response: ServerResponse, closedDays: Record<string, string | null>): string {
  const date = url.searchParams.get('date') ?? '';
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  let next = date;
  while (next in closedDays) next = nextDay(next);
  sendJson(response, 200, { date, closed: date in closedDays, note: closedDays[date] ?? null, next_open: next });
  return date;
}

/** A test file's routes: true where one answered the request. */
export type OrderRoutes = (url: URL, body: string, response: ServerResponse) => boolean;

/**
 * Sets up the file's hooks: `routes` first, then the status of any forecast run as completed over
 * `runProducts` products (what a recorded order queues), and 404 for the rest.
 */
export function setUpOrderDialogTests(routes: OrderRoutes, runProducts: number): void {
  let loopback: Loopback;
  let restoreLanguages = () => {};
  beforeAll(async () => {
    await initTestI18n();
    stubBrowserLayout();
    loopback = await startLoopbackApi((request, body, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      if (routes(url, body, response)) return;
      const task = /^\/api\/forecasting\/status\/(task-\d+)\/$/.exec(url.pathname)?.[1];
      if (task) return sendJson(response, 200, { task_id: task, status: 'completed', progress: { done: 1, total: 1 }, results: { style_code: null, forecast_days: 90, products: runProducts, failed: [], stockouts: 0, duration_ms: 40 }, error: null, restart: null });
      return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    });
  });
  afterAll(() => loopback.close());
  beforeEach(() => {
    restoreLanguages = useBrowserLanguages(['en-GB', 'en']);
    useShopStore.setState({ timeZoneInEffect: 'UTC' });
    useForecastingStore.setState(initialForecastingState);
  });
  afterEach(() => {
    cleanup();
    restoreLanguages();
  });
}
