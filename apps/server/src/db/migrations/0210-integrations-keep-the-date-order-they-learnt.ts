// An integration keeps the date order (day-first or month-first) its runs learnt from dates over 12
// (docs/adr/0140): a daily feed's days 1–12 of a month cannot tell it, and were refused as ambiguous.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations add column learnt_date_format text check (learnt_date_format in ('dd/mm/yyyy', 'mm/dd/yyyy'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations drop column learnt_date_format`.execute(db);
}
