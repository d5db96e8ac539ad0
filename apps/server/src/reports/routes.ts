// /api/user-reports/*: saved reports (viewers read and run, editors write their own, admins all),
// running SQL in the sandbox (its rows also as an .xlsx download), a saved report's data for the
// dashboard, the readable schema.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createReportRequest,
  errorBody,
  executeRequest,
  executeResponse,
  generateRequest,
  generateResponse,
  regenerateRequest,
  regenerateResponse,
  reportDataResponse,
  reportExportQuery,
  reportExportRequest,
  reportIdParams,
  reportSchemaResponse,
  timeZoneQuery,
  updateReportRequest,
  userReport,
  userReportList,
  XLSX_CONTENT_TYPE,
} from '@stockwise/contract';
import { askersDateOrder } from '../auth/date-order.ts';
import { currentUser } from '../auth/guard.ts';
import { sendDownload } from '../http/downloads.ts';
import { validationError } from '../http/errors.ts';
import { etagOf, expectedVersion } from '../http/versions.ts';
import { requestTimeZone } from '../http/viewer-day.ts';
import { sentTimeZone } from '../import/field-values.ts';
import {
  createReport,
  deleteReport,
  executeReportSql,
  exportReportRows,
  generateFromRequest,
  getReport,
  getReportData,
  getReportSchema,
  listReports,
  regenerateField,
  updateReport,
  type ReportsContext,
} from './service.ts';

/** When Fastify received the request: a report's timeout includes the time it waited (for the one PGlite session, say). */
const receivedAt = (reply: FastifyReply) => Date.now() - reply.elapsedTime;

/** Who changes or deletes which report, at which version (If-Match), and in which time zone. */
function reportWrite(request: FastifyRequest<{ Params: z.infer<typeof reportIdParams>; Querystring: z.infer<typeof timeZoneQuery> }>) {
  return { user: currentUser(request), id: request.params.id, expected: expectedVersion(request.headers['if-match']), timeZone: sentTimeZone(request.query.time_zone) };
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };

export function reportRoutes(ctx: ReportsContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/user-reports/', {
      config: { policy: 'viewer' },
      schema: { tags: ['reports'], summary: 'Saved reports, most recently changed first', response: { 200: userReportList, ...errors } },
      handler: () => listReports(ctx),
    });
    app.post('/api/user-reports/', {
      config: { policy: 'editor' },
      schema: { tags: ['reports'], summary: 'Create a report owned by the caller (defaults: Untitled Report, SELECT 1;)', body: createReportRequest, response: { 201: userReport, ...errors } },
      handler: async (request, reply) => reply.status(201).send(await createReport(ctx, { user: currentUser(request), values: request.body })),
    });
    app.get('/api/user-reports/schema/', {
      config: { policy: 'viewer' },
      schema: { tags: ['reports'], summary: 'The tables and views report SQL may read, with their columns', response: { 200: reportSchemaResponse, ...errors } },
      handler: () => getReportSchema(ctx),
    });
    app.post('/api/user-reports/execute/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['reports'],
        summary: 'Run one read-only SELECT in the report sandbox (timeout REPORT_TIMEOUT_MS, at most REPORT_MAX_ROWS rows)',
        querystring: timeZoneQuery,
        body: executeRequest,
        response: { 200: executeResponse, ...errors },
      },
      handler: async (request, reply) => {
        if (!request.body.sql_code.trim()) throw validationError('No SQL code to execute.', { sql_code: ['No SQL code to execute.'] });
        return executeReportSql(ctx, { userId: currentUser(request).userId, sql: request.body.sql_code, receivedAt: receivedAt(reply), timeZone: await requestTimeZone(ctx.db, request.query.time_zone) });
      },
    });
    app.post('/api/user-reports/export/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['reports'],
        summary: 'Run one read-only SELECT as execute does (same sandbox and limits) and download its rows as an Excel workbook of typed cells; a run that fails is a 400',
        querystring: reportExportQuery,
        body: reportExportRequest,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: z.string().describe('.xlsx bytes'), ...errors },
      },
      handler: async (request, reply) =>
        sendDownload(reply, await exportReportRows(ctx, { userId: currentUser(request).userId, sql: request.body.sql_code, title: request.body.title, moneyFields: request.body.money_fields ?? [], receivedAt: receivedAt(reply), timeZone: await requestTimeZone(ctx.db, request.query.time_zone) })),
    });
    app.post('/api/user-reports/generate-from-request/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['reports'],
        summary: 'Write title, description, SQL, chart and pseudocode from a plain-words change request (the SQL is test-run in the sandbox first)',
        querystring: timeZoneQuery,
        body: generateRequest,
        response: { 200: generateResponse, ...errors },
      },
      // Slashed dates in the request are read in the editor's own order, else their browser language's (ADR 0154, amendment; ADR 0167, amendment), seasons in its time zone's hemisphere (ADR 0148, amendment 2026-12-05).
      handler: async (request) =>
        generateFromRequest(ctx, { userId: currentUser(request).userId, request: request.body, dateOrder: await askersDateOrder(ctx.db, request), timeZone: await requestTimeZone(ctx.db, request.query.time_zone) }),
    });
    app.post('/api/user-reports/regenerate/', {
      config: { policy: 'editor' },
      schema: { tags: ['reports'], summary: 'Write one field of a report anew (SQL is test-run in the sandbox first)', querystring: timeZoneQuery, body: regenerateRequest, response: { 200: regenerateResponse, ...errors } },
      handler: async (request) => regenerateField(ctx, { userId: currentUser(request).userId, request: request.body, timeZone: await requestTimeZone(ctx.db, request.query.time_zone) }),
    });
    app.get('/api/user-reports/:id/', {
      config: { policy: 'viewer' },
      schema: { tags: ['reports'], summary: 'One report (its version also as the ETag)', params: reportIdParams, response: { 200: userReport, ...errors } },
      handler: async (request, reply) => {
        const report = await getReport(ctx, request.params.id);
        return reply.header('etag', etagOf(report.version)).send(report);
      },
    });
    app.put('/api/user-reports/:id/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['reports'],
        summary: 'Change a report (its owner or an admin); with If-Match: its version, a report changed since is refused (409 edit_conflict)',
        params: reportIdParams,
        querystring: timeZoneQuery,
        body: updateReportRequest,
        response: { 200: userReport, ...errors },
      },
      handler: async (request, reply) => {
        const report = await updateReport(ctx, { ...reportWrite(request), values: request.body });
        return reply.header('etag', etagOf(report.version)).send(report);
      },
    });
    app.delete('/api/user-reports/:id/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['reports'],
        summary: 'Delete a report (its owner or an admin); with If-Match: its version, a report changed since is refused (409 edit_conflict)',
        params: reportIdParams,
        querystring: timeZoneQuery,
        response: { 204: z.null(), ...errors },
      },
      handler: async (request, reply) => {
        await deleteReport(ctx, reportWrite(request));
        return reply.status(204).send(null);
      },
    });
    app.get('/api/user-reports/:id/data/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['reports'],
        summary: "Run a saved report by id or by title (URL-encoded) and answer its rows and chart config (the dashboard's named reports)",
        params: z.object({ id: z.string().trim().min(1, 'Report id or title is required.').max(200) }),
        querystring: timeZoneQuery,
        response: { 200: reportDataResponse, ...errors },
      },
      handler: async (request, reply) => getReportData(ctx, { userId: currentUser(request).userId, idOrTitle: request.params.id, receivedAt: receivedAt(reply), timeZone: await requestTimeZone(ctx.db, request.query.time_zone) }),
    });
  };
}
