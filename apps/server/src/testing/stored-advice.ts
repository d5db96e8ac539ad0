// Tests that need the order advice of a finished whole-catalogue run without running the engine:
// a completed catalogue task and, per product, the advice fields of a stored forecast, with what is
// on hand as the run stores it for a product counted on the first forecast day: its latest count.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ProductForecast } from '@stockwise/forecast';
import type { Database } from '../db/schema.ts';

export type StoredAdvice = { productId: number; forecastStart: string; stockouts: ProductForecast['stockouts']; reorder: ProductForecast['reorder'] };

export async function storeCatalogueAdvice(db: Kysely<Database>, products: StoredAdvice[]): Promise<string> {
  const taskId = randomUUID();
  await db.insertInto('forecast_tasks').values({ id: taskId, style_code: null, forecast_days: 90, status: 'completed', requested_by: null, job_id: null, error: null, results: null }).execute();
  await db
    .insertInto('forecast_results')
    .values(
      products.map((p) => ({
        product_id: p.productId,
        task_id: taskId,
        forecast_days: 90,
        forecast_start: p.forecastStart,
        result: JSON.stringify({ stockouts: p.stockouts, reorder: p.reorder, model: { name: 'Test' } }),
      })),
    )
    .onConflict((oc) => oc.column('product_id').doUpdateSet((eb) => ({ task_id: eb.ref('excluded.task_id'), forecast_start: eb.ref('excluded.forecast_start'), result: eb.ref('excluded.result') })))
    .execute();
  await sql`
    update forecast_results f set on_hand = k.stock_level, on_hand_counted = k.stock_level, on_hand_counted_on = k.date
    from (select distinct on (product_id) product_id, stock_level, date from data.stock_snapshots order by product_id, date desc) k
    where k.product_id = f.product_id and f.task_id = ${taskId}`.execute(db);
  return taskId;
}
