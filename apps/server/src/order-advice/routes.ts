// /api/order-advice/*: an order a buyer placed, recorded from the order list that advised it (ADR 0182).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, recordedOrder, recordOrderRequest } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { recordOrder, type OrderAdviceContext } from './service.ts';

export function orderAdviceRoutes(ctx: OrderAdviceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/order-advice/orders/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['order-advice'],
        summary:
          "Record an order placed of one product: a scheduled delivery of the quantity (in the product's unit) on the expected day (the shop's today or later), added to one already expected that day; the product's forecast then runs again (taskId)",
        body: recordOrderRequest,
        response: { 201: recordedOrder, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
      handler: async (request, reply) => reply.status(201).send(await recordOrder(ctx, request.body, currentUser(request).userId)),
    });
  };
}
