// /api/order-advice/*: an order a buyer placed, recorded from the order list that advised it (ADR 0182),
// and a supplier's purchase order, its orders recorded at once (ADR 0185).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, MAX_BATCH_ORDERS, recordedOrder, recordedOrders, recordOrderRequest, recordOrdersRequest } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { recordOrder, recordOrders, type OrderAdviceContext } from './service.ts';

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
    app.post('/api/order-advice/orders/batch/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['order-advice'],
        summary: `Record up to ${MAX_BATCH_ORDERS} orders at once (a purchase order to one supplier), all or none, by the single order's rules; their products' forecasts then run again in one run (taskId)`,
        body: recordOrdersRequest,
        response: { 201: recordedOrders, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
      handler: async (request, reply) => reply.status(201).send(await recordOrders(ctx, request.body, currentUser(request).userId)),
    });
  };
}
