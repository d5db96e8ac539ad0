import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import * as repo from './repo.ts';

// A calendar stored by a version before returns were counted as no sales (QA5 #19) holds a category
// profile the engine refuses. A product forecast with it fails: the shop reads that in its words,
// the log keeps the engine's ("yearlyProfile must be 366 non-negative numbers.").
const SHOP_WORDS = /^its data could not be read; the details are in the server log under error id ([0-9a-f]{12})$/;

describe.each(backends)('a product that could not be forecast, on %s', (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  const logged: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    const db = server.database.db;
    await sql`insert into data.products (product_code, name, category, current_stock) values ('TREE-1', 'Christmas tree', 'Christmas', 40), ('TREE-2', 'Wreath', 'Christmas', 10)`.execute(db);
    await sql`
      insert into data.sales (product_id, date, quantity)
      select p.id, d::date, 3 from data.products p cross join generate_series(current_date - 60, current_date - 1, interval '1 day') as d
      where p.product_code = 'TREE-1'`.execute(db);
    const profile = Array.from({ length: 366 }, (_, i) => (i === 360 ? -0.2 : 1));
    await repo.saveCalendar(db, { historyStart: '2024-01-01', historyEnd: '2026-12-03', calendar: { closedDates: [], closedHolidays: [], closedWeekdays: [], yearlyProfiles: { Christmas: profile }, newItemRates: {} } });
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server.stop();
  });

  const engineLines = () => logged.filter((line) => line.includes('yearlyProfile must be 366 non-negative numbers.')).map((line) => JSON.parse(line) as { msg: string; error_id: string; style_code: string });

  it("says so in the shop's words in the run's results, and logs the engine's under the same error id", async () => {
    const status = await client.run({ style_code: 'TREE-1' });
    const failed = status.results?.failed ?? [];
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ styleCode: 'TREE-1', error: expect.stringMatching(SHOP_WORDS) });
    expect(JSON.stringify(status)).not.toContain('yearlyProfile');
    const errorId = SHOP_WORDS.exec(failed[0]!.error)![1];
    expect(engineLines()).toContainEqual(expect.objectContaining({ msg: 'product could not be forecast', error_id: errorId, style_code: 'TREE-1' }));
  });

  it("answers a first read of a product's forecast in the shop's words too", async () => {
    // Never forecast yet: read, it is forecast then, with the same calendar.
    const response = await server.request('/api/forecasting/forecasts/TREE-2', { token });
    expect(response.status).toBe(400);
    const detail = (response.json as { detail: string }).detail;
    expect(detail).toMatch(/^Cannot forecast 'TREE-2': its data could not be read; the details are in the server log under error id [0-9a-f]{12}$/);
    expect(engineLines().map((line) => line.style_code)).toContain('TREE-2');
  });
});
