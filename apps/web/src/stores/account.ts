// The signed-in user's account (GET /api/accounts/me/): shown on the profile screen, read by the
// shell for whether a starting password must be replaced before anything else, and by every screen
// that reads typed dates for the order the person writes them in.
import { create } from 'zustand';
import type { DateOrderPreference, OwnAccount } from '@stockwise/contract';
import { fetchCurrentAccount, savePreferences } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';

export type DateOrderSave = { ok: true } | { ok: false; message: string };

export type AccountState = {
  account: OwnAccount | null;
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
  /** How the person writes dates, as last read or saved: kept while the account is read again, so no screen reads a date the browser's way meanwhile. */
  dateOrder: DateOrderPreference;
  load: () => Promise<void>;
  saveDateOrder: (dateOrder: DateOrderPreference) => Promise<DateOrderSave>;
  /** The server has taken the account's own new password: the starting one no longer holds it back. */
  passwordChosen: () => void;
};

export const useAccountStore = create<AccountState>()((set) => ({
  account: null,
  isLoading: false,
  error: null,
  startingPasswordOf: null,
  readFor: null,
  dateOrder: 'browser',
  load: async () => {
    set({ account: null, isLoading: true, error: null });
    try {
      const account = await fetchCurrentAccount();
      set({ account, isLoading: false, readFor: account.id, startingPasswordOf: account.must_change_password ? account.id : null, dateOrder: account.date_order });
    } catch (error) {
      set({ isLoading: false, error: normalizeError(error).message });
    }
  },
  saveDateOrder: async (dateOrder) => {
    try {
      const account = await savePreferences({ date_order: dateOrder });
      set({ account, dateOrder: account.date_order });
      return { ok: true };
    } catch (error) {
      return { ok: false, message: normalizeError(error).message };
    }
  },
  passwordChosen: () => set((state) => ({ startingPasswordOf: null, account: state.account && { ...state.account, must_change_password: false } })),
}));
