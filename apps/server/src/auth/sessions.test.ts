// Sessions over HTTP: race-free refresh rotation, logout, sign out everywhere, the sessions list,
// revoking one session and changing the password.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('sessions on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server);
  });
  afterAll(() => server.stop());

  const refresh = (token: string) => server.request('/api/token/refresh/', { body: { refresh: token } });
  const signIn = (user: { username: string; password: string }, userAgent = 'test-agent') =>
    server.request('/api/token/', { body: { username: user.username, password: user.password }, headers: { 'user-agent': userAgent } });
  const liveTokens = (userId: number) =>
    server.database.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', userId).where('used_at', 'is', null).where('revoked_at', 'is', null).execute();

  it('leaves no live token in any family after 40 parallel double uses of one refresh token', async () => {
    const user = await signUpUser(server);
    // One after another: parallel sign-ins of one account and address would be throttled.
    const families = [];
    for (let family = 0; family < 40; family += 1) families.push(await signIn(user));
    expect(families.every((family) => family.status === 200)).toBe(true);
    const answers = await Promise.all(families.flatMap((family) => [refresh(family.json.refresh as string), refresh(family.json.refresh as string)]));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 401)).toBe(true);
    // The original sign-in of the factory is still live; the 40 raced families are not.
    const live = await liveTokens(user.id);
    expect(live).toHaveLength(1);
    const winners = answers.filter((answer) => answer.status === 200);
    for (const winner of winners) expect((await refresh(winner.json.refresh as string)).status).toBe(401);
  });

  it('logout revokes the sign-in: its refresh token is refused afterwards', async () => {
    const user = await signUpUser(server);
    const rotated = await refresh(user.refresh);
    expect((await server.request('/api/token/logout/', { body: { refresh: rotated.json.refresh } })).status).toBe(204);
    expect((await refresh(rotated.json.refresh as string)).status).toBe(401);
    // An unknown or already revoked token is nothing to end, not an error.
    expect((await server.request('/api/token/logout/', { body: { refresh: rotated.json.refresh } })).status).toBe(204);
    expect((await server.request('/api/token/logout/', { body: { refresh: 'unknown' } })).status).toBe(204);
    expect((await server.request('/api/token/logout/', { body: {} })).status).toBe(400);
  });

  it('rotates to the refresh token the client asked for, so a lost answer loses nothing (ADR 0013)', async () => {
    const user = await signUpUser(server);
    const asked = randomBytes(32).toString('base64url');
    const rotated = await server.request('/api/token/refresh/', { body: { refresh: user.refresh, next_refresh: asked } });
    expect(rotated.status).toBe(200);
    expect(rotated.json.refresh).toBe(asked);
    // The client never saw that answer: it spends the token it asked for, and the session lives on.
    const next = await refresh(asked);
    expect(next.status).toBe(200);
    expect((await liveTokens(user.id)).length).toBe(1);

    // A token asked for again, or one of the wrong shape, is refused and spends nothing.
    const current = next.json.refresh as string;
    for (const nextRefresh of [asked, current, 'short', `${'x'.repeat(42)}!`]) {
      const refused = await server.request('/api/token/refresh/', { body: { refresh: current, next_refresh: nextRefresh } });
      expect(refused.status, nextRefresh).toBe(400);
      expect(refused.json.errors, nextRefresh).toHaveProperty('next_refresh');
    }
    expect((await refresh(current)).status).toBe(200);
  });

  it('lists the active sessions with the current one flagged, and revokes one', async () => {
    const user = await signUpUser(server);
    const laptop = await signIn(user, 'Laptop browser');
    const phone = await signIn(user, 'Phone browser');
    const listed = await server.request('/api/accounts/sessions/', { token: laptop.json.access as string });
    expect(listed.status).toBe(200);
    const sessions = listed.json.results as { id: string; user_agent: string | null; current: boolean; started_at: string; last_used_at: string }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current).map((session) => session.user_agent)).toEqual(['Laptop browser']);
    const phoneSession = sessions.find((session) => session.user_agent === 'Phone browser');
    expect(phoneSession?.started_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const revoked = await server.request(`/api/accounts/sessions/${phoneSession?.id}/`, { method: 'DELETE', token: laptop.json.access as string });
    expect(revoked.status).toBe(204);
    expect((await refresh(phone.json.refresh as string)).status).toBe(401);
    expect((await server.request(`/api/accounts/sessions/${phoneSession?.id}/`, { method: 'DELETE', token: laptop.json.access as string })).status).toBe(404);
    expect((await server.request('/api/accounts/sessions/not-a-uuid/', { method: 'DELETE', token: laptop.json.access as string })).status).toBe(400);

    // Another account's session is not found, not revoked.
    const other = await signUpUser(server);
    const laptopSession = sessions.find((session) => session.current);
    expect((await server.request(`/api/accounts/sessions/${laptopSession?.id}/`, { method: 'DELETE', token: other.access })).status).toBe(404);
    expect((await refresh(laptop.json.refresh as string)).status).toBe(200);
  });

  it('signs out everywhere: every refresh token of the account is refused', async () => {
    const user = await signUpUser(server);
    const second = await signIn(user);
    const answer = await server.request('/api/accounts/sessions/revoke-all/', { token: user.access, body: {} });
    expect(answer.status).toBe(200);
    expect(answer.json.revoked).toBe(2);
    expect((await refresh(user.refresh)).status).toBe(401);
    expect((await refresh(second.json.refresh as string)).status).toBe(401);
    expect(await liveTokens(user.id)).toHaveLength(0);
  });

  describe('change password', () => {
    const change = (token: string, body: unknown) => server.request('/api/accounts/password/', { token, body });

    it('needs the old password and names the field that is wrong', async () => {
      const user = await signUpUser(server);
      const wrongOld = await change(user.access, { old_password: 'not it', new_password: 'a brand new phrase 7' });
      expect(wrongOld.status).toBe(400);
      expect(Object.keys(wrongOld.json.errors as object)).toEqual(['old_password']);
      const common = await change(user.access, { old_password: user.password, new_password: 'password1' });
      expect(Object.keys(common.json.errors as object)).toEqual(['new_password']);
      const short = await change(user.access, { old_password: user.password, new_password: 'short' });
      expect(short.status).toBe(400);
      expect(Object.keys(short.json.errors as object)).toContain('new_password');
      expect((await signIn(user)).status).toBe(200);
    });

    it('keeps this session, ends the others, and the new password signs in', async () => {
      const user = await signUpUser(server);
      const other = await signIn(user);
      const changed = await change(user.access, { old_password: user.password, new_password: 'a brand new phrase 7' });
      expect(changed.status).toBe(200);
      expect(changed.json.revoked).toBe(1);
      expect((await refresh(other.json.refresh as string)).status).toBe(401);
      expect((await refresh(user.refresh)).status).toBe(200);
      expect((await signIn(user)).status).toBe(401);
      expect((await signIn({ username: user.username, password: 'a brand new phrase 7' })).status).toBe(200);
    });
  });
});
