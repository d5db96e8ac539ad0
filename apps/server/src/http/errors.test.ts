import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const errorShape = { detail: expect.any(String), code: expect.any(String) };

describe.each(backends)('error answers on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100' });
  });
  afterAll(() => server.stop());

  it.each([
    ['malformed JSON', { body: '{"username": ', headers: { 'content-type': 'application/json' } }, 400],
    ['an unsupported content type', { body: 'username=a', headers: { 'content-type': 'text/plain' } }, 400],
    ['a body over the size limit', { body: JSON.stringify({ username: 'x', password: 'y'.repeat(2 * 1024 * 1024) }) }, 413],
    ['a wrong field type', { body: { username: 42, password: ['x'] } }, 400],
    ['extra fields on sign-in', { body: { username: 'a', password: 'b', admin: true } }, 400],
  ])('answers %s with a clear 4xx in the one error shape', async (_name, options, status) => {
    const response = await server.request('/api/token/', { method: 'POST', ...options });
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject(errorShape);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const user = await signUpUser(server);
    const response = await server.request('/api/no-such-thing/', { token: user.access });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'not_found' });
  });

  it('never answers arbitrary JSON on the public routes with a 500', async () => {
    const routes = ['/api/token/', '/api/token/refresh/', '/api/accounts/register/'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue({ maxDepth: 4 }), async (route, body) => {
        const response = await server.request(route, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(response.status).toBeLessThan(500);
        expect(response.json).toHaveProperty('code');
      }),
      { numRuns: 60, seed: 2026 },
    );
  });
});
