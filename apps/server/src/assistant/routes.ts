// /api/assistant/*: the caller's own history, asking (quick buttons and plain questions), and the
// actions an answer offers. A user only ever sees their own messages.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { askRequest, askResponse, assistantActionRequest, errorBody, historyResponse, timeZoneQuery } from '@stockwise/contract';
import { askersDateOrder } from '../auth/date-order.ts';
import { currentUser } from '../auth/guard.ts';
import { inViewerDay } from '../http/viewer-day.ts';
import { act, ask, history, type AssistantContextDeps } from './service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const tags = ['assistant'];

export function assistantRoutes(ctx: AssistantContextDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/assistant/messages/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'The caller’s conversation, oldest first (the latest 200 messages)', response: { 200: historyResponse, ...errors } },
      handler: (request) => history(ctx, currentUser(request).userId),
    });
    app.post('/api/assistant/messages/', {
      config: { policy: 'viewer' },
      schema: {
        tags,
        summary: 'Ask: a quick button (quick) or a plain question (content) with the page context; answers the question and the reply (none for blank text)',
        querystring: timeZoneQuery,
        body: askRequest,
        response: { 200: askResponse, ...errors },
      },
      // Slashed dates in the question are read in the asker's own order, else their browser language's (ADR 0148, amendment; ADR 0167, amendment).
      handler: async (request) => ({ messages: await ask(await inViewerDay(ctx, request.query.time_zone), currentUser(request), request.body, await askersDateOrder(ctx.db, request)) }),
    });
    app.post('/api/assistant/actions/', {
      config: { policy: 'viewer' },
      schema: {
        tags,
        summary: 'Carry out an action an answer offered: create the recommended orders as scheduled deliveries (editor) or add a task',
        querystring: timeZoneQuery,
        body: assistantActionRequest,
        response: { 200: askResponse, ...errors },
      },
      handler: async (request) => ({ messages: await act(await inViewerDay(ctx, request.query.time_zone), currentUser(request), request.body) }),
    });
  };
}
