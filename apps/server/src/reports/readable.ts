// The readable set of report SQL: every table and view of the data schema, by the name the Data
// screen shows. Names are cached briefly for the gate; a name the cache does not know is looked up
// again before a report is refused (a table created a moment ago).
import type { Kysely } from 'kysely';
import type { ReadableRelation } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import type { ReadableNames } from './sandbox/gate.ts';
import * as repo from './repo.ts';

const NAMES_TTL_MS = 5000;

const DESCRIPTIONS: Record<string, string> = {
  products: "One row per product: product_code, name, category, current_stock, unit (what its quantities count: 'kg', 'box'; null is pieces), unit_cost, supplier (who it is bought from; null or blank is none; spellings differing only in case or spaces are one supplier, so group by lower(btrim(supplier))), lead_time_days, order_multiple (the supplier's case size: orders come in whole multiples of it; null is any quantity), min_order_quantity (the supplier's minimum order; null is none), made_here (true: made in the shop, not bought, such as a café's coffee or baking; null or false: bought; the order lists leave products made here out), not_stocked (true: a service or a fee sold on the orders, such as a delivery charge or a gift card: no stock is kept and nothing is ordered; null or false: stocked; the order lists and stock warnings leave it out).",
  sales: 'Units sold: one row per product and day (product_id → products.id, date, quantity).',
  stock_snapshots: 'Counted stock level of a product on a date.',
  deliveries: "Purchase orders: expected_date, quantity, status ('scheduled', 'received', 'cancelled').",
  product_forecasts: 'Daily demand forecast per product with 95% bounds (demand, demand_lower_95, demand_upper_95) and projected stock.',
  stock_projections: 'Daily projected stock per product from its latest forecast, with lower and upper bounds; days_ahead counts from the first forecast day.',
  reorder_advice: "Reorder advice per product from its latest forecast: reorder_point, safety_stock, order_quantity (in whole cases of the product's order_multiple and at least its min_order_quantity, where it has them), order_by, the first projected stockout_date, forecast_start, the first day of the forecast (count recent sales back from it, as the order list does), supplier (the product's, trimmed; null is none: one purchase order per supplier; spellings differing only in case are one supplier), order_multiple and min_order_quantity (the supplier's case size and minimum order the advice was made under; null is none), order_quantity_needed (what the forecast needs before the case size and minimum rounded it up; equal to order_quantity where they changed nothing) and made_here (true: the product is made in the shop, nothing is bought for it, and the order list leaves it out; its advice is stored all the same, so add `where not made_here` and leave out the products whose not_stocked is true (join products on product_id) to list what the order list lists).",
};

export class ReadableCatalogue {
  private cached: { names: ReadableNames; at: number } | null = null;
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async names(options: { fresh?: boolean } = {}): Promise<ReadableNames> {
    if (!options.fresh && this.cached && Date.now() - this.cached.at < NAMES_TTL_MS) return this.cached.names;
    const rows = await repo.listReadableNames(this.db);
    const names: ReadableNames = {
      byName: new Map(rows.map((row) => [row.display_name ?? row.relation, row.relation])),
      tables: new Set(rows.map((row) => row.relation)),
    };
    this.cached = { names, at: Date.now() };
    return names;
  }

  async relations(): Promise<ReadableRelation[]> {
    const byRelation = new Map<string, ReadableRelation>();
    for (const row of await repo.listReadableColumns(this.db)) {
      let relation = byRelation.get(row.relation);
      if (!relation) {
        const name = row.display_name ?? row.relation;
        relation = { name, kind: row.kind, description: DESCRIPTIONS[row.relation] ?? (row.kind === 'view' ? `View ${name}.` : `Table '${name}' from the Data screen.`), columns: [] };
        byRelation.set(row.relation, relation);
      }
      relation.columns.push({ name: row.column, type: row.type });
    }
    return [...byRelation.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
