// An administrator adds a colleague over HTTP (POST /api/accounts/users/): the account has the role
// given from the start, signs in with the starting password, and the registration's rules hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { hashPassword } from './passwords.ts';
import { insertUser } from './repo.ts';

const password = 'amber ladder 73';
let nameCounter = 0;
const freshName = () => `added_${process.pid}_${(nameCounter += 1)}_${Math.floor(Math.random() * 1e6)}`;
const fieldsOf = (json: Record<string, unknown>) => Object.keys((json.errors ?? {}) as object);

describe.each(backends)('adding a user on %s', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await signUpUser(server, { role: 'admin' });
  });
  afterAll(() => server.stop());

  const addUser = (body: unknown, token = admin.access) => server.request('/api/accounts/users/', { token, body });
  const signIn = (username: string, secret = password) => server.request('/api/token/', { body: { username, password: secret } });

  it('creates an approved account with the role given, listed at once, that signs in with its starting password', async () => {
    const username = freshName();
    const created = await addUser({ username, password, role: 'editor' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ username, role: 'editor', disabled: false, email: null, last_sign_in_at: null });
    expect(created.text).not.toMatch(/password|\$argon2/);

    const list = await server.request('/api/accounts/users/', { token: admin.access });
    expect((list.json.results as { username: string }[]).find((user) => user.username === username)).toMatchObject({ role: 'editor' });

    const signedIn = await signIn(username);
    expect(signedIn.status).toBe(200);
    const access = signedIn.json.access as string;
    expect((await server.request('/api/accounts/me/', { token: access })).json).toMatchObject({ username, role: 'editor' });
    const row = await server.request('/api/records/tables/products/rows/add/', { token: access, body: { product_code: `ADD-${nameCounter}`, name: 'Added by an editor' } });
    expect(row.status, row.text).toBe(201);
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
      await insertUser(closed.database.db, { username: adminName, email: null, passwordHash: await hashPassword(password), role: 'admin' });
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
