// Sign-in, refresh rotation with reuse detection, and registration.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account, RegisterRequest, TokenPair } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, validationError } from '../http/errors.ts';
import { hashPassword, isCommonPassword, verifyDecoyPassword, verifyPassword } from './passwords.ts';
import * as repo from './repo.ts';
import { generateRefreshToken, hashRefreshToken, type TokenSigner } from './tokens.ts';

export const LOGIN_FAILURE_WINDOW_SECONDS = 3600;

export type AuthContext = {
  db: Kysely<Database>;
  signer: TokenSigner;
  refreshTokenTtlSeconds: number;
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  registrationEnabled: boolean;
};

const invalidCredentials = () => new AppError('invalid_credentials', 'No active account found with the given credentials.');
const invalidRefreshToken = () => new AppError('token_not_valid', 'Token is invalid or expired.');
const throttled = (detail: string) =>
  new AppError('throttled', detail, { headers: { 'retry-after': String(LOGIN_FAILURE_WINDOW_SECONDS) } });

async function issueTokenPair(ctx: AuthContext, user: { id: number; username: string }, family: { id: string; expiresAt: Date }): Promise<TokenPair> {
  const refresh = generateRefreshToken();
  await repo.insertRefreshToken(ctx.db, { userId: user.id, familyId: family.id, tokenHash: hashRefreshToken(refresh), expiresAt: family.expiresAt });
  const access = await ctx.signer.issueAccessToken({ userId: user.id, username: user.username });
  return { access, refresh };
}

export async function signIn(ctx: AuthContext, options: { username: string; password: string; ip: string }): Promise<TokenPair> {
  const { username, password, ip } = options;
  if ((await repo.countRecentFailures(ctx.db, { username }, LOGIN_FAILURE_WINDOW_SECONDS)) >= ctx.loginMaxFailuresPerAccount) {
    throw throttled('Too many failed sign-in attempts for this account. Try again in an hour.');
  }
  if ((await repo.countRecentFailures(ctx.db, { ip }, LOGIN_FAILURE_WINDOW_SECONDS)) >= ctx.loginMaxFailuresPerIp) {
    throw throttled('Too many failed sign-in attempts from your address. Try again in an hour.');
  }
  const user = await repo.findUserByUsername(ctx.db, username);
  const valid = user ? await verifyPassword(user.password_hash, password) : await verifyDecoyPassword(password);
  if (!user || !valid) {
    await repo.recordLoginFailure(ctx.db, username, ip);
    throw invalidCredentials();
  }
  await repo.clearLoginFailures(ctx.db, username);
  const family = { id: randomUUID(), expiresAt: new Date(Date.now() + ctx.refreshTokenTtlSeconds * 1000) };
  return issueTokenPair(ctx, user, family);
}

export async function refreshSession(ctx: AuthContext, options: { refresh: string }): Promise<TokenPair> {
  const result = await repo.consumeRefreshToken(ctx.db, hashRefreshToken(options.refresh));
  switch (result.status) {
    case 'unknown':
      throw invalidRefreshToken();
    case 'stale':
      // A used or revoked token coming back means it leaked: end every session of that sign-in.
      await repo.revokeTokenFamily(ctx.db, result.family_id);
      throw invalidRefreshToken();
    case 'consumed': {
      const account = await repo.findAccountById(ctx.db, result.user_id);
      if (!account) throw invalidRefreshToken();
      return issueTokenPair(ctx, account, { id: result.family_id, expiresAt: result.expires_at });
    }
  }
}

export async function registerAccount(ctx: AuthContext, input: RegisterRequest): Promise<Account> {
  if (!ctx.registrationEnabled) throw new AppError('registration_disabled', 'Registration is switched off on this server.');
  if (isCommonPassword(input.password)) {
    throw validationError('Invalid request: password: This password is too common.', { password: ['This password is too common.'] });
  }
  if (input.password.toLowerCase() === input.username.toLowerCase()) {
    throw validationError('Invalid request: password: The password is too similar to the username.', {
      password: ['The password is too similar to the username.'],
    });
  }
  const account = await repo.insertUser(ctx.db, {
    username: input.username,
    email: input.email ? input.email : null,
    passwordHash: await hashPassword(input.password),
  });
  if (!account) {
    throw new AppError('username_taken', 'A user with that username already exists.', {
      fieldErrors: { username: ['A user with that username already exists.'] },
    });
  }
  return account;
}

export async function getAccount(ctx: AuthContext, userId: number): Promise<Account> {
  const account = await repo.findAccountById(ctx.db, userId);
  if (!account) throw new AppError('token_not_valid', 'Token is invalid or expired.');
  return account;
}
