// Products made in the shop (docs/adr/0194): a café's flat whites, croissants and banana bread are
// made here, nothing is bought for them, so the order lists, their warnings and the stock-count
// tasks leave them out; they are still forecast. A nullable boolean: blank (null) or false is "not
// made here", true is made here; no default, so an import leaving it blank is not said to have
// used one. The column is added to products and its variations (copies of its columns), and its
// definition to the catalogue's stored columns after the supplier's terms (the minimum order), so
// the Data screen shows and edits it and an import can fill it. A fresh database has no
// definitions yet: they come from the configuration at start. No table is rewritten.
import type { Kysely } from 'kysely';
import { addProductsColumn, dropProductsColumn } from './products-boolean-column.ts';

export const up = (db: Kysely<unknown>): Promise<void> =>
  // After the supplier and its terms.
  addProductsColumn(db, { key: 'made_here', label: 'Made here (not ordered)', after: ['supplier', 'lead_time_days', 'order_multiple', 'min_order_quantity'] });

export const down = (db: Kysely<unknown>): Promise<void> => dropProductsColumn(db, 'made_here');
