// The shop's currency (ADR 0166): unset until an administrator picks an ISO 4217 code; every
// approved role reads it; a code the runtime does not know is refused naming `currency` and
// changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpEachRole, startTestServer, type TestServer } from '../testing/test-server.ts';
import { NO_SHOP_ZONE } from '../testing/shop-zone.ts';

describe.each(backends)('shop settings on %s', (backend) => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ admin, editor, viewer } = await signUpEachRole(server));
  });
  afterAll(() => server.stop());

  const put = (token: string | undefined, body: unknown) => server.request('/api/shop/', { method: 'PUT', body, ...(token ? { token } : {}) });
  const currencyNow = async () => (await server.request('/api/shop/', { token: viewer })).json.currency;

  it('has no currency until an administrator picks one, and a viewer reads the one picked', async () => {
    const unset = await server.request('/api/shop/', { token: viewer });
    expect(unset.status, unset.text).toBe(200);
    expect(unset.json).toEqual({ currency: null, currencyVersion: '0', closedDates: [], closedDatesVersion: '0', ...NO_SHOP_ZONE });

    const saved = await put(admin, { currency: ' gbp ' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toEqual({ currency: 'GBP', currencyVersion: '1', closedDates: [], closedDatesVersion: '0', ...NO_SHOP_ZONE });
    expect(await currencyNow()).toBe('GBP');

    expect((await put(admin, { currency: 'USD' })).json).toEqual({ currency: 'USD', currencyVersion: '2', closedDates: [], closedDatesVersion: '0', ...NO_SHOP_ZONE });
    expect(await currencyNow()).toBe('USD');
    expect(await server.database.db.selectFrom('shop_settings').selectAll().execute()).toHaveLength(1);
  });

  it.each([
    ['an unknown code', { currency: 'XYZ' }],
    ['a country, not a currency', { currency: 'US' }],
    ['a symbol', { currency: '$' }],
    ['a blank', { currency: '' }],
    ['a number', { currency: 840 }],
    ['nothing', {}],
  ])('refuses %s with a 400 naming currency and keeps the one saved', async (_name, body) => {
    expect((await put(admin, { currency: 'EUR' })).status).toBe(200);
    const refused = await put(admin, body);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toMatchObject({ code: 'validation_error', detail: expect.stringContaining('currency:'), errors: { currency: [expect.any(String)] } });
    expect(await currencyNow()).toBe('EUR');
  });

  it('says which codes it takes when the code is unknown', async () => {
    const refused = await put(admin, { currency: 'XYZ' });
    expect(refused.json.detail).toBe('Invalid request: currency: Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.');
  });

  it('lets only administrators change it (403 for an editor and a viewer, 401 without a sign-in) and changes nothing then', async () => {
    expect((await put(admin, { currency: 'AUD' })).status).toBe(200);
    for (const token of [editor, viewer]) {
      const refused = await put(token, { currency: 'JPY' });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('forbidden');
    }
    expect((await put(undefined, { currency: 'JPY' })).status).toBe(401);
    expect((await server.request('/api/shop/')).status).toBe(401);
    expect(await currencyNow()).toBe('AUD');
  });

  it('goes back to bare figures when an administrator clears it', async () => {
    expect((await put(admin, { currency: 'CHF' })).status).toBe(200);
    const cleared = await put(admin, { currency: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json).toMatchObject({ currency: null, closedDates: [] });
    expect(await currencyNow()).toBeNull();
  });

  it('describes the calls in the OpenAPI document, the bodies naming currency and closedDates', async () => {
    const docs = await server.request('/api/docs/json');
    expect(docs.status).toBe(200);
    const paths = docs.json.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>>;
    const [shop, closed] = [paths['/api/shop/'], paths['/api/shop/closed-dates/']];
    expect(Object.keys(shop ?? {}).sort()).toEqual(['get', 'put']);
    expect(Object.keys(shop?.put?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(['currency']);
    expect(Object.keys(closed ?? {})).toEqual(['put']);
    expect(Object.keys(closed?.put?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(['closedDates']);
  });
});
