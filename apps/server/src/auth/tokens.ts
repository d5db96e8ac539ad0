// Access tokens (HS256 JWT, pinned algorithm, at most 15 minutes) and opaque refresh tokens (stored hashed).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { role as roleSchema, type Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';

const ALGORITHM = 'HS256';
const ISSUER = 'stockwise';
const AUDIENCE = 'stockwise-api';
const ACCESS_TOKEN_TYPE = 'access';
const SIGNING_KEY_NAME = 'jwt_signing_key';

/**
 * `role` is the role at issue time; the guard replaces it with the account's current role.
 * `sessionId` is the sign-in (refresh-token family) the token was issued for.
 */
export type AccessClaims = { userId: number; username: string; role: Role; sessionId?: string };

export type TokenSigner = {
  issueAccessToken(claims: AccessClaims): Promise<string>;
  /** Claims of a valid access token, or null for anything else (expired, tampered, wrong alg, wrong type). */
  verifyAccessToken(token: string): Promise<AccessClaims | null>;
  /** Claims of a token verified before and not yet expired, without waiting; undefined otherwise (then verify it). */
  knownAccessToken(token: string): AccessClaims | undefined;
};

/** The configured secret, else one generated once and kept in the database, shared by every instance. */
export async function loadSigningKey(db: Kysely<Database>, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto('app_secrets')
    .values({ name: SIGNING_KEY_NAME, value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', SIGNING_KEY_NAME).executeTakeFirstOrThrow();
  return new TextEncoder().encode(row.value);
}

/** Bounds the memory of the verified-token cache; when full it starts over (tokens are re-verified). */
const VERIFIED_TOKENS_MAX = 10_000;

export function createTokenSigner(signingKey: Uint8Array, accessTokenTtlSeconds: number): TokenSigner {
  // Checking a signature costs more than the rest of a cached page read (docs/adr/0080): a token
  // verified once is known by its own text until it expires (hashing it per request cost more than
  // the lookup it keys). Only the claims are cached; the guard still asks the account status cache
  // on every request, so disabling an account works as before.
  const verified = new Map<string, { claims: AccessClaims; validUntil: number }>();
  const knownAccessToken = (token: string): AccessClaims | undefined => {
    const cached = verified.get(token);
    if (!cached) return undefined;
    if (cached.validUntil > Date.now()) return cached.claims;
    verified.delete(token);
    return undefined;
  };
  return {
    issueAccessToken: ({ userId, username, role, sessionId }) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ typ: ACCESS_TOKEN_TYPE, username, role, ...(sessionId ? { sid: sessionId } : {}) })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + accessTokenTtlSeconds)
        .setJti(randomUUID())
        .sign(signingKey);
    },
    knownAccessToken,
    verifyAccessToken: async (token) => {
      const known = knownAccessToken(token);
      if (known) return known;
      try {
        const { payload } = await jwtVerify(token, signingKey, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'iat', 'nbf', 'sub'],
          // A validly signed token that claims a longer life than we ever issue is refused.
          maxTokenAge: accessTokenTtlSeconds,
        });
        const userId = Number(payload.sub);
        const role = roleSchema.safeParse(payload.role);
        if (payload.typ !== ACCESS_TOKEN_TYPE || !Number.isSafeInteger(userId) || typeof payload.username !== 'string' || !role.success) return null;
        const issuedAt = payload.iat ?? 0;
        const expiresAt = payload.exp ?? 0;
        if (expiresAt - issuedAt > accessTokenTtlSeconds) return null;
        const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
        const claims: AccessClaims = { userId, username: payload.username, role: role.data, ...(sessionId ? { sessionId } : {}) };
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.clear();
        verified.set(token, { claims, validUntil: Math.min(expiresAt, issuedAt + accessTokenTtlSeconds) * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}

export const generateRefreshToken = () => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');
