// Sign-in throttling as one counter row per (account, client address) and per address (account ''),
// bumped atomically before each password check, replacing the rows-per-failure table that was
// counted and then checked (parallel attempts all passed the count).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sign_in_throttle (
      account text not null,
      ip text not null,
      attempts integer not null,
      retry_at timestamptz not null,
      updated_at timestamptz not null default now(),
      primary key (account, ip)
    )`.execute(db);
  await sql`drop table login_failures`.execute(db);
}
