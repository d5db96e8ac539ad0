// Trigram indexes make "contains" filters on large text columns use an index instead of a scan.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
}
