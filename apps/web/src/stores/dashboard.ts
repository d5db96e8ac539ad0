// The dashboard's state (spec §1, §3 Task, Inventory stats, Stock projection point): one answer
// from the server, loaded only once the session has loaded and the user is signed in (spec §5).
import { create } from 'zustand';
import { TASK_TEXT_MAX_LENGTH, type DashboardResponse } from '@stockwise/contract';
import * as dashboardApi from '../api/dashboard.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';

/**
 * `error`: the dashboard could not be read. `actionError`: a change the user asked for (a task ticked,
 * added or deleted, a report unpinned) was refused, in the server's words; the dashboard still shows.
 */
export type DashboardState = { data: DashboardResponse | null; loading: boolean; error: string | null; actionError: string | null };
export type DashboardActions = {
  load: () => Promise<void>;
  toggleTask: (id: number) => Promise<void>;
  /** Null when the task was added (or the text was blank), else why not: said at the field, not as the dashboard failing. */
  addTask: (text: string) => Promise<string | null>;
  dismissActionError: () => void;
  deleteTask: (id: number) => Promise<void>;
  unpin: (reportId: number) => Promise<void>;
};

const sessionReady = () => {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
};

export const useDashboardStore = create<DashboardState & DashboardActions>()((set, get) => {
  const fail = (error: unknown) => {
    console.warn(`${i18n.t('dashboard.errors.fetch')}: ${normalizeError(error).message}`);
    set({ loading: false, error: i18n.t('dashboard.errors.fetch') });
  };
  /** Why the server refused a change, the text field's own message first. */
  const reasonOf = (error: unknown): string => {
    const normalized = normalizeError(error);
    return normalized.details.fieldErrors['text']?.join(' ') ?? normalized.message;
  };
  const refused = (error: unknown) => set({ actionError: reasonOf(error) });
  const withData = (change: (data: DashboardResponse) => DashboardResponse) => {
    const data = get().data;
    if (data) set({ data: change(data) });
  };
  return {
    data: null,
    loading: false,
    error: null,
    actionError: null,

    load: async () => {
      if (!sessionReady()) return;
      set({ loading: true, error: null });
      try {
        set({ data: await dashboardApi.fetchDashboard(), loading: false });
      } catch (error) {
        fail(error);
      }
    },

    toggleTask: async (id) => {
      try {
        const task = await dashboardApi.toggleTask(id);
        withData((data) => ({ ...data, tasks: data.tasks.map((t) => (t.id === id ? task : t)) }));
      } catch (error) {
        refused(error);
      }
    },

    addTask: async (text) => {
      if (!text.trim()) return null;
      if (text.trim().length > TASK_TEXT_MAX_LENGTH) return i18n.t('dashboard.tasks.tooLong', { max: TASK_TEXT_MAX_LENGTH, length: text.trim().length });
      try {
        const task = await dashboardApi.addTask(text.trim());
        withData((data) => ({ ...data, tasks: [...data.tasks, task] }));
        return null;
      } catch (error) {
        return reasonOf(error);
      }
    },

    dismissActionError: () => set({ actionError: null }),

    deleteTask: async (id) => {
      try {
        await dashboardApi.deleteTask(id);
        withData((data) => ({ ...data, tasks: data.tasks.filter((t) => t.id !== id) }));
      } catch (error) {
        refused(error);
      }
    },

    unpin: async (reportId) => {
      try {
        await dashboardApi.unpinReport(reportId);
        withData((data) => ({ ...data, pinnedReports: data.pinnedReports.filter((r) => r.id !== reportId) }));
      } catch (error) {
        refused(error);
      }
    },
  };
});
