// The Reports screen's state (spec §3 Report screen state: reportData, selectedReport, error,
// loading; §4 report editor): the list, the selected report and its unsaved draft, the last run,
// the readable schema, and one busy/error pair per operation (save, create, delete, run, generate,
// regenerate). Loading is set at start and cleared at end; errors are cleared at start.
import { create } from 'zustand';
import { REPORT_DEFAULTS, type ChartConfig, type ExecuteResponse, type ReadableRelation, type UserReport } from '@stockwise/contract';
import * as reportsApi from '../api/reports.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';

export type ReportDraft = { title: string; description: string; sql_code: string; chart_config: ChartConfig | null; pseudocode: string };
export type Operation = 'save' | 'create' | 'delete' | 'run' | 'generate' | 'regenerate';
/** The spec's message, and the server's reason when there is one (shown under it). */
export type OperationState = { busy: boolean; error: string | null; detail: string | null };

export type ReportsState = {
  reportData: UserReport[];
  selectedReport: UserReport | null;
  error: string | null;
  loading: boolean;
  draft: ReportDraft | null;
  execution: ExecuteResponse | null;
  /** The SQL `execution` ran: when the draft's differs, its rows are not the draft's (not exported as its). */
  executedSql: string | null;
  schema: ReadableRelation[];
  operations: Record<Operation, OperationState>;
  /** What the last applied change request left out (the server's notice), until the next one or another report. */
  generateNotice: string | null;
};

export type ReportsActions = {
  loadReports: () => Promise<void>;
  selectReport: (id: number) => Promise<void>;
  updateDraft: (changes: Partial<ReportDraft>) => void;
  createReport: () => Promise<void>;
  saveReport: () => Promise<void>;
  deleteReport: () => Promise<void>;
  runSql: () => Promise<void>;
  applyChangeRequest: (changeRequest: string) => Promise<void>;
  regenerateSql: () => Promise<void>;
  loadSchema: () => Promise<void>;
};

const idle: OperationState = { busy: false, error: null, detail: null };
const idleOperations: Record<Operation, OperationState> = { save: idle, create: idle, delete: idle, run: idle, generate: idle, regenerate: idle };

export const initialReportsState: ReportsState = {
  reportData: [],
  selectedReport: null,
  error: null,
  loading: false,
  draft: null,
  execution: null,
  executedSql: null,
  schema: [],
  operations: idleOperations,
  generateNotice: null,
};

const draftOf = (report: UserReport): ReportDraft => ({
  title: report.title,
  description: report.description,
  sql_code: report.sql_code,
  chart_config: report.chart_config,
  pseudocode: report.pseudocode,
});

/** The editor's draft as the AI calls name it (spec §7 current_*). */
const currentFieldsOf = (draft: ReportDraft) => ({
  current_title: draft.title,
  current_description: draft.description,
  current_sql_code: draft.sql_code,
  current_chart_config: draft.chart_config,
});

const sessionReady = () => {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
};

const reasonOf = (error: unknown): string | null => normalizeError(error).message || null;

export const useReportsStore = create<ReportsState & ReportsActions>()((set, get) => {
  const setOperation = (operation: Operation, state: Partial<OperationState>) =>
    set((current) => ({ operations: { ...current.operations, [operation]: { ...current.operations[operation], ...state } } }));
  const start = (operation: Operation) => setOperation(operation, { busy: true, error: null, detail: null });
  const fail = (operation: Operation, message: string, detail: string | null = null) => setOperation(operation, { busy: false, error: message, detail: detail === message ? null : detail });
  const done = (operation: Operation) => setOperation(operation, { busy: false });
  /** Only the latest selection may write its answer. */
  let selection = 0;

  return {
    ...initialReportsState,

    loadReports: async () => {
      if (!sessionReady()) {
        set({ error: i18n.t('reports.errors.authNotReady') });
        return;
      }
      set({ loading: true, error: null });
      try {
        set({ reportData: await reportsApi.listReports(), loading: false });
      } catch (error) {
        console.warn(`${i18n.t('reports.errors.loadList')}: ${reasonOf(error)}`);
        set({ loading: false, error: i18n.t('reports.errors.loadList') });
      }
    },

    selectReport: async (id) => {
      const sequence = ++selection;
      // Selecting resets the screen's data, error and loading, and clears the last run (spec §4).
      set({ selectedReport: null, draft: null, execution: null, error: null, loading: true, operations: idleOperations, generateNotice: null });
      try {
        const report = await reportsApi.getReport(id);
        if (sequence !== selection) return;
        set({ selectedReport: report, draft: draftOf(report), loading: false });
      } catch (error) {
        if (sequence !== selection) return;
        console.warn(`${i18n.t('reports.errors.loadDetails')}: ${reasonOf(error)}`);
        set({ loading: false, error: i18n.t('reports.errors.loadDetails') });
      }
    },

    updateDraft: (changes) => {
      const draft = get().draft;
      if (draft) set({ draft: { ...draft, ...changes } });
    },

    createReport: async () => {
      start('create');
      try {
        const report = await reportsApi.createReport({ ...REPORT_DEFAULTS });
        ++selection;
        set((state) => ({ reportData: [report, ...state.reportData], selectedReport: report, draft: draftOf(report), execution: null, error: null, generateNotice: null }));
        done('create');
      } catch (error) {
        fail('create', i18n.t('reports.errors.create'), reasonOf(error));
      }
    },

    saveReport: async () => {
      const { selectedReport, draft } = get();
      if (!selectedReport || !draft) {
        fail('save', i18n.t('reports.errors.saveNoReport'));
        return;
      }
      start('save');
      try {
        const saved = await reportsApi.updateReport(selectedReport.id, draft);
        set((state) => ({ selectedReport: saved, reportData: [saved, ...state.reportData.filter((r) => r.id !== saved.id)] }));
        done('save');
      } catch (error) {
        fail('save', i18n.t('reports.errors.save'), reasonOf(error));
      }
    },

    deleteReport: async () => {
      const selectedReport = get().selectedReport;
      if (!selectedReport) return;
      start('delete');
      try {
        await reportsApi.deleteReport(selectedReport.id);
        ++selection;
        set((state) => ({ reportData: state.reportData.filter((r) => r.id !== selectedReport.id), selectedReport: null, draft: null, execution: null, generateNotice: null }));
        done('delete');
      } catch (error) {
        fail('delete', i18n.t('reports.errors.delete'), reasonOf(error));
      }
    },

    runSql: async () => {
      const sqlCode = get().draft?.sql_code ?? '';
      if (sqlCode.trim() === '') {
        fail('run', i18n.t('reports.errors.noSql'));
        return;
      }
      start('run');
      try {
        const execution = await reportsApi.executeSql(sqlCode);
        set({ execution, executedSql: sqlCode });
        if (execution.success) done('run');
        else fail('run', i18n.t('reports.errors.backendFailed'), execution.error);
      } catch (error) {
        fail('run', i18n.t('reports.errors.execute'), reasonOf(error));
      }
    },

    applyChangeRequest: async (changeRequest) => {
      const { selectedReport, draft } = get();
      if (!selectedReport || !draft) {
        fail('generate', i18n.t('reports.errors.applyNoReport'));
        return;
      }
      start('generate');
      set({ generateNotice: null });
      try {
        const answer = await reportsApi.generateFromRequest({
          report_id: selectedReport.id,
          change_request: changeRequest,
          ...currentFieldsOf(draft),
        });
        if (!answer.success) {
          fail('generate', i18n.t('reports.errors.generation'), answer.error);
          return;
        }
        get().updateDraft({
          title: answer.title ?? draft.title,
          description: answer.description ?? draft.description,
          sql_code: answer.sql_code ?? draft.sql_code,
          chart_config: answer.chart_config,
          pseudocode: answer.pseudocode ?? draft.pseudocode,
        });
        set({ generateNotice: answer.notice ?? null });
        done('generate');
      } catch (error) {
        fail('generate', i18n.t('reports.errors.apply'), reasonOf(error));
      }
    },

    regenerateSql: async () => {
      const { selectedReport, draft } = get();
      if (!selectedReport || !draft) {
        fail('regenerate', i18n.t('reports.errors.regenerateNoReport'));
        return;
      }
      start('regenerate');
      try {
        const answer = await reportsApi.regenerate({
          field_to_regenerate: 'sql_code',
          ...currentFieldsOf(draft),
        });
        if (!answer.success || typeof answer.generated_value !== 'string') {
          fail('regenerate', i18n.t('reports.errors.regeneration'), answer.error);
          return;
        }
        get().updateDraft({ sql_code: answer.generated_value });
        done('regenerate');
      } catch (error) {
        fail('regenerate', i18n.t('reports.errors.regenerate'), reasonOf(error));
      }
    },

    loadSchema: async () => {
      try {
        set({ schema: (await reportsApi.fetchReportSchema()).relations });
      } catch (error) {
        console.warn(`Report schema: ${reasonOf(error)}`);
      }
    },
  };
});
