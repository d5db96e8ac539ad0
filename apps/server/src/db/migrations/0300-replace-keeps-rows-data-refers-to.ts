// Replace keeps the rows of data tables that a shop's history refers to (a product with sales) and
// says so: a run's log counts the rows it kept and holds its message, and the integration shows the
// last finished run's message beside its status.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs add column rows_kept integer not null default 0, add column kept_message text`.execute(db);
  await sql`alter table integrations add column last_run_kept_message text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs drop column rows_kept, drop column kept_message`.execute(db);
  await sql`alter table integrations drop column last_run_kept_message`.execute(db);
}
