// The dashboard and the assistant: generated tasks, pinned reports, the per-product demand summary
// written with the forecasts (so the dashboard reads a few sums, not every stored forecast), the
// catalogue summary of stock snapshots, and the assistant's history per user.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A generated task has a kind (its condition); a user's own task has none.
  await sql`alter table tasks add column kind text`.execute(db);
  await sql`alter table tasks add column created_at timestamptz not null default now()`.execute(db);
  await sql`create unique index tasks_user_kind on tasks (user_id, kind) where kind is not null`.execute(db);
  await sql`create index tasks_user_position on tasks (user_id, position)`.execute(db);
  await sql`alter table users add column tasks_generated_at timestamptz`.execute(db);

  await sql`
    create table dashboard_pins (
      user_id bigint not null references users (id) on delete cascade,
      report_id bigint not null references user_reports (id) on delete cascade,
      position integer not null,
      primary key (user_id, report_id)
    )`.execute(db);

  // Cumulative expected demand and its variance to the end of each of the six months after the
  // forecast start, plus the facts the generated tasks ask about.
  await sql`
    create table dashboard_product_summary (
      product_id bigint primary key references data.products (id) on delete cascade,
      forecast_start date not null,
      cum_demand double precision[] not null,
      cum_variance double precision[] not null,
      first_stockout date,
      order_quantity double precision not null default 0
    )`.execute(db);

  await sql`
    create table dashboard_catalogue_summary (
      id integer primary key check (id = 1),
      snapshot_date date,
      snapshot_units double precision,
      previous_date date,
      previous_units double precision,
      computed_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table assistant_messages (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      role text not null check (role in ('user', 'assistant')),
      content text not null,
      blocks jsonb not null default '[]',
      context jsonb,
      created_at timestamptz not null default clock_timestamp()
    )`.execute(db);
  await sql`create index assistant_messages_user on assistant_messages (user_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table assistant_messages`.execute(db);
  await sql`drop table dashboard_catalogue_summary`.execute(db);
  await sql`drop table dashboard_product_summary`.execute(db);
  await sql`drop table dashboard_pins`.execute(db);
  await sql`alter table users drop column tasks_generated_at`.execute(db);
  await sql`drop index tasks_user_position`.execute(db);
  await sql`drop index tasks_user_kind`.execute(db);
  await sql`alter table tasks drop column created_at`.execute(db);
  await sql`alter table tasks drop column kind`.execute(db);
}
