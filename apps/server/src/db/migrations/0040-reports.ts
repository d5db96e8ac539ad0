// User reports, the forecast views reports read (daily stock projection, reorder advice), the
// guarded set-returning functions report SQL is rewritten to, and the report login role of
// PostgreSQL mode (docs/security.md "Report sandbox", docs/operations.md "The report role").
import { sql, type Kysely } from 'kysely';

/** Rows one guarded generate_series may make; the planner is told this many, so cross joins of them cost what they could. */
export const GENERATE_SERIES_ROW_CAP = 1_000_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_reports (
      id bigint generated always as identity primary key,
      title text not null,
      description text not null default '',
      sql_code text not null,
      chart_config jsonb,
      pseudocode text not null default '',
      owner bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index user_reports_title on user_reports (title, updated_at desc)`.execute(db);

  await sql`
    create view data.stock_projections as
    select f.product_id, p.product_code, p.name as product_name, s.ds::date as date,
           s.ds::date - f.forecast_start + 1 as days_ahead,
           s.stock_level as projected_stock, s.stock_lower, s.stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral jsonb_to_recordset(f.result -> 'stock') as s (ds text, stock_level float8, stock_lower float8, stock_upper float8)`.execute(db);
  await sql`
    create view data.reorder_advice as
    select f.product_id, p.product_code, p.name as product_name, p.current_stock,
           (f.result -> 'reorder' ->> 'reorderPoint')::float8 as reorder_point,
           (f.result -> 'reorder' ->> 'safetyStock')::float8 as safety_stock,
           (f.result -> 'reorder' ->> 'orderQuantity')::float8 as order_quantity,
           (f.result -> 'reorder' ->> 'orderBy')::date as order_by,
           (f.result -> 'reorder' ->> 'leadTimeDays')::int as lead_time_days,
           (select min((o ->> 'date')::date) from jsonb_array_elements(f.result -> 'stockouts') o where o ->> 'type' = 'stockForecast') as stockout_date,
           f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);

  // generate_series with bounds computed at run time: the planner cannot size it, so the sandbox
  // calls these instead — they refuse more than the cap and declare the cap as their row estimate.
  await sql`create schema report_guard`.execute(db);
  const cap = sql.lit(GENERATE_SERIES_ROW_CAP);
  const refuse = sql.raw(`raise exception using errcode = '54000', message = 'generate_series would make more than ${GENERATE_SERIES_ROW_CAP.toLocaleString('en')} rows: narrow the range.'`);
  for (const [type, stepType, stepDefault, count] of [
    ['integer', 'integer', '1', 'abs((stop::numeric - start) / step)'],
    ['bigint', 'bigint', '1', 'abs((stop::numeric - start) / step)'],
    ['numeric', 'numeric', '1', 'abs((stop - start) / step)'],
    ['timestamp', 'interval', null, 'abs(extract(epoch from stop - start) / extract(epoch from step))'],
    ['timestamptz', 'interval', null, 'abs(extract(epoch from stop - start) / extract(epoch from step))'],
  ] as const) {
    const stepParameter = sql.raw(`step ${stepType}${stepDefault ? ` default ${stepDefault}` : ''}`);
    const t = sql.raw(type);
    await sql`
      create function report_guard.generate_series(start ${t}, stop ${t}, ${stepParameter}) returns setof ${t}
      language plpgsql immutable rows ${cap} as $$
      begin
        if start is null or stop is null or step is null then return; end if;
        if ${sql.raw(count)} >= ${cap} then ${refuse}; end if;
        return query select pg_catalog.generate_series(start, stop, step);
      end $$`.execute(db);
  }

  // PostgreSQL mode: the login role report SQL runs as. Roles belong to the whole server, so its
  // name carries the database's; an app role without CREATEROLE skips this (the operator creates
  // the role once and sets REPORT_DATABASE_URL, docs/operations.md).
  await sql`
    do $$
    declare
      role_name text := case when length(current_database()) <= 55 then current_database() || '_report'
                             else left(current_database(), 48) || '_' || left(md5(current_database()), 6) || '_report' end;
      secret text := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
      may_create boolean;
    begin
      select rolsuper or rolcreaterole into may_create from pg_roles where rolname = current_user;
      if not may_create then
        raise notice 'Stockwise: % may not create roles; create the report role by hand (docs/operations.md)', current_user;
        return;
      end if;
      if exists (select 1 from pg_roles where rolname = role_name) then
        execute format('alter role %I with login nosuperuser noinherit nocreatedb nocreaterole noreplication nobypassrls connection limit 32 password %L', role_name, secret);
      else
        execute format('create role %I with login nosuperuser noinherit nocreatedb nocreaterole noreplication nobypassrls connection limit 32 password %L', role_name, secret);
      end if;
      execute format('alter role %I set default_transaction_read_only = on', role_name);
      execute format('alter role %I set statement_timeout = %L', role_name, '60s');
      insert into app_secrets (name, value) values ('report_role', role_name), ('report_role_password', secret)
        on conflict (name) do update set value = excluded.value;
    exception when insufficient_privilege then
      -- The role exists but belongs to someone else: leave it to the operator (REPORT_DATABASE_URL).
      raise notice 'Stockwise: % may not change role %; set REPORT_DATABASE_URL (docs/operations.md)', current_user, role_name;
    end $$`.execute(db);
}
