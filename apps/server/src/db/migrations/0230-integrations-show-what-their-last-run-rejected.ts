// An integration shows what its last run refused (records rejected and the first problem) beside its
// status: a run that refused records still ends idle, and only its log said so.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations add column last_run_rejected integer not null default 0, add column last_run_warning text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations drop column last_run_rejected, drop column last_run_warning`.execute(db);
}
