// Whose today the forecast starts on (ADR 0173): the shop's time zone once an administrator chose
// one, the server's before. The zone is picked so that its date differs from the server's right now
// (UTC+14 or UTC−11: at every instant one of the two is on another day), and the till runs up to the
// earlier of the two todays, so each zone's first day is its own today.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone } from '@stockwise/contract';
import { startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { SERVER_ZONE } from '../testing/shop-zone.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 200;
const now = Date.now();
const SERVER_TODAY = dayInTimeZone(now, SERVER_ZONE);
const SHOP_ZONE = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((zone) => dayInTimeZone(now, zone) !== SERVER_TODAY)!;
const SHOP_TODAY = dayInTimeZone(now, SHOP_ZONE);
const LAST_SALE = SHOP_TODAY < SERVER_TODAY ? SHOP_TODAY : SERVER_TODAY;
const saleDay = (daysBefore: number) => new Date(Date.parse(`${LAST_SALE}T00:00:00Z`) - daysBefore * DAY_MS).toISOString().slice(0, 10);

describe.each(backends)("the forecast's first day in the shop's time zone on %s", (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = HISTORY_DAYS; t >= 0; t--) for (const code of ['CUP-12OZ', 'LID-12OZ']) tillLines.push(`${saleDay(t)},${code},${30 + (t % 5)}`);
    const products = 'Item,Description,On hand\nCUP-12OZ,12oz paper cup,2000\nLID-12OZ,12oz lid,2000\n';
    ({ server, token, client } = await startShopServer(backend, { products, productColumns: { current_stock: 'On hand' }, tillLines }));
  });
  afterAll(() => server.stop());

  const firstDay = async (code: string) => (await client.forecastOf(code)).forecast.sales[0]!.ds;

  it(`picks a zone on another day than the server's (${SHOP_ZONE})`, () => {
    expect(SHOP_TODAY).not.toBe(SERVER_TODAY);
  });

  it("starts on the server's today while the shop chose no zone", async () => {
    expect(await firstDay('CUP-12OZ')).toBe(SERVER_TODAY);
  });

  it("starts on the shop's today once it chose its zone: a single product's run and the whole catalogue's", async () => {
    const saved = await server.request('/api/shop/time-zone/', { token, method: 'PUT', body: { timeZone: SHOP_ZONE } });
    expect(saved.status, saved.text).toBe(200);
    expect(await client.run({ style_code: 'LID-12OZ' })).toMatchObject({ status: 'completed' });
    expect(await firstDay('LID-12OZ')).toBe(SHOP_TODAY);
    expect(await firstDay('CUP-12OZ')).toBe(SERVER_TODAY);
    expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 2, failed: [] } });
    expect(await firstDay('CUP-12OZ')).toBe(SHOP_TODAY);
  });
});
