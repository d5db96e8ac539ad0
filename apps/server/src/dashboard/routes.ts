// /api/dashboard/*: the dashboard in one answer, the caller's own tasks and pinned reports.
// Viewers read; every signed-in, approved user keeps their own tasks and pins.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTaskRequest, dashboardResponse, errorBody, pinnedReport, pinParams, pinRequest, task, taskIdParams, timeZoneQuery, updateTaskRequest } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { inViewerDay } from '../http/viewer-day.ts';
import { addTask, deleteTask, editTask, getDashboard, listPins, listTasks, pinReport, toggleTask, unpinReport, type DashboardContext } from './service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const tags = ['dashboard'];

export function dashboardRoutes(ctx: DashboardContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/dashboard/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Inventory stats, the six-month stock projection, the caller’s tasks and pinned reports (state empty without products)', querystring: timeZoneQuery, response: { 200: dashboardResponse, ...errors } },
      handler: async (request) => getDashboard(await inViewerDay(ctx, request.query.time_zone), currentUser(request).userId),
    });
    app.get('/api/dashboard/tasks/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'The caller’s tasks, generated ones brought up to date with the data', querystring: timeZoneQuery, response: { 200: z.array(task), ...errors } },
      handler: async (request) => listTasks(await inViewerDay(ctx, request.query.time_zone), currentUser(request).userId),
    });
    app.post('/api/dashboard/tasks/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Add a task of the caller’s own', body: createTaskRequest, response: { 201: task, ...errors } },
      handler: async (request, reply) => reply.status(201).send(await addTask(ctx, currentUser(request).userId, request.body.text)),
    });
    app.put('/api/dashboard/tasks/:id/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Edit a task’s text or completed flag', params: taskIdParams, body: updateTaskRequest, response: { 200: task, ...errors } },
      handler: (request) => editTask(ctx, currentUser(request).userId, request.params.id, request.body),
    });
    app.post('/api/dashboard/tasks/:id/toggle/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Flip a task’s completed flag (spec §4)', params: taskIdParams, response: { 200: task, ...errors } },
      handler: (request) => toggleTask(ctx, currentUser(request).userId, request.params.id),
    });
    app.delete('/api/dashboard/tasks/:id/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Delete a task', params: taskIdParams, response: { 204: z.null(), ...errors } },
      handler: async (request, reply) => {
        await deleteTask(ctx, currentUser(request).userId, request.params.id);
        return reply.status(204).send(null);
      },
    });
    app.get('/api/dashboard/pins/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'The reports the caller pinned to the dashboard, in pin order', response: { 200: z.array(pinnedReport), ...errors } },
      handler: (request) => listPins(ctx, currentUser(request).userId),
    });
    app.post('/api/dashboard/pins/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Pin a saved report to the caller’s dashboard (pinning twice keeps one)', body: pinRequest, response: { 200: z.array(pinnedReport), ...errors } },
      handler: (request) => pinReport(ctx, currentUser(request).userId, request.body.report_id),
    });
    app.delete('/api/dashboard/pins/:reportId/', {
      config: { policy: 'viewer' },
      schema: { tags, summary: 'Unpin a report', params: pinParams, response: { 204: z.null(), ...errors } },
      handler: async (request, reply) => {
        await unpinReport(ctx, currentUser(request).userId, request.params.reportId);
        return reply.status(204).send(null);
      },
    });
  };
}
