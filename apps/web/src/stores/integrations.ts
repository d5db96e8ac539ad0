// The scheduled integrations of the Settings screen (spec §3, §4, §8): the list, the editor dialog
// (open or closed; closing clears the edited item and its errors; changing the mapping loads that
// mapping's configuration), the enabled switch (optimistic, reverted when the update fails), run
// now (running at once, then the status is polled), delete, and one integration's run log.
// Loading and error flags per spec §4: list isLoading/error, editor isSaving/error/fieldErrors,
// mapping isLoadingMapping, log isLoadingLogs/logsError; actionError for toggle, run and delete.
// The editor saves, and the list deletes and switches, at the version they read (ADR 0168's
// amendments): a refusal keeps the draft, says who saved meanwhile, and Reload puts the integration
// as it is now in the form; the list shows a refused one as it is now, with the sentence and Reload.
import { create } from 'zustand';
import type { Integration, IntegrationLogEntry, MappingConfig } from '@stockwise/contract';
import { INTEGRATION_LOG_PAGE_SIZE } from '@stockwise/contract';
import * as integrationsApi from '../api/integrations.ts';
import { entitiesOf as inventoryEntitiesOf, fetchConfig, mappingsOf } from '../api/import.ts';
import { normalizeError } from '../api/errors.ts';
import { currentOfConflict } from '../api/versions.ts';
import { i18n } from '../i18n.ts';
import { countProblems, draftOf, newIntegrationDraft, saveErrorMessage, toSavePayload, type IntegrationDraft } from '../pages/settings/integration-form.ts';
import { formatCount } from '../pages/settings/format.ts';
import { isSessionReady } from './import.ts';
import { useShopStore } from './shop.ts';

/** How often a run started here is polled, and for how long at most. */
const RUN_POLL_MS = 1000;
const RUN_POLL_LIMIT_MS = 15 * 60_000;

/** `savedMeanwhile`: refused as changed since the list was read (the list then shows it as it is now; Reload reads it all again). */
export type Failure = { message: string; detail: string | null; savedMeanwhile?: true };

export type IntegrationsState = {
  integrations: Integration[];
  isLoading: boolean;
  error: Failure | null;
  /** Mapping names of the configuration. */
  mappingNames: string[];
  /** The entities each mapping of the configuration fills (what a chosen kind of data can be read with). */
  mappingEntities: Record<string, string[]>;
  /** The inventory entities of the configuration (what trying the endpoint can map onto). */
  entityNames: string[];
  /** The failure of a toggle, run or delete (spec §8 message with the server's reason). */
  actionError: Failure | null;

  editorOpen: boolean;
  /** The integration being edited; null for a new one. */
  editing: Integration | null;
  draft: IntegrationDraft | null;
  /** The selected mapping's configuration (its entities are the targets it can fill). */
  mappingConfig: MappingConfig | null;
  isLoadingMapping: boolean;
  isSaving: boolean;
  editorError: Failure | null;
  fieldErrors: Record<string, string[]>;
  /** The integration as someone else saved it after the editor opened it: the save was refused for it; Reload puts it in the form. */
  savedMeanwhile: Integration | null;

  logsFor: number | null;
  logs: IntegrationLogEntry[];
  logsCount: number;
  logsPage: number;
  logsNext: number | null;
  isLoadingLogs: boolean;
  logsError: Failure | null;
};

export type IntegrationsActions = {
  load: () => Promise<void>;
  openEditor: (integration: Integration | null) => Promise<void>;
  closeEditor: () => void;
  updateDraft: (patch: Partial<IntegrationDraft>) => void;
  selectMapping: (name: string) => Promise<void>;
  /** What the endpoint's data is (the entity it fills): the mapping moves to the first one filling it, none when none does. */
  selectTarget: (entity: string) => Promise<void>;
  save: () => Promise<boolean>;
  /** After a refused save: the integration as it is now, in place of the draft (saving then starts from their change). */
  reloadEditing: () => Promise<void>;
  remove: (id: number) => Promise<boolean>;
  toggle: (id: number) => Promise<void>;
  /** After a refused delete or switch: every integration as it is now, and the refusal dismissed. */
  reloadList: () => Promise<void>;
  runNow: (id: number) => Promise<void>;
  openLogs: (id: number | null) => Promise<void>;
  /** `quiet`: a poll's refresh while a run goes, shown without the loading state (no spinner each second). */
  loadLogs: (page: number, options?: { quiet?: boolean }) => Promise<void>;
};

export const initialIntegrationsState: IntegrationsState = {
  integrations: [],
  isLoading: false,
  error: null,
  mappingNames: [],
  mappingEntities: {},
  entityNames: [],
  actionError: null,
  editorOpen: false,
  editing: null,
  draft: null,
  mappingConfig: null,
  isLoadingMapping: false,
  isSaving: false,
  editorError: null,
  fieldErrors: {},
  savedMeanwhile: null,
  logsFor: null,
  logs: [],
  logsCount: 0,
  logsPage: 1,
  logsNext: null,
  isLoadingLogs: false,
  logsError: null,
};

/** The spec's message as it is, and the server's reason beside it (shown under it). */
export const failure = (message: string, error: unknown): Failure => ({ message, detail: normalizeError(error).message || null });

const entitiesOf = (config: MappingConfig | null | undefined) => Object.keys(config?.entities ?? {});

/**
 * What a new integration starts as reading (ADR 0060 amendment 2026-12-06): a scheduled pull is most
 * often a shop's orders, so sales when the configuration has it; the user's first choice after the address.
 */
export const NEW_INTEGRATION_ENTITY = 'sales';
/** The first mapping (in the configuration's order) that fills `entity`, '' when none does. */
export const firstMappingFor = (mappingEntities: Record<string, string[]>, entity: string) => Object.keys(mappingEntities).find((name) => mappingEntities[name]?.includes(entity)) ?? '';

export const useIntegrationsStore = create<IntegrationsState & IntegrationsActions>()((set, get) => {
  let mappingSequence = 0;
  let logsSequence = 0;
  const polling = new Set<number>();

  const replace = (integration: Integration) => set({ integrations: get().integrations.map((item) => (item.id === integration.id ? integration : item)) });
  const patch = (id: number, changes: Partial<Integration>) => set({ integrations: get().integrations.map((item) => (item.id === id ? { ...item, ...changes } : item)) });
  /** A delete's or switch's failure; refused as saved since it was read, the list takes the integration as it is now. */
  const listActionFailure = (message: string, error: unknown): Failure => {
    const current = currentOfConflict<Integration>(normalizeError(error));
    if (!current) return failure(message, error);
    replace(current);
    return { ...failure(message, error), savedMeanwhile: true };
  };

  /** The mappings of the configuration (spec §5: the first one is a new integration's default). */
  const loadMappings = async (): Promise<Record<string, MappingConfig>> => {
    const answer = await fetchConfig();
    if (!answer.success) throw new Error(answer.message);
    const mappings = mappingsOf(answer.content);
    set({
      mappingNames: Object.keys(mappings),
      mappingEntities: Object.fromEntries(Object.entries(mappings).map(([name, config]) => [name, entitiesOf(config)])),
      entityNames: inventoryEntitiesOf(answer.content).map((entity) => entity.name),
    });
    return mappings;
  };

  /**
   * Polls a run's status until it is neither queued nor running (spec §4: run, then fetch the status).
   * After "Run now" it also waits for the run to be recorded: a status read before the worker has
   * taken the job can still say idle with the previous run's time.
   */
  const pollRun = async (id: number, previousRunTime?: string | null) => {
    if (polling.has(id)) return;
    polling.add(id);
    const deadline = Date.now() + RUN_POLL_LIMIT_MS;
    try {
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
        if (!get().integrations.some((item) => item.id === id)) return;
        try {
          const status = await integrationsApi.fetchIntegrationStatus(id);
          patch(id, status);
          const recorded = previousRunTime === undefined || status.last_run_time !== previousRunTime || status.status === 'failed';
          if (status.status !== 'queued' && status.status !== 'running' && recorded) {
            if (get().logsFor === id) await get().loadLogs(1);
            return;
          }
          // The runs shown follow a retry's progress too: the newest run is on the first page.
          if (status.status === 'running' && get().logsFor === id && get().logsPage === 1) await get().loadLogs(1, { quiet: true });
        } catch (error) {
          // A deleted integration ends the poll; a passing failure asks again.
          if (normalizeError(error).details.status === 404) return;
        }
      }
    } finally {
      polling.delete(id);
    }
  };

  return {
    ...initialIntegrationsState,

    load: async () => {
      if (!isSessionReady()) return;
      set({ isLoading: true, error: null });
      try {
        const integrations = await integrationsApi.fetchIntegrations();
        set({ integrations, isLoading: false });
        // Runs started elsewhere (another tab, the schedule) are followed too.
        for (const item of integrations) if (item.status === 'queued' || item.status === 'running') void pollRun(item.id);
      } catch (error) {
        set({ isLoading: false, error: failure(i18n.t('integrations.errors.fetch'), error) });
      }
    },

    openEditor: async (integration) => {
      const sequence = ++mappingSequence;
      // The form shows at once (its first field takes the focus); the mappings fill in when loaded.
      const draft = integration ? draftOf(integration) : newIntegrationDraft(null, () => [], useShopStore.getState().timeZone);
      set({ editorOpen: true, editing: integration, draft, mappingConfig: null, isLoadingMapping: true, editorError: null, fieldErrors: {}, savedMeanwhile: null });
      try {
        const mappings = await loadMappings();
        if (sequence !== mappingSequence) return;
        // A new integration starts on sales, a shop's orders, with the first mapping reading them; where
        // none does, on the first available mapping and what it reads (spec §5: a mapping is always selected).
        if (!integration && !get().draft?.mapping_selection && !get().draft?.target_entity) {
          const salesMapping = firstMappingFor(get().mappingEntities, NEW_INTEGRATION_ENTITY);
          const mapping = salesMapping || (Object.keys(mappings)[0] ?? '');
          get().updateDraft({ mapping_selection: mapping, target_entity: salesMapping ? NEW_INTEGRATION_ENTITY : (entitiesOf(mappings[mapping])[0] ?? '') });
        }
        set({ mappingConfig: mappings[get().draft?.mapping_selection ?? ''] ?? null, isLoadingMapping: false });
      } catch (error) {
        if (sequence !== mappingSequence) return;
        set({ isLoadingMapping: false, editorError: failure(i18n.t('integrations.errors.loadMappings'), error) });
      }
    },

    closeEditor: () => {
      ++mappingSequence;
      set({ editorOpen: false, editing: null, draft: null, mappingConfig: null, isLoadingMapping: false, isSaving: false, editorError: null, fieldErrors: {}, savedMeanwhile: null });
    },

    updateDraft: (changes) => {
      const draft = get().draft;
      if (draft) set({ draft: { ...draft, ...changes } });
    },

    selectMapping: async (name) => {
      const sequence = ++mappingSequence;
      get().updateDraft({ mapping_selection: name });
      set({ mappingConfig: null, isLoadingMapping: true, editorError: null });
      try {
        const config = (await loadMappings())[name];
        if (sequence !== mappingSequence) return;
        if (!config) {
          set({ isLoadingMapping: false, editorError: { message: i18n.t('integrations.errors.mappingNotFound', { name }), detail: null } });
          return;
        }
        const targets = entitiesOf(config);
        const current = get().draft?.target_entity ?? '';
        get().updateDraft({ target_entity: targets.includes(current) ? current : (targets[0] ?? '') });
        set({ mappingConfig: config, isLoadingMapping: false });
      } catch (error) {
        if (sequence !== mappingSequence) return;
        set({ isLoadingMapping: false, editorError: failure(i18n.t('integrations.errors.loadMappings'), error) });
      }
    },

    selectTarget: async (entity) => {
      get().updateDraft({ target_entity: entity });
      const current = get().draft?.mapping_selection ?? '';
      if (get().mappingEntities[current]?.includes(entity)) return;
      const mapping = firstMappingFor(get().mappingEntities, entity);
      if (mapping) {
        await get().selectMapping(mapping);
        return;
      }
      ++mappingSequence;
      get().updateDraft({ mapping_selection: '' });
      set({ mappingConfig: null, isLoadingMapping: false });
    },

    save: async () => {
      const { draft, editing } = get();
      if (!draft) return false;
      const problems = countProblems(draft, (max) => i18n.t('integrations.editor.countRange', { max: formatCount(max) }));
      if (Object.keys(problems).length) {
        set({ fieldErrors: problems, editorError: { message: saveErrorMessage(i18n.t('integrations.errors.save'), problems, i18n.t), detail: null } });
        return false;
      }
      set({ isSaving: true, editorError: null, fieldErrors: {} });
      try {
        const payload = toSavePayload(draft);
        const saved = editing ? await integrationsApi.updateIntegration(editing.id, payload, editing.version) : await integrationsApi.createIntegration(payload);
        set({ integrations: editing ? get().integrations.map((item) => (item.id === saved.id ? saved : item)) : [...get().integrations, saved] });
        get().closeEditor();
        return true;
      } catch (error) {
        const normalized = normalizeError(error);
        const fieldErrors = normalized.details.fieldErrors;
        // What was typed stays in the form; the list shows the integration as it is now.
        const current = currentOfConflict<Integration>(normalized);
        if (current) replace(current);
        set({
          isSaving: false,
          fieldErrors,
          savedMeanwhile: current,
          editorError: { message: saveErrorMessage(i18n.t('integrations.errors.save'), fieldErrors, i18n.t), detail: Object.keys(fieldErrors).length ? null : normalized.message || null },
        });
        return false;
      }
    },

    reloadEditing: async () => {
      const { savedMeanwhile, draft } = get();
      if (!savedMeanwhile) return;
      set({ editing: savedMeanwhile, draft: draftOf(savedMeanwhile), savedMeanwhile: null, editorError: null, fieldErrors: {} });
      // Their change may be another mapping: its configuration (the targets) is loaded with it.
      if (savedMeanwhile.mapping_selection !== draft?.mapping_selection) await get().selectMapping(savedMeanwhile.mapping_selection);
    },

    remove: async (id) => {
      set({ actionError: null });
      try {
        // At the version the list shows: an integration saved since is not deleted unseen.
        await integrationsApi.deleteIntegration(id, get().integrations.find((item) => item.id === id)?.version);
        set({ integrations: get().integrations.filter((item) => item.id !== id), ...(get().logsFor === id ? { logsFor: null, logs: [] } : {}) });
        return true;
      } catch (error) {
        // Refused as saved since: the list shows it as it is now, and a second Delete means that one.
        set({ actionError: listActionFailure(i18n.t('integrations.errors.delete'), error) });
        return false;
      }
    },

    toggle: async (id) => {
      const before = get().integrations.find((item) => item.id === id);
      if (!before) return;
      set({ actionError: null });
      // Spec §4: switched at once, put back if the server refuses.
      patch(id, { enabled: !before.enabled });
      try {
        // At the version the list shows: a list read before someone's save or the runs' pause cannot switch it back unseen.
        replace(await integrationsApi.updateIntegration(id, { enabled: !before.enabled }, before.version));
      } catch (error) {
        patch(id, { enabled: before.enabled });
        set({ actionError: listActionFailure(i18n.t('integrations.errors.toggle'), error) });
      }
    },

    reloadList: async () => {
      set({ actionError: null });
      await get().load();
    },

    runNow: async (id) => {
      const before = get().integrations.find((item) => item.id === id);
      if (!before) return;
      set({ actionError: null });
      // Spec §4: a manual run shows running at once; then the status is fetched until it ends.
      patch(id, { status: 'running' });
      try {
        await integrationsApi.runIntegration(id);
      } catch (error) {
        const refusal = normalizeError(error);
        // Refused for the user's role, the run never started: the integration stays as it was.
        if (refusal.details.status === 403) {
          patch(id, { status: before.status });
          set({ actionError: { message: i18n.t('integrations.errors.run'), detail: [i18n.t('integrations.errors.runForbidden'), refusal.message].filter(Boolean).join(' ') } });
          return;
        }
        patch(id, { status: 'failed', last_error_message: refusal.message || before.last_error_message });
        set({ actionError: failure(i18n.t('integrations.errors.run'), error) });
        return;
      }
      await pollRun(id, before.last_run_time);
    },

    openLogs: async (id) => {
      set({ logsFor: id, logs: [], logsCount: 0, logsPage: 1, logsNext: null, logsError: null });
      if (id !== null) await get().loadLogs(1);
    },

    loadLogs: async (page, options) => {
      const id = get().logsFor;
      if (id === null) return;
      const sequence = ++logsSequence;
      if (!options?.quiet) set({ isLoadingLogs: true, logsError: null });
      try {
        const answer = await integrationsApi.fetchIntegrationLogs(id, page, INTEGRATION_LOG_PAGE_SIZE);
        if (sequence !== logsSequence) return;
        set({ logs: answer.results, logsCount: answer.count, logsPage: page, logsNext: answer.next, isLoadingLogs: false });
      } catch (error) {
        if (sequence !== logsSequence) return;
        set({ isLoadingLogs: false, logsError: failure(i18n.t('integrations.errors.logs', { id }), error) });
      }
    },
  };
});
