// The routing rules of spec §2 as one pure decision, so they can be tested without a browser.
export type RouteDecision = { kind: 'initializing' } | { kind: 'redirect'; to: string } | { kind: 'render' };

export type GuardInput = {
  pathname: string;
  /** The stored session has not loaded yet (or the texts are still on their way). */
  isLoading: boolean;
  isLoggedIn: boolean;
  isLoggingIn: boolean;
};

export const loginPath = '/login';
export const homePath = '/app/home';

/**
 * Addresses a person types from what the menu says (spec §2 leaves them out): /app and "Dashboard"
 * go home, "Data" to its screen, as an address bar's guess should rather than "Page not found".
 */
const SIGNED_IN_ALIASES: Readonly<Record<string, string>> = { '/app': homePath, '/app/dashboard': homePath, '/app/data': '/app/datatab' };

function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function isSignedInPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return path === '/app' || path.startsWith('/app/') || path === '/profile' || path.startsWith('/profile/');
}

export function decideRoute({ pathname, isLoading, isLoggedIn, isLoggingIn }: GuardInput): RouteDecision {
  const path = normalizePath(pathname);
  // A sign-in under way keeps the login page as it is: no loader, no redirect.
  if (path === loginPath && isLoggingIn) return { kind: 'render' };
  if (isLoading) return { kind: 'initializing' };
  if (!isLoggedIn && (path === '/' || isSignedInPath(path))) return { kind: 'redirect', to: loginPath };
  if (isLoggedIn && (path === '/' || path === loginPath)) return { kind: 'redirect', to: homePath };
  const alias = isLoggedIn ? SIGNED_IN_ALIASES[path] : undefined;
  if (alias) return { kind: 'redirect', to: alias };
  return { kind: 'render' };
}
