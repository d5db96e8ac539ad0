// SQL of the forecasting feature: generation tasks, product histories and stored forecasts.
import { sql, type Kysely } from 'kysely';
import { databaseErrorOf } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

export type ProductRecord = { id: number; product_code: string; name: string; current_stock: number; unit_cost: number; lead_time_days: number };
const productColumns = ['id', 'product_code', 'name', 'current_stock', 'unit_cost', 'lead_time_days'] as const;

export const insertTask = (db: Db, task: { id: string; styleCode: string | null; forecastDays: number; requestedBy: number | null }) =>
  db.insertInto('forecast_tasks').values({ id: task.id, style_code: task.styleCode, forecast_days: task.forecastDays, status: 'pending', requested_by: task.requestedBy }).execute();

const ACTIVE_STATUSES = ['pending', 'processing', 'running'] as const;

/**
 * A whole-catalogue task, unless one is already queued or running (a unique partial index keeps
 * it to one, races included): false when the insert gave way to it.
 */
export async function insertCatalogueTask(db: Db, task: { id: string; forecastDays: number; requestedBy: number | null }): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    insert into forecast_tasks (id, style_code, forecast_days, status, requested_by) values (${task.id}, null, ${task.forecastDays}, 'pending', ${task.requestedBy})
    on conflict do nothing returning id`.execute(db);
  return rows.length > 0;
}

export const activeCatalogueTask = (db: Db) =>
  db.selectFrom('forecast_tasks').selectAll().where('style_code', 'is', null).where('status', 'in', ACTIVE_STATUSES).executeTakeFirst();

export const setTaskJob = (db: Db, id: string, jobId: string) => db.updateTable('forecast_tasks').set({ job_id: jobId }).where('id', '=', id).execute();

export const findTask = (db: Db, id: string) => db.selectFrom('forecast_tasks').selectAll().where('id', '=', id).executeTakeFirst();

export const markTaskRunning = (db: Db, id: string, total: number) =>
  db.updateTable('forecast_tasks').set({ status: 'running', progress_done: 0, progress_total: total, error: null, updated_at: sql`now()` }).where('id', '=', id).execute();

export const setTaskProgress = (db: Db, id: string, done: number) =>
  db.updateTable('forecast_tasks').set({ progress_done: done, updated_at: sql`now()` }).where('id', '=', id).execute();

export const completeTask = (db: Db, id: string, results: object) =>
  db
    .updateTable('forecast_tasks')
    .set({ status: 'completed', results: JSON.stringify(results), progress_done: sql`progress_total`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();

export const failTask = (db: Db, id: string, error: string) =>
  db.updateTable('forecast_tasks').set({ status: 'failed', error, updated_at: sql`now()` }).where('id', '=', id).execute();

export async function findProductByStyleCode(db: Db, styleCode: string): Promise<ProductRecord | undefined> {
  const byCode = await db.selectFrom('data.products').select(productColumns).where('product_code', '=', styleCode).executeTakeFirst();
  if (byCode || !/^\d{1,15}$/.test(styleCode)) return byCode;
  // Spec §3: a product without a code is known by its id.
  return db.selectFrom('data.products').select(productColumns).where('id', '=', Number(styleCode)).executeTakeFirst();
}

export const countProducts = async (db: Db) => Number((await db.selectFrom('data.products').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Products in id order, one page at a time (the whole catalogue never sits in memory at once). */
export const listProductsAfter = (db: Db, afterId: number, limit: number): Promise<ProductRecord[]> =>
  db.selectFrom('data.products').select(productColumns).where('id', '>', afterId).orderBy('id').limit(limit).execute();

export const lastSalesDate = async (db: Db): Promise<string | null> =>
  (await db.selectFrom('data.sales').select((eb) => eb.fn.max('date').as('last')).executeTakeFirst())?.last ?? null;

/**
 * Each product's daily sales since a day as two lists. One row per product instead of one per day,
 * and comma-joined text rather than SQL arrays: the driver parses on the API's event loop, and
 * splitting a string is many times cheaper than its element-by-element array parser.
 */
export const salesSince = (db: Db, productIds: number[], since: string) =>
  sql<{ product_id: number; dates: string; quantities: string }>`
    select product_id, string_agg(date::text, ',' order by date) as dates, string_agg(quantity::text, ',' order by date) as quantities
    from data.sales where product_id = any(${productIds}::int8[]) and date >= ${since}::date
    group by product_id`
    .execute(db)
    .then((result) => result.rows.map((row) => ({ product_id: row.product_id, dates: row.dates.split(','), quantities: row.quantities.split(',').map(Number) })));

export const snapshotsSince = (db: Db, productIds: number[], since: string) =>
  db.selectFrom('data.stock_snapshots').select(['product_id', 'date', 'stock_level']).where('product_id', 'in', productIds).where('date', '>=', since).orderBy('product_id').orderBy('date').execute();

export const deliveriesSince = (db: Db, productIds: number[], since: string) =>
  db
    .selectFrom('data.deliveries')
    .select(['product_id', 'expected_date', 'quantity', 'status'])
    .where('product_id', 'in', productIds)
    .where('expected_date', '>=', since)
    .where('status', '!=', 'cancelled')
    .orderBy('product_id')
    .orderBy('expected_date')
    .execute();

export type ForecastResultRow = { productId: number; taskId: string | null; forecastDays: number; forecastStart: string; resultJson: string };

/**
 * Writes rows keyed by product, skipping products deleted meanwhile (a foreign-key refusal makes it
 * look up which still exist and write only those); how many were written.
 */
export async function writeForExistingProducts<T extends { productId: number }>(db: Db, rows: T[], write: (rows: T[]) => Promise<unknown>): Promise<number> {
  if (!rows.length) return 0;
  try {
    await write(rows);
    return rows.length;
  } catch (error) {
    if (databaseErrorOf(error)?.code !== '23503') throw error;
    const existing = new Set((await db.selectFrom('data.products').select('id').where('id', 'in', rows.map((r) => r.productId)).execute()).map((p) => Number(p.id)));
    const kept = rows.filter((r) => existing.has(r.productId));
    if (kept.length) await write(kept);
    return kept.length;
  }
}

/** Stores the rows of products that still exist (one deleted meanwhile is skipped); how many were stored. */
export const upsertForecastResults = (db: Db, rows: ForecastResultRow[]): Promise<number> => writeForExistingProducts(db, rows, (kept) => upsertRows(db, kept));

async function upsertRows(db: Db, rows: ForecastResultRow[]) {
  await db
    .insertInto('forecast_results')
    .values(rows.map((r) => ({ product_id: r.productId, task_id: r.taskId, forecast_days: r.forecastDays, forecast_start: r.forecastStart, result: r.resultJson })))
    .onConflict((oc) =>
      oc.column('product_id').doUpdateSet((eb) => ({
        task_id: eb.ref('excluded.task_id'),
        forecast_days: eb.ref('excluded.forecast_days'),
        forecast_start: eb.ref('excluded.forecast_start'),
        result: eb.ref('excluded.result'),
        generated_at: sql`now()`,
      })),
    )
    .execute();
}

export const findForecastResult = (db: Db, productId: number) =>
  db.selectFrom('forecast_results').select(['task_id', 'forecast_days', 'forecast_start', 'generated_at', 'result']).where('product_id', '=', productId).executeTakeFirst();
