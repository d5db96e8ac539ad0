// SQL of the order advice: per product, the advice fields of its stored forecast (the latest one,
// from a catalogue run or a product's or a list's run since) and its recent demand.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { COUNT_AHEAD_DAYS } from '@stockwise/forecast';
import type { Database } from '../db/schema.ts';
import { isCatalogueTask } from '../forecasting/task-scope.ts';

type Db = Kysely<Database>;

export const latestCompletedCatalogueTask = (db: Db) =>
  db.selectFrom('forecast_tasks').selectAll().where(isCatalogueTask).where('status', '=', 'completed').orderBy('created_at', 'desc').limit(1).executeTakeFirst();

export const findCatalogueTask = (db: Db, id: string) => db.selectFrom('forecast_tasks').selectAll().where('id', '=', id).where(isCatalogueTask).executeTakeFirst();

// Read from the stored forecast's reorder advice: a quantity and an order-by date (a warning always
// comes with both). Kept here, in one place, for the list and its count alike.
const needsOrder = sql<boolean>`(f.reorder->>'orderQuantity')::float8 > 0 and f.reorder->>'orderBy' is not null`;
// No order, but the delivery on its way arrives after the expected stockout: listed to hurry it
// (ADR 0072, amendment 2026-12-04 "hurry it"). The advice names that delivery only then.
const deliveryArrivesLate = sql<boolean>`f.reorder->>'onOrderArrives' is not null`;
const onTheList = sql<boolean>`(${needsOrder} or ${deliveryArrivesLate})`;
/** Made in the shop (a café's coffee and baking, ADR 0194): nothing is bought for it, so no list or stock-count task names it. */
export const madeHere = sql<boolean>`coalesce(p.made_here, false)`;
/** A service or a fee (a delivery charge, ADR 0200): no stock is kept and nothing is bought for it. */
export const notStocked = sql<boolean>`coalesce(p.not_stocked, false)`;
/**
 * Not bought: made here or not stocked. The one rule of what no order list, stock-count task or
 * stockout warning names, for the lists, the dashboard and the assistant.
 */
export const notBought = sql<boolean>`(${madeHere} or ${notStocked})`;
/**
 * A product's recent demand: units sold in the `days` days before its stored forecast's first day
 * (and since), returns (negative sales) not counted; `f` is its forecast_results row. The one rule
 * of "no demand in the last N days" for the lists, the dashboard and a forecast read (as SQL text,
 * for the read's raw statement). `days` is SQL: a parameter or a whole number.
 */
export const recentDemandSql = (days: string) =>
  `coalesce((select sum(greatest(s.quantity, 0)) from data.sales s where s.product_id = f.product_id and s.date >= f.forecast_start - ${days}), 0)::float8`;
const recentDemand = (recentDays: number) => sql<number>`${sql.raw(recentDemandSql(String(Math.trunc(recentDays))))}`;

/** Per product whose stored forecast says to order: the fields the order advice needs, and what it has on hand now. */
export const adviceRows = (db: Db, recentDays: number) =>
  db
    .selectFrom('forecast_results as f')
    .innerJoin('data.products as p', 'p.id', 'f.product_id')
    .select([
      'p.id',
      'p.product_code',
      'p.name',
      'p.current_stock',
      // Stored with the forecast: what the product's header says it has on hand now (ADR 0030, amendment 2026-12-04).
      'f.on_hand',
      'f.on_hand_counted',
      sql<string | null>`f.on_hand_counted_on::text`.as('on_hand_counted_on'),
      'p.unit',
      'p.unit_cost',
      // As stored: the service knows it by its supplier's one spelling (ADR 0186).
      'p.supplier',
      'f.forecast_start',
      // Small columns filled from the stored forecast's text on write (migration 0140).
      'f.stockouts',
      'f.reorder',
      sql<string>`f.model_name`.as('model'),
      recentDemand(recentDays).as('recent_demand'),
      madeHere.as('made_here'),
      notStocked.as('not_stocked'),
    ])
    .where(onTheList)
    .execute();

/**
 * Which of `productIds` have a stored forecast made from a short history (its model's `history`,
 * 'short': under four weeks of sales). Parses each forecast's text, so it is asked of a page's rows.
 */
export const shortHistoryIds = (db: Db, productIds: readonly number[]) =>
  db
    .selectFrom('forecast_results as f')
    .select('f.product_id')
    .where('f.product_id', 'in', [...productIds])
    .where(sql<boolean>`(f.result::json -> 'model' ->> 'history') = 'short'`)
    .execute();

// No stock count the projection can open from — none on or before the forecast's first day, nor up
// to COUNT_AHEAD_DAYS after it (a count typed or imported on the shop's today, a day or two after
// the last sales day, opens it: the engine's stockAtHistoryEnd): its stock projection is empty, so
// no order can be advised. One rule with the engine, so a product is never both "no stock count"
// and on the list with the count's figure (QA café F9, ADR 0193 amendment).
const noOpeningCount = sql<boolean>`not exists (select 1 from data.stock_snapshots k where k.product_id = f.product_id and k.date <= f.forecast_start + ${sql.lit(COUNT_AHEAD_DAYS)}::int)`;
// Of those, the ones counted later than that: the count is there, the sales up to it are not (sales
// data ending in the past, a count taken today), so what to do is import recent sales, not count
// (ADR 0193 F9, amendment "counted after the sales data ends").
const countedLater = sql<boolean>`exists (select 1 from data.stock_snapshots k where k.product_id = f.product_id)`;

type UnknownStockGroup = { count: number; codes: string[] };
export type UnknownStock = UnknownStockGroup & { countedAfterSales: UnknownStockGroup & { salesEnd: string | null } };

/**
 * Products with demand in the last `recentDays` days whose stock projection has no count to open
 * from (those not bought left out: nobody counts flat whites or delivery charges), best sellers first: those never
 * counted and, apart, those counted after their sales data ends, with the day it ends (the newest
 * among them) — each their codes (the first `limit`) and how many there are; of one supplier only
 * when given (`ofSupplier`, a condition on the product `p`), as the list beside them is.
 */
export async function unknownStock(db: Db, recentDays: number, limit: number, ofSupplier?: RawBuilder<boolean>): Promise<UnknownStock> {
  const [never, later] = await Promise.all([withoutOpeningCount(db, recentDays, limit, false, ofSupplier), withoutOpeningCount(db, recentDays, limit, true, ofSupplier)]);
  return { count: never.count, codes: never.codes, countedAfterSales: { count: later.count, codes: later.codes, salesEnd: later.salesEnd } };
}

async function withoutOpeningCount(db: Db, recentDays: number, limit: number, counted: boolean, ofSupplier: RawBuilder<boolean> | undefined): Promise<UnknownStockGroup & { salesEnd: string | null }> {
  const rows = await db
    .selectFrom('forecast_results as f')
    .innerJoin('data.products as p', 'p.id', 'f.product_id')
    .select(['p.product_code', recentDemand(recentDays).as('recent_demand'), sql<number>`count(*) over ()`.as('count'), sql<string>`(max(f.forecast_start) over () - 1)::text`.as('sales_end')])
    .where(noOpeningCount)
    .where(counted ? countedLater : sql<boolean>`not ${countedLater}`)
    .where(sql<boolean>`not ${notBought}`)
    .where(sql<boolean>`${recentDemand(recentDays)} > 0`)
    .$if(ofSupplier !== undefined, (query) => query.where(ofSupplier as RawBuilder<boolean>))
    .orderBy('recent_demand', 'desc')
    .orderBy('p.product_code')
    .limit(limit)
    .execute();
  return { count: Number(rows[0]?.count ?? 0), codes: rows.map((row) => row.product_code), salesEnd: rows[0]?.sales_end ?? null };
}

/**
 * The products on the order advice's list that had demand in the last `recentDays` days (not bought: neither made here nor not stocked), read by
 * the database (a catalogue run ends with it) rather than row by row: the order-by dates of those
 * that need an order (the dashboard counts those due soon) and how many have a delivery to hurry
 * instead. Together they are the list's length.
 */
export async function listedOrderBy(db: Db, recentDays: number): Promise<{ orderByDates: string[]; deliveriesLate: number }> {
  const rows = await db
    .selectFrom('forecast_results as f')
    .innerJoin('data.products as p', 'p.id', 'f.product_id')
    .select(sql<string | null>`case when ${needsOrder} then f.reorder->>'orderBy' end`.as('order_by'))
    .where(onTheList)
    .where(sql<boolean>`not ${notBought}`)
    .where(sql<boolean>`${recentDemand(recentDays)} > 0`)
    .execute();
  const orderByDates = rows.flatMap((row) => (row.order_by === null ? [] : [row.order_by]));
  return { orderByDates, deliveriesLate: rows.length - orderByDates.length };
}

const orderedProductsQuery = (db: Db) =>
  db
    .selectFrom('data.products as p')
    .select(['p.id', 'p.product_code', 'p.name', 'p.unit', sql<boolean>`exists (select 1 from data.sales s where s.product_id = p.id and s.quantity <> trunc(s.quantity))`.as('sold_in_fractions')]);

/**
 * The product an order is recorded for, by its code, and whether a sale of it ever had a fraction
 * (0.25): then it is ordered in fractions, as its forecast rounds it (ADR 0176), whatever its unit.
 */
export const orderedProduct = (db: Db, code: string) => orderedProductsQuery(db).where('p.product_code', '=', code).executeTakeFirst();

/** The products of a batch of orders, by their codes (those that exist), as `orderedProduct` reads one. */
export const orderedProducts = (db: Db, codes: string[]) => orderedProductsQuery(db).where('p.product_code', 'in', codes).execute();

/**
 * Takes the turn of each product's delivery days until the transaction ends, in one order (two
 * writers of the same products never wait on each other in a circle). The deliveries' key, product
 * and day, is a unique index only where the database held no repeated day when it was made
 * (migrations 0020, 0670): without it, two writers checking a day at once would both find it empty
 * and both add a delivery. Writers that add a delivery to a day take this turn first.
 */
export const lockDeliveryDays = (db: Db, productIds: number[]) =>
  sql`select pg_advisory_xact_lock(key) from (select distinct hashtext('delivery-days:' || id) as key from unnest(${productIds}::int8[]) as id) keys order by key`.execute(db);

/**
 * An order as a scheduled delivery of its product on its day: added to the scheduled one already
 * expected then (the deliveries' key is the product and day; a second order arriving that day is more
 * of the same delivery, as a file's lines are summed), else a new one. Undefined when that day holds
 * only deliveries received or cancelled, which an order must not change. A database whose deliveries
 * repeat the day (no unique key, migration 0020) gets the order added to the first scheduled one
 * (lowest id), and the others are left as they are (ADR 0182, amendment 2026-12-06). Run in a
 * transaction: it takes the product's delivery days first. `version`: the row's, as the Data screen reads it.
 */
export async function addOrderedDelivery(db: Db, order: { productId: number; expectedDate: string; quantity: number }): Promise<{ id: number; quantity: number; version: string } | undefined> {
  await lockDeliveryDays(db, [order.productId]);
  const onTheDay = sql`product_id = ${order.productId} and expected_date = ${order.expectedDate}::date`;
  // Twice at most: with the unique key, a writer that does not take the turn (an import, a Data screen
  // save) may add the day's delivery between this statement's look and its insert, which then does
  // nothing; the second statement sees that delivery.
  for (let look = 0; look < 2; look++) {
    const { rows } = await sql<{ id: string; quantity: number; version: string }>`
      with scheduled as (
        select id from data.deliveries where ${onTheDay} and status = 'scheduled' order by id limit 1 for update
      ),
      added as (
        update data.deliveries d set quantity = d.quantity + ${order.quantity}
        from scheduled where d.id = scheduled.id
        returning d.id, d.quantity::float8 as quantity, d.xmin::text as version
      ),
      inserted as (
        insert into data.deliveries (product_id, expected_date, quantity, status)
        select ${order.productId}, ${order.expectedDate}::date, ${order.quantity}, 'scheduled'
        where not exists (select 1 from data.deliveries where ${onTheDay})
        on conflict do nothing
        returning id, quantity::float8 as quantity, xmin::text as version
      )
      select * from added union all select * from inserted`.execute(db);
    const row = rows[0];
    if (row) return { id: Number(row.id), quantity: row.quantity, version: row.version };
  }
  return undefined;
}

/** The status of the product's delivery expected on a day, if there is one (the first, when the day repeats). */
export const deliveryStatusOn = async (db: Db, productId: number, day: string) =>
  (await db.selectFrom('data.deliveries').select('status').where('product_id', '=', productId).where('expected_date', '=', day).orderBy('id').executeTakeFirst())?.status;
