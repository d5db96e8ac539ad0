// The profile's account security: the account's active sessions, revoking them, and the password.
import { create } from 'zustand';
import type { SessionSummary } from '@stockwise/contract';
import { changePassword, fetchSessions, revokeAllSessions, revokeSession } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';
import { useAccountStore } from './account.ts';
import { useSessionStore } from './session.ts';

export type PasswordChange = { oldPassword: string; newPassword: string };
export type PasswordResult = { ok: true; revoked: number } | { ok: false; message: string; fieldErrors: Record<string, string[]> };

export type SessionsState = {
  sessions: SessionSummary[] | null;
  error: string | null;
  load: () => Promise<void>;
  revoke: (id: string) => Promise<void>;
  /** Ends every session, this one included: the tab is signed out afterwards. */
  signOutEverywhere: () => Promise<void>;
  changePassword: (change: PasswordChange) => Promise<PasswordResult>;
};

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  sessions: null,
  error: null,
  load: async () => {
    try {
      set({ sessions: await fetchSessions(), error: null });
    } catch (error) {
      set({ error: normalizeError(error).message });
    }
  },
  revoke: async (id) => {
    try {
      await revokeSession(id);
      set((state) => ({ sessions: state.sessions?.filter((session) => session.id !== id) ?? null, error: null }));
    } catch (error) {
      set({ error: normalizeError(error).message });
    }
  },
  signOutEverywhere: async () => {
    try {
      await revokeAllSessions();
      useSessionStore.getState().logout();
    } catch (error) {
      set({ error: normalizeError(error).message });
    }
  },
  changePassword: async ({ oldPassword, newPassword }) => {
    try {
      const { revoked } = await changePassword({ old_password: oldPassword, new_password: newPassword });
      useAccountStore.getState().passwordChosen();
      await get().load();
      return { ok: true, revoked };
    } catch (error) {
      const normalized = normalizeError(error);
      return { ok: false, message: normalized.message, fieldErrors: normalized.details.fieldErrors };
    }
  },
}));
