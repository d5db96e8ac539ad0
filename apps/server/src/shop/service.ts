// The shop's settings (ADR 0166): its currency, read by every screen that shows money and chosen by
// an administrator. Nothing is saved for a shop that never chose: its figures stay bare.
import type { Kysely } from 'kysely';
import type { ShopSettings, ShopSettingsUpdate } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import * as repo from './repo.ts';

export type ShopContext = { db: Kysely<Database> };

export async function readShopSettings(ctx: ShopContext): Promise<ShopSettings> {
  return { currency: await repo.readCurrency(ctx.db) };
}

export async function updateShopSettings(ctx: ShopContext, update: ShopSettingsUpdate): Promise<ShopSettings> {
  await repo.saveCurrency(ctx.db, update.currency);
  return readShopSettings(ctx);
}
