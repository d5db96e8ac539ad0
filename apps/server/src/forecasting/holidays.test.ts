import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { CATALOGUE_PROFILE, dayNumber, type CatalogueCalendar } from '@stockwise/forecast';
import { seedShopClosedAtChristmas, startForecastServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, type TestServer } from '../testing/test-server.ts';

// A shop closed on 25 and 26 December, two years of daily sales up to 30 November 2026: the
// catalogue run finds the closures, and every product's forecast (a single product's too, through
// the stored catalogue calendar) is zero with a zero band on those days this year.
describe.each(backends)('public-holiday closures on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    ({ server, client } = await startForecastServer(backend));
    await seedShopClosedAtChristmas(server.database.db, { prefix: 'SHOP', count: 6, stock: 500 });
  });
  afterAll(() => server.stop());

  function expectClosedOnHolidays(forecast: ProductForecastResponse) {
    const rows = new Map(forecast.forecast.sales.map((row) => [row.ds, row]));
    for (const ds of ['2026-12-25', '2026-12-26']) expect(rows.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    for (const ds of ['2026-12-24', '2026-12-27']) expect(rows.get(ds)?.yhat).toBeGreaterThan(4);
    expect(forecast.metrics.model.patterns).toContain('holidays');
    expect(forecast.metrics.model.description).toContain('Closed on public holidays.');
  }

  it('forecasts every product of a catalogue run as closed on 25 and 26 December', async () => {
    const status = await client.run();
    expect(status).toMatchObject({ status: 'completed', results: { products: 6, failed: [] } });
    const { rows } = await sql<{ calendar: { closedDates: string[] } }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar.closedDates).toEqual(['12-25', '12-26']);
    for (const code of ['SHOP-1', 'SHOP-6']) expectClosedOnHolidays(await client.forecastOf(code));
  });

  it("uses the stored calendar for a single product's forecast", async () => {
    await sql`insert into data.products (product_code, name, category, current_stock) values ('SHOP-NEW', 'New shop item', 'Hardware', 50)`.execute(server.database.db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select (select id from data.products where product_code = 'SHOP-NEW'), d::date, 7
      from generate_series(date '2025-06-01', date '2026-11-30', interval '1 day') as d
      where to_char(d, 'MM-DD') not in ('12-25', '12-26')`.execute(server.database.db);
    const status = await client.run({ style_code: 'SHOP-NEW' });
    expect(status.status).toBe('completed');
    expectClosedOnHolidays(await client.forecastOf('SHOP-NEW'));
  });

  // ADR 0203 F4: the shop's congés, typed in Settings → Shop, are no summer low in the pattern every PooledYearly product follows.
  it("leaves the days the shop says it was closed on out of the catalogue's yearly pattern", async () => {
    const db = server.database.db;
    await sql`delete from data.sales where date between date '2025-07-06' and date '2025-07-19'`.execute(db);
    const profileAt = async (monthDays: string[]) => {
      expect((await client.run()).status).toBe('completed');
      const { rows } = await sql<{ calendar: CatalogueCalendar }>`select calendar from forecast_calendar`.execute(db);
      const profile = rows[0]!.calendar.yearlyProfiles[CATALOGUE_PROFILE]!;
      // The profile's days are a leap year's: 2024's.
      return monthDays.map((monthDay) => profile[dayNumber(`2024-${monthDay}`) - dayNumber('2024-01-01')]!);
    };
    // Shut one July of two: learned, the fortnight reads as half the demand of the weeks around it.
    const [learnedJune, learnedJuly] = await profileAt(['06-20', '07-12']);
    expect(learnedJuly! / learnedJune!).toBeLessThan(0.7);
    const admin = (await signUpUser(server, { role: 'admin' })).access;
    const closedDates = Array.from({ length: 14 }, (_, k) => ({ date: `2025-07-${String(6 + k).padStart(2, '0')}`, note: 'Congés' }));
    expect((await server.request('/api/shop/closed-dates/', { method: 'PUT', token: admin, body: { closedDates } })).status).toBe(200);
    const [june, july, august] = await profileAt(['06-20', '07-12', '08-05']);
    expect(Math.abs(july! / june! - 1)).toBeLessThan(0.05);
    expect(Math.abs(july! / august! - 1)).toBeLessThan(0.05);
  });
});

// QA pass 7, F8: a Melbourne gift shop of 21 products, 14 months of sales up to 30 November 2026, about
// 16 units a day (12 from mid-March to mid-May), that sold nothing on Christmas Day, Australia Day,
// Good Friday (3 April) and Anzac Day 2026. One product's year-long forecast, as the product page
// asks for it, is zero on next year's Good Friday (26 March 2027: Easter moves) and Anzac Day.
describe.each(backends)("a small shop's public holidays from one year on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    ({ server, client } = await startForecastServer(backend));
    const db = server.database.db;
    await sql`insert into data.products (product_code, name, category, current_stock) select 'WC-' || lpad(i::text, 4, '0'), 'Gift ' || i, 'Gifts', 40 from generate_series(1, 21) as i`.execute(db);
    // Each day, `level` of the 21 products sell one unit each, a different few every day.
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, 1
      from data.products p cross join generate_series(date '2025-10-01', date '2026-11-30', interval '1 day') as d
      where (right(p.product_code, 2)::int + extract(doy from d)::int) % 21
          < case when to_char(d, 'MM') = '12' then 21 when to_char(d, 'MM-DD') between '03-15' and '05-15' then 12 else 16 end
        and d::date not in (date '2025-12-25', date '2026-01-26', date '2026-04-03', date '2026-04-25')`.execute(db);
  });
  afterAll(() => server.stop());

  it("forecasts a product zero on next year's Good Friday and Anzac Day, as on Christmas Day and Australia Day", async () => {
    const status = await client.run({ style_code: 'WC-0001', forecast_days: 365 });
    expect(status.status).toBe('completed');
    const { rows } = await sql<{ calendar: { closedDates: string[]; closedHolidays: string[] } }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar).toMatchObject({ closedDates: ['01-26', '04-25', '12-25'], closedHolidays: ['good_friday'] });
    const forecast = await client.forecastOf('WC-0001');
    const sales = new Map(forecast.forecast.sales.map((row) => [row.ds, row]));
    for (const ds of ['2026-12-25', '2027-01-26', '2027-03-26', '2027-04-25']) expect(sales.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0 });
    for (const ds of ['2027-03-25', '2027-03-27', '2027-04-24', '2027-04-26']) expect(sales.get(ds)?.yhat).toBeGreaterThan(0.2);
    expect(forecast.metrics.model.description).toContain('Closed on public holidays.');
  });
});
