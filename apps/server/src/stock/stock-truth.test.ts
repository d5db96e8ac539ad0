// One stock truth (issue 13, ADR 0030) on both databases: current_stock written on the Data screen
// or by an import is also today's snapshot; a snapshot that becomes a product's latest dated
// figure (today or earlier) sets current_stock, an older or a future one does not; a blank stock
// cell records nothing.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const productMapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' } } } };
const snapshotMapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } } } };
const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.each(backends)('one stock truth on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  /** The product's current_stock and its snapshots, oldest first (dates as the database's today sees them). */
  const stockOf = async (code: string) => {
    const { rows } = await sql<{ current_stock: number; today: string; snapshots: { date: string; level: number }[] | null }>`
      select p.current_stock, current_date::text as today,
        (select json_agg(json_build_object('date', s.date::text, 'level', s.stock_level) order by s.date) from data.stock_snapshots s where s.product_id = p.id) as snapshots
      from data.products p where p.product_code = ${code}`.execute(server.database.db);
    const row = rows[0];
    if (!row) throw new Error(`no product ${code}`);
    return { current: row.current_stock, today: row.today, snapshots: (row.snapshots ?? []).map((s) => [s.date, s.level]) };
  };

  it('a figure typed on the Data screen is today\'s snapshot, whether the product is new or edited', async () => {
    const added = await server.request('/api/records/tables/products/rows/add/', { token, body: { product_code: 'ST-EDIT', name: 'Edited', current_stock: 40 } });
    expect(added.status).toBe(201);
    const first = await stockOf('ST-EDIT');
    expect(first).toMatchObject({ current: 40, snapshots: [[first.today, 40]] });
    const id = (added.json as { id: number }).id;
    expect((await server.request('/api/records/tables/products/rows/edit/', { token, body: { id, current_stock: 35 } })).status).toBe(200);
    expect(await stockOf('ST-EDIT')).toMatchObject({ current: 35, snapshots: [[first.today, 35]] });
    // An edit of another column leaves the history alone.
    expect((await server.request('/api/records/tables/products/rows/edit/', { token, body: { id, name: 'Renamed' } })).status).toBe(200);
    expect((await stockOf('ST-EDIT')).snapshots).toEqual([[first.today, 35]]);
  });

  it("a Data screen write sent with the shop's time zone records the shop's day: a typed figure is that day's count, a count of that day is on hand", async () => {
    // A zone whose day is not UTC's now (one of them always is): the shop's late evening or early morning.
    const utcDay = dayInTimeZone(Date.now(), 'UTC');
    const zone = dayInTimeZone(Date.now(), 'Pacific/Kiritimati') !== utcDay ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
    const shopDay = dayInTimeZone(Date.now(), zone);
    const inZone = `?time_zone=${encodeURIComponent(zone)}`;
    const added = await server.request(`/api/records/tables/products/rows/add/${inZone}`, { token, body: { product_code: 'ST-ZONE', name: 'Zoned', current_stock: 12 } });
    expect(added.status, added.text).toBe(201);
    expect((await stockOf('ST-ZONE')).snapshots).toEqual([[shopDay, 12]]);
    const id = (added.json as { id: number }).id;
    expect((await server.request(`/api/records/tables/products/rows/edit/${inZone}`, { token, body: { id, current_stock: 9 } })).status).toBe(200);
    expect((await stockOf('ST-ZONE')).snapshots).toEqual([[shopDay, 9]]);
    // A count of the shop's today (UTC's tomorrow where the shop is ahead) is on hand at once.
    const uncounted = await server.request('/api/records/tables/products/rows/add/', { token, body: { product_code: 'ST-ZONE-COUNT', name: 'Counted' } });
    const counted = await server.request(`/api/records/tables/stock_snapshots/rows/add/${inZone}`, { token, body: { product_id: (uncounted.json as { id: number }).id, date: shopDay, stock_level: 7 } });
    expect(counted.status, counted.text).toBe(201);
    expect(await stockOf('ST-ZONE-COUNT')).toMatchObject({ current: 7 });
    // A zone that is none is refused, naming it, and changes nothing (none sent: the shop's day, http/shop-day.test.ts).
    const unknown = await server.request('/api/records/tables/products/rows/edit/?time_zone=Mars%2FOlympus', { token, body: { id, current_stock: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.detail).toBe('time_zone: Mars/Olympus is not a time zone (such as Europe/Berlin or America/New_York).');
    // A NUL, a terminal's escape or a line break in it is not echoed back.
    const controlled = await server.request('/api/records/tables/products/rows/add/?time_zone=Mars%00%1B%5B31m%0D%0AOlympus', { token, body: { product_code: 'ST-ZONE-NUL', name: 'Nul' } });
    expect(controlled.status).toBe(400);
    expect(controlled.json.detail).toBe('time_zone: Mars [31m Olympus is not a time zone (such as Europe/Berlin or America/New_York).');
    expect(await stockOf('ST-ZONE')).toMatchObject({ current: 9 });
    // The connection's zone is the shop's for that write only: the next query reads the database's day.
    const { rows } = await sql<{ today: string }>`select current_date::text as today`.execute(server.database.db);
    expect(rows[0]?.today).toBe(utcDay);
  });

  it("an imported figure is today's snapshot; a blank stock cell records none", async () => {
    const result = await importFile(server, token, { fileName: 'p.csv', content: 'code,name,stock\nST-IMP,Imported,12\nST-BLANK,Blank,\n', mapping: productMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const imported = await stockOf('ST-IMP');
    expect(imported).toMatchObject({ current: 12, snapshots: [[imported.today, 12]] });
    expect((await stockOf('ST-BLANK')).snapshots).toEqual([]);
    const again = await importFile(server, token, { fileName: 'p.csv', content: 'code,name,stock\nST-IMP,Imported,9\n', mapping: productMapping, entityType: 'products' });
    expect(again.status).toBe(200);
    expect(await stockOf('ST-IMP')).toMatchObject({ current: 9, snapshots: [[imported.today, 9]] });
  });

  it('the latest dated count sets current_stock; an older count does not, and a future one is refused', async () => {
    expect((await importFile(server, token, { fileName: 'p.csv', content: 'code,name,stock\nST-COUNT,Counted,\n', mapping: productMapping, entityType: 'products' })).status).toBe(200);
    const counts = (lines: string) => importFile(server, token, { fileName: 's.csv', content: `code,day,counted\n${lines}`, mapping: snapshotMapping, entityType: 'stock_snapshots' });
    expect((await counts(`ST-COUNT,${isoDay(-30)},10\nST-COUNT,${isoDay(-2)},17\n`)).status).toBe(200);
    expect((await stockOf('ST-COUNT')).current).toBe(17);
    expect((await counts(`ST-COUNT,${isoDay(-10)},99\n`)).status).toBe(200);
    expect((await stockOf('ST-COUNT')).current).toBe(17);
    const future = await counts(`ST-COUNT,${isoDay(5)},3\n`);
    expect(future.status).toBe(400);
    expect(future.json.row_errors).toEqual([{ row: 2, field: 'date', column: 'day', reason: expect.stringContaining('is in the future') }]);
    expect((await stockOf('ST-COUNT')).current).toBe(17);
    // A correction of the latest count is the figure now.
    expect((await counts(`ST-COUNT,${isoDay(-2)},15\n`)).status).toBe(200);
    expect((await stockOf('ST-COUNT')).current).toBe(15);
  });
});
