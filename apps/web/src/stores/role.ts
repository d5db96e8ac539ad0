// The signed-in user's role as the current access token states it. The UI uses it only to offer
// what the role may do; the server decides every call (and its 403 message is still shown).
import { roleAllows, roles, type Role } from '@stockwise/contract';
import { useSessionStore } from './session.ts';

/** The `role` claim of an access token, or null when there is no token or it carries none. */
export function roleOfAccessToken(token: string | null): Role | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { role?: unknown };
    return roles.find((role) => role === claims.role) ?? null;
  } catch {
    return null;
  }
}

/** The role, or null until the first access token of this page load has arrived. */
export const useRole = (): Role | null => useSessionStore((state) => roleOfAccessToken(state.accessToken));

/** Whether the signed-in role reaches `required`; false while the role is not known yet. */
export function useCan(required: Role): boolean {
  const role = useRole();
  return role !== null && roleAllows(role, required);
}
