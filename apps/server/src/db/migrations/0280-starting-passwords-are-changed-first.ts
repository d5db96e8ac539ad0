// A password an administrator gave (adding a colleague, or resetting a forgotten password) is a
// starting password: the account changes it before it reads or changes anything (docs/adr/0151).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column must_change_password boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column must_change_password`.execute(db);
}
