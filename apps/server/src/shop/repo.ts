// SQL of the shop's settings: its one row, read and saved.
import { sql, type Kysely } from 'kysely';
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
