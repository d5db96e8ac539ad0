// Monthly growth one unit at a time (ADR 0177, amendment 2026-12-06 (2)): the dashboard's summary keeps,
// beside the units on hand at the latest snapshot day and a month before, the same two sums per product
// unit as stored ([{unit, now, before}]; " kg" and "KG" are one unit when read). A shop that has counted
// stock gets them from its counts now rather than at its next forecast run, as that run would write them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary add column snapshot_units_by_unit jsonb not null default '[]'`.execute(db);
  // Only where there are counts to sum: a new database has no summary yet, and its products' unit column comes with the configuration at start.
  await sql`
    do $$
    begin
      if exists (select 1 from dashboard_catalogue_summary where snapshot_date is not null)
        and exists (select 1 from information_schema.columns where table_schema = 'data' and table_name = 'products' and column_name = 'unit') then
        update dashboard_catalogue_summary summary set snapshot_units_by_unit = coalesce((
          select jsonb_agg(jsonb_build_object('unit', totals.unit, 'now', totals.now, 'before', totals.before))
          from (
            select p.unit, sum(now.stock_level)::float8 as now, sum(before.stock_level)::float8 as before
            from (select distinct on (product_id) product_id, stock_level from data.stock_snapshots where date <= summary.previous_date order by product_id, date desc) before
            join (select distinct on (product_id) product_id, stock_level from data.stock_snapshots where date <= summary.snapshot_date order by product_id, date desc) now using (product_id)
            join data.products p on p.id = product_id
            group by p.unit
          ) totals), '[]')
        where summary.snapshot_date is not null;
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_catalogue_summary drop column snapshot_units_by_unit`.execute(db);
}
