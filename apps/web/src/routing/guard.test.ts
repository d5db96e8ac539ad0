import { describe, expect, it } from 'vitest';
import { decideRoute, isSignedInPath, type GuardInput } from './guard.ts';

const loggedOut: Omit<GuardInput, 'pathname'> = { isLoading: false, isLoggedIn: false, isLoggingIn: false };
const loggedIn: Omit<GuardInput, 'pathname'> = { isLoading: false, isLoggedIn: true, isLoggingIn: false };

describe('decideRoute', () => {
  it.each(['/', '/login', '/app/home', '/profile', '/nowhere'])('shows the initializing screen on %s before the session loaded', (pathname) => {
    expect(decideRoute({ pathname, isLoading: true, isLoggedIn: false, isLoggingIn: false })).toEqual({ kind: 'initializing' });
    expect(decideRoute({ pathname, isLoading: true, isLoggedIn: true, isLoggingIn: false })).toEqual({ kind: 'initializing' });
  });

  it.each(['/app/home', '/app/forecasting', '/app/reports', '/app/datatab', '/app/settings', '/app/unknown', '/app', '/profile', '/'])(
    'sends a logged-out visitor from %s to /login',
    (pathname) => {
      expect(decideRoute({ pathname, ...loggedOut })).toEqual({ kind: 'redirect', to: '/login' });
    },
  );

  it.each(['/', '/login', '/login/'])('sends a logged-in user from %s to /app/home', (pathname) => {
    expect(decideRoute({ pathname, ...loggedIn })).toEqual({ kind: 'redirect', to: '/app/home' });
  });

  it.each([
    ['/app', '/app/home'],
    ['/app/', '/app/home'],
    ['/app/dashboard', '/app/home'],
    ['/app/data', '/app/datatab'],
  ])('sends a logged-in user from %s, a name the menu uses, to %s', (pathname, to) => {
    expect(decideRoute({ pathname, ...loggedIn })).toEqual({ kind: 'redirect', to });
  });

  it.each(['/app/home', '/app/reports', '/profile', '/app/nope', '/nowhere'])('renders %s for a logged-in user', (pathname) => {
    expect(decideRoute({ pathname, ...loggedIn })).toEqual({ kind: 'render' });
  });

  it('renders the login page and unknown public paths when logged out', () => {
    expect(decideRoute({ pathname: '/login', ...loggedOut })).toEqual({ kind: 'render' });
    expect(decideRoute({ pathname: '/nowhere', ...loggedOut })).toEqual({ kind: 'render' });
  });

  it('neither redirects nor shows the loader while a sign-in is under way on /login', () => {
    expect(decideRoute({ pathname: '/login', isLoading: false, isLoggedIn: false, isLoggingIn: true })).toEqual({ kind: 'render' });
    expect(decideRoute({ pathname: '/login', isLoading: true, isLoggedIn: true, isLoggingIn: true })).toEqual({ kind: 'render' });
  });

  it('knows which paths need a session', () => {
    expect(isSignedInPath('/app/home')).toBe(true);
    expect(isSignedInPath('/profile/')).toBe(true);
    expect(isSignedInPath('/application')).toBe(false);
    expect(isSignedInPath('/login')).toBe(false);
  });
});
