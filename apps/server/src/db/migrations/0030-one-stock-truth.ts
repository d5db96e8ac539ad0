// Issue 13 "one stock truth" (ADR 0030): a stock snapshot that is a product's latest dated figure
// (dated today or earlier) sets products.current_stock, whoever wrote it (the Data screen, an
// import, an integration, SQL). The other way round — current_stock written, today's snapshot
// recorded — is done by the code that writes it (apps/server/src/stock/repo.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function data.stock_follows_latest_snapshot() returns trigger language plpgsql as $$
    begin
      update data.products p set current_stock = latest.stock_level
      from (
        select distinct on (s.product_id) s.product_id, s.stock_level
        from data.stock_snapshots s
        where s.product_id in (select product_id from changed_rows) and s.date <= current_date
        order by s.product_id, s.date desc) latest
      where p.id = latest.product_id and p.current_stock is distinct from latest.stock_level;
      return null;
    end $$`.execute(db);
  // Statement triggers with transition tables: one UPDATE per import, not one per row.
  await sql`
    create trigger stock_snapshots_set_current_stock_insert after insert on data.stock_snapshots
    referencing new table as changed_rows for each statement execute function data.stock_follows_latest_snapshot()`.execute(db);
  await sql`
    create trigger stock_snapshots_set_current_stock_update after update on data.stock_snapshots
    referencing new table as changed_rows for each statement execute function data.stock_follows_latest_snapshot()`.execute(db);
  // Products whose figure differs from their latest snapshot (or have none): the figure is the
  // newer word (it is what the header showed), so it becomes today's snapshot.
  await sql`
    insert into data.stock_snapshots (product_id, date, stock_level)
    select p.id, current_date, p.current_stock from data.products p
    where p.current_stock is not null
      and p.current_stock is distinct from (select s.stock_level from data.stock_snapshots s where s.product_id = p.id and s.date <= current_date order by s.date desc limit 1)
    on conflict (product_id, date) do update set stock_level = excluded.stock_level`.execute(db);
}
