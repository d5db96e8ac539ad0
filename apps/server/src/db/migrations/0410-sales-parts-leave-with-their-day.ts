// A sales row's parts (ADR 0164) leave with it by a statement trigger rather than a foreign key: the
// key's check ran once per part written, as much time as writing the part itself (docs/performance.md,
// "Sales kept per source"), while rows are deleted far less often than written. Sales ids are never
// reused, so a part can only ever name the row it was written for.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sales_sources drop constraint sales_sources_sales_id_fkey`.execute(db);
  await sql`
    create function data.sales_parts_leave_with_their_day() returns trigger language plpgsql as $$
    begin
      delete from sales_sources l using gone where l.sales_id = gone.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger sales_parts_leave_with_their_day after delete on data.sales
    referencing old table as gone for each statement execute function data.sales_parts_leave_with_their_day()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger sales_parts_leave_with_their_day on data.sales`.execute(db);
  await sql`drop function data.sales_parts_leave_with_their_day()`.execute(db);
  await sql`delete from sales_sources l where not exists (select 1 from data.sales s where s.id = l.sales_id)`.execute(db);
  await sql`alter table sales_sources add foreign key (sales_id) references data.sales (id) on delete cascade`.execute(db);
}
