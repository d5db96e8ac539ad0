// A request that sends no `time_zone` (a script, an integration partner, curl) has the shop's day,
// in the zone it chose (ADR 0173's amendment), not UTC's: a file's "today", a report's current_date,
// the assistant's "today" and a Data screen write's count. A `time_zone` sent still wins (the
// viewer's day, ADR 0030). The shop's zone is the one of UTC+14 and UTC−11 whose day is not UTC's
// right now (one of the two always differs); the zone sent is the other, 25 hours away from it, so
// the two never share a day.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, formatDay, type ChatMessage } from '@stockwise/contract';
import { startServer, type RunningServer } from '../server.ts';
import { SERVER_ZONE } from '../testing/shop-zone.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const UTC_TODAY = dayInTimeZone(Date.now(), 'UTC');
const [SHOP_ZONE, SENT_ZONE] = dayInTimeZone(Date.now(), 'Pacific/Kiritimati') !== UTC_TODAY ? ['Pacific/Kiritimati', 'Pacific/Pago_Pago'] : ['Pacific/Pago_Pago', 'Pacific/Kiritimati'];
const sent = (zone: string) => `?time_zone=${encodeURIComponent(zone)}`;

/** The zone's day around a request: one that crosses midnight there may have read either. */
async function dayAround<T>(zone: string, work: () => Promise<T>): Promise<{ days: string[]; result: T }> {
  const before = dayInTimeZone(Date.now(), zone);
  const result = await work();
  return { days: [...new Set([before, dayInTimeZone(Date.now(), zone)])], result };
}

const countMapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'Item', stock_level: 'Counted' }, field_values: { date: 'today' } } } };

describe.each(backends)("a request without time_zone reads the shop's day on %s", (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  const snapshotDays = async (code: string) =>
    (
      await sql<{ date: string }>`select s.date::text as date from data.stock_snapshots s join data.products p on p.id = s.product_id where p.product_code = ${code} order by 1`.execute(server.database.db)
    ).rows.map((row) => row.date);
  const reportDay = async (query = '') => {
    const answer = await server.request(`/api/user-reports/execute/${query}`, { token: admin.access, body: { sql_code: 'select current_date::text as today' } });
    expect(answer.status, answer.text).toBe(200);
    return (answer.json.results as { today: string }[])[0]?.today;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await signUpUser(server);
    const catalogue = await importFile(server, admin.access, { fileName: 'catalogue.csv', content: 'code,name\nSD-1,Potting soil\nSD-2,Bark mulch\n', mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } }, entityType: 'products' });
    expect(catalogue.status, JSON.stringify(catalogue.json)).toBe(200);
    const chosen = await server.request('/api/shop/time-zone/', { token: admin.access, method: 'PUT', body: { timeZone: SHOP_ZONE } });
    expect(chosen.status, chosen.text).toBe(200);
  });
  afterAll(() => server.stop());

  it(`picks a shop zone on another day than UTC's (${SHOP_ZONE}), and sends one on another day than the shop's (${SENT_ZONE})`, () => {
    expect(dayInTimeZone(Date.now(), SHOP_ZONE)).not.toBe(UTC_TODAY);
    expect(dayInTimeZone(Date.now(), SENT_ZONE)).not.toBe(dayInTimeZone(Date.now(), SHOP_ZONE));
  });

  it("dates a file's \"today\" (a mapping's field values) on the shop's day, read as it arrives or spooled; on the sent zone's day when one is sent", async () => {
    for (const [code, fieldsFirst] of [['SD-1', true], ['SD-2', false]] as const) {
      const { days, result } = await dayAround(SHOP_ZONE, () => importFile(server, admin.access, { fileName: 'count.csv', content: `Item,Counted\n${code},12\n`, mapping: countMapping, entityType: 'stock_snapshots', fieldsFirst }));
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      const [day] = await snapshotDays(code);
      expect(days).toContain(day);
    }
    await server.database.db.deleteFrom('data.stock_snapshots').execute();
    const { days, result } = await dayAround(SENT_ZONE, () => importFile(server, admin.access, { fileName: 'count.csv', content: 'Item,Counted\nSD-1,7\n', mapping: countMapping, entityType: 'stock_snapshots', extra: { time_zone: SENT_ZONE } }));
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const [day] = await snapshotDays('SD-1');
    expect(days).toContain(day);

    // A zone that is none is still a 400 naming it, whatever the shop's: nothing imported.
    const refused = await importFile(server, admin.access, { fileName: 'count.csv', content: 'Item,Counted\nSD-2,3\n', mapping: countMapping, entityType: 'stock_snapshots', extra: { time_zone: 'Mars/Olympus_Mons' } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: 'time_zone: Mars/Olympus_Mons is not a time zone (such as Europe/Berlin or America/New_York).' });
    expect(await snapshotDays('SD-2')).toEqual([]);
  });

  it("runs a report's current_date in the shop's day, a saved report's data too; in the sent zone's when one is sent", async () => {
    const shop = await dayAround(SHOP_ZONE, () => reportDay());
    expect(shop.days).toContain(shop.result);
    const viewer = await dayAround(SENT_ZONE, () => reportDay(sent(SENT_ZONE)));
    expect(viewer.days).toContain(viewer.result);

    const saved = await server.request('/api/user-reports/', { token: admin.access, body: { title: "The shop's today", sql_code: 'select current_date as day, 1 as units' } });
    expect(saved.status, saved.text).toBe(201);
    const { days, result } = await dayAround(SHOP_ZONE, () => server.request(`/api/user-reports/${(saved.json as { id: number }).id}/data/`, { token: admin.access }));
    expect(result.status, result.text).toBe(200);
    expect(days).toContain((result.json.results as { day: string }[])[0]?.day);

    const refused = await server.request(`/api/user-reports/execute/${sent('Mars/Olympus')}`, { token: admin.access, body: { sql_code: 'select 1 as one' } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('time_zone: Mars/Olympus is not a time zone');
  });

  it("answers the assistant's \"sales today\" for the shop's day; for the sent zone's when one is sent", async () => {
    const ask = (query: string) => server.request(`/api/assistant/messages/${query}`, { token: admin.access, body: { content: 'sales today', context: { page: 'home', path: '/home' } } });
    for (const [zone, query] of [[SHOP_ZONE, ''], [SENT_ZONE, sent(SENT_ZONE)]] as const) {
      const { days, result } = await dayAround(zone, () => ask(query));
      expect(result.status, result.text).toBe(200);
      const answer = (result.json.messages as ChatMessage[]).at(-1)?.content ?? '';
      expect(days.some((day) => answer.includes(formatDay(day))), answer).toBe(true);
    }
  });

  it("records a product's typed stock from the Data screen's API as the shop's day's count", async () => {
    const { days, result } = await dayAround(SHOP_ZONE, () => server.request('/api/records/tables/products/rows/add/', { token: admin.access, body: { product_code: 'SD-TYPED', name: 'Typed', current_stock: 4 } }));
    expect(result.status, result.text).toBe(201);
    const [day] = await snapshotDays('SD-TYPED');
    expect(days).toContain(day);
  });

  it('follows a zone changed through another server from its next request, and the server\'s zone once the choice is cleared', async () => {
    // Another API instance on the same database (PGlite has one process only: the same server).
    const other: RunningServer | null = backend === 'postgres' ? await startServer({ ...server.config }) : null;
    try {
      const changeVia = async (timeZone: string | null) => {
        const answer = await fetch(`${other?.url ?? server.url}/api/shop/time-zone/`, { method: 'PUT', headers: { authorization: `Bearer ${admin.access}`, 'content-type': 'application/json' }, body: JSON.stringify({ timeZone }) });
        expect(answer.status, await answer.text()).toBe(200);
      };
      await changeVia(SENT_ZONE);
      const moved = await dayAround(SENT_ZONE, () => reportDay());
      expect(moved.days).toContain(moved.result);
      await changeVia(null);
      const cleared = await dayAround(SERVER_ZONE, () => reportDay());
      expect(cleared.days).toContain(cleared.result);
    } finally {
      await other?.stop();
    }
  });
});
