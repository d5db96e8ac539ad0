// Stored forecasts as the engine's JSON text (issue #17, docs/adr/0083): a catalogue run no longer has
// PostgreSQL build a jsonb tree of every ~20 kB forecast, and a forecast read splices the stored text
// into its answer instead of having the driver parse it and the server write it again. The order
// advice and the report views read three small columns the database fills from the text on write;
// the daily figures of the views are read from the text (json, one pass per row) when a report asks.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await dropForecastViews(db);
  await sql`alter table forecast_results alter column result type text using result::text`.execute(db);
  await compressResultWithLz4(db);
  await sql`alter table forecast_results add column stockouts jsonb, add column reorder jsonb, add column model_name text`.execute(db);
  // One pass over the text for the three (a generated column each would parse it three times); every
  // writer gets them, the catalogue run and a hand-written insert alike.
  await sql`
    create function forecast_results_advice() returns trigger language plpgsql as $$
    begin
      select j.stockouts, j.reorder, j.model ->> 'name' into new.stockouts, new.reorder, new.model_name
      from json_to_record(new.result::json) as j (stockouts jsonb, reorder jsonb, model json);
      return new;
    end $$`.execute(db);
  await sql`create trigger forecast_results_advice before insert or update of result on forecast_results for each row execute function forecast_results_advice()`.execute(db);
  await sql`update forecast_results set result = result`.execute(db);
  await sql`
    create view data.product_forecasts as
    select f.product_id, p.product_code, r.ds::date as date,
           r.yhat as demand, r.yhat_lower as demand_lower_95, r.yhat_upper as demand_upper_95,
           s.stock_level, s.stock_lower, s.stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral json_to_record(f.result::json) as j (forecast json, stock json)
    cross join lateral json_to_recordset(j.forecast) as r (ds text, yhat float8, yhat_lower float8, yhat_upper float8)
    left join lateral json_to_recordset(j.stock) as s (ds text, stock_level float8, stock_lower float8, stock_upper float8) on s.ds = r.ds`.execute(db);
  await sql`
    create view data.stock_projections as
    select f.product_id, p.product_code, p.name as product_name, s.ds::date as date,
           s.ds::date - f.forecast_start + 1 as days_ahead,
           s.stock_level as projected_stock, s.stock_lower, s.stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral json_to_recordset(f.result::json -> 'stock') as s (ds text, stock_level float8, stock_lower float8, stock_upper float8)`.execute(db);
  await sql`
    create view data.reorder_advice as
    select f.product_id, p.product_code, p.name as product_name, p.current_stock,
           (f.reorder ->> 'reorderPoint')::float8 as reorder_point,
           (f.reorder ->> 'safetyStock')::float8 as safety_stock,
           (f.reorder ->> 'orderQuantity')::float8 as order_quantity,
           (f.reorder ->> 'orderBy')::date as order_by,
           (f.reorder ->> 'leadTimeDays')::int as lead_time_days,
           (select min((o ->> 'date')::date) from jsonb_array_elements(f.stockouts) o where o ->> 'type' = 'stockForecast') as stockout_date,
           f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id`.execute(db);
}

const dropForecastViews = async (db: Kysely<unknown>) => {
  for (const view of ['product_forecasts', 'stock_projections', 'reorder_advice']) await sql`drop view data.${sql.id(view)}`.execute(db);
};

/** As migration 0090: lz4 where the server has it (a changed column type starts over with the default). */
const compressResultWithLz4 = (db: Kysely<unknown>) =>
  sql`
    do $$ begin
      if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
        alter table forecast_results alter column result set compression lz4;
      end if;
    end $$`.execute(db);
