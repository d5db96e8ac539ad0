// Files the server sends for saving (table exports, report and forecasting workbooks), fetched as bytes.
import { XLSX_CONTENT_TYPE } from '@stockwise/contract';
import { api } from './http.ts';

/**
 * An answer's body: the file's bytes, or — when the server refused and said why in JSON — that
 * JSON, so the error normaliser reads the refusal as it reads any other.
 */
export function fileOrRefusal(data: ArrayBuffer, headers: { [name: string]: unknown }): unknown {
  return String(headers['content-type']).startsWith('application/json') ? JSON.parse(new TextDecoder().decode(data)) : data;
}

const CSV_CONTENT_TYPE = 'text/csv;charset=utf-8';

/** A file the server writes on a GET (`format=csv` or `xlsx`); a refusal is thrown as any API error is. */
export async function fetchExport(path: string, format: 'csv' | 'xlsx', params: Record<string, string | number> = {}): Promise<Blob> {
  const type = format === 'xlsx' ? XLSX_CONTENT_TYPE : CSV_CONTENT_TYPE;
  const answer = await api.get<ArrayBuffer>(path, {
    params: { ...params, format },
    headers: { Accept: `${format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv'}, application/json` },
    responseType: 'arraybuffer',
    transformResponse: fileOrRefusal,
  });
  return new Blob([answer.data], { type });
}

/** An .xlsx the server writes on a GET (`format=xlsx`). */
export const fetchWorkbook = (path: string, params: Record<string, string | number> = {}): Promise<Blob> => fetchExport(path, 'xlsx', params);
