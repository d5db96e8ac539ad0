// The users page (administrators): the accounts, the one change under way, adding a colleague and
// giving one a new starting password.
import { create } from 'zustand';
import type { CreateUserRequest, Role, UserSummary } from '@stockwise/contract';
import { createUser, fetchUsers, resetUserPassword, setUserDisabled, setUserRole } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';

/** What a dialog's request came to: the account as it is now, or the refusal to show. */
export type UserDialogResult = { ok: true; user: UserSummary } | { ok: false; message: string; fieldErrors: Record<string, string[]> };

export type UsersState = {
  users: UserSummary[] | null;
  error: string | null;
  busyId: number | null;
  load: () => Promise<void>;
  setRole: (user: UserSummary, role: Role) => Promise<void>;
  setDisabled: (user: UserSummary, disabled: boolean) => Promise<void>;
  /** Creates the account and lists it at once; a refusal comes back for the dialog to show. */
  addUser: (input: CreateUserRequest) => Promise<UserDialogResult>;
  /** Gives the account a new starting password (its sign-ins end); its row shows it at once. */
  resetPassword: (user: UserSummary, password: string) => Promise<UserDialogResult>;
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
    addUser: (input) =>
      dialogRequest(async () => {
        const user = await createUser(input);
        set((state) => ({ users: state.users && [...state.users, user] }));
        return user;
      }),
    resetPassword: (user, password) =>
      dialogRequest(async () => {
        const updated = await resetUserPassword(user.id, { password });
        set((state) => ({ users: state.users?.map((row) => (row.id === updated.id ? updated : row)) ?? null }));
        return updated;
      }),
  };
});

async function dialogRequest(request: () => Promise<UserSummary>): Promise<UserDialogResult> {
  try {
    return { ok: true, user: await request() };
  } catch (error) {
    const normalized = normalizeError(error);
    return { ok: false, message: normalized.message, fieldErrors: normalized.details.fieldErrors };
  }
}
