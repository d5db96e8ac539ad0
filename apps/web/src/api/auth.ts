// Sign-in, sign-out, the account and its sessions (spec §7), and the administrators' users API.
import type {
  Account,
  ChangePasswordRequest,
  CreateUserRequest,
  LogoutRequest,
  OwnAccount,
  PreferencesRequest,
  RegisterRequest,
  ResetPasswordRequest,
  RevokedSessions,
  Role,
  SessionList,
  SessionSummary,
  TokenPair,
  TokenRequest,
  UserList,
  UserSummary,
} from '@stockwise/contract';
import { authEndpoints } from './client.ts';
import { api } from './http.ts';

export async function requestTokenPair(credentials: TokenRequest): Promise<TokenPair> {
  const answer = await api.post<TokenPair>(authEndpoints.token, credentials);
  return answer.data;
}

/** Self-registration; on a server without accounts it creates the first one, an administrator. */
export async function registerAccount(body: RegisterRequest): Promise<Account> {
  const answer = await api.post<Account>(authEndpoints.register, body);
  return answer.data;
}

/** Revokes the sign-in on the server (the refresh token is the credential, no access token needed). */
export async function requestLogout(refresh: string): Promise<void> {
  const body: LogoutRequest = { refresh };
  await api.post(authEndpoints.logout, body);
}

export async function fetchCurrentAccount(): Promise<OwnAccount> {
  const answer = await api.get<OwnAccount>('/accounts/me/');
  return answer.data;
}

/** The signed-in person's own preferences (how they write dates): the account answers with them. */
export async function savePreferences(body: PreferencesRequest): Promise<OwnAccount> {
  const answer = await api.put<OwnAccount>('/accounts/me/preferences/', body);
  return answer.data;
}

export async function changePassword(body: ChangePasswordRequest): Promise<RevokedSessions> {
  const answer = await api.post<RevokedSessions>('/accounts/password/', body);
  return answer.data;
}

export async function fetchSessions(): Promise<SessionSummary[]> {
  const answer = await api.get<SessionList>('/accounts/sessions/');
  return answer.data.results;
}

export async function revokeSession(id: string): Promise<void> {
  await api.delete(`/accounts/sessions/${encodeURIComponent(id)}/`);
}

export async function revokeAllSessions(): Promise<RevokedSessions> {
  const answer = await api.post<RevokedSessions>('/accounts/sessions/revoke-all/', {});
  return answer.data;
}

export async function fetchUsers(): Promise<UserSummary[]> {
  const answer = await api.get<UserList>('/accounts/users/');
  return answer.data.results;
}

/** An administrator adds a colleague, approved from the start. */
export async function createUser(body: CreateUserRequest): Promise<UserSummary> {
  const answer = await api.post<UserSummary>('/accounts/users/', body);
  return answer.data;
}

export async function setUserRole(id: number, role: Role): Promise<UserSummary> {
  const answer = await api.post<UserSummary>(`/accounts/users/${id}/role/`, { role });
  return answer.data;
}

export async function setUserDisabled(id: number, disabled: boolean): Promise<UserSummary> {
  const answer = await api.post<UserSummary>(`/accounts/users/${id}/disable/`, { disabled });
  return answer.data;
}

export async function resetUserPassword(id: number, body: ResetPasswordRequest): Promise<UserSummary> {
  const answer = await api.post<UserSummary>(`/accounts/users/${id}/password/`, body);
  return answer.data;
}
