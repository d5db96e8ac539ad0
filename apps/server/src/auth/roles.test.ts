// Roles over HTTP: who is admin first, what a self-registered account may do, approval, role
// changes and disabling taking effect on live tokens, at least one admin always remaining, and an
// administrator adding a colleague with a role and a starting password.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from './passwords.ts';
import { insertUser } from './repo.ts';
import { loadSigningKey } from './tokens.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const password = 'violet staple 42';
let nameCounter = 0;
const readRowsOn = (server: TestServer, token: string) => server.request('/api/records/tables/products/data/', { token });
const freshName = () => `role_${process.pid}_${(nameCounter += 1)}_${Math.floor(Math.random() * 1e6)}`;
const fieldsOf = (json: Record<string, unknown>) => Object.keys((json.errors ?? {}) as object);

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
    expect(list.text).not.toMatch(/"password"|password_hash|\$argon2|token_hash/);
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

  describe('an administrator adding a colleague (POST /api/accounts/users/)', () => {
    const addUser = (body: unknown, token = admin.access) => server.request('/api/accounts/users/', { token, body });
    const signIn = (username: string, secret = password) => server.request('/api/token/', { body: { username, password: secret } });

    const changeOwnPassword = (access: string, oldPassword: string, newPassword: string) =>
      server.request('/api/accounts/password/', { token: access, body: { old_password: oldPassword, new_password: newPassword } });

    it('creates an approved account with the role given, listed at once, that signs in with its starting password and chooses its own first', async () => {
      const username = freshName();
      const created = await addUser({ username, password, role: 'editor' });
      expect(created.status, created.text).toBe(201);
      expect(created.json).toMatchObject({ username, role: 'editor', disabled: false, email: null, last_sign_in_at: null, must_change_password: true });
      expect(created.text).not.toMatch(/"password"|password_hash|\$argon2/);

      const list = await server.request('/api/accounts/users/', { token: admin.access });
      expect((list.json.results as { username: string }[]).find((user) => user.username === username)).toMatchObject({ role: 'editor', must_change_password: true });

      const signedIn = await signIn(username);
      expect(signedIn.status).toBe(200);
      const access = signedIn.json.access as string;
      expect((await server.request('/api/accounts/me/', { token: access })).json).toMatchObject({ username, role: 'editor', must_change_password: true });
      // Until the starting password is replaced, only the account's own routes answer.
      const addRow = () => server.request('/api/records/tables/products/rows/add/', { token: access, body: { product_code: `ADD-${nameCounter}`, name: 'Added by an editor' } });
      const early = await addRow();
      expect(early.status).toBe(403);
      expect(early.json).toEqual({ code: 'password_change_required', detail: 'Choose your own password first: this account still has the starting password an administrator gave it. Change it in Profile.' });
      expect((await readRows(access)).status).toBe(403);
      expect((await server.request('/api/accounts/sessions/', { token: access })).status).toBe(200);

      // Keeping the starting password is not choosing one.
      const kept = await changeOwnPassword(access, password, password);
      expect({ status: kept.status, errors: kept.json.errors }).toEqual({ status: 400, errors: { new_password: ['Choose a password different from the current one.'] } });
      const changed = await changeOwnPassword(access, password, 'a lantern of my own 7');
      expect(changed.status, changed.text).toBe(200);
      expect((await server.request('/api/accounts/me/', { token: access })).json).toMatchObject({ must_change_password: false });
      const row = await addRow();
      expect(row.status, row.text).toBe(201);
    });

    it('lets an administrator give a colleague a new starting password: their sign-ins end and they choose their own first', async () => {
      const username = freshName();
      const userId = (await addUser({ username, password, role: 'viewer' })).json.id as number;
      const first = (await signIn(username)).json as { access: string; refresh: string };
      expect((await changeOwnPassword(first.access, password, 'forgotten soon 99')).status).toBe(200);
      expect((await readRows(first.access)).status).toBe(200);

      const resetPassword = (id: number, body: unknown, token = admin.access) => server.request(`/api/accounts/users/${id}/password/`, { token, body });
      const reset = await resetPassword(userId, { password: 'handed over 2024' });
      expect(reset.status, reset.text).toBe(200);
      expect(reset.json).toMatchObject({ id: userId, username, must_change_password: true });
      // The old sign-in is over (refresh refused) and the old password no longer works.
      expect((await server.request('/api/token/refresh/', { body: { refresh: first.refresh } })).status).toBe(401);
      expect((await signIn(username, 'forgotten soon 99')).status).toBe(401);
      // The ended sign-in's access token lives on for minutes: it reaches no data, and cannot choose the password.
      expect((await readRows(first.access)).json.code).toBe('password_change_required');
      const fromEnded = await changeOwnPassword(first.access, 'handed over 2024', 'chosen from an old tab 5');
      expect(fromEnded.json).toEqual({ code: 'token_not_valid', detail: 'This sign-in has ended. Sign in again.' });
      const second = (await signIn(username, 'handed over 2024')).json.access as string;
      expect((await readRows(second)).status).toBe(403);
      expect((await changeOwnPassword(second, 'handed over 2024', 'remembered now 31')).status).toBe(200);
      expect((await readRows(second)).status).toBe(200);

      // The registration's rules, naming the field; an unknown account; their own password; below admin.
      for (const repeated of [' '.repeat(10), 'abababab']) {
        const refused = await resetPassword(userId, { password: repeated });
        expect(refused.json.errors, JSON.stringify(repeated)).toEqual({ password: ['This password repeats too few characters.'] });
      }
      const weak = await resetPassword(userId, { password: 'password123' });
      expect({ status: weak.status, errors: weak.json.errors }).toEqual({ status: 400, errors: { password: ['This password is too common.'] } });
      expect((await resetPassword(userId, { password: username })).json.errors).toEqual({ password: ['The password is too similar to the username.'] });
      expect((await resetPassword(userId, { password: 'x'.repeat(10), extra: 1 })).status).toBe(400);
      expect((await resetPassword(999_999_999, { password: 'handed over 2024' })).status).toBe(404);
      const own = await resetPassword(admin.id, { password: 'handed over 2024' });
      expect(own.json).toEqual({ code: 'conflict', detail: 'Change your own password in Profile.' });
      const editor = await signUpUser(server, { role: 'editor' });
      expect((await resetPassword(userId, { password: 'handed over 2024' }, editor.access)).status).toBe(403);
      expect((await signIn(username, 'remembered now 31')).status).toBe(200);
    });

    it('gives viewer when no role is named, and refuses pending or an unknown role naming the field', async () => {
      const viewer = await addUser({ username: freshName(), password });
      expect(viewer.status).toBe(201);
      expect(viewer.json.role).toBe('viewer');
      for (const role of ['pending', 'owner']) {
        const username = freshName();
        const refused = await addUser({ username, password, role });
        expect({ role, status: refused.status, fields: fieldsOf(refused.json) }).toEqual({ role, status: 400, fields: ['role'] });
        expect((await signIn(username)).status).toBe(401);
      }
    });

    it('refuses pending accounts, viewers and editors with 403, creating nothing', async () => {
      const username = freshName();
      for (const role of ['pending', 'viewer', 'editor'] as const) {
        const caller = await signUpUser(server, { role });
        const refused = await addUser({ username, password, role: 'admin' }, caller.access);
        expect({ role, status: refused.status, code: refused.json.code }).toEqual({ role, status: 403, code: 'forbidden' });
      }
      expect((await signIn(username)).status).toBe(401);
    });

    it('refuses a taken username, whatever its case, with the registration’s 409 on the username field', async () => {
      const username = freshName();
      expect((await addUser({ username, password })).status).toBe(201);
      const taken = await addUser({ username: username.toUpperCase(), password: 'another long secret 5', role: 'admin' });
      expect(taken.status).toBe(409);
      expect(taken.json).toEqual({
        code: 'username_taken',
        detail: 'A user with that username already exists.',
        errors: { username: ['A user with that username already exists.'] },
      });
      expect((await signIn(username.toUpperCase(), 'another long secret 5')).status).toBe(401);
    });

    it('applies the registration’s username and password rules, naming the field, and creates nothing', async () => {
      const cases: [string, Record<string, unknown>, string, string][] = [
        ['short password', { username: freshName(), password: 'short' }, 'password', 'Ensure this field has at least 8 characters.'],
        ['common password', { username: freshName(), password: 'password123' }, 'password', 'This password is too common.'],
        ['only spaces', { username: freshName(), password: ' '.repeat(10) }, 'password', 'This password repeats too few characters.'],
        ['password = username', { username: 'harbour.lights', password: 'Harbour.Lights' }, 'password', 'The password is too similar to the username.'],
        ['bad username', { username: 'two words', password }, 'username', 'Use letters, digits and @ . + - _ only.'],
        ['no username', { password }, 'username', ''],
      ];
      for (const [name, body, field, words] of cases) {
        const refused = await addUser(body);
        expect({ name, status: refused.status, fields: fieldsOf(refused.json) }).toEqual({ name, status: 400, fields: [field] });
        if (words) expect((refused.json.errors as Record<string, string[]>)[field]).toEqual([words]);
        if (typeof body.username === 'string') expect((await signIn(body.username, body.password as string)).status).toBe(401);
      }
    });

    it('works with self-registration switched off', async () => {
      const closed = await startTestServer(backend, { REGISTRATION_ENABLED: 'false' });
      try {
        // With registration off the first administrator comes from the database, as the demo seed makes one.
        const adminName = freshName();
        await insertUser(closed.database.db, { username: adminName, email: null, passwordHash: await hashPassword(password), role: 'admin', mustChangePassword: false });
        const adminAccess = (await closed.request('/api/token/', { body: { username: adminName, password } })).json.access as string;
        expect((await closed.request('/api/accounts/register/', { body: { username: freshName(), password } })).status).toBe(403);
        const username = freshName();
        const created = await closed.request('/api/accounts/users/', { token: adminAccess, body: { username, password, role: 'viewer' } });
        expect(created.status, created.text).toBe(201);
        expect((await closed.request('/api/token/', { body: { username, password } })).status).toBe(200);
      } finally {
        await closed.stop();
      }
    });
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

