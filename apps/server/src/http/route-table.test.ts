// Walks every registered route: anything not on the public allowlist must refuse a request
// without a valid bearer token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from '../testing/test-server.ts';

const publicApiRoutes = new Set(['POST /api/token/', 'POST /api/token/refresh/', 'POST /api/accounts/register/', 'GET /api/health']);
const isPublicByPath = (url: string) => !url.startsWith('/api/') || url.startsWith('/api/docs');

describe.each(backends)('route table on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.stop());

  const apiRoutes = () =>
    server.app.routeTable.filter((route) => !['HEAD', 'OPTIONS'].includes(route.method) && !isPublicByPath(route.url));

  it('makes public exactly the sign-in, refresh, registration and health routes', () => {
    const publicRoutes = apiRoutes().filter((route) => route.public).map((route) => `${route.method} ${route.url}`);
    expect(new Set(publicRoutes)).toEqual(publicApiRoutes);
  });

  it('answers 401 on every other API route without a token or with a bad one', async () => {
    const guarded = apiRoutes().filter((route) => !route.public);
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const path = route.url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
      for (const token of [undefined, 'a.b.c']) {
        const response = await server.request(path, { method: route.method, ...(token ? { token } : {}), ...(route.method === 'GET' ? {} : { body: {} }) });
        expect({ route: `${route.method} ${route.url}`, status: response.status }).toEqual({ route: `${route.method} ${route.url}`, status: 401 });
      }
    }
  });
});
