// What the console says at start on an empty database without demo data: the command it prints
// creates the first account, an administrator, on the running server, after which the sign-in
// page no longer offers to create it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInHint } from './server.ts';
import { startTestServer, type TestServer } from './testing/test-server.ts';

describe('the sign-in hint at start', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server.stop());

  it('names the demo user, or says how to create the first account, whose command works', async () => {
    expect(signInHint({ ...server.config, demoData: true }, server.url, true)).toContain(`password "${server.config.demoPassword}"`);
    expect(signInHint(server.config, server.url, true)).toBe(`Stockwise is running at ${server.url}`);
    expect(signInHint({ ...server.config, registrationEnabled: false }, server.url, false)).toContain('REGISTRATION_ENABLED=false');

    const hint = signInHint(server.config, server.url, false);
    expect(hint).toContain(`Open ${server.url}/login to create the first one`);
    expect((await server.request('/api/accounts/first-run/')).json).toEqual({ first_account_needed: true, registration_enabled: true });
    const command = /curl -X POST (\S+) -H 'content-type: application\/json' -d '(.+)'$/m.exec(hint);
    expect(command, hint).not.toBeNull();
    const body = { ...JSON.parse(command![2]!), password: 'a shop owner secret' };
    const response = await fetch(command![1]!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBe(201);
    const signedIn = await server.request('/api/token/', { body: { username: 'owner', password: 'a shop owner secret' } });
    const me = await server.request('/api/accounts/me/', { token: signedIn.json.access as string });
    expect(me.json).toMatchObject({ username: 'owner', role: 'admin' });
    expect((await server.request('/api/accounts/first-run/')).json).toEqual({ first_account_needed: false, registration_enabled: true });
  });
});
