// The signed-in user's account (GET /api/accounts/me/): shown on the profile screen, and read by the
// shell for whether a starting password must be replaced before anything else.
import { create } from 'zustand';
import type { Account } from '@stockwise/contract';
import { fetchCurrentAccount } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';

export type AccountState = {
  account: Account | null;
  isLoading: boolean;
  error: string | null;
  /**
   * The account whose password is still a starting one, as last read: kept while the account is
   * read again, so the shell does not show its navigation for a moment.
   */
  startingPasswordOf: number | null;
  /**
   * The account read at least once (kept while it is read again): until then the shell cannot know
   * whether the account may reach anything but its profile, so it mounts no page.
   */
  readFor: number | null;
  load: () => Promise<void>;
  /** The server has taken the account's own new password: the starting one no longer holds it back. */
  passwordChosen: () => void;
};

export const useAccountStore = create<AccountState>()((set) => ({
  account: null,
  isLoading: false,
  error: null,
  startingPasswordOf: null,
  readFor: null,
  load: async () => {
    set({ account: null, isLoading: true, error: null });
    try {
      const account = await fetchCurrentAccount();
      set({ account, isLoading: false, readFor: account.id, startingPasswordOf: account.must_change_password ? account.id : null });
    } catch (error) {
      set({ isLoading: false, error: normalizeError(error).message });
    }
  },
  passwordChosen: () => set((state) => ({ startingPasswordOf: null, account: state.account && { ...state.account, must_change_password: false } })),
}));
