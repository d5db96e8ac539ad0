import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForecastServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

// A garden centre (QA5 #18): six Christmas trees that sell 6 a day from 20 November to Christmas Eve
// and nothing the rest of the year, two years of them; six garden lines launched through the
// history (the catalogue's new products: 2–7 a day in their first weeks). A tree added once the
// history is in has no sales of its own: it follows its category's season, not the launches' level
// through January.
describe.each(backends)('a new product in a category sold in one season only on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    ({ server, client } = await startForecastServer(backend));
    const db = server.database.db;
    await sql`insert into data.products (product_code, name, category, current_stock) select 'TREE-' || i, 'Christmas tree ' || i, 'Christmas', 40 from generate_series(1, 6) as i`.execute(db);
    await sql`insert into data.products (product_code, name, category, current_stock) select 'GARDEN-' || i, 'Garden item ' || i, 'Garden', 100 from generate_series(1, 6) as i`.execute(db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, 6
      from data.products p cross join generate_series(date '2024-12-04', date '2026-12-03', interval '1 day') as d
      where p.category = 'Christmas' and to_char(d, 'MM-DD') between '11-20' and '12-24'`.execute(db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, substring(p.product_code from 8)::int + 1
      from data.products p cross join generate_series(date '2024-12-04', date '2026-12-03', interval '1 day') as d
      where p.category = 'Garden' and d >= date '2024-12-04' + 60 * substring(p.product_code from 8)::int`.execute(db);
    await sql`insert into data.products (product_code, name, category, current_stock, lead_time_days) values ('TREE-NEW', 'Nordmann Fir 300cm', 'Christmas', 10, 7), ('GARDEN-NEW', 'New garden item', 'Garden', 10, 7)`.execute(db);
    await sql`insert into data.products (product_code, name, current_stock, lead_time_days) values ('LOOSE-NEW', 'New item without a category', 10, 7)`.execute(db);
  });
  afterAll(() => server.stop());

  it("forecasts the launches' level until Christmas Eve and nothing from Christmas Day, said in the explanation", async () => {
    expect(await client.run()).toMatchObject({ status: 'completed', results: { failed: [] } });
    const forecast = await client.forecastOf('TREE-NEW');
    expect(forecast.metrics.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(forecast.metrics.model.description).toContain('New product in a seasonal category: Christmas sells 20 Nov–24 Dec only, so nothing is forecast outside those dates.');
    const sales = forecast.forecast.sales;
    expect(sales[0]?.ds).toBe('2026-12-04');
    for (const row of sales.filter((row) => row.ds <= '2026-12-24')) expect(row.yhat).toBeGreaterThan(2);
    const afterSeason = sales.filter((row) => row.ds >= '2026-12-25');
    expect(afterSeason.length).toBeGreaterThan(60);
    for (const row of afterSeason) expect(row).toMatchObject({ yhat: 0, yhat_upper: 0, yhat_upper_80: 0 });
  });

  it('borrows no season for a new product without a category (ADR 0146, amended): its level through the year', async () => {
    const forecast = await client.forecastOf('LOOSE-NEW');
    expect(forecast.metrics.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(forecast.metrics.model.description).not.toContain('seasonal category');
    expect(forecast.forecast.sales.filter((row) => row.ds >= '2027-01-01').every((row) => row.yhat > 2)).toBe(true);
  });

  it('keeps a new product of a year-round category at its level through the year', async () => {
    const forecast = await client.forecastOf('GARDEN-NEW');
    expect(forecast.metrics.model.description).not.toContain('seasonal category');
    expect(forecast.forecast.sales.filter((row) => row.ds >= '2027-01-01').every((row) => row.yhat > 2)).toBe(true);
  });
});
