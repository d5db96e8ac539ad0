// What a forecast task forecasts: one product (style_code), a list of products (product_ids,
// migration 0710) or, naming neither, the whole catalogue. Kept apart from repo.ts so the order
// advice and the dashboard, which forecasting's repo imports, can read the catalogue's runs too.
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A whole-catalogue task: it names no product and no list. */
export const isCatalogueTask = (eb: ExpressionBuilder<Database, 'forecast_tasks'>) => eb.and([eb('style_code', 'is', null), eb('product_ids', 'is', null)]);
