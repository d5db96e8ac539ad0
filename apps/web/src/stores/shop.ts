// The shop's settings (GET /api/shop/), read by the shell once per page load and again whenever the
// tab comes back into view, and sent to this browser's other tabs after an administrator saves them:
// every money figure on the screens carries the shop's currency (ADR 0166), and an open tab follows a
// change without a reload (its amendment "other tabs follow"). The currency's version goes with it:
// a save is made at the version last read, so one over another administrator's since is refused
// (ADR 0168's amendment "the shop's settings"), while a tab that has read their change saves over it.
// The shop's time zone is kept beside it: a new integration runs on the shop's clock, and the zone
// in effect says which day is the shop's today (ADR 0173) — the closed days under way (ADR 0171).
import { create } from 'zustand';
import { shopSettings, type ShopSettings, type ShopSettingsUpdate } from '@stockwise/contract';
import { fetchShopSettings, saveShopSettings } from '../api/shop.ts';

export type ShopState = {
  /** The ISO 4217 code money shows in; null (none chosen, or not read yet) shows bare figures. */
  currency: string | null;
  /** The version of the currency read with it (undefined before the first read: a save is then unchecked). */
  currencyVersion: string | undefined;
  /** The time zone the shop chose (ADR 0173); null (none chosen, or not read yet): the editor offers the browser's. */
  timeZone: string | null;
  /** The zone whose today is the shop's: the chosen one, else the server's; null until read. */
  timeZoneInEffect: string | null;
  /** Asked for once: a failed read leaves bare figures rather than asking on every screen. */
  requested: boolean;
  load: () => Promise<void>;
  /** Reads the settings again (another administrator may have changed them); a failed read keeps what is shown. */
  refresh: () => Promise<void>;
  /** Saves the currency at the version read; the promise fails with the server's refusal (the panel shows it), edit_conflict when it was saved since. */
  save: (update: ShopSettingsUpdate) => Promise<void>;
  /** Takes the settings as another answer gave them (a refusal's `current`). */
  take: (settings: Pick<ShopSettings, 'currency' | 'currencyVersion'>) => void;
};

export const initialShopState = { currency: null, currencyVersion: undefined, timeZone: null, timeZoneInEffect: null, requested: false } satisfies Partial<ShopState>;

/** The channel this browser's tabs tell each other a saved change on (same origin only). */
export const SHOP_CHANNEL = 'stockwise-shop';

const channel = (): BroadcastChannel | null => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SHOP_CHANNEL));

/** One read at a time: a tab coming into view fires both `focus` and `visibilitychange`. */
let reading: Promise<void> | null = null;

export const useShopStore = create<ShopState>()((set, get) => ({
  ...initialShopState,
  load: async () => {
    if (get().requested) return;
    set({ requested: true });
    await get().refresh();
  },
  refresh: () =>
    (reading ??= (async () => {
      try {
        const { currency, currencyVersion, timeZone, timeZoneInEffect } = await fetchShopSettings();
        set({ currency, currencyVersion, timeZone, timeZoneInEffect });
      } catch {
        // Money keeps the currency it shows (bare figures before the first read); nothing else depends on it.
      } finally {
        reading = null;
      }
    })()),
  save: async (update) => {
    const saved = await saveShopSettings(update, get().currencyVersion);
    get().take(saved);
    const others = channel();
    others?.postMessage(saved satisfies ShopSettings);
    others?.close();
  },
  take: ({ currency, currencyVersion }) => set({ currency, currencyVersion }),
}));

/**
 * Keeps the tab's settings current while it is open: what another tab of this browser saved, at
 * once; what another browser saved, when the tab is looked at again (focus, or shown after being
 * hidden), as Metabase and NocoDB read their settings again. Returns the way to stop.
 */
export function followShopSettings(target: Window): () => void {
  const refresh = () => void useShopStore.getState().refresh();
  const onVisible = () => {
    if (target.document.visibilityState === 'visible') refresh();
  };
  const others = channel();
  // The currency and its version alone are this store's. A tab of an older build sends no version:
  // the one kept is then stale, and a save from this tab is refused with a Reload rather than made blind.
  const onSaved = (event: MessageEvent<unknown>) => {
    const saved = shopSettings.pick({ currency: true, currencyVersion: true }).partial({ currencyVersion: true }).safeParse(event.data);
    if (saved.success) useShopStore.setState(saved.data);
  };
  target.addEventListener('focus', refresh);
  target.document.addEventListener('visibilitychange', onVisible);
  others?.addEventListener('message', onSaved);
  return () => {
    target.removeEventListener('focus', refresh);
    target.document.removeEventListener('visibilitychange', onVisible);
    others?.close();
  };
}
