// The HTTP client (spec §7, §8): one base address, 30 s timeout, JSON, bearer token on every call
// but sign-in, refresh and registration, normalized errors, and on a 401 one shared token refresh
// that every concurrent request waits for and is then replayed after; after a reload (no access
// token yet) the refresh runs before the first call instead.
import axios, { type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import type { RefreshRequest, TokenPair } from '@stockwise/contract';
import { normalizeError, sessionExpiredError, type NormalizedError } from './errors.ts';

export const requestTimeoutMs = 30_000;
export const apiBaseUrl = '/api';

export const authEndpoints = {
  token: '/token/',
  refresh: '/token/refresh/',
  logout: '/token/logout/',
  register: '/accounts/register/',
} as const;

const publicEndpoints: ReadonlySet<string> = new Set(Object.values(authEndpoints));

/** Where the client reads and writes the session's tokens (the session store in the app). */
export type TokenAccess = {
  getAccessToken: () => string | null;
  getRefreshToken: () => string | null;
  /** The next refresh token a rotation asked for whose answer never came (ADR 0013). */
  getPendingRefreshToken: () => string | null;
  /** Kept before a rotation is sent, so it survives a reload; setTokens settles it. */
  setPendingRefreshToken: (token: string | null) => void;
  setTokens: (tokens: TokenPair) => void;
  /** The session cannot be renewed: log out. `reason` says why (SESSION_EXPIRED, NETWORK_ERROR...). */
  onSessionEnded: (reason: NormalizedError) => void;
};

/** Runs a refresh so that no other refresh (in this or another tab) runs at the same time. */
export type RefreshSerializer = (refresh: () => Promise<string>) => Promise<string>;

export type ApiClientOptions = {
  tokens: TokenAccess;
  baseURL?: string;
  timeoutMs?: number;
  serializeRefresh?: RefreshSerializer;
};

type RetriableConfig = InternalAxiosRequestConfig & { _replayed?: boolean };

function isPublicEndpoint(url: string | undefined): boolean {
  return url !== undefined && publicEndpoints.has(url);
}

function bearerOf(config: InternalAxiosRequestConfig): string | null {
  const header = config.headers.get('Authorization');
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

const runNow: RefreshSerializer = (refresh) => refresh();

/** 32 random bytes, base64url: the shape of the server's own refresh tokens. */
export function newRefreshToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function createApiClient({
  tokens,
  baseURL = apiBaseUrl,
  timeoutMs = requestTimeoutMs,
  serializeRefresh = runNow,
}: ApiClientOptions): AxiosInstance {
  const client = axios.create({
    baseURL,
    timeout: timeoutMs,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });

  // The one refresh in flight; everyone who meets a 401 meanwhile waits for it.
  let refreshInFlight: Promise<string> | null = null;

  async function rotate(refresh: string): Promise<string> {
    const next = newRefreshToken();
    tokens.setPendingRefreshToken(next);
    const body: RefreshRequest = { refresh, next_refresh: next };
    const answer = await client.post<TokenPair>(authEndpoints.refresh, body);
    tokens.setTokens(answer.data);
    return answer.data.access;
  }

  async function refreshAccessToken(): Promise<string> {
    // Read the token only now: another tab may have rotated it while this one waited for the lock.
    const refresh = tokens.getRefreshToken();
    if (!refresh) throw sessionExpiredError({ endpoint: authEndpoints.refresh, method: 'POST' });
    // A rotation whose answer was lost: if the server made it, its token is the live one now, and
    // spending the stored (used) token would look like theft and end the session.
    const pending = tokens.getPendingRefreshToken();
    if (pending) {
      try {
        return await rotate(pending);
      } catch (error) {
        if (normalizeError(error).details.status !== 401) throw error;
      }
    }
    return rotate(refresh);
  }

  function sharedRefresh(): Promise<string> {
    refreshInFlight ??= serializeRefresh(refreshAccessToken).finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  /** The shared refresh; when it fails the session ends, with a message that says what happened. */
  async function renewOrEndSession(request: { endpoint: string; method: string }): Promise<string> {
    try {
      return await sharedRefresh();
    } catch (refreshError) {
      const reason = normalizeError(refreshError);
      // Without an answer the session may still be fine, but the spec logs out on a failed refresh;
      // the message then says what really happened.
      const ended = reason.details.status === null ? reason : sessionExpiredError(request, reason);
      tokens.onSessionEnded(ended);
      throw ended;
    }
  }

  client.interceptors.request.use(async (config) => {
    if (isPublicEndpoint(config.url) || config.headers.has('Authorization')) return config;
    let access = tokens.getAccessToken();
    // After a reload only the refresh token is left: renew first rather than send a call bound to be
    // refused (one 401 per page load otherwise).
    if (!access && (refreshInFlight || tokens.getRefreshToken())) {
      access = await renewOrEndSession({ endpoint: config.url ?? '', method: (config.method ?? '').toUpperCase() });
    }
    if (access) config.headers.set('Authorization', `Bearer ${access}`);
    return config;
  });

  client.interceptors.response.use(undefined, async (error: unknown) => {
    // A role refusal may mean an administrator changed the role since this access token was issued:
    // a new token carries the current role, so the screens stop offering what it may no longer do
    // (QA8 F24). The refusal itself still reaches the caller; a failed renewal is left to the next call.
    if (axios.isAxiosError(error) && error.response?.status === 403 && (error.response.data as { code?: unknown } | undefined)?.code === 'forbidden' && tokens.getRefreshToken()) {
      sharedRefresh().catch(() => undefined);
    }
    if (!axios.isAxiosError(error) || error.response?.status !== 401 || !error.config) {
      throw normalizeError(error);
    }
    const config = error.config as RetriableConfig;
    if (isPublicEndpoint(config.url) || config._replayed) throw normalizeError(error);

    const failed = normalizeError(error);
    const request = { endpoint: failed.endpoint, method: failed.method };

    // A refresh finished while this request was under way: replay with the new token, no new refresh.
    const current = tokens.getAccessToken();
    const sent = bearerOf(config);
    let access: string;
    if (current && current !== sent && !refreshInFlight) {
      access = current;
    } else {
      if (!refreshInFlight && !tokens.getRefreshToken()) {
        const expired = sessionExpiredError(request, failed);
        tokens.onSessionEnded(expired);
        throw expired;
      }
      access = await renewOrEndSession(request);
    }
    config._replayed = true;
    config.headers.set('Authorization', `Bearer ${access}`);
    return client.request(config);
  });

  return client;
}
