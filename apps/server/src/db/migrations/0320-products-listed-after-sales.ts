// When a product joined the catalogue, as the sales history then stood (ADR 0108, amended): a
// product without sales of its own is new only when it was added after most of the history was in.
// The products table has no creation time, and a shop's first import creates every product at once
// before (or after) years of sales, so what is kept is the catalogue's last sales day when the
// product was added; none while there were no sales yet (the first import: listed from the first
// sale on). A statement trigger, so an import of 10,000 products reads the last sales day once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table product_listings (
      product_id bigint primary key references data.products (id) on delete cascade,
      sales_up_to date not null
    )`.execute(db);
  await sql`
    create function data.product_listed_after_sales() returns trigger language plpgsql as $$
    begin
      insert into product_listings (product_id, sales_up_to)
      select added.id, last_sale.day from added cross join (select max(date) as day from data.sales) last_sale
      where last_sale.day is not null
      on conflict (product_id) do nothing;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger products_listed_after_sales after insert on data.products
    referencing new table as added for each statement execute function data.product_listed_after_sales()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger products_listed_after_sales on data.products`.execute(db);
  await sql`drop function data.product_listed_after_sales()`.execute(db);
  await sql`drop table product_listings`.execute(db);
}
