import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from './tokens.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const sensitive = /password_hash|\$argon2|token_hash/;

describe.each(backends)('auth on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server); // the first account of a database is admin; the tests below register later ones
  });
  afterAll(() => server.stop());

  const signingKey = () => loadSigningKey(server.database.db, undefined);
  const forge = async (claims: Record<string, unknown>, options: { alg?: string; exp?: number; nbf?: number; sub?: string } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ: 'access', username: 'someone', role: 'viewer', ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'HS256' })
      .setSubject(options.sub ?? '1')
      .setIssuer('stockwise')
      .setAudience('stockwise-api')
      .setIssuedAt(now - 10)
      .setNotBefore(options.nbf ?? now - 10)
      .setExpirationTime(options.exp ?? now + 60)
      .sign(await signingKey());
  };

  it('signs in and reads the account with the access token', async () => {
    const user = await signUpUser(server);
    const me = await server.request('/api/accounts/me/', { token: user.access });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ id: user.id, username: user.username, email: null, role: 'admin', must_change_password: false, date_order: 'browser' });
    expect(me.text).not.toMatch(sensitive);
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const user = await signUpUser(server);
    const wrongPassword = await server.request('/api/token/', { body: { username: user.username, password: 'not the password' } });
    const unknownUser = await server.request('/api/token/', { body: { username: `${user.username}_nobody`, password: 'not the password' } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.json).toEqual(unknownUser.json);
    expect(wrongPassword.json.code).toBe('invalid_credentials');
  });

  it('issues access tokens of at most 15 minutes, pinned to HS256', async () => {
    const user = await signUpUser(server);
    const claims = decodeJwt(user.access);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBeLessThanOrEqual(900);
    const header = JSON.parse(Buffer.from(user.access.split('.')[0] as string, 'base64url').toString()) as { alg: string };
    expect(header.alg).toBe('HS256');
  });

  it('stores passwords with argon2id at 19 MiB and 2 passes', async () => {
    const user = await signUpUser(server);
    const row = await server.database.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  describe('rejects every forged or unusable access token with 401', () => {
    const unsigned = (payload: object) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;

    it.each([
      ['alg none', async () => unsigned({ typ: 'access', sub: '1', username: 'x', iss: 'stockwise', aud: 'stockwise-api', exp: 9_999_999_999, iat: 1, nbf: 1 })],
      ['a swapped algorithm (HS512 with the same key)', () => forge({}, { alg: 'HS512' })],
      ['a tampered payload', async () => {
        const [head, , signature] = (await forge({})).split('.');
        const payload = Buffer.from(JSON.stringify({ typ: 'access', sub: '2', username: 'admin', iss: 'stockwise', aud: 'stockwise-api', exp: 9_999_999_999, iat: 1, nbf: 1 })).toString('base64url');
        return `${head}.${payload}.${signature}`;
      }],
      ['an expired token', () => forge({}, { exp: Math.floor(Date.now() / 1000) - 5 })],
      ['a not-yet-valid token', () => forge({}, { nbf: Math.floor(Date.now() / 1000) + 600 })],
      ['a token of another type', () => forge({ typ: 'refresh' })],
      ['garbage', async () => 'not.a.token'],
    ])('%s', async (_name, makeToken) => {
      const response = await server.request('/api/accounts/me/', { token: await makeToken() });
      expect(response.status).toBe(401);
      expect(response.json.code).toBe('token_not_valid');
    });

    it('a refresh token used as an access token', async () => {
      const user = await signUpUser(server);
      const response = await server.request('/api/accounts/me/', { headers: { authorization: `Bearer ${user.refresh}` } });
      expect(response.status).toBe(401);
    });

    it('accepts a correctly forged token for a real user, so the cases above fail for their own reason', async () => {
      const user = await signUpUser(server);
      const response = await server.request('/api/accounts/me/', { token: await forge({ username: user.username }, { sub: String(user.id) }) });
      expect(response.status).toBe(200);
    });
  });

  describe('refresh', () => {
    it('rotates: a refresh token works once and returns a new pair', async () => {
      const user = await signUpUser(server);
      const first = await server.request('/api/token/refresh/', { body: { refresh: user.refresh } });
      expect(first.status).toBe(200);
      expect(first.json.refresh).not.toBe(user.refresh);
      const me = await server.request('/api/accounts/me/', { token: first.json.access as string });
      expect(me.status).toBe(200);
      const second = await server.request('/api/token/refresh/', { body: { refresh: first.json.refresh } });
      expect(second.status).toBe(200);
    });

    it('revokes the whole sign-in when an old refresh token is reused', async () => {
      const user = await signUpUser(server);
      const rotated = await server.request('/api/token/refresh/', { body: { refresh: user.refresh } });
      const reuse = await server.request('/api/token/refresh/', { body: { refresh: user.refresh } });
      expect(reuse.status).toBe(401);
      expect(reuse.json.code).toBe('token_not_valid');
      const afterReuse = await server.request('/api/token/refresh/', { body: { refresh: rotated.json.refresh } });
      expect(afterReuse.status).toBe(401);
    });

    it('lets only one of two concurrent uses of the same token succeed', async () => {
      const user = await signUpUser(server);
      const results = await Promise.all([1, 2].map(() => server.request('/api/token/refresh/', { body: { refresh: user.refresh } })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    });

    it('keeps the absolute expiry of the sign-in across rotations', async () => {
      const user = await signUpUser(server);
      const rotated = await server.request('/api/token/refresh/', { body: { refresh: user.refresh } });
      await server.database.db.updateTable('refresh_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
      const expired = await server.request('/api/token/refresh/', { body: { refresh: rotated.json.refresh } });
      expect(expired.status).toBe(401);
    });

    it('refuses unknown and malformed refresh tokens', async () => {
      expect((await server.request('/api/token/refresh/', { body: { refresh: 'unknown-token' } })).status).toBe(401);
      expect((await server.request('/api/token/refresh/', { body: {} })).status).toBe(400);
    });
  });

  describe('registration', () => {
    const register = (body: unknown) => server.request('/api/accounts/register/', { body });
    const freshName = () => `reg_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;

    it('creates an account, ignoring fields a client may not set', async () => {
      const username = freshName();
      const response = await register({ username, password: 'violet staple 42', email: 'a@example.com', is_staff: true, id: 999_999, role: 'admin' });
      expect(response.status).toBe(201);
      expect(response.json).toEqual({ id: expect.any(Number), username, email: 'a@example.com', role: 'pending', must_change_password: false });
      expect(response.json.id).not.toBe(999_999);
      expect(response.text).not.toMatch(sensitive);
    });

    it('refuses a taken username whatever its case', async () => {
      const username = freshName();
      await register({ username, password: 'violet staple 42' });
      const again = await register({ username: username.toUpperCase(), password: 'violet staple 42' });
      expect(again.status).toBe(409);
      expect(again.json.errors).toEqual({ username: ['A user with that username already exists.'] });
    });

    it.each([
      ['a short password', { password: 'short' }, 'password'],
      ['a password over 128 characters', { password: 'x'.repeat(129) }, 'password'],
      ['a common password', { password: 'password1' }, 'password'],
      ['a blank username', { username: '' }, 'username'],
      ['a bad email', { email: 'not-an-email' }, 'email'],
    ])('refuses %s with a field error', async (_name, override, field) => {
      const response = await register({ username: freshName(), password: 'violet staple 42', ...override });
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('validation_error');
      expect(Object.keys(response.json.errors as object)).toContain(field);
    });

    it('keeps every character of a long password (no truncation)', async () => {
      const username = freshName();
      const password = `${'long passphrase '.repeat(7)}end`.slice(0, 100);
      expect((await register({ username, password })).status).toBe(201);
      expect((await server.request('/api/token/', { body: { username, password } })).status).toBe(200);
      expect((await server.request('/api/token/', { body: { username, password: password.slice(0, 72) } })).status).toBe(401);
    });
  });
});

describe.each(backends)('login throttling and configuration on %s', (backend) => {
  let server: TestServer;
  let proxied: TestServer;
  let perAddress: TestServer;
  beforeAll(async () => {
    [server, proxied, perAddress] = await Promise.all([
      startTestServer(backend, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '6' }),
      startTestServer(backend, { LOGIN_MAX_FAILURES_PER_IP: '2', TRUSTED_PROXIES: '127.0.0.1', REGISTRATION_ENABLED: 'false' }),
      // A first delay of a minute: a slow machine must not let the delay run out during a test.
      startTestServer(backend, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_DELAY_BASE_SECONDS: '60', TRUSTED_PROXIES: '127.0.0.1' }),
    ]);
  });
  afterAll(() => Promise.all([server.stop(), proxied.stop(), perAddress.stop()]));

  it('answers 429 after too many failures for one account, even with the right password', async () => {
    const user = await signUpUser(server);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await server.request('/api/token/', { body: { username: user.username, password: 'wrong password' } })).status).toBe(401);
    }
    const blocked = await server.request('/api/token/', { body: { username: user.username, password: user.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'throttled', detail: expect.stringContaining('Too many failed sign-in attempts') });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  const signInFrom = (ip: string, username: string, password: string) =>
    perAddress.request('/api/token/', { body: { username, password }, headers: { 'x-forwarded-for': ip } });

  it('counts 60 parallel wrong passwords before checking them: only the free attempts reach the check', async () => {
    const user = await signUpUser(perAddress);
    const answers = await Promise.all(Array.from({ length: 60 }, () => signInFrom('198.51.100.7', user.username, 'wrong password')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(57);
    expect(answers.find((answer) => answer.status === 429)?.json.code).toBe('throttled');
  });

  it('admits parallel sign-ins from one address while they are within its free attempts', async () => {
    // Each attempt is counted on the address's row; an attempt whose statement began before the one
    // holding that row committed must still see the row's "no wait" as passed.
    const users = await Promise.all(Array.from({ length: 8 }, () => signUpUser(perAddress)));
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(users.map((user) => signInFrom('198.51.100.6', user.username, user.password)));
      expect(answers.map((answer) => answer.status)).toEqual(users.map(() => 200));
    }
  });

  it("keys the limit on account and address: a stranger's guesses do not lock the owner out", async () => {
    const user = await signUpUser(perAddress);
    for (let attempt = 0; attempt < 5; attempt++) await signInFrom('198.51.100.8', user.username, 'wrong password');
    expect((await signInFrom('198.51.100.8', user.username, user.password)).status).toBe(429);
    expect((await signInFrom('198.51.100.9', user.username, user.password)).status).toBe(200);
  });

  it('spaces attempts with doubling delays and says when to retry', async () => {
    const user = await signUpUser(perAddress);
    const ip = '198.51.100.10';
    const waitOver = () =>
      perAddress.database.db.updateTable('sign_in_throttle').set({ retry_at: new Date(Date.now() - 1000) }).where('account', '=', user.username.toLowerCase()).where('ip', '=', ip).execute();
    for (let attempt = 0; attempt < 3; attempt++) expect((await signInFrom(ip, user.username, 'wrong password')).status).toBe(401);
    const waits: string[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await signInFrom(ip, user.username, user.password);
      expect(refused.status).toBe(429);
      waits.push(refused.headers.get('retry-after') ?? '');
      await waitOver();
      expect((await signInFrom(ip, user.username, 'wrong password')).status).toBe(401);
    }
    expect(waits).toEqual(['60', '120', '240']);
    await waitOver();
    expect((await signInFrom(ip, user.username, user.password)).status).toBe(200);
    // A success starts the count over.
    expect((await signInFrom(ip, user.username, 'wrong password')).status).toBe(401);
  });

  it('limits failures per address and ignores X-Forwarded-For from untrusted peers', async () => {
    for (let attempt = 0; attempt < 6; attempt++) {
      await server.request('/api/token/', { body: { username: `nobody_${attempt}`, password: 'wrong password' }, headers: { 'x-forwarded-for': `10.0.0.${attempt}` } });
    }
    const blocked = await server.request('/api/token/', { body: { username: 'nobody_else', password: 'wrong password' }, headers: { 'x-forwarded-for': '10.9.9.9' } });
    expect(blocked.status).toBe(429);
    expect(blocked.json.detail).toContain('from your address');
  });

  it('trusts X-Forwarded-For from a configured proxy', async () => {
    const attempt = (ip: string) => proxied.request('/api/token/', { body: { username: `nobody_${ip}`, password: 'wrong password' }, headers: { 'x-forwarded-for': ip } });
    await attempt('203.0.113.1');
    await attempt('203.0.113.1');
    expect((await attempt('203.0.113.1')).status).toBe(429);
    expect((await attempt('203.0.113.2')).status).toBe(401);
  });

  it('refuses registration when it is switched off', async () => {
    const response = await proxied.request('/api/accounts/register/', { body: { username: 'someone_new', password: 'violet staple 42' } });
    expect(response.status).toBe(403);
    expect(response.json.code).toBe('registration_disabled');
  });

  it('tells the sign-in page that registration is off', async () => {
    expect((await proxied.request('/api/accounts/first-run/')).json).toEqual({ first_account_needed: true, registration_enabled: false });
  });
});
