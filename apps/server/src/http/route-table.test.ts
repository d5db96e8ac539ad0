// Walks every registered route: each API route is public (a short allowlist) or declares the least
// role it needs; without a valid bearer token every guarded route answers 401, and a role below the
// policy gets 403 `forbidden` before the handler runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, type Role } from '@stockwise/contract';
import type { RouteEntry } from '../app.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const publicApiRoutes = new Set(['POST /api/token/', 'POST /api/token/refresh/', 'POST /api/token/logout/', 'POST /api/accounts/register/', 'GET /api/accounts/first-run/', 'GET /api/health']);
const isPublicByPath = (url: string) => !url.startsWith('/api/') || url.startsWith('/api/docs');
const routeName = (route: RouteEntry) => `${route.method} ${route.url}`;
const concretePath = (url: string) => url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');

describe.each(backends)('route table on %s', (backend) => {
  let server: TestServer;
  const tokens = {} as Record<Role, string>;
  beforeAll(async () => {
    server = await startTestServer(backend);
    for (const role of roles) tokens[role] = (await signUpUser(server, { role })).access;
  });
  afterAll(() => server.stop());

  const apiRoutes = () =>
    server.app.routeTable.filter((route) => !['HEAD', 'OPTIONS'].includes(route.method) && !isPublicByPath(route.url));
  const guardedRoutes = () => apiRoutes().filter((route) => !route.public);
  const call = (route: RouteEntry, token?: string) =>
    server.request(concretePath(route.url), { method: route.method, ...(token ? { token } : {}), ...(route.method === 'GET' ? {} : { body: {} }) });

  it('makes public exactly the sign-in, refresh, logout, registration, first-run and health routes', () => {
    expect(new Set(apiRoutes().filter((route) => route.public).map(routeName))).toEqual(publicApiRoutes);
  });

  it('gives every other API route a declared policy', () => {
    const withoutPolicy = guardedRoutes().filter((route) => route.policy === null).map(routeName);
    expect(withoutPolicy).toEqual([]);
  });

  it('answers 401 on every guarded route without a token or with a bad one', async () => {
    expect(guardedRoutes().length).toBeGreaterThan(0);
    for (const route of guardedRoutes()) {
      for (const token of [undefined, 'a.b.c']) {
        const response = await call(route, token);
        expect({ route: routeName(route), status: response.status }).toEqual({ route: routeName(route), status: 401 });
      }
    }
  });

  it('answers 403 forbidden to every role below a route policy, before the handler runs', async () => {
    let refusals = 0;
    for (const route of guardedRoutes()) {
      const required = roles.indexOf(route.policy as Role);
      for (const role of roles.slice(0, required)) {
        const response = await call(route, tokens[role]);
        expect({ route: routeName(route), role, status: response.status, code: response.json.code }).toEqual({
          route: routeName(route),
          role,
          status: 403,
          code: 'forbidden',
        });
        refusals += 1;
      }
    }
    expect(refusals).toBeGreaterThan(guardedRoutes().length);
  });

  it('lets a role at the policy through to the handler (validation or data, never the guard)', async () => {
    for (const route of guardedRoutes()) {
      const response = await call(route, tokens[route.policy as Role]);
      expect({ route: routeName(route), forbidden: response.status === 401 || response.status === 403 }).toEqual({ route: routeName(route), forbidden: false });
    }
  });

  it.each([
    ['viewer reads rows', 'viewer', 'GET', '/api/records/tables/products/data/', undefined, 200],
    ['viewer downloads a table as .xlsx', 'viewer', 'GET', '/api/records/tables/products/export/?format=xlsx', undefined, 200],
    ['viewer downloads a report as .xlsx', 'viewer', 'POST', '/api/user-reports/export/?format=xlsx', { sql_code: 'select 1 as one' }, 200],
    ['pending may not download a report', 'pending', 'POST', '/api/user-reports/export/?format=xlsx', { sql_code: 'select 1 as one' }, 403],
    ['viewer may not add a row', 'viewer', 'POST', '/api/records/tables/products/rows/add/', { product_code: 'X1', name: 'x' }, 403],
    ['viewer may not delete the sales table', 'viewer', 'POST', '/api/records/tables/sales/delete/', {}, 403],
    ['editor may not delete the sales table', 'editor', 'POST', '/api/records/tables/sales/delete/', {}, 403],
    ['editor may not change configuration', 'editor', 'POST', '/api/yaml/update-entity/', { entity_name: 'products', config: {} }, 403],
    ['editor may not list users', 'editor', 'GET', '/api/accounts/users/', undefined, 403],
    ['pending may not read rows', 'pending', 'GET', '/api/records/tables/products/data/', undefined, 403],
    ['pending reads its own account', 'pending', 'GET', '/api/accounts/me/', undefined, 200],
    ['admin lists users', 'admin', 'GET', '/api/accounts/users/', undefined, 200],
    ['viewer reads the shop currency', 'viewer', 'GET', '/api/shop/', undefined, 200],
    ['pending may not read the shop currency', 'pending', 'GET', '/api/shop/', undefined, 403],
    ['editor may not change the shop currency', 'editor', 'PUT', '/api/shop/', { currency: 'USD' }, 403],
    ['admin changes the shop currency', 'admin', 'PUT', '/api/shop/', { currency: 'USD' }, 200],
    ['editor may not change the shop closed dates', 'editor', 'PUT', '/api/shop/closed-dates/', { closedDates: [] }, 403],
    ['admin changes the shop closed dates', 'admin', 'PUT', '/api/shop/closed-dates/', { closedDates: [{ date: '2026-12-28' }] }, 200],
  ] as const)('%s', async (_name, role, method, path, body, status) => {
    const response = await server.request(path, { method, token: tokens[role], ...(body ? { body } : {}) });
    expect(response.status).toBe(status);
    if (status === 403) expect(response.json).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/role|approve/) });
  });
});
