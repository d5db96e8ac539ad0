import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { startForecastServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type Backend, type TestServer } from '../testing/test-server.ts';

/**
 * A shop of eight products, about 25 units a day together, selling every day from `from` to `to`
 * but on Sundays and the `closed` dates.
 */
async function seedShop(db: Kysely<Database>, { from, to, closed }: { from: string; to: string; closed: string[] }): Promise<void> {
  await sql`insert into data.products (product_code, name, category, current_stock) select 'BH-' || i, 'Item ' || i, 'Hardware', 400 from generate_series(1, 8) as i`.execute(db);
  await sql`
    insert into data.sales (product_id, date, quantity)
    select p.id, d::date, 2 + (p.id + extract(doy from d)::int) % 3
    from data.products p cross join generate_series(${from}::date, ${to}::date, interval '1 day') as d
    where extract(dow from d) <> 0 and to_char(d, 'YYYY-MM-DD') <> all(${closed}::text[])`.execute(db);
}

/** A forecast server on `backend` holding `seedShop`'s shop, started before the describe's tests and stopped after them. */
function shopServer(backend: Backend, shop: Parameters<typeof seedShop>[1]): { server: TestServer; client: ForecastClient } {
  const started = {} as { server: TestServer; client: ForecastClient };
  beforeAll(async () => {
    Object.assign(started, await startForecastServer(backend));
    await seedShop(started.server.database.db, shop);
  });
  afterAll(() => started.server.stop());
  return started;
}

/** The catalogue calendar the last run stored. */
const storedCalendar = async (db: Kysely<Database>) => (await sql<{ calendar: Record<string, unknown> }>`select calendar from forecast_calendar`.execute(db)).rows[0]?.calendar;

const rowsOf = (forecast: ProductForecastResponse) => new Map(forecast.forecast.sales.map((row) => [row.ds, row]));
const closedRow = { yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 };

// ADR 0188: a UK shop closed on Sundays and on England's bank holidays, two years of sales up to 30
// November 2026. The catalogue run learns the early May, spring and summer bank holidays as the first
// and last Mondays of May and the last Monday of August, so a product's year ahead is closed on 3 May,
// 31 May and 30 August 2027 — dates no month-day rule could give — and says so.
describe.each(backends)('bank holidays that move with the weekday on %s', (backend) => {
  const closed = [
    ...['2024-12-25', '2024-12-26', '2025-01-01', '2025-04-18', '2025-04-21', '2025-05-05', '2025-05-26', '2025-08-25', '2025-12-25', '2025-12-26'],
    ...['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31'],
  ];
  const shop = shopServer(backend, { from: '2024-12-01', to: '2026-11-30', closed });

  it("stores them with the catalogue's calendar, and forecasts a product zero on next year's", async () => {
    expect(await shop.client.run()).toMatchObject({ status: 'completed', results: { products: 8, failed: [] } });
    expect(await storedCalendar(shop.server.database.db)).toMatchObject({
      closedDates: ['01-01', '12-25', '12-26'],
      closedHolidays: ['easter_monday', 'good_friday'],
      closedNthWeekdays: [
        { month: 5, weekday: 1, nth: 1 },
        { month: 5, weekday: 1, nth: 'last' },
        { month: 8, weekday: 1, nth: 'last' },
      ],
      closedSubstitutes: [],
      closedWeekdays: [0],
    });
    expect((await shop.client.run({ style_code: 'BH-1', forecast_days: 365 })).status).toBe('completed');
    const forecast = await shop.client.forecastOf('BH-1');
    const sales = rowsOf(forecast);
    for (const ds of ['2027-05-03', '2027-05-31', '2027-08-30', '2027-03-26', '2027-03-29', '2027-01-01']) expect(sales.get(ds), ds).toMatchObject(closedRow);
    for (const ds of ['2027-05-04', '2027-05-24', '2027-06-01', '2027-08-31', '2027-05-25']) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(1);
    expect(forecast.metrics.model.patterns).toContain('holidays');
    expect(forecast.metrics.model.description).toContain(
      'Closed on the first Monday of May (early May bank holiday), the last Monday of May (spring bank holiday or Memorial Day), the last Monday of August (summer bank holiday) and other public holidays.',
    );
  });

  it('reads a calendar stored before them as closing none of them', async () => {
    await sql`update forecast_calendar set calendar = calendar::jsonb - 'closedNthWeekdays' - 'closedSubstitutes'`.execute(shop.server.database.db);
    expect((await shop.client.run({ style_code: 'BH-2', forecast_days: 365 })).status).toBe('completed');
    const forecast = await shop.client.forecastOf('BH-2');
    const sales = rowsOf(forecast);
    for (const ds of ['2027-05-03', '2027-08-30']) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(1);
    for (const ds of ['2027-03-26', '2027-01-01']) expect(sales.get(ds), ds).toMatchObject(closedRow);
    expect(forecast.metrics.model.description).toMatch(/ Closed on public holidays\.$/);
  });
});

// ADR 0188: the same kind of shop two years earlier, December 2020 to November 2022, when Boxing Day
// 2020 and Christmas 2021 fell on weekends: it shut on England's substitute bank holidays (Monday 28
// December 2020, Monday 27 and Tuesday 28 December 2021, Monday 3 January 2022). From 1 December 2022
// (Christmas and New Year's Day on Sundays) it is forecast closed on Tuesday 27 December and Monday
// 2 January, as England was, and open on 28 December, which was a substitute in both years before.
describe.each(backends)('substitute bank holidays on %s', (backend) => {
  const closed = ['2020-12-25', '2020-12-26', '2020-12-28', '2021-01-01', '2021-12-25', '2021-12-27', '2021-12-28', '2022-01-01', '2022-01-03'];
  const shop = shopServer(backend, { from: '2020-12-01', to: '2022-11-30', closed });

  it("closes next Christmas's and New Year's substitute weekdays, and no date of their own", async () => {
    expect(await shop.client.run({ forecast_days: 60 })).toMatchObject({ status: 'completed', results: { products: 8, failed: [] } });
    expect(await storedCalendar(shop.server.database.db)).toMatchObject({ closedDates: ['01-01', '12-25', '12-26'], closedSubstitutes: ['01-01', '12-25', '12-26'], closedWeekdays: [0] });
    const forecast = await shop.client.forecastOf('BH-3');
    const sales = rowsOf(forecast);
    for (const ds of ['2022-12-26', '2022-12-27', '2023-01-02']) expect(sales.get(ds), ds).toMatchObject(closedRow);
    for (const ds of ['2022-12-24', '2022-12-28', '2022-12-29', '2023-01-03']) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(1);
    expect(forecast.metrics.model.description).toMatch(/ Closed on public holidays\.$/);
  });
});

// ADR 0188, amendment 2026-12-06: a North American wholesaler, three years of sales up to 30 November
// 2026, shut on Sundays, Victoria Day (the last Monday on or before 24 May), Thanksgiving and the
// Friday after it (29 November 2024 was the fifth Friday of its month). The catalogue run stores the
// two new forms; a product's year ahead is closed on 24 May, 25 and 26 November 2027. A calendar stored
// in the rules' first form ({ month, weekday, nth } only) reads as it did.
describe.each(backends)('the day after Thanksgiving and Victoria Day on %s', (backend) => {
  const closed = [
    ...['2023-11-23', '2023-11-24', '2023-12-25', '2024-01-01', '2024-05-20', '2024-11-28', '2024-11-29', '2024-12-25', '2025-01-01'],
    ...['2025-05-19', '2025-11-27', '2025-11-28', '2025-12-25', '2026-01-01', '2026-05-18', '2026-11-26', '2026-11-27'],
  ];
  const shop = shopServer(backend, { from: '2023-11-01', to: '2026-11-30', closed });

  it("stores them with the calendar and forecasts a product zero on next year's", async () => {
    expect(await shop.client.run()).toMatchObject({ status: 'completed', results: { products: 8, failed: [] } });
    expect(await storedCalendar(shop.server.database.db)).toMatchObject({
      closedDates: ['01-01', '12-25'],
      closedNthWeekdays: [
        { month: 5, weekday: 1, nth: 'last', onOrBefore: 24 },
        { month: 11, weekday: 4, nth: 4 },
        { month: 11, weekday: 4, nth: 4, offset: 1 },
      ],
      closedWeekdays: [0],
    });
    expect((await shop.client.run({ style_code: 'BH-1', forecast_days: 365 })).status).toBe('completed');
    const forecast = await shop.client.forecastOf('BH-1');
    const sales = rowsOf(forecast);
    for (const ds of ['2027-05-24', '2027-11-25', '2027-11-26']) expect(sales.get(ds), ds).toMatchObject(closedRow);
    for (const ds of ['2027-05-17', '2027-05-25', '2027-05-31', '2027-11-19', '2027-11-24', '2027-11-27']) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(1);
    expect(forecast.metrics.model.description).toContain(
      'Closed on the last Monday on or before 24 May (Victoria Day), the fourth Thursday of November (Thanksgiving), the Friday after the fourth Thursday of November (day after Thanksgiving) and other public holidays.',
    );
  });

  it('reads a calendar stored in the first form of the rules as before', async () => {
    const firstForm = JSON.stringify([{ month: 11, weekday: 4, nth: 4 }]);
    await sql`update forecast_calendar set calendar = jsonb_set(calendar::jsonb, '{closedNthWeekdays}', ${firstForm}::jsonb)`.execute(shop.server.database.db);
    expect((await shop.client.run({ style_code: 'BH-2', forecast_days: 365 })).status).toBe('completed');
    const forecast = await shop.client.forecastOf('BH-2');
    const sales = rowsOf(forecast);
    expect(sales.get('2027-11-25')).toMatchObject(closedRow);
    for (const ds of ['2027-05-24', '2027-11-26']) expect(sales.get(ds)?.yhat, ds).toBeGreaterThan(1);
    expect(forecast.metrics.model.description).toContain('Closed on the fourth Thursday of November (Thanksgiving) and other public holidays.');
  });
});
