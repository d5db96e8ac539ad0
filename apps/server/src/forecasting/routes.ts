// /api/forecasting/*: request generation, poll a task, read a product's forecast and the latest report.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, generationRequest, generationResponse, latestReportResponse, productForecastResponse, reportQuery, storableText, taskStatusResponse } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { compiledSerializerCompiler, sendJsonText } from '../http/serializer.ts';
import { getForecastTaskStatus, getLatestInventoryReport, getProductForecast, requestForecastGeneration, type ForecastingContext } from './service.ts';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

export function forecastingRoutes(ctx: ForecastingContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/forecasting/request-generation/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['forecasting'],
        summary: "Queue a forecast of one product (style_code) or the whole catalogue (style_code omitted or 'all')",
        body: generationRequest,
        response: { 200: generationResponse, ...errors, 409: errorBody, 429: errorBody },
      },
      handler: (request) => requestForecastGeneration(ctx, { styleCode: request.body.style_code, forecastDays: request.body.forecast_days, requestedBy: currentUser(request).userId }),
    });
    app.get('/api/forecasting/status/:taskId/', {
      config: { policy: 'viewer' },
      schema: { tags: ['forecasting'], summary: 'Status, progress and results of a generation task', params: z.object({ taskId: storableText().max(100) }), response: { 200: taskStatusResponse, ...errors } },
      handler: (request) => getForecastTaskStatus(ctx, request.params.taskId),
    });
    app.get('/api/forecasting/latest-report/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['forecasting'],
        summary: 'The latest whole-catalogue inventory report: products that need an order, most urgent first, one page',
        querystring: reportQuery,
        response: { 200: latestReportResponse, 400: errorBody, 401: errorBody },
      },
      handler: async (request) => {
        const report = await getLatestInventoryReport(ctx, request.query);
        return report ? { success: true as const, report } : { success: false as const, message: 'No latest report available...' };
      },
    });
    app.get('/api/forecasting/forecasts/:styleCode', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['forecasting'],
        summary: "A product's history, stored forecast, stockouts and reorder advice",
        params: z.object({ styleCode: storableText().trim().min(1, 'Product style code is required.').max(64) }),
        response: { 200: productForecastResponse, ...errors },
      },
      // The 200 answer is JSON text already (the stored forecast spliced in, docs/adr/0083); refusals
      // keep the compiled serializer (docs/adr/0080).
      serializerCompiler: compiledSerializerCompiler,
      handler: async (request, reply) => sendJsonText(reply, await getProductForecast(ctx, { styleCode: request.params.styleCode })),
    });
  };
}
