// The order advice: the one definition of "needs an order" that the latest report, the low-stock
// panel, the assistant's low-stock and reorder answers and the dashboard's reorder task all read
// (docs/adr/0072-low-stock-is-the-order-advice.md), and an order a buyer placed, recorded from the
// list (docs/adr/0182-an-order-recorded-from-the-list.md).
import type { Kysely } from 'kysely';
import type { ProductForecast } from '@stockwise/forecast';
import {
  bySupplierName,
  DEFAULT_INACTIVE_DAYS,
  dayInTimeZone,
  formatDay,
  inReadingUnit,
  isMeasureUnit,
  MAX_ORDER_QUANTITY,
  ORDER_QUANTITY_PLACES,
  orderArrivalProblem,
  productUnit,
  quantitiesByUnit,
  splitQuantityUnit,
  typedNumber,
  type ListedOrder,
  type ListSupplier,
  type RecordedOrder,
  type RecordedOrders,
  type RecordOrderRequest,
  type RecordOrdersRequest,
  type SupplierOrder,
  type UnitQuantity,
} from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { inTransaction } from '../db/transaction.ts';
import { AppError, echoed, notFoundError, validationError } from '../http/errors.ts';
import { logError } from '../log.ts';
import { shopTimeZone } from '../shop/service.ts';
import { readSupplierNames } from '../suppliers/service.ts';
import { recordRowEdit } from '../tables/repo.ts';
import { PLAIN_NUMBER } from '../tables/typed-figures.ts';
import * as repo from './repo.ts';

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

export type AdvisedProduct = ListedOrder & { productId: number };

export type OrderAdviceOptions = {
  /** Products without demand in the last `inactiveDays` days are left out unless this is true. */
  includeInactive?: boolean;
  inactiveDays?: number;
  /** Products made here (ADR 0194) are left out unless this is true. */
  includeMadeHere?: boolean;
  /** Only the products bought from this supplier (any of its spellings: case and white space aside, ADR 0186); null: those with no supplier; undefined: every supplier (ADR 0184). */
  supplier?: string | null;
  /** One page of the list (1-based); without it, the whole list. */
  page?: { number: number; size: number };
  /** The catalogue run the answer is dated by (one finishing now, not yet marked completed); default the latest completed one. */
  taskId?: string;
};

export type OrderAdvice = {
  task: { id: string; updatedAt: Date; forecastDays: number };
  /** The length of the whole list, all pages: products that need an order and those with a delivery to hurry. */
  total: number;
  /** The suppliers of the list before the supplier filter, with their products' counts: the filter's choices. */
  suppliers: ListSupplier[];
  /** The supplier filter as asked, in its supplier's one spelling (ADR 0186): a name, null for "no supplier"; absent: every supplier. */
  supplier?: string | null;
  /** Of `total`, the products with no order to place whose delivery on its way arrives after they run out. */
  deliveriesLate: number;
  /** Products that need an order but were left out as inactive (0 when they are included). */
  inactive: number;
  inactiveDays: number;
  /** Products made here whose forecast says to order (of the supplier, and active unless inactive ones are included), left out as nothing is bought for them (0 when they are included; ADR 0194). */
  madeHere: number;
  /** Products not stocked (a service or fee) whose forecast says to order (of the supplier, and active unless inactive ones are included): always left out, as no stock is kept of them (ADR 0200). */
  notStocked: number;
  /** Units and cost (quantity × unit cost) of every order on the list, all pages; `orderUnits` whatever their units, `orderQuantities` one total per unit. */
  orderUnits: number;
  orderQuantities: UnitQuantity[];
  orderCost: number;
  /** The order-by date of the most urgent order on the whole list (not only the page); null when it lists none. */
  firstOrderBy: string | null;
  products: AdvisedProduct[];
  /** Products with demand in the last `inactiveDays` days and no stock count the projection opens from (never counted; apart, counted after the sales data ends): no order can be advised for them. */
  unknownStock: UnknownStock;
};

export type UnknownStock = repo.UnknownStock;

/** How many codes of products without a stock count the advice names (the best sellers). */
export const UNKNOWN_STOCK_CODES = 10;

/**
 * Whether an advised order is due by a day: its order-by day is on or before it, overdue ones
 * included (an order not placed yet must still be placed). The one rule of "due by" for the
 * dashboard's reorder task and the assistant's order answers; the report writer's reorder SQL says
 * the same over the reorder_advice view (ADR 0148, M4 amendment).
 */
export const isDueBy = (orderBy: string | null, by: string) => orderBy !== null && orderBy <= by;

/** The quantities of the orders on a list, one total per unit: a row to hurry orders nothing. */
export const orderQuantities = (products: readonly AdvisedProduct[]): UnitQuantity[] => quantitiesByUnit(products.map((p) => ({ unit: p.unit, quantity: p.orderQuantity })));

/** The supplier's terms a stored advice was made under, those it has (ADR 0183); a forecast stored before them has none. */
const supplierOrderOf = (reorder: ProductForecast['reorder']): SupplierOrder => ({
  ...(reorder.orderMultiple !== undefined ? { orderMultiple: reorder.orderMultiple } : {}),
  ...(reorder.minOrderQuantity !== undefined ? { minOrderQuantity: reorder.minOrderQuantity } : {}),
  ...(reorder.orderQuantityNeeded !== undefined ? { orderQuantityNeeded: reorder.orderQuantityNeeded } : {}),
});

/**
 * The suppliers of `products` (each known by its one spelling, ADR 0186), each with how many it
 * lists, by name (ignoring case and accents), "no supplier" last; `asked` (the filter's supplier, in
 * that spelling) is there even when it lists none, so the filter still says what it is after the
 * last of its orders is placed (ADR 0184).
 */
export function listSuppliers(products: readonly Pick<AdvisedProduct, 'supplier'>[], asked?: string | null): ListSupplier[] {
  const counts = new Map<string | null, number>();
  if (asked !== undefined) counts.set(asked, 0);
  for (const { supplier = null } of products) counts.set(supplier, (counts.get(supplier) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => bySupplierName(a, b)).map(([supplier, count]) => ({ supplier, count }));
}

/** The catalogue run the advice is dated by: the given one, or the latest completed. */
const catalogueTask = (db: Kysely<Database>, taskId: string | undefined) => (taskId ? repo.findCatalogueTask(db, taskId) : repo.latestCompletedCatalogueTask(db));

/** A row of the list with an order to place (not a delivery to hurry). */
export const hasOrder = (product: Pick<AdvisedProduct, 'orderBy'>): product is AdvisedProduct & { orderBy: string } => product.orderBy !== null;

/**
 * The products that need an order, from each product's latest stored forecast — an order-by date and a quantity from the forecast's reorder
 * advice, so a warning always comes with advice — and those whose delivery on its way arrives after
 * they run out (no order, `onOrderArrives`: hurry it), most urgent first: days until the expected
 * stockout minus the lead time, i.e. the days left to order in time (without an expected stockout,
 * days until the order-by date). Null before the first whole-catalogue forecast.
 */
export async function orderAdvice(db: Kysely<Database>, options: OrderAdviceOptions = {}): Promise<OrderAdvice | null> {
  const task = await catalogueTask(db, options.taskId);
  if (!task) return null;
  const inactiveDays = options.inactiveDays ?? DEFAULT_INACTIVE_DAYS;
  // Each product's supplier by its one spelling, the filter by any of them (ADR 0186).
  const names = await readSupplierNames(db);
  const supplier = options.supplier === undefined ? undefined : names.nameOf(options.supplier);
  const [rows, unknownStock] = await Promise.all([repo.adviceRows(db, inactiveDays), repo.unknownStock(db, inactiveDays, UNKNOWN_STOCK_CODES, supplier === undefined ? undefined : names.holds(supplier))]);
  const needing: AdvisedProduct[] = [];
  const notStockedIds = new Set<number>();
  for (const row of rows) {
    if (row.not_stocked) notStockedIds.add(Number(row.id));
    const reorder = row.reorder as ProductForecast['reorder'];
    const stockouts = (row.stockouts ?? []) as ProductForecast['stockouts'];
    // The expected path decides; the pessimistic bound only answers when the expected one never runs out.
    const byDate = [...stockouts].sort((a, b) => a.date.localeCompare(b.date));
    const expected = byDate.find((s) => s.type === 'stockForecast');
    const first = expected ?? byDate[0] ?? null;
    const start = dayNumber(row.forecast_start);
    needing.push({
      productId: Number(row.id),
      styleCode: row.product_code,
      name: row.name,
      currentStock: row.current_stock,
      onHand: row.on_hand === null || row.on_hand_counted === null || row.on_hand_counted_on === null ? null : { units: row.on_hand, countedUnits: row.on_hand_counted, countedOn: row.on_hand_counted_on },
      unit: productUnit(row.unit),
      supplier: names.nameOf(row.supplier),
      unitCost: Number(row.unit_cost),
      leadTimeDays: reorder.leadTimeDays,
      firstStockout: first?.date ?? null,
      stockoutType: first?.type ?? null,
      reorderPoint: reorder.reorderPoint,
      orderQuantity: reorder.orderQuantity,
      ...supplierOrderOf(reorder),
      orderBy: reorder.orderBy,
      ...(reorder.onOrderArrives ? { onOrderArrives: reorder.onOrderArrives } : {}),
      model: row.model,
      // Days left to order in time: to the expected stockout less the lead time, or to the order-by
      // date when that is sooner (safety stock and the review period can make it so), so the list's
      // order is the order of the dates it shows.
      // A delivery to hurry has no order-by date: its stockout alone dates it.
      urgencyDays: Math.min(expected ? dayNumber(expected.date) - start - reorder.leadTimeDays : Infinity, reorder.orderBy ? dayNumber(reorder.orderBy) - start : Infinity),
      recentDemand: Number(row.recent_demand),
      ...(row.made_here ? { madeHere: true } : {}),
    });
  }
  const ofSupplier = (products: AdvisedProduct[]) => (supplier === undefined ? products : products.filter((p) => (p.supplier ?? null) === supplier));
  const activeOf = (products: AdvisedProduct[]) => (options.includeInactive ? products : products.filter((p) => p.recentDemand > 0));
  // Not stocked (ADR 0200), then made here (ADR 0194): left out before the inactive ones, so each
  // left-out product is counted once. A service or fee is never shown: it has no order to place.
  const stocked = needing.filter((p) => !notStockedIds.has(p.productId));
  const bought = options.includeMadeHere ? stocked : stocked.filter((p) => !p.madeHere);
  const active = activeOf(bought);
  const listed = ofSupplier(active);
  listed.sort((a, b) => a.urgencyDays - b.urgencyDays || a.styleCode.localeCompare(b.styleCode));
  const from = options.page ? (options.page.number - 1) * options.page.size : 0;
  return {
    task: { id: task.id, updatedAt: task.updated_at, forecastDays: task.forecast_days },
    total: listed.length,
    suppliers: listSuppliers(active, supplier),
    ...(supplier !== undefined ? { supplier } : {}),
    deliveriesLate: listed.filter((p) => !hasOrder(p)).length,
    inactive: ofSupplier(bought).length - listed.length,
    inactiveDays,
    madeHere: ofSupplier(activeOf(stocked)).length - listed.length,
    notStocked: ofSupplier(activeOf(needing)).length - ofSupplier(activeOf(stocked)).length,
    orderUnits: listed.reduce((sum, p) => sum + p.orderQuantity, 0),
    orderQuantities: orderQuantities(listed),
    orderCost: Math.round(listed.reduce((sum, p) => sum + p.orderQuantity * p.unitCost, 0) * 100) / 100,
    firstOrderBy: listed.find(hasOrder)?.orderBy ?? null,
    products: options.page ? listed.slice(from, from + options.page.size) : listed,
    unknownStock,
  };
}

/**
 * Of `productIds` (a page of the list), those whose stored forecast rests on under four weeks of
 * sales: their rows say "check before ordering", as the product's own advice does (ADR 0162,
 * amendment 2026-12-04). A page's (or a download's batch of lines), not the whole list's at once: the label is read from the stored forecast's text.
 */
export async function shortHistoryProducts(db: Kysely<Database>, productIds: readonly number[]): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  return new Set((await repo.shortHistoryIds(db, productIds)).map((row) => Number(row.product_id)));
}

/**
 * The order-by dates of the products that need an order, how many have a delivery to hurry instead,
 * how many sell but have no stock count and how many were counted after the sales data ends
 * (products without recent demand and those not bought left out): the dashboard's reorder, stock-count and import tasks.
 */
export async function needingAttention(db: Kysely<Database>, taskId?: string): Promise<{ orderByDates: string[]; deliveriesLate: number; unknownStock: number; countedAfterSales: number }> {
  if (!(await catalogueTask(db, taskId))) return { orderByDates: [], deliveriesLate: 0, unknownStock: 0, countedAfterSales: 0 };
  const [listed, unknownStock] = await Promise.all([repo.listedOrderBy(db, DEFAULT_INACTIVE_DAYS), repo.unknownStock(db, DEFAULT_INACTIVE_DAYS, 1)]);
  return { ...listed, unknownStock: unknownStock.count, countedAfterSales: unknownStock.countedAfterSales.count };
}

/** `onOrdersRecorded`: the products' forecasts are run again, in one run, with the orders in them; the run's task id. */
export type OrderAdviceContext = { db: Kysely<Database>; onOrdersRecorded: (productIds: number[], userId: number) => Promise<string> };

type OrderedProduct = NonNullable<Awaited<ReturnType<typeof repo.orderedProduct>>>;

const wholeNumber = (value: number) => Number.isInteger(value);
const withinPlaces = (value: number) => Math.abs(Math.round(value * 10 ** ORDER_QUANTITY_PLACES) - value * 10 ** ORDER_QUANTITY_PLACES) < 1e-6;

/**
 * An order's quantity in the product's unit, or why it cannot be one: a figure typed with a unit is
 * read as the Data screen reads it (250 g of a product in kg is 0.25, ADR 0178); above 0, to the 3
 * places a delivery keeps, and whole for a product sold in whole units — one neither counted by
 * weight, length or volume nor ever sold in fractions, as its forecast orders it (ADR 0176, 0177).
 */
function orderedQuantity(typed: number | string, product: OrderedProduct): number | string {
  const unit = productUnit(product.unit);
  let value = typeof typed === 'number' ? typed : Number.NaN;
  if (typeof typed === 'string') {
    const split = splitQuantityUnit(typed);
    const figure = typedNumber(split ? split.number : typed);
    if (!PLAIN_NUMBER.test(figure)) return `Expected a number, not ${echoed(typed, 40)}.`;
    const read = split ? inReadingUnit(Number(figure), split.word, typed, { unit, of: `the unit of product ${product.product_code}` }, ORDER_QUANTITY_PLACES, 'form') : Number(figure);
    if (typeof read === 'string') return read;
    value = read;
  }
  if (!(value > 0)) return 'Enter a quantity above 0.';
  if (value > MAX_ORDER_QUANTITY) return `At most ${MAX_ORDER_QUANTITY.toLocaleString('en-US')}.`;
  if (!withinPlaces(value)) return `${value} has more than ${ORDER_QUANTITY_PLACES} decimal places: round it to ${ORDER_QUANTITY_PLACES}.`;
  if (!isMeasureUnit(unit) && !product.sold_in_fractions && !wholeNumber(value)) {
    return `${value} is not a whole number, and ${product.name} is counted in whole ${unit ?? 'units'}: it is no weight, length or volume, and no sale of it had a fraction.`;
  }
  return value;
}

/** An order whose quantity and day were read and checked, ready to be written. */
type CheckedOrder = { product: OrderedProduct; order: { productId: number; expectedDate: string; quantity: number } };

/** An order checked against its product and the shop's today: what to write, or each field's problem. */
function checkedOrder(request: RecordOrderRequest, product: OrderedProduct, today: string): CheckedOrder | Record<'quantity' | 'expectedDate', string[]> {
  const quantity = orderedQuantity(request.quantity, product);
  const arrival = orderArrivalProblem(request.expectedDate, today);
  if (typeof quantity !== 'string' && !arrival) return { product, order: { productId: Number(product.id), expectedDate: request.expectedDate, quantity } };
  return { ...(typeof quantity === 'string' ? { quantity: [quantity] } : {}), ...(arrival ? { expectedDate: [arrival] } : {}) } as Record<'quantity' | 'expectedDate', string[]>;
}

const isChecked = (checked: ReturnType<typeof checkedOrder>): checked is CheckedOrder => 'order' in checked;

/** The order as a scheduled delivery, named as the user's edit on the Data screen; undefined when its day holds only received or cancelled ones. */
async function writeOrder(trx: Kysely<Database>, order: CheckedOrder['order'], userId: number) {
  const written = await repo.addOrderedDelivery(trx, order);
  if (written) await recordRowEdit(trx, { tableName: 'deliveries', rowId: written.id, version: written.version, userId });
  return written;
}

const answeredOrder = ({ product, order }: CheckedOrder, delivery: { id: number; quantity: number }): Omit<RecordedOrder, 'taskId'> => ({
  styleCode: product.product_code,
  name: product.name,
  unit: productUnit(product.unit),
  ordered: order.quantity,
  expectedDate: order.expectedDate,
  delivery: { id: delivery.id, quantity: delivery.quantity },
});

/** The forecast run that counts the orders, queued after the commit; a failure to queue is logged, not answered (the next run counts them). */
async function refreshAfterOrders(ctx: OrderAdviceContext, productIds: number[], userId: number): Promise<string | null> {
  try {
    return await ctx.onOrdersRecorded(productIds, userId);
  } catch (error) {
    logError('after recording orders', error, { product_ids: productIds.join(',') });
    return null;
  }
}

/**
 * A buyer's order of one product (ADR 0182), recorded from the order list: a scheduled delivery of
 * `quantity` on `expectedDate` — the shop's today at the earliest (ADR 0173), added to the one already
 * expected that day — committed and answered whatever follows; then the product's forecast is run
 * again, so its advice counts the order (it leaves the list, or stays to be hurried). A failure to
 * queue that run is logged, not answered: the order is recorded, and the next run counts it.
 */
export async function recordOrder(ctx: OrderAdviceContext, request: RecordOrderRequest, userId: number): Promise<RecordedOrder> {
  const product = await repo.orderedProduct(ctx.db, request.styleCode);
  if (!product) throw notFoundError(`Product '${echoed(request.styleCode, 64)}' not found.`);
  const checked = checkedOrder(request, product, dayInTimeZone(Date.now(), await shopTimeZone(ctx.db)));
  if (!isChecked(checked)) throw validationError(Object.values(checked).map(([problem]) => problem).join(' '), checked);
  const delivery = await inTransaction(ctx.db, (trx) => writeOrder(trx, checked.order, userId));
  if (!delivery) throw dayTaken(product, request.expectedDate, await repo.deliveryStatusOn(ctx.db, checked.order.productId, request.expectedDate));
  return { ...answeredOrder(checked, delivery), taskId: await refreshAfterOrders(ctx, [checked.order.productId], userId) };
}

/** The field of an order of a batch, as the request's schema names it: `orders.3.quantity`. */
const batchField = (position: number, field: string) => `orders.${position}.${field}`;

/**
 * A buyer's purchase order to one supplier: several orders recorded at once, all or none (ADR
 * 0185). Every order is checked first by the single order's rules — an unknown product is a 404
 * naming every unknown code; a bad quantity or day, or a second order of a product for a day the
 * batch already orders it, a 400 naming each order's position and field — then all are written in
 * one transaction, each product's delivery days taken first in the one order `lockDeliveryDays`
 * keeps; a day holding only received or cancelled deliveries refuses the whole batch (409 naming
 * those products), nothing written. One forecast run then counts them all.
 */
export async function recordOrders(ctx: OrderAdviceContext, request: RecordOrdersRequest, userId: number): Promise<RecordedOrders> {
  const products = new Map((await repo.orderedProducts(ctx.db, [...new Set(request.orders.map((order) => order.styleCode))])).map((product) => [product.product_code, product]));
  const unknown = [...new Set(request.orders.map((order) => order.styleCode).filter((code) => !products.has(code)))];
  if (unknown.length) throw notFoundError(`${unknown.length === 1 ? 'Product' : 'Products'} not found: ${unknown.map((code) => `'${echoed(code, 64)}'`).join(', ')}.`);
  const today = dayInTimeZone(Date.now(), await shopTimeZone(ctx.db));
  const errors: Record<string, string[]> = {};
  const checkedOrders: CheckedOrder[] = [];
  const firstOfDay = new Map<string, number>();
  request.orders.forEach((request, position) => {
    const checked = checkedOrder(request, products.get(request.styleCode)!, today);
    if (!isChecked(checked)) {
      for (const [field, problems] of Object.entries(checked)) errors[batchField(position, field)] = problems;
      return;
    }
    const key = `${checked.order.productId}:${checked.order.expectedDate}`;
    const first = firstOfDay.get(key);
    if (first !== undefined) {
      errors[batchField(position, 'expectedDate')] = [`${checked.product.product_code} arriving ${formatDay(checked.order.expectedDate)} is already order ${first + 1} of this list: one line per product and day (add the quantities up).`];
      return;
    }
    firstOfDay.set(key, position);
    checkedOrders.push(checked);
  });
  if (Object.keys(errors).length) throw validationError(Object.entries(errors).map(([field, [problem]]) => `${field.replace(/^orders\.(\d+)\./, 'orders[$1].')}: ${problem}`).join('; '), errors);
  const productIds = [...new Set(checkedOrders.map(({ order }) => order.productId))];
  const written = await inTransaction(ctx.db, async (trx) => {
    await repo.lockDeliveryDays(trx, productIds);
    const deliveries: Omit<RecordedOrder, 'taskId'>[] = [];
    const taken: { checked: CheckedOrder; position: number; status: string | undefined }[] = [];
    for (const [position, checked] of checkedOrders.entries()) {
      const delivery = await writeOrder(trx, checked.order, userId);
      if (delivery) deliveries.push(answeredOrder(checked, delivery));
      else taken.push({ checked, position, status: await repo.deliveryStatusOn(trx, checked.order.productId, checked.order.expectedDate) });
    }
    // Thrown inside the transaction: nothing of the batch is written.
    if (taken.length) throw daysTaken(taken);
    return deliveries;
  });
  return { taskId: await refreshAfterOrders(ctx, productIds, userId), recorded: written.length, deliveries: written };
}

/** Days of a batch that hold a product's delivery received or cancelled: the whole batch refused (409), each such order's day named. */
function daysTaken(taken: { checked: CheckedOrder; position: number; status: string | undefined }[]): AppError {
  const fieldErrors = Object.fromEntries(taken.map(({ checked, position, status }) => [batchField(position, 'expectedDate'), [dayTaken(checked.product, checked.order.expectedDate, status).message]]));
  const codes = taken.map(({ checked }) => checked.product.product_code).join(', ');
  return new AppError('conflict', `Nothing was recorded: the day of the order of ${codes} holds a delivery recorded as received or cancelled. ${Object.values(fieldErrors).map(([problem]) => problem).join(' ')}`, { fieldErrors });
}

/** The day holds the product's delivery received or cancelled: an order is not added to it (409 naming the day). */
function dayTaken(product: OrderedProduct, day: string, status: string | undefined): AppError {
  const problem = `The delivery of ${product.product_code} expected on ${formatDay(day)} is recorded as ${status ?? 'not scheduled'}: choose another day, or change that delivery in Data → deliveries.`;
  return new AppError('conflict', problem, { fieldErrors: { expectedDate: [problem] } });
}
