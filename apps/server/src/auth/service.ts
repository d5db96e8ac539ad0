// Sign-in, refresh rotation with reuse detection, registration, and the administrators' users API.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  Account,
  ChangePasswordRequest,
  CreateUserRequest,
  FirstRun,
  OwnAccount,
  PreferencesRequest,
  RegisterRequest,
  ResetPasswordRequest,
  Role,
  SessionSummary,
  TokenPair,
  UserSummary,
} from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, notFoundError, validationError } from '../http/errors.ts';
import type { AccountStatusCache } from './guard.ts';
import { hashPassword, isCommonPassword, verifyDecoyPassword, verifyPassword } from './passwords.ts';
import * as repo from './repo.ts';
import { generateRefreshToken, hashRefreshToken, type AccessClaims, type TokenSigner } from './tokens.ts';

/** Throttle records older than this start over. */
const SIGN_IN_THROTTLE_WINDOW_SECONDS = 3600;
const SIGN_IN_MAX_DELAY_SECONDS = 900;

export type AuthContext = {
  db: Kysely<Database>;
  signer: TokenSigner;
  refreshTokenTtlSeconds: number;
  /** Attempts per account and client address before delays start. */
  loginMaxFailuresPerAccount: number;
  /** Attempts per client address (any account) before delays start. */
  loginMaxFailuresPerIp: number;
  /** The first delay; each further attempt doubles it, up to 15 minutes. */
  loginDelayBaseSeconds: number;
  registrationEnabled: boolean;
  /** The role of a self-registered account (the first account of an empty database is admin). */
  registrationRole: Role;
  accounts: AccountStatusCache;
};

const invalidCredentials = () => new AppError('invalid_credentials', 'No active account found with the given credentials.');
const invalidRefreshToken = () => new AppError('token_not_valid', 'Token is invalid or expired.');
const throttled = (detail: string, waitSeconds: number) => new AppError('throttled', detail, { headers: { 'retry-after': String(waitSeconds) } });

const throttlePolicy = (ctx: AuthContext, freeAttempts: number): repo.ThrottlePolicy => ({
  freeAttempts,
  baseDelaySeconds: ctx.loginDelayBaseSeconds,
  maxDelaySeconds: Math.max(SIGN_IN_MAX_DELAY_SECONDS, ctx.loginDelayBaseSeconds),
  windowSeconds: SIGN_IN_THROTTLE_WINDOW_SECONDS,
});

async function issueTokenPair(
  ctx: AuthContext,
  db: Kysely<Database>,
  user: { id: number; username: string; role: Role },
  session: { id: string; expiresAt: Date },
  refresh = generateRefreshToken(),
): Promise<TokenPair> {
  await repo.insertRefreshToken(db, { userId: user.id, familyId: session.id, tokenHash: hashRefreshToken(refresh), expiresAt: session.expiresAt });
  const access = await ctx.signer.issueAccessToken({ userId: user.id, username: user.username, role: user.role, sessionId: session.id });
  return { access, refresh };
}

/**
 * Every attempt is counted before its password is checked (per address, then per account and
 * address), so parallel guesses cannot all reach the check; past the free attempts each one waits
 * twice as long as the one before. Keyed on the address too, so a stranger's guesses never lock the
 * owner out from their own address.
 */
async function admitSignInAttempt(ctx: AuthContext, key: { account: string; ip: string }): Promise<void> {
  const addressWait = await repo.reserveSignInAttempt(ctx.db, { account: '', ip: key.ip }, throttlePolicy(ctx, ctx.loginMaxFailuresPerIp));
  if (addressWait !== null) throw throttled('Too many failed sign-in attempts from your address. Wait a moment and try again.', addressWait);
  const accountWait = await repo.reserveSignInAttempt(ctx.db, key, throttlePolicy(ctx, ctx.loginMaxFailuresPerAccount));
  if (accountWait !== null) throw throttled('Too many failed sign-in attempts for this account. Wait a moment and try again.', accountWait);
}

export async function signIn(ctx: AuthContext, options: { username: string; password: string; ip: string; userAgent: string | null }): Promise<TokenPair> {
  const { username, password, ip } = options;
  const key = { account: username.toLowerCase(), ip };
  await admitSignInAttempt(ctx, key);
  const user = await repo.findUserByUsername(ctx.db, username);
  const valid = user ? await verifyPassword(user.password_hash, password) : await verifyDecoyPassword(password);
  // A disabled account is answered like a wrong password, after the same work.
  if (!user || !valid || user.disabled_at) throw invalidCredentials();
  await repo.releaseSignInAttempts(ctx.db, key, throttlePolicy(ctx, ctx.loginMaxFailuresPerIp));
  await repo.recordSignIn(ctx.db, user.id);
  const session = { id: randomUUID(), expiresAt: new Date(Date.now() + ctx.refreshTokenTtlSeconds * 1000) };
  return ctx.db.transaction().execute(async (trx) => {
    await repo.insertSession(trx, { id: session.id, userId: user.id, expiresAt: session.expiresAt, userAgent: options.userAgent?.slice(0, 500) ?? null });
    return issueTokenPair(ctx, trx, user, session);
  });
}

/**
 * Single-use rotation. The session row is locked first, so the consume, the check and the next
 * token's insert of one family never interleave: of two uses of one token the second always sees
 * it used, and revokes the family including the token the first just received. The next token is
 * the client's own when it sends one (ADR 0013).
 */
export async function refreshSession(ctx: AuthContext, options: { refresh: string; next_refresh?: string | undefined }): Promise<TokenPair> {
  const tokenHash = hashRefreshToken(options.refresh);
  const token = await repo.findTokenSession(ctx.db, tokenHash);
  if (!token) throw invalidRefreshToken();
  const next = options.next_refresh;
  if (next !== undefined && (next === options.refresh || (await repo.findTokenSession(ctx.db, hashRefreshToken(next))))) {
    throw validationError('next_refresh: this token was used before; send a fresh random one.', { next_refresh: ['This token was used before; send a fresh random one.'] });
  }
  const account = await repo.findAccountById(ctx.db, token.user_id);
  const pair = await ctx.db.transaction().execute(async (trx) => {
    const session = await repo.lockLiveSession(trx, token.family_id);
    const consumed = session && (await repo.consumeRefreshToken(trx, tokenHash));
    if (!session || !consumed || !account) {
      // A used or revoked token coming back means it leaked: end every token of that sign-in.
      await repo.revokeSession(trx, token.family_id);
      return null;
    }
    await repo.touchSession(trx, session.id);
    return issueTokenPair(ctx, trx, account, { id: session.id, expiresAt: session.expires_at }, next);
  });
  if (!pair) throw invalidRefreshToken();
  return pair;
}

/** Ends the sign-in a refresh token belongs to. Unknown tokens are ignored: there is nothing to end. */
export async function signOut(ctx: AuthContext, options: { refresh: string }): Promise<void> {
  const token = await repo.findTokenSession(ctx.db, hashRefreshToken(options.refresh));
  if (token) await repo.revokeSession(ctx.db, token.family_id);
}

export async function signOutEverywhere(ctx: AuthContext, userId: number): Promise<{ revoked: number }> {
  return { revoked: await repo.revokeUserSessions(ctx.db, userId) };
}

export async function listSessions(ctx: AuthContext, user: AccessClaims): Promise<SessionSummary[]> {
  const rows = await repo.listLiveSessions(ctx.db, user.userId);
  return rows.map((row) => ({
    id: row.id,
    started_at: new Date(row.started_at).toISOString(),
    last_used_at: new Date(row.last_used_at).toISOString(),
    user_agent: row.user_agent,
    current: row.id === user.sessionId,
  }));
}

export async function revokeOwnSession(ctx: AuthContext, user: AccessClaims, sessionId: string): Promise<void> {
  if ((await repo.revokeSession(ctx.db, sessionId, user.userId)) === 0) throw notFoundError('No such active session.');
}

/** The old password proves it is the owner; every other sign-in of the account ends, this one stays. */
export async function changePassword(ctx: AuthContext, user: AccessClaims, input: ChangePasswordRequest): Promise<{ revoked: number }> {
  const stored = await repo.findPasswordHash(ctx.db, user.userId);
  if (!stored) throw invalidRefreshToken();
  // A sign-in ended elsewhere (an administrator's reset, "sign out everywhere") may still hold an
  // access token for minutes: it does not choose the account's password.
  if (user.sessionId && !(await repo.isLiveSession(ctx.db, user.userId, user.sessionId))) {
    throw new AppError('token_not_valid', 'This sign-in has ended. Sign in again.');
  }
  if (!(await verifyPassword(stored.password_hash, input.old_password))) {
    throw validationError('Invalid request: old_password: The current password is not correct.', { old_password: ['The current password is not correct.'] });
  }
  if (input.new_password === input.old_password) {
    throw validationError('Invalid request: new_password: Choose a password different from the current one.', { new_password: ['Choose a password different from the current one.'] });
  }
  refuseWeakPassword(input.new_password, user.username, 'new_password');
  const passwordHash = await hashPassword(input.new_password);
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    await repo.updatePasswordHash(trx, user.userId, passwordHash, false);
    return repo.revokeUserSessions(trx, user.userId, user.sessionId);
  });
  ctx.accounts.forget(user.userId);
  return { revoked };
}

/** Fewer different characters than this ("aaaaaaaa", eight spaces) is no password. */
const MIN_DISTINCT_CHARACTERS = 4;

function refuseWeakPassword(password: string, username: string, field: string): void {
  if (new Set(password).size < MIN_DISTINCT_CHARACTERS) {
    throw validationError(`Invalid request: ${field}: This password repeats too few characters.`, { [field]: ['This password repeats too few characters.'] });
  }
  if (isCommonPassword(password)) {
    throw validationError(`Invalid request: ${field}: This password is too common.`, { [field]: ['This password is too common.'] });
  }
  if (password.toLowerCase() === username.toLowerCase()) {
    throw validationError(`Invalid request: ${field}: The password is too similar to the username.`, {
      [field]: ['The password is too similar to the username.'],
    });
  }
}

/**
 * Creates an account, shared by self-registration and an administrator adding a colleague. The
 * advisory lock serialises account creation so that exactly one can be the first of an empty database.
 */
async function createAccount(ctx: AuthContext, input: RegisterRequest, roleFor: (hasAnyUser: boolean) => Role, mustChangePassword: boolean) {
  refuseWeakPassword(input.password, input.username, 'password');
  const passwordHash = await hashPassword(input.password);
  const account = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockRegistrations(trx);
    const role = roleFor(await repo.hasAnyUser(trx));
    return repo.insertUser(trx, { username: input.username, email: input.email ? input.email : null, passwordHash, role, mustChangePassword });
  });
  if (!account) {
    throw new AppError('username_taken', 'A user with that username already exists.', {
      fieldErrors: { username: ['A user with that username already exists.'] },
    });
  }
  return account;
}

/** Housekeeping (the hourly auth.cleanup job): drops throttle records past their window and sessions nobody can use any more. */
export const deleteExpiredAuthRecords = (db: Kysely<Database>) => repo.deleteExpiredAuthRecords(db, SIGN_IN_THROTTLE_WINDOW_SECONDS);

/** An administrator written in another feature's transaction (the demo seed's, on an empty database), its password hashed already; null when the name is taken. */
export const insertSeededAdmin = (db: Kysely<Database>, user: { username: string; email: string | null; passwordHash: string }) =>
  repo.insertUser(db, { ...user, role: 'admin', mustChangePassword: false });

export async function registerAccount(ctx: AuthContext, input: RegisterRequest): Promise<Account> {
  if (!ctx.registrationEnabled) throw new AppError('registration_disabled', 'Registration is switched off on this server.');
  const { id, username, email, role, must_change_password } = await createAccount(ctx, input, (hasAnyUser) => (hasAnyUser ? ctx.registrationRole : 'admin'), false);
  return { id, username, email, role, must_change_password };
}

export async function firstRunState(ctx: AuthContext): Promise<FirstRun> {
  return { first_account_needed: !(await repo.hasAnyUser(ctx.db)), registration_enabled: ctx.registrationEnabled };
}

export async function getAccount(ctx: AuthContext, userId: number): Promise<OwnAccount> {
  const account = await repo.findOwnAccountById(ctx.db, userId);
  if (!account) throw new AppError('token_not_valid', 'Token is invalid or expired.');
  return account;
}

/** A person changes their own preferences only: the account is the token's, never one named in the request. */
export async function changePreferences(ctx: AuthContext, userId: number, input: PreferencesRequest): Promise<OwnAccount> {
  await repo.updateDateOrderPreference(ctx.db, userId, input.date_order);
  return getAccount(ctx, userId);
}

const presentUser = (row: NonNullable<Awaited<ReturnType<typeof repo.findUserSummary>>>): UserSummary => ({
  id: row.id,
  username: row.username,
  email: row.email,
  role: row.role,
  must_change_password: row.must_change_password,
  disabled: row.disabled_at !== null,
  created_at: new Date(row.created_at).toISOString(),
  last_sign_in_at: row.last_sign_in_at ? new Date(row.last_sign_in_at as Date).toISOString() : null,
});

export async function listUsers(ctx: AuthContext): Promise<UserSummary[]> {
  return (await repo.listUsers(ctx.db)).map(presentUser);
}

/**
 * An administrator adds a colleague: approved from the start with the role given, whether or not
 * registration is on. The password is a starting one: the colleague chooses their own first.
 */
export async function createUser(ctx: AuthContext, input: CreateUserRequest): Promise<UserSummary> {
  return presentUser(await createAccount(ctx, input, () => input.role, true));
}

/**
 * An administrator gives an account a new starting password (its owner forgot theirs): every
 * sign-in of the account ends, and its owner chooses their own password first when signing in.
 */
export async function resetUserPassword(ctx: AuthContext, admin: AccessClaims, userId: number, input: ResetPasswordRequest): Promise<UserSummary> {
  // Their own password an administrator changes in Profile, with the current one, and stays signed in.
  if (userId === admin.userId) throw new AppError('conflict', 'Change your own password in Profile.');
  const target = await repo.findUserSummary(ctx.db, userId);
  if (!target) throw notFoundError('No such user.');
  refuseWeakPassword(input.password, target.username, 'password');
  const passwordHash = await hashPassword(input.password);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    await repo.updatePasswordHash(trx, userId, passwordHash, true);
    await repo.revokeUserSessions(trx, userId);
    return repo.findUserSummary(trx, userId);
  });
  ctx.accounts.forget(userId);
  if (!updated) throw notFoundError('No such user.');
  return presentUser(updated);
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
      if (change.disabled) await repo.revokeUserSessions(trx, userId);
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
