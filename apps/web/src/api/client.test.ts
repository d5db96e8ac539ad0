// @vitest-environment node
// The client against a real loopback server that plays the token endpoints.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TokenPair } from '@stockwise/contract';
import { createApiClient, requestTimeoutMs, type TokenAccess } from './client.ts';
import type { NormalizedError } from './errors.ts';
import { closedPort, sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';

type Backend = {
  loopback: Loopback;
  access: string;
  refresh: string;
  refreshCalls: number;
  dataCalls: { auth: string | undefined; path: string }[];
  /** Hold the refresh answer until this many data calls were refused. */
  holdRefreshUntilRefused: number;
  refused: number;
  refreshStatus: number;
  tokenBodies: unknown[];
  /** Refuse every access token, even fresh ones. */
  refuseAll: boolean;
  /** The refresh endpoint drops the connection without an answer. */
  refreshDropsConnection: boolean;
  /** The refresh endpoint rotates, then drops the connection: the answer is lost (a reload). */
  refreshLosesAnswer: boolean;
};

let backend: Backend;
let generation = 0;

async function startBackend(): Promise<Backend> {
  const state = {
    access: 'access-0',
    refresh: 'refresh-0',
    refreshCalls: 0,
    dataCalls: [],
    holdRefreshUntilRefused: 0,
    refused: 0,
    refreshStatus: 200,
    tokenBodies: [],
    refuseAll: false,
    refreshDropsConnection: false,
    refreshLosesAnswer: false,
  } as Omit<Backend, 'loopback'>;
  const waiting: (() => void)[] = [];
  const loopback = await startLoopback((request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/api/token/refresh/') {
      state.refreshCalls += 1;
      if (state.refreshDropsConnection) {
        request.socket.destroy();
        return;
      }
      const answer = () => {
        const sent = JSON.parse(body) as { refresh?: string; next_refresh?: string };
        if (state.refreshStatus !== 200 || sent.refresh !== state.refresh) {
          sendJson(response, 401, { detail: 'Token is invalid or expired', code: 'token_not_valid' });
          return;
        }
        generation += 1;
        state.access = `access-${generation}`;
        state.refresh = sent.next_refresh ?? `refresh-${generation}`;
        if (state.refreshLosesAnswer) request.socket.destroy();
        else sendJson(response, 200, { access: state.access, refresh: state.refresh } satisfies TokenPair);
      };
      if (state.refused >= state.holdRefreshUntilRefused) answer();
      else waiting.push(answer);
      return;
    }
    if (path === '/api/token/') {
      state.tokenBodies.push(JSON.parse(body));
      sendJson(response, 401, { detail: 'No active account found with the given credentials', code: 'invalid_credentials' });
      return;
    }
    const auth = request.headers.authorization;
    state.dataCalls.push({ auth, path });
    if (path === '/api/admin-only/' && auth === `Bearer ${state.access}`) {
      sendJson(response, 403, { detail: 'Your role (viewer) may not do this; it needs editor.', code: 'forbidden' });
      return;
    }
    if (state.refuseAll || auth !== `Bearer ${state.access}`) {
      state.refused += 1;
      sendJson(response, 401, { detail: 'Given token not valid', code: 'token_not_valid' });
      if (state.refused >= state.holdRefreshUntilRefused) waiting.splice(0).forEach((release) => release());
      return;
    }
    sendJson(response, 200, { path, contentType: request.headers['content-type'] ?? null, body: body ? JSON.parse(body) : null });
  });
  return Object.assign(state, { loopback });
}

type Session = { access: string | null; refresh: string | null; pending: string | null; ended: number; endedWith: string[]; stored: TokenPair[] };

function sessionWith(access: string | null, refresh: string | null, pending: string | null = null): { session: Session; tokens: TokenAccess } {
  const session: Session = { access, refresh, pending, ended: 0, endedWith: [], stored: [] };
  const tokens: TokenAccess = {
    getAccessToken: () => session.access,
    getRefreshToken: () => session.refresh,
    getPendingRefreshToken: () => session.pending,
    setPendingRefreshToken: (token) => {
      session.pending = token;
    },
    setTokens: (pair) => {
      session.stored.push(pair);
      session.access = pair.access;
      session.refresh = pair.refresh;
      session.pending = null;
    },
    onSessionEnded: (reason) => {
      session.ended += 1;
      session.endedWith.push(reason.code);
      session.access = null;
      session.refresh = null;
    },
  };
  return { session, tokens };
}

function client(tokens: TokenAccess, timeoutMs?: number) {
  return createApiClient({ tokens, baseURL: `${backend.loopback.baseUrl}/api`, ...(timeoutMs ? { timeoutMs } : {}) });
}

async function failureOf(promise: Promise<unknown>): Promise<NormalizedError> {
  try {
    await promise;
  } catch (error) {
    return error as NormalizedError;
  }
  throw new Error('the call did not fail');
}

beforeAll(() => initTestI18n());
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(() => backend.loopback.close());

describe('api client', () => {
  it('uses /api, a 30 s timeout and JSON by default', () => {
    const { tokens } = sessionWith(null, null);
    const api = createApiClient({ tokens });
    expect(api.defaults.baseURL).toBe('/api');
    expect(api.defaults.timeout).toBe(30_000);
    expect(requestTimeoutMs).toBe(30_000);
    expect(api.defaults.headers['Content-Type']).toBe('application/json');
  });

  it('sends the access token as a bearer credential and JSON bodies', async () => {
    const { tokens } = sessionWith(backend.access, backend.refresh);
    const answer = await client(tokens).post<{ contentType: string; body: unknown }>('/things/', { name: 'a' });
    expect(backend.dataCalls).toEqual([{ auth: 'Bearer access-0', path: '/api/things/' }]);
    expect(answer.data.contentType).toMatch(/application\/json/);
    expect(answer.data.body).toEqual({ name: 'a' });
  });

  it('never sends the bearer token to sign-in', async () => {
    const { tokens, session } = sessionWith('stale', 'refresh-0');
    const error = await failureOf(client(tokens).post('/token/', { username: 'u', password: 'p' }));
    expect(error).toMatchObject({ code: 'invalid_credentials', message: 'No active account found with the given credentials' });
    expect(backend.refreshCalls).toBe(0);
    expect(session.ended).toBe(0);
  });

  it('refreshes once for five concurrent 401s and replays all five', async () => {
    const { tokens, session } = sessionWith('expired', backend.refresh);
    backend.holdRefreshUntilRefused = 5;
    const api = client(tokens);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => api.get<{ path: string }>(`/items/${n}/`)));
    expect(backend.refreshCalls).toBe(1);
    expect(answers.map((a) => a.data.path)).toEqual([1, 2, 3, 4, 5].map((n) => `/api/items/${n}/`));
    const replays = backend.dataCalls.filter((call) => call.auth === `Bearer ${backend.access}`);
    expect(replays).toHaveLength(5);
    expect(session.stored).toEqual([{ access: backend.access, refresh: backend.refresh }]);
    expect(session.refresh).toBe(backend.refresh); // the rotated refresh token is kept
    expect(session.ended).toBe(0);
  });

  it('renews the tokens after a role refusal, so the role the screens offer catches up with a demotion; the refusal still reaches the caller', async () => {
    const { tokens, session } = sessionWith(backend.access, backend.refresh);
    const error = await failureOf(client(tokens).post('/admin-only/', {}));
    expect(error).toMatchObject({ code: 'forbidden', message: 'Your role (viewer) may not do this; it needs editor.' });
    await expect.poll(() => session.stored.length).toBe(1);
    expect(session.stored).toEqual([{ access: backend.access, refresh: backend.refresh }]);
    expect(backend.refreshCalls).toBe(1);
    expect(session.ended).toBe(0);
  });

  it('refreshes before the first calls when there is no access token (after a reload), once for all', async () => {
    const { tokens, session } = sessionWith(null, backend.refresh);
    const api = client(tokens);
    const answers = await Promise.all(['/accounts/me/', '/dashboard/'].map((path) => api.get<{ path: string }>(path)));
    expect(answers.map((a) => a.data.path)).toEqual(['/api/accounts/me/', '/api/dashboard/']);
    // No call goes out bound to be refused: both carry the renewed token.
    expect(backend.dataCalls.map((c) => c.auth)).toEqual([`Bearer ${backend.access}`, `Bearer ${backend.access}`]);
    expect(backend.refused).toBe(0);
    expect(backend.refreshCalls).toBe(1);
    expect(session.access).toBe(backend.access);
  });

  it('ends the session when the refresh before a first call is refused, without sending the call', async () => {
    const { tokens, session } = sessionWith(null, 'dead-refresh-token');
    const error = await failureOf(client(tokens).get('/items/'));
    expect(error.code).toBe('SESSION_EXPIRED');
    expect(error).toMatchObject({ endpoint: '/items/', method: 'GET' });
    expect(session.endedWith).toEqual(['SESSION_EXPIRED']);
    expect(backend.dataCalls).toHaveLength(0);
  });

  it('uses the rotated refresh token for the next refresh', async () => {
    const { tokens } = sessionWith('expired', backend.refresh);
    const api = client(tokens);
    await api.get('/a/');
    backend.access = 'revoked-by-server';
    await api.get('/b/');
    expect(backend.refreshCalls).toBe(2);
  });

  it('replays without refreshing when a refresh finished while the request was under way', async () => {
    const { tokens } = sessionWith('expired', backend.refresh);
    const api = client(tokens);
    await api.get('/first/');
    expect(backend.refreshCalls).toBe(1);
    // A call that went out with the old token and comes back 401 after the refresh finished.
    const answer = await api.get<{ path: string }>('/late/', { headers: { Authorization: 'Bearer expired' } });
    expect(answer.data.path).toBe('/api/late/');
    expect(backend.refreshCalls).toBe(1);
  });

  it('spends the refresh token stored at refresh time, inside the serializer', async () => {
    const { tokens, session } = sessionWith('expired', 'old-token-of-this-tab');
    // Another tab rotated the token: the stored one is the current one.
    session.refresh = backend.refresh;
    let serialized = 0;
    const api = createApiClient({
      tokens,
      baseURL: `${backend.loopback.baseUrl}/api`,
      serializeRefresh: async (refresh) => {
        serialized += 1;
        return refresh();
      },
    });
    const answer = await api.get<{ path: string }>('/items/');
    expect(answer.data.path).toBe('/api/items/');
    expect(serialized).toBe(1);
    expect(backend.refreshCalls).toBe(1);
  });

  it('logs out with SESSION_EXPIRED when no refresh token is stored', async () => {
    const { tokens, session } = sessionWith(null, null);
    const error = await failureOf(client(tokens).get('/items/'));
    expect(error.code).toBe('SESSION_EXPIRED');
    expect(error.message).toBe('Session expired. Please log in again.');
    expect(error.method).toBe('GET');
    expect(session.ended).toBe(1);
    expect(session.endedWith).toEqual(['SESSION_EXPIRED']);
    expect(backend.refreshCalls).toBe(0);
  });

  it('logs out when the refresh is refused, and rejects every queued request', async () => {
    const { tokens, session } = sessionWith('expired', 'dead-refresh-token');
    backend.holdRefreshUntilRefused = 3;
    const api = client(tokens);
    const errors = await Promise.all([1, 2, 3].map((n) => failureOf(api.get(`/items/${n}/`))));
    expect(backend.refreshCalls).toBe(1);
    expect(errors.map((e) => e.code)).toEqual(['SESSION_EXPIRED', 'SESSION_EXPIRED', 'SESSION_EXPIRED']);
    expect(session.ended).toBeGreaterThanOrEqual(1);
    expect(session.refresh).toBeNull();
    expect(backend.dataCalls).toHaveLength(3); // nothing replayed
  });

  it('does not refresh a second time when the replayed request is refused again', async () => {
    const { tokens } = sessionWith('expired', backend.refresh);
    backend.refuseAll = true;
    const error = await failureOf(client(tokens).get('/always-401/'));
    expect(error.code).toBe('token_not_valid');
    expect(backend.refreshCalls).toBe(1);
    expect(backend.dataCalls).toHaveLength(2); // the call and its one replay
  });

  it('logs out and says NETWORK_ERROR when the refresh gets no answer', async () => {
    const { tokens, session } = sessionWith('expired', backend.refresh);
    backend.refreshDropsConnection = true;
    const error = await failureOf(client(tokens).get('/items/'));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(backend.refreshCalls).toBe(1);
    expect(session.ended).toBe(1);
    expect(session.endedWith).toEqual(['NETWORK_ERROR']);
  });

  it('after a rotation whose answer was lost (a reload), spends the token it had asked for', async () => {
    const before = sessionWith(null, backend.refresh);
    backend.refreshLosesAnswer = true;
    expect((await failureOf(client(before.tokens).get('/items/'))).code).toBe('NETWORK_ERROR');
    const asked = before.session.pending;
    expect(asked).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(backend.refresh).toBe(asked); // the server made the rotation

    // The reloaded page starts from storage: the used token and the pending one.
    backend.refreshLosesAnswer = false;
    const after = sessionWith(null, 'refresh-0', asked);
    const answer = await client(after.tokens).get<{ path: string }>('/items/');
    expect(answer.data.path).toBe('/api/items/');
    expect(backend.refreshCalls).toBe(2);
    expect(after.session).toMatchObject({ refresh: backend.refresh, pending: null, ended: 0 });
  });

  it('falls back to the stored token when the lost rotation never reached the server', async () => {
    const { tokens, session } = sessionWith(null, backend.refresh, 'a'.repeat(43));
    const answer = await client(tokens).get<{ path: string }>('/items/');
    expect(answer.data.path).toBe('/api/items/');
    expect(backend.refreshCalls).toBe(2); // the pending token was refused, then the stored one spent
    expect(session).toMatchObject({ refresh: backend.refresh, pending: null, ended: 0 });
  });

  it('does not refresh when the call itself gets no answer', async () => {
    const { tokens, session } = sessionWith('expired', 'refresh-0');
    const port = await closedPort();
    const api = createApiClient({ tokens, baseURL: `http://127.0.0.1:${port}/api` });
    const error = await failureOf(api.get('/items/'));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(session.ended).toBe(0);
    expect(backend.refreshCalls).toBe(0);
  });

  it('times out after the configured time', async () => {
    const hanging = await startLoopback(() => undefined);
    try {
      const { tokens } = sessionWith('a', 'r');
      const api = createApiClient({ tokens, baseURL: hanging.baseUrl, timeoutMs: 100 });
      const error = await failureOf(api.get('/slow/'));
      expect(error.code).toBe('TIMEOUT_ERROR');
      expect(error.endpoint).toBe('/slow/');
    } finally {
      await hanging.close();
    }
  });

  it('normalizes a failure while preparing the request', async () => {
    const { tokens } = sessionWith('a', 'r');
    const api = client(tokens);
    api.interceptors.request.use(() => {
      throw new Error('cannot build request');
    });
    const error = await failureOf(api.get('/x/'));
    expect(error).toMatchObject({ code: 'REQUEST_SETUP_ERROR', message: 'cannot build request' });
  });
});
