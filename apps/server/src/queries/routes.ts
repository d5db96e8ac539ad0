// GET /api/queries/queries/ and GET /api/queries/queries/{name}/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { errorBody, namedQueryList, namedQueryRows, storableName, storableText, type ProductConfig } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { listNamedQueries, runNamedQuery } from './service.ts';

export function queryRoutes(db: Kysely<Database>, loadConfig: () => Promise<ProductConfig>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/queries/queries/', {
      config: { policy: 'viewer' },
      schema: { tags: ['queries'], summary: 'Named queries', response: { 200: namedQueryList, 401: errorBody } },
      handler: async () => listNamedQueries(await loadConfig()),
    });
    app.get('/api/queries/queries/:name/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['queries'],
        summary: 'Run a named query: rows of {id, value}',
        params: z.object({ name: storableName().trim().min(1, 'Query name is required.').max(100) }),
        querystring: z.record(storableName(), storableText().max(1000)),
        response: { 200: namedQueryRows, 400: errorBody, 401: errorBody, 404: errorBody },
      },
      handler: async (request) => runNamedQuery(db, await loadConfig(), { name: request.params.name, params: request.query }),
    });
  };
}
