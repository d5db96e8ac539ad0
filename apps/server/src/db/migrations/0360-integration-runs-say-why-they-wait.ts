// A run retrying a failing endpoint says so while it waits: which try comes, of how many, when,
// and why the last one failed (`progress`, null once a page arrives and when the run ends). The web
// polls the run's log entry, so the row is the one place it is kept.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs add column progress jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs drop column progress`.execute(db);
}
