// POST /api/records/process-file/ (multipart: mapping_config, mapping_name, entity_type, import_id, then file),
// GET /api/records/imports/ and GET /api/records/imports/{id}/ (the log, with live progress).
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, importFailure, importLogEntry, importLogList, importResult, type ImportResult } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { AppError, validationError } from '../http/errors.ts';
import { getImportLog, importFile, ImportRowsError, listImportLogs, type ImportContext } from './service.ts';

const REQUIRED = 'File, mapping, and config are required.';

export function importRoutes(ctx: ImportContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/records/process-file/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['import'],
        summary: 'Import a CSV or JSON file through a mapping (multipart; send the fields before the file)',
        consumes: ['multipart/form-data'],
        response: { 200: importResult, 400: importFailure, 401: errorBody, 413: importFailure },
      },
      handler: async (request, reply) => {
        const fields: Record<string, string> = {};
        let result: ImportResult | null = null;
        const importId = () => (fields.import_id && /^[0-9a-f-]{36}$/i.test(fields.import_id) ? fields.import_id : (fields.import_id = randomUUID()));
        try {
          if (!request.isMultipart()) throw validationError(REQUIRED);
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname !== 'file' || result) {
              part.file.resume();
              continue;
            }
            if (!fields.mapping_config) throw validationError(REQUIRED);
            let mappingConfig: unknown;
            try {
              mappingConfig = JSON.parse(fields.mapping_config);
            } catch {
              throw validationError('mapping_config is not valid JSON.');
            }
            result = await importFile(ctx, {
              importId: importId(),
              file: part.file,
              fileName: part.filename || 'upload',
              mimeType: part.mimetype,
              mappingConfig,
              mappingName: fields.mapping_name || 'unnamed mapping',
              entityType: fields.entity_type || 'products',
              bytesTotal: Number(request.headers['content-length']) || null,
              userId: currentUser(request).userId,
              isTruncated: () => part.file.truncated,
            });
          }
          if (!result) throw validationError(REQUIRED);
          return result;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return reply.status(error.status as 400 | 413).send({
            ...error.toBody(),
            error: error.message,
            ...(fields.import_id ? { import_id: fields.import_id } : {}),
            ...(error instanceof ImportRowsError ? { row_errors: error.rowErrors, row_error_count: error.rowErrorCount } : {}),
          });
        }
      },
    });
    app.get('/api/records/imports/', {
      config: { policy: 'viewer' },
      schema: { tags: ['import'], summary: 'Recent imports', response: { 200: importLogList, 401: errorBody } },
      handler: async () => ({ results: (await listImportLogs(ctx)).map(({ fileContent: _content, ...entry }) => entry) }),
    });
    app.get('/api/records/imports/:id/', {
      config: { policy: 'viewer' },
      schema: { tags: ['import'], summary: 'One import: status, counts, row errors, progress', params: z.object({ id: z.string().max(100) }), response: { 200: importLogEntry, 401: errorBody, 404: errorBody } },
      handler: (request) => getImportLog(ctx, request.params.id),
    });
  };
}
