// The app's one API client, wired to the session store.
import { createApiClient } from './client.ts';
import { useSessionStore } from '../stores/session.ts';

export const api = createApiClient({
  tokens: {
    getAccessToken: () => useSessionStore.getState().accessToken,
    getRefreshToken: () => useSessionStore.getState().refreshToken,
    setTokens: (tokens) => useSessionStore.getState().setTokens(tokens),
    onSessionEnded: () => useSessionStore.getState().logout(),
  },
});
