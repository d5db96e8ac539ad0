// Every route needs a valid bearer access token unless its config says `public: true`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';
import type { AccessClaims, TokenSigner } from './tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a bearer token (sign-in, refresh, registration, health, docs, the web app). */
    public?: boolean;
  }
  interface FastifyRequest {
    user: AccessClaims | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

export function registerAuthGuard(app: FastifyInstance, signer: TokenSigner): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    // Unknown paths fall through to the not-found handler, which serves the web app or a 404.
    if (request.routeOptions.config.public || request.is404) return;
    const header = request.headers.authorization;
    if (!header) throw new AppError('not_authenticated', 'Authentication credentials were not provided.');
    const token = BEARER.exec(header)?.[1];
    const claims = token ? await signer.verifyAccessToken(token) : null;
    if (!claims) throw new AppError('token_not_valid', 'Given token not valid for any token type.');
    request.user = claims;
  });
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): AccessClaims {
  if (!request.user) throw new AppError('not_authenticated', 'Authentication credentials were not provided.');
  return request.user;
}
