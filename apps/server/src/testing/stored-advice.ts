// Tests that need the order advice of a finished whole-catalogue run without running the engine:
// a completed catalogue task and, per product, the advice fields of a stored forecast.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ProductForecast } from '@stockwise/forecast';
import type { Database } from '../db/schema.ts';
import { upsertForecastResults } from '../forecasting/repo.ts';

export type StoredAdvice = { productId: number; forecastStart: string; stockouts: ProductForecast['stockouts']; reorder: ProductForecast['reorder'] };

export async function storeCatalogueAdvice(db: Kysely<Database>, products: StoredAdvice[]): Promise<string> {
  const taskId = randomUUID();
  await db.insertInto('forecast_tasks').values({ id: taskId, style_code: null, forecast_days: 90, status: 'completed', requested_by: null, job_id: null, error: null, results: null }).execute();
  await upsertForecastResults(
    db,
    products.map((p) => ({ productId: p.productId, taskId, forecastDays: 90, forecastStart: p.forecastStart, resultJson: JSON.stringify({ stockouts: p.stockouts, reorder: p.reorder, model: { name: 'Test' } }) })),
  );
  return taskId;
}
