// A stored forecast keeps its daily rows as columns: the first day, then one array per field
// (docs/adr/0152). Forecasts stored before are rewritten so (their figures as written, token for
// token), and the report views read the columns side by side, one row per day as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Rows [{"ds":…,"a":…},…] as {"from":…,"a":[…],…}: each figure's JSON text kept as it is.
  await sql`
    create function stored_forecast_columns(series json, fields text[]) returns text language sql immutable as $$
      select '{"from":' || coalesce(to_json(series -> 0 ->> 'ds')::text, 'null')
        || coalesce((select string_agg(',' || to_json(field)::text || ':['
             || coalesce((select string_agg(coalesce(day -> field, 'null')::text, ',' order by n) from json_array_elements(series) with ordinality as d (day, n)), '')
             || ']', '' order by k)
           from unnest(fields) with ordinality as f (field, k)), '')
        || '}'
    $$`.execute(db);
  await sql`
    update forecast_results f set result = (
      select '{' || string_agg(to_json(m.key)::text || ':' || case m.key
          when 'forecast' then stored_forecast_columns(m.value, array['yhat', 'yhat_lower', 'yhat_upper', 'yhat_lower_80', 'yhat_upper_80'])
          when 'stock' then stored_forecast_columns(m.value, array['stock_level', 'stock_upper', 'stock_lower'])
          when 'backtest' then stored_forecast_columns(m.value, array['yhat', 'yhat_lower', 'yhat_upper'])
          else m.value::text end, ',' order by m.n) || '}'
      from json_each(f.result::json) with ordinality as m (key, value, n))
    where json_typeof(f.result::json -> 'forecast') = 'array'`.execute(db);
  await sql`drop function stored_forecast_columns(json, text[])`.execute(db);
  // Same columns as migration 0140's views; the series are zipped by day (stock has the forecast's
  // days, or none when the stock is not known: nulls, as the left join gave).
  await sql`
    create or replace view data.product_forecasts as
    select f.product_id, p.product_code, (j.forecast ->> 'from')::date + (d.n - 1)::int as date,
           d.yhat::float8 as demand, d.yhat_lower::float8 as demand_lower_95, d.yhat_upper::float8 as demand_upper_95,
           d.stock_level::float8 as stock_level, d.stock_lower::float8 as stock_lower, d.stock_upper::float8 as stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral json_to_record(f.result::json) as j (forecast json, stock json)
    cross join lateral rows from (
      json_array_elements_text(j.forecast -> 'yhat'), json_array_elements_text(j.forecast -> 'yhat_lower'), json_array_elements_text(j.forecast -> 'yhat_upper'),
      json_array_elements_text(j.stock -> 'stock_level'), json_array_elements_text(j.stock -> 'stock_lower'), json_array_elements_text(j.stock -> 'stock_upper')
    ) with ordinality as d (yhat, yhat_lower, yhat_upper, stock_level, stock_lower, stock_upper, n)`.execute(db);
  await sql`
    create or replace view data.stock_projections as
    select f.product_id, p.product_code, p.name as product_name, (j.stock ->> 'from')::date + (d.n - 1)::int as date,
           (j.stock ->> 'from')::date + (d.n - 1)::int - f.forecast_start + 1 as days_ahead,
           d.stock_level::float8 as projected_stock, d.stock_lower::float8 as stock_lower, d.stock_upper::float8 as stock_upper, f.generated_at
    from forecast_results f
    join data.products p on p.id = f.product_id
    cross join lateral json_to_record(f.result::json) as j (stock json)
    cross join lateral rows from (
      json_array_elements_text(j.stock -> 'stock_level'), json_array_elements_text(j.stock -> 'stock_lower'), json_array_elements_text(j.stock -> 'stock_upper')
    ) with ordinality as d (stock_level, stock_lower, stock_upper, n)`.execute(db);
}
