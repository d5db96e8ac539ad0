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
  let token: string;
  const latestReport = async () => ((await server.request('/api/forecasting/latest-report/?page_size=500', { token })).json as { report: InventoryReport }).report;
  /** The first day from `from` that is neither a Sunday nor one of `closed`. */
  const firstOpenFrom = (from: number, closed: string[] = []) => {
    let offset = from;
    while (weekdayOf(day(offset)) === 0 || closed.includes(day(offset))) offset += 1;
    return day(offset);
  };

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
    token = (await signUpUser(server)).access;
    expect(await forecastClient(server, token).run()).toMatchObject({ status: 'completed' });
    report = await latestReport();
  });
  afterAll(() => server.stop());

  it('moves an order-by date that falls on the closed Sunday to the Saturday before', async () => {
    const orderByDates = report.products.flatMap((product) => (product.orderBy ? [product.orderBy] : []));
    expect(orderByDates.length).toBeGreaterThanOrEqual(7);
    // The forecast starts the day after the last sales: yesterday's, or on a Monday Saturday's (the
    // shop sold nothing on the Sunday), when the first forecast day is yesterday's Sunday.
    const firstForecastDay = weekdayOf(day(-1)) === 0 ? day(-1) : day(0);
    // An order due by the first forecast day is due now, whatever the day: run on a Sunday or a
    // Monday, that Sunday is an order-by day (the Saturday before is past). Every later one is moved off Sunday.
    expect(orderByDates.filter((date) => date < firstForecastDay)).toEqual([]);
    const ahead = orderByDates.filter((date) => date > firstForecastDay);
    expect(ahead.filter((date) => weekdayOf(date) === 0)).toEqual([]);
    // The Sundays' orders went to the Saturdays: more order by a Saturday than by any other day.
    const byWeekday = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ahead.filter((date) => weekdayOf(date) === weekday).length);
    expect(Math.max(...byWeekday.slice(1, 6))).toBeLessThan(byWeekday[6]!);
  });

  // QA garden centre F10: the Record order dialogs propose the row's arrivalDate (ADR 0182, amendment 2026-12-06).
  it("proposes an order's arrival on the first day the shop is open from today plus the lead time", async () => {
    expect(report.products.length).toBeGreaterThan(0);
    // Today plus 7 is today's weekday: on a Sunday the learned closure moves it to the Monday.
    for (const product of report.products) expect(product.arrivalDate).toBe(firstOpenFrom(product.leadTimeDays));
    // The shop says it is closed on today plus 7 and the day after (a stock-take): a weekday it is
    // otherwise open on, or the Monday after a Sunday; the arrival moves past both.
    const closed = [day(7), day(8)];
    expect((await server.request('/api/shop/closed-dates/', { method: 'PUT', token, body: { closedDates: closed.map((date) => ({ date, note: 'Stock-take' })) } })).status).toBe(200);
    const later = await latestReport();
    expect(later.products.map((product) => product.arrivalDate)).toEqual(later.products.map(() => firstOpenFrom(7, closed)));
    expect(firstOpenFrom(7, closed) > day(8)).toBe(true);
  });

  // The note under a typed arrival day (ADR 0182, amendment 2026-12-06 "a typed day the shop is closed on").
  it('says whether the shop is closed on a day, the note of its own closed day, and the next day it is open; a wrong day is a 400', async () => {
    const openDay = async (date: string) => server.request(`/api/forecasting/open-day/?date=${encodeURIComponent(date)}`, { token });
    let sunday = 10;
    while (weekdayOf(day(sunday)) !== 0) sunday += 1;
    expect((await openDay(day(sunday))).json).toEqual({ date: day(sunday), closed: true, note: null, next_open: firstOpenFrom(sunday) });
    const monday = day(sunday + 1);
    expect((await openDay(monday)).json).toEqual({ date: monday, closed: false, note: null, next_open: monday });
    // Settings → Shop closes the Monday (a stock-take): closed, with its note, open again on the Tuesday.
    expect((await server.request('/api/shop/closed-dates/', { method: 'PUT', token, body: { closedDates: [{ date: monday, note: 'Stock-take' }] } })).status).toBe(200);
    expect((await openDay(monday)).json).toEqual({ date: monday, closed: true, note: 'Stock-take', next_open: day(sunday + 2) });
    expect((await openDay(day(sunday))).json).toMatchObject({ closed: true, next_open: day(sunday + 2) });
    for (const wrong of ['2026-02-30', 'soon', '3026-01-01']) {
      const refused = await openDay(wrong);
      expect(refused.status, wrong).toBe(400);
      expect(refused.json).toMatchObject({ code: 'validation_error' });
    }
  });
});
