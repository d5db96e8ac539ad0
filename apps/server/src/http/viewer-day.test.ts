// "Today" is the viewer's day (ADR 0030): a report's current_date, the assistant's "today" and the
// dashboard's tasks follow the time zone the browser sends. Two zones 26 hours apart always name
// different days, whenever the test runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, formatDay, type ChatMessage } from '@stockwise/contract';
import { refreshCatalogueSummary } from '../dashboard/repo.ts';
import { SERVER_ZONE } from '../testing/shop-zone.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const EAST = 'Pacific/Kiritimati'; // UTC+14
const WEST = 'Etc/GMT+12'; // UTC−12
const inZone = (zone: string) => `?time_zone=${encodeURIComponent(zone)}`;
const shiftDay = (day: string, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);

/** The zone's day around a request: a run that crosses midnight there may have read either. */
async function dayAround<T>(zone: string, work: () => Promise<T>): Promise<{ days: string[]; result: T }> {
  const before = dayInTimeZone(Date.now(), zone);
  const result = await work();
  return { days: [...new Set([before, dayInTimeZone(Date.now(), zone)])], result };
}

describe.each(backends)("the viewer's day on %s", (backend) => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server);
    viewer = await signUpUser(server, { role: 'viewer' });
  });
  afterAll(() => server.stop());

  it("runs a report's current_date in the viewer's time zone, on a run and on a saved report's data; the shop's without one (the server's: none chosen)", async () => {
    const sqlCode = "select current_date::text as today, date_trunc('month', now()) as month";
    for (const zone of [EAST, WEST]) {
      const { days, result } = await dayAround(zone, () => server.request(`/api/user-reports/execute/${inZone(zone)}`, { token: viewer.access, body: { sql_code: sqlCode } }));
      expect(result.status, result.text).toBe(200);
      const [row] = result.json.results as { today: string; month: string }[];
      expect(days).toContain(row?.today);
      // Midnight of the month where the viewer is, with the zone's offset: still a period for the charts.
      expect(row?.month).toMatch(new RegExp(`^${row?.today.slice(0, 8)}01 00:00:00[+-]\\d{2}$`));
    }
    const { days, result } = await dayAround(SERVER_ZONE, () => server.request('/api/user-reports/execute/', { token: viewer.access, body: { sql_code: sqlCode } }));
    expect(days).toContain((result.json.results as { today: string }[])[0]?.today);

    const admin = await signUpUser(server, { role: 'editor' });
    const saved = await server.request('/api/user-reports/', { token: admin.access, body: { title: 'Today here', sql_code: "select current_date as day, 1 as units" } });
    expect(saved.status, saved.text).toBe(201);
    const id = (saved.json as { id: number }).id;
    const east = await dayAround(EAST, () => server.request(`/api/user-reports/${id}/data/${inZone(EAST)}`, { token: viewer.access }));
    const west = await dayAround(WEST, () => server.request(`/api/user-reports/${id}/data/${inZone(WEST)}`, { token: viewer.access }));
    const dayOf = (answer: typeof east.result) => (answer.json.results as { day: string }[])[0]?.day;
    expect(east.days).toContain(dayOf(east.result));
    expect(west.days).toContain(dayOf(west.result));
    expect(dayOf(east.result)).not.toBe(dayOf(west.result));
    // The row is today's where the viewer is: the period under way is named by that day.
    expect(east.result.json.unfinished_period).toMatchObject({ unit: 'day', through: dayOf(east.result) });
  });

  it('refuses a time zone that is none with a 400 naming it, and runs nothing', async () => {
    for (const zone of ['Mars/Olympus', "UTC'; select pg_sleep(5); --", 'x'.repeat(300)]) {
      for (const [path, body] of [
        ['/api/user-reports/execute/', { sql_code: 'select 1 as one' }],
        ['/api/assistant/messages/', { content: 'sales today' }],
        ['/api/dashboard/', undefined],
      ] as const) {
        const answer = await server.request(`${path}${inZone(zone)}`, { token: viewer.access, ...(body ? { body } : {}) });
        expect(answer.status, `${path} ${answer.text}`).toBe(400);
        expect(answer.text).toContain('time_zone');
      }
    }
    // Nothing was asked: the refused questions are not in the viewer's conversation.
    expect((await server.request('/api/assistant/messages/', { token: viewer.access })).json).toEqual([]);
  });

  it("answers the assistant's \"today\" for the viewer's day", async () => {
    for (const zone of [EAST, WEST]) {
      const { days, result } = await dayAround(zone, () => server.request(`/api/assistant/messages/${inZone(zone)}`, { token: viewer.access, body: { content: 'sales today', context: { page: 'home', path: '/home' } } }));
      expect(result.status, result.text).toBe(200);
      const answer = (result.json.messages as ChatMessage[]).at(-1)?.content ?? '';
      expect(days.some((day) => answer.includes(formatDay(day))), answer).toBe(true);
    }
  });

  it("opens the dashboard's \"import this week's sales\" task by the viewer's day", async () => {
    const user = await signUpUser(server, { role: 'viewer' });
    const product = await server.database.db.insertInto('data.products').values({ product_code: 'TZ-1', name: 'Zoned', current_stock: 5, unit_cost: 1, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow();
    // The last sale a week before the western day: not yet stale there, more than a week old in the east (a day or two later).
    await server.database.db.insertInto('data.sales').values({ product_id: product.id, date: shiftDay(dayInTimeZone(Date.now(), WEST), -7), quantity: 1 }).execute();
    // The tasks' conditions are the catalogue summary's, kept at the end of each forecast run.
    await refreshCatalogueSummary(server.database.db);
    const tasks = async (zone: string) => (await server.request(`/api/dashboard/tasks/${inZone(zone)}`, { token: user.access })).json as unknown as { kind: string | null; completed: boolean }[];
    expect((await tasks(WEST)).find((task) => task.kind === 'import_sales')).toBeUndefined();
    expect((await tasks(EAST)).find((task) => task.kind === 'import_sales')).toMatchObject({ completed: false });
  });
});
