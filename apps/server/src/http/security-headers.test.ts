// Security headers on every kind of answer: data, refusals, errors, the docs and the web app's files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('security headers on %s', (backend) => {
  let server: TestServer;
  let access: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    access = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  it.each([
    ['a public API answer', () => server.request('/api/health')],
    ['a guarded API answer', () => server.request('/api/accounts/me/', { token: access })],
    ['a 401', () => server.request('/api/accounts/me/')],
    ['a 400', () => server.request('/api/token/', { body: {} })],
    ['an unknown API path', () => server.request('/api/no-such-route/')],
    ['the API docs', () => server.request('/api/docs/')],
  ])('%s', async (_name, call) => {
    const { headers } = await call();
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scripts).toBe("'self'");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});
