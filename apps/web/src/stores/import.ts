// The Data integration screen's state (spec §3 Integration (import) state, §4 Import flow): the
// chosen entity, file and mapping, the mapping being built (the draft), the server's read of the
// file (header, first records mapped, their problems), the upload with its progress and result,
// and the import log. Loading and error flags per spec §4: set at start,
// cleared at end; the error cleared at start (flow: isLoading/isUploading + error, log: isLoadingLogs/
// logsError, one log's details: isLoadingLogDetail/logDetailError).
import { create } from 'zustand';
import { entityInSentence, mappingFromProposal, readableName, type EntityMapping, type MappingConfig, type PreviewFileResponse, type RefusedChoices, type RowError } from '@stockwise/contract';
import * as importApi from '../api/import.ts';
import type { ImportLogEntry, ImportLogSummary, ImportResult } from '../api/import.ts';
import { normalizeError, type NormalizedError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';
import { columnsMissingFromFile, draftFrom, unmappedRequired, withColumn, withFieldValue, withJoinedColumns, withLearntDateFormat, withOptions, withValueMeanings, type MappingOptions, type ValueMeanings } from '../pages/settings/preview.ts';

export type MappingSummary = { name: string; description: string | null };
export type ServerProgress = { rowsDone: number; bytesDone: number; bytesTotal: number | null };

export type ImportState = {
  selectedFile: File | null;
  selectedMapping: string | null;
  mappingConfig: MappingConfig | null;
  /** The entity the file goes into (one of the configuration's `inventory.entities`). */
  entityType: string;
  entities: importApi.EntitySummary[];
  /** The mapping for `entityType` as the user has it now: the saved one's, the proposed one, or edited. */
  draft: EntityMapping | null;
  /** The server's read of the file through the draft. */
  previewData: PreviewFileResponse | null;
  /** Entity types the selected mapping fills. */
  availableEntities: string[];
  availableMappings: MappingSummary[];
  isSaving: boolean;
  saveError: string | null;
  /** The name the draft was last saved under. */
  savedAs: string | null;
  /** Why the form left the chosen saved mapping for a new one built on the file's header. */
  mappingNotice: string | null;
  /**
   * The user chose the selected mapping (or saved it), rather than the form selecting the first one
   * by default (spec §5): only a mapping the user chose is named when the form leaves it — a default
   * the file cannot use is left without words (ADR 0193's amendment, F4).
   */
  mappingChosen: boolean;

  /** Mappings, a mapping's config or the preview are loading. */
  isLoading: boolean;
  isUploading: boolean;
  error: string | null;
  /** The server's or the parser's reason behind `error`, shown under it. */
  errorDetail: string | null;
  rowErrors: RowError[];
  rowErrorCount: number;
  /** The values the failed import refused as outside a column's choices, over the whole file. */
  refusedChoices: RefusedChoices[];
  uploadProgress: importApi.UploadProgress | null;
  serverProgress: ServerProgress | null;
  result: ImportResult | null;
  /** The file `result` is the import of (the file chosen is cleared by the import): what its undo names. */
  resultFileName: string;

  logs: ImportLogSummary[];
  isLoadingLogs: boolean;
  logsError: string | null;
  selectedLogId: string | null;
  logDetail: ImportLogEntry | null;
  isLoadingLogDetail: boolean;
  logDetailError: string | null;
};

export type ImportActions = {
  loadMappings: () => Promise<void>;
  selectMapping: (name: string | null) => Promise<void>;
  loadMappingConfig: (name: string) => Promise<void>;
  selectFile: (file: File | null) => Promise<void>;
  selectEntity: (name: string) => Promise<void>;
  /**
   * Says which row of the file holds the column names (kept in the draft) and reads the preview
   * again; a draft mapping columns that row does not name (or none) is proposed afresh from its names.
   */
  setHeaderRow: (row: number) => Promise<void>;
  /** Feeds a target field from a file column (null: from none) and reads the preview again. */
  setColumn: (field: string, column: string | null) => Promise<void>;
  /** Joins `columns` after the field's own column in their order (Item + Price Point Name, ADR 0193; Title + Option1 Value + …, ADR 0195), none with [], and reads the preview again. */
  setJoinedColumns: (field: string, columns: readonly string[]) => Promise<void>;
  setOptions: (options: MappingOptions) => Promise<void>;
  /** Gives a target field one value for every line instead of a file column, and reads the preview again. */
  setFieldValue: (field: string, value: string) => Promise<void>;
  /** Says in the draft's value maps what the file's values mean, and reads the preview again. */
  mapValues: (meanings: ValueMeanings) => Promise<void>;
  /** Saves the draft as a named mapping and selects it. */
  saveDraft: (name: string) => Promise<void>;
  generatePreview: () => Promise<void>;
  /** Uploads the file; the error is in the state and rethrown (spec §4). */
  submit: () => Promise<ImportResult>;
  cancelUpload: () => void;
  loadLogs: () => Promise<void>;
  selectLog: (id: string | null) => Promise<void>;
};

export type ImportStore = ImportState & ImportActions;

export const initialImportState: ImportState = {
  selectedFile: null,
  selectedMapping: null,
  mappingConfig: null,
  entityType: importApi.importEntityType,
  entities: [],
  draft: null,
  previewData: null,
  availableEntities: [],
  availableMappings: [],
  isSaving: false,
  saveError: null,
  savedAs: null,
  mappingNotice: null,
  mappingChosen: false,
  isLoading: false,
  isUploading: false,
  error: null,
  errorDetail: null,
  rowErrors: [],
  rowErrorCount: 0,
  refusedChoices: [],
  uploadProgress: null,
  serverProgress: null,
  result: null,
  resultFileName: '',
  logs: [],
  isLoadingLogs: false,
  logsError: null,
  selectedLogId: null,
  logDetail: null,
  isLoadingLogDetail: false,
  logDetailError: null,
};

/** Spec §5, §6: calls wait until the stored session has loaded and the user is logged in. */
export function isSessionReady(): boolean {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
}

/** Spec §5: what stops a submit, in the order checked; null when it may go. */
export function submitGuard(input: { file: File | null; draft: EntityMapping | null; sessionReady: boolean }): string | null {
  if (!input.file || !input.draft || Object.keys(input.draft.field_mappings).length === 0) return i18n.t('import.errors.required');
  if (!input.sessionReady) return i18n.t('import.errors.authNotReady');
  return null;
}

/** The log's name for an import through a mapping built or changed on the screen and not saved. */
export const UNSAVED_MAPPING_NAME = 'your column choices';

/** A value in JSON with object keys in order: drafts equal but for the order their keys were set in. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(canonical) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, canonical(inner)])) : value;

/**
 * The mapping an import went through, as its log names it: the saved mapping chosen, while the
 * draft is still what it says (or was just saved under it); once a column or option is changed by
 * hand, the user's own choices (a saved mapping the user merely started from is not what they used).
 */
export function mappingNameUsed({ selectedMapping, mappingConfig, savedAs, entityType, draft }: Pick<ImportState, 'selectedMapping' | 'mappingConfig' | 'savedAs' | 'entityType' | 'draft'>): string {
  if (!selectedMapping) return UNSAVED_MAPPING_NAME;
  if (savedAs === selectedMapping) return selectedMapping;
  const saved = draftFrom(mappingConfig, entityType);
  return saved && JSON.stringify(canonical(saved)) === JSON.stringify(canonical(draft)) ? selectedMapping : UNSAVED_MAPPING_NAME;
}

const noUploadErrors = { rowErrors: [] as RowError[], rowErrorCount: 0, refusedChoices: [] as RefusedChoices[] };
const entityTypesOf = (config: MappingConfig | null) => (config ? Object.keys(config.entities ?? {}) : []);
/** No saved mapping: the builder proposes one from the file's header, and the log names it unsaved. */
const newMapping = { selectedMapping: null, mappingConfig: null, availableEntities: [] as string[], draft: null, savedAs: null, mappingChosen: false };

function bodyOf(error: NormalizedError): Record<string, unknown> {
  const body = error.details.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

export const useImportStore = create<ImportStore>()((set, get) => {
  /** Only the latest preview, mapping load or upload may write its answer. */
  let previewSequence = 0;
  let mappingSequence = 0;
  let uploadAbort: AbortController | null = null;
  /** The row of column names the user chose, kept while a draft whose columns the file lacks is built afresh. */
  let headerRowToKeep: number | undefined;
  /** The header row was just changed: the draft's columns were names of another row. */
  let headerRowChanged = false;
  /**
   * A draft edit reads the preview again with the last one still shown: the builder stays mounted,
   * so the option or field just used keeps the focus (ADR 0196, F2). Import waits for the new one.
   */
  let keepPreviewShown = false;

  const adoptMapping = (name: string, config: MappingConfig) =>
    set((state) => {
      // A mapping with nothing for the chosen entity brings its own entity: what is imported is what it maps.
      const entityType = draftFrom(config, state.entityType) ? state.entityType : (entityTypesOf(config)[0] ?? state.entityType);
      return { selectedMapping: name, mappingConfig: config, availableEntities: entityTypesOf(config), entityType, draft: draftFrom(config, entityType), savedAs: null, saveError: null, mappingNotice: null };
    });
  const editDraft = async (change: (draft: EntityMapping) => EntityMapping) => {
    const draft = get().draft ?? { field_mappings: {} };
    set({ draft: change(draft), savedAs: null });
    keepPreviewShown = true;
    await get().generatePreview();
  };

  return {
    ...initialImportState,

    loadMappings: async () => {
      if (!isSessionReady()) {
        set({ error: i18n.t('import.errors.authNotReadyConfig'), errorDetail: null });
        return;
      }
      const sequence = ++mappingSequence;
      set({ isLoading: true, error: null, errorDetail: null });
      try {
        const answer = await importApi.fetchConfig();
        if (!answer.success) throw new Error(answer.message);
        const mappings = importApi.mappingsOf(answer.content);
        const availableMappings = Object.entries(mappings).map(([name, config]) => ({ name, description: config.description ?? null }));
        if (sequence !== mappingSequence) return;
        set({ availableMappings, entities: importApi.entitiesOf(answer.content), isLoading: false });
        // First available mapping selected by default (spec §5); a kept selection is refreshed.
        const current = get().selectedMapping;
        const name = current && mappings[current] ? current : (availableMappings[0]?.name ?? null);
        if (name !== current) set({ mappingChosen: false });
        if (name) adoptMapping(name, mappings[name] as MappingConfig);
        else set({ selectedMapping: null, mappingConfig: null, availableEntities: [], draft: null });
        if (get().selectedFile) await get().generatePreview();
      } catch (error) {
        if (sequence !== mappingSequence) return;
        set({ isLoading: false, error: i18n.t('import.errors.loadMappings'), errorDetail: normalizeError(error).message || null });
      }
    },

    selectMapping: async (name) => {
      set({ mappingChosen: name !== null });
      if (!name) {
        ++mappingSequence;
        set({ ...newMapping, mappingNotice: null });
        await get().generatePreview();
        return;
      }
      await get().loadMappingConfig(name);
      // A config that failed to load keeps its own message; the preview follows a loaded one.
      if (get().selectedMapping === name && get().mappingConfig && get().selectedFile) await get().generatePreview();
    },

    loadMappingConfig: async (name) => {
      if (!isSessionReady()) {
        set({ error: i18n.t('import.errors.authNotReadyConfig'), errorDetail: null });
        return;
      }
      const sequence = ++mappingSequence;
      // The mapping is chosen now; its config follows (the file's preview waits for it).
      set({ selectedMapping: name, mappingConfig: null, availableEntities: [], draft: null, mappingNotice: null, previewData: null, isLoading: true, error: null, errorDetail: null, result: null, ...noUploadErrors });
      try {
        const answer = await importApi.fetchConfig();
        if (!answer.success) throw new Error(answer.message);
        if (sequence !== mappingSequence) return;
        const config = importApi.mappingsOf(answer.content)[name];
        if (!config) {
          set({ isLoading: false, error: i18n.t('import.errors.mappingConfigNotFound', { name }) });
          return;
        }
        adoptMapping(name, config);
        set({ isLoading: false });
      } catch (error) {
        if (sequence !== mappingSequence) return;
        set({ isLoading: false, error: i18n.t('import.errors.loadMappingConfig'), errorDetail: normalizeError(error).message || null });
      }
    },

    selectFile: async (file) => {
      ++previewSequence;
      // The mapping notice spoke of the file: without one, it has nothing to say.
      set({ selectedFile: file, previewData: null, error: null, errorDetail: null, result: null, ...noUploadErrors, ...(file ? {} : { mappingNotice: null }) });
      if (file) await get().generatePreview();
    },

    selectEntity: async (name) => {
      const { mappingConfig, selectedMapping, mappingChosen } = get();
      const draft = draftFrom(mappingConfig, name);
      const change = { entityType: name, previewData: null, result: null, ...noUploadErrors };
      // A saved mapping with nothing for this entity cannot be the one imported through: a new one is built (named only if the user chose it).
      if (mappingConfig && selectedMapping && !draft) set({ ...change, ...newMapping, mappingNotice: mappingChosen ? i18n.t('import.mapping.noEntityPart', { name: readableName(selectedMapping), entity: entityInSentence(name) }) : null });
      else set({ ...change, draft, savedAs: null, mappingNotice: null });
      await get().generatePreview();
    },

    setColumn: (field, column) => editDraft((draft) => withColumn(draft, field, column)),
    setJoinedColumns: (field, columns) => editDraft((draft) => withJoinedColumns(draft, field, columns)),
    setOptions: (options) => editDraft((draft) => withOptions(draft, options)),
    setFieldValue: (field, value) => editDraft((draft) => withFieldValue(draft, field, value)),
    setHeaderRow: (row) => {
      headerRowChanged = true;
      return editDraft((draft) => ({ ...draft, header_row: row }));
    },
    mapValues: (meanings) => editDraft((draft) => withValueMeanings(draft, meanings)),

    saveDraft: async (rawName) => {
      const name = rawName.trim();
      const { draft: edited, entityType, previewData } = get();
      if (!edited) return;
      if (!name) {
        set({ saveError: i18n.t('import.builder.nameRequired') });
        return;
      }
      set({ isSaving: true, saveError: null });
      const draft = withLearntDateFormat(edited, previewData);
      try {
        const saved = await importApi.saveMapping(name, { entities: { [entityType]: draft } });
        set((state) => ({
          isSaving: false,
          draft,
          savedAs: name,
          mappingNotice: null,
          mappingChosen: true,
          selectedMapping: name,
          mappingConfig: saved,
          availableEntities: entityTypesOf(saved),
          availableMappings: [...state.availableMappings.filter((mapping) => mapping.name !== name), { name, description: saved.description ?? null }],
        }));
      } catch (error) {
        set({ isSaving: false, saveError: normalizeError(error).message || i18n.t('import.builder.saveFailed') });
      }
    },

    generatePreview: async () => {
      const { selectedFile: file, selectedMapping: name, mappingConfig, entityType, draft, mappingChosen } = get();
      const keepShown = keepPreviewShown;
      keepPreviewShown = false;
      if (!file) return;
      const headerRow = headerRowToKeep;
      const rowChanged = headerRowChanged;
      headerRowToKeep = undefined;
      headerRowChanged = false;
      const sequence = ++previewSequence;
      set({ isLoading: true, error: null, errorDetail: null, ...(keepShown ? {} : { previewData: null }) });
      const fail = (error: string, errorDetail: string | null = null) => {
        if (sequence === previewSequence) set({ isLoading: false, error, errorDetail, previewData: null });
      };
      // A chosen mapping whose config has not arrived: the preview follows it.
      if (name && !mappingConfig) return fail(i18n.t('import.errors.mappingConfigMissing', { name }));
      try {
        // Named as the import would be (mappingNameUsed): the preview says which of its earlier sales the file would replace.
        const previewData = await importApi.previewImportFile(file, entityType, draft, { headerRow: draft ? undefined : headerRow, mappingName: mappingNameUsed(get()) });
        if (sequence !== previewSequence) return;
        const missing = columnsMissingFromFile(previewData, draft);
        const namesOfAnotherRow = rowChanged && draft !== null && (missing.columns.length > 0 || Object.keys(draft.field_mappings).length === 0);
        if (missing.required || namesOfAnotherRow) {
          // The server would refuse the file through this draft: start afresh from the file's own header (saying why only of a mapping the user chose).
          set({ ...newMapping, mappingNotice: name && mappingChosen && missing.columns.length ? i18n.t('import.mapping.columnsNotInFile', { name: readableName(name), columns: missing.columns.join(', ') }) : null });
          headerRowToKeep = draft?.header_row;
          // Read afresh with the last preview still shown, as the edit that led here was: the row chooser keeps the focus.
          keepPreviewShown = keepShown;
          return get().generatePreview();
        }
        // Nothing mapped yet: start from the columns whose names match the targets.
        set({ isLoading: false, previewData, ...(draft ? {} : { draft: mappingFromProposal(previewData, headerRow) }) });
      } catch (error) {
        fail(i18n.t('import.errors.previewFailed'), normalizeError(error).message || null);
      }
    },

    submit: async () => {
      const { selectedFile: file, draft, entityType, previewData } = get();
      const blocked = submitGuard({ file, draft, sessionReady: isSessionReady() }) ?? (previewData && unmappedRequired(previewData.targets, draft).length ? i18n.t('import.errors.requiredTargets') : null);
      if (blocked || !file || !draft) {
        const message = blocked ?? i18n.t('import.errors.required');
        set({ error: message, errorDetail: null, ...noUploadErrors });
        throw new Error(message);
      }
      if (get().isUploading) throw new Error(i18n.t('import.errors.busy'));
      const importId = crypto.randomUUID();
      const abort = new AbortController();
      uploadAbort = abort;
      set({ isUploading: true, error: null, errorDetail: null, result: null, ...noUploadErrors, uploadProgress: { loaded: 0, total: file.size }, serverProgress: null });

      // Server-side progress: the import log entry of this import, polled while the upload runs.
      let polling = true;
      const poll = async () => {
        let listed = false;
        while (polling) {
          await new Promise((resolve) => setTimeout(resolve, importApi.importProgressPollMs));
          if (!polling) return;
          try {
            const entry = await importApi.fetchImportLog(importId);
            if (!polling) return;
            set({ serverProgress: { rowsDone: entry.progress.rows_done, bytesDone: entry.progress.bytes_done, bytesTotal: entry.progress.bytes_total } });
            // The running import appears in the log list once the server has it (on PostgreSQL at
            // once; embedded PGlite answers the list only after the import's transaction ends).
            if (!listed) void get().loadLogs();
            listed = true;
          } catch {
            // Not logged yet (404 until the server has read the fields) or a passing failure: ask again.
          }
        }
      };
      void poll();

      try {
        const result = await importApi.uploadImport({
          importId,
          file,
          mappingConfig: { entities: { [entityType]: draft } },
          mappingName: mappingNameUsed(get()),
          entityType,
          signal: abort.signal,
          onUploadProgress: (progress) => set({ uploadProgress: progress }),
        });
        polling = false;
        // Spec §4: success clears the preview and the error (and the file the preview was of).
        set({ isUploading: false, result, resultFileName: file.name, previewData: null, selectedFile: null, mappingNotice: null, error: null, errorDetail: null, serverProgress: { rowsDone: result.counts.rows, bytesDone: file.size, bytesTotal: file.size } });
        void get().loadLogs();
        return result;
      } catch (caught) {
        polling = false;
        const error = normalizeError(caught);
        const body = bodyOf(error);
        const rowErrors = Array.isArray(body['row_errors']) ? (body['row_errors'] as RowError[]) : [];
        const rowErrorCount = typeof body['row_error_count'] === 'number' ? body['row_error_count'] : rowErrors.length;
        const refusedChoices = Array.isArray(body['refused_choices']) ? (body['refused_choices'] as RefusedChoices[]) : [];
        const cancelled = abort.signal.aborted;
        // 413: the server's own message says it all. Rows refused: the upload worked, and the title
        // says so ("Failed to upload data." would send her to check her connection); otherwise the
        // spec's message with the server's reason.
        const message = cancelled
          ? i18n.t('import.errors.cancelled')
          : error.details.status === 413
            ? error.message
            : rowErrorCount > 0
              ? i18n.t('import.errors.rowsRefused')
              : i18n.t('import.errors.uploadFailed');
        const detail = cancelled || error.details.status === 413 ? null : error.message || null;
        set({ isUploading: false, error: message, errorDetail: detail, rowErrors, rowErrorCount, refusedChoices });
        // The server recorded the failed import in its log (spec §4): show it.
        void get().loadLogs();
        throw error;
      } finally {
        if (uploadAbort === abort) uploadAbort = null;
      }
    },

    cancelUpload: () => uploadAbort?.abort(),

    loadLogs: async () => {
      if (!isSessionReady()) return;
      set({ isLoadingLogs: true, logsError: null });
      try {
        const logs = await importApi.fetchImportLogs();
        // Newest first, whatever order the server used.
        logs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        set({ logs, isLoadingLogs: false });
      } catch (error) {
        console.warn(`Import log: ${normalizeError(error).message}`);
        set({ isLoadingLogs: false, logsError: i18n.t('import.errors.logs') });
      }
    },

    selectLog: async (id) => {
      if (!id) {
        set({ selectedLogId: null, logDetail: null, logDetailError: null, isLoadingLogDetail: false });
        return;
      }
      if (!isSessionReady()) return;
      set({ selectedLogId: id, logDetail: null, isLoadingLogDetail: true, logDetailError: null });
      try {
        const logDetail = await importApi.fetchImportLog(id);
        if (get().selectedLogId === id) set({ logDetail, isLoadingLogDetail: false });
      } catch (error) {
        console.warn(`Import ${id}: ${normalizeError(error).message}`);
        if (get().selectedLogId === id) set({ isLoadingLogDetail: false, logDetailError: i18n.t('import.errors.logDetail') });
      }
    },
  };
});
