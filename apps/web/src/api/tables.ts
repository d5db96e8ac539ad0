// Calls of the Data screen (spec §7 /api/records/*, /api/queries/queries/), typed from the contract.
import type { z } from 'zod';
import { XLSX_CONTENT_TYPE, type DateOrder } from '@stockwise/contract';
import type {
  ColumnDefinition,
  DownloadFormat,
  RowPage,
  TableColumn,
  TableRow,
  TableSummary,
  columnsResponse,
  folderList,
  namedQueryList,
  okResponse,
  RelatedRows,
  RowReferences,
  variation,
} from '@stockwise/contract';
import { fileOrRefusal } from './downloads.ts';
import { api } from './http.ts';
import { inShopDay } from './shop-day.ts';
import { atVersion } from './versions.ts';

export type Variation = z.infer<typeof variation>;
export type NamedQuerySummary = z.infer<typeof namedQueryList>[number];
export type OkResponse = z.infer<typeof okResponse>;

/** Query parameters of the row-data call (spec §7 "Row data request", plus the keyset cursor). */
export type RowDataParams = {
  page?: number;
  page_size?: number;
  sort_by?: string;
  sort_dir?: 'asc' | 'desc';
  filters_json?: string;
  after?: string;
  /** The last `page_size` rows of the order (docs/api.md); the answer's `offset` places them. */
  from_end?: 'true';
  /** How the server reads a date typed with numbers alone in filters_json (ADR 0167). */
  date_order?: DateOrder;
};

/** The sort and filters of a row query: what the page call and the export share. */
export type RowOrderParams = Pick<RowDataParams, 'sort_by' | 'sort_dir' | 'filters_json' | 'date_order'>;

/** An export streams every row: far longer than a page may take. */
const exportTimeoutMs = 10 * 60_000;

/** A table's path segment: display names carry spaces and '#', so always URL-encoded. */
export const tablePath = (name: string) => `/records/tables/${encodeURIComponent(name)}`;

export async function fetchTableStructure(): Promise<TableSummary[]> {
  return (await api.get<TableSummary[]>('/records/tables/structure/')).data;
}

export async function fetchFolders(): Promise<string[]> {
  return (await api.get<z.infer<typeof folderList>>('/records/folders/')).data.folders;
}

export async function fetchTableColumns(name: string): Promise<TableColumn[]> {
  return (await api.get<z.infer<typeof columnsResponse>>(`${tablePath(name)}/variation-columns/`)).data.columns;
}

export async function fetchTableRows(name: string, params: RowDataParams): Promise<RowPage> {
  return (await api.get<RowPage>(`${tablePath(name)}/data/`, { params })).data;
}

/** One row read afresh (the data call filtered on its id), or null when it is gone. */
export async function fetchRow(name: string, id: number | string): Promise<TableRow | null> {
  const page = await fetchTableRows(name, { page: 1, page_size: 1, filters_json: JSON.stringify({ id: { equals: Number(id) } }) });
  return page.results[0] ?? null;
}

const exportTypes: Record<DownloadFormat, string> = { csv: 'text/csv;charset=utf-8', xlsx: XLSX_CONTENT_TYPE };

/**
 * Every row the sort and filters select, as the file to save (docs/api.md "Export as CSV or
 * Excel"): the CSV's bytes as sent (its byte order mark included), or the .xlsx workbook.
 */
export async function fetchTableExport(name: string, params: RowOrderParams, format: DownloadFormat): Promise<Blob> {
  const answer = await api.get<ArrayBuffer>(`${tablePath(name)}/export/`, {
    params: { ...params, format },
    timeout: exportTimeoutMs,
    headers: { Accept: `${exportTypes[format]}, application/json` },
    responseType: 'arraybuffer',
    transformResponse: fileOrRefusal,
  });
  return new Blob([answer.data], { type: exportTypes[format] });
}

/** The parameters carried by a `next` link (`/api/records/tables/x/data/?page=2&after=…`). */
export function paramsOfNextLink(next: string): RowDataParams {
  const search = new URL(next, 'http://next.invalid').searchParams;
  const params: RowDataParams = {};
  const page = search.get('page');
  const pageSize = search.get('page_size');
  const sortBy = search.get('sort_by');
  const sortDir = search.get('sort_dir');
  const filters = search.get('filters_json');
  const after = search.get('after');
  const dateOrder = search.get('date_order');
  if (page) params.page = Number(page);
  if (pageSize) params.page_size = Number(pageSize);
  if (sortBy) params.sort_by = sortBy;
  if (sortDir === 'asc' || sortDir === 'desc') params.sort_dir = sortDir;
  if (filters) params.filters_json = filters;
  if (after) params.after = after;
  if (dateOrder === 'day-first' || dateOrder === 'month-first') params.date_order = dateOrder;
  return params;
}

export async function createTable(body: { name: string; folder: string; columns?: ColumnDefinition[] }): Promise<TableSummary> {
  return (await api.post<TableSummary>('/records/tables/create/', body)).data;
}

export async function deleteTable(name: string): Promise<OkResponse> {
  return (await api.post<OkResponse>(`${tablePath(name)}/delete/`)).data;
}

export async function updateTableFolder(name: string, folder: string): Promise<TableSummary> {
  return (await api.post<TableSummary>(`${tablePath(name)}/update-folder/`, { folder })).data;
}

export async function createFolder(folderPath: string): Promise<OkResponse> {
  return (await api.post<OkResponse>('/records/tables/create-folder/', { folderPath })).data;
}

export async function addRow(name: string, values: Record<string, unknown>): Promise<TableRow> {
  return (await api.post<TableRow>(`${tablePath(name)}/rows/add/`, values, inShopDay())).data;
}

/** `version`: the row's as it was read, so a save over someone else's since is refused instead of made. */
export async function editRow(name: string, values: Record<string, unknown>, version?: string): Promise<TableRow> {
  return (await api.post<TableRow>(`${tablePath(name)}/rows/edit/`, values, atVersion(version))).data;
}

/** `cascade` (admins only) also deletes the rows that refer to this one; `version` as editRow's. */
export async function deleteRow(name: string, id: number | string, options: { cascade?: boolean; version?: string | undefined } = {}): Promise<OkResponse> {
  return (await api.post<OkResponse>(`${tablePath(name)}/rows/delete/`, { id, ...(options.cascade ? { cascade: true } : {}) }, atVersion(options.version))).data;
}

/** Which tables refer to a row, and with how many rows (asked before deleting it). */
export async function fetchRowReferences(name: string, id: number | string): Promise<RowReferences> {
  return (await api.get<RowReferences>(`${tablePath(name)}/rows/${encodeURIComponent(String(id))}/references/`)).data;
}

/** Rows the ForeignKey `column` may refer to whose key or name contains `search` (a page at most; `more` when others match). */
export async function searchRelatedRows(name: string, column: string, search: string): Promise<RelatedRows> {
  return (await api.get<RelatedRows>(`${tablePath(name)}/related-rows/${encodeURIComponent(column)}/`, { params: { search } })).data;
}

export async function createVariation(baseTable: string, parentId: number): Promise<Variation> {
  return (await api.post<Variation>('/records/tables/create-variation/', { base_table: baseTable, parent_id: parentId })).data;
}

export async function fetchNamedQueries(): Promise<NamedQuerySummary[]> {
  return (await api.get<NamedQuerySummary[]>('/queries/queries/')).data;
}
