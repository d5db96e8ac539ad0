// The shop's settings (GET /api/shop/), read once per page load by the shell and again after an
// administrator saves them: every money figure on the screens carries the shop's currency (ADR 0166).
import { create } from 'zustand';
import type { ShopSettingsUpdate } from '@stockwise/contract';
import { fetchShopSettings, saveShopSettings } from '../api/shop.ts';

export type ShopState = {
  /** The ISO 4217 code money shows in; null (none chosen, or not read yet) shows bare figures. */
  currency: string | null;
  /** Asked for once: a failed read leaves bare figures rather than asking on every screen. */
  requested: boolean;
  load: () => Promise<void>;
  /** Saves the settings; the promise fails with the server's refusal (the panel shows it). */
  save: (update: ShopSettingsUpdate) => Promise<void>;
};

export const initialShopState = { currency: null, requested: false } satisfies Partial<ShopState>;

export const useShopStore = create<ShopState>()((set, get) => ({
  ...initialShopState,
  load: async () => {
    if (get().requested) return;
    set({ requested: true });
    try {
      set({ currency: (await fetchShopSettings()).currency });
    } catch {
      // Money shows as bare figures, as before a currency was chosen; nothing else depends on it.
    }
  },
  save: async (update) => {
    set({ currency: (await saveShopSettings(update)).currency });
  },
}));
