// /api/forecasting/*: request generation, poll a task, read a product's forecast and the latest report.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, generationRequest, generationResponse, inventoryReportExportQuery, latestReportResponse, openDayAnswer, openDayQuery, productForecastQuery, productForecastResponse, reportExportQuery, reportQuery, storableText, taskStatusResponse, XLSX_CONTENT_TYPE } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { sendDownload } from '../http/downloads.ts';
import { compiledSerializerCompiler, sendJsonText } from '../http/serializer.ts';
import { exportLatestInventoryReport, exportProductForecast, getForecastTaskStatus, getLatestInventoryReport, getProductForecast, openDay, requestForecastGeneration, type ForecastingContext } from './service.ts';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody };
const OPEN_DAY_SUMMARY =
  'Whether the shop is closed on a day (closed weekdays and holidays learnt from its sales, and Settings → Shop closed days), the note of its own closed day, and the first day from it that it is open';
const styleCodeParams = z.object({ styleCode: storableText().trim().min(1, 'Product style code is required.').max(64) });

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
    app.get('/api/forecasting/open-day/', {
      config: { policy: 'viewer' },
      // The note under a typed arrival day (ADR 0182, amendment 2026-12-06).
      schema: { tags: ['forecasting'], summary: OPEN_DAY_SUMMARY, querystring: openDayQuery, response: { 200: openDayAnswer, 400: errorBody, 401: errorBody } },
      handler: (request) => openDay(ctx.db, request.query.date),
    });
    app.get('/api/forecasting/forecasts/:styleCode', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['forecasting'],
        summary: "A product's history, stored forecast, stockouts and reorder advice (forecast_days: another horizon, forecast now and not stored)",
        params: styleCodeParams,
        querystring: productForecastQuery,
        response: { 200: productForecastResponse, ...errors },
      },
      // The 200 answer is JSON text already (the stored forecast spliced in, docs/adr/0083); refusals
      // keep the compiled serializer (docs/adr/0080).
      serializerCompiler: compiledSerializerCompiler,
      handler: async (request, reply) => sendJsonText(reply, await getProductForecast(ctx, { styleCode: request.params.styleCode, forecastDays: request.query.forecast_days, requestedBy: currentUser(request).userId })),
    });
    // Excel downloads of the screen's two CSVs (docs/adr/0161): a European Excel opens a CSV as one column.
    // The report's is the whole list, as CSV too (ADR 0072, amendment 2026-12-04).
    app.get('/api/forecasting/forecasts/:styleCode/export/', {
      config: { policy: 'viewer' },
      schema: { tags: ['forecasting'], summary: "A product's forecast as an Excel workbook, one line per forecast day (format=xlsx)", params: styleCodeParams, querystring: reportExportQuery.extend(productForecastQuery.shape), response: errors },
      handler: async (request, reply) => sendDownload(reply, await exportProductForecast(ctx, { styleCode: request.params.styleCode, forecastDays: request.query.forecast_days, requestedBy: currentUser(request).userId })),
    });
    app.get('/api/forecasting/latest-report/export/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['forecasting'],
        summary: "The latest inventory report's whole list under the filters (every page), one line per product, as CSV or an Excel workbook (format=csv|xlsx)",
        querystring: inventoryReportExportQuery,
        produces: ['text/csv', XLSX_CONTENT_TYPE],
        response: errors,
      },
      handler: async (request, reply) => sendDownload(reply, await exportLatestInventoryReport(ctx, request.query)),
    });
  };
}
