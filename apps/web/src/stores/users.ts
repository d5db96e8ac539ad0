// The users page (administrators): the accounts, and the one change under way.
import { create } from 'zustand';
import type { Role, UserSummary } from '@stockwise/contract';
import { fetchUsers, setUserDisabled, setUserRole } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';

export type UsersState = {
  users: UserSummary[] | null;
  error: string | null;
  busyId: number | null;
  load: () => Promise<void>;
  setRole: (user: UserSummary, role: Role) => Promise<void>;
  setDisabled: (user: UserSummary, disabled: boolean) => Promise<void>;
};

export const useUsersStore = create<UsersState>()((set) => {
  const change = async (user: UserSummary, update: () => Promise<UserSummary>) => {
    set({ busyId: user.id, error: null });
    try {
      const updated = await update();
      set((state) => ({ users: state.users?.map((row) => (row.id === updated.id ? updated : row)) ?? null, busyId: null }));
    } catch (error) {
      set({ busyId: null, error: i18n.t('users.failed', { username: user.username, message: normalizeError(error).message }) });
    }
  };
  return {
    users: null,
    error: null,
    busyId: null,
    load: async () => {
      set({ users: null, error: null });
      try {
        set({ users: await fetchUsers() });
      } catch (error) {
        set({ error: normalizeError(error).message });
      }
    },
    setRole: (user, role) => change(user, () => setUserRole(user.id, role)),
    setDisabled: (user, disabled) => change(user, () => setUserDisabled(user.id, disabled)),
  };
});
