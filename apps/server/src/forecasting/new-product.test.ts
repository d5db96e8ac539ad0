import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForecastServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

// A garden category whose six products were launched within the last two years, each selling a
// steady 2–7 units a day from its launch, and an established tools range selling 40 a day
// throughout. A product added to the garden range without any sales is forecast at the garden
// launches' typical first-weeks demand; one in a category without launches at the catalogue's.
describe.each(backends)('new products forecast from their category on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  beforeAll(async () => {
    ({ server, client } = await startForecastServer(backend));
    const db = server.database.db;
    await sql`insert into data.products (product_code, name, category, current_stock) select 'GARDEN-' || i, 'Garden item ' || i, 'Garden', 100 from generate_series(1, 6) as i`.execute(db);
    await sql`insert into data.products (product_code, name, category, current_stock) select 'TOOLS-' || i, 'Tool ' || i, 'Tools', 500 from generate_series(1, 3) as i`.execute(db);
    // GARDEN-i launches 60·i days into the history and sells i + 1 units every day from then on.
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, substring(p.product_code from 8)::int + 1
      from data.products p cross join generate_series(date '2024-12-01', date '2026-11-30', interval '1 day') as d
      where p.category = 'Garden' and d >= date '2024-12-01' + 60 * substring(p.product_code from 8)::int`.execute(db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, 40
      from data.products p cross join generate_series(date '2024-12-01', date '2026-11-30', interval '1 day') as d
      where p.category = 'Tools'`.execute(db);
    // Added once the history is in: new, where a product listed all along without a sale is not (never-sold.test.ts).
    await sql`insert into data.products (product_code, name, category, current_stock) values ('GARDEN-NEW', 'New garden item', 'Garden', 20), ('LAMP-NEW', 'New lamp', 'Lighting', 20)`.execute(db);
  });
  afterAll(() => server.stop());


  it("forecasts a new garden product at the garden launches' median first-weeks demand, labelled as no history, with a wide band", async () => {
    const status = await client.run();
    expect(status).toMatchObject({ status: 'completed', results: { products: 11, failed: [] } });
    const { rows } = await sql<{ calendar: { newItemRates: Record<string, number[]> } }>`select calendar from forecast_calendar`.execute(server.database.db);
    // The established tools sold from the first day: not launches.
    expect(rows[0]?.calendar.newItemRates).toEqual({ Garden: [2, 3, 4, 5, 6, 7], '*': [2, 3, 4, 5, 6, 7] });

    const forecast = await client.forecastOf('GARDEN-NEW');
    expect(forecast.metrics.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(forecast.metrics.model.description).toContain("its category's new products");
    for (const row of forecast.forecast.sales) {
      expect(row.yhat).toBe(4.5);
      expect(row.yhat_lower).toBeLessThanOrEqual(1);
      expect(row.yhat_upper).toBeGreaterThanOrEqual(10);
      expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat_lower_80);
      expect(row.yhat_upper_80).toBeLessThanOrEqual(row.yhat_upper);
    }
  });

  it("falls back to the catalogue's launches for a category without any", async () => {
    const forecast = await client.forecastOf('LAMP-NEW');
    expect(forecast.metrics.model).toMatchObject({ name: 'NewProduct', history: 'none' });
    expect(forecast.metrics.model.description).toContain("the catalogue's new products");
    expect(forecast.forecast.sales[0]?.yhat).toBe(4.5);
  });
});
