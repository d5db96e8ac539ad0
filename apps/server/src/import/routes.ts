// POST /api/records/process-file/ (multipart: file, mapping_config, entity_type, mapping_name,
// import_id, sheet — in any order), POST /api/records/preview-file/ (the mapping builder's read of
// a file), GET /api/records/imports/ and GET /api/records/imports/{id}/ (the log, with live progress),
// POST /api/records/imports/{id}/undo/ (a sales or stock count file's import undone, ADR 0174 and 0175).
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, importFailure, importLogEntry, importLogList, importResult, importUndoResult, PREVIEW_MAX_BYTES, previewFileResponse } from '@stockwise/contract';
import { askersDateOrderChoice } from '../auth/date-order.ts';
import { currentUser } from '../auth/guard.ts';
import { AppError, validationError } from '../http/errors.ts';
import { previewFile } from './preview.ts';
import { asImportError, FIELDS_REQUIRED, getImportLog, importUpload, importWhileArriving, ImportRowsError, ImportRun, listImportLogs, type ImportContext } from './service.ts';
import { undoImport } from './undo.ts';
import { asUploadError, receiveUpload, refuseDeclaredOversize } from './upload.ts';

const failureStatuses = { 400: importFailure, 401: errorBody, 403: errorBody, 408: importFailure, 409: importFailure, 413: importFailure };

/** Refusals of an upload: the import failure shape; the connection closes when the body was not read to its end. */
function sendFailure(reply: FastifyReply, error: unknown, importId: string | null, bodyUnread: boolean) {
  const failure = asImportError(asUploadError(error));
  if (!(failure instanceof AppError)) throw failure;
  if (bodyUnread) reply.header('connection', 'close');
  return reply.status(failure.status).send({
    ...failure.toBody(),
    error: failure.message,
    ...(importId ? { import_id: importId } : {}),
    ...(failure instanceof ImportRowsError ? failure.details() : {}),
  });
}

export function importRoutes(ctx: ImportContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/records/process-file/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['import'],
        summary: 'Import a CSV, JSON or .xlsx file through a mapping (multipart; the fields may come before or after the file)',
        consumes: ['multipart/form-data'],
        response: { 200: importResult, ...failureStatuses },
      },
      handler: async (request, reply) => {
        const declared = Number(request.headers['content-length']);
        const run = new ImportRun(ctx, currentUser(request).userId, Number.isFinite(declared) ? declared : null);
        let complete = false;
        try {
          refuseDeclaredOversize(request, ctx.uploadLimits);
          if (!request.isMultipart()) throw validationError(FIELDS_REQUIRED);
          const upload = await receiveUpload(request, ctx.uploadLimits, {
            // The log entry exists while the file arrives (progress; a stalled upload is logged as failed).
            onFileStart: (fields, fileName) => (fields.import_id ? run.open(fields, fileName) : undefined),
            onBytes: (bytes) => (run.progress.bytesDone = bytes),
            consumeFile: (fields, file, directory) => importWhileArriving(ctx, run, fields, file, directory),
          }).catch(async (error: unknown) => {
            const failure = asImportError(asUploadError(error));
            await run.finish({ status: 'error', details: { bytes: run.progress.bytesDone }, errorMessage: failure.message, fileContent: null });
            throw failure;
          });
          complete = true;
          try {
            return await importUpload(ctx, run, upload);
          } finally {
            await upload.dispose();
          }
        } catch (error) {
          return sendFailure(reply, error, run.id, !complete);
        }
      },
    });

    app.post('/api/records/preview-file/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['import'],
        summary: 'Read the head of a file for the mapping builder: header, raw and mapped rows, proposed mapping, date format (multipart: file, entity_type, mapping_config?, sheet?, header_row?, date_format?, file_part?: head when the file is the head of a larger one); writes nothing',
        consumes: ['multipart/form-data'],
        response: { 200: previewFileResponse, ...failureStatuses },
      },
      handler: async (request, reply) => {
        let complete = false;
        try {
          refuseDeclaredOversize(request, ctx.uploadLimits);
          if (!request.isMultipart()) throw validationError('Send the file as multipart/form-data.');
          const upload = await receiveUpload(request, ctx.uploadLimits, {
            // A CSV or JSON file is previewed from its head; an .xlsx workbook needs all of it.
            keepBytes: (_fields, fileName) => (fileName.toLowerCase().endsWith('.xlsx') ? null : PREVIEW_MAX_BYTES),
          });
          complete = true;
          try {
            if (!upload.file) throw validationError('Choose a file to preview.');
            return await previewFile(ctx, { file: upload.file, fields: upload.fields, dateOrder: await askersDateOrderChoice(ctx.database.db, request) });
          } finally {
            await upload.dispose();
          }
        } catch (error) {
          return sendFailure(reply, error, null, !complete);
        }
      },
    });

    app.get('/api/records/imports/', {
      config: { policy: 'viewer' },
      schema: { tags: ['import'], summary: 'Recent imports', response: { 200: importLogList, 401: errorBody } },
      handler: async () => ({ results: (await listImportLogs(ctx)).map(({ fileContent: _content, ...entry }) => entry) }),
    });
    app.post('/api/records/imports/:id/undo/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['import'],
        summary: "Undo a sales or stock count file's import: every product-day or count it wrote put back as it was before it, the rows it created gone (ADR 0174, 0175); 409 when a later import, a typed change or a delete changed one since, 400 for an import of another entity",
        params: z.object({ id: z.string().max(100) }),
        response: { 200: importUndoResult, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
      handler: (request) => undoImport(ctx, request.params.id, currentUser(request).userId),
    });
    app.get('/api/records/imports/:id/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['import'],
        summary: "One import: status, counts, row errors, progress; the file's content for its own importer and admins",
        params: z.object({ id: z.string().max(100) }),
        response: { 200: importLogEntry, 401: errorBody, 404: errorBody },
      },
      handler: (request) => {
        const user = currentUser(request);
        return getImportLog(ctx, request.params.id, { userId: user.userId, isAdmin: user.role === 'admin' });
      },
    });
  };
}
