// The catalogue's calendar (public-holiday closures, yearly patterns by category) found by the last
// whole-catalogue forecast run, so a single product forecast between runs uses the same one. And
// stored forecasts compressed with lz4 where the server has it: a catalogue run writes 25 kB of JSON
// per product, and pglz compression was a third of the database's work in writing it.
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
  await sql`
    do $$ begin
      if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
        alter table forecast_results alter column result set compression lz4;
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_results alter column result set compression default`.execute(db);
  await sql`drop table forecast_calendar`.execute(db);
}
