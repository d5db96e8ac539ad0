// An integration's configuration carries its own version and who saved it last (ADR 0168's
// amendment): every run writes the integration's row (status, last run), so its xmin would make an
// admin's open edit form stale after each run. The version counts saves of the configuration alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations add column config_version bigint not null default 1`.execute(db);
  await sql`alter table integrations add column updated_by bigint references users (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations drop column updated_by`.execute(db);
  await sql`alter table integrations drop column config_version`.execute(db);
}
