// SQL of the auth feature: users, refresh-token families and failed sign-in attempts.
import { sql, type Kysely } from 'kysely';
import type { DateOrderPreference, Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

export const findUserByUsername = (db: Db, username: string) =>
  db.selectFrom('users').selectAll().where(sql<string>`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();

const accountColumns = ['id', 'username', 'email', 'role', 'must_change_password'] as const;
const userSummaryColumns = [...accountColumns, 'disabled_at', 'created_at', 'last_sign_in_at'] as const;

/** An account that may use the API (not disabled). */
export const findAccountById = (db: Db, id: number) =>
  db.selectFrom('users').select(accountColumns).where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();

/** The account as it reads itself: with its own preferences. */
export const findOwnAccountById = (db: Db, id: number) =>
  db.selectFrom('users').select([...accountColumns, 'date_order']).where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();

/** How the person writes dates (undefined for an account that is gone). */
export const findDateOrderPreference = async (db: Db, id: number): Promise<DateOrderPreference | undefined> =>
  (await db.selectFrom('users').select('date_order').where('id', '=', id).executeTakeFirst())?.date_order;

export const updateDateOrderPreference = (db: Db, id: number, dateOrder: DateOrderPreference) =>
  db.updateTable('users').set({ date_order: dateOrder }).where('id', '=', id).execute();

/** Role and state of an account, read by the bearer guard (through a short cache). */
export const findAccountStatus = (db: Db, id: number) =>
  db.selectFrom('users').select(['role', 'disabled_at', 'must_change_password']).where('id', '=', id).executeTakeFirst();

/** Null when the username is taken (case-insensitively). */
export async function insertUser(db: Db, user: { username: string; email: string | null; passwordHash: string; role: Role; mustChangePassword: boolean }) {
  const row = await db
    .insertInto('users')
    .values({ username: user.username, email: user.email, password_hash: user.passwordHash, role: user.role, must_change_password: user.mustChangePassword })
    .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
    .returning(userSummaryColumns)
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

export const insertSession = (db: Db, session: { id: string; userId: number; expiresAt: Date; userAgent: string | null }) =>
  db.insertInto('sessions').values({ id: session.id, user_id: session.userId, expires_at: session.expiresAt, user_agent: session.userAgent, last_used_at: sql<Date>`now()` }).execute();

export const insertRefreshToken = (db: Db, token: { userId: number; familyId: string; tokenHash: string; expiresAt: Date }) =>
  db
    .insertInto('refresh_tokens')
    .values({ user_id: token.userId, family_id: token.familyId, token_hash: token.tokenHash, expires_at: token.expiresAt })
    .execute();

/** The session (family) a refresh token belongs to, whatever the token's state. */
export const findTokenSession = (db: Db, tokenHash: string) =>
  db.selectFrom('refresh_tokens').select(['family_id', 'user_id']).where('token_hash', '=', tokenHash).executeTakeFirst();

/**
 * Locks a live session row for the rest of the transaction (every rotation of one sign-in queues
 * here), or returns undefined when the session is revoked or past its absolute expiry.
 */
export const lockLiveSession = (db: Db, sessionId: string) =>
  db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .forUpdate()
    .executeTakeFirst();

/** Marks a live refresh token used; undefined when it was already used, revoked or expired. */
export const consumeRefreshToken = (db: Db, tokenHash: string) =>
  db
    .updateTable('refresh_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id'])
    .executeTakeFirst();

export const touchSession = (db: Db, sessionId: string) => db.updateTable('sessions').set({ last_used_at: sql`now()` }).where('id', '=', sessionId).execute();

/** Revokes sessions and every refresh token of them; returns how many live sessions it ended. */
async function revokeSessionsWhere(db: Db, filter: { sessionId?: string; userId?: number; exceptSessionId?: string }): Promise<number> {
  let query = db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('revoked_at', 'is', null);
  if (filter.sessionId !== undefined) query = query.where('id', '=', filter.sessionId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.exceptSessionId !== undefined) query = query.where('id', '<>', filter.exceptSessionId);
  const ended = await query.returning('id').execute();
  const ids = ended.map((row) => row.id);
  // The tokens of a session revoked earlier are already revoked; only the ones just ended need it.
  if (ids.length > 0) await db.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('family_id', 'in', ids).where('revoked_at', 'is', null).execute();
  return ids.length;
}

export const revokeSession = (db: Db, sessionId: string, userId?: number) => revokeSessionsWhere(db, userId === undefined ? { sessionId } : { sessionId, userId });

export const revokeUserSessions = (db: Db, userId: number, exceptSessionId?: string) =>
  revokeSessionsWhere(db, exceptSessionId === undefined ? { userId } : { userId, exceptSessionId });

/** Whether the sign-in is still live (not revoked, not expired). */
export async function isLiveSession(db: Db, userId: number, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

export const listLiveSessions = (db: Db, userId: number) =>
  db
    .selectFrom('sessions')
    .select(['id', 'started_at', 'last_used_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('last_used_at', 'desc')
    .execute();

export const findPasswordHash = (db: Db, userId: number) =>
  db.selectFrom('users').select('password_hash').where('id', '=', userId).where('disabled_at', 'is', null).executeTakeFirst();

/** A password the account chose itself (`mustChange` false) or a starting one an administrator gave. */
export const updatePasswordHash = (db: Db, userId: number, passwordHash: string, mustChange: boolean) =>
  db.updateTable('users').set({ password_hash: passwordHash, must_change_password: mustChange }).where('id', '=', userId).execute();

/** How sign-in attempts of one key are spaced: `freeAttempts` at once, then delays doubling from `baseDelaySeconds`. */
export type ThrottlePolicy = { freeAttempts: number; baseDelaySeconds: number; maxDelaySeconds: number; windowSeconds: number };

/**
 * Counts one sign-in attempt before its password is checked, in one statement: the row's lock
 * orders parallel attempts, and an attempt made before `retry_at` changes nothing and is refused.
 * `retry_at` is compared with the clock, not `now()`: an attempt that waited for the row's lock
 * began before the attempt holding it, whose `retry_at` (its own start, when there is no delay)
 * would otherwise lie in the waiting attempt's future and refuse it.
 * Returns null when the attempt may go on, else the seconds to wait.
 */
export async function reserveSignInAttempt(db: Db, key: { account: string; ip: string }, policy: ThrottlePolicy): Promise<number | null> {
  const attempts = sql<number>`case when t.updated_at < now() - make_interval(secs => ${policy.windowSeconds}) then 1 else t.attempts + 1 end`;
  const delayAfter = (n: unknown) =>
    sql`make_interval(secs => case when ${n} < ${policy.freeAttempts} then 0 else least(${policy.maxDelaySeconds}::float8, ${policy.baseDelaySeconds}::float8 * power(2, ${n} - ${policy.freeAttempts})) end)`;
  const reserved = await sql<{ attempts: number }>`
    insert into sign_in_throttle as t (account, ip, attempts, retry_at, updated_at)
    values (${key.account}, ${key.ip}, 1, now() + ${delayAfter(sql`1`)}, now())
    on conflict (account, ip) do update
      set attempts = ${attempts}, retry_at = now() + ${delayAfter(attempts)}, updated_at = now()
      where t.retry_at <= clock_timestamp()
    returning attempts`.execute(db);
  if (reserved.rows.length > 0) return null;
  const row = await sql<{ wait: number }>`
    select ceil(extract(epoch from retry_at - now()))::int as wait from sign_in_throttle where account = ${key.account} and ip = ${key.ip}`.execute(db);
  return Math.max(1, Number(row.rows[0]?.wait ?? 1));
}

/** A successful sign-in: its (account, address) record starts over and its attempt no longer counts for the address. */
export async function releaseSignInAttempts(db: Db, key: { account: string; ip: string }, addressPolicy: ThrottlePolicy) {
  await db.deleteFrom('sign_in_throttle').where('account', '=', key.account).where('ip', '=', key.ip).execute();
  await sql`
    update sign_in_throttle set attempts = greatest(attempts - 1, 0),
      retry_at = case when attempts - 1 < ${addressPolicy.freeAttempts} then now() else retry_at end
    where account = '' and ip = ${key.ip}`.execute(db);
}

/** Housekeeping: drops throttle records past their window and sessions nobody can use any more. */
export async function deleteExpiredAuthRecords(db: Db, throttleWindowSeconds: number) {
  await db
    .deleteFrom('sign_in_throttle')
    .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${throttleWindowSeconds})`)
    .where('retry_at', '<', sql<Date>`now()`)
    .execute();
  await db.deleteFrom('sessions').where('expires_at', '<', sql<Date>`now()`).execute();
}
