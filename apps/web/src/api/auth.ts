// Sign-in and account calls (spec §7).
import type { Account, TokenPair, TokenRequest } from '@stockwise/contract';
import { authEndpoints } from './client.ts';
import { api } from './http.ts';

export async function requestTokenPair(credentials: TokenRequest): Promise<TokenPair> {
  const answer = await api.post<TokenPair>(authEndpoints.token, credentials);
  return answer.data;
}

export async function fetchCurrentAccount(): Promise<Account> {
  const answer = await api.get<Account>('/accounts/me/');
  return answer.data;
}
