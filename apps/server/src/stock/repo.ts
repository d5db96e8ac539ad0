// One stock truth (issue 13, ADR 0030): `products.current_stock` is the on-hand figure now and
// stock snapshots are its history. Writing current_stock (the Data screen, an import, an
// integration) records it as today's snapshot, here; a snapshot that becomes a product's latest
// dated figure sets its current_stock (a trigger, migration 0030). Not a trigger on products
// itself: the demo seed and tests insert products with their own dated history, and a snapshot
// dated by the database clock would cut into it.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Today's snapshot of the products `products` selects (a query of `id`s) from their current_stock;
 * a product without one is left out. Answers how many snapshots were written.
 */
export function recordTodaysStockSql(products: RawBuilder<unknown>) {
  return sql<{ recorded: number }>`
    with recorded as (
      insert into data.stock_snapshots (product_id, date, stock_level)
      select p.id, current_date, p.current_stock from data.products p
      where p.id in (${products}) and p.current_stock is not null
      on conflict (product_id, date) do update set stock_level = excluded.stock_level
      where data.stock_snapshots.stock_level is distinct from excluded.stock_level
      returning 1)
    select count(*)::int as recorded from recorded`;
}

export async function recordTodaysStock(db: Kysely<Database>, productIds: number[]): Promise<void> {
  if (productIds.length) await recordTodaysStockSql(sql`select unnest(${productIds}::bigint[])`).execute(db);
}


/**
 * A product's units on hand now, the Forecasting header's figure (ADR 0030, amendment 2026-12-04),
 * as SQL over `p` (data.products) and `f` (its forecast_results row, left-joined): the figure stored
 * with its forecast (null: not counted); a product not forecast yet (before the first run, or just
 * added) counts with its stored figure, the latest count.
 */
export const onHandNowUnits = sql<number | null>`(case when f.product_id is null then p.current_stock else f.on_hand end)`;
