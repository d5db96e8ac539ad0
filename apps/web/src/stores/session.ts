// The session (spec §3, §4): access token in memory only, refresh token in localStorage under one
// fixed key. On load the session counts as logged in when a refresh token is stored; the access
// token is gone and is renewed before the first call (api/client.ts).
import { create } from 'zustand';
import type { TokenPair } from '@stockwise/contract';

export const refreshTokenStorageKey = 'stockwise.refreshToken';
/** The token a rotation under way asked the server for (ADR 0013); settled when the answer arrives. */
export const pendingRefreshTokenStorageKey = 'stockwise.pendingRefreshToken';

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
  /** The session could not be renewed: logged out, with a message for the login screen. */
  expire: (message: string) => void;
  /** Another tab changed the stored refresh token (rotated it, or logged out). */
  syncFromStorage: () => void;
};

export type SessionStore = SessionState & SessionActions;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** The refresh token as stored now (another tab may have rotated it). */
export function readStoredRefreshToken(): string | null {
  return storage()?.getItem(refreshTokenStorageKey) ?? null;
}

function writeStored(key: string, token: string | null): void {
  const store = storage();
  if (!store) return;
  if (token === null) store.removeItem(key);
  else store.setItem(key, token);
}

/** A new refresh token settles any pending one (its rotation has answered, or the session ended). */
function persistRefreshToken(token: string | null): void {
  writeStored(pendingRefreshTokenStorageKey, null);
  writeStored(refreshTokenStorageKey, token);
}

/** The token of a rotation whose answer never arrived (the page reloaded): it may be the live one. */
export function readPendingRefreshToken(): string | null {
  return storage()?.getItem(pendingRefreshTokenStorageKey) ?? null;
}

export const persistPendingRefreshToken = (token: string | null): void => writeStored(pendingRefreshTokenStorageKey, token);

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
    const refreshToken = readStoredRefreshToken();
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

  expire: (message) => {
    persistRefreshToken(null);
    set({ accessToken: null, refreshToken: null, isLoggedIn: false, isLoggingIn: false, error: message });
  },

  syncFromStorage: () => {
    const refreshToken = readStoredRefreshToken();
    if (refreshToken === null) set({ accessToken: null, refreshToken: null, isLoggedIn: false });
    else set({ refreshToken, isLoggedIn: true });
  },
}));

/** The refresh token to spend now: the stored one (another tab may have rotated it), else memory. */
export function currentRefreshToken(): string | null {
  const store = storage();
  return store ? store.getItem(refreshTokenStorageKey) : useSessionStore.getState().refreshToken;
}

/** Keeps this tab in step when another tab rotates the refresh token or logs out. */
export function followOtherTabs(target: Window): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === refreshTokenStorageKey || event.key === null) useSessionStore.getState().syncFromStorage();
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener('storage', onStorage);
}
