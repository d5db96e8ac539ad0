// Calls of the Data integration screen (spec §7): the configuration's import mappings and entities,
// the mapping builder's read of a file (preview-file), saving a mapping or an entity's configuration
// or setting it back to the configuration file's (Settings → Import entities), the multipart file import and the import log with its live progress.
// Types come from the contract.
import type { z } from 'zod';
import type { AxiosProgressEvent } from 'axios';
import { PREVIEW_MAX_BYTES, configEntity, type ConfigEntity, type EntityConfig, type EntityMapping, type ImportLogEntry, type ImportResult, type ImportUndoResult, type MappingConfig, type PreviewFileResponse, type RepeatedKeyMode, type configResponse, type importLogList } from '@stockwise/contract';
import { api } from './http.ts';
import { browserTimeZone } from './shop-day.ts';
import { atVersion } from './versions.ts';

/** The entity chosen until the user picks another (spec §7's default). */
export const importEntityType = 'products';
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

export type EntitySummary = { name: string; repeatedKeys: RepeatedKeyMode };

/** The inventory entities of a configuration answer's content as it gives them (`[]` when it has none). */
function inventoryEntitiesOf(content: Record<string, unknown>): unknown[] {
  const inventory = content['inventory'];
  const entities = typeof inventory === 'object' && inventory !== null ? (inventory as { entities?: unknown }).entities : undefined;
  return Array.isArray(entities) ? entities : [];
}

/** The inventory entities of a configuration answer's content, in their order. */
export function entitiesOf(content: Record<string, unknown>): EntitySummary[] {
  return inventoryEntitiesOf(content)
    .filter((entity): entity is { name: string; repeated_keys?: RepeatedKeyMode } => typeof entity === 'object' && entity !== null && typeof (entity as { name?: unknown }).name === 'string')
    .map((entity) => ({ name: entity.name, repeatedKeys: entity.repeated_keys ?? 'last' }));
}

/** The inventory entities of a configuration answer's content whole, each with its version and the file's version of it; one the contract cannot read is left out. */
export function configEntitiesOf(content: Record<string, unknown>): ConfigEntity[] {
  return inventoryEntitiesOf(content).flatMap((entity) => {
    const parsed = configEntity.safeParse(entity);
    return parsed.success ? [parsed.data] : [];
  });
}

/** POST /api/yaml/update-entity/ at the version read: a save by someone else since is refused (409 edit_conflict); the entity as saved, with its new version. */
export async function saveEntityConfig(name: string, config: EntityConfig, version: string): Promise<ConfigEntity> {
  return configEntity.parse((await api.post<{ entity: unknown }>('/yaml/update-entity/', { entity_name: name, config }, atVersion(version))).data.entity);
}

/** POST /api/yaml/reset-entity/ at the version read (ADR 0181): the entity back at the configuration file's version, with its new version. */
export async function resetEntityConfig(name: string, version: string): Promise<ConfigEntity> {
  return configEntity.parse((await api.post<{ entity: unknown }>('/yaml/reset-entity/', { entity_name: name }, atVersion(version))).data.entity);
}

/** A CSV or JSON file is read from its head (the server reads no more); a workbook needs all of it. */
export function previewPart(file: File): File {
  if (file.name.toLowerCase().endsWith('.xlsx') || file.size <= PREVIEW_MAX_BYTES) return file;
  return new File([file.slice(0, PREVIEW_MAX_BYTES)], file.name, { type: file.type });
}

/** What else a preview is asked with: the row of column names (a file with no mapping yet), and the mapping name the import would be under (its sales it would replace). */
export type PreviewOptions = { headerRow?: number | undefined; mappingName?: string | undefined; signal?: AbortSignal | undefined };

/**
 * The preview's form: a file's head goes with `file_part: head`, so the server reads its cut last
 * line as the cut it is, not as a record (a defect).
 */
export function previewForm(file: File, entityType: string, mapping: EntityMapping | null, { headerRow, mappingName }: PreviewOptions = {}): FormData {
  const form = new FormData();
  form.append('entity_type', entityType);
  form.append('time_zone', browserTimeZone());
  // An undecided 12/03/2026 is shown as the browser's language writes dates (month-first in en-US).
  form.append('locale', navigator.language);
  if (mapping) form.append('mapping_config', JSON.stringify(mapping));
  if (headerRow !== undefined) form.append('header_row', String(headerRow));
  if (mappingName !== undefined) form.append('mapping_name', mappingName);
  const part = previewPart(file);
  if (part !== file) form.append('file_part', 'head');
  form.append('file', part, part.name);
  return form;
}

/**
 * POST /api/records/preview-file/: the file's header, first rows mapped and their problems; writes
 * nothing. `headerRow`: the row holding the column names, for a file with no mapping yet (a mapping
 * says its own); `mappingName`: the name the import would be under, for the sales it would replace.
 */
export async function previewImportFile(file: File, entityType: string, mapping: EntityMapping | null, options: PreviewOptions = {}): Promise<PreviewFileResponse> {
  const form = previewForm(file, entityType, mapping, options);
  return (await api.post<PreviewFileResponse>('/records/preview-file/', form, { headers: { 'Content-Type': 'multipart/form-data' }, signal: options.signal })).data;
}

/** POST /api/yaml/save-mapping/: keeps the mapping under its name (it appears among the config's mappings). */
export async function saveMapping(name: string, config: MappingConfig): Promise<MappingConfig> {
  return (await api.post<{ mapping: MappingConfig }>('/yaml/save-mapping/', { name, config })).data.mapping;
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
  form.append('time_zone', browserTimeZone());
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

/** POST /api/records/imports/{id}/undo/: a sales file's import undone (ADR 0174); a refusal (409, 400) carries its sentence. */
export async function undoImport(id: string): Promise<ImportUndoResult> {
  return (await api.post<ImportUndoResult>(`/records/imports/${encodeURIComponent(id)}/undo/`)).data;
}
