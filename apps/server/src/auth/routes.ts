// POST /api/token/, /api/token/refresh/, /api/accounts/register/, GET /api/accounts/me/ and the
// administrators' users API (/api/accounts/users/*).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  account,
  changeRoleRequest,
  errorBody,
  refreshRequest,
  refreshResponse,
  registerRequest,
  setDisabledRequest,
  tokenPair,
  tokenRequest,
  userIdParams,
  userList,
  userSummary,
} from '@stockwise/contract';
import { currentUser } from './guard.ts';
import { changeUserRole, getAccount, listUsers, refreshSession, registerAccount, setUserDisabled, signIn, type AuthContext } from './service.ts';

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
      config: { policy: 'pending' },
      schema: { tags: ['auth'], summary: 'The signed-in account and its role', response: { 200: account, 401: errorBody } },
      handler: (request) => getAccount(ctx, currentUser(request).userId),
    });
    const adminErrors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
    app.get('/api/accounts/users/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: 'Every account with its role (administrators)', response: { 200: userList, 401: errorBody, 403: errorBody } },
      handler: async () => ({ results: await listUsers(ctx) }),
    });
    app.post('/api/accounts/users/:id/role/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: "Change an account's role; approving a pending account gives it viewer or more", params: userIdParams, body: changeRoleRequest, response: { 200: userSummary, ...adminErrors } },
      handler: (request) => changeUserRole(ctx, { userId: request.params.id, role: request.body.role }),
    });
    app.post('/api/accounts/users/:id/disable/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: 'Disable an account (ends its sign-ins) or enable it again', params: userIdParams, body: setDisabledRequest, response: { 200: userSummary, ...adminErrors } },
      handler: (request) => setUserDisabled(ctx, { userId: request.params.id, disabled: request.body.disabled }),
    });
  };
}
