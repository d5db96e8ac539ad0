// The app's one API client, wired to the session store.
import { createApiClient } from './client.ts';
import type { NormalizedError } from './errors.ts';
import { refreshAcrossTabs } from './refresh-across-tabs.ts';
import { currentRefreshToken, persistPendingRefreshToken, readPendingRefreshToken, useSessionStore } from '../stores/session.ts';

export const api = createApiClient({
  serializeRefresh: refreshAcrossTabs,
  tokens: {
    getAccessToken: () => useSessionStore.getState().accessToken,
    getRefreshToken: currentRefreshToken,
    getPendingRefreshToken: readPendingRefreshToken,
    setPendingRefreshToken: persistPendingRefreshToken,
    setTokens: (tokens) => useSessionStore.getState().setTokens(tokens),
    onSessionEnded: (reason) => useSessionStore.getState().expire(reason.message),
  },
});

/**
 * Told when the server refuses a call because the account still has a starting password (ADR 0151):
 * a tab signed in before an administrator's reset learns it here, and the shell shows the gate.
 */
export const startingPasswordRefusals = new EventTarget();

api.interceptors.response.use(undefined, (error: NormalizedError) => {
  const body = error.details.body as { code?: unknown } | null;
  if (error.details.status === 403 && body?.code === 'password_change_required') startingPasswordRefusals.dispatchEvent(new Event('refused'));
  throw error;
});
