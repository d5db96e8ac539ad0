// The catalogue's calendar (public-holiday closures, yearly patterns by category) found by the last
// whole-catalogue forecast run, so a single product forecast between runs uses the same one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table forecast_calendar (
      id integer primary key check (id = 1),
      history_start date not null,
      history_end date not null,
      calendar jsonb not null,
      computed_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table forecast_calendar`.execute(db);
}
