// Signing in and out: the calls plus the session store's transitions.
import type { RegisterRequest, TokenRequest } from '@stockwise/contract';
import { registerAccount, requestLogout, requestTokenPair } from '../api/auth.ts';
import { normalizeError, type NormalizedError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { currentRefreshToken, useSessionStore } from './session.ts';

export type SignInResult = { ok: true } | { ok: false; message: string; fieldErrors: Record<string, string[]> };

/** The message the login screen shows for a failed sign-in (spec §8). */
export function loginErrorMessage(error: NormalizedError): string {
  const status = error.details.status;
  if (status === 401) return i18n.t('login.errors.invalidCredentials');
  if (error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT_ERROR') return i18n.t('login.errors.network');
  if (status === 400 && Object.keys(error.details.fieldErrors).length > 0) return i18n.t('login.errors.fieldsInvalid');
  return error.message; // 429 and the rest: the server's own detail
}

export async function signIn(credentials: TokenRequest): Promise<SignInResult> {
  const session = useSessionStore.getState();
  session.loginStarted();
  try {
    const tokens = await requestTokenPair(credentials);
    useSessionStore.getState().loginSucceeded(tokens);
    return { ok: true };
  } catch (error) {
    const normalized = normalizeError(error);
    const message = loginErrorMessage(normalized);
    useSessionStore.getState().loginFailed(message);
    return { ok: false, message, fieldErrors: normalized.details.fieldErrors };
  }
}

/**
 * The first account of a new server (the sign-in page offers it while none exists): created, then
 * signed in. Should another visitor have created the first one a moment before, this one gets the
 * role a self-registered account gets, and the app shows what that role may do.
 */
export async function createFirstAccount(details: RegisterRequest): Promise<SignInResult> {
  try {
    await registerAccount(details);
  } catch (error) {
    const normalized = normalizeError(error);
    const fieldErrors = normalized.details.fieldErrors;
    const message = Object.keys(fieldErrors).length > 0 ? i18n.t('login.errors.fieldsInvalid') : normalized.message;
    useSessionStore.getState().loginFailed(message);
    return { ok: false, message, fieldErrors };
  }
  return signIn({ username: details.username, password: details.password });
}

/**
 * Ends the sign-in on the server, then here. The local session is cleared whatever the server
 * answers: a user who pressed "Log out" must never stay signed in because the network failed.
 */
export async function signOut(): Promise<void> {
  const refresh = currentRefreshToken();
  try {
    if (refresh) await requestLogout(refresh);
  } catch {
    // The refresh token still expires on its own; nothing more this tab can do.
  } finally {
    useSessionStore.getState().logout();
  }
}
