// An entity configuration saved through the API carries a version and who saved it last (ADR 0168's
// amendment "the entity configuration"): two administrators editing one entity's mapping must not
// silently undo each other. The version counts saves; an entity only in the file has none ("0").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table config_entities add column version bigint not null default 1`.execute(db);
  await sql`alter table config_entities add column updated_by bigint references users (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table config_entities drop column updated_by`.execute(db);
  await sql`alter table config_entities drop column version`.execute(db);
}
