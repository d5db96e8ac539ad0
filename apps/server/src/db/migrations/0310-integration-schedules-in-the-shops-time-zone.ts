// An integration's schedule runs in a time zone of the shop's choosing ("daily" at midnight where
// the shop is, not at midnight UTC); integrations saved before keep UTC, as they ran.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations add column time_zone text not null default 'UTC'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations drop column time_zone`.execute(db);
}
