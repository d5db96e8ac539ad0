// A whole-catalogue run cut off by a crash (SIGKILL, the run's process dying) is run again by its
// job's retry; it says so and goes on after the products it had stored (QA F3; ADR 0170): when it
// stopped, how many of how many products were done before, and whether those were kept.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_tasks add column restart jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_tasks drop column restart`.execute(db);
}
