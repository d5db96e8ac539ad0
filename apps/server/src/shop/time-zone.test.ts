// The shop's time zone (ADR 0173), on PGlite and PostgreSQL: none until an administrator picks one
// (the server's is in effect, and the settings say so); saved by its IANA name at the version its
// panel read, apart from the currency's; an unknown zone is a 400 naming timeZone, a stale save a
// 409 naming who and when, another role's save a 403 — each changing nothing. A new integration
// left without a zone takes the shop's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopSettings } from '@stockwise/contract';
import { NO_SHOP_ZONE } from '../testing/shop-zone.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)("the shop's time zone on %s", (backend) => {
  let server: TestServer;
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let kim: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    sam = await signUpUser(server);
    kim = await signUpUser(server, { role: 'admin' });
    editor = await signUpUser(server, { role: 'editor' });
    viewer = await signUpUser(server, { role: 'viewer' });
  });
  afterAll(() => server?.stop());

  const ifMatch = (version: string | undefined) => (version === undefined ? {} : { headers: { 'if-match': `"${version}"` } });
  const putZone = (who: { access: string }, body: unknown, version?: string) =>
    server.request('/api/shop/time-zone/?time_zone=Europe/London', { token: who.access, method: 'PUT', body, ...ifMatch(version) });
  const read = async () => (await server.request('/api/shop/', { token: viewer.access })).json as unknown as ShopSettings;

  it("has none until an administrator picks one, the server's in effect and said to be", async () => {
    expect(await read()).toMatchObject(NO_SHOP_ZONE);
  });

  it('saves a zone by its IANA name as the runtime writes it, and every role reads it in effect', async () => {
    const saved = await putZone(kim, { timeZone: ' america/chicago ' }, '0');
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({ timeZone: 'America/Chicago', timeZoneVersion: '1', timeZoneInEffect: 'America/Chicago', timeZoneSource: 'shop', currencyVersion: '0' });
    expect(await read()).toEqual(saved.json);
    const row = await server.database.db.selectFrom('shop_settings').select(['time_zone', 'time_zone_updated_by']).executeTakeFirstOrThrow();
    expect(row).toEqual({ time_zone: 'America/Chicago', time_zone_updated_by: kim.id });
  });

  it.each([
    ['an unknown zone', { timeZone: 'Mars/Olympus_Mons' }],
    ['a NUL byte', { timeZone: 'Europe/London\u0000' }],
    ['a bare offset', { timeZone: '+05:00' }],
    ['a blank', { timeZone: '  ' }],
    ['a number', { timeZone: 14 }],
    ['nothing', {}],
    ['5,000 characters', { timeZone: 'a'.repeat(5000) }],
  ])('refuses %s with a 400 naming timeZone and keeps the zone saved', async (_name, body) => {
    const before = await read();
    const refused = await putZone(sam, body, before.timeZoneVersion);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toMatchObject({ code: 'validation_error', detail: expect.stringContaining('timeZone:'), errors: { timeZone: expect.arrayContaining([expect.any(String)]) } });
    expect(await read()).toEqual(before);
  });

  it('says which zones it takes', async () => {
    const refused = await putZone(sam, { timeZone: 'Mars/Olympus_Mons' });
    expect(refused.json.detail).toBe('Invalid request: timeZone: Choose a time zone by its IANA name, such as Europe/London or America/Chicago.');
    // Too long to be one: said once, not once for the length and again for the name.
    expect((await putZone(sam, { timeZone: 'Europe/'.repeat(20) })).json.detail).toBe(refused.json.detail);
  });

  it('refuses the second of two saves made on one version, naming who saved and when, keeping the first', async () => {
    const opened = await read();
    const first = await putZone(kim, { timeZone: 'Europe/London' }, opened.timeZoneVersion);
    expect(first.status, first.text).toBe(200);
    const second = await putZone(sam, { timeZone: 'Australia/Sydney' }, opened.timeZoneVersion);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^The shop's time zone was changed by ${kim.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(kim.username);
    expect(second.json.current).toEqual(first.json);
    expect(await read()).toEqual(first.json);
    const again = await putZone(sam, { timeZone: 'Australia/Sydney' }, first.json.timeZoneVersion as string);
    expect(again.status, again.text).toBe(200);
    expect(again.json.timeZone).toBe('Australia/Sydney');
  });

  it("keeps its version apart from the currency's: a currency save does not make an open time-zone panel stale", async () => {
    const opened = await read();
    const currency = await server.request('/api/shop/', { token: kim.access, method: 'PUT', body: { currency: 'AUD' }, ...ifMatch(opened.currencyVersion) });
    expect(currency.status, currency.text).toBe(200);
    expect(currency.json.timeZoneVersion).toBe(opened.timeZoneVersion);
    const zone = await putZone(sam, { timeZone: 'Pacific/Auckland' }, opened.timeZoneVersion);
    expect(zone.status, zone.text).toBe(200);
    expect(zone.json).toMatchObject({ currency: 'AUD', currencyVersion: currency.json.currencyVersion, timeZone: 'Pacific/Auckland' });
  });

  it('lets no editor or viewer save it (403), and no one signed out (401), changing nothing', async () => {
    const before = await read();
    for (const who of [editor, viewer]) {
      const refused = await putZone(who, { timeZone: 'Asia/Tokyo' }, before.timeZoneVersion);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json.code).toBe('forbidden');
    }
    expect((await server.request('/api/shop/time-zone/', { method: 'PUT', body: { timeZone: 'Asia/Tokyo' } })).status).toBe(401);
    expect(await read()).toEqual(before);
  });

  it("gives a new integration left without a zone the shop's, and one given a zone keeps it", async () => {
    const create = (body: Record<string, unknown>) =>
      server.request('/api/integrations/scheduled/', { token: sam.access, body: { endpoint: 'https://shop.example.com/api/order-lines', mapping_selection: 'shop_export_json', target_entity: 'products', ...body } });
    const shops = await create({});
    expect(shops.status, shops.text).toBe(201);
    expect(shops.json.time_zone).toBe('Pacific/Auckland');
    const own = await create({ time_zone: 'Europe/Berlin' });
    expect(own.status, own.text).toBe(201);
    expect(own.json.time_zone).toBe('Europe/Berlin');
  });

  it("goes back to the server's zone when an administrator clears it", async () => {
    const opened = await read();
    const cleared = await putZone(kim, { timeZone: null }, opened.timeZoneVersion);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json).toMatchObject({ ...NO_SHOP_ZONE, timeZoneVersion: String(Number(opened.timeZoneVersion) + 1) });
  });
});
