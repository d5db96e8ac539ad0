// The dashboard's state (spec §1, §3 Task, Inventory stats, Stock projection point): one answer
// from the server, loaded only once the session has loaded and the user is signed in (spec §5).
import { create } from 'zustand';
import type { DashboardResponse } from '@stockwise/contract';
import * as dashboardApi from '../api/dashboard.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';

export type DashboardState = { data: DashboardResponse | null; loading: boolean; error: string | null };
export type DashboardActions = {
  load: () => Promise<void>;
  toggleTask: (id: number) => Promise<void>;
  addTask: (text: string) => Promise<boolean>;
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
  const withData = (change: (data: DashboardResponse) => DashboardResponse) => {
    const data = get().data;
    if (data) set({ data: change(data) });
  };
  return {
    data: null,
    loading: false,
    error: null,

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
        fail(error);
      }
    },

    addTask: async (text) => {
      if (!text.trim()) return false;
      try {
        const task = await dashboardApi.addTask(text.trim());
        withData((data) => ({ ...data, tasks: [...data.tasks, task] }));
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },

    deleteTask: async (id) => {
      try {
        await dashboardApi.deleteTask(id);
        withData((data) => ({ ...data, tasks: data.tasks.filter((t) => t.id !== id) }));
      } catch (error) {
        fail(error);
      }
    },

    unpin: async (reportId) => {
      try {
        await dashboardApi.unpinReport(reportId);
        withData((data) => ({ ...data, pinnedReports: data.pinnedReports.filter((r) => r.id !== reportId) }));
      } catch (error) {
        fail(error);
      }
    },
  };
});
