// The demo shop is closed on Christmas Day (ADR 0165, amendment 2026-12-06): its sales and
// deliveries leave the day out, so a catalogue run learns it as closed, as from a real shop's
// sales, and the lists never propose an arrival or an order-by day on it. Before, the demo sold on
// 25 December and its "Record order…" proposed an arrival on Christmas Day 2026.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport } from '@stockwise/contract';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { DEMO_CLOSED_MONTH_DAYS, demoCatalogue, seedDemoData } from './seed.ts';

const DAY_MS = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
/** The next Christmas Day from today (today's, on the day). */
const christmas = (() => {
  const year = today.getUTCFullYear();
  const thisYear = `${year}-12-25`;
  return thisYear >= day(0) ? thisYear : `${year + 1}-12-25`;
})();
const shifted = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

describe('the demo history', () => {
  it('sells and delivers nothing on Christmas Day, and sells on the days around it', () => {
    expect([...DEMO_CLOSED_MONTH_DAYS]).toEqual(['12-25']);
    // Seeded on 6 December 2026 (the QA walk's day): two Christmases in the history, a delivery ahead.
    const histories = demoCatalogue(new Date('2026-12-06T00:00:00Z')).map(({ history }) => history);
    const sold = (monthDay: string) => histories.reduce((units, history) => units + history.sales.filter((sale) => sale.date.endsWith(monthDay)).reduce((sum, sale) => sum + sale.quantity, 0), 0);
    expect(sold('12-25')).toBe(0);
    expect(sold('12-24')).toBeGreaterThan(100);
    expect(sold('12-26')).toBeGreaterThan(100);
    expect(histories.flatMap((history) => history.deliveries).filter((delivery) => delivery.expected_date.endsWith('12-25'))).toEqual([]);
    // A delivery ordered late in the history still arrives: the day after Christmas, not never.
    expect(histories.flatMap((history) => history.deliveries).some((delivery) => delivery.expected_date.endsWith('12-26'))).toBe(true);
  });
});

describe.each(backends)('the demo shop closed on Christmas Day, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let report: InventoryReport;
  const api = (path: string) => server.request(path, { token });

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 40, today });
    token = (await signUpUser(server)).access;
    expect(await forecastClient(server, token).run()).toMatchObject({ status: 'completed' });
    report = ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
  });
  afterAll(() => server.stop());

  it('has no sales on a 25 December in its history', async () => {
    const { rows } = await sql<{ date: string }>`select distinct to_char(date, 'YYYY-MM-DD') as date from data.sales where to_char(date, 'MM-DD') = '12-25'`.execute(server.database.db);
    expect(rows).toEqual([]);
  });

  it('is closed on the next Christmas Day, open the day before and after: an arrival typed then gets the next open day', async () => {
    expect((await api(`/api/forecasting/open-day/?date=${christmas}`)).json).toEqual({ date: christmas, closed: true, note: null, next_open: shifted(christmas, 1) });
    for (const open of [shifted(christmas, -1), shifted(christmas, 1)]) expect((await api(`/api/forecasting/open-day/?date=${open}`)).json).toMatchObject({ date: open, closed: false });
  });

  it('proposes no arrival and no order-by day on Christmas Day: each arrival is today plus the lead time, or the 26th for the 25th', () => {
    expect(report.products.length).toBeGreaterThan(0);
    for (const product of report.products) {
      const leadDay = day(product.leadTimeDays);
      expect(product.arrivalDate, product.styleCode).toBe(leadDay.endsWith('12-25') ? shifted(leadDay, 1) : leadDay);
      expect(product.orderBy?.endsWith('12-25') ?? false, product.styleCode).toBe(false);
    }
  });

  it('forecasts no sales on the next Christmas Day for the product selling most, and sales the day after', async () => {
    const code = [...report.products].sort((a, b) => b.recentDemand - a.recentDemand)[0]!.styleCode;
    const horizon = Math.min(365, Math.max(7, Math.round((Date.parse(`${christmas}T00:00:00Z`) - today.getTime()) / DAY_MS) + 3));
    const forecast = (await api(`/api/forecasting/forecasts/${code}?forecast_days=${horizon}`)).json as { forecast: { sales: { ds: string; yhat: number }[] } };
    const byDate = new Map(forecast.forecast.sales.map((point) => [point.ds.slice(0, 10), point.yhat]));
    expect(byDate.get(christmas)).toBe(0);
    expect(byDate.get(shifted(christmas, 1))).toBeGreaterThan(0);
  });
});
