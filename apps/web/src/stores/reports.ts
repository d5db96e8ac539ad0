// The Reports screen's state (spec §3 Report screen state: reportData, selectedReport, error,
// loading; §4 report editor): the list, the selected report and its unsaved draft, the last run,
// the readable schema, and one busy/error pair per operation (save, create, delete, run, export,
// generate, regenerate). Loading is set at start and cleared at end; errors are cleared at start.
// An unsaved draft is kept in the page's memory until it is saved or discarded, and comes back when
// its report is opened again (report-drafts.ts, ADR 0159). "New report" opens a draft that is not
// stored until its first Save (ADR 0159 amendment): a blank one left behind leaves nothing.
import { create } from 'zustand';
import { REPORT_DEFAULTS, type ExecuteResponse, type ReadableRelation, type SqlErrorDetails, type UserReport } from '@stockwise/contract';
import * as reportsApi from '../api/reports.ts';
import { normalizeError } from '../api/errors.ts';
import { currentOfConflict } from '../api/versions.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';
import { userIdOfAccessToken } from './role.ts';
import { draftStorage, draftOf, forgetDraft, keepDraft, pruneKeptDrafts, readKeptDraft, sameDraft, type ReportDraft } from './report-drafts.ts';
import { chartShownFor } from '../pages/reports/chart-data.ts';

export type { ReportDraft };
export type Operation = 'save' | 'create' | 'delete' | 'run' | 'export' | 'generate' | 'regenerate';
/**
 * The spec's message, and the server's reason when there is one (shown under it); for SQL that did
 * not run, the reason in parts: PostgreSQL's hint and detail, and the line and column of the mistake.
 */
export type OperationState = { busy: boolean; error: string | null; detail: string | null; sqlError: SqlErrorDetails | null };

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
  /** The saved version (updated_at) the draft's edits started from. */
  draftBase: string | null;
  /** The draft came back from the browser on opening the report: when it was last edited, and whether the report was saved since. */
  restoredDraft: { editedAt: number; savedSince: boolean } | null;
  /** The draft is a new report, not stored yet (selectedReport is null): its first Save creates it. */
  isNewDraft: boolean;
  /** The report as someone else saved it after the editor read it: a save or delete was refused for it (ADR 0168); Reload shows it. */
  savedMeanwhile: UserReport | null;
  /** The title and description the last applied change request wrote: what is still these was not typed by the user since. */
  lastProposal: WordsOfReport | null;
};

/** The fields of a report the user words: an "Apply change" does not replace what the user typed (ADR 0159 amendment 2026-12-06). */
type WordsOfReport = Pick<ReportDraft, 'title' | 'description'>;

export type ReportsActions = {
  loadReports: () => Promise<void>;
  selectReport: (id: number) => Promise<void>;
  updateDraft: (changes: Partial<ReportDraft>) => void;
  /** Back to the saved report: the kept draft is dropped. */
  discardDraft: () => void;
  /** Opens a new report's draft (the one left unsaved, if any); nothing is stored until Save. */
  newReport: () => void;
  saveReport: () => Promise<void>;
  deleteReport: () => Promise<void>;
  /** After a refused save or delete: the report as it is now, in place of the draft. */
  reloadReport: () => void;
  runSql: () => Promise<void>;
  /** The last run's SQL run again by the server, its rows as an .xlsx file to save; null when it failed (operations.export says why). */
  exportXlsx: () => Promise<Blob | null>;
  applyChangeRequest: (changeRequest: string) => Promise<void>;
  regenerateSql: () => Promise<void>;
  loadSchema: () => Promise<void>;
};

const idle: OperationState = { busy: false, error: null, detail: null, sqlError: null };
const idleOperations: Record<Operation, OperationState> = { save: idle, create: idle, delete: idle, run: idle, export: idle, generate: idle, regenerate: idle };

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
  draftBase: null,
  restoredDraft: null,
  isNewDraft: false,
  savedMeanwhile: null,
  lastProposal: null,
};

/** Whether the editor holds edits the saved report does not have. */
/** What a new report starts as: left like this, it is nothing to save. */
export const blankDraft: ReportDraft = { ...REPORT_DEFAULTS, pseudocode: '' };
/** Where the new report's unsaved draft is kept (ids of stored reports start at 1). */
const newReportKey = 0;

export const hasUnsavedChanges = (state: Pick<ReportsState, 'draft' | 'selectedReport' | 'isNewDraft'>): boolean => {
  if (state.draft === null) return false;
  if (state.selectedReport !== null) return !sameDraft(state.draft, draftOf(state.selectedReport));
  return state.isNewDraft && !sameDraft(state.draft, blankDraft);
};

/** The editor's draft as the AI calls name it (spec §7 current_*). */
const currentFieldsOf = (draft: ReportDraft) => ({
  current_title: draft.title,
  current_description: draft.description,
  current_sql_code: draft.sql_code,
  current_chart_config: draft.chart_config,
});

/**
 * The title and description an answer to "Apply change" leaves in the editor: the proposal's, except
 * where the user typed since the editor last showed the saved report (the blank one for a new report)
 * or the last proposal — that typing is theirs and stays, also when typed while the answer was awaited.
 */
const wordsAfterProposal = (now: WordsOfReport, untouched: WordsOfReport[], proposal: Partial<Record<keyof WordsOfReport, string | null>>): WordsOfReport => {
  const pick = (field: keyof WordsOfReport) => (untouched.some((words) => words[field] === now[field]) ? (proposal[field] ?? now[field]) : now[field]);
  return { title: pick('title'), description: pick('description') };
};

const sessionReady = () => {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
};

const reasonOf = (error: unknown): string | null => normalizeError(error).message || null;

/** Whose drafts the browser keeps: the signed-in user's (null before the first access token). */
const signedInUserId = () => userIdOfAccessToken(useSessionStore.getState().accessToken);

export const useReportsStore = create<ReportsState & ReportsActions>()((set, get) => {
  const setOperation = (operation: Operation, state: Partial<OperationState>) =>
    set((current) => ({ operations: { ...current.operations, [operation]: { ...current.operations[operation], ...state } } }));
  const start = (operation: Operation) => setOperation(operation, { busy: true, error: null, detail: null, sqlError: null });
  const fail = (operation: Operation, message: string, detail: string | null = null, sqlError: SqlErrorDetails | null = null) =>
    setOperation(operation, { busy: false, error: message, detail: detail === message ? null : detail, sqlError });
  const done = (operation: Operation) => setOperation(operation, { busy: false });
  /** Only the latest selection may write its answer. */
  let selection = 0;
  /** An answer (an AI rewrite, a save) still belongs to the report it was asked for. */
  const stillSelected = (reportId: number) => get().selectedReport?.id === reportId;
  /** Asked now for what the editor holds (a stored report or the new draft): is its answer still for the editor? */
  const answerFor = (reportId: number | null) => {
    const askedFor = selection;
    return () => (reportId === null ? askedFor === selection : stillSelected(reportId));
  };

  /** Keeps the draft in the browser while it differs from the saved report; forgets it once they agree. */
  const keepOrForgetDraft = () => {
    const { draft, selectedReport, draftBase, isNewDraft } = get();
    const userId = signedInUserId();
    const key = selectedReport?.id ?? (isNewDraft ? newReportKey : null);
    if (!draft || key === null || userId === null) return;
    if (hasUnsavedChanges(get())) keepDraft(draftStorage(), userId, key, { draft, editedAt: Date.now(), baseUpdatedAt: draftBase ?? selectedReport?.updated_at ?? '' });
    else {
      forgetDraft(draftStorage(), userId, key);
      set({ restoredDraft: null });
    }
  };

  /** The new report's first Save: it is stored now, and the editor goes on with it as a saved report. */
  /**
   * The draft as Save stores it: with the chart the editor shows for a result of its SQL (the one
   * proposed when none was chosen or the chosen one's columns are gone), so the report and its
   * dashboard pin show what the editor showed. Without such a result the chart is left as it is.
   */
  const withShownChart = (draft: ReportDraft): ReportDraft => {
    const { execution, executedSql } = get();
    if (!execution?.success || executedSql !== draft.sql_code || execution.columns.length === 0) return draft;
    return { ...draft, chart_config: chartShownFor(draft.chart_config, execution.columns, execution.results.length).chart };
  };

  /** A save or delete refused because someone saved the report since it was read: what they saved, for Reload; the draft stays. */
  const noteSavedMeanwhile = (reportId: number, error: unknown) => {
    const current = currentOfConflict<UserReport>(normalizeError(error));
    if (current && stillSelected(reportId)) set({ savedMeanwhile: current });
  };

  const createFromDraft = async (draft: ReportDraft) => {
    const askedFor = selection;
    start('create');
    try {
      const created = await reportsApi.createReport(withShownChart(draft));
      set((state) => ({ reportData: [created, ...state.reportData] }));
      const userId = signedInUserId();
      if (userId !== null) forgetDraft(draftStorage(), userId, newReportKey);
      if (askedFor === selection) {
        // Edits made while it was being stored stay, as unsaved edits of the report now stored.
        const unchangedSince = get().draft === draft;
        set({ selectedReport: created, isNewDraft: false, draftBase: created.updated_at, restoredDraft: null, ...(unchangedSince ? { draft: draftOf(created) } : {}) });
        keepOrForgetDraft();
      }
      done('create');
    } catch (error) {
      fail('create', i18n.t('reports.errors.create'), reasonOf(error));
    }
  };

  return {
    ...initialReportsState,

    loadReports: async () => {
      if (!sessionReady()) {
        set({ error: i18n.t('reports.errors.authNotReady') });
        return;
      }
      set({ loading: true, error: null });
      try {
        const reportData = await reportsApi.listReports();
        set({ reportData, loading: false });
        const userId = signedInUserId();
        if (userId !== null) pruneKeptDrafts(draftStorage(), userId, new Set([newReportKey, ...reportData.map((report) => report.id)]));
      } catch (error) {
        console.warn(`${i18n.t('reports.errors.loadList')}: ${reasonOf(error)}`);
        set({ loading: false, error: i18n.t('reports.errors.loadList') });
      }
    },

    selectReport: async (id) => {
      const sequence = ++selection;
      // Selecting resets the screen's data, error and loading, and clears the last run (spec §4).
      set({ selectedReport: null, draft: null, execution: null, error: null, loading: true, operations: idleOperations, generateNotice: null, draftBase: null, restoredDraft: null, isNewDraft: false, savedMeanwhile: null, lastProposal: null });
      try {
        const report = await reportsApi.getReport(id);
        if (sequence !== selection) return;
        const userId = signedInUserId();
        const kept = userId === null ? null : readKeptDraft(draftStorage(), userId, report.id);
        if (kept && !sameDraft(kept.draft, draftOf(report))) {
          set({
            selectedReport: report,
            draft: kept.draft,
            draftBase: kept.baseUpdatedAt,
            restoredDraft: { editedAt: kept.editedAt, savedSince: kept.baseUpdatedAt !== report.updated_at },
            loading: false,
          });
          return;
        }
        if (kept && userId !== null) forgetDraft(draftStorage(), userId, report.id);
        set({ selectedReport: report, draft: draftOf(report), draftBase: report.updated_at, loading: false });
      } catch (error) {
        if (sequence !== selection) return;
        // A link to a report deleted since, or never there: said as such, not as a failure to load.
        if (normalizeError(error).details.status === 404) {
          set({ loading: false, error: i18n.t('reports.errors.notFound', { id }) });
          return;
        }
        console.warn(`${i18n.t('reports.errors.loadDetails')}: ${reasonOf(error)}`);
        set({ loading: false, error: i18n.t('reports.errors.loadDetails') });
      }
    },

    updateDraft: (changes) => {
      const draft = get().draft;
      if (!draft) return;
      // SQL changed by hand: "What the SQL does" described the SQL before, so it goes (the writer sends both).
      const explained = changes.sql_code !== undefined && changes.sql_code !== draft.sql_code && changes.pseudocode === undefined ? { pseudocode: '' } : {};
      set({ draft: { ...draft, ...changes, ...explained } });
      keepOrForgetDraft();
    },

    discardDraft: () => {
      const { selectedReport, isNewDraft } = get();
      if (!selectedReport && !isNewDraft) return;
      set({ draft: selectedReport ? draftOf(selectedReport) : blankDraft, draftBase: selectedReport?.updated_at ?? null, restoredDraft: null, generateNotice: null, lastProposal: null });
      keepOrForgetDraft();
    },

    newReport: () => {
      ++selection;
      const userId = signedInUserId();
      const kept = userId === null ? null : readKeptDraft(draftStorage(), userId, newReportKey);
      set({
        selectedReport: null,
        isNewDraft: true,
        draft: kept?.draft ?? blankDraft,
        draftBase: null,
        restoredDraft: kept ? { editedAt: kept.editedAt, savedSince: false } : null,
        execution: null,
        executedSql: null,
        error: null,
        loading: false,
        operations: idleOperations,
        generateNotice: null,
        savedMeanwhile: null,
        lastProposal: null,
      });
    },

    saveReport: async () => {
      const { selectedReport, draft, isNewDraft } = get();
      if (!draft || (!selectedReport && !isNewDraft)) {
        fail('save', i18n.t('reports.errors.saveNoReport'));
        return;
      }
      if (!selectedReport) {
        await createFromDraft(draft);
        return;
      }
      start('save');
      try {
        const saved = await reportsApi.updateReport(selectedReport.id, withShownChart(draft), selectedReport.version);
        set((state) => ({ reportData: [saved, ...state.reportData.filter((r) => r.id !== saved.id)] }));
        if (stillSelected(saved.id)) {
          // The draft becomes the saved version as the server stored it (a trimmed title), unless it
          // was edited while the save was under way: those edits stay, unsaved and kept.
          const unchangedSince = get().draft === draft;
          set({ selectedReport: saved, draftBase: saved.updated_at, restoredDraft: null, ...(unchangedSince ? { draft: draftOf(saved) } : {}) });
          keepOrForgetDraft();
        } else {
          // Another report opened meanwhile: its editor is not this answer's; the kept draft just saved is done with.
          const userId = signedInUserId();
          const kept = userId === null ? null : readKeptDraft(draftStorage(), userId, saved.id);
          if (userId !== null && kept && sameDraft(kept.draft, draft)) forgetDraft(draftStorage(), userId, saved.id);
        }
        done('save');
      } catch (error) {
        noteSavedMeanwhile(selectedReport.id, error);
        fail('save', i18n.t('reports.errors.save'), reasonOf(error));
      }
    },

    deleteReport: async () => {
      const selectedReport = get().selectedReport;
      if (!selectedReport) return;
      start('delete');
      try {
        await reportsApi.deleteReport(selectedReport.id, selectedReport.version);
        const userId = signedInUserId();
        if (userId !== null) forgetDraft(draftStorage(), userId, selectedReport.id);
        set((state) => ({ reportData: state.reportData.filter((r) => r.id !== selectedReport.id) }));
        if (stillSelected(selectedReport.id)) {
          ++selection;
          set({ selectedReport: null, draft: null, draftBase: null, restoredDraft: null, execution: null, generateNotice: null });
        }
        done('delete');
      } catch (error) {
        noteSavedMeanwhile(selectedReport.id, error);
        fail('delete', i18n.t('reports.errors.delete'), reasonOf(error));
      }
    },

    reloadReport: () => {
      const current = get().savedMeanwhile;
      if (!current || !stillSelected(current.id)) return;
      set((state) => ({
        reportData: state.reportData.map((report) => (report.id === current.id ? current : report)),
        selectedReport: current,
        draft: draftOf(current),
        draftBase: current.updated_at,
        restoredDraft: null,
        savedMeanwhile: null,
        lastProposal: null,
        operations: { ...state.operations, save: idle, delete: idle },
      }));
      keepOrForgetDraft();
    },

    runSql: async () => {
      const sqlCode = get().draft?.sql_code ?? '';
      if (sqlCode.trim() === '') {
        fail('run', i18n.t('reports.errors.noSql'));
        return;
      }
      start('run');
      const askedFor = selection;
      try {
        const execution = await reportsApi.executeSql(sqlCode);
        // Rows of the report that was open when Run was pressed are not shown under another one.
        if (askedFor !== selection) {
          done('run');
          return;
        }
        set({ execution, executedSql: sqlCode });
        if (execution.success) done('run');
        else fail('run', i18n.t('reports.errors.backendFailed'), execution.error, execution.error_details ?? null);
      } catch (error) {
        fail('run', i18n.t('reports.errors.execute'), reasonOf(error));
      }
    },

    exportXlsx: async () => {
      const { executedSql, draft, execution } = get();
      if (executedSql === null) {
        fail('export', i18n.t('reports.errors.exportNotRun'));
        return null;
      }
      // The money columns the result's table shows in the shop's currency: the file writes them so too.
      const moneyFields = execution?.success ? (chartShownFor(draft?.chart_config ?? null, execution.columns, execution.results.length).chart.money_fields ?? []) : [];
      start('export');
      try {
        const file = await reportsApi.exportXlsx({ sql_code: executedSql, title: draft?.title ?? '', money_fields: moneyFields });
        done('export');
        return file;
      } catch (error) {
        fail('export', i18n.t('reports.errors.exportXlsx'), reasonOf(error));
        return null;
      }
    },

    applyChangeRequest: async (changeRequest) => {
      const { selectedReport, draft, isNewDraft } = get();
      if (!draft || (!selectedReport && !isNewDraft)) {
        fail('generate', i18n.t('reports.errors.applyNoReport'));
        return;
      }
      const stillOpen = answerFor(selectedReport?.id ?? null);
      start('generate');
      set({ generateNotice: null });
      try {
        const answer = await reportsApi.generateFromRequest({
          report_id: selectedReport?.id ?? null,
          change_request: changeRequest,
          ...currentFieldsOf(draft),
        });
        if (!stillOpen()) {
          done('generate');
          return;
        }
        if (!answer.success) {
          fail('generate', i18n.t('reports.errors.generation'), answer.error, answer.error_details ?? null);
          return;
        }
        // The draft now: the user may have typed in it while the answer was awaited.
        const now = get().draft ?? draft;
        const { lastProposal } = get();
        const untouched = [selectedReport ? draftOf(selectedReport) : blankDraft, ...(lastProposal ? [lastProposal] : [])];
        const words = wordsAfterProposal(now, untouched, answer);
        get().updateDraft({
          ...words,
          sql_code: answer.sql_code ?? draft.sql_code,
          chart_config: answer.chart_config,
          pseudocode: answer.pseudocode ?? draft.pseudocode,
        });
        set({ generateNotice: answer.notice ?? null, lastProposal: { title: answer.title ?? words.title, description: answer.description ?? words.description } });
        done('generate');
      } catch (error) {
        fail('generate', i18n.t('reports.errors.apply'), reasonOf(error));
      }
    },

    regenerateSql: async () => {
      const { selectedReport, draft, isNewDraft } = get();
      if (!draft || (!selectedReport && !isNewDraft)) {
        fail('regenerate', i18n.t('reports.errors.regenerateNoReport'));
        return;
      }
      const stillOpen = answerFor(selectedReport?.id ?? null);
      start('regenerate');
      set({ generateNotice: null });
      try {
        const answer = await reportsApi.regenerate({
          field_to_regenerate: 'sql_code',
          ...currentFieldsOf(draft),
        });
        if (!stillOpen()) {
          done('regenerate');
          return;
        }
        if (!answer.success || typeof answer.generated_value !== 'string') {
          fail('regenerate', i18n.t('reports.errors.regeneration'), answer.error, answer.error_details ?? null);
          return;
        }
        get().updateDraft({ sql_code: answer.generated_value });
        // The words of the title and description the new SQL leaves out, said as a change request's are.
        set({ generateNotice: answer.notice ?? null });
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
