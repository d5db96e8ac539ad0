// Sign-in, refresh rotation with reuse detection, and registration.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account, RegisterRequest, Role, TokenPair, UserSummary } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, notFoundError, validationError } from '../http/errors.ts';
import type { AccountStatusCache } from './guard.ts';
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
  /** The role of a self-registered account (the first account of an empty database is admin). */
  registrationRole: Role;
  accounts: AccountStatusCache;
};

const invalidCredentials = () => new AppError('invalid_credentials', 'No active account found with the given credentials.');
const invalidRefreshToken = () => new AppError('token_not_valid', 'Token is invalid or expired.');
const throttled = (detail: string) =>
  new AppError('throttled', detail, { headers: { 'retry-after': String(LOGIN_FAILURE_WINDOW_SECONDS) } });

async function issueTokenPair(ctx: AuthContext, user: { id: number; username: string; role: Role }, family: { id: string; expiresAt: Date }): Promise<TokenPair> {
  const refresh = generateRefreshToken();
  await repo.insertRefreshToken(ctx.db, { userId: user.id, familyId: family.id, tokenHash: hashRefreshToken(refresh), expiresAt: family.expiresAt });
  const access = await ctx.signer.issueAccessToken({ userId: user.id, username: user.username, role: user.role });
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
  // A disabled account is answered like a wrong password, after the same work.
  if (user.disabled_at) throw invalidCredentials();
  await repo.clearLoginFailures(ctx.db, username);
  await repo.recordSignIn(ctx.db, user.id);
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
  const passwordHash = await hashPassword(input.password);
  const account = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockRegistrations(trx);
    const role = (await repo.hasAnyUser(trx)) ? ctx.registrationRole : 'admin';
    return repo.insertUser(trx, { username: input.username, email: input.email ? input.email : null, passwordHash, role });
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

const presentUser = (row: NonNullable<Awaited<ReturnType<typeof repo.findUserSummary>>>): UserSummary => ({
  id: row.id,
  username: row.username,
  email: row.email,
  role: row.role,
  disabled: row.disabled_at !== null,
  created_at: new Date(row.created_at).toISOString(),
  last_sign_in_at: row.last_sign_in_at ? new Date(row.last_sign_in_at as Date).toISOString() : null,
});

export async function listUsers(ctx: AuthContext): Promise<UserSummary[]> {
  return (await repo.listUsers(ctx.db)).map(presentUser);
}

/**
 * Changes an account's role or disables/enables it, keeping at least one active administrator
 * (the admin rows are locked, so two admins cannot demote each other at the same moment).
 */
async function updateUser(ctx: AuthContext, userId: number, change: { role: Role } | { disabled: boolean }): Promise<UserSummary> {
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const activeAdmins = await repo.lockActiveAdmins(trx);
    const target = await repo.findUserSummary(trx, userId);
    if (!target) throw notFoundError('No such user.');
    const staysActiveAdmin = 'role' in change ? change.role === 'admin' && !target.disabled_at : !change.disabled && target.role === 'admin';
    if (activeAdmins.includes(userId) && !staysActiveAdmin && activeAdmins.length === 1) {
      throw new AppError('conflict', 'At least one active administrator must remain.');
    }
    if ('role' in change) await repo.updateUserRole(trx, userId, change.role);
    else {
      await repo.updateUserDisabled(trx, userId, change.disabled);
      if (change.disabled) await repo.revokeUserTokens(trx, userId);
    }
    return repo.findUserSummary(trx, userId);
  });
  ctx.accounts.forget(userId);
  if (!updated) throw notFoundError('No such user.');
  return presentUser(updated);
}

export const changeUserRole = (ctx: AuthContext, options: { userId: number; role: Role }) => updateUser(ctx, options.userId, { role: options.role });

export const setUserDisabled = (ctx: AuthContext, options: { userId: number; disabled: boolean }) =>
  updateUser(ctx, options.userId, { disabled: options.disabled });
