// Data action replace deletes only rows its integration created (docs/adr/0139): a row that was
// stored before (a file's, the demo's, another integration's) and that a run updated is noted under
// the run, so its later batches add to it, but a later run that does not fetch it again leaves it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Notes from before this migration were all taken as the integration's own, as replace did.
  await sql`alter table import_row_sources add column created boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_row_sources drop column created`.execute(db);
}
