// Roles over HTTP: who is admin first, what a self-registered account may do, approval, role
// changes and disabling taking effect on live tokens, and at least one admin always remaining.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from './tokens.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const password = 'violet staple 42';
let nameCounter = 0;
const readRowsOn = (server: TestServer, token: string) => server.request('/api/records/tables/products/data/', { token });
const freshName = () => `role_${process.pid}_${(nameCounter += 1)}_${Math.floor(Math.random() * 1e6)}`;

async function registerAndSignIn(server: TestServer) {
  const username = freshName();
  const registered = await server.request('/api/accounts/register/', { body: { username, password } });
  expect(registered.status).toBe(201);
  const signedIn = await server.request('/api/token/', { body: { username, password } });
  expect(signedIn.status).toBe(200);
  return { id: registered.json.id as number, role: registered.json.role, username, access: signedIn.json.access as string, refresh: signedIn.json.refresh as string };
}

describe.each(backends)('roles on %s', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await signUpUser(server, { role: 'admin' });
  });
  afterAll(() => server.stop());

  const setRole = (id: number, role: string) => server.request(`/api/accounts/users/${id}/role/`, { token: admin.access, body: { role } });
  const setDisabled = (id: number, disabled: boolean) => server.request(`/api/accounts/users/${id}/disable/`, { token: admin.access, body: { disabled } });
  const readRows = (token: string) => readRowsOn(server, token);

  it('gives a self-registered account the pending role: it signs in, reads its account, and nothing else', async () => {
    const user = await registerAndSignIn(server);
    expect(user.role).toBe('pending');
    const me = await server.request('/api/accounts/me/', { token: user.access });
    expect(me.json).toMatchObject({ username: user.username, role: 'pending' });
    const rows = await readRows(user.access);
    expect(rows.status).toBe(403);
    expect(rows.json).toEqual({ code: 'forbidden', detail: 'Your account is waiting for an administrator to approve it.' });
  });

  it('lets an approval reach a token already issued, and a demotion too', async () => {
    const user = await registerAndSignIn(server);
    const approved = await setRole(user.id, 'viewer');
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ id: user.id, role: 'viewer', disabled: false });
    expect((await readRows(user.access)).status).toBe(200);
    const add = await server.request('/api/records/tables/products/rows/add/', { token: user.access, body: { product_code: 'RV1', name: 'x' } });
    expect(add.json).toMatchObject({ code: 'forbidden', detail: 'Your role (viewer) may not do this; it needs editor.' });
    await setRole(user.id, 'pending');
    expect((await readRows(user.access)).status).toBe(403);
  });

  it('lists every account for an administrator, without secrets', async () => {
    const user = await registerAndSignIn(server);
    const list = await server.request('/api/accounts/users/', { token: admin.access });
    expect(list.status).toBe(200);
    const entry = (list.json.results as { id: number }[]).find((row) => row.id === user.id);
    expect(entry).toMatchObject({ username: user.username, role: 'pending', disabled: false, last_sign_in_at: expect.any(String) });
    expect(list.text).not.toMatch(/password|\$argon2|token_hash/);
  });

  it('refuses a disabled account everywhere: its access token, its refresh token and a new sign-in', async () => {
    const user = await signUpUser(server, { role: 'editor' });
    expect((await setDisabled(user.id, true)).json).toMatchObject({ disabled: true });
    const rows = await readRows(user.access);
    expect(rows.status).toBe(401);
    expect(rows.json.code).toBe('token_not_valid');
    expect((await server.request('/api/token/refresh/', { body: { refresh: user.refresh } })).status).toBe(401);
    const signIn = await server.request('/api/token/', { body: { username: user.username, password: user.password } });
    expect(signIn.status).toBe(401);
    expect(signIn.json.code).toBe('invalid_credentials');
    await setDisabled(user.id, false);
    expect((await server.request('/api/token/', { body: { username: user.username, password: user.password } })).status).toBe(200);
  });

  it('refuses the access token of an account disabled after the token was verified and cached', async () => {
    const user = await signUpUser(server, { role: 'viewer' });
    expect((await readRows(user.access)).status).toBe(200);
    await setDisabled(user.id, true);
    const rows = await readRows(user.access);
    expect(rows.status).toBe(401);
    expect(rows.json.code).toBe('token_not_valid');
  });

  it('keeps at least one active administrator', async () => {
    const solo = await startTestServer(backend);
    try {
      const only = await registerAndSignIn(solo);
      expect(only.role).toBe('admin');
      const demote = await solo.request(`/api/accounts/users/${only.id}/role/`, { token: only.access, body: { role: 'editor' } });
      expect(demote.status).toBe(409);
      expect(demote.json).toEqual({ code: 'conflict', detail: 'At least one active administrator must remain.' });
      const disable = await solo.request(`/api/accounts/users/${only.id}/disable/`, { token: only.access, body: { disabled: true } });
      expect(disable.status).toBe(409);
      const second = await registerAndSignIn(solo);
      expect((await solo.request(`/api/accounts/users/${second.id}/role/`, { token: only.access, body: { role: 'admin' } })).status).toBe(200);
      expect((await solo.request(`/api/accounts/users/${only.id}/role/`, { token: only.access, body: { role: 'editor' } })).status).toBe(200);
    } finally {
      await solo.stop();
    }
  });

  it('makes exactly one of many simultaneous first registrations the admin', async () => {
    const fresh = await startTestServer(backend);
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => fresh.request('/api/accounts/register/', { body: { username: freshName(), password } })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
      expect(answers.filter((answer) => answer.json.role === 'admin')).toHaveLength(1);
    } finally {
      await fresh.stop();
    }
  });

  it('gives self-registered accounts REGISTRATION_ROLE when it is set', async () => {
    const open = await startTestServer(backend, { REGISTRATION_ROLE: 'viewer' });
    try {
      await registerAndSignIn(open); // the first account: admin
      const user = await registerAndSignIn(open);
      expect(user.role).toBe('viewer');
      expect((await readRowsOn(open, user.access)).status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it('refuses unknown roles and users with 400 and 404', async () => {
    expect((await setRole(admin.id, 'owner')).status).toBe(400);
    expect((await setRole(987_654_321, 'viewer')).status).toBe(404);
  });

  describe('access tokens', () => {
    const signFor = async (user: { id: number; username: string }, lifetimeSeconds: number) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ typ: 'access', username: user.username, role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(user.id))
        .setIssuer('stockwise')
        .setAudience('stockwise-api')
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + lifetimeSeconds)
        .sign(await loadSigningKey(server.database.db, undefined));
    };

    it('refuses a validly signed token that lives longer than the server ever issues', async () => {
      const response = await readRows(await signFor(admin, 10 * 365 * 24 * 3600));
      expect(response.status).toBe(401);
    });

    it('takes the role from the account, not from the token', async () => {
      const viewer = await signUpUser(server, { role: 'viewer' });
      expect((await server.request('/api/accounts/users/', { token: await signFor(viewer, 300) })).status).toBe(403);
    });

    it('reads the Bearer scheme case-insensitively', async () => {
      for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
        const response = await server.request('/api/accounts/me/', { headers: { authorization: `${scheme} ${admin.access}` } });
        expect({ scheme, status: response.status }).toEqual({ scheme, status: 200 });
      }
    });
  });
});

