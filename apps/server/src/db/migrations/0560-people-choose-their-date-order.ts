// Each person says how they write dates with numbers alone (ADR 0167, amendment "a person's own date
// order"): `browser` (from their browser's language, as before) until they choose day or month first.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column date_order text not null default 'browser' check (date_order in ('browser', 'day-first', 'month-first'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column date_order`.execute(db);
}
