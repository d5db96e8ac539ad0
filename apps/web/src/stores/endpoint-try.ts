// "Try the endpoint" in the integration editor: the endpoint's first page fetched with the draft's
// request settings (nothing saved), the mapping the server proposes from its records, changed one
// field or rule at a time (each change tried again, so the rows show what the new path reads), and saving
// that mapping under a name, which the editor then selects. Opened afresh with each editor.
import { mappingFromProposal } from '@stockwise/contract';
import { create } from 'zustand';
import type { EntityMapping, IntegrationTryResponse } from '@stockwise/contract';
import * as integrationsApi from '../api/integrations.ts';
import { saveMapping } from '../api/import.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { toTryPayload } from '../pages/settings/integration-form.ts';
import { withColumn, withJoinedColumns, withOptions, type MappingOptions } from '../pages/settings/preview.ts';
import { failure, useIntegrationsStore, type Failure } from './integrations.ts';

export type EndpointTryState = {
  tried: IntegrationTryResponse | null;
  /** The entity to map onto: chosen here (any inventory entity), else the editor's target. */
  entity: string | null;
  /** The proposal, as changed since: target field → source path. */
  mapping: EntityMapping | null;
  isTrying: boolean;
  tryError: Failure | null;
  isSavingMapping: boolean;
  saveMappingError: string | null;
  savedAs: string | null;
};

export type EndpointTryActions = {
  /** Tries the endpoint with the editor's draft and starts from the server's proposal. */
  tryEndpoint: () => Promise<void>;
  /** Maps onto another entity: a shown answer is tried again for a proposal onto it. */
  chooseEntity: (entity: string) => Promise<void>;
  /** Takes the records path proposed (one record per line of each order) into the editor and tries again for its proposal. */
  readLines: (recordsPath: string) => Promise<void>;
  /** Reads `field` from `path` (or from nothing) and tries the endpoint again with that mapping. */
  setPath: (field: string, path: string | null) => Promise<void>;
  /** Joins `paths` after `field`'s own (a line's name: Item followed by Price Point Name, ADR 0201 F6) and tries again. */
  setJoinedColumns: (field: string, paths: readonly string[]) => Promise<void>;
  /**
   * Changes the mapping's rules (its row filters, skipping lines without a product code, knowing
   * them by their name, the code in brackets) and tries the endpoint again with them.
   */
  setRules: (rules: MappingOptions) => Promise<void>;
  /** Saves the mapping as `name` for the tried entity and selects it in the editor. */
  saveAsMapping: (name: string) => Promise<boolean>;
  reset: () => void;
};

export const initialEndpointTryState: EndpointTryState = {
  tried: null,
  entity: null,
  mapping: null,
  isTrying: false,
  tryError: null,
  isSavingMapping: false,
  saveMappingError: null,
  savedAs: null,
};

export const useEndpointTryStore = create<EndpointTryState & EndpointTryActions>()((set, get) => {
  let sequence = 0;

  /** One try: the answer replaces the last one; only the latest try's answer or failure is shown. */
  const run = async (mapping: EntityMapping | null) => {
    const { draft, editing } = useIntegrationsStore.getState();
    if (!draft) return;
    const current = ++sequence;
    const entity = get().entity ?? draft.target_entity;
    set({ isTrying: true, tryError: null, savedAs: null, saveMappingError: null });
    try {
      const tried = await integrationsApi.tryEndpoint(toTryPayload(draft, entity, editing?.id ?? null, mapping));
      if (current !== sequence) return;
      set({ tried, entity, mapping: mapping ?? mappingFromProposal(tried), isTrying: false });
    } catch (error) {
      // The server's words say what to change (the records path, the auth header, an address it may not fetch).
      if (current === sequence) set({ isTrying: false, tried: null, tryError: failure(i18n.t('integrations.try.failed'), error) });
    }
  };

  /** The mapping changed (shown at once) and tried again with the change. */
  const edit = async (change: (mapping: EntityMapping) => EntityMapping) => {
    const { mapping } = get();
    if (!mapping) return;
    const changed = change(mapping);
    set({ mapping: changed });
    await run(changed);
  };

  return {
    ...initialEndpointTryState,

    tryEndpoint: () => run(null),

    chooseEntity: async (entity) => {
      set({ entity });
      if (get().tried) await run(null);
    },

    readLines: async (recordsPath) => {
      useIntegrationsStore.getState().updateDraft({ records_path: recordsPath });
      await run(null);
    },

    setPath: (field, path) => edit((mapping) => withColumn(mapping, field, path)),

    setJoinedColumns: (field, paths) => edit((mapping) => withJoinedColumns(mapping, field, paths)),

    // An option turned off is left out, as the import's draft leaves it out.
    setRules: (rules) => edit((mapping) => withOptions(mapping, rules)),

    saveAsMapping: async (rawName) => {
      const name = rawName.trim();
      const { mapping, entity } = get();
      if (!mapping || !entity) return false;
      if (!name) {
        set({ saveMappingError: i18n.t('import.builder.nameRequired') });
        return false;
      }
      set({ isSavingMapping: true, saveMappingError: null });
      try {
        await saveMapping(name, { entities: { [entity]: mapping } });
        set({ isSavingMapping: false, savedAs: name });
        await useIntegrationsStore.getState().selectMapping(name);
        return true;
      } catch (error) {
        set({ isSavingMapping: false, saveMappingError: normalizeError(error).message || i18n.t('import.builder.saveFailed') });
        return false;
      }
    },

    reset: () => {
      ++sequence;
      set(initialEndpointTryState);
    },
  };
});
