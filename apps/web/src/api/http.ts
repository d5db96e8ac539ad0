// The app's one API client, wired to the session store.
import { createApiClient } from './client.ts';
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
