// A migration test's look at the catalogue: a column's type as PostgreSQL writes it.
import { sql } from 'kysely';
import type { AppDatabase } from '../db/database.ts';

/** `table`'s `column` as `format_type` writes its type ("numeric(14,3)", "character varying(12)"); undefined when it has none. */
export const columnType = async (database: AppDatabase, table: string, column: string): Promise<string | undefined> =>
  (
    await sql<{ type: string }>`select format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = ${table}::regclass and attname = ${column} and not attisdropped`.execute(database.db)
  ).rows[0]?.type;
