// SQL of the forecasting feature: generation tasks, product histories and stored forecasts.
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import { executeCompiled } from '../db/compiled.ts';
import { databaseErrorOf } from '../db/errors.ts';
import type { Database, TaskRestartRecord } from '../db/schema.ts';
import { DEFAULT_INACTIVE_DAYS } from '@stockwise/contract';
import { recentDemandSql } from '../order-advice/repo.ts';
import type { OnHand } from './stock-line.ts';
import { isCatalogueTask } from './task-scope.ts';

type Db = Kysely<Database>;

/**
 * Whether product `p`'s stored forecast (`f`, forecast_results left-joined) is of an item sold in its
 * season only (pattern `season_only`, ADR 0126) that forecasts nothing in its first week: it is
 * between its seasons, and its days without sales are its off-season, not stock that does not sell
 * (QA5 #14). A week, not a day: a closed Sunday or holiday forecasts nothing in the season too.
 * Without a forecast: false.
 */
export const outOfSeasonNow = sql<boolean>`coalesce((f.result::json -> 'model' -> 'patterns')::jsonb @> '["season_only"]'::jsonb
  and not exists (select 1 from json_array_elements_text(f.result::json -> 'forecast' -> 'yhat') with ordinality as d (yhat, n) where d.n <= 7 and d.yhat::float8 > 0), false)`;

export type ProductRecord = { id: number; product_code: string; name: string; current_stock: number; unit: string | null; unit_cost: number; lead_time_days: number };
const productColumns = ['id', 'product_code', 'name', 'current_stock', 'unit', 'unit_cost', 'lead_time_days'] as const;

export const insertTask = (db: Db, task: { id: string; styleCode: string | null; forecastDays: number; requestedBy: number | null }) =>
  db.insertInto('forecast_tasks').values({ id: task.id, style_code: task.styleCode, forecast_days: task.forecastDays, status: 'pending', requested_by: task.requestedBy }).execute();

const QUEUED_STATUSES = ['pending', 'processing'] as const;

/**
 * A whole-catalogue task, unless one is already queued (one queued and one running at most, each
 * kept so by a unique partial index, races included): false when the insert gave way to it.
 */
export async function insertCatalogueTask(db: Db, task: { id: string; forecastDays: number; requestedBy: number | null }): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    insert into forecast_tasks (id, style_code, forecast_days, status, requested_by) values (${task.id}, null, ${task.forecastDays}, 'pending', ${task.requestedBy})
    on conflict do nothing returning id`.execute(db);
  return rows.length > 0;
}

/** Spec §3: a product's style code is its code, else its id. */
const styleCodeOfProduct = sql<string>`coalesce(nullif(product_code, ''), id::text)`;
/** The single-product tasks of a style code waiting to run (they have read nothing yet). */
const queuedRunOf = (styleCode: RawBuilder<string>) => sql`select t.id from forecast_tasks t where t.style_code = ${styleCode} and t.status in (${sql.join([...QUEUED_STATUSES])})`;

/** Ids as the driver gives an int8 array's items (text on PostgreSQL, numbers on PGlite) made numbers. */
const idsOf = (ids: readonly (number | string)[] | null): number[] => (ids ?? []).map(Number);

/** Those of these products that exist, in id order, each once. */
export const productsAmong = async (db: Db, productIds: readonly number[]): Promise<number[]> =>
  (await db.selectFrom('data.products').select('id').where('id', '=', sql<number>`any(${productIds}::bigint[])`).orderBy('id').execute()).map((row) => Number(row.id));

/** A task of a list of products (ADR 0187), waiting to run (requests join lists through joinOrQueueList). */
export const insertListTask = (db: Db, task: { id: string; productIds: readonly number[]; forecastDays: number; requestedBy: number | null }) =>
  sql`insert into forecast_tasks (id, product_ids, forecast_days, status, requested_by) values (${task.id}, ${task.productIds}::bigint[], ${task.forecastDays}, 'pending', ${task.requestedBy})`.execute(db);

/** The lists' tasks waiting to run, oldest first (a list past the limit leaves a second one waiting). */
export const queuedListTasks = (db: Db) =>
  db.selectFrom('forecast_tasks').selectAll().where('product_ids', 'is not', null).where('status', 'in', QUEUED_STATUSES).orderBy('created_at').execute();

/**
 * These products added to the oldest list's task waiting to run (it has read nothing yet) whose
 * list stays within `most` products, else a new list's task `task.id` of them: the id of the task
 * that holds them. One request at a time, on every instance: the transaction first takes the
 * lists' advisory lock, so two requests at the same moment cannot both find no list waiting and
 * queue one each (ADR 0187's amendment). A run takes its list as it marks itself running
 * (startListRun) without the lock: the update below waits for that row and then finds it running,
 * so no product is added to a list already read.
 */
export const joinOrQueueList = (db: Db, task: { id: string; productIds: readonly number[]; forecastDays: number; requestedBy: number | null }, most: number): Promise<string> =>
  db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('forecast-list-tasks'))`.execute(trx);
    const unionWith = (list: RawBuilder<unknown>) => sql`array(select distinct id from unnest(${list} || ${task.productIds}::bigint[]) as listed (id) order by id)`;
    const queued = sql.join([...QUEUED_STATUSES]);
    const { rows: joined } = await sql<{ id: string }>`
      update forecast_tasks t set product_ids = ${unionWith(sql`t.product_ids`)}
      where t.id = (
        select w.id from forecast_tasks w where w.product_ids is not null and w.status in (${queued}) and cardinality(${unionWith(sql`w.product_ids`)}) <= ${most}
        order by w.created_at limit 1)
        and t.status in (${queued}) and cardinality(${unionWith(sql`t.product_ids`)}) <= ${most}
      returning t.id`.execute(trx);
    if (joined[0]) return joined[0].id;
    await insertListTask(trx, task);
    return task.id;
  });

/**
 * Marks a list's task running, which fixes its list (joinOrQueueList adds to waiting lists only),
 * and gives those of its products that exist, in id order.
 */
export async function startListRun(db: Db, taskId: string): Promise<number[]> {
  const { rows } = await sql<{ found: (number | string)[] }>`
    update forecast_tasks set status = 'running', updated_at = now() where id = ${taskId}::uuid
    returning array(select p.id from data.products p where p.id = any(product_ids) order by p.id) as found`.execute(db);
  return idsOf(rows[0]?.found ?? null);
}

/** A product's style code and the single-product task of it waiting to run (null: none); undefined when the product does not exist. */
export async function queuedProductRun(db: Db, productId: number): Promise<{ styleCode: string; taskId: string | null } | undefined> {
  const { rows } = await sql<{ style_code: string; task_id: string | null }>`
    select product.style_code, (${queuedRunOf(sql`product.style_code`)} order by t.created_at limit 1) as task_id
    from (select ${styleCodeOfProduct} as style_code from data.products where id = ${productId}) product`.execute(db);
  const row = rows[0];
  return row && { styleCode: row.style_code, taskId: row.task_id };
}

/** The whole-catalogue task waiting to run, if any. */
export const queuedCatalogueTask = (db: Db) => db.selectFrom('forecast_tasks').selectAll().where(isCatalogueTask).where('status', 'in', QUEUED_STATUSES).executeTakeFirst();

/** The whole-catalogue task running now, if any: its job (none for a nightly run) and when it last reported progress. */
export const runningCatalogueTask = (db: Db) =>
  db.selectFrom('forecast_tasks').select(['id', 'job_id', 'updated_at']).where(isCatalogueTask).where('status', '=', 'running').executeTakeFirst();

export const setTaskJob = (db: Db, id: string, jobId: string) => db.updateTable('forecast_tasks').set({ job_id: jobId }).where('id', '=', id).execute();

export const findTask = (db: Db, id: string) => db.selectFrom('forecast_tasks').selectAll().where('id', '=', id).executeTakeFirst();

/** `done`: products a restarted run does not forecast again; `restart`: what it says of its restart. */
export const markTaskRunning = (db: Db, id: string, total: number, resumed: { done: number; restart: TaskRestartRecord } | null = null) =>
  db
    .updateTable('forecast_tasks')
    .set({ status: 'running', progress_done: resumed?.done ?? 0, progress_total: total, error: null, updated_at: sql`now()`, ...(resumed ? { restart: JSON.stringify(resumed.restart) } : {}) })
    .where('id', '=', id)
    .execute();

/**
 * What a run of `taskId` cut off before it ended stored: the products forecast, those with a
 * stockout, the day forecast from, the last product in id order (a run goes in id order and stores
 * its chunks one after the other, so every product up to it was done), and how many products there
 * are up to it (forecast, or failed: done either way) — of the catalogue, or of the run's
 * `listed` products. Null when it stored none.
 */
export async function storedByTask(db: Db, taskId: string, listed: readonly number[] | null): Promise<{ stored: number; stockouts: number; forecastStart: string; lastId: number; done: number } | null> {
  const { rows } = await sql<{ stored: number; stockouts: number; forecast_start: string | null; last_id: string | null }>`
    select count(*)::int as stored, count(*) filter (where coalesce(jsonb_array_length(stockouts), 0) > 0)::int as stockouts,
      max(forecast_start)::text as forecast_start, max(product_id) as last_id
    from forecast_results where task_id = ${taskId}::uuid`.execute(db);
  const found = rows[0];
  if (!found?.last_id || !found.forecast_start) return null;
  const lastId = Number(found.last_id);
  if (listed) return { stored: found.stored, stockouts: found.stockouts, forecastStart: found.forecast_start, lastId, done: listed.filter((id) => id <= lastId).length };
  const done = Number((await db.selectFrom('data.products').select((eb) => eb.fn.countAll<number>().as('n')).where('id', '<=', lastId).executeTakeFirstOrThrow()).n);
  return { stored: found.stored, stockouts: found.stockouts, forecastStart: found.forecast_start, lastId, done };
}

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
  const [byCode] = await executeCompiled(db, 'forecasting|product by code', [styleCode], () =>
    db.selectFrom('data.products').select(productColumns).where('product_code', '=', styleCode).compile(),
  );
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

/** The catalogue's first sales day since `since` (an index lookup on sales' dates), null without one. */
export const firstSalesDateSince = async (db: Db, since: string): Promise<string | null> =>
  (await db.selectFrom('data.sales').select((eb) => eb.fn.min('date').as('first')).where('date', '>=', since).executeTakeFirst())?.first ?? null;

/**
 * A product, its stored forecast and the history a forecast read shows beside it: sales, snapshots
 * and deliveries since `historyDays` before the forecast's first day, as "day:value" pairs (day
 * counted from that first history day, unordered), comma-joined: text, because the driver parses on
 * the event loop and splitting a string is many times cheaper than its array parser. One statement:
 * a read under load waits its turn once rather than at each of five statements (ADR 0120). Without a
 * stored forecast the history columns are null.
 */
export type ProductForecastRow = ProductRecord & {
  /** Who it is bought from, trimmed; null: none (ADR 0184). */
  supplier: string | null;
  /** Made in the shop, not bought (ADR 0194). */
  made_here: boolean;
  /** A service or a fee, no stock kept (ADR 0200). */
  not_stocked: boolean;
  task_id: string | null;
  generated_at: Date | null;
  forecast_start: string | null;
  forecast_days: number | null;
  result: string | null;
  sales: string | null;
  snapshots: string | null;
  deliveries: string | null;
  /** Units sold in the DEFAULT_INACTIVE_DAYS before the forecast's first day, by the order advice's rule. */
  recent_demand: number;
  /** The product's latest stock count of any date, as "date:level"; null: never counted. */
  last_count: string | null;
};

const productForecastText = (key: 'p.product_code' | 'p.id') => `
  select p.id, p.product_code, p.name, p.current_stock, p.unit, p.unit_cost, p.lead_time_days, nullif(btrim(p.supplier), '') as supplier, coalesce(p.made_here, false) as made_here, coalesce(p.not_stocked, false) as not_stocked, f.task_id, f.generated_at, f.forecast_start, f.forecast_days, f.result,
    ${recentDemandSql(String(DEFAULT_INACTIVE_DAYS))} as recent_demand,
    (select string_agg((s.date - w.since)::text || ':' || s.quantity::text, ',') from data.sales s
      where s.product_id = p.id and s.date >= w.since and s.date < f.forecast_start) as sales,
    (select string_agg((k.date - w.since)::text || ':' || k.stock_level::text, ',') from data.stock_snapshots k
      where k.product_id = p.id and k.date >= w.since) as snapshots,
    (select string_agg((d.expected_date - w.since)::text || ':' || d.quantity::text, ',') from data.deliveries d
      where d.product_id = p.id and d.expected_date >= w.since and d.expected_date < f.forecast_start and d.status <> 'cancelled') as deliveries,
    (select k.date::text || ':' || k.stock_level::text from data.stock_snapshots k where k.product_id = p.id order by k.date desc limit 1) as last_count
  from data.products p
  left join forecast_results f on f.product_id = p.id
  cross join lateral (select f.forecast_start - $1::int4 as since) w
  where ${key} = $2`;

/** The statements of findProductForecast (exported for bench/api-overhead's bare server): by product code, and by id. */
export const PRODUCT_FORECAST_BY_CODE = productForecastText('p.product_code');
export const PRODUCT_FORECAST_BY_ID = productForecastText('p.id');

/** A product's forecast row by its code (or, spec §3, its id when no product has that code), or by its id alone (`'id'`). */
export async function findProductForecast(db: Db, styleCode: string, historyDays: number, by: 'code' | 'id' = 'code'): Promise<ProductForecastRow | undefined> {
  const byKey = (shape: string, text: string, key: string | number) =>
    executeCompiled<ProductForecastRow>(db, shape, [historyDays, key], () => CompiledQuery.raw(text, [historyDays, key]));
  if (by === 'id') return (await byKey('forecasting|product forecast by id', PRODUCT_FORECAST_BY_ID, Number(styleCode)))[0];
  const [byCode] = await byKey('forecasting|product forecast by code', PRODUCT_FORECAST_BY_CODE, styleCode);
  if (byCode) return byCode;
  // Codes differing only in case or surrounding spaces are one product (the Data screen refuses such
  // a twin): a typed "ks-00412" finds KS-00412 — unless twins stored before make it ambiguous.
  const { rows: alike } = await sql<{ id: string }>`
    select id from data.products where lower(trim(product_code)) = lower(trim(${styleCode})) limit 2`.execute(db);
  if (alike.length === 1) return (await byKey('forecasting|product forecast by id', PRODUCT_FORECAST_BY_ID, Number(alike[0]!.id)))[0];
  if (!/^\d{1,15}$/.test(styleCode)) return undefined;
  // Spec §3: a product without a code is known by its id.
  return (await byKey('forecasting|product forecast by id', PRODUCT_FORECAST_BY_ID, Number(styleCode)))[0];
}

/**
 * What a forecast of one product is made from, one row per product, as the database gives it: its
 * sales as "day:units" pairs (day counted from `since`), snapshots as "date:level" and deliveries
 * as "date:units", comma-joined. The worker threads parse them (ProductRows in batch-task.ts), so
 * the API's event loop only passes strings on. Each sales pair names its day, so their order does
 * not matter: without `order by` the aggregate skips a sort per product (a third of the read).
 */
export type ProductRows = {
  id: number;
  product_code: string;
  category: string | null;
  lead_time_days: number;
  /** As stored (kg, box); a weight, length or volume makes the forecast order it by measure (ADR 0177). */
  unit: string | null;
  /** The supplier's case size and minimum order; null: none (ADR 0183). */
  order_multiple: number | null;
  min_order_quantity: number | null;
  sales: string | null;
  snapshots: string | null;
  deliveries: string | null;
  /** The catalogue's last sales day when the product was added (product_listings); null: listed from the catalogue's first sale. */
  listed_after: string | null;
};

const productRowsSelect = (since: string) => sql`
  select to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as read_at, p.id, p.product_code, p.category, p.lead_time_days, p.unit, p.order_multiple, p.min_order_quantity,
    (select string_agg((s.date - ${since}::date)::text || ':' || s.quantity::text, ',') from data.sales s where s.product_id = p.id and s.date >= ${since}::date) as sales,
    (select string_agg(k.date::text || ':' || k.stock_level::text, ',' order by k.date) from data.stock_snapshots k where k.product_id = p.id and k.date >= ${since}::date) as snapshots,
    (select string_agg(d.expected_date::text || ':' || d.quantity::text, ',' order by d.expected_date) from data.deliveries d
      where d.product_id = p.id and d.expected_date >= ${since}::date and d.status <> 'cancelled') as deliveries,
    (select l.sales_up_to::text from product_listings l where l.product_id = p.id) as listed_after
  from data.products p`;

/**
 * Products' histories as one statement read them, and when it started (the database's clock, as
 * ISO text in UTC: its microseconds kept, whatever a connection's DateStyle or time zone): forecasts
 * made from them are stored with it (storeForecastRows). Null when it read no product.
 */
export type ProductRowsRead = { rows: ProductRows[]; readAt: string | null };

const productRowsRead = (result: { rows: (ProductRows & { read_at: string })[] }): ProductRowsRead => ({
  rows: result.rows.map(({ read_at: _, ...row }) => ({ ...row, id: Number(row.id) })),
  readAt: result.rows[0]?.read_at ?? null,
});

/** The next `limit` products after `afterId` in id order, with their histories since `since`: one statement per chunk. */
export const productRowsAfter = (db: Db, afterId: number, limit: number, since: string): Promise<ProductRowsRead> =>
  sql<ProductRows & { read_at: string }>`${productRowsSelect(since)} where p.id > ${afterId} order by p.id limit ${limit}`.execute(db).then(productRowsRead);

/** The next `limit` of these products after `afterId` in id order, with their histories since `since`: a product's or a list's run. */
export const productRowsAmong = (db: Db, productIds: readonly number[], afterId: number, limit: number, since: string): Promise<ProductRowsRead> =>
  sql<ProductRows & { read_at: string }>`${productRowsSelect(since)} where p.id = any(${productIds}::bigint[]) and p.id > ${afterId} order by p.id limit ${limit}`.execute(db).then(productRowsRead);

export const productRowsOf = (db: Db, productId: number, since: string): Promise<ProductRowsRead> =>
  sql<ProductRows & { read_at: string }>`${productRowsSelect(since)} where p.id = ${productId}`.execute(db).then(productRowsRead);

type CategoryDay = { category: string | null; day: number; units: number };

// Ids spread wider than this many per product (deletes, an import's failed inserts) would make the
// array of category codes long: those catalogues join products instead.
const MAX_IDS_PER_PRODUCT = 4;

/**
 * Units sold per category and day since `since` (day counted from it; a product-day of net returns sells 0, as in its own history): the catalogue calendar's
 * input. Each sale's category is looked up by product id in an array of small codes
 * (`codes[id - firstId]`, 0: none) rather than by joining products: the join's hash probe for each
 * of ~6 M sales was 40 % of the statement (1.2 → 0.7 s wall on 10,000 products × 2 years). The
 * database builds the array itself, once, in the same snapshot as the scan: read into the event loop
 * and sent back, it was a row per product to parse and an array as long to write at the start of
 * every catalogue run. Where the ids are too sparse for the array, the join.
 */
export async function categoryDailySales(db: Db, since: string): Promise<CategoryDay[]> {
  const { products, firstId, lastId } = await db
    .selectFrom('data.products')
    .select((eb) => [eb.fn.countAll<string>().as('products'), eb.fn.min('id').as('firstId'), eb.fn.max('id').as('lastId')])
    .executeTakeFirstOrThrow();
  if (Number(lastId ?? 0) - Number(firstId ?? 0) + 1 > MAX_IDS_PER_PRODUCT * Number(products) + 1000) return categoryDailySalesJoined(db, since);
  return inOneProcess(db, (trx) =>
    sql<CategoryDay>`
    with categories as (
      select category, row_number() over (order by category)::int4 as code from (select distinct category from data.products where category is not null) named
    ), bounds as (select min(id) as first_id, max(id) as last_id from data.products),
    codes as (
      select array_agg(coalesce(k.code, 0) order by ids.id) as codes
      from bounds cross join generate_series(bounds.first_id, bounds.last_id) as ids (id)
      left join data.products p on p.id = ids.id left join categories k on k.category = p.category
    ), totals as (
      select ((select codes from codes))[s.product_id - (select first_id from bounds) + 1] as code, (s.date - ${since}::date) as day, sum(greatest(s.quantity, 0))::float8 as units
      from data.sales s
      where s.date >= ${since}::date
      group by 1, s.date
    )
    select k.category, totals.day, totals.units from totals left join categories k on k.code = totals.code`.execute(trx),
  );
}

const categoryDailySalesJoined = (db: Db, since: string) =>
  inOneProcess(db, (trx) =>
    sql<CategoryDay>`
    select p.category, (s.date - ${since}::date) as day, sum(greatest(s.quantity, 0))::float8 as units
    from data.sales s join data.products p on p.id = s.product_id
    where s.date >= ${since}::date
    group by p.category, s.date`.execute(trx),
  );

/**
 * Runs a scan without PostgreSQL's parallel workers. They are processes of their own at normal
 * priority: the calendar's scan of every sale in three processes took both cores at the start of a
 * catalogue run, when forecast reads answered in 100–300 ms (p99 97–127 ms over a run, 35–47 without
 * them, for ~0.2 s more wall: ADR 0120).
 */
const inOneProcess = <R>(db: Db, statement: (trx: Db) => Promise<{ rows: R[] }>): Promise<R[]> =>
  db.transaction().execute(async (trx) => {
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return (await statement(trx)).rows;
  });

/**
 * Per product whose first sale since `since` came at least `days` after it (only those can be new,
 * see newItemRatesOf): that first sale, counted in days from `since`, and the units it sold in the
 * `days` from it. Two index lookups per product on (product_id, date), not a scan of every sale.
 */
export const productFirstWeeks = (db: Db, since: string, days: number) =>
  sql<{ category: string | null; first_day: number; units: number }>`
    select p.category, (f.first_sale - ${since}::date) as first_day,
      (select sum(greatest(s.quantity, 0)) from data.sales s where s.product_id = p.id and s.date >= f.first_sale and s.date < f.first_sale + ${days}::int)::float8 as units
    from data.products p
    cross join lateral (select min(s.date) as first_sale from data.sales s where s.product_id = p.id and s.date >= ${since}::date and s.quantity > 0) f
    where f.first_sale >= ${since}::date + ${days}::int`
    .execute(db)
    .then((result) => result.rows);

export const saveCalendar = (db: Db, calendar: { historyStart: string; historyEnd: string; calendar: object }) =>
  sql`
    insert into forecast_calendar (id, history_start, history_end, calendar) values (1, ${calendar.historyStart}, ${calendar.historyEnd}, ${JSON.stringify(calendar.calendar)})
    on conflict (id) do update set history_start = excluded.history_start, history_end = excluded.history_end, calendar = excluded.calendar, computed_at = now()`.execute(db);

export const findCalendar = (db: Db) => db.selectFrom('forecast_calendar').select(['history_start', 'history_end', 'calendar']).where('id', '=', 1).executeTakeFirst();

/**
 * A product's forecast as stored: the engine's output as JSON text, its order advice fields (the
 * text's `stockouts` and `reorder` as JSON, the model's name: stored as given; left out, the
 * database reads them from the text, migration 0150), and the dashboard's summary of it.
 */
export type StoredForecastRow = {
  productId: number;
  resultJson: string;
  stockoutsJson?: string;
  reorderJson?: string;
  modelName?: string;
  cumDemand: number[];
  cumVariance: number[];
  firstStockout: string | null;
  orderQuantity: number;
  /** What is on hand at the end of the history the forecast was made from (stock-line.ts); null: no count in it. */
  onHand?: OnHand | null;
};

/**
 * The statement of storeForecastRows for `count` rows: $1–$4 the run's task, horizon, first day and
 * read time, then twelve values per row. Written out per row count rather than built by the query builder: a
 * catalogue run writes 200 statements of 50 rows, and compiling each (450 values) was event-loop
 * work for an unchanged text. The products are looked up by id, one index probe per row whatever
 * the table's statistics say: as a semi-join the planner could hash every product instead (it did on
 * a catalogue not yet vacuumed), a scan of the whole products table per statement, so a catalogue
 * run's cost grew with the square of its size.
 */
const VALUES_PER_ROW = 12;

function storeForecastsText(count: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = 4 + i * VALUES_PER_ROW;
    return `($${at + 1}::int8, $${at + 2}::text, $${at + 3}::jsonb, $${at + 4}::jsonb, $${at + 5}::text, $${at + 6}::float8[], $${at + 7}::float8[], $${at + 8}::date, $${at + 9}::float8, $${at + 10}::float8, $${at + 11}::float8, $${at + 12}::date)`;
  });
  return `
    with input (product_id, result, stockouts, reorder, model_name, cum_demand, cum_variance, first_stockout, order_quantity, on_hand, on_hand_counted, on_hand_counted_on) as (values ${rows.join(', ')}),
    kept as (select input.* from input cross join lateral (select from data.products p where p.id = input.product_id limit 1) known),
    replaced as (
      update forecast_results f set task_id = $1::uuid, forecast_days = $2::int, forecast_start = $3::date, inputs_read_at = $4::timestamptz,
        result = kept.result, stockouts = kept.stockouts, reorder = kept.reorder, model_name = kept.model_name, generated_at = now(),
        on_hand = kept.on_hand, on_hand_counted = kept.on_hand_counted, on_hand_counted_on = kept.on_hand_counted_on
      from kept where f.product_id = kept.product_id and f.inputs_read_at <= $4::timestamptz
      returning f.product_id
    ), added as (
      insert into forecast_results (product_id, task_id, forecast_days, forecast_start, inputs_read_at, result, stockouts, reorder, model_name, on_hand, on_hand_counted, on_hand_counted_on)
      select product_id, $1::uuid, $2::int, $3::date, $4::timestamptz, result, stockouts, reorder, model_name, on_hand, on_hand_counted, on_hand_counted_on from kept
      where not exists (select 1 from forecast_results f where f.product_id = kept.product_id)
      on conflict (product_id) do update set task_id = excluded.task_id, forecast_days = excluded.forecast_days,
        forecast_start = excluded.forecast_start, inputs_read_at = excluded.inputs_read_at, result = excluded.result, stockouts = excluded.stockouts,
        reorder = excluded.reorder, model_name = excluded.model_name, generated_at = now(),
        on_hand = excluded.on_hand, on_hand_counted = excluded.on_hand_counted, on_hand_counted_on = excluded.on_hand_counted_on
      where forecast_results.inputs_read_at <= excluded.inputs_read_at
      returning product_id
    ), summaries as (
      insert into dashboard_product_summary (product_id, forecast_start, cum_demand, cum_variance, first_stockout, order_quantity)
      select product_id, $3::date, cum_demand, cum_variance, first_stockout, order_quantity from kept
      where product_id in (select product_id from replaced union all select product_id from added)
      on conflict (product_id) do update set forecast_start = excluded.forecast_start, cum_demand = excluded.cum_demand,
        cum_variance = excluded.cum_variance, first_stockout = excluded.first_stockout, order_quantity = excluded.order_quantity
    )
    select (select count(*) from kept)::int as current`;
}

/**
 * Stores forecasts and their dashboard summaries in one statement, each forecast the engine's JSON
 * text kept as it is (migration 0140). Products deleted meanwhile are skipped, and so is a product
 * whose stored forecast was made from histories read after `inputsReadAt` (ADR 0134: that one is
 * the newer data's, however late this write comes); how many products exist with a forecast as
 * new as this one. The order advice fields are written as the threads give them, so the table's
 * triggers (which read them out of the text for writers that do not give them) stay idle. Existing
 * forecasts are updated and new ones inserted rather than upserted, one statement; the upsert stays
 * only for a forecast another writer inserted meanwhile. On PostgreSQL the statement is prepared
 * once per connection and row count: parsing and planning it again for every 50 forecasts was a
 * sixth of the write's CPU.
 */
export async function storeForecastRows(
  db: Db,
  rows: StoredForecastRow[],
  meta: { taskId: string | null; forecastDays: number; forecastStart: string; inputsReadAt: string },
): Promise<number> {
  if (!rows.length) return 0;
  const values: unknown[] = [meta.taskId, meta.forecastDays, meta.forecastStart, meta.inputsReadAt];
  for (const r of rows) {
    values.push(r.productId, r.resultJson, r.stockoutsJson ?? null, r.reorderJson ?? null, r.modelName ?? null, r.cumDemand, r.cumVariance, r.firstStockout, r.orderQuantity);
    values.push(r.onHand?.units ?? null, r.onHand?.countedUnits ?? null, r.onHand?.countedOn ?? null);
  }
  const shape = `forecasting|store forecasts|${rows.length}`;
  const store = async () =>
    (await executeCompiled<{ current: number }>(db, shape, values, () => CompiledQuery.raw(storeForecastsText(rows.length), values), { prepared: true }))[0]?.current ?? 0;
  try {
    return await store();
  } catch (error) {
    // A product deleted between the check and the insert: the second try no longer sees it.
    if (databaseErrorOf(error)?.code !== '23503') throw error;
    return await store();
  }
}
