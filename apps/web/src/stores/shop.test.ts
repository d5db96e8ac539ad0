// An open tab follows the shop's currency without a reload (ADR 0166, amendment "other tabs follow"),
// against a loopback HTTP server playing /api/shop/: another administrator's change is read when the
// tab comes back into view, another tab's save of this browser arrives at once, and a tab that
// stopped following (signed out) reads nothing. The currency's version follows with it, so a save
// goes at the version of the currency the tab shows (ADR 0168's amendment "the shop's settings").
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { sendJson, type Loopback } from '../test/loopback.ts';
import { startLoopbackApi } from '../test/loopback-api.ts';
import { followShopSettings, initialShopState, SHOP_CHANNEL, useShopStore } from './shop.ts';

let loopback: Loopback;
/** What the server has saved now; `null` answers with a 500. */
let saved: { currency: string | null; currencyVersion?: string } | null = { currency: 'GBP', currencyVersion: '1' };
let reads = 0;
/** The If-Match of each save. */
let sentVersions: (string | undefined)[] = [];
let visibility: DocumentVisibilityState = 'visible';
let stop: () => void = () => undefined;

beforeAll(async () => {
  loopback = await startLoopbackApi((request, body, response) => {
    if (request.url?.split('?')[0] !== '/api/shop/') return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    if (request.method === 'PUT') {
      sentVersions.push(request.headers['if-match']);
      saved = { ...(JSON.parse(body) as { currency: string | null }), currencyVersion: String(Number(saved?.currencyVersion) + 1) };
      return sendJson(response, 200, saved);
    }
    reads += 1;
    return saved ? sendJson(response, 200, saved) : sendJson(response, 500, { detail: 'down', code: 'internal' });
  });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterAll(() => loopback.close());
beforeEach(async () => {
  saved = { currency: 'GBP', currencyVersion: '1' };
  reads = 0;
  sentVersions = [];
  visibility = 'visible';
  useShopStore.setState(initialShopState);
  await useShopStore.getState().load();
  expect(useShopStore.getState().currency).toBe('GBP');
  stop = followShopSettings(window);
});
afterEach(() => stop());

const currency = () => useShopStore.getState().currency;
const showTab = (state: DocumentVisibilityState) => {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
};

describe("the shop's settings in an open tab", () => {
  it("reads another administrator's change when the tab is shown again, not while it is hidden", async () => {
    saved = { currency: 'EUR' };
    showTab('hidden');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
    expect(currency()).toBe('GBP');
    showTab('visible');
    await waitFor(() => expect(currency()).toBe('EUR'));
  });

  it('reads it again when the window gets the focus, once for focus and visibility together', async () => {
    saved = { currency: 'JPY' };
    window.dispatchEvent(new Event('focus'));
    showTab('visible');
    await waitFor(() => expect(currency()).toBe('JPY'));
    expect(reads).toBe(2);
    saved = { currency: null };
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(currency()).toBeNull());
  });

  it('keeps the currency it shows when a read fails', async () => {
    saved = null;
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(reads).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(currency()).toBe('GBP');
  });

  it("takes another tab's save at once, without asking the server", async () => {
    const otherTab = new BroadcastChannel(SHOP_CHANNEL);
    try {
      otherTab.postMessage({ currency: 'USD' });
      await waitFor(() => expect(currency()).toBe('USD'));
      // Something that is not the shop's settings changes nothing.
      otherTab.postMessage({ currency: 42 });
      otherTab.postMessage('EUR');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(currency()).toBe('USD');
      expect(reads).toBe(1);
    } finally {
      otherTab.close();
    }
  });

  it("tells this browser's other tabs what it saved", async () => {
    const otherTab = new BroadcastChannel(SHOP_CHANNEL);
    const heard: unknown[] = [];
    otherTab.addEventListener('message', (event) => heard.push(event.data));
    try {
      await useShopStore.getState().save({ currency: 'CHF' });
      expect(currency()).toBe('CHF');
      expect(sentVersions).toEqual(['"1"']);
      await waitFor(() => expect(heard).toEqual([{ currency: 'CHF', currencyVersion: '2' }]));
    } finally {
      otherTab.close();
    }
  });

  it("saves at the version of the currency it shows: one read again on focus, or another tab's save", async () => {
    saved = { currency: 'EUR', currencyVersion: '7' };
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(useShopStore.getState().currencyVersion).toBe('7'));
    await useShopStore.getState().save({ currency: 'USD' });
    expect(useShopStore.getState()).toMatchObject({ currency: 'USD', currencyVersion: '8' });
    const otherTab = new BroadcastChannel(SHOP_CHANNEL);
    try {
      otherTab.postMessage({ currency: 'JPY', currencyVersion: '9' });
      await waitFor(() => expect(useShopStore.getState()).toMatchObject({ currency: 'JPY', currencyVersion: '9' }));
    } finally {
      otherTab.close();
    }
    saved = { currency: 'JPY', currencyVersion: '9' };
    await useShopStore.getState().save({ currency: 'AUD' });
    expect(sentVersions).toEqual(['"7"', '"9"']);
  });

  it('reads and hears nothing once it stopped following (signed out)', async () => {
    stop();
    saved = { currency: 'EUR' };
    window.dispatchEvent(new Event('focus'));
    showTab('visible');
    const otherTab = new BroadcastChannel(SHOP_CHANNEL);
    otherTab.postMessage({ currency: 'USD' });
    otherTab.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
    expect(currency()).toBe('GBP');
  });
});
