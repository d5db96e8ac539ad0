// The shop's settings saved by two administrators at once (ADR 0168's amendment "the shop's
// settings"), on PGlite and PostgreSQL: the currency and the closed dates each carry a version in the
// settings; a save sent with a version no longer stored is a 409 naming who saved and when, changing
// nothing; a save of one panel never makes the other stale; without If-Match a save is made as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopSettings } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { NO_SHOP_ZONE } from '../testing/shop-zone.ts';

const BANK_HOLIDAY = { date: '2026-12-28', note: 'Bank holiday (substitute)' };
const STOCK_TAKE = { date: '2027-01-04', note: 'Stock-take' };

describe.each(backends)('shop settings versions on %s', (backend) => {
  let server: TestServer;
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let kim: Awaited<ReturnType<typeof signUpUser>>;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    sam = await signUpUser(server);
    kim = await signUpUser(server, { role: 'admin' });
    viewer = await signUpUser(server, { role: 'viewer' });
  });
  afterAll(() => server?.stop());

  const ifMatch = (version: string | undefined) => (version === undefined ? {} : { headers: { 'if-match': `"${version}"` } });
  const putCurrency = (who: { access: string }, currency: string | null, version?: string) =>
    server.request('/api/shop/?time_zone=Europe/London', { token: who.access, method: 'PUT', body: { currency }, ...ifMatch(version) });
  const putDates = (who: { access: string }, closedDates: { date: string; note: string | null }[], version?: string) =>
    server.request('/api/shop/closed-dates/?time_zone=Europe/London', { token: who.access, method: 'PUT', body: { closedDates }, ...ifMatch(version) });
  const read = async () => (await server.request('/api/shop/', { token: viewer.access })).json as unknown as ShopSettings;

  // First: the shop has saved nothing yet, and no settings row exists.
  it('answers "0" for both panels of a shop that saved nothing, and takes the first save at "0", creating its settings', async () => {
    expect(await server.database.db.selectFrom('shop_settings').selectAll().execute()).toHaveLength(0);
    const empty = await server.request('/api/shop/', { token: viewer.access });
    expect(empty.headers.get('etag')).toBeNull();
    expect(empty.json).toEqual({ currency: null, currencyVersion: '0', closedDates: [], closedDatesVersion: '0', ...NO_SHOP_ZONE });
    const first = await putDates(kim, [BANK_HOLIDAY], '0');
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ currency: null, currencyVersion: '0', closedDates: [BANK_HOLIDAY], closedDatesVersion: '1', ...NO_SHOP_ZONE });
  });

  it('refuses the second of two closed-date saves made on one version, naming who saved and when, keeping the first', async () => {
    const opened = await read();
    const first = await putDates(kim, [...opened.closedDates, STOCK_TAKE], opened.closedDatesVersion);
    expect(first.status, first.text).toBe(200);
    const second = await putDates(sam, [...opened.closedDates, { date: '2027-01-05', note: 'Inventory' }], opened.closedDatesVersion);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^The closed dates were changed by ${kim.username} at \\d\\d:\\d\\d after you opened them\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(kim.username);
    expect(Date.parse(second.json.changed_at as string)).not.toBeNaN();
    expect(second.json.current).toEqual(first.json);
    expect(await read()).toEqual(first.json);
  });

  it('refuses a stale currency save the same way, keeping the currency saved', async () => {
    const opened = await read();
    const first = await putCurrency(kim, 'GBP', opened.currencyVersion);
    expect(first.status, first.text).toBe(200);
    expect(first.json.currencyVersion).not.toBe(opened.currencyVersion);
    const second = await putCurrency(sam, 'EUR', opened.currencyVersion);
    expect(second.status, second.text).toBe(409);
    expect(second.json.detail).toMatch(new RegExp(`^The shop's currency was changed by ${kim.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.current).toMatchObject({ currency: 'GBP', currencyVersion: first.json.currencyVersion });
    expect((await read()).currency).toBe('GBP');
    const again = await putCurrency(sam, 'EUR', first.json.currencyVersion as string);
    expect(again.status, again.text).toBe(200);
    expect(again.json.currency).toBe('EUR');
  });

  it('keeps the two panels apart: a save of the currency does not make the closed dates stale, nor the other way round', async () => {
    const opened = await read();
    expect((await putCurrency(kim, 'AUD', opened.currencyVersion)).status).toBe(200);
    const dates = await putDates(sam, [BANK_HOLIDAY], opened.closedDatesVersion);
    expect(dates.status, dates.text).toBe(200);
    expect(dates.json).toMatchObject({ currency: 'AUD', currencyVersion: String(Number(opened.currencyVersion) + 1), closedDatesVersion: String(Number(opened.closedDatesVersion) + 1) });
    const currency = await putCurrency(sam, 'NZD', dates.json.currencyVersion as string);
    expect(currency.status, currency.text).toBe(200);
    expect(currency.json.closedDatesVersion).toBe(dates.json.closedDatesVersion);
  });

  it('saves without If-Match (or with *) as before: the last save wins', async () => {
    const opened = await read();
    expect((await putDates(kim, [STOCK_TAKE], opened.closedDatesVersion)).status).toBe(200);
    const unchecked = await putDates(sam, [BANK_HOLIDAY]);
    expect(unchecked.status, unchecked.text).toBe(200);
    expect((await putCurrency(kim, 'JPY')).status).toBe(200);
    const any = await server.request('/api/shop/', { token: sam.access, method: 'PUT', body: { currency: 'CHF' }, headers: { 'if-match': '*' } });
    expect(any.status, any.text).toBe(200);
    expect(await read()).toMatchObject({ currency: 'CHF', closedDates: [BANK_HOLIDAY] });
  });

  it('answers a malformed If-Match as a 400 naming it, changing nothing', async () => {
    const before = await read();
    for (const path of ['/api/shop/', '/api/shop/closed-dates/']) {
      const body = path === '/api/shop/' ? { currency: 'SEK' } : { closedDates: [] };
      const malformed = await server.request(path, { token: sam.access, method: 'PUT', body, headers: { 'if-match': 'yesterday' } });
      expect(malformed.status, malformed.text).toBe(400);
      expect(malformed.json.errors).toHaveProperty('If-Match');
    }
    expect(await read()).toEqual(before);
  });

  it('still lets no viewer save, whatever the version (403), changing nothing', async () => {
    const before = await read();
    expect((await putCurrency(viewer, 'SEK', before.currencyVersion)).status).toBe(403);
    expect((await putDates(viewer, [], before.closedDatesVersion)).status).toBe(403);
    expect(await read()).toEqual(before);
  });

  it('lets one of two saves sent at once on one version through, and refuses the other', async () => {
    const opened = await read();
    const answers = await Promise.all([
      putDates(kim, [STOCK_TAKE], opened.closedDatesVersion),
      putDates(sam, [{ date: '2027-01-05', note: 'Inventory' }], opened.closedDatesVersion),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const saved = answers.find((answer) => answer.status === 200);
    expect(await read()).toEqual(saved?.json);
  });
});
