// The import preview (spec §2, §9): the first five records of the chosen file AFTER the mapping,
// read through the dotted source paths the server uses, with hints for the cells the server will
// refuse (missing required value, not a number, text too long). Preview only: the server streams
// the whole file and has the last word.
import Papa from 'papaparse';
import { PREVIEW_ROWS, readMappedPath, type MappingConfig, type TableColumn } from '@stockwise/contract';

/** CSV preview reads at most this much of the file (five records fit, however wide). */
export const CSV_PREVIEW_BYTES = 2_000_000;
/** JSON is parsed whole for the preview; above this the preview is skipped (the import still works). */
export const JSON_PREVIEW_MAX_BYTES = 20_000_000;

export type FileKind = 'csv' | 'json';

export type CellHint =
  | { code: 'required' }
  | { code: 'notInteger' }
  | { code: 'notNumber' }
  | { code: 'tooManyDecimals'; places: number }
  | { code: 'notText' }
  | { code: 'tooLong'; max: number }
  | { code: 'notBoolean' }
  | { code: 'notDate' };

export type PreviewRow = { row: number; values: Record<string, unknown>; hints: Record<string, CellHint> };

export type PreviewData = {
  kind: FileKind;
  /** Mapping targets, in the mapping's order. */
  columns: { target: string; source: string; label: string; known: boolean }[];
  rows: PreviewRow[];
  /** Problems of the file itself among the previewed lines (a CSV row with too few fields…). */
  warnings: { row: number | null; message: string }[];
};

/** Why a preview could not be built; the store turns these into the spec's messages. */
export class PreviewError extends Error {
  readonly reason: 'read' | 'format' | 'noRecords' | 'kind';
  constructor(reason: PreviewError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field mappings of the entity type in a mapping config, or null when it has none. */
export function entityFieldMappings(config: MappingConfig | null | undefined, entityType: string): Record<string, string> | null {
  const entity = config?.entities?.[entityType];
  return entity && isRecord(entity.field_mappings) ? entity.field_mappings : null;
}

export function mapRecord(source: unknown, fieldMappings: Record<string, string>): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const [target, path] of Object.entries(fieldMappings)) mapped[target] = readMappedPath(source, path);
  return mapped;
}

const integerText = /^[+-]?\d+$/;
const decimalText = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const dateText = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_CHAR_LENGTH = 255;
const DEFAULT_DECIMAL_PLACES = 2;
const isTextual = (type: TableColumn['type']) => type === 'CharField' || type === 'TextField' || type === 'EmailField';

/** What the server will say about one mapped value (apps/server/src/tables/columns.ts), or null when it passes. */
export function hintFor(column: TableColumn, value: unknown): CellHint | null {
  const empty = value === null || value === undefined || (value === '' && (!isTextual(column.type) || column.required === true));
  if (empty) return column.required ? { code: 'required' } : null;
  switch (column.type) {
    case 'IntegerField':
    case 'ForeignKey':
      if (typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && integerText.test(value.trim())) return null;
      return { code: 'notInteger' };
    case 'DecimalField': {
      const ok = typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && decimalText.test(value.trim());
      if (!ok) return { code: 'notNumber' };
      const places = column.decimal_places ?? DEFAULT_DECIMAL_PLACES;
      const fraction = String(Number(value)).split('.')[1] ?? '';
      return fraction.length > places ? { code: 'tooManyDecimals', places } : null;
    }
    case 'CharField':
    case 'TextField':
    case 'EmailField': {
      if (typeof value !== 'string') return { code: 'notText' };
      const max = column.type === 'CharField' ? (column.max_length ?? DEFAULT_CHAR_LENGTH) : column.type === 'EmailField' ? 254 : null;
      return max !== null && value.length > max ? { code: 'tooLong', max } : null;
    }
    case 'BooleanField':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? null : { code: 'notBoolean' };
    case 'DateField':
      return typeof value === 'string' && dateText.test(value) ? null : { code: 'notDate' };
    default:
      return null;
  }
}

/** Maps the records and adds the hints; columns unknown to the table get no hints (the server refuses the mapping itself). */
export function buildPreview(kind: FileKind, records: unknown[], fieldMappings: Record<string, string>, tableColumns: TableColumn[], warnings: PreviewData['warnings'] = []): PreviewData {
  const byKey = new Map(tableColumns.map((column) => [column.key, column]));
  const columns = Object.entries(fieldMappings).map(([target, source]) => ({ target, source, label: byKey.get(target)?.label ?? target, known: tableColumns.length === 0 || byKey.has(target) }));
  const rows = records.slice(0, PREVIEW_ROWS).map((record, index): PreviewRow => {
    const values = mapRecord(record, fieldMappings);
    const hints: Record<string, CellHint> = {};
    for (const { target } of columns) {
      const column = byKey.get(target);
      const hint = column ? hintFor(column, values[target]) : null;
      if (hint) hints[target] = hint;
    }
    return { row: index + 1, values, hints };
  });
  return { kind, columns, rows, warnings };
}

export function fileKindOf(file: { name: string; type: string }): FileKind | null {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv') || file.type === 'text/csv') return 'csv';
  if (name.endsWith('.json') || file.type === 'application/json') return 'json';
  return null;
}

async function readText(blob: Blob): Promise<string> {
  try {
    return await blob.text();
  } catch (error) {
    throw new PreviewError('read', error instanceof Error ? error.message : String(error));
  }
}

/** The first records of a CSV (comma-separated, header row, empty lines skipped: spec §5) and the problems Papa saw in them. */
export function parseCsvPreview(text: string): { records: Record<string, string>[]; warnings: PreviewData['warnings'] } {
  const records: Record<string, string>[] = [];
  const warnings: PreviewData['warnings'] = [];
  // Papa's own `preview` counts empty lines too; stepping stops after five real records.
  Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    delimiter: ',',
    skipEmptyLines: true,
    step: (results, parser) => {
      records.push(results.data);
      for (const error of results.errors) warnings.push({ row: records.length, message: error.message });
      if (records.length >= PREVIEW_ROWS) parser.abort();
    },
  });
  return { records, warnings };
}

/** The records of a JSON document: an array, or the first array among the top-level object's values (as the server reads it). */
export function jsonRecords(document: unknown): unknown[] {
  if (Array.isArray(document)) return document;
  if (isRecord(document)) {
    for (const value of Object.values(document)) if (Array.isArray(value)) return value;
  }
  throw new PreviewError('noRecords', 'No array of records found.');
}

export type FilePreviewSource = { kind: FileKind; records: unknown[]; warnings: PreviewData['warnings'] } | { kind: FileKind; tooLarge: true };

/** Reads only what the preview needs of the file. */
export async function readPreviewRecords(file: File): Promise<FilePreviewSource> {
  const kind = fileKindOf(file);
  if (!kind) throw new PreviewError('kind', file.name);
  if (kind === 'csv') {
    const sliced = file.size > CSV_PREVIEW_BYTES;
    const { records, warnings } = parseCsvPreview(await readText(file.slice(0, CSV_PREVIEW_BYTES)));
    // The slice may cut the last line short: a mismatch there is the slice's doing, not the file's.
    return { kind, records, warnings: sliced ? warnings.filter((warning) => warning.row !== records.length) : warnings };
  }
  if (file.size > JSON_PREVIEW_MAX_BYTES) return { kind, tooLarge: true };
  const text = await readText(file);
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new PreviewError('format', error instanceof Error ? error.message : String(error));
  }
  return { kind, records: jsonRecords(document).slice(0, PREVIEW_ROWS), warnings: [] };
}
