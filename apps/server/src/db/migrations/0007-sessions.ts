// One row per sign-in (a refresh-token family): what the profile lists as a session, and the row a
// rotation locks so that consuming a token, checking it and issuing the next one cannot interleave.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id uuid primary key,
      user_id bigint not null references users (id) on delete cascade,
      started_at timestamptz not null default now(),
      last_used_at timestamptz not null default now(),
      expires_at timestamptz not null,
      user_agent text,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index sessions_user on sessions (user_id)`.execute(db);
  // Families issued before this migration become sessions with what their tokens tell.
  await sql`
    insert into sessions (id, user_id, started_at, last_used_at, expires_at, revoked_at)
    select family_id, min(user_id), min(created_at), max(created_at), max(expires_at),
           case when bool_and(revoked_at is not null) then max(revoked_at) end
    from refresh_tokens group by family_id`.execute(db);
  await sql`alter table refresh_tokens add constraint refresh_tokens_session foreign key (family_id) references sessions (id) on delete cascade`.execute(db);
}
