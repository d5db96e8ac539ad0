// /api/shop/: the shop's settings — read by every approved role (the screens show money in its
// currency), changed by administrators (ADR 0166); its closed days likewise (ADR 0171).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, shopClosedDatesUpdate, shopSettings, shopSettingsUpdate } from '@stockwise/contract';
import { readShopSettings, updateClosedDates, updateShopSettings, type ShopContext } from './service.ts';

const tags = ['shop'];

export function shopRoutes(ctx: ShopContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/shop/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: "The shop's settings: its currency (null: money shows as bare figures) and the days it is closed on", response: { 200: shopSettings, 401: errorBody, 403: errorBody } },
      handler: () => readShopSettings(ctx),
    });
    app.put('/api/shop/', {
      config: { policy: 'admin' },
      schema: {
        tags,
        summary: "Sets the shop's currency (an ISO 4217 code such as USD, GBP, EUR; null for bare figures)",
        body: shopSettingsUpdate,
        response: { 200: shopSettings, 400: errorBody, 401: errorBody, 403: errorBody },
      },
      handler: (request) => updateShopSettings(ctx, request.body),
    });
    app.put('/api/shop/closed-dates/', {
      config: { policy: 'admin' },
      schema: {
        tags,
        summary: 'Sets the days the shop will be closed on (YYYY-MM-DD, each with an optional note): the forecast sells nothing on them',
        body: shopClosedDatesUpdate,
        response: { 200: shopSettings, 400: errorBody, 401: errorBody, 403: errorBody },
      },
      handler: (request) => updateClosedDates(ctx, request.body),
    });
  };
}
