// File import through a mapping (spec §3 Import log entry, §5 uploads, §7 /api/records/process-file/).
import { z } from 'zod';

export const PREVIEW_ROWS = 5;
/** File content is kept in the import log only below this size (spec §9). */
export const LOGGED_FILE_CONTENT_MAX_BYTES = 500_000;
export const MAX_REPORTED_ROW_ERRORS = 100;

export const rowError = z.object({ row: z.number().int(), field: z.string().nullable(), reason: z.string() });
export type RowError = z.infer<typeof rowError>;

export const importCounts = z.object({ rows: z.number().int(), inserted: z.number().int(), updated: z.number().int(), duplicates: z.number().int() });

export const importResult = z.object({
  message: z.string(),
  import_id: z.string(),
  entity_type: z.string(),
  table: z.string(),
  counts: importCounts,
  duration_ms: z.number(),
});
export type ImportResult = z.infer<typeof importResult>;

export const importFailure = z.object({
  detail: z.string(),
  code: z.string(),
  /** The spec's answer field for a failed import. */
  error: z.string(),
  import_id: z.string().optional(),
  row_errors: z.array(rowError).optional(),
  row_error_count: z.number().int().optional(),
});

export const importStatuses = ['running', 'success', 'error'] as const;
export const importLogEntry = z.object({
  id: z.string(),
  operationType: z.literal('import'),
  status: z.enum(importStatuses),
  fileName: z.string(),
  mappingName: z.string(),
  entityType: z.string(),
  details: z.object({ counts: importCounts.optional(), duration_ms: z.number().optional(), bytes: z.number().optional(), row_errors: z.array(rowError).optional() }).passthrough(),
  errorMessage: z.string().nullable(),
  fileContent: z.string().nullable(),
  progress: z.object({ rows_done: z.number().int(), bytes_done: z.number().int(), bytes_total: z.number().int().nullable() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportLogEntry = z.infer<typeof importLogEntry>;
export const importLogList = z.object({ results: z.array(importLogEntry.omit({ fileContent: true })) });

const isPlainRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a mapping's source path (`a.b.0.c`, through objects and arrays) from a record, exactly as
 * the server's import does and the browser's preview shows it. A flat record whose key is the
 * whole path (a CSV header `a.b`) wins.
 */
export function readMappedPath(source: unknown, path: string): unknown {
  if (isPlainRecord(source) && Object.hasOwn(source, path)) return source[path];
  let current: unknown = source;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isPlainRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}
