// The shop's settings: its currency, read by every screen that shows money and chosen by an
// administrator (ADR 0166) — nothing is saved for a shop that never chose: its figures stay bare —
// and the days it will be closed on, which the forecast sells nothing on (ADR 0171).
import type { Kysely } from 'kysely';
import type { ShopClosedDate, ShopClosedDatesUpdate, ShopSettings, ShopSettingsUpdate } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import * as repo from './repo.ts';

export type ShopContext = { db: Kysely<Database> };

export async function readShopSettings(ctx: ShopContext): Promise<ShopSettings> {
  const [currency, closedDates] = await Promise.all([repo.readCurrency(ctx.db), repo.readClosedDates(ctx.db)]);
  return { currency, closedDates };
}

export async function updateShopSettings(ctx: ShopContext, update: ShopSettingsUpdate): Promise<ShopSettings> {
  await repo.saveCurrency(ctx.db, update.currency);
  return readShopSettings(ctx);
}

/** Saves the shop's closed days as given: a date given twice counts once (its first note), a blank note is none. */
export async function updateClosedDates(ctx: ShopContext, update: ShopClosedDatesUpdate): Promise<ShopSettings> {
  const byDate = new Map<string, ShopClosedDate>();
  for (const { date, note } of update.closedDates) if (!byDate.has(date)) byDate.set(date, { date, note: note || null });
  await repo.saveClosedDates(ctx.db, [...byDate.values()]);
  return readShopSettings(ctx);
}
