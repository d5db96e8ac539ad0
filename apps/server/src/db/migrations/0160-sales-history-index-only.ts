// A product's sales history read from the index alone (docs/adr/0122). A catalogue run and every
// forecast read fetch a product's sales by (product_id, date); the unique index on those two did
// not hold the units, so each of a product's rows (~600 in two years) was a visit to the table as well. With
// the units in the index (`include`: not part of the key, so uniqueness and `on conflict` are as
// before) the read is an index-only scan wherever the visibility map is set (autovacuum after
// inserts). That matters most for a shop's real history, inserted day by day: one product's rows
// are then spread over as many table pages as it has days.
import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * The new index is built beside the old one, then takes over its constraint (and name): the build
 * (~7 s per 6 million sales here) holds only a lock that lets reads go on; replacing the constraint
 * in one `alter table` would have locked reads out of the table for all of it.
 */
async function replaceKeyIndex(db: Kysely<unknown>, columns: RawBuilder<unknown>): Promise<void> {
  await sql`create unique index sales_product_id_date_next on data.sales ${columns}`.execute(db);
  await sql`alter table data.sales drop constraint sales_product_id_date_key, add constraint sales_product_id_date_key unique using index sales_product_id_date_next`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceKeyIndex(db, sql`(product_id, date) include (quantity)`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceKeyIndex(db, sql`(product_id, date)`);
}
