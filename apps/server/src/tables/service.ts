// Domain functions of the configurable tables (spec §4 table browsing, §5 validation, §7 /api/records/*).
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import {
  csvLine,
  exportedCells,
  formatDay,
  roleAllows,
  ROW_VERSION_KEY,
  rowLabel,
  rowLabelColumns,
  SUPPLIER_COLUMN,
  UTF8_BOM,
  XLSX_CONTENT_TYPE,
  type ColumnDefinition,
  type CsvCell,
  type ProductConfig,
  type Role,
  type RowDataQuery,
  type RowExportQuery,
  type RowPage,
  type RowReferences,
  type TableColumn,
  type TableSummary,
} from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import type { RelatedRows, RelatedRowsQuery } from '@stockwise/contract';
import { databaseErrorOf } from '../db/errors.ts';
import { inTransaction, retryingOnce } from '../db/transaction.ts';
import type { Download } from '../http/downloads.ts';
import { AppError, conflictError, duplicateKeyColumns, fromDatabaseError, notFoundError, validationError } from '../http/errors.ts';
import { editConflictError } from '../http/versions.ts';
import { requestTimeZone } from '../http/viewer-day.ts';
import { sentTimeZone } from '../import/field-values.ts';
import { xlsxStream } from '../http/xlsx.ts';
import { logError } from '../log.ts';
import { runNamedQuery } from '../queries/service.ts';
import { useShopTimeZone } from '../import/repo.ts';
import { readCurrency } from '../shop/repo.ts';
import { recordTodaysStock } from '../stock/repo.ts';
import { readSupplierNames, SupplierSpeller } from '../suppliers/service.ts';
import { isBelowMinimum, minimumProblem, readColumnRules, type ColumnRules } from './column-minimums.ts';
import { datedColumn } from './dated-columns.ts';
import { unknownValueRule } from './unknown-values.ts';
import { checkColumnDefinitions, columnDdl, columnLabel, isReadOnly, isTextual, isVirtual, parseRowValues, presentColumns, sheetColumnOf, valueSchema, withIdColumn } from './columns.ts';
import { encodeTableName, TableNameEncodingError } from './encoding.ts';
import { buildFilterConditions, pageConditionsOf, type ReferenceDisplay } from './filters.ts';
import * as repo from './repo.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import { PagePlanCache } from './page-plans.ts';
import { quantityProductOf, withMoneyRead, withQuantityUnitsRead, type QuantityUnitSource } from './typed-figures.ts';

/** Rows of one table written on the Data screen: added or edited (as they are now, and as they were where that matters), or deleted. */
export type RowsChange = { action: 'add' | 'edit' | 'delete'; table: string; columns: readonly string[]; rows: repo.RowRecord[] };

export type TablesContext = {
  db: Kysely<Database>;
  loadConfig: () => Promise<ProductConfig>;
  catalogueCache: CatalogueCache;
  /** Told after a row write has committed (forecasts made from the rows are refreshed); its failure is logged, not answered. */
  onRowsChanged?: (change: RowsChange) => Promise<void>;
};

/** Filtered counts above this are estimated by the planner instead of counted (docs/api.md). */
export const EXACT_COUNT_LIMIT = 10_000;
/** Page offsets from here on are found through the index first (see readRowPage). */
const DEFERRED_OFFSET_FROM = 1000;
const DEFAULT_COLUMNS: ColumnDefinition[] = [
  { key: 'name', label: 'Name', type: 'CharField', max_length: 200, required: true },
  { key: 'notes', label: 'Notes', type: 'TextField' },
];

export const tableNotFound = (name: string) => new AppError('not_found', `Table '${name}' not found`);

async function requireTable(ctx: TablesContext, name: string): Promise<repo.CatalogueEntry> {
  const entry = await repo.findCatalogueEntry(ctx.db, name);
  if (!entry) throw tableNotFound(name);
  return entry;
}

const summary = (entry: repo.CatalogueEntry): TableSummary => ({ name: entry.name, folder: entry.folder, encodedName: entry.encoded_name, displayName: entry.name });

export async function getTableStructure(ctx: TablesContext): Promise<TableSummary[]> {
  return (await repo.listCatalogue(ctx.db)).map(summary);
}

export async function listTableFolders(ctx: TablesContext): Promise<string[]> {
  const [folders, tables] = await Promise.all([repo.listFolders(ctx.db), repo.listCatalogue(ctx.db)]);
  return [...new Set([...folders, ...tables.map((t) => t.folder).filter(Boolean)])].sort();
}

function encodeOrRefuse(name: string): string {
  try {
    return encodeTableName(name);
  } catch (error) {
    if (error instanceof TableNameEncodingError) throw validationError(error.message);
    throw error;
  }
}

async function ensureFolder(db: Kysely<Database>, folder: string) {
  const segments = folder.split('/').filter(Boolean);
  for (let depth = 1; depth <= segments.length; depth++) await repo.insertFolder(db, segments.slice(0, depth).join('/'));
}

async function createCataloguedTable(
  db: Kysely<Database>,
  config: ProductConfig,
  table: { name: string; folder: string; columns: ColumnDefinition[]; baseTable?: string; parentId?: number; variationNumber?: number },
): Promise<repo.CatalogueEntry> {
  const encodedName = encodeOrRefuse(table.name);
  const catalogue = await repo.listCatalogue(db);
  const encodedOf = new Map(catalogue.map((entry) => [entry.name, entry.encoded_name]));
  if (encodedOf.has(table.name) || catalogue.some((entry) => entry.encoded_name === encodedName)) {
    throw conflictError(`Table '${table.name}' already exists.`);
  }
  // Routes take a display name or an encoded name, so both live in one namespace: a new name may be
  // neither another table's identifier nor the display name its own identifier would shadow.
  const shadowed = catalogue.find((entry) => entry.encoded_name === table.name || entry.name === encodedName);
  if (shadowed) {
    throw conflictError(`The name '${table.name}' cannot be used: it would be confused with table '${shadowed.name}' (whose name or identifier it equals).`);
  }
  const columns = withIdColumn(table.columns);
  const problem = checkColumnDefinitions(columns, { tableExists: (name) => encodedOf.has(name), queryExists: (name) => name in config.queries });
  if (problem) throw validationError(problem);
  const clauses = columns.map((column) => columnDdl(column, (related) => encodedOf.get(related) as string)).filter((clause) => clause !== null);
  const indexes = columns
    .filter((c) => !isVirtual(c.type) && (c.indexed || c.type === 'ForeignKey'))
    .map((c) => ({ column: c.key, trigram: isTextual(c.type) && c.indexed === true }));
  await repo.createDataTable(db, encodedName, clauses, indexes);
  await ensureFolder(db, table.folder);
  return repo.insertCatalogueEntry(db, {
    name: table.name,
    encoded_name: encodedName,
    folder: table.folder,
    base_table: table.baseTable ?? null,
    parent_id: table.parentId ?? null,
    variation_number: table.variationNumber ?? null,
    columns: table.columns,
  });
}

export async function createTable(ctx: TablesContext, options: { name: string; folder: string; columns?: ColumnDefinition[] | undefined }): Promise<TableSummary> {
  const config = await ctx.loadConfig();
  const columns = options.columns ?? config.tables[options.name]?.columns ?? DEFAULT_COLUMNS;
  const entry = await inTransaction(ctx.db, async (trx) => {
    await repo.lockCatalogue(trx);
    return createCataloguedTable(trx, config, { name: options.name, folder: options.folder, columns });
  });
  ctx.catalogueCache.clear();
  return summary(entry);
}

export async function deleteTable(ctx: TablesContext, options: { name: string }): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    await repo.lockCatalogue(trx);
    const entry = await requireTable({ ...ctx, db: trx }, options.name);
    const variations = await repo.listVariationsOf(trx, entry.name);
    const doomed = new Set([entry.name, ...variations.map((v) => v.name)]);
    const referencing = (await repo.listCatalogue(trx)).find(
      (other) => !doomed.has(other.name) && other.columns.some((c) => c.type === 'ForeignKey' && doomed.has(c.related_table ?? '')),
    );
    if (referencing) throw conflictError(`Table '${entry.name}' is referenced by table '${referencing.name}'; delete or change that table first.`);
    // A base table's variations are copies tied to its rows: they go with it.
    for (const doomedEntry of [...variations, entry]) {
      await repo.dropDataTable(trx, doomedEntry.encoded_name);
      await repo.forgetRowEdits(trx, doomedEntry.encoded_name);
      await repo.deleteCatalogueEntry(trx, doomedEntry.id);
    }
  });
  ctx.catalogueCache.clear();
}

export async function moveTable(ctx: TablesContext, options: { name: string; folder: string }): Promise<TableSummary> {
  const entry = await requireTable(ctx, options.name);
  await inTransaction(ctx.db, async (trx) => {
    await ensureFolder(trx, options.folder);
    await repo.updateTableFolder(trx, entry.id, options.folder);
  });
  ctx.catalogueCache.clear();
  return summary({ ...entry, folder: options.folder });
}

export async function createFolder(ctx: TablesContext, options: { folderPath: string }): Promise<void> {
  await ensureFolder(ctx.db, options.folderPath);
}

export async function getTableColumns(ctx: TablesContext, options: { name: string }): Promise<TableColumn[]> {
  const entry = await requireTable(ctx, options.name);
  const catalogue = await repo.listCatalogue(ctx.db);
  const encodedOf = new Map(catalogue.map((e) => [e.name, e.encoded_name]));
  const defaults = await repo.constantColumnDefaults(ctx.db, entry.encoded_name);
  return presentColumns(entry.columns, (name) => encodedOf.get(name), defaults);
}

type Cursor = { value: string | number | boolean | null; id: number };
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.value, cursor.id])).toString('base64url');

/** The cursor of a page sorted by `sortColumn` (never null there: keyset columns are required), or a 400. */
function decodeCursor(text: string, sortColumn: ColumnDefinition): Cursor {
  const invalid = () => validationError('The "after" cursor is not valid: reload from the first page.');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString());
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || !Number.isSafeInteger(decoded[1])) throw invalid();
  const id = decoded[1] as number;
  if (sortColumn.key === 'id') return { value: id, id };
  const value = valueSchema({ ...sortColumn, choices: undefined }).safeParse(decoded[0]);
  if (!value.success) throw invalid();
  return { value: value.data, id };
}

/** A link's `sort_by`, `filters_json` and `date_order`, form-encoded as URLSearchParams writes them: the same for every page of a query (its plan keeps it). */
function linkSortAndFilters(query: PlanQuery): string {
  const params = new URLSearchParams();
  if (query.sort_by) params.set('sort_by', query.sort_by);
  if (query.filters_json) params.set('filters_json', query.filters_json);
  // The next page reads the filter's text as this one did.
  if (query.date_order) params.set('date_order', query.date_order);
  const text = params.toString();
  return text ? `&${text}` : '';
}

/**
 * The link to another page of the same query, with the cursor (base64url: nothing to encode) when
 * there is one. The parameters in URLSearchParams' order and encoding, as the grid has them.
 */
function pageLink(encodedName: string, query: RowDataQuery, sortAndFilters: string, page: number, after: string | null): string {
  return `/api/records/tables/${encodedName}/data/?page=${page}&page_size=${query.page_size}&sort_dir=${query.sort_dir}${sortAndFilters}${after ? `&after=${after}` : ''}`;
}

/** Each query column's values by row id (a query computes the whole table's at once). */
type QueryColumnValues = { key: string; values: Map<string, repo.RowRecord[string]> }[];

async function queryColumnValues(ctx: TablesContext, columns: ColumnDefinition[]): Promise<QueryColumnValues> {
  const queryColumns = columns.filter((c) => c.type === 'query' && c.query_name);
  if (!queryColumns.length) return [];
  const config = await ctx.loadConfig();
  const computed: QueryColumnValues = [];
  for (const column of queryColumns) {
    let values = new Map<string, repo.RowRecord[string]>();
    try {
      const result = await runNamedQuery(ctx.db, config, { name: column.query_name as string, params: column.params ?? {} });
      values = new Map(result.map((r) => [String(r.id), r.value]));
    } catch {
      // A failing query column shows its default rather than failing the whole page (spec §4).
    }
    computed.push({ key: column.key, values });
  }
  return computed;
}

function setQueryColumns(computed: QueryColumnValues, rows: repo.RowRecord[]) {
  for (const { key, values } of computed) for (const row of rows) row[key] = values.get(String(row.id)) ?? 0;
}

async function fillQueryColumns(ctx: TablesContext, columns: ColumnDefinition[], rows: repo.RowRecord[]) {
  if (rows.length) setQueryColumns(await queryColumnValues(ctx, columns), rows);
}

/** A catalogue entry through the cache: a page of a table with references reads no catalogue row either. */
async function cachedCatalogueEntry(ctx: TablesContext, name: string): Promise<repo.CatalogueEntry | undefined> {
  const cached = ctx.catalogueCache.get(name);
  if (cached) return cached;
  const entry = await repo.findCatalogueEntry(ctx.db, name);
  if (entry) ctx.catalogueCache.set(name, entry);
  return entry;
}

/** A table's column rules through the cache: a one-row write reads no catalog rule either. */
async function cachedColumnRules(ctx: TablesContext, entry: repo.CatalogueEntry): Promise<ColumnRules> {
  const cached = ctx.catalogueCache.columnRules(entry.encoded_name);
  if (cached) return cached;
  const rules = await readColumnRules(ctx.db, entry.encoded_name);
  ctx.catalogueCache.keepColumnRules(entry.encoded_name, rules);
  return rules;
}

/** What the reference displays are made of: the configuration and each ForeignKey column's related catalogue entry. */
type ReferenceSources = { config: ProductConfig | null; foreignKeys: ColumnDefinition[]; related: (repo.CatalogueEntry | undefined)[] };

async function referenceSources(ctx: TablesContext, columns: ColumnDefinition[]): Promise<ReferenceSources> {
  const foreignKeys = columns.filter((c) => c.type === 'ForeignKey' && c.related_table);
  if (!foreignKeys.length) return { config: null, foreignKeys, related: [] };
  const config = await ctx.loadConfig();
  const related: (repo.CatalogueEntry | undefined)[] = [];
  for (const column of foreignKeys) related.push(await cachedCatalogueEntry(ctx, column.related_table as string));
  return { config, foreignKeys, related };
}

/**
 * How a table's rows are known to people: the configuration's entity key (`inventory.entities`,
 * e.g. product_code), else the table's first required text column; and its `name` column when it
 * has one. Null for a table with neither.
 */
function rowDisplayOf(config: ProductConfig, table: repo.CatalogueEntry): ReferenceDisplay | null {
  const entityKey = config.inventory.entities.find((e) => e.table === table.name && e.key.length === 1)?.key[0];
  const shown = rowLabelColumns(table.columns, entityKey);
  return shown && { encodedName: table.encoded_name, ...shown };
}

/** How each ForeignKey column's related rows are shown and filtered (rowDisplayOf); columns whose table has no key to show are left out. */
function referenceDisplays({ config, foreignKeys, related: relatedEntries }: ReferenceSources): Map<string, ReferenceDisplay> {
  const displays = new Map<string, ReferenceDisplay>();
  for (const [index, column] of foreignKeys.entries()) {
    const related = relatedEntries[index];
    const display = related && config ? rowDisplayOf(config, related) : null;
    if (display) displays.set(column.key, display);
  }
  return displays;
}

const labelOf = (row: { key: string | null; name: string | null }) => rowLabel(row.key, row.name);

/** The page's related rows as `key — name`, per ForeignKey column and id. */
async function referenceLabels(ctx: TablesContext, displays: Map<string, ReferenceDisplay>, rows: repo.RowRecord[]): Promise<Record<string, Record<string, string>> | undefined> {
  if (!displays.size || !rows.length) return undefined;
  const labels: Record<string, Record<string, string>> = {};
  for (const [column, display] of displays) {
    // One pass over the page's rows (50 by default, on every page read).
    const distinct = new Set<number>();
    for (const row of rows) {
      const id = row[column];
      if (id !== null && id !== undefined) distinct.add(Number(id));
    }
    const ids = [...distinct];
    labels[column] = {};
    if (!ids.length) continue;
    const found = await repo.selectReferenceLabels(ctx.db, display, ids);
    for (const row of found) labels[column][row.id] = labelOf(row);
  }
  return labels;
}

/** The page's cells whose stored value stands in for one never recorded (unknown-values.ts), as RowPage.unknown_values. */
async function unknownValues(ctx: TablesContext, entry: repo.CatalogueEntry, storedKeys: readonly string[], rows: repo.RowRecord[]): Promise<RowPage['unknown_values']> {
  const rule = unknownValueRule(entry.encoded_name, storedKeys);
  if (!rule || !rows.length) return undefined;
  const unrecorded = await repo.selectRowsNeverRecorded(ctx.db, entry.encoded_name, rule.recordedIn, rows.map((row) => Number(row.id)));
  return unrecorded.length ? { [rule.column]: Object.fromEntries(unrecorded.map((id) => [id, rule.reason])) } : undefined;
}

// The table was dropped or changed (by another instance) after its catalogue entry was cached.
const STALE_TABLE_ERRORS = new Set(['42P01', '42703']);

export async function getTableRows(ctx: TablesContext, options: { name: string; query: RowDataQuery }): Promise<RowPage> {
  const cached = ctx.catalogueCache.get(options.name);
  if (cached) {
    try {
      return await readRowPage(ctx, cached, options.query);
    } catch (error) {
      if (!STALE_TABLE_ERRORS.has((error as { code?: string }).code ?? '')) throw error;
      ctx.catalogueCache.clear();
    }
  }
  const entry = await requireTable(ctx, options.name);
  ctx.catalogueCache.set(options.name, entry);
  return readRowPage(ctx, entry, options.query);
}

/** What a page's statements depend on apart from the page itself (docs/adr/0084). */
type PagePlan = {
  columns: ColumnDefinition[];
  storedKeys: string[];
  sortColumn: ColumnDefinition;
  /** Keyset paging (the `after` cursor) needs a sort column without NULLs; others page by offset. */
  keysetCapable: boolean;
  displays: Map<string, ReferenceDisplay>;
  conditions: repo.PageConditions;
  /** The `sort_by`, `filters_json` and `date_order` of its page links. */
  linkTail: string;
};

/** What a page plan is made of besides the table. */
type PlanQuery = Pick<RowDataQuery, 'sort_by' | 'filters_json' | 'date_order'>;

const pagePlans = new PagePlanCache<PagePlan>();

/** The page's plan, worked out once per table, configuration, related tables, sort column, filters_json text and date order. */
async function pagePlan(ctx: TablesContext, entry: repo.CatalogueEntry, query: PlanQuery): Promise<PagePlan> {
  const columns = withIdColumn(entry.columns);
  const sortBy = query.sort_by || 'id';
  const sortColumn = columns.find((c) => c.key === sortBy && !isVirtual(c.type));
  if (!sortColumn) throw validationError(`Cannot sort by '${sortBy}': no such column.`);
  const sources = await referenceSources(ctx, columns);
  // The sort_by as given (not its column): an explicit `id` is kept in the links, a missing one is not.
  return pagePlans.get(entry, [sources.config, ...sources.related], `${query.sort_by ?? ''}\u0000${query.filters_json ?? ''}\u0000${query.date_order ?? ''}`, () => {
    const displays = referenceDisplays(sources);
    return {
      columns,
      storedKeys: columns.filter((c) => !isVirtual(c.type)).map((c) => c.key),
      sortColumn,
      keysetCapable: sortColumn.key === 'id' || sortColumn.required === true,
      displays,
      conditions: pageConditionsOf(buildFilterConditions(query.filters_json, columns, displays, query.date_order)),
      linkTail: linkSortAndFilters(query),
    };
  });
}

/** The conditions plus "after this row in the order" (keyset paging: `(sort column, id)` past the cursor's). */
function afterRow(conditions: repo.PageConditions, sortColumn: ColumnDefinition, sortDir: 'asc' | 'desc', cursor: Cursor): repo.PageConditions {
  const comparison = sortDir === 'asc' ? sql`>` : sql`<`;
  if (sortColumn.key === 'id') return { sql: [...conditions.sql, sql`id ${comparison} ${cursor.id}`], shape: `${conditions.shape} after id ${sortDir}`, values: [...(conditions.values ?? []), cursor.id] };
  return {
    sql: [...conditions.sql, sql`(${sql.ref(sortColumn.key)}, id) ${comparison} (${cursor.value}, ${cursor.id})`],
    shape: `${conditions.shape} after ${JSON.stringify(sortColumn.key)} ${sortDir}`,
    values: [...(conditions.values ?? []), cursor.value, cursor.id],
  };
}

async function readRowPage(ctx: TablesContext, entry: repo.CatalogueEntry, query: RowDataQuery): Promise<RowPage> {
  const { columns, storedKeys, sortColumn, keysetCapable, displays, conditions, linkTail } = await pagePlan(ctx, entry, query);
  // A deep page's start adds a condition whose statements are built per request; a cursor's is one more shape.
  let pageConditions = conditions;
  let offset = (query.page - 1) * query.page_size;
  const fromEnd = query.from_end === 'true';
  if (fromEnd) {
    offset = 0;
  } else if (query.after && keysetCapable) {
    pageConditions = afterRow(conditions, sortColumn, query.sort_dir, decodeCursor(query.after, sortColumn));
    offset = 0;
  } else if (keysetCapable && offset >= DEFERRED_OFFSET_FROM) {
    // A deep page by number: walk only the index to the page's first key, then read from there,
    // instead of fetching and discarding every row before it.
    pageConditions = {
      sql: [...conditions.sql, repo.pageStartCondition({ encodedName: entry.encoded_name, sortBy: sortColumn.key, sortDir: query.sort_dir, conditions: conditions.sql, offset })],
    };
    offset = 0;
  }
  // One row more than the page tells whether a next page exists; the count may be an estimate.
  const [fetched, total] = await Promise.all([
    repo.selectRows(ctx.db, {
      encodedName: entry.encoded_name,
      columns: storedKeys,
      conditions: pageConditions,
      sortBy: sortColumn.key,
      // From the end: the order reversed (ties on id too), the page read, then turned back.
      sortDir: fromEnd ? (query.sort_dir === 'asc' ? 'desc' : 'asc') : query.sort_dir,
      limit: query.page_size + 1,
      offset,
    }),
    repo.countRows(ctx.db, entry.encoded_name, conditions, EXACT_COUNT_LIMIT),
  ]);
  if (fromEnd) {
    const rows = fetched.slice(0, query.page_size).reverse();
    await fillQueryColumns(ctx, columns, rows);
    const [references, unknown] = await Promise.all([referenceLabels(ctx, displays, rows), unknownValues(ctx, entry, storedKeys, rows)]);
    const lastPage = Math.max(1, Math.ceil(total.count / query.page_size));
    return {
      results: rows,
      count: total.count,
      count_is_estimate: total.estimated,
      next: null,
      previous: fetched.length > query.page_size ? pageLink(entry.encoded_name, query, linkTail, Math.max(1, lastPage - 1), null) : null,
      ...(references ? { references } : {}),
      ...(unknown ? { unknown_values: unknown } : {}),
      offset: Math.max(0, total.count - rows.length),
    };
  }
  const hasNext = fetched.length > query.page_size;
  const rows = hasNext ? fetched.slice(0, query.page_size) : fetched;
  await fillQueryColumns(ctx, columns, rows);
  const [references, unknown] = await Promise.all([referenceLabels(ctx, displays, rows), unknownValues(ctx, entry, storedKeys, rows)]);
  const last = rows.at(-1);
  const nextCursor = hasNext && keysetCapable && last ? encodeCursor({ value: last[sortColumn.key] ?? null, id: Number(last.id) }) : null;
  return {
    results: rows,
    count: total.count,
    count_is_estimate: total.estimated,
    next: hasNext ? pageLink(entry.encoded_name, query, linkTail, query.page + 1, nextCursor) : null,
    previous: query.page > 1 ? pageLink(entry.encoded_name, query, linkTail, query.page - 1, null) : null,
    ...(references ? { references } : {}),
    ...(unknown ? { unknown_values: unknown } : {}),
  };
}

/** Rows read per statement of an export. */
const EXPORT_BATCH_ROWS = 1000;

/**
 * Every row a page query with the same sort and filters selects, as CSV or .xlsx (docs/api.md): a
 * header of the column labels, then the values as the grid shows them — related rows by their
 * business key and name, a value never recorded as an empty cell. The sort and filters are checked
 * before the answer starts (a bad one is a 400); the rows are then read and written a batch at a time.
 */
export async function exportTableRows(ctx: TablesContext, options: { name: string; query: RowExportQuery }): Promise<Download> {
  const entry = await requireTable(ctx, options.name);
  const plan = await pagePlan(ctx, entry, options.query);
  const shown = plan.columns.filter((c) => c.type !== 'nestedTable');
  const rows = exportedRows(ctx, entry, plan, shown, options.query.sort_dir);
  switch (options.query.format) {
    case 'csv':
      return { fileName: `${entry.name}.csv`, contentType: 'text/csv; charset=utf-8', body: Readable.from(csvText(shown, rows)) };
    case 'xlsx': {
      // Read with the download, not cached: a currency just chosen shows in the next file.
      const currency = await readCurrency(ctx.db);
      return { fileName: `${entry.name}.xlsx`, contentType: XLSX_CONTENT_TYPE, body: xlsxStream({ sheetName: entry.name, columns: shown.map((column) => sheetColumnOf(column, currency)), rows }) };
    }
  }
}

async function* csvText(shown: ColumnDefinition[], rows: AsyncIterable<CsvCell[][]>): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(shown.map(columnLabel));
  for await (const batch of rows) if (batch.length) yield batch.map(csvLine).join('');
}

/** The exported rows' cells, a batch per statement. */
async function* exportedRows(ctx: TablesContext, entry: repo.CatalogueEntry, plan: PagePlan, shown: ColumnDefinition[], sortDir: 'asc' | 'desc'): AsyncGenerator<CsvCell[][]> {
  const { columns, storedKeys, sortColumn, keysetCapable, displays, conditions } = plan;
  const computed = await queryColumnValues(ctx, columns);
  let after: Cursor | null = null;
  for (let offset = 0; ; offset += EXPORT_BATCH_ROWS) {
    const rows = await repo.selectRows(ctx.db, {
      encodedName: entry.encoded_name,
      columns: storedKeys,
      conditions: after ? afterRow(conditions, sortColumn, sortDir, after) : conditions,
      sortBy: sortColumn.key,
      sortDir,
      limit: EXPORT_BATCH_ROWS,
      offset: keysetCapable ? 0 : offset,
    });
    setQueryColumns(computed, rows);
    const [references, unknown] = await Promise.all([referenceLabels(ctx, displays, rows), unknownValues(ctx, entry, storedKeys, rows)]);
    yield rows.map((row) => exportedCells(shown, row, { references, unknownValues: unknown }));
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH_ROWS || !last) return;
    if (keysetCapable) after = { value: last[sortColumn.key] ?? null, id: Number(last.id) };
  }
}

/**
 * Runs a write whose database refusals (bad data, broken constraints) must be known as such before
 * the error handler sees them (the import finishes its log entry with the message).
 */
export async function asRowDataError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const database = databaseErrorOf(error);
    throw (database && fromDatabaseError(database)) ?? error;
  }
}

const parseRowId = (value: unknown): number => {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw validationError('Row ID is required.', { id: ['Row ID is required.'] });
  return id;
};

/**
 * Where the unit of a written row's product is found (typed-figures.ts): a products row's own Unit
 * (sent, or stored for an edit), another table's row's product by the reference sent or stored.
 */
function quantityUnitSource(ctx: TablesContext, entry: repo.CatalogueEntry, values: Record<string, unknown>, id: number | null): QuantityUnitSource {
  if (entry.encoded_name === 'products') {
    return { ownUnitColumn: entry.columns.find((c) => c.key === 'unit'), product: async () => quantityProductOf(id === null ? undefined : await repo.findRow(ctx.db, 'products', id)) };
  }
  return {
    ownUnitColumn: undefined,
    product: async () => {
      for (const column of entry.columns) {
        if (column.type !== 'ForeignKey' || !column.related_table || (await cachedCatalogueEntry(ctx, column.related_table))?.encoded_name !== 'products') continue;
        const sent = values[column.key];
        const productId = column.key in values ? (typeof sent === 'string' && /^\d+$/.test(sent) ? Number(sent) : sent) : id === null ? undefined : (await repo.findRow(ctx.db, entry.encoded_name, id))?.[column.key];
        return typeof productId === 'number' && Number.isSafeInteger(productId) ? quantityProductOf(await repo.findRow(ctx.db, 'products', productId)) : undefined;
      }
      return undefined;
    },
  };
}

/** A Data screen write's values as typed (money with its sign, quantities with their unit) read as the row's check takes them. */
async function typedFiguresRead(ctx: TablesContext, entry: repo.CatalogueEntry, values: Record<string, unknown>, id: number | null) {
  const money = withMoneyRead(entry.columns, values);
  return withQuantityUnitsRead(entry.columns, money, quantityUnitSource(ctx, entry, money, id));
}

/**
 * A Data screen write: `timeZone` the one sent (the browser's; none: the shop's), whose day is today for it; `userId`
 * who writes (named to whoever's later save it makes stale); `expected` the version the writer read
 * (If-Match; none: written whatever the row's version, ADR 0168).
 */
type RowWrite = { name: string; values: Record<string, unknown>; timeZone?: string | undefined; userId?: number | undefined; expected?: string | undefined };

/** Records who saved a row on the Data screen and the version the save left, in the write's transaction. */
async function recordRowEdit(db: Kysely<Database>, entry: repo.CatalogueEntry, row: repo.RowRecord, userId: number | undefined) {
  await repo.recordRowEdit(db, { tableName: entry.encoded_name, rowId: Number(row['id']), version: String(row[ROW_VERSION_KEY]), userId: userId ?? null });
}

/**
 * Why a write at version `expected` found no row: the row is gone (404), or it has another version
 * now (409 naming who saved it since and when, where a Data screen save did).
 */
async function refusedWriteError(ctx: TablesContext, entry: repo.CatalogueEntry, id: number, write: { expected?: string | undefined; timeZone?: string | undefined; action: 'edit' | 'delete' }) {
  const current = write.expected === undefined ? undefined : await repo.findRow(ctx.db, entry.encoded_name, id);
  if (!current) return notFoundError(`Row ${id} not found in table '${entry.name}'.`);
  const edit = await repo.findRowEdit(ctx.db, entry.encoded_name, id);
  const lastSave = edit && edit.version === current[ROW_VERSION_KEY] ? { by: edit.username, at: new Date(edit.edited_at) } : null;
  return editConflictError({ thing: 'row', action: write.action, current, lastSave, timeZone: write.timeZone });
}

export async function addRow(ctx: TablesContext, options: RowWrite): Promise<repo.RowRecord> {
  const entry = await requireTable(ctx, options.name);
  const timeZone = await requestTimeZone(ctx.db, options.timeZone);
  const values = parseRowValues(entry.columns, await typedFiguresRead(ctx, entry, options.values, null), 'create');
  refuseUnrecordableDate(entry, values);
  await refuseBrokenColumnRules(ctx, entry, values);
  await refuseMissingReferences(ctx, entry, values);
  const row = await namingDuplicates(ctx, entry, async () => values, () =>
    inShopDay(ctx, timeZone, async (db) => {
      await spellSupplier(db, entry, values, null);
      const added = await writingRow(db, entry, values, null, (trx) => repo.insertRow(trx, entry.encoded_name, values));
      await recordStockOf(db, entry, values, added);
      await recordRowEdit(db, entry, added, options.userId);
      return added;
    }),
  );
  await tellRowsChanged(ctx, { action: 'add', table: entry.encoded_name, columns: Object.keys(values), rows: [row] });
  return row;
}

const PRODUCT_CODE = 'product_code';

/**
 * A row whose unique key another row has already (a product's sales of a day): refused as a 409
 * that names the row by what the user chose — "'sales' already has a row for Product GAR-1000 —
 * Hose Small and Date 1 Dec 2026: edit that row instead." — with each key field marked, not by
 * column keys and ids. `written`: the row as the write would leave it (an edit's stored values under
 * the changed ones).
 */
async function namingDuplicates<T>(ctx: TablesContext, entry: repo.CatalogueEntry, written: () => Promise<repo.RowRecord>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const database = databaseErrorOf(error);
    const keys = database?.table === entry.encoded_name ? duplicateKeyColumns(database) : null;
    if (!keys) throw error;
    const values = await written();
    const columns = keys.map((key) => entry.columns.find((column) => column.key === key));
    if (!columns.every((column) => column !== undefined && values[column.key] !== undefined)) throw error;
    const named = await Promise.all((columns as ColumnDefinition[]).map(async (column) => `${columnLabel(column)} ${await valueWords(ctx, column, values[column.key])}`));
    const problem = `'${entry.name}' already has a row for ${named.join(' and ')}: edit that row instead.`;
    throw new AppError('conflict', problem, { fieldErrors: Object.fromEntries(keys.map((key) => [key, [problem]])) });
  }
}

/** A value as the row form shows it: a reference by its code and name, a day as "1 Dec 2026". */
async function valueWords(ctx: TablesContext, column: ColumnDefinition, value: unknown): Promise<string> {
  if (column.type === 'ForeignKey' && column.related_table && typeof value === 'number') {
    const related = await cachedCatalogueEntry(ctx, column.related_table);
    const label = related ? await findRowLabel(ctx, related, value) : null;
    if (label) return label;
  }
  if (column.type === 'DateField' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value);
  return String(value);
}

/**
 * A Data screen write with what it records as today's — a product's figure as today's count, the
 * snapshots' trigger that makes the latest count up to today on hand — in the shop's day: one
 * transaction whose `current_date` is in `timeZone` (as an import's, ADR 0030's amendments): the
 * one the request sent, else the shop's (ADR 0173's amendment).
 */
async function inShopDay<T>(ctx: TablesContext, timeZone: string, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    await useShopTimeZone({ run: async (query) => (await query.execute(trx)).rows }, timeZone);
    return work(trx);
  });
}

/**
 * Runs a row's write. A product's code is trimmed, and refused (a 400 naming the field) when another
 * product's code equals it ignoring case: imports take `gar-1000` for the stored GAR-1000, so a
 * second product of that code would never be reached by them. Checked in the write's transaction
 * (`db`'s, when it is one already).
 */
async function writingRow<T>(db: Kysely<Database>, entry: repo.CatalogueEntry, values: repo.RowRecord, id: number | null, write: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const typed = values[PRODUCT_CODE];
  if (entry.encoded_name !== 'products' || typeof typed !== 'string') return db.isTransaction ? write(db) : retryingOnce(() => write(db));
  const column = entry.columns.find((c) => c.key === PRODUCT_CODE);
  const label = column ? columnLabel(column) : 'Product code';
  const code = typed.trim();
  if (!code) throw validationError(`${label}: This field is required.`, { [PRODUCT_CODE]: ['This field is required.'] });
  values[PRODUCT_CODE] = code;
  const checked = async (trx: Kysely<Database>) => {
    const twin = await repo.findProductCodeTwin(trx, code, id);
    if (twin) {
      const problem = `${code} is already used by ${twin.code}${twin.name ? ` — ${twin.name}` : ''}; codes differing only in case are one product.`;
      throw validationError(`${label}: ${problem}`, { [PRODUCT_CODE]: [problem] });
    }
    return write(trx);
  };
  return db.isTransaction ? checked(db) : inTransaction(db, checked);
}

/**
 * A product's supplier is stored in the spelling the other products hold (ADR 0186): "acme" where
 * they have "ACME"; white space runs one space; blank: ''. The product written is not one of the
 * others, so the only product of a supplier can change its case.
 */
async function spellSupplier(db: Kysely<Database>, entry: repo.CatalogueEntry, values: repo.RowRecord, id: number | null) {
  const written = values[SUPPLIER_COLUMN.column];
  if (entry.encoded_name !== SUPPLIER_COLUMN.table || typeof written !== 'string') return;
  const others = await readSupplierNames(db, id === null ? undefined : sql<boolean>`p.id = ${id}`);
  values[SUPPLIER_COLUMN.column] = new SupplierSpeller(others).spell(written) ?? '';
}

/** A sale or stock count dated in the future or before 1970, a delivery expected more than 5 years ahead (dated-columns.ts): refused, naming the column. */
function refuseUnrecordableDate(entry: repo.CatalogueEntry, values: repo.RowRecord) {
  const rule = datedColumn(entry.encoded_name);
  const day = rule === undefined ? undefined : values[rule.column];
  const problem = rule && typeof day === 'string' ? rule.problem(day) : null;
  if (rule && problem) throw validationError(problem, { [rule.column]: [problem] });
}

/**
 * A value below its column's CHECK rule (a negative lead time), or an emptied column the database
 * keeps filled (a cleared unit cost): every such field named, as the import names them, not the rule.
 */
async function refuseBrokenColumnRules(ctx: TablesContext, entry: repo.CatalogueEntry, values: repo.RowRecord) {
  const { minimums, notNull } = await cachedColumnRules(ctx, entry);
  const errors: Record<string, string[]> = {};
  for (const column of entry.columns) {
    const minimum = minimums.get(column.key);
    if (isBelowMinimum(values[column.key], minimum)) errors[column.key] = [minimumProblem(minimum)];
    else if (values[column.key] === null && notNull.has(column.key)) errors[column.key] = ['Required: it cannot be left empty.'];
  }
  const named = entry.columns.filter((column) => errors[column.key]);
  if (named.length) throw validationError(named.map((column) => `${columnLabel(column)}: ${errors[column.key]![0]}`).join(' '), errors);
}

/**
 * A ForeignKey value that is no row of its table is the field's mistake (a typed id, a row deleted
 * meanwhile): refused as a 400 naming the field, before the database would refuse it as a conflict.
 */
async function refuseMissingReferences(ctx: TablesContext, entry: repo.CatalogueEntry, values: repo.RowRecord) {
  for (const column of entry.columns) {
    const id = values[column.key];
    if (column.type !== 'ForeignKey' || !column.related_table || typeof id !== 'number') continue;
    const related = await cachedCatalogueEntry(ctx, column.related_table);
    if (!related || (await repo.rowExists(ctx.db, related.encoded_name, id))) continue;
    const problem = `No row of '${related.name}' has the id ${id}: choose one of its rows.`;
    throw validationError(`${columnLabel(column)}: ${problem}`, { [column.key]: [problem] });
  }
}

/** The write is done and answered as done whatever the listener meets: a failure there is only logged. */
async function tellRowsChanged(ctx: TablesContext, change: RowsChange): Promise<void> {
  try {
    await ctx.onRowsChanged?.(change);
  } catch (error) {
    logError('after a row write', error, { table: change.table });
  }
}

/** One stock truth: a product's current_stock written on the Data screen is also today's snapshot. */
async function recordStockOf(db: Kysely<Database>, entry: repo.CatalogueEntry, values: repo.RowRecord, row: repo.RowRecord) {
  if (entry.encoded_name === 'products' && 'current_stock' in values) await recordTodaysStock(db, [Number(row['id'])]);
}

export async function editRow(ctx: TablesContext, options: RowWrite): Promise<repo.RowRecord> {
  const entry = await requireTable(ctx, options.name);
  const timeZone = await requestTimeZone(ctx.db, options.timeZone);
  const id = parseRowId(options.values.id);
  const values = parseRowValues(entry.columns, await typedFiguresRead(ctx, entry, options.values, id), 'update');
  refuseUnrecordableDate(entry, values);
  await refuseBrokenColumnRules(ctx, entry, values);
  await refuseMissingReferences(ctx, entry, values);
  // A row moved to another product changes what both are forecast from.
  const before = 'product_id' in values ? await repo.findRow(ctx.db, entry.encoded_name, id) : undefined;
  const edited = async () => ({ ...(await repo.findRow(ctx.db, entry.encoded_name, id)), ...values });
  const row = await namingDuplicates(ctx, entry, edited, () =>
    inShopDay(ctx, timeZone, async (db) => {
      await spellSupplier(db, entry, values, id);
      const updated = await writingRow(db, entry, values, id, (trx) => repo.updateRow(trx, entry.encoded_name, id, values, options.expected));
      if (updated) {
        await recordStockOf(db, entry, values, updated);
        await recordRowEdit(db, entry, updated, options.userId);
      }
      return updated;
    }),
  );
  // A refusal tells the save's time on the viewer's clock, or in UTC saying so: the shop's zone would go unnamed.
  if (!row) throw await refusedWriteError(ctx, entry, id, { expected: options.expected, timeZone: sentTimeZone(options.timeZone), action: 'edit' });
  await tellRowsChanged(ctx, { action: 'edit', table: entry.encoded_name, columns: Object.keys(values), rows: before ? [before, row] : [row] });
  return row;
}

// Tables outside the catalogue that refer to data rows, by the name their users know.
const APP_TABLE_LABELS: Record<string, string> = { forecast_results: 'forecasts' };

/**
 * A foreign key referring to a data table's rows, with the name users know its table by, and
 * whether its table is a data table (rows a user keeps) or an application table (forecasts made from the row).
 */
export type RowReference = { foreignKey: repo.ReferencingForeignKey; table: string; fromDataTable: boolean };

/** The foreign keys that refer to the rows of data table `encodedName` and keep them (not ON DELETE CASCADE), each with its table's name. */
export async function listRowReferences(db: Kysely<Database>, encodedName: string): Promise<RowReference[]> {
  const foreignKeys = await repo.listReferencingForeignKeys(db, encodedName);
  if (!foreignKeys.length) return [];
  const catalogue = new Map((await repo.listCatalogue(db)).map((e) => [e.encoded_name, e.name]));
  return foreignKeys.map((foreignKey) => {
    const fromDataTable = foreignKey.schema === 'data';
    return { foreignKey, table: (fromDataTable ? catalogue.get(foreignKey.table) : APP_TABLE_LABELS[foreignKey.table]) ?? foreignKey.table, fromDataTable };
  });
}

/** Per table (and column) referring to the row, how many rows do; tables with none left out. */
async function countReferences(db: Kysely<Database>, entry: repo.CatalogueEntry, id: number) {
  const references = await listRowReferences(db, entry.encoded_name);
  const counted = await Promise.all(references.map(async (reference) => ({ ...reference, count: await repo.countReferencingRows(db, reference.foreignKey, id) })));
  return counted.filter((reference) => reference.count > 0);
}

export async function getRowReferences(ctx: TablesContext, options: { name: string; id: unknown }): Promise<RowReferences> {
  const entry = await requireTable(ctx, options.name);
  const id = parseRowId(options.id);
  if (!(await repo.rowExists(ctx.db, entry.encoded_name, id))) throw notFoundError(`Row ${id} not found in table '${entry.name}'.`);
  const [counted, label] = await Promise.all([countReferences(ctx.db, entry, id), findRowLabel(ctx, entry, id)]);
  // What keeps the row: rows users keep. Forecasts made from it go with it, as an import's replace does.
  const references = counted.filter((reference) => reference.fromDataTable);
  return { references: references.map(({ table, count }) => ({ table, count })), total: references.reduce((sum, r) => sum + r.count, 0), label };
}

/** A row by its key and name (rowDisplayOf), or null when its table has no key to show or there is no such row. */
async function findRowLabel(ctx: TablesContext, entry: repo.CatalogueEntry, id: number): Promise<string | null> {
  const display = rowDisplayOf(await ctx.loadConfig(), entry);
  const [found] = display ? await repo.selectReferenceLabels(ctx.db, display, [id]) : [];
  return found ? labelOf(found) || null : null;
}

const rowsWord = (count: number) => `${count} row${count === 1 ? '' : 's'}`;

/**
 * Deletes a row. Rows that refer to it (a product's sales, stock snapshots, deliveries) keep it
 * (409 saying how many), unless an administrator asks for `cascade`: then they go first, in the same
 * transaction. Forecasts made from it never keep it: they go with it, for anyone who may delete it
 * (an editor who mistyped a new product could not delete it for the forecast the app made).
 */
export async function deleteTableRow(
  ctx: TablesContext,
  options: { name: string; id: unknown; cascade?: boolean | undefined; role: Role; expected?: string | undefined; timeZone?: string | undefined },
): Promise<void> {
  const entry = await requireTable(ctx, options.name);
  const id = parseRowId(options.id);
  if (options.cascade && !roleAllows(options.role, 'admin')) {
    throw new AppError('forbidden', 'Only an administrator can delete a row together with the rows that refer to it.');
  }
  const deleted = await inTransaction(ctx.db, async (trx) => {
    // A row changed since it was read is refused as such before anything else is said of it (ADR 0168).
    const stored = options.expected === undefined ? undefined : await repo.findRow(trx, entry.encoded_name, id);
    if (stored && stored[ROW_VERSION_KEY] !== options.expected) throw await refusedWriteError({ ...ctx, db: trx }, entry, id, { ...options, action: 'delete' });
    const references = await countReferences(trx, entry, id);
    const keeping = references.filter((reference) => reference.fromDataTable);
    if (keeping.length && !options.cascade) {
      const counts = keeping.map((r) => `${rowsWord(r.count)} of '${r.table}'`).join(', ');
      const label = await findRowLabel({ ...ctx, db: trx }, entry, id);
      const row = label ? `${label} (row ${id} of '${entry.name}')` : `Row ${id} of '${entry.name}'`;
      throw conflictError(`${row} is referred to by ${counts}. Delete those first, or (as an administrator) delete it together with them.`);
    }
    for (const reference of references) await repo.deleteReferencingRows(reference.foreignKey, sql`${id}`).execute(trx);
    const row = await repo.deleteRow(trx, entry.encoded_name, id, options.expected);
    if (!row) throw await refusedWriteError({ ...ctx, db: trx }, entry, id, { ...options, action: 'delete' });
    return row;
  });
  await tellRowsChanged(ctx, { action: 'delete', table: entry.encoded_name, columns: Object.keys(deleted), rows: [deleted] });
}

/**
 * The rows a ForeignKey column may refer to whose key or name contains `search`, as people know
 * them (`code — name`), at most `limit`: what the row form's picker offers.
 */
export async function searchRelatedRows(ctx: TablesContext, options: { name: string; column: string; query: RelatedRowsQuery }): Promise<RelatedRows> {
  const entry = await requireTable(ctx, options.name);
  const column = entry.columns.find((c) => c.key === options.column);
  if (!column) throw notFoundError(`Column '${options.column}' not found in table '${entry.name}'.`);
  if (column.type !== 'ForeignKey' || !column.related_table) {
    const problem = `Column '${column.key}' of '${entry.name}' does not refer to another table.`;
    throw validationError(problem, { column: [problem] });
  }
  const related = await requireTable(ctx, column.related_table);
  const { limit } = options.query;
  const found = await repo.searchRowsByLabel(ctx.db, {
    encodedName: related.encoded_name,
    display: rowDisplayOf(await ctx.loadConfig(), related),
    search: options.query.search.trim(),
    // One more than asked tells whether others match too.
    limit: limit + 1,
  });
  return { results: found.slice(0, limit).map((row) => ({ id: Number(row.id), label: labelOf(row) || row.id })), more: found.length > limit };
}

export type Variation = { encodedName: string; decodedName: string; variationNumber: number; exists: boolean };

const variationOf = (entry: repo.CatalogueEntry): Variation => ({
  encodedName: entry.encoded_name,
  decodedName: entry.name,
  variationNumber: entry.variation_number ?? 0,
  exists: true,
});

async function requireParentRow(ctx: TablesContext, baseTable: string, parentId: number) {
  const base = await requireTable(ctx, baseTable);
  if (base.base_table) throw validationError(`'${base.name}' is itself a variation; make variations of '${base.base_table}'.`);
  if (!(await repo.rowExists(ctx.db, base.encoded_name, parentId))) throw notFoundError(`Row ${parentId} not found in table '${base.name}'.`);
  return base;
}

/** The copy 'Base #N' of a base table tied to one of its rows; made once, then returned again. */
export async function createVariation(ctx: TablesContext, options: { baseTable: string; parentId: number }): Promise<Variation> {
  const config = await ctx.loadConfig();
  return inTransaction(ctx.db, async (trx) => {
    await repo.lockCatalogue(trx);
    const txCtx = { ...ctx, db: trx };
    const base = await requireParentRow(txCtx, options.baseTable, options.parentId);
    const existing = await repo.findVariation(trx, base.name, options.parentId);
    if (existing) return variationOf(existing);
    const variationNumber = await repo.nextVariationNumber(trx, base.name);
    const entry = await createCataloguedTable(trx, config, {
      name: `${base.name} #${variationNumber}`,
      folder: base.folder,
      columns: base.columns.map((column) => ({ ...column, unique: false })),
      baseTable: base.name,
      parentId: options.parentId,
      variationNumber,
    });
    ctx.catalogueCache.clear();
    return variationOf(entry);
  });
}

/** The variation of a parent row if it exists, else the name the next one would get. */
export async function getVariationName(ctx: TablesContext, options: { baseTable: string; parentId: number }): Promise<Variation> {
  const base = await requireParentRow(ctx, options.baseTable, options.parentId);
  const existing = await repo.findVariation(ctx.db, base.name, options.parentId);
  if (existing) return variationOf(existing);
  const variationNumber = await repo.nextVariationNumber(ctx.db, base.name);
  const decodedName = `${base.name} #${variationNumber}`;
  return { encodedName: encodeOrRefuse(decodedName), decodedName, variationNumber, exists: false };
}

/** Makes the tables of the configuration exist and gives configured tables without columns theirs. */
export async function syncConfiguredTables(ctx: TablesContext): Promise<void> {
  const config = await ctx.loadConfig();
  for (const [name, table] of Object.entries(config.tables)) {
    await inTransaction(ctx.db, async (trx) => {
      await repo.lockCatalogue(trx);
      const entry = await repo.findCatalogueEntry(trx, name);
      if (!entry) await createCataloguedTable(trx, config, { name, folder: table.folder ?? '', columns: table.columns });
      else if (entry.columns.length === 0) await repo.setCatalogueColumns(trx, name, table.columns);
    });
  }
}

/** Stored column keys of a table, or null when there is no such table (entity-config validation). */
export async function storedColumnKeys(ctx: TablesContext, name: string): Promise<string[] | null> {
  const entry = await repo.findCatalogueEntry(ctx.db, name);
  return entry ? withIdColumn(entry.columns).filter((c) => !isReadOnly(c.type) || c.key === 'id').map((c) => c.key) : null;
}
