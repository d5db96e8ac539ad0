// Forecast generation tasks, the stored forecast of each product, and a view of daily forecasts
// in the data schema so SQL reports can join them with sales and stock.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table forecast_tasks (
      id uuid primary key,
      job_id text,
      style_code text,
      forecast_days integer not null,
      status text not null default 'pending' check (status in ('pending', 'processing', 'running', 'completed', 'failed')),
      progress_done integer not null default 0,
      progress_total integer not null default 0,
      results jsonb,
      error text,
      requested_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index forecast_tasks_catalogue on forecast_tasks (created_at desc) where style_code is null and status = 'completed'`.execute(db);
  await sql`
    create table forecast_results (
      product_id bigint primary key references data.products (id) on delete cascade,
      task_id uuid references forecast_tasks (id) on delete set null,
      forecast_days integer not null,
      forecast_start date not null,
      generated_at timestamptz not null default now(),
      result jsonb not null
    )`.execute(db);
  await sql`
    create view data.product_forecasts as
    select f.product_id, p.product_code, r.ds::date as date,
           r.yhat as demand, r.yhat_lower as demand_lower_95, r.yhat_upper as demand_upper_95,
           s.stock_level, s.stock_lower, s.stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral jsonb_to_recordset(f.result -> 'forecast') as r (ds text, yhat float8, yhat_lower float8, yhat_upper float8)
    left join lateral jsonb_to_recordset(f.result -> 'stock') as s (ds text, stock_level float8, stock_lower float8, stock_upper float8) on s.ds = r.ds`.execute(db);
}
