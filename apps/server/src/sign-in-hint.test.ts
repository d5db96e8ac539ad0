// What the console says at start on an empty database without demo data: the command it prints
// creates the first account, an administrator, on the running server, after which the sign-in
// page no longer offers to create it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsAtStart, signInHint } from './server.ts';
import { startTestServer, type TestServer } from './testing/test-server.ts';

describe('the sign-in hint at start', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server.stop());

  it('names the demo user while it has its starting password, or says how to create the first account, whose command works', async () => {
    const demoUntouched = { any: true, demoOnStartingPassword: true };
    expect(signInHint({ ...server.config, demoData: true }, server.url, demoUntouched)).toContain(`password "${server.config.demoPassword}"`);
    // Once the demo user chose its own password, the starting one no longer works: it is not printed (QA8 F4).
    expect(signInHint({ ...server.config, demoData: true }, server.url, { any: true, demoOnStartingPassword: false })).toBe(`Stockwise is running at ${server.url}`);
    expect(signInHint(server.config, server.url, demoUntouched)).toBe(`Stockwise is running at ${server.url}`);
    const none = { any: false, demoOnStartingPassword: false };
    expect(signInHint({ ...server.config, registrationEnabled: false }, server.url, none)).toContain('REGISTRATION_ENABLED=false');

    expect(await accountsAtStart(server.database.db, server.config.demoPassword)).toEqual(none);
    const hint = signInHint(server.config, server.url, none);
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
    expect(await accountsAtStart(server.database.db, server.config.demoPassword)).toEqual({ any: true, demoOnStartingPassword: false });
  });

  it('knows the demo user on its starting password, and not once it chose its own', async () => {
    // The demo data's user, as far as the hint is concerned: the account named demo with the starting password.
    const demo = await startTestServer('pglite');
    try {
      const password = demo.config.demoPassword;
      expect((await demo.request('/api/accounts/register/', { body: { username: 'demo', password } })).status).toBe(201);
      expect(await accountsAtStart(demo.database.db, password)).toEqual({ any: true, demoOnStartingPassword: true });
      const signedIn = await demo.request('/api/token/', { body: { username: 'demo', password } });
      const changed = await demo.request('/api/accounts/password/', { token: signedIn.json.access as string, body: { old_password: password, new_password: 'our own café secret' } });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      expect(await accountsAtStart(demo.database.db, password)).toEqual({ any: true, demoOnStartingPassword: false });
    } finally {
      await demo.stop();
    }
  });
});
