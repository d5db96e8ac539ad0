// The deliveries' key, product and day, as a unique index (ADR 0182, amendment 2026-12-06): migration
// 0020 made it only where no product had two deliveries on one day, and kept the repeats of a database
// that had them. One cleaned up since gets its index now; one that still repeats a day keeps its rows
// as they are (nothing is merged or deleted), and its writers take the product's turn instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$ begin
      if not exists (select 1 from data.deliveries group by product_id, expected_date having count(*) > 1) then
        create unique index if not exists deliveries_product_expected_date on data.deliveries (product_id, expected_date);
      end if;
    end $$`.execute(db);
}

/**
 * Going back keeps the index: where it is 0020's, this migration cannot tell, and it is the key
 * either way (0020's own down drops it). A down that does nothing still lets later migrations' tests
 * and an operator step back past 0670.
 */
export async function down(): Promise<void> {}
