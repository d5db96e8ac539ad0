// The signed-in user's account (GET /api/accounts/me/), shown on the profile screen.
import { create } from 'zustand';
import type { Account } from '@stockwise/contract';
import { fetchCurrentAccount } from '../api/auth.ts';
import { normalizeError } from '../api/errors.ts';

export type AccountState = {
  account: Account | null;
  isLoading: boolean;
  error: string | null;
  load: () => Promise<void>;
};

export const useAccountStore = create<AccountState>()((set) => ({
  account: null,
  isLoading: false,
  error: null,
  load: async () => {
    set({ account: null, isLoading: true, error: null });
    try {
      const account = await fetchCurrentAccount();
      set({ account, isLoading: false });
    } catch (error) {
      set({ isLoading: false, error: normalizeError(error).message });
    }
  },
}));
