// /api/shop/: the shop's settings — read by every approved role (the screens show money in its
// currency), changed by administrators (ADR 0166); its closed days likewise (ADR 0171). Each change
// is checked against the version its panel read when sent with If-Match (ADR 0168's amendment); its
// time zone likewise, the zone whose today the forecast starts on (ADR 0173).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, shopClosedDatesUpdate, shopSettings, shopSettingsUpdate, shopTimeZoneUpdate, timeZoneQuery } from '@stockwise/contract';
import { versionedWrite } from '../http/versions.ts';
import { readShopSettings, updateClosedDates, updateShopSettings, updateTimeZone, type ShopContext } from './service.ts';

const tags = ['shop'];
const writeErrors = { 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody };
const checkedWrite = (version: string) => `with If-Match: the ${version} read, a save by someone else since is refused (409 edit_conflict)`;

export function shopRoutes(ctx: ShopContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/shop/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: "The shop's settings: its currency (null: money shows as bare figures), the days it is closed on and its time zone (null: the server's, named in timeZoneInEffect), each with its version (no ETag: one answer carries three)", response: { 200: shopSettings, 401: errorBody, 403: errorBody } },
      handler: () => readShopSettings(ctx),
    });
    app.put('/api/shop/', {
      config: { policy: 'admin' },
      schema: {
        tags,
        summary: `Sets the shop's currency (an ISO 4217 code such as USD, GBP, EUR; null for bare figures); ${checkedWrite('currencyVersion')}`,
        querystring: timeZoneQuery,
        body: shopSettingsUpdate,
        response: { 200: shopSettings, ...writeErrors },
      },
      handler: (request) => updateShopSettings(ctx, request.body, versionedWrite(request)),
    });
    app.put('/api/shop/closed-dates/', {
      config: { policy: 'admin' },
      schema: {
        tags,
        summary: `Sets the days the shop will be closed on (YYYY-MM-DD, each with an optional note): the forecast sells nothing on them; ${checkedWrite('closedDatesVersion')}`,
        querystring: timeZoneQuery,
        body: shopClosedDatesUpdate,
        response: { 200: shopSettings, ...writeErrors },
      },
      handler: (request) => updateClosedDates(ctx, request.body, versionedWrite(request)),
    });
    app.put('/api/shop/time-zone/', {
      config: { policy: 'admin' },
      schema: {
        tags,
        summary: `Sets the shop's time zone (an IANA name such as Europe/London; null for the server's), whose today the forecast starts on; ${checkedWrite('timeZoneVersion')}`,
        querystring: timeZoneQuery,
        body: shopTimeZoneUpdate,
        response: { 200: shopSettings, ...writeErrors },
      },
      handler: (request) => updateTimeZone(ctx, request.body, versionedWrite(request)),
    });
  };
}
