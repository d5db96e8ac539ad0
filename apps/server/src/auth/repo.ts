// SQL of the auth feature: users, refresh-token families and failed sign-in attempts.
import { sql, type Kysely } from 'kysely';
import type { Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

export const findUserByUsername = (db: Db, username: string) =>
  db.selectFrom('users').selectAll().where(sql<string>`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();

const accountColumns = ['id', 'username', 'email', 'role'] as const;
const userSummaryColumns = [...accountColumns, 'disabled_at', 'created_at', 'last_sign_in_at'] as const;

/** An account that may use the API (not disabled). */
export const findAccountById = (db: Db, id: number) =>
  db.selectFrom('users').select(accountColumns).where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();

/** Role and state of an account, read by the bearer guard (through a short cache). */
export const findAccountStatus = (db: Db, id: number) =>
  db.selectFrom('users').select(['role', 'disabled_at']).where('id', '=', id).executeTakeFirst();

/** Null when the username is taken (case-insensitively). */
export async function insertUser(db: Db, user: { username: string; email: string | null; passwordHash: string; role: Role }) {
  const row = await db
    .insertInto('users')
    .values({ username: user.username, email: user.email, password_hash: user.passwordHash, role: user.role })
    .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
    .returning(accountColumns)
    .executeTakeFirst();
  return row ?? null;
}

/** Serialises registrations so that exactly one can be the first account of an empty database. */
export async function lockRegistrations(db: Db) {
  await sql`select pg_advisory_xact_lock(hashtext('stockwise.registration'))`.execute(db);
}

export async function hasAnyUser(db: Db) {
  const row = await db.selectNoFrom((eb) => eb.exists(eb.selectFrom('users').select('id')).as('any')).executeTakeFirstOrThrow();
  return Boolean(row.any);
}

export const recordSignIn = (db: Db, id: number) => db.updateTable('users').set({ last_sign_in_at: sql`now()` }).where('id', '=', id).execute();

export const listUsers = (db: Db) => db.selectFrom('users').select(userSummaryColumns).orderBy('id').execute();

export const findUserSummary = (db: Db, id: number) => db.selectFrom('users').select(userSummaryColumns).where('id', '=', id).executeTakeFirst();

/** Locks every active admin row (so two admins cannot demote each other at once) and counts them. */
export async function lockActiveAdmins(db: Db) {
  const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled_at', 'is', null).forUpdate().execute();
  return rows.map((row) => row.id);
}

export const updateUserRole = (db: Db, id: number, role: Role) => db.updateTable('users').set({ role }).where('id', '=', id).execute();

export const updateUserDisabled = (db: Db, id: number, disabled: boolean) =>
  db.updateTable('users').set({ disabled_at: disabled ? sql<Date>`now()` : null }).where('id', '=', id).execute();

export const revokeUserTokens = (db: Db, userId: number) =>
  db.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();

export const insertRefreshToken = (db: Db, token: { userId: number; familyId: string; tokenHash: string; expiresAt: Date }) =>
  db
    .insertInto('refresh_tokens')
    .values({ user_id: token.userId, family_id: token.familyId, token_hash: token.tokenHash, expires_at: token.expiresAt })
    .execute();

/**
 * Marks a live refresh token used, atomically, so two concurrent uses cannot both succeed.
 * Returns the consumed token, or the stale row (used, revoked or expired) so the caller can react to reuse.
 */
export async function consumeRefreshToken(db: Db, tokenHash: string) {
  const consumed = await db
    .updateTable('refresh_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id', 'family_id', 'expires_at'])
    .executeTakeFirst();
  if (consumed) return { status: 'consumed' as const, ...consumed };
  const stale = await db.selectFrom('refresh_tokens').select(['family_id']).where('token_hash', '=', tokenHash).executeTakeFirst();
  return stale ? { status: 'stale' as const, family_id: stale.family_id } : { status: 'unknown' as const };
}

export const revokeTokenFamily = (db: Db, familyId: string) =>
  db.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();

export async function countRecentFailures(db: Db, by: { username: string } | { ip: string }, windowSeconds: number) {
  const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
  let query = db.selectFrom('login_failures').select((eb) => eb.fn.countAll<number>().as('n')).where('failed_at', '>', since);
  query = 'username' in by ? query.where('username', '=', by.username.toLowerCase()) : query.where('ip', '=', by.ip);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export const recordLoginFailure = (db: Db, username: string, ip: string) =>
  db.insertInto('login_failures').values({ username: username.toLowerCase(), ip }).execute();

export const clearLoginFailures = (db: Db, username: string) =>
  db.deleteFrom('login_failures').where('username', '=', username.toLowerCase()).execute();

/** Housekeeping: drops throttle records and refresh tokens nobody can use any more. */
export async function deleteExpiredAuthRecords(db: Db, failureWindowSeconds: number) {
  await db.deleteFrom('login_failures').where('failed_at', '<', sql<Date>`now() - make_interval(secs => ${failureWindowSeconds})`).execute();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', sql<Date>`now()`).execute();
}
