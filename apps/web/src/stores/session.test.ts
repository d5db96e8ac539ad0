import { beforeEach, describe, expect, it } from 'vitest';
import {
  currentRefreshToken,
  followOtherTabs,
  initialSessionState,
  persistPendingRefreshToken,
  readPendingRefreshToken,
  refreshTokenStorageKey,
  useSessionStore,
} from './session.ts';

beforeEach(() => {
  localStorage.clear();
  useSessionStore.setState(initialSessionState);
});

describe('session store', () => {
  it('starts loading and logged out', () => {
    expect(useSessionStore.getState()).toMatchObject({ isLoading: true, isLoggedIn: false, accessToken: null, error: null });
  });

  it('loads as logged out without a stored refresh token', () => {
    useSessionStore.getState().loadSession();
    expect(useSessionStore.getState()).toMatchObject({ isLoading: false, isLoggedIn: false, refreshToken: null });
  });

  it('loads as logged in with a stored refresh token, without an access token', () => {
    localStorage.setItem(refreshTokenStorageKey, 'r1');
    useSessionStore.setState({ accessToken: 'left-over' });
    useSessionStore.getState().loadSession();
    expect(useSessionStore.getState()).toMatchObject({ isLoading: false, isLoggedIn: true, refreshToken: 'r1', accessToken: null });
  });

  it('keeps only the refresh token in localStorage after sign-in', () => {
    const store = useSessionStore.getState();
    store.loadSession();
    store.loginStarted();
    expect(useSessionStore.getState()).toMatchObject({ isLoggingIn: true, error: null });
    store.loginSucceeded({ access: 'a1', refresh: 'r1' });
    expect(useSessionStore.getState()).toMatchObject({ isLoggedIn: true, isLoggingIn: false, accessToken: 'a1', refreshToken: 'r1' });
    expect(Object.keys(localStorage)).toEqual([refreshTokenStorageKey]);
    expect(localStorage.getItem(refreshTokenStorageKey)).toBe('r1');
    expect(JSON.stringify(localStorage)).not.toContain('a1');
  });

  it('records a failed sign-in and clears the error when the next one starts', () => {
    const store = useSessionStore.getState();
    store.loadSession();
    store.loginStarted();
    store.loginFailed('Invalid username or password. Please try again.');
    expect(useSessionStore.getState()).toMatchObject({ isLoggingIn: false, isLoggedIn: false, error: 'Invalid username or password. Please try again.' });
    store.loginStarted();
    expect(useSessionStore.getState().error).toBeNull();
  });

  it('stores rotated tokens', () => {
    const store = useSessionStore.getState();
    store.loginSucceeded({ access: 'a1', refresh: 'r1' });
    persistPendingRefreshToken('r2');
    expect(readPendingRefreshToken()).toBe('r2'); // kept before the rotation is sent: it survives a reload
    store.setTokens({ access: 'a2', refresh: 'r2' });
    expect(useSessionStore.getState()).toMatchObject({ accessToken: 'a2', refreshToken: 'r2' });
    expect(localStorage.getItem(refreshTokenStorageKey)).toBe('r2');
    expect(readPendingRefreshToken()).toBeNull(); // the answer arrived: nothing is pending
  });

  it('forgets everything on logout', () => {
    const store = useSessionStore.getState();
    store.loginSucceeded({ access: 'a1', refresh: 'r1' });
    persistPendingRefreshToken('r2');
    store.logout();
    expect(useSessionStore.getState()).toMatchObject({ isLoggedIn: false, accessToken: null, refreshToken: null });
    expect(localStorage.getItem(refreshTokenStorageKey)).toBeNull();
    expect(readPendingRefreshToken()).toBeNull();
    store.loadSession();
    expect(useSessionStore.getState().isLoggedIn).toBe(false);
  });

  it('expires with a message for the login screen', () => {
    const store = useSessionStore.getState();
    store.loginSucceeded({ access: 'a1', refresh: 'r1' });
    store.expire('Session expired. Please log in again.');
    expect(useSessionStore.getState()).toMatchObject({ isLoggedIn: false, accessToken: null, error: 'Session expired. Please log in again.' });
    expect(localStorage.getItem(refreshTokenStorageKey)).toBeNull();
  });

  it('follows another tab that rotates the token or logs out', () => {
    const stop = followOtherTabs(window);
    try {
      const store = useSessionStore.getState();
      store.loginSucceeded({ access: 'a1', refresh: 'r1' });
      localStorage.setItem(refreshTokenStorageKey, 'r2');
      window.dispatchEvent(new StorageEvent('storage', { key: refreshTokenStorageKey, newValue: 'r2' }));
      expect(useSessionStore.getState()).toMatchObject({ refreshToken: 'r2', isLoggedIn: true, accessToken: 'a1' });
      expect(currentRefreshToken()).toBe('r2');
      localStorage.removeItem(refreshTokenStorageKey);
      window.dispatchEvent(new StorageEvent('storage', { key: refreshTokenStorageKey, newValue: null }));
      expect(useSessionStore.getState()).toMatchObject({ refreshToken: null, isLoggedIn: false, accessToken: null });
    } finally {
      stop();
    }
  });
});
