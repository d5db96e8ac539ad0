// @vitest-environment node
// The Data screen's row writes against a real loopback HTTP server: each says the browser's time
// zone, whose day the server records a typed stock figure on (ADR 0030's amendments).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from './http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { useSessionStore } from '../stores/session.ts';
import { browserTimeZone } from './shop-day.ts';
import { addRow, editRow } from './tables.ts';

let loopback: Loopback;
let received: { url: string; body: string }[] = [];

beforeAll(async () => {
  loopback = await startLoopback((request, body, response) => {
    received.push({ url: request.url ?? '', body });
    return sendJson(response, 200, { id: 1, current_stock: 4 });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});

afterAll(() => loopback.close());

beforeEach(() => {
  received = [];
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
});

describe('row writes', () => {
  it("add and edit send the row as the body and the browser's time zone as time_zone", async () => {
    await addRow('products', { product_code: 'P-1', current_stock: 4 });
    await editRow('products', { id: 1, current_stock: 3 });
    const zone = encodeURIComponent(browserTimeZone());
    expect(received.map((request) => [request.url, JSON.parse(request.body)])).toEqual([
      [`/api/records/tables/products/rows/add/?time_zone=${zone}`, { product_code: 'P-1', current_stock: 4 }],
      [`/api/records/tables/products/rows/edit/?time_zone=${zone}`, { id: 1, current_stock: 3 }],
    ]);
  });
});
