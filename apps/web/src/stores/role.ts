// The signed-in user's role as the current access token states it. The UI uses it only to offer
// what the role may do; the server decides every call (and its 403 message is still shown).
import { roleAllows, roles, type Role } from '@stockwise/contract';
import { useSessionStore } from './session.ts';

function claimsOf(token: string | null): { role?: unknown; sub?: unknown } | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    return JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { role?: unknown; sub?: unknown };
  } catch {
    return null;
  }
}

/** The `role` claim of an access token, or null when there is no token or it carries none. */
export function roleOfAccessToken(token: string | null): Role | null {
  const claims = claimsOf(token);
  return roles.find((role) => role === claims?.role) ?? null;
}

/** The `sub` claim of an access token (the user's id), or null when there is no token or it carries none. */
export function userIdOfAccessToken(token: string | null): number | null {
  const subject = Number(claimsOf(token)?.sub);
  return Number.isSafeInteger(subject) ? subject : null;
}

/** The signed-in user's id (the token's subject), or null until a token has arrived. */
export const useUserId = (): number | null => useSessionStore((state) => userIdOfAccessToken(state.accessToken));

/** The role, or null until the first access token of this page load has arrived. */
export const useRole = (): Role | null => useSessionStore((state) => roleOfAccessToken(state.accessToken));

/** Whether the signed-in role reaches `required`; false while the role is not known yet. */
export function useCan(required: Role): boolean {
  const role = useRole();
  return role !== null && roleAllows(role, required);
}
