// Calls of the shop's settings (docs/api.md "Shop").
import type { ShopClosedDatesUpdate, ShopSettings, ShopSettingsUpdate } from '@stockwise/contract';
import { api } from './http.ts';

export const fetchShopSettings = async (): Promise<ShopSettings> => (await api.get<ShopSettings>('/shop/')).data;
export const saveShopSettings = async (update: ShopSettingsUpdate): Promise<ShopSettings> => (await api.put<ShopSettings>('/shop/', update)).data;
export const saveShopClosedDates = async (update: ShopClosedDatesUpdate): Promise<ShopSettings> => (await api.put<ShopSettings>('/shop/closed-dates/', update)).data;
