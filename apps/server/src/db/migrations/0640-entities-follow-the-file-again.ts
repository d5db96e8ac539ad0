// An entity configuration set back to the configuration file's version (ADR 0181) keeps its row, with
// no configuration of its own: its version counts on and who reset it is recorded, while the entity
// follows the file again (an edit of the file included). Deleting the row instead would restart
// the version at "0" and let a form opened before the reset save over the next save after it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table config_entities alter column config drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Before 0640 an entity following the file had no row.
  await sql`delete from config_entities where config is null`.execute(db);
  await sql`alter table config_entities alter column config set not null`.execute(db);
}
