// Calls of the Data integration screen (spec §7): the configuration's import mappings, the products
// table's columns (for preview hints), the multipart file import and the import log with its live
// progress. Types come from the contract.
import type { z } from 'zod';
import type { AxiosProgressEvent } from 'axios';
import type { ImportLogEntry, ImportResult, MappingConfig, TableColumn, configResponse, importLogList } from '@stockwise/contract';
import { api } from './http.ts';
import { fetchTableColumns } from './tables.ts';

/** Spec §7: the import's entity type is fixed to the product entity. */
export const importEntityType = 'products';
/** The table the product entity writes to (spec §7: products are read from the table named products). */
export const importTableName = 'products';
/** How often the import log is polled for server-side progress while an upload is under way. */
export const importProgressPollMs = 500;

export type ConfigResponse = z.infer<typeof configResponse>;
export type ImportLogSummary = z.infer<typeof importLogList>['results'][number];
export type { ImportLogEntry, ImportResult, MappingConfig };

export async function fetchConfig(): Promise<ConfigResponse> {
  return (await api.get<ConfigResponse>('/yaml/config/')).data;
}

/** The mappings of a configuration answer's content (`{}` when it has none). */
export function mappingsOf(content: Record<string, unknown>): Record<string, MappingConfig> {
  const mappings = content['mappings'];
  return typeof mappings === 'object' && mappings !== null && !Array.isArray(mappings) ? (mappings as Record<string, MappingConfig>) : {};
}

export function fetchImportColumns(): Promise<TableColumn[]> {
  return fetchTableColumns(importTableName);
}

export type UploadProgress = { loaded: number; total: number | null };

export type UploadImportRequest = {
  importId: string;
  file: File;
  mappingConfig: MappingConfig;
  mappingName: string;
  entityType?: string;
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * POST /api/records/process-file/. The fields go before the file: the server streams the file
 * through the mapping as it arrives, so it must know the mapping first.
 *
 * No client timeout for this one call (the shared client's 30 s would cut off a large upload that is
 * working fine): the screen shows upload progress and the server's rows done, and can cancel.
 */
export async function uploadImport({ importId, file, mappingConfig, mappingName, entityType = importEntityType, onUploadProgress, signal }: UploadImportRequest): Promise<ImportResult> {
  const form = new FormData();
  form.append('import_id', importId);
  form.append('mapping_config', JSON.stringify(mappingConfig));
  form.append('mapping_name', mappingName);
  form.append('entity_type', entityType);
  form.append('file', file, file.name);
  const answer = await api.post<ImportResult>('/records/process-file/', form, {
    // The client's default JSON content type would make axios serialise the form as JSON; the
    // adapter replaces this with the multipart boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
    timeout: 0,
    signal,
    onUploadProgress: onUploadProgress ? (event: AxiosProgressEvent) => onUploadProgress({ loaded: event.loaded, total: event.total ?? null }) : undefined,
  });
  return answer.data;
}

export async function fetchImportLogs(): Promise<ImportLogSummary[]> {
  return (await api.get<z.infer<typeof importLogList>>('/records/imports/')).data.results;
}

export async function fetchImportLog(id: string): Promise<ImportLogEntry> {
  return (await api.get<ImportLogEntry>(`/records/imports/${encodeURIComponent(id)}/`)).data;
}
