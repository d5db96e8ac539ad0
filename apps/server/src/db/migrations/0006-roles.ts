// Roles per user (pending < viewer < editor < admin), disabling an account, and when it last signed in.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column role text not null default 'pending' check (role in ('pending', 'viewer', 'editor', 'admin')),
      add column disabled_at timestamptz,
      add column last_sign_in_at timestamptz`.execute(db);
  // Before roles every account could do everything. The first account keeps that as admin; the
  // others keep writing data as editors until an admin decides otherwise (docs/security.md).
  await sql`update users set role = case when id = (select min(id) from users) then 'admin' else 'editor' end`.execute(db);
}
