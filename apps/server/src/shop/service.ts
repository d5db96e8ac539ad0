// The shop's settings: its currency, read by every screen that shows money and chosen by an
// administrator (ADR 0166) — nothing is saved for a shop that never chose: its figures stay bare —
// and the days it will be closed on, which the forecast sells nothing on (ADR 0171). Each is saved
// at the version its panel read (If-Match): a save over another administrator's since is refused
// (ADR 0168's amendment "the shop's settings").
import type { Kysely } from 'kysely';
import { shopTimeZoneName, type ShopClosedDate, type ShopClosedDatesUpdate, type ShopSettings, type ShopSettingsUpdate, type ShopTimeZoneUpdate } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { editConflictError, type EditConflict, type VersionedWrite } from '../http/versions.ts';
import * as repo from './repo.ts';

export type ShopContext = { db: Kysely<Database> };

/** The zone the server process runs in (its TZ; UTC when unset): the shop's while it chose none. */
const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The zone whose today is the shop's — the forecast's first day (ADR 0173): the one chosen in Settings → Shop, else the server's. */
export async function shopTimeZone(db: Kysely<Database>): Promise<string> {
  return (await repo.readTimeZone(db)) ?? serverTimeZone();
}

const present = (row: repo.ShopSettingsRow, closedDates: ShopClosedDate[]): ShopSettings => ({
  currency: row.currency,
  currencyVersion: row.versions.currency.version,
  closedDates,
  closedDatesVersion: row.versions.closed_dates.version,
  timeZone: row.timeZone,
  timeZoneVersion: row.versions.time_zone.version,
  timeZoneInEffect: row.timeZone ?? serverTimeZone(),
  timeZoneSource: row.timeZone ? 'shop' : 'server',
});

/** How a refusal names each panel: "The shop's time zone was changed by kim at 14:02 …". */
const PANEL_THINGS: Record<repo.ShopPanel, EditConflict['thing']> = { currency: 'currency', closed_dates: 'closed dates', time_zone: 'time zone' };

export async function readShopSettings(ctx: ShopContext): Promise<ShopSettings> {
  const [row, closedDates] = await Promise.all([repo.readSettings(ctx.db), repo.readClosedDates(ctx.db)]);
  return present(row, closedDates);
}

/** The refusal of a save of `panel` on a version no longer stored: the settings now, and who saved that panel last, when known. */
async function refusedShopWrite(ctx: ShopContext, panel: repo.ShopPanel, write: VersionedWrite) {
  const [row, closedDates] = await Promise.all([repo.readSettings(ctx.db), repo.readClosedDates(ctx.db)]);
  const { by, at } = row.versions[panel];
  return editConflictError({
    thing: PANEL_THINGS[panel],
    action: 'edit',
    current: present(row, closedDates),
    lastSave: at ? { by, at } : null,
    timeZone: write.timeZone,
  });
}

export async function updateShopSettings(ctx: ShopContext, update: ShopSettingsUpdate, write: VersionedWrite): Promise<ShopSettings> {
  if ((await repo.saveCurrency(ctx.db, update.currency, write)) === 'stale') throw await refusedShopWrite(ctx, 'currency', write);
  return readShopSettings(ctx);
}

/** Saves the shop's closed days as given: a date given twice counts once (its first note), a blank note is none. */
export async function updateClosedDates(ctx: ShopContext, update: ShopClosedDatesUpdate, write: VersionedWrite): Promise<ShopSettings> {
  const byDate = new Map<string, ShopClosedDate>();
  for (const { date, note } of update.closedDates) if (!byDate.has(date)) byDate.set(date, { date, note: note || null });
  if ((await repo.saveClosedDates(ctx.db, [...byDate.values()], write)) === 'stale') throw await refusedShopWrite(ctx, 'closed_dates', write);
  return readShopSettings(ctx);
}

/** Saves the shop's time zone by its IANA name as the runtime writes it (europe/london: Europe/London); null: the server's again. */
export async function updateTimeZone(ctx: ShopContext, update: ShopTimeZoneUpdate, write: VersionedWrite): Promise<ShopSettings> {
  const timeZone = update.timeZone === null ? null : shopTimeZoneName(update.timeZone);
  if ((await repo.saveTimeZone(ctx.db, timeZone, write)) === 'stale') throw await refusedShopWrite(ctx, 'time_zone', write);
  return readShopSettings(ctx);
}
