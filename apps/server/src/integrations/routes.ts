// /api/integrations/scheduled/*: list and create (admin), read (viewer), update and delete (admin),
// run now (editor), status and the run log (viewer); /api/integrations/try/: try an endpoint's
// first page before saving (admin, as creating one).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deletedResponse, errorBody, integration, integrationIdParams, integrationInput, integrationList, integrationLogPage, integrationLogQuery, integrationStatusResponse, integrationTryRequest, integrationTryResponse, runRequest, runResponse, timeZoneQuery } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { etagOf, versionedWrite } from '../http/versions.ts';
import { createIntegration, deleteIntegration, getIntegration, getIntegrationStatus, listIntegrationLogs, listIntegrations, requestRun, updateIntegration, type IntegrationsContext } from './service.ts';
import { tryEndpoint } from './try-endpoint.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const writeErrors = { ...errors, 409: errorBody };
const checkedWrite = 'with If-Match: its version, an integration saved since is refused (409 edit_conflict)';
const tags = ['integrations'];

export function integrationRoutes(ctx: IntegrationsContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/integrations/scheduled/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Every scheduled integration with its status and next run', response: { 200: integrationList, ...errors } },
      handler: () => listIntegrations(ctx),
    });
    app.post('/api/integrations/scheduled/', {
      config: { policy: 'admin' },
      schema: { tags, summary: 'Create an integration (unset fields take the defaults of spec §5)', body: integrationInput, response: { 201: integration, ...errors } },
      handler: async (request, reply) => reply.status(201).send(await createIntegration(ctx, request.body, currentUser(request).userId)),
    });
    app.post('/api/integrations/try/', {
      config: { policy: 'admin' },
      schema: { tags, summary: "Fetch an endpoint's first page as a run would, propose a mapping from its records and type the first five; saves nothing", body: integrationTryRequest, response: { 200: integrationTryResponse, ...errors } },
      handler: (request) => tryEndpoint(ctx, request.body),
    });
    app.get('/api/integrations/scheduled/:id/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'One integration (the auth header value only masked; its version also as the ETag)', params: integrationIdParams, response: { 200: integration, ...errors } },
      handler: async (request, reply) => {
        const found = await getIntegration(ctx, request.params.id);
        return reply.header('etag', etagOf(found.version)).send(found);
      },
    });
    app.put('/api/integrations/scheduled/:id/', {
      config: { policy: 'admin' },
      schema: { tags, summary: `Change an integration: the fields sent replace the stored ones, the rest stay; ${checkedWrite}`, params: integrationIdParams, querystring: timeZoneQuery, body: integrationInput, response: { 200: integration, ...writeErrors } },
      handler: async (request, reply) => {
        const saved = await updateIntegration(ctx, request.params.id, request.body, versionedWrite(request));
        return reply.header('etag', etagOf(saved.version)).send(saved);
      },
    });
    app.delete('/api/integrations/scheduled/:id/', {
      config: { policy: 'admin' },
      schema: { tags, summary: `Delete an integration, its schedule and its log; ${checkedWrite}`, params: integrationIdParams, querystring: timeZoneQuery, response: { 200: deletedResponse, ...writeErrors } },
      handler: async (request) => {
        await deleteIntegration(ctx, request.params.id, versionedWrite(request));
        return { success: true as const, message: `Integration ${request.params.id} deleted.` };
      },
    });
    app.post('/api/integrations/scheduled/:id/run/', {
      config: { policy: 'editor' },
      schema: { tags, summary: 'Run now (queued; poll the status)', params: integrationIdParams, body: runRequest.nullish(), response: { 200: runResponse, ...errors } },
      handler: (request) => requestRun(ctx, request.params.id),
    });
    app.get('/api/integrations/scheduled/:id/status/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Status, last and next run, last error', params: integrationIdParams, response: { 200: integrationStatusResponse, ...errors } },
      handler: (request) => getIntegrationStatus(ctx, request.params.id),
    });
    app.get('/api/integrations/scheduled/:id/logs/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'The runs, newest first, a page at a time', params: integrationIdParams, querystring: integrationLogQuery, response: { 200: integrationLogPage, ...errors } },
      handler: (request) => listIntegrationLogs(ctx, request.params.id, request.query),
    });
  };
}
