// /api/demo/*: how much demo data is here, and its removal (administrators; ADR 0165).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoDataResponse, demoRemovalResponse, errorBody } from '@stockwise/contract';
import { demoData, removeDemoData, type DemoContext } from './service.ts';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody };
const tags = ['demo'];

export function demoRoutes(ctx: DemoContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/demo/', {
      config: { policy: 'admin' },
      schema: { tags, summary: 'How many demo products (and their days of sales) are still here', response: { 200: demoDataResponse, ...errors } },
      handler: () => demoData(ctx),
    });
    app.post('/api/demo/remove/', {
      config: { policy: 'admin' },
      schema: { tags, summary: 'Remove the demo products with every row that refers to them; the demo user and the example reports stay', response: { 200: demoRemovalResponse, ...errors } },
      handler: () => removeDemoData(ctx),
    });
  };
}
