// POST /api/token/, /api/token/refresh/, /api/token/logout/, /api/accounts/register/, GET
// /api/accounts/first-run/, the signed-in account's own routes (me, preferences, password, sessions) and the
// administrators' users API (/api/accounts/users/*).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  account,
  changePasswordRequest,
  changeRoleRequest,
  createUserRequest,
  errorBody,
  firstRun,
  logoutRequest,
  ownAccount,
  preferencesRequest,
  refreshRequest,
  refreshResponse,
  registerRequest,
  resetPasswordRequest,
  revokedSessions,
  sessionIdParams,
  sessionList,
  setDisabledRequest,
  tokenPair,
  tokenRequest,
  userIdParams,
  userList,
  userSummary,
} from '@stockwise/contract';
import { currentUser } from './guard.ts';
import {
  changePassword,
  changePreferences,
  changeUserRole,
  createUser,
  firstRunState,
  getAccount,
  listSessions,
  listUsers,
  refreshSession,
  registerAccount,
  resetUserPassword,
  revokeOwnSession,
  setUserDisabled,
  signIn,
  signOut,
  signOutEverywhere,
  type AuthContext,
} from './service.ts';

const errors = { 400: errorBody, 401: errorBody };

export function authRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/token/', {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Sign in', body: tokenRequest, response: { 200: tokenPair, ...errors, 429: errorBody } },
      handler: (request) => signIn(ctx, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] ?? null }),
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
    app.post('/api/token/logout/', {
      // The refresh token is the credential: signing out must work with an expired access token.
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Sign out: revoke the sign-in (every refresh token of its family)', body: logoutRequest, response: { 204: z.null(), 400: errorBody } },
      handler: async (request, reply) => {
        await signOut(ctx, request.body);
        return reply.status(204).send(null);
      },
    });
    app.post('/api/accounts/register/', {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Create an account', body: registerRequest, response: { 201: account, 400: errorBody, 403: errorBody, 409: errorBody } },
      handler: async (request, reply) => reply.status(201).send(await registerAccount(ctx, request.body)),
    });
    app.get('/api/accounts/first-run/', {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Whether the server has no account yet (the sign-in page then offers to create the first, an administrator)', response: { 200: firstRun } },
      handler: () => firstRunState(ctx),
    });
    app.get('/api/accounts/me/', {
      config: { policy: 'pending' },
      schema: { tags: ['auth'], summary: 'The signed-in account, its role and its own preferences', response: { 200: ownAccount, 401: errorBody } },
      handler: (request) => getAccount(ctx, currentUser(request).userId),
    });
    app.put('/api/accounts/me/preferences/', {
      // Any approved account, for itself only: the account is the token's.
      config: { policy: 'viewer' },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in account's own preferences: how it writes dates (browser, day-first, month-first)",
        body: preferencesRequest,
        response: { 200: ownAccount, 400: errorBody, 401: errorBody, 403: errorBody },
      },
      handler: (request) => changePreferences(ctx, currentUser(request).userId, request.body),
    });
    const ownErrors = { 400: errorBody, 401: errorBody, 404: errorBody };
    app.post('/api/accounts/password/', {
      config: { policy: 'pending' },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in account's password (old password required); every other session of the account ends",
        body: changePasswordRequest,
        response: { 200: revokedSessions, ...ownErrors },
      },
      handler: (request) => changePassword(ctx, currentUser(request), request.body),
    });
    app.get('/api/accounts/sessions/', {
      config: { policy: 'pending' },
      schema: { tags: ['auth'], summary: "The signed-in account's active sessions", response: { 200: sessionList, 401: errorBody } },
      handler: async (request) => ({ results: await listSessions(ctx, currentUser(request)) }),
    });
    app.post('/api/accounts/sessions/revoke-all/', {
      config: { policy: 'pending' },
      schema: { tags: ['auth'], summary: 'Sign out everywhere: revoke every session of the signed-in account', response: { 200: revokedSessions, 401: errorBody } },
      handler: (request) => signOutEverywhere(ctx, currentUser(request).userId),
    });
    app.delete('/api/accounts/sessions/:id/', {
      config: { policy: 'pending' },
      schema: { tags: ['auth'], summary: 'Revoke one session of the signed-in account', params: sessionIdParams, response: { 204: z.null(), ...ownErrors } },
      handler: async (request, reply) => {
        await revokeOwnSession(ctx, currentUser(request), request.params.id);
        return reply.status(204).send(null);
      },
    });
    const adminErrors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
    app.get('/api/accounts/users/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: 'Every account with its role (administrators)', response: { 200: userList, 401: errorBody, 403: errorBody } },
      handler: async () => ({ results: await listUsers(ctx) }),
    });
    app.post('/api/accounts/users/', {
      config: { policy: 'admin' },
      schema: {
        tags: ['auth'],
        summary: 'Add an account with a role and a starting password (administrators); it needs no approval',
        body: createUserRequest,
        response: { 201: userSummary, 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody },
      },
      handler: async (request, reply) => reply.status(201).send(await createUser(ctx, request.body)),
    });
    app.post('/api/accounts/users/:id/role/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: "Change an account's role; approving a pending account gives it viewer or more", params: userIdParams, body: changeRoleRequest, response: { 200: userSummary, ...adminErrors } },
      handler: (request) => changeUserRole(ctx, { userId: request.params.id, role: request.body.role }),
    });
    app.post('/api/accounts/users/:id/password/', {
      config: { policy: 'admin' },
      schema: {
        tags: ['auth'],
        summary: "Give an account a new starting password (administrators): its sign-ins end and it chooses its own password at the next sign-in",
        params: userIdParams,
        body: resetPasswordRequest,
        response: { 200: userSummary, ...adminErrors },
      },
      handler: (request) => resetUserPassword(ctx, currentUser(request), request.params.id, request.body),
    });
    app.post('/api/accounts/users/:id/disable/', {
      config: { policy: 'admin' },
      schema: { tags: ['auth'], summary: 'Disable an account (ends its sign-ins) or enable it again', params: userIdParams, body: setDisabledRequest, response: { 200: userSummary, ...adminErrors } },
      handler: (request) => setUserDisabled(ctx, { userId: request.params.id, disabled: request.body.disabled }),
    });
  };
}
