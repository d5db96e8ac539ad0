import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteResponse, UserReport } from '@stockwise/contract';
import { backends, startTestServer, type TestServer } from '../testing/test-server.ts';
import { DEMO_USERNAME, demoReports, seedDemoData } from './seed.ts';

const nextMonth = (month: string, step = 1) => {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber - 1 + step, 1)).toISOString().slice(0, 7);
};

describe.each(backends)('demo reports on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'stockwise-demo', productCount: 30, today: new Date() });
    token = (await server.request('/api/token/', { body: { username: DEMO_USERNAME, password: 'stockwise-demo' } })).json.access as string;
  });
  afterAll(() => server.stop());

  it('lists the example reports in their order, owned by the demo user, the first pinned to the dashboard', async () => {
    const listed = (await server.request('/api/user-reports/', { token })).json as unknown as UserReport[];
    expect(listed.map((r) => [r.title, r.owner_username])).toEqual(demoReports.map((r) => [r.title, DEMO_USERNAME]));
    const pins = (await server.request('/api/dashboard/pins/', { token })).json as unknown as { id: number; title: string }[];
    expect(pins).toEqual([{ id: listed[0]?.id, title: demoReports[0]?.title }]);
  });

  it("runs every example report through the report sandbox, with rows for each of its chart's columns", async () => {
    const listed = (await server.request('/api/user-reports/', { token })).json as unknown as UserReport[];
    for (const report of listed) {
      const data = (await server.request(`/api/user-reports/${report.id}/data/`, { token })).json as unknown as ExecuteResponse;
      expect(data.error, report.title).toBeNull();
      expect(data.results.length, report.title).toBeGreaterThan(1);
      const chart = report.chart_config;
      const charted = [chart?.x_field, chart?.group_field, ...(chart?.series ?? []).map((s) => s.field)].filter((field) => field);
      expect(data.columns.map((c) => c.name), report.title).toEqual(expect.arrayContaining(charted));
      for (const field of charted) expect(data.results.every((row) => row[field as string] !== null), `${report.title}: ${field}`).toBe(true);
    }
  });

  it('charts complete months only: not the month the history starts in, nor the current one', async () => {
    const [monthly] = (await server.request('/api/user-reports/', { token })).json as unknown as UserReport[];
    const data = (await server.request(`/api/user-reports/${monthly?.id}/data/`, { token })).json as unknown as ExecuteResponse;
    const months = [...new Set(data.results.map((row) => String(row.month).slice(0, 7)))].sort();
    const firstSale = (await server.database.db.selectFrom('data.sales').select((eb) => eb.fn.min('date').as('first')).executeTakeFirstOrThrow()).first;
    expect(months[0]).toBe(nextMonth(String(firstSale).slice(0, 7)));
    expect(months.at(-1)).toBe(nextMonth(new Date().toISOString().slice(0, 7), -1));
  });
});
