// /api/suppliers/: the suppliers the products name, one spelling each (ADR 0186) — what the Data
// screen's Supplier field suggests as it is typed.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { errorBody, supplierList } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { listSuppliers } from './service.ts';

export function supplierRoutes(ctx: { db: Kysely<Database> }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/suppliers/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['suppliers'],
        summary: "The suppliers the products name, each in its one spelling (the one most products hold; spellings differing only in case or white space are one supplier) with its number of products, by name",
        response: { 200: supplierList, 401: errorBody, 403: errorBody },
      },
      handler: () => listSuppliers(ctx.db),
    });
  };
}
