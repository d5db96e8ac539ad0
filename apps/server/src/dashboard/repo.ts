// SQL of the dashboard: tasks, pins, the demand summaries written with the forecasts, and the
// few sums the dashboard answers from.
import { sql, type Kysely } from 'kysely';
import { quantitiesByUnit, type UnitQuantity } from '@stockwise/contract';
import type { Database, SnapshotUnitsOfUnit, TaskKind } from '../db/schema.ts';
import type { ProductSummary } from './summary.ts';
import { needingAttention } from '../order-advice/service.ts';
import { notBought, notStocked } from '../order-advice/repo.ts';
import { onHandNowUnits } from '../stock/repo.ts';
import { outOfSeasonNow } from '../forecasting/repo.ts';
import { isCatalogueTask } from '../forecasting/task-scope.ts';

type Db = Kysely<Database>;

const floatArray = (values: number[]) => sql<number[]>`${`{${values.map((v) => (Number.isFinite(v) ? v : 0)).join(',')}}`}::float8[]`;

export async function upsertProductSummaries(db: Db, rows: (ProductSummary & { productId: number; forecastStart: string })[]) {
  if (!rows.length) return;
  await db
    .insertInto('dashboard_product_summary')
    .values(
      rows.map((r) => ({
        product_id: r.productId,
        forecast_start: r.forecastStart,
        cum_demand: floatArray(r.cumDemand),
        cum_variance: floatArray(r.cumVariance),
        first_stockout: r.firstStockout,
        order_quantity: r.orderQuantity,
      })),
    )
    .onConflict((oc) =>
      oc.column('product_id').doUpdateSet((eb) => ({
        forecast_start: eb.ref('excluded.forecast_start'),
        cum_demand: eb.ref('excluded.cum_demand'),
        cum_variance: eb.ref('excluded.cum_variance'),
        first_stockout: eb.ref('excluded.first_stockout'),
        order_quantity: eb.ref('excluded.order_quantity'),
      })),
    )
    .execute();
}

/**
 * Recomputes the snapshot totals monthly growth is read from and the task counts (after each
 * forecast run: imports of stock start one). `catalogueTaskId`: the catalogue run finishing now,
 * whose advice the reorder count reads before the run is marked completed.
 */
export async function refreshCatalogueSummary(db: Db, catalogueTaskId?: string): Promise<void> {
  // Independent reads on connections of their own: the end of a catalogue run waits for the longest,
  // not their sum. The reorder task counts the Forecasting screen's list of products that need an order.
  const [snapshots, sales, attention] = await Promise.all([snapshotTotals(db), salesConditions(db), needingAttention(db, catalogueTaskId)]);
  const all = {
    ...snapshots,
    // The list's length: the orders and the deliveries to hurry (the rows without an order-by date).
    reorder_count: attention.orderByDates.length + attention.deliveriesLate,
    reorder_order_by: sql<string[]>`${`{${attention.orderByDates.join(',')}}`}::text[]`,
    unknown_stock_count: attention.unknownStock,
    counted_after_sales_count: attention.countedAfterSales,
    no_sales_count: sales.noSales,
    last_sale: sales.lastSale,
  };
  await db
    .insertInto('dashboard_catalogue_summary')
    .values({ id: 1, ...all })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...all, computed_at: sql`now()` }))
    .execute();
}

/** Each product's latest stock snapshot on or before a day. */
const latestSnapshotsOn = (day: string) =>
  sql`select distinct on (product_id) product_id, stock_level from data.stock_snapshots where date <= ${day}::date order by product_id, date desc`;

/**
 * Units on hand at the latest snapshot day and a month before it (monthly growth), summed over the
 * same products at both ends: those counted by the month-old day. A product counted only since (a
 * catalogue imported last week) is not growth, so it is in neither sum (ADR 0070, amendment
 * "growth compares like with like"). The same two sums per product unit as stored beside them: kilos
 * and pieces grow apart (ADR 0177, amendment 2026-12-06 (2)). Products not stocked are in neither, as
 * they are in no total (ADR 0200, amendment 2026-12-07).
 */
async function snapshotTotals(db: Db): Promise<{ snapshot_date: string | null; snapshot_units: number | null; previous_date: string | null; previous_units: number | null; snapshot_units_by_unit: string }> {
  const latest = (await db.selectFrom('data.stock_snapshots').select((eb) => eb.fn.max('date').as('last')).executeTakeFirst())?.last ?? null;
  if (!latest) return { snapshot_date: null, snapshot_units: null, previous_date: null, previous_units: null, snapshot_units_by_unit: '[]' };
  const previous = (await sql<{ day: string }>`select (${latest}::date - interval '1 month')::date::text as day`.execute(db)).rows[0]?.day as string;
  // One scan: the sums over every product (the empty grouping set) and per unit as stored.
  const { rows } = await sql<{ whole: boolean; unit: string | null; now: number | null; before: number | null }>`
      select grouping(p.unit) = 1 as whole, p.unit, sum(now.stock_level)::float8 as now, sum(before.stock_level)::float8 as before
      from (${latestSnapshotsOn(previous)}) before join (${latestSnapshotsOn(latest)}) now using (product_id) join data.products p on p.id = product_id
      where not ${notStocked}
      group by grouping sets ((p.unit), ())`.execute(db);
  const whole = rows.find((row) => row.whole);
  const byUnit: SnapshotUnitsOfUnit[] = rows.filter((row) => !row.whole).map((row) => ({ unit: row.unit, now: row.now ?? 0, before: row.before ?? 0 }));
  return { snapshot_date: latest, snapshot_units: whole?.now ?? null, previous_date: previous, previous_units: whole?.before ?? null, snapshot_units_by_unit: JSON.stringify(byUnit) };
}

/** The generated tasks' conditions as of the last forecast run (all clear before the first). */
/** An integration whose last run failed, as its list names it (endpoint and mapping); `stopped`: it switched itself off after failing runs. */
export type FailingIntegration = { endpoint: string; mapping: string; failures: number; stopped: boolean };

export type TaskConditions = {
  reorder: number;
  reorderOrderBy: string[];
  unknownStock: number;
  /** Products with recent demand counted only after the sales data ends: recent sales to import. */
  countedAfterSales: number;
  noSales: number;
  lastSale: string | null;
  failingIntegrations: FailingIntegration[];
  /** The codes the latest catalogue forecast run could not forecast (their stored forecasts are older), as its results keep them. */
  unforecast: string[];
};

export async function taskConditions(db: Db): Promise<TaskConditions> {
  const [summary, integrations, lastCatalogueRun] = await Promise.all([
    catalogueSummary(db),
    db.selectFrom('integrations').select(['endpoint', 'mapping_selection', 'consecutive_failures', 'enabled']).where('status', '=', 'failed').orderBy('id').execute(),
    // The newest by when it was asked for: forecast_tasks_catalogue's order, so a read does not scan a year of runs.
    db.selectFrom('forecast_tasks').select('results').where(isCatalogueTask).where('status', '=', 'completed').orderBy('created_at', 'desc').limit(1).executeTakeFirst(),
  ]);
  const failed = (lastCatalogueRun?.results as { failed?: { styleCode: string }[] } | null | undefined)?.failed ?? [];
  return {
    reorder: summary?.reorder_count ?? 0,
    reorderOrderBy: summary?.reorder_order_by ?? [],
    unknownStock: summary?.unknown_stock_count ?? 0,
    countedAfterSales: summary?.counted_after_sales_count ?? 0,
    noSales: summary?.no_sales_count ?? 0,
    lastSale: summary?.last_sale ?? null,
    failingIntegrations: integrations.map((row) => ({ endpoint: row.endpoint, mapping: row.mapping_selection, failures: row.consecutive_failures, stopped: !row.enabled })),
    unforecast: failed.map((product) => product.styleCode),
  };
}

export const catalogueSummary = (db: Db) => db.selectFrom('dashboard_catalogue_summary').selectAll().where('id', '=', 1).executeTakeFirst();

/** A product's units on hand now for a total: one sold below its count adds 0, not less; one never counted nothing. */
export const unitsForTotal = sql<number>`greatest(coalesce(${onHandNowUnits}, 0), 0)`;

/**
 * Products, units on hand now (each product's Forecasting header figure, onHandNowUnits) — all
 * added, and `byUnit` one total per product unit (ADR 0177, amendment 2026-12-06) — and their
 * worth at unit cost; `withoutCost`: the products on hand whose unit cost is 0. A cost left blank
 * (an import's empty cell, the row form's empty field) is stored as 0, as the column allows no
 * empty value: such stock is not in `value`, and the totals say how many products that leaves out
 * rather than pass their stock as free. Products not stocked (a service or fee) are in none of them:
 * no stock is kept of them, whatever a file wrote in their stock column (ADR 0200, amendment
 * 2026-12-07); `notStocked` counts them, for the totals to say so. One made here is stock (croissants
 * on the shelf), so the rule is `notStocked`, not `notBought`.
 */
export async function inventoryTotals(db: Db): Promise<{ products: number; units: number; value: number; withoutCost: number; byUnit: UnitQuantity[]; notStocked: number }> {
  // One scan: the whole catalogue's row (the empty grouping set) and one row per unit as stored; quantitiesByUnit takes " kg" and "KG" as one.
  // The count of those not stocked is an uncorrelated subquery: worked out once, not per row.
  const { rows } = await sql<{ whole: boolean; unit: string | null; products: number; units: number; value: number; withoutCost: number; notStocked: number }>`
      select grouping(p.unit) = 1 as whole, p.unit, count(*)::int as products, coalesce(sum(${unitsForTotal}), 0)::float8 as units,
        coalesce(sum(${unitsForTotal} * p.unit_cost), 0)::float8 as value, (count(*) filter (where p.unit_cost = 0 and ${unitsForTotal} > 0))::int as "withoutCost",
        (select count(*) from data.products p where ${notStocked})::int as "notStocked"
      from data.products p left join forecast_results f on f.product_id = p.id where not ${notStocked} group by grouping sets ((p.unit), ())`.execute(db);
  const { products, units, value, withoutCost, notStocked: leftOut } = rows.find((row) => row.whole) ?? { products: 0, units: 0, value: 0, withoutCost: 0, notStocked: 0 };
  const byUnit = quantitiesByUnit(rows.filter((row) => !row.whole).map((row) => ({ unit: row.unit, quantity: row.units })));
  return { products, units, value, withoutCost, byUnit, notStocked: leftOut };
}

/** The products counted in one unit as stored (`unit`) at one month end. */
export type ProjectionRow = { unit: string | null; month_index: number; products: number; medium: number; variance: number; available: number };

/**
 * Per product unit as stored and month end: the products, the sum over them of max(0, stock on hand now (onHandNowUnits, never counted: 0) + scheduled deliveries until then −
 * expected demand until then), the summed variance of the demand, and the stock there would be if
 * nothing sold (`available`: stock now + deliveries until then). Products without a forecast count
 * with their stock and deliveries only. Sums, so the units' rows add up to the whole catalogue's.
 * Products made here are left out (ADR 0194, amendment 2026-12-06): nothing is bought for them and
 * what the shop makes is no scheduled delivery, so their projected stock would only ever fall; and
 * so are products not stocked (ADR 0200): a service or fee has no stock.
 */
export async function projectionSums(db: Db, forecastStart: string, monthEnds: string[]): Promise<ProjectionRow[]> {
  const months = sql.join(monthEnds.map((end, i) => sql`(${i + 1}::int, ${end}::date)`));
  const result = await sql<ProjectionRow>`
    with months(month_index, month_end) as (values ${months}),
    arriving as (
      select d.product_id, m.month_index, sum(d.quantity)::float8 as units
      from data.deliveries d join months m on d.expected_date <= m.month_end
      where d.status = 'scheduled' and d.expected_date >= ${forecastStart}::date
      group by d.product_id, m.month_index
    )
    select p.unit, m.month_index, count(*)::int as products,
      sum(greatest(0, ${unitsForTotal} + coalesce(a.units, 0) - coalesce(s.cum_demand[m.month_index], 0)))::float8 as medium,
      coalesce(sum(s.cum_variance[m.month_index]), 0)::float8 as variance,
      sum(greatest(0, ${unitsForTotal} + coalesce(a.units, 0)))::float8 as available
    from data.products p
    left join forecast_results f on f.product_id = p.id
    cross join months m
    left join dashboard_product_summary s on s.product_id = p.id
    left join arriving a on a.product_id = p.id and a.month_index = m.month_index
    where not ${notBought}
    group by p.unit, m.month_index
    order by m.month_index, p.unit`.execute(db);
  return result.rows;
}

/** How many products are not stocked and, of the others, made here: those the stock projection leaves out. */
export async function notBoughtProducts(db: Db): Promise<{ madeHere: number; notStocked: number }> {
  const row = (
    await sql<{ made_here: number; not_stocked: number }>`select count(*) filter (where not ${notStocked})::int as made_here, count(*) filter (where ${notStocked})::int as not_stocked from data.products p where ${notBought}`.execute(db)
  ).rows[0];
  return { madeHere: row?.made_here ?? 0, notStocked: row?.not_stocked ?? 0 };
}

/** The first and last day with sales before `before` (the forecast start): the sales the forecasts were made from; null without any. Two index reads (sales_date). */
export async function salesSpanBefore(db: Db, before: string): Promise<{ from: string; to: string } | null> {
  const row = (await sql<{ first: string | null; last: string | null }>`select min(date)::text as first, max(date)::text as last from data.sales where date < ${before}::date`.execute(db)).rows[0];
  return row?.first && row.last ? { from: row.first, to: row.last } : null;
}

export const latestForecastStart = async (db: Db): Promise<string | null> =>
  (await db.selectFrom('dashboard_product_summary').select((eb) => eb.fn.max('forecast_start').as('start')).executeTakeFirst())?.start ?? null;

/**
 * The last sale anywhere and how many products sold nothing in the 90 days up to it, those between
 * the seasons they sell in left out (outOfSeasonNow), as the assistant's no-sales and dead-stock answers leave them.
 */
async function salesConditions(db: Db): Promise<{ noSales: number; lastSale: string | null }> {
  const lastSale = (await sql<{ last_sale: string | null }>`select max(date)::text as last_sale from data.sales`.execute(db)).rows[0]?.last_sale ?? null;
  const noSales = lastSale
    ? ((
        await sql<{ n: number }>`
          select count(*)::int as n from data.products p left join forecast_results f on f.product_id = p.id
          where not ${outOfSeasonNow} and not exists (select 1 from data.sales s where s.product_id = p.id and s.quantity > 0 and s.date > ${lastSale}::date - 90)`.execute(db)
      ).rows[0]?.n ?? 0)
    : 0;
  return { noSales, lastSale };
}

// Tasks -----------------------------------------------------------------------------------------

const taskColumns = ['id', 'text', 'completed', 'kind'] as const;

/** The user's tasks as the dashboard shows them: generated ones the user deleted are kept hidden. */
const visibleTasks = (db: Db, userId: number) => db.selectFrom('tasks').where('user_id', '=', userId).where('dismissed', '=', false);

export const listTasks = (db: Db, userId: number) => visibleTasks(db, userId).select(taskColumns).orderBy('position').orderBy('id').execute();

export const findTask = (db: Db, userId: number, id: number) => visibleTasks(db, userId).select(taskColumns).where('id', '=', id).executeTakeFirst();

const nextPosition = async (db: Db, userId: number) =>
  ((await db.selectFrom('tasks').select((eb) => eb.fn.max('position').as('last')).where('user_id', '=', userId).executeTakeFirst())?.last ?? -1) + 1;

export const insertTask = async (db: Db, userId: number, text: string) =>
  db.insertInto('tasks').values({ user_id: userId, text, position: await nextPosition(db, userId) }).returning(taskColumns).executeTakeFirstOrThrow();

/** A generated task of `kind`, unless the user has one already (two dashboard reads at once make it once). */
export const insertGeneratedTask = async (db: Db, userId: number, kind: TaskKind, text: string) =>
  db
    .insertInto('tasks')
    .values({ user_id: userId, text, kind, position: await nextPosition(db, userId) })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).where('kind', 'is not', null).doNothing())
    .execute();

export const updateTask = (db: Db, userId: number, id: number, values: { text?: string; completed?: boolean; condition_cleared?: boolean }) =>
  db.updateTable('tasks').set(values).where('user_id', '=', userId).where('id', '=', id).where('dismissed', '=', false).returning(taskColumns).executeTakeFirst();

export const toggleTask = (db: Db, userId: number, id: number) =>
  db
    .updateTable('tasks')
    .set((eb) => ({ completed: eb.not(eb.ref('completed')) }))
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('dismissed', '=', false)
    .returning(taskColumns)
    .executeTakeFirst();

/** Deletes the user's own task; a generated one is hidden instead, so it is not made again. */
export async function deleteTask(db: Db, userId: number, id: number): Promise<boolean> {
  const dismissed = await db.updateTable('tasks').set({ dismissed: true }).where('user_id', '=', userId).where('id', '=', id).where('kind', 'is not', null).where('dismissed', '=', false).executeTakeFirst();
  if (Number(dismissed.numUpdatedRows) > 0) return true;
  return Number((await db.deleteFrom('tasks').where('user_id', '=', userId).where('id', '=', id).where('kind', 'is', null).executeTakeFirst()).numDeletedRows) > 0;
}

export const generatedTasks = (db: Db, userId: number) =>
  db.selectFrom('tasks').select(['id', 'kind', 'text', 'completed', 'condition_cleared', 'dismissed']).where('user_id', '=', userId).where('kind', 'is not', null).execute();

// Pins ------------------------------------------------------------------------------------------

export const listPins = (db: Db, userId: number) =>
  db
    .selectFrom('dashboard_pins as d')
    .innerJoin('user_reports as r', 'r.id', 'd.report_id')
    .select(['r.id', 'r.title'])
    .where('d.user_id', '=', userId)
    .orderBy('d.position')
    .execute();

export async function insertPin(db: Db, userId: number, reportId: number) {
  const next = await db.selectFrom('dashboard_pins').select((eb) => eb.fn.max('position').as('last')).where('user_id', '=', userId).executeTakeFirst();
  await db
    .insertInto('dashboard_pins')
    .values({ user_id: userId, report_id: reportId, position: (next?.last ?? -1) + 1 })
    .onConflict((oc) => oc.columns(['user_id', 'report_id']).doNothing())
    .execute();
}

export const deletePin = async (db: Db, userId: number, reportId: number) =>
  Number((await db.deleteFrom('dashboard_pins').where('user_id', '=', userId).where('report_id', '=', reportId).executeTakeFirst()).numDeletedRows) > 0;

export const reportExists = async (db: Db, reportId: number) => !!(await db.selectFrom('user_reports').select('id').where('id', '=', reportId).executeTakeFirst());
