// The app's one API client, wired to the session store.
import { createApiClient } from './client.ts';
import { refreshAcrossTabs } from './refresh-across-tabs.ts';
import { currentRefreshToken, useSessionStore } from '../stores/session.ts';
import { i18n } from '../i18n.ts';

export const api = createApiClient({
  serializeRefresh: refreshAcrossTabs,
  tokens: {
    getAccessToken: () => useSessionStore.getState().accessToken,
    getRefreshToken: currentRefreshToken,
    setTokens: (tokens) => useSessionStore.getState().setTokens(tokens),
    onSessionEnded: () => useSessionStore.getState().expire(i18n.t('errors.sessionExpired')),
  },
});
