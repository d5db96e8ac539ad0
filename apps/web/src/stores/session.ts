// The session (spec §3, §4): access token in memory only, refresh token in localStorage under one
// fixed key. On load the session counts as logged in when a refresh token is stored; the access
// token is gone and the first call's 401 renews it.
import { create } from 'zustand';
import type { TokenPair } from '@stockwise/contract';

export const refreshTokenStorageKey = 'stockwise.refreshToken';

export type SessionState = {
  accessToken: string | null;
  refreshToken: string | null;
  isLoggedIn: boolean;
  /** The stored session is being loaded (true until loadSession ran). */
  isLoading: boolean;
  /** A sign-in request is under way. */
  isLoggingIn: boolean;
  error: string | null;
};

export type SessionActions = {
  loadSession: () => void;
  loginStarted: () => void;
  loginSucceeded: (tokens: TokenPair) => void;
  loginFailed: (message: string) => void;
  setTokens: (tokens: TokenPair) => void;
  logout: () => void;
};

export type SessionStore = SessionState & SessionActions;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser
  }
}

function persistRefreshToken(token: string | null): void {
  const store = storage();
  if (!store) return;
  if (token === null) store.removeItem(refreshTokenStorageKey);
  else store.setItem(refreshTokenStorageKey, token);
}

export const initialSessionState: SessionState = {
  accessToken: null,
  refreshToken: null,
  isLoggedIn: false,
  isLoading: true,
  isLoggingIn: false,
  error: null,
};

export const useSessionStore = create<SessionStore>()((set) => ({
  ...initialSessionState,

  loadSession: () => {
    set({ isLoading: true, error: null });
    const refreshToken = storage()?.getItem(refreshTokenStorageKey) ?? null;
    set({ accessToken: null, refreshToken, isLoggedIn: refreshToken !== null, isLoading: false });
  },

  loginStarted: () => set({ isLoggingIn: true, error: null }),

  loginSucceeded: ({ access, refresh }) => {
    persistRefreshToken(refresh);
    set({ accessToken: access, refreshToken: refresh, isLoggedIn: true, isLoggingIn: false, error: null });
  },

  loginFailed: (message) => set({ isLoggingIn: false, error: message }),

  setTokens: ({ access, refresh }) => {
    persistRefreshToken(refresh);
    set({ accessToken: access, refreshToken: refresh });
  },

  logout: () => {
    persistRefreshToken(null);
    set({ accessToken: null, refreshToken: null, isLoggedIn: false, isLoggingIn: false, error: null });
  },
}));
