// /api/records/*: table structure, rows, folders, variations and name encoding (spec §7).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  columnKeyPattern,
  columnsResponse,
  createFolderRequest,
  createTableRequest,
  decodeResponse,
  deleteRowRequest,
  encodeRequest,
  encodeResponse,
  errorBody,
  folderList,
  okResponse,
  relatedRows,
  relatedRowsQuery,
  rowDataQuery,
  rowExportQuery,
  rowInput,
  rowPage,
  rowWriteQuery,
  rowReferences,
  ROW_VERSION_KEY,
  tableName,
  tableRow,
  tableStructure,
  tableSummary,
  updateFolderRequest,
  variation,
  variationQuery,
  variationRequest,
  XLSX_CONTENT_TYPE,
} from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { sendDownload } from '../http/downloads.ts';
import { plainJsonSerializerCompiler } from '../http/serializer.ts';
import { expectedVersion } from '../http/versions.ts';
import { decodeTableName, encodeTableName } from './encoding.ts';
import { rowPageValidatorCompiler } from './row-query.ts';
import * as tables from './service.ts';

const tableParams = z.object({ name: tableName });
const rowParams = z.object({ name: tableName, id: z.string().regex(/^\d{1,15}$/, 'Row ID is required.') });
const relatedRowsParams = z.object({ name: tableName, column: z.string().regex(columnKeyPattern, 'Column key is required (lower-case letters, digits and _).') });
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** A row sent back as it was read carries its version: not a field to write (the version to check comes as If-Match). */
function withoutVersion(values: Record<string, unknown>): Record<string, unknown> {
  const { [ROW_VERSION_KEY]: _version, ...fields } = values;
  return fields;
}

/** Applies a name codec to one text or a batch; failures become the answer's `error` field. */
function convertNames(body: z.infer<typeof encodeRequest>, codec: (text: string) => string) {
  const convertOne = (text: string) => {
    try {
      return { value: codec(text) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  if ('text' in body) {
    const result = convertOne(body.text);
    return 'value' in result ? { converted: result.value } : { error: result.error };
  }
  const results = body.texts.map(convertOne);
  const failures = results.filter((r) => 'error' in r).map((r) => r.error);
  return { converted: results.map((r) => ('value' in r ? (r.value as string) : null)), ...(failures.length ? { error: failures.join(' ') } : {}) };
}

export function tableRoutes(ctx: tables.TablesContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/records/tables/structure/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'Every table with its folder', response: { 200: tableStructure, 401: errorBody } },
      handler: () => tables.getTableStructure(ctx),
    });
    app.get('/api/records/folders/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'Every folder, including empty ones', response: { 200: folderList, 401: errorBody } },
      handler: async () => ({ folders: await tables.listTableFolders(ctx) }),
    });
    app.get('/api/records/tables/:name/data/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'One page of rows (sorted, filtered)', params: tableParams, querystring: rowDataQuery, response: { 200: rowPage, ...errors } },
      // The grid's hot path: a page is built field by field by typed code, so JSON.stringify (docs/adr/0081).
      serializerCompiler: plainJsonSerializerCompiler,
      validatorCompiler: rowPageValidatorCompiler,
      handler: (request) => tables.getTableRows(ctx, { name: request.params.name, query: request.query }),
    });
    app.get('/api/records/tables/:name/export/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['tables'],
        summary: 'Every row the sort and filters select, as CSV (UTF-8 with a BOM, formula cells guarded) or, with format=xlsx, an Excel workbook of typed cells',
        params: tableParams,
        querystring: rowExportQuery,
        produces: ['text/csv', XLSX_CONTENT_TYPE],
        response: { 200: z.string().describe('CSV text or .xlsx bytes'), ...errors },
      },
      handler: async (request, reply) => sendDownload(reply, await tables.exportTableRows(ctx, { name: request.params.name, query: request.query })),
    });
    app.post('/api/records/tables/create/', {
      config: { policy: 'admin' },
      schema: { tags: ['tables'], summary: 'Create a table (columns from the request, the configuration, or a default set)', body: createTableRequest, response: { 201: tableSummary, ...errors } },
      handler: async (request, reply) => reply.status(201).send(await tables.createTable(ctx, request.body)),
    });
    app.post('/api/records/tables/:name/delete/', {
      config: { policy: 'admin' },
      schema: { tags: ['tables'], summary: 'Delete a table and its variations', params: tableParams, response: { 200: okResponse, ...errors } },
      handler: async (request) => {
        await tables.deleteTable(ctx, { name: request.params.name });
        return { success: true as const, message: `Table '${request.params.name}' deleted.` };
      },
    });
    app.post('/api/records/tables/:name/update-folder/', {
      config: { policy: 'admin' },
      schema: { tags: ['tables'], summary: 'Move a table to a folder', params: tableParams, body: updateFolderRequest, response: { 200: tableSummary, ...errors } },
      handler: (request) => tables.moveTable(ctx, { name: request.params.name, folder: request.body.folder }),
    });
    app.post('/api/records/tables/create-folder/', {
      config: { policy: 'admin' },
      schema: { tags: ['tables'], summary: 'Create a folder (and its parents)', body: createFolderRequest, response: { 201: okResponse, ...errors } },
      handler: async (request, reply) => {
        await tables.createFolder(ctx, request.body);
        return reply.status(201).send({ success: true as const, message: `Folder '${request.body.folderPath}' created.` });
      },
    });
    app.post('/api/records/tables/:name/rows/add/', {
      config: { policy: 'editor' },
      schema: { tags: ['tables'], summary: 'Add a row', params: tableParams, querystring: rowWriteQuery, body: rowInput, response: { 201: tableRow, ...errors } },
      handler: async (request, reply) =>
        reply.status(201).send(await tables.addRow(ctx, { name: request.params.name, values: request.body, timeZone: request.query.time_zone, userId: currentUser(request).userId })),
    });
    app.post('/api/records/tables/:name/rows/edit/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['tables'],
        summary: "Edit a row (id plus the fields to change); with If-Match: the row's _version, a row changed since is refused (409 edit_conflict)",
        params: tableParams,
        querystring: rowWriteQuery,
        body: rowInput,
        response: { 200: tableRow, ...errors },
      },
      handler: (request) =>
        tables.editRow(ctx, {
          name: request.params.name,
          values: withoutVersion(request.body),
          timeZone: request.query.time_zone,
          userId: currentUser(request).userId,
          expected: expectedVersion(request.headers['if-match']),
        }),
    });
    app.post('/api/records/tables/:name/rows/delete/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['tables'],
        summary: "Delete a row (409 while other rows refer to it; cascade: true, admins only, deletes those too); with If-Match: the row's _version, a row changed since is refused (409 edit_conflict)",
        params: tableParams,
        querystring: rowWriteQuery,
        body: deleteRowRequest,
        response: { 200: okResponse, ...errors },
      },
      handler: async (request) => {
        await tables.deleteTableRow(ctx, {
          name: request.params.name,
          id: request.body.id,
          cascade: request.body.cascade,
          role: currentUser(request).role,
          expected: expectedVersion(request.headers['if-match']),
          timeZone: request.query.time_zone,
        });
        return { success: true as const, message: 'Row deleted.' };
      },
    });
    app.get('/api/records/tables/:name/rows/:id/references/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'How many rows of which tables refer to a row (asked before deleting it)', params: rowParams, response: { 200: rowReferences, ...errors } },
      handler: (request) => tables.getRowReferences(ctx, { name: request.params.name, id: request.params.id }),
    });
    app.get('/api/records/tables/:name/related-rows/:column/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['tables'],
        summary: "Rows a ForeignKey column may refer to, found by their key or name (the row form's picker)",
        params: relatedRowsParams,
        querystring: relatedRowsQuery,
        response: { 200: relatedRows, ...errors },
      },
      handler: (request) => tables.searchRelatedRows(ctx, { name: request.params.name, column: request.params.column, query: request.query }),
    });
    app.post('/api/records/tables/create-variation/', {
      config: { policy: 'editor' },
      schema: { tags: ['tables'], summary: "Create (or return) the copy 'Base #N' tied to a parent row", body: variationRequest, response: { 200: variation, ...errors } },
      handler: (request) => tables.createVariation(ctx, { baseTable: request.body.base_table, parentId: request.body.parent_id }),
    });
    app.get('/api/records/tables/get-variation-name/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: "The variation of a parent row, or the name the next one gets", querystring: variationQuery, response: { 200: variation, ...errors } },
      handler: (request) => tables.getVariationName(ctx, { baseTable: request.query.base_table, parentId: request.query.parent_id }),
    });
    app.get('/api/records/tables/:name/variation-columns/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'Columns of a table or variation', params: tableParams, response: { 200: columnsResponse, ...errors } },
      handler: async (request) => ({ columns: await tables.getTableColumns(ctx, { name: request.params.name }) }),
    });
    app.post('/api/records/encode/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'Display name(s) -> SQL-safe table identifier(s)', body: encodeRequest, response: { 200: encodeResponse, 400: errorBody, 401: errorBody } },
      handler: async (request) => {
        const { converted, error } = convertNames(request.body, encodeTableName);
        return { ...(converted !== undefined ? { encoded: converted } : {}), ...(error ? { error } : {}) };
      },
    });
    app.post('/api/records/decode/', {
      config: { policy: 'viewer' },
      schema: { tags: ['tables'], summary: 'Table identifier(s) -> display name(s)', body: encodeRequest, response: { 200: decodeResponse, 400: errorBody, 401: errorBody } },
      handler: async (request) => {
        const { converted, error } = convertNames(request.body, decodeTableName);
        return { ...(converted !== undefined ? { decoded: converted } : {}), ...(error ? { error } : {}) };
      },
    });
  };
}
