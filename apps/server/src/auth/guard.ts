// The one place access is decided: every API route is public or declares the least role it needs
// (`config.policy`); a guarded route needs a valid bearer access token of an active account whose
// current role reaches that policy. A route that declares neither is refused (fail closed).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { roleAllows, type Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findAccountStatus } from './repo.ts';
import type { AccessClaims, TokenSigner } from './tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a bearer token (sign-in, refresh, registration, health, docs, the web app). */
    public?: boolean;
    /** The least role that may call the route. */
    policy?: Role;
  }
  interface FastifyRequest {
    user: AccessClaims | null;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+) *$/i;

/** What the guard needs of an account: its role, and whether it must first replace a starting password. */
export type AccountStatus = { role: Role; mustChangePassword: boolean };

/**
 * An account's current status, or null when it is disabled or gone, cached per process for a few
 * seconds: a role change, disabling or password change reaches every request of this process at
 * once (`forget`) and other instances within `ttlMs`, without a database read per request.
 */
export class AccountStatusCache {
  private readonly entries = new Map<number, { status: AccountStatus | null; expiresAt: number }>();
  private readonly db: Kysely<Database>;
  private readonly ttlMs: number;

  constructor(db: Kysely<Database>, ttlMs: number) {
    this.db = db;
    this.ttlMs = ttlMs;
  }

  /** The cached status (null: disabled or gone) while it is fresh; undefined when it must be read (`currentStatus`). */
  knownStatus(userId: number): AccountStatus | null | undefined {
    const cached = this.entries.get(userId);
    return cached && cached.expiresAt > Date.now() ? cached.status : undefined;
  }

  async currentStatus(userId: number): Promise<AccountStatus | null> {
    const known = this.knownStatus(userId);
    if (known !== undefined) return known;
    const row = await findAccountStatus(this.db, userId);
    const status = row && !row.disabled_at ? { role: row.role, mustChangePassword: row.must_change_password } : null;
    this.entries.set(userId, { status, expiresAt: Date.now() + this.ttlMs });
    return status;
  }

  forget(userId: number): void {
    this.entries.delete(userId);
  }
}

export const ACCOUNT_STATUS_TTL_MS = 5000;

const notAuthenticated = () => new AppError('not_authenticated', 'Authentication credentials were not provided.');
const invalidToken = () => new AppError('token_not_valid', 'Given token not valid for any token type.');

export function forbiddenFor(role: Role, policy: Role): AppError {
  if (role === 'pending') return new AppError('forbidden', 'Your account is waiting for an administrator to approve it.');
  return new AppError('forbidden', `Your role (${role}) may not do this; it needs ${policy}.`);
}

/**
 * Lets the request through with its account's current role, or throws why not. An account with a
 * starting password reaches only the routes every signed-in account has (its own profile,
 * password and sessions) until it has chosen its own (docs/adr/0151).
 */
function admit(request: FastifyRequest, claims: AccessClaims, status: AccountStatus | null): void {
  if (!status) throw new AppError('token_not_valid', 'This account is disabled or no longer exists.');
  const { role } = status;
  request.user = { ...claims, role };
  const { policy } = request.routeOptions.config;
  if (!policy) throw new AppError('forbidden', 'This route declares no access policy.');
  if (!roleAllows(role, policy)) throw forbiddenFor(role, policy);
  if (status.mustChangePassword && policy !== 'pending') {
    throw new AppError('password_change_required', 'Choose your own password first: this account still has the starting password an administrator gave it. Change it in Profile.');
  }
}

export function registerAuthGuard(app: FastifyInstance, signer: TokenSigner, accounts: AccountStatusCache): void {
  app.decorateRequest('user', null);
  async function verifyAndAdmit(request: FastifyRequest, token: string | undefined): Promise<void> {
    const claims = token ? await signer.verifyAccessToken(token) : null;
    if (!claims) throw invalidToken();
    admit(request, claims, await accounts.currentStatus(claims.userId));
  }
  app.addHook('onRequest', (request, _reply, done) => {
    const { config } = request.routeOptions;
    // Unknown paths fall through to the not-found handler, which serves the web app or a 404.
    if (config.public || request.is404) return done();
    const header = request.headers.authorization;
    if (!header) return done(notAuthenticated());
    const token = BEARER.exec(header)?.[1];
    // Nearly every request: a token verified before and an account status read seconds ago,
    // decided without waiting (docs/adr/0082); otherwise verified and read first.
    const claims = token ? signer.knownAccessToken(token) : undefined;
    const status = claims ? accounts.knownStatus(claims.userId) : undefined;
    if (!claims || status === undefined) return void verifyAndAdmit(request, token).then(() => done(), done);
    try {
      admit(request, claims, status);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

/** The signed-in user of a guarded route, with the account's current role. */
export function currentUser(request: FastifyRequest): AccessClaims {
  if (!request.user) throw notAuthenticated();
  return request.user;
}
