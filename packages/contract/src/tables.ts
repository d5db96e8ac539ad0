// Configurable data tables: structure, rows, folders, variations and name encoding (spec §3, §7 /api/records/*).
import { z } from 'zod';
import { dateOrders } from './date-order.ts';
import { timeZoneQuery } from './dates.ts';
import { nameRecord, storableName, storableText } from './text.ts';

/** A DecimalField's places when its definition names none: money (12,50). */
export const DEFAULT_DECIMAL_PLACES = 2;

export const fieldTypes = [
  'CharField',
  'EmailField',
  'IntegerField',
  'DecimalField',
  'TextField',
  'DateField',
  'DateTimeField',
  'BooleanField',
  'ForeignKey',
  'AutoField',
  'query',
  'nestedTable',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const columnKeyPattern = /^[a-z][a-z0-9_]{0,62}$/;
/** PostgreSQL's system columns (and `oid`, one until PostgreSQL 12): every table has them already. */
export const systemColumnNames = ['tableoid', 'xmin', 'cmin', 'xmax', 'cmax', 'ctid', 'oid'] as const;
const columnKey = storableName()
  .regex(columnKeyPattern, 'Column keys are lower-case letters, digits and _ (starting with a letter, at most 63).')
  .refine((key) => !(systemColumnNames as readonly string[]).includes(key), { message: `Column keys may not be PostgreSQL system column names (${systemColumnNames.join(', ')}).` });

export const columnDefinition = z.strictObject({
  key: columnKey,
  label: storableText().min(1).max(200).optional(),
  type: z.enum(fieldTypes),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  /** Adds a b-tree index so sorting and range filters on the column stay fast on large tables. */
  indexed: z.boolean().optional(),
  max_length: z.number().int().min(1).max(10_485_760).optional(),
  max_digits: z.number().int().min(1).max(38).optional(),
  decimal_places: z.number().int().min(0).max(20).optional(),
  /**
   * A decimal column of money (a unit cost, a price): read in the shop's currency ($7.50). Only a column
   * marked so is: two places are as often a weight or a rate (ADR 0166, amendment "money by the column").
   */
  money: z.boolean().optional(),
  choices: z.array(storableText().min(1).max(200)).min(1).max(500).optional(),
  related_table: storableText().min(1).max(200).optional(),
  query_name: storableText().min(1).max(100).optional(),
  params: z.record(storableName(), z.union([storableText(), z.number(), z.boolean()])).optional(),
  nested_table: storableText().min(1).max(200).optional(),
  min_width: z.number().int().min(40).max(2000).optional(),
  max_width: z.number().int().min(40).max(2000).optional(),
});
export type ColumnDefinition = z.infer<typeof columnDefinition>;

/** A column as the API presents it: the definition with its label filled in and FK details. */
export const tableColumn = columnDefinition.extend({
  label: z.string(),
  read_only: z.boolean(),
  foreign_key: z.object({ table: z.string(), encodedName: z.string(), column: z.literal('id') }).optional(),
  /** A column of choices whose database default a row left without a value gets (a delivery's status: scheduled). */
  default_value: z.string().optional(),
});
export type TableColumn = z.infer<typeof tableColumn>;

export const tableName = storableName({ error: 'Table name is required.' })
  .trim()
  .min(1, 'Table name is required.')
  .max(120, 'Table names are at most 120 characters.');
export const folderPath = storableText()
  .trim()
  .max(200, 'Folder paths are at most 200 characters.')
  .refine((path) => path === '' || path.split('/').every((segment) => segment.trim().length > 0), 'Folder path segments may not be empty.');

export const tableSummary = z.object({ name: z.string(), folder: z.string(), encodedName: z.string(), displayName: z.string() });
export type TableSummary = z.infer<typeof tableSummary>;
export const tableStructure = z.array(tableSummary);
export const folderList = z.object({ folders: z.array(z.string()) });

export const createTableRequest = z.strictObject({ name: tableName, folder: folderPath.default(''), columns: z.array(columnDefinition).max(200).optional() });
export const createFolderRequest = z.strictObject({ folderPath: folderPath.refine((p) => p !== '', 'Folder path is required.') });
export const updateFolderRequest = z.strictObject({ folder: folderPath });
export const okResponse = z.object({ success: z.literal(true), message: z.string() });

export const sortDirections = ['asc', 'desc'] as const;
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;

export const rowDataQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  sort_by: storableText().max(100).optional(),
  sort_dir: z.enum(sortDirections).default('asc'),
  filters_json: storableText().max(20_000).optional(),
  /** Opaque keyset cursor from a previous answer's `next`: later pages cost the same as the first. */
  after: storableText().max(2000).optional(),
  /** The last `page_size` rows of the order (read backwards, so the End key costs one page). */
  from_end: z.enum(['true', 'false']).optional(),
  /** How a date typed in filters_json's text with numbers alone (`03/04/2026`) is read; day-first when not given (ADR 0167). */
  date_order: z.enum(dateOrders, { error: 'date_order is day-first or month-first.' }).optional(),
});
export type RowDataQuery = z.infer<typeof rowDataQuery>;

/** The files a table or report downloads as: CSV text, or an Excel workbook of typed cells (docs/adr/0161). */
export const downloadFormats = ['csv', 'xlsx'] as const;
export type DownloadFormat = (typeof downloadFormats)[number];
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** GET /api/records/tables/{name}/export/: every row the same sort and filters select, as CSV (the default) or .xlsx. */
export const rowExportQuery = rowDataQuery
  .pick({ sort_by: true, sort_dir: true, filters_json: true, date_order: true })
  .extend({ format: z.enum(downloadFormats, { error: 'Format is csv or xlsx.' }).default('csv') });
export type RowExportQuery = z.infer<typeof rowExportQuery>;

/**
 * filters_json: a JSON object from column key to a filter (docs/api.md):
 * "text" (contains for text columns, equals otherwise) | {contains} | {equals} | {gte?, lte?, gt?, lt?} | {empty: boolean}.
 */
const filterScalar = z.union([storableText().max(1000), z.number(), z.boolean()]);
export const columnFilter = z.union([
  filterScalar,
  z.strictObject({ contains: storableText().max(1000) }),
  z.strictObject({ equals: filterScalar }),
  z.strictObject({ gte: filterScalar.optional(), lte: filterScalar.optional(), gt: filterScalar.optional(), lt: filterScalar.optional() }),
  z.strictObject({ empty: z.boolean() }),
]);
export const tableFilters = nameRecord(columnFilter);
export type ColumnFilter = z.infer<typeof columnFilter>;
export type TableFilters = z.infer<typeof tableFilters>;

export const rowValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/**
 * Each row read or written carries its version under this key (no column key starts with `_`): sent
 * back as `If-Match` on an edit or delete, a row changed since is refused (409 edit_conflict, ADR 0168).
 */
export const ROW_VERSION_KEY = '_version';
export const tableRow = z.record(z.string(), rowValue);
export type TableRow = z.infer<typeof tableRow>;
/** The version a row was read at, or undefined for one read without it. */
export const rowVersion = (row: TableRow | null | undefined): string | undefined => {
  const version = row?.[ROW_VERSION_KEY];
  return typeof version === 'string' ? version : undefined;
};

/** Why a stored value is not a known one (RowPage.unknown_values). */
export const unknownValueReasons = ['not_counted'] as const;
export type UnknownValueReason = (typeof unknownValueReasons)[number];

export const rowPage = z.object({
  results: z.array(tableRow),
  count: z.number().int(),
  /** True when `count` is an estimate (very large tables; see docs/api.md). */
  count_is_estimate: z.boolean(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  /** ForeignKey column -> related id -> its business key and name (`85123A — White hanging heart`), for the page's rows. */
  references: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  /** With from_end: the position (0-based) of the first row returned in the whole order. */
  offset: z.number().int().optional(),
  /**
   * Cells of the page's rows whose stored value stands in for one never recorded: column -> row id
   * -> why (`not_counted`: a product's current_stock with no stock count yet, stored as 0). ADR 0149.
   */
  unknown_values: z.record(z.string(), z.record(z.string(), z.enum(unknownValueReasons))).optional(),
});
export type RowPage = z.infer<typeof rowPage>;

/** Field -> value; each value is checked against its column's type (and for storable text) by the server. */
export const rowInput = z.record(storableText(), z.unknown());
/** A row write's query: the shop's day for what the write records (a figure as today's count). */
export const rowWriteQuery = timeZoneQuery;
export const deleteRowRequest = z.strictObject({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
  /** Also delete the rows that refer to this one (sales, stock, deliveries, forecasts of a product). Admins only. */
  cascade: z.boolean().optional(),
});
/** What refers to one row: per referring table, how many rows (answered before a delete and in its 409). */
export const rowReference = z.object({ table: z.string(), count: z.number().int() });
export const rowReferences = z.object({
  references: z.array(rowReference),
  total: z.number().int(),
  /** The row by its business key and name (`EMO-01 — Party pack`), as other rows show it; null when its table has no key to show. */
  label: z.string().nullable(),
});
export type RowReferences = z.infer<typeof rowReferences>;

/** A ForeignKey field's picker asks for this many rows at most (a catalogue may hold 50,000 products). */
export const MAX_RELATED_ROWS = 100;
/** GET /api/records/tables/{name}/related-rows/{column}/: rows the column may refer to whose key or name contains `search`. */
export const relatedRowsQuery = z.object({
  search: storableText().max(200).default(''),
  limit: z.coerce.number().int().min(1).max(MAX_RELATED_ROWS).default(20),
});
export type RelatedRowsQuery = z.infer<typeof relatedRowsQuery>;
/** Between a row's code and its name where other rows show it (`85123A — White hanging heart`): the Data screen, its CSV download. */
export const ROW_LABEL_SEPARATOR = ' — ';
/** A row as people know it: `key — name` (`85123A — White hanging heart`), an empty part left out. */
export const rowLabel = (key: unknown, name: unknown) => [key, name].filter((part) => typeof part === 'string' && part !== '').join(ROW_LABEL_SEPARATOR);
const textualTypes: ReadonlySet<FieldType> = new Set(['CharField', 'TextField', 'EmailField']);
/**
 * The columns a row is known by: its key (the entity's key column `entityKey` when it is text, else
 * the table's first required text column) and its `name`. Null for a table without such a key (sales).
 */
export function rowLabelColumns(columns: readonly Pick<TableColumn, 'key' | 'type' | 'required'>[], entityKey?: string): { keyColumn: string; nameColumn: string | null } | null {
  const keyColumn = columns.find((c) => c.key === entityKey && textualTypes.has(c.type)) ?? columns.find((c) => c.required && textualTypes.has(c.type));
  if (!keyColumn) return null;
  const nameColumn = columns.find((c) => c.key === 'name' && c.key !== keyColumn.key && textualTypes.has(c.type))?.key ?? null;
  return { keyColumn: keyColumn.key, nameColumn };
}
/** A row's `key — name` by its table's label columns (rowLabelColumns); '' where the table has none or both are empty. */
export const labelOfRow = (label: { keyColumn: string; nameColumn: string | null } | null, row: Readonly<Record<string, unknown>>) =>
  label ? rowLabel(row[label.keyColumn], label.nameColumn ? row[label.nameColumn] : null) : '';
/** The code of a row's label (`GS-1001 — Rosenschere Profi` → `GS-1001`), so a downloaded file reads back; other text as it is. */
export const codeOfRowLabel = (text: string) => {
  const at = text.indexOf(ROW_LABEL_SEPARATOR);
  return at > 0 ? text.slice(0, at).trim() : text;
};
/** A row another row may refer to: its id (the stored value) and its `code — name` (what people know it by). */
export const relatedRow = z.object({ id: z.number().int(), label: z.string() });
export type RelatedRow = z.infer<typeof relatedRow>;
/** At most `limit` rows; `more` when others match too (typing more narrows them). */
export const relatedRows = z.object({ results: z.array(relatedRow), more: z.boolean() });
export type RelatedRows = z.infer<typeof relatedRows>;

export const variationRequest = z.strictObject({ base_table: tableName, parent_id: z.coerce.number().int().min(1) });
export const variationQuery = z.object({
  base_table: storableText({ error: 'Base table name is required.' }).trim().min(1, 'Base table name is required.').max(200),
  parent_id: z.coerce.number().int().min(1),
});
export const variation = z.object({ encodedName: z.string(), decodedName: z.string(), variationNumber: z.number().int(), exists: z.boolean() });
export const columnsResponse = z.object({ columns: z.array(tableColumn) });

export const encodeRequest = z.union([z.strictObject({ text: storableText().max(1000) }), z.strictObject({ texts: z.array(storableText().max(1000)).max(1000) })]);
export const encodeResponse = z.object({ encoded: z.union([z.string(), z.array(z.string().nullable())]).optional(), error: z.string().optional() });
export const decodeResponse = z.object({ decoded: z.union([z.string(), z.array(z.string().nullable())]).optional(), error: z.string().optional() });
