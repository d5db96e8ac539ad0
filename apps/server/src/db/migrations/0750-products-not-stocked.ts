// Products not stocked (docs/adr/0200): a service or a fee sold on the orders (an Odoo wholesaler's
// delivery charge, a web shop's gift card) has no stock and is never bought, so the order lists, the
// stock warnings and counts and the stock-count tasks leave it out; it is still forecast. A nullable
// boolean: blank (null) or false is stocked, true is not stocked; no default, so an import leaving
// it blank is not said to have used one. Its definition goes after made_here (or the supplier's
// terms, or last).
import type { Kysely } from 'kysely';
import { addProductsColumn, dropProductsColumn } from './products-boolean-column.ts';

export const up = (db: Kysely<unknown>): Promise<void> =>
  addProductsColumn(db, { key: 'not_stocked', label: 'Not stocked (a service or fee)', after: ['supplier', 'lead_time_days', 'order_multiple', 'min_order_quantity', 'made_here'] });

export const down = (db: Kysely<unknown>): Promise<void> => dropProductsColumn(db, 'not_stocked');
