// POST /api/token/, /api/token/refresh/, /api/accounts/register/ and GET /api/accounts/me/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { account, errorBody, refreshRequest, refreshResponse, registerRequest, tokenPair, tokenRequest } from '@stockwise/contract';
import { currentUser } from './guard.ts';
import { getAccount, refreshSession, registerAccount, signIn, type AuthContext } from './service.ts';

const errors = { 400: errorBody, 401: errorBody };

export function authRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/token/', {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Sign in', body: tokenRequest, response: { 200: tokenPair, ...errors, 429: errorBody } },
      handler: (request) => signIn(ctx, { ...request.body, ip: request.ip }),
    });
    app.post('/api/token/refresh/', {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token (single use) for a new access and refresh token',
        body: refreshRequest,
        response: { 200: refreshResponse, ...errors },
      },
      handler: (request) => refreshSession(ctx, request.body),
    });
    app.post('/api/accounts/register/', {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Create an account', body: registerRequest, response: { 201: account, 400: errorBody, 403: errorBody, 409: errorBody } },
      handler: async (request, reply) => reply.status(201).send(await registerAccount(ctx, request.body)),
    });
    app.get('/api/accounts/me/', {
      schema: { tags: ['auth'], summary: 'The signed-in account', response: { 200: account, 401: errorBody } },
      handler: (request) => getAccount(ctx, currentUser(request).userId),
    });
  };
}
