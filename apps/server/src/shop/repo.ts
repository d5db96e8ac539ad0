// SQL of the shop's settings: its one row, read and saved, and the days it is closed on.
import { sql, type Kysely } from 'kysely';
import type { ShopClosedDate } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/** The saved currency code, or null when none was ever chosen (or it was cleared). */
export async function readCurrency(db: Db): Promise<string | null> {
  const row = await db.selectFrom('shop_settings').select('currency').executeTakeFirst();
  return row?.currency ?? null;
}

/** Saves the currency in the one row, creating it the first time. */
export async function saveCurrency(db: Db, currency: string | null): Promise<void> {
  await db
    .insertInto('shop_settings')
    .values({ currency })
    .onConflict((conflict) => conflict.column('only_row').doUpdateSet({ currency, updated_at: sql`now()` }))
    .execute();
}

/** The days the shop will be (or was) closed on, by date. */
export async function readClosedDates(db: Db): Promise<ShopClosedDate[]> {
  return db
    .selectFrom('shop_closed_dates')
    .select([sql<string>`day::text`.as('date'), 'note'])
    .orderBy('day')
    .execute();
}

/** Replaces the closed days with `dates` (each date once). */
export async function saveClosedDates(db: Db, dates: readonly ShopClosedDate[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('shop_closed_dates').execute();
    if (dates.length) await trx.insertInto('shop_closed_dates').values(dates.map(({ date, note }) => ({ day: date, note }))).execute();
  });
}
