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

/**
 * An account's current role, or null when it is disabled or gone, cached per process for a few
 * seconds: a role change or disabling reaches every request of this process at once (`forget`) and
 * other instances within `ttlMs`, without a database read per request.
 */
export class AccountStatusCache {
  private readonly entries = new Map<number, { role: Role | null; expiresAt: number }>();
  private readonly db: Kysely<Database>;
  private readonly ttlMs: number;

  constructor(db: Kysely<Database>, ttlMs: number) {
    this.db = db;
    this.ttlMs = ttlMs;
  }

  async currentRole(userId: number): Promise<Role | null> {
    const cached = this.entries.get(userId);
    if (cached && cached.expiresAt > Date.now()) return cached.role;
    const status = await findAccountStatus(this.db, userId);
    const role = status && !status.disabled_at ? status.role : null;
    this.entries.set(userId, { role, expiresAt: Date.now() + this.ttlMs });
    return role;
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

export function registerAuthGuard(app: FastifyInstance, signer: TokenSigner, accounts: AccountStatusCache): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const { config } = request.routeOptions;
    // Unknown paths fall through to the not-found handler, which serves the web app or a 404.
    if (config.public || request.is404) return;
    const header = request.headers.authorization;
    if (!header) throw notAuthenticated();
    const token = BEARER.exec(header)?.[1];
    const claims = token ? await signer.verifyAccessToken(token) : null;
    if (!claims) throw invalidToken();
    const role = await accounts.currentRole(claims.userId);
    if (!role) throw new AppError('token_not_valid', 'This account is disabled or no longer exists.');
    request.user = { ...claims, role };
    if (!config.policy) throw new AppError('forbidden', 'This route declares no access policy.');
    if (!roleAllows(role, config.policy)) throw forbiddenFor(role, config.policy);
  });
}

/** The signed-in user of a guarded route, with the account's current role. */
export function currentUser(request: FastifyRequest): AccessClaims {
  if (!request.user) throw notAuthenticated();
  return request.user;
}
