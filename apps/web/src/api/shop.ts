// Calls of the shop's settings (docs/api.md "Shop").
import type { ShopClosedDatesUpdate, ShopSettings, ShopSettingsUpdate, ShopTimeZoneUpdate } from '@stockwise/contract';
import { api } from './http.ts';
import { atVersion } from './versions.ts';

export const fetchShopSettings = async (): Promise<ShopSettings> => (await api.get<ShopSettings>('/shop/')).data;
/** `version`: the panel's (currencyVersion, closedDatesVersion, timeZoneVersion) as read; a save by someone else since is refused (ADR 0168). */
export const saveShopSettings = async (update: ShopSettingsUpdate, version?: string): Promise<ShopSettings> => (await api.put<ShopSettings>('/shop/', update, atVersion(version))).data;
export const saveShopClosedDates = async (update: ShopClosedDatesUpdate, version?: string): Promise<ShopSettings> => (await api.put<ShopSettings>('/shop/closed-dates/', update, atVersion(version))).data;
export const saveShopTimeZone = async (update: ShopTimeZoneUpdate, version?: string): Promise<ShopSettings> => (await api.put<ShopSettings>('/shop/time-zone/', update, atVersion(version))).data;
