// A product's sales history read from the index alone (docs/adr/0122). A catalogue run and every
// forecast read fetch a product's sales by (product_id, date); the unique index on those two did
// not hold the units, so each of a product's ~600 rows a year was a visit to the table as well. With
// the units in the index (`include`: not part of the key, so uniqueness and `on conflict` are as
// before) the read is an index-only scan wherever the visibility map is set (autovacuum after
// inserts). That matters most for a shop's real history, inserted day by day: one product's rows
// are then spread over as many table pages as it has days.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data.sales drop constraint sales_product_id_date_key, add constraint sales_product_id_date_key unique (product_id, date) include (quantity)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data.sales drop constraint sales_product_id_date_key, add constraint sales_product_id_date_key unique (product_id, date)`.execute(db);
}
