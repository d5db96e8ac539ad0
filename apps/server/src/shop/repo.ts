// SQL of the shop's settings: its one row, read and saved, and the days it is closed on. Each of its
// panels (the currency, the closed dates, the time zone) counts its own saves (ADR 0168's amendment).
import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { ShopClosedDate } from '@stockwise/contract';
import type { Database, ShopSettingsTable } from '../db/schema.ts';

type Db = Kysely<Database>;

/** A part of the settings saved on its own, with its own version. */
export type ShopPanel = 'currency' | 'closed_dates' | 'time_zone';

/** A panel's version ("0": never saved, or no row yet) and its last save: who (null: unknown, or an account deleted since) and when (null: none since versions began). */
export type PanelVersion = { version: string; by: string | null; at: Date | null };

/** A save by user `by` at version `expected` (any when undefined). */
export type PanelSave = { by: number; expected?: string | undefined };

export type ShopSettingsRow = { currency: string | null; timeZone: string | null; versions: Record<ShopPanel, PanelVersion> };

/** The saved currency code, or null when none was ever chosen (or it was cleared). */
export async function readCurrency(db: Db): Promise<string | null> {
  const row = await db.selectFrom('shop_settings').select('currency').executeTakeFirst();
  return row?.currency ?? null;
}

/** The shop's saved time zone (an IANA name), or null when none was ever chosen (or it was cleared). */
export async function readTimeZone(db: Db): Promise<string | null> {
  const row = await db.selectFrom('shop_settings').select('time_zone').executeTakeFirst();
  return row?.time_zone ?? null;
}

const NEVER_SAVED: PanelVersion = { version: '0', by: null, at: null };

/** The saved currency and time zone (each null when none was ever chosen, or it was cleared) and each panel's version. */
export async function readSettings(db: Db): Promise<ShopSettingsRow> {
  const row = await db
    .selectFrom('shop_settings as s')
    .leftJoin('users as currency_editor', 'currency_editor.id', 's.currency_updated_by')
    .leftJoin('users as dates_editor', 'dates_editor.id', 's.closed_dates_updated_by')
    .leftJoin('users as zone_editor', 'zone_editor.id', 's.time_zone_updated_by')
    .select([
      's.currency',
      sql<string>`s.currency_version::text`.as('currency_version'),
      'currency_editor.username as currency_by',
      's.currency_updated_at',
      sql<string>`s.closed_dates_version::text`.as('closed_dates_version'),
      'dates_editor.username as closed_dates_by',
      's.closed_dates_updated_at',
      's.time_zone',
      sql<string>`s.time_zone_version::text`.as('time_zone_version'),
      'zone_editor.username as time_zone_by',
      's.time_zone_updated_at',
    ])
    .executeTakeFirst();
  if (!row) return { currency: null, timeZone: null, versions: { currency: NEVER_SAVED, closed_dates: NEVER_SAVED, time_zone: NEVER_SAVED } };
  const at = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    currency: row.currency,
    timeZone: row.time_zone,
    versions: {
      currency: { version: row.currency_version, by: row.currency_by, at: at(row.currency_updated_at) },
      closed_dates: { version: row.closed_dates_version, by: row.closed_dates_by, at: at(row.closed_dates_updated_at) },
      time_zone: { version: row.time_zone_version, by: row.time_zone_by, at: at(row.time_zone_updated_at) },
    },
  };
}

/**
 * Makes `write` a save of `panel` by user `by`, only while the panel is still at version `expected`
 * (when given): the one row is created if need be and locked before the versions are compared, so of
 * two saves on one version the second waits and then finds it stale. 'stale' writes nothing.
 */
function savePanel(db: Db, panel: ShopPanel, save: PanelSave, write: (trx: Transaction<Database>) => Promise<unknown>) {
  return db.transaction().execute(async (trx): Promise<'saved' | 'stale'> => {
    await trx.insertInto('shop_settings').defaultValues().onConflict((conflict) => conflict.column('only_row').doNothing()).execute();
    const version = `${panel}_version` as const;
    const stored = await trx.selectFrom('shop_settings').select(sql<string>`${sql.ref(version)}::text`.as('version')).forUpdate().executeTakeFirstOrThrow();
    if (save.expected !== undefined && stored.version !== save.expected) return 'stale';
    await write(trx);
    const saved = { updated_at: sql`now()`, [version]: sql`${sql.ref(version)} + 1`, [`${panel}_updated_by`]: save.by, [`${panel}_updated_at`]: sql`now()` };
    await trx.updateTable('shop_settings').set(saved as Updateable<ShopSettingsTable>).execute();
    return 'saved';
  });
}

/** Saves the currency in the one row at version `expected` (any when undefined). */
export const saveCurrency = (db: Db, currency: string | null, save: PanelSave) =>
  savePanel(db, 'currency', save, (trx) => trx.updateTable('shop_settings').set({ currency }).execute());

/** Saves the time zone (an IANA name; null: the server's) in the one row at version `expected` (any when undefined). */
export const saveTimeZone = (db: Db, timeZone: string | null, save: PanelSave) =>
  savePanel(db, 'time_zone', save, (trx) => trx.updateTable('shop_settings').set({ time_zone: timeZone }).execute());

/** The days the shop will be (or was) closed on, by date. */
export async function readClosedDates(db: Db): Promise<ShopClosedDate[]> {
  return db
    .selectFrom('shop_closed_dates')
    .select([sql<string>`day::text`.as('date'), 'note'])
    .orderBy('day')
    .execute();
}

/** Replaces the closed days with `dates` (each date once), at version `expected` (any when undefined). */
export const saveClosedDates = (db: Db, dates: readonly ShopClosedDate[], save: PanelSave) =>
  savePanel(db, 'closed_dates', save, async (trx) => {
    await trx.deleteFrom('shop_closed_dates').execute();
    if (dates.length) await trx.insertInto('shop_closed_dates').values(dates.map(({ date, note }) => ({ day: date, note }))).execute();
  });
