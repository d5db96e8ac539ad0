// An order is placed on a day the business trades (ADR 0169): a shop closed on Sundays is never told
// to order by a Sunday — the order-by date moves to the Saturday before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport } from '@stockwise/contract';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const HISTORY_DAYS = 365;
// Enough stock levels, a day's sales apart, for every weekday to be some product's order-by day.
const STOCK_LEVELS = Array.from({ length: 14 }, (_, i) => 60 + 10 * i);

describe.each(backends)('order-by dates of a shop closed on Sundays, on %s', (backend) => {
  let server: TestServer;
  let report: InventoryReport;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const products = await db
      .insertInto('data.products')
      .values(STOCK_LEVELS.map((stock) => ({ product_code: `CUPS-${stock}`, name: `Cups ${stock}`, current_stock: stock, unit_cost: 1, lead_time_days: 7 })))
      .returning(['id', 'product_code'])
      .execute();
    const sales = products.flatMap((product) =>
      Array.from({ length: HISTORY_DAYS }, (_, i) => day(i - HISTORY_DAYS))
        .filter((date) => weekdayOf(date) !== 0)
        .map((date) => ({ product_id: product.id, date, quantity: 10 })),
    );
    for (let from = 0; from < sales.length; from += 1000) await db.insertInto('data.sales').values(sales.slice(from, from + 1000)).execute();
    await db
      .insertInto('data.stock_snapshots')
      .values(products.map((product) => ({ product_id: product.id, date: day(-1), stock_level: Number(product.product_code.slice('CUPS-'.length)) })))
      .execute();
    const token = (await signUpUser(server)).access;
    expect(await forecastClient(server, token).run()).toMatchObject({ status: 'completed' });
    report = ((await server.request('/api/forecasting/latest-report/?page_size=500', { token })).json as { report: InventoryReport }).report;
  });
  afterAll(() => server.stop());

  it('moves an order-by date that falls on the closed Sunday to the Saturday before', async () => {
    const orderByDates = report.products.flatMap((product) => (product.orderBy ? [product.orderBy] : []));
    expect(orderByDates.length).toBeGreaterThanOrEqual(7);
    // An order due by the first forecast day is due now, whatever the day: run on a Sunday, today
    // is an order-by day (the Saturday before is past). Every later one is moved off Sunday.
    expect(orderByDates.filter((date) => date < day(0))).toEqual([]);
    const ahead = orderByDates.filter((date) => date > day(0));
    expect(ahead.filter((date) => weekdayOf(date) === 0)).toEqual([]);
    // The Sundays' orders went to the Saturdays: more order by a Saturday than by any other day.
    const byWeekday = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ahead.filter((date) => weekdayOf(date) === weekday).length);
    expect(Math.max(...byWeekday.slice(1, 6))).toBeLessThan(byWeekday[6]!);
  });
});
