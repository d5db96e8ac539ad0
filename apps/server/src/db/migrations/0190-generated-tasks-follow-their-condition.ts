// Generated tasks follow their condition (docs/adr/0136): a kind whose condition first holds after
// the user's first dashboard read is made then (it was made at that read or never), a task that
// completed itself reopens when its condition comes back, and a deleted one stays away.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Set when the task completed itself because its condition cleared: it reopens when the condition holds again.
  await sql`alter table tasks add column condition_cleared boolean not null default false`.execute(db);
  // A generated task the user deleted: kept, hidden, so it is not made again.
  await sql`alter table tasks add column dismissed boolean not null default false`.execute(db);
  await sql`alter table users drop column tasks_generated_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column tasks_generated_at timestamptz`.execute(db);
  await sql`delete from tasks where dismissed`.execute(db);
  await sql`alter table tasks drop column dismissed`.execute(db);
  await sql`alter table tasks drop column condition_cleared`.execute(db);
}
