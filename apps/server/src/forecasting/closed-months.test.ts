import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { startForecastServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const isSunday = (ds: string) => new Date(`${ds}T00:00:00Z`).getUTCDay() === 0;
const inJanuaryOrFebruary = (ds: string) => ['01', '02'].includes(ds.slice(5, 7));

// QA finding 13: a garden centre closed on Sundays every January and February (and on 25/26 Dec and
// 1 Jan), trading on Sundays the rest of the year; two years of daily sales up to 30 November 2026.
// The catalogue run finds the closure, and every product's forecast over HTTP is zero with a zero
// band on next January's and February's Sundays, and says why.
describe.each(backends)('Sundays closed every Jan–Feb on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    ({ server, client } = await startForecastServer(backend));
    const db = server.database.db;
    await sql`insert into data.products (product_code, name, category, current_stock) select 'COM-' || i, 'Compost ' || i, 'Garden', 500 from generate_series(1, 6) as i`.execute(db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, 6 + (p.id + extract(doy from d)::int) % 5
      from data.products p cross join generate_series(date '2024-12-01', date '2026-11-30', interval '1 day') as d
      where to_char(d, 'MM-DD') not in ('12-25', '12-26', '01-01')
        and not (extract(dow from d) = 0 and extract(month from d) in (1, 2))`.execute(db);
  });
  afterAll(() => server.stop());

  function expectClosedOnWinterSundays(forecast: ProductForecastResponse) {
    const sundays = forecast.forecast.sales.filter((row) => isSunday(row.ds));
    const winter = sundays.filter((row) => inJanuaryOrFebruary(row.ds));
    expect(winter.length).toBeGreaterThanOrEqual(8);
    for (const row of winter) expect(row).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    const others = sundays.filter((row) => !inJanuaryOrFebruary(row.ds));
    expect(others.length).toBeGreaterThan(30);
    for (const row of others) expect(row.yhat).toBeGreaterThan(4);
    expect(forecast.metrics.model.description).toContain('Closed on Sundays in Jan–Feb.');
    expect(forecast.metrics.model.description).toContain('Closed on public holidays.');
    expect(forecast.metrics.model.patterns).toEqual(expect.arrayContaining(['closed_days', 'holidays']));
  }

  it('finds the closure in a catalogue run and forecasts every product closed on Jan–Feb Sundays only', async () => {
    expect(await client.run({ forecast_days: 365 })).toMatchObject({ status: 'completed', results: { products: 6, failed: [] } });
    const { rows } = await sql<{ calendar: { closedDates: string[]; closedWeekdays: number[]; closedWeekdaysInMonths: unknown } }>`select calendar from forecast_calendar`.execute(server.database.db);
    expect(rows[0]?.calendar).toMatchObject({ closedDates: ['01-01', '12-25', '12-26'], closedWeekdays: [], closedWeekdaysInMonths: [{ weekday: 0, months: [1, 2] }] });
    for (const code of ['COM-1', 'COM-6']) expectClosedOnWinterSundays(await client.forecastOf(code));
  });
});
