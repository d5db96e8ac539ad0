// The assistant's answers from the data: the three quick buttons and a deterministic intent engine
// for plain questions. Each answer is structured blocks (text, table, link, action) the web renders.
import type { Kysely } from 'kysely';
import { categoryPathParts, earlyEstimateWords, groupByUnit, shortCategoryNames, isTooLate, LIST_MARKS, salesSpan, productUnit, quantitiesByUnit, roundQuantity, supplierFileName, supplierOrderWords, withFullStop, type UnitQuantity, type AssistantBlock, type QuickAction, DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import { normalQuantile, STOCK_BAND_TAIL } from '@stockwise/forecast';
import type { Database } from '../db/schema.ts';
import { inTransaction } from '../db/transaction.ts';
import * as repo from './repo.ts';
import { inventoryTotals } from '../dashboard/repo.ts';
import { hasOrder, isDueBy, orderAdvice, orderQuantities, shortHistoryProducts, type AdvisedProduct, type OrderAdvice } from '../order-advice/service.ts';
import { arrivalDays } from '../forecasting/service.ts';
import { describePeriod, type DateRange, dueWindowOf, dueWords, formatDay, formatRange, MONTH_NAMES, NO_SALES_PERIOD, NOT_SOLD, orderWindowOf, readBestPeriod, readBreakdown, impossibleDate, readAhead, readComparison, readDaysAhead, readPeriod, readQuietSpan, readSalesAhead, readWindow, sameDaysSoFar, spanTooLong, TOP_SELLERS_PERIOD, WEEKEND, type BestPeriod, type Comparison, type DueWindow, type Period, type PeriodUnit } from '../plain-words/period.ts';
import { readSupplierNames } from '../suppliers/service.ts';
import { askedSupplier, DEAD_STOCK, fullNamePattern, missedPhrase, NAME_HOLDS, nameWordPattern, noProductMatches, OVERSTOCK, OVERSTOCK_DAYS, readCategory, readCoverDays, readNameWord, readPackaging, readRank, readSupplier, unmatchedProductWords, type NamedSupplier, type Rank } from '../plain-words/catalogue.ts';
import { categoryNames, productNames } from '../plain-words/vocabulary.ts';
import { escapeRegExp, looksLikeProductCode, noSuchProduct, Reading, wholeWords } from '../plain-words/reading.ts';
import { dateOrderWords, slashed } from '../plain-words/date-order.ts';
import { orGerman, SALES_VALUE_WORDS, STOCK_VALUE_WORDS, STOCK_WORDS } from '../plain-words/measure.ts';
import { nextRunTime, scheduleCron } from '../integrations/schedule.ts';
import { ARRIVALS, INVENTORY_QUESTION_WORDS, OUT_OF_STOCK } from '../plain-words/inventory-words.ts';
import { everydayAnswer } from './everyday-answers.ts';
import { amountOf, amountsListed, amountsOf, andList, AT_UNIT_COST, breakdownPeriod, capitalised, CATEGORY_COLUMN, categoryScope, closedDaysWords, spokenCategory, dataEndsBefore, dataLink, EVERY_PRODUCT, forecastLink, LAST_12_MONTHS, LAST_30_DAYS, LINKED_PRODUCTS, notStockedWords, number, onHandCell, outOfSeasonWords, productScope, REPORT_ROWS, round2, salesWindow, shopMoney, soldColumn, stockOf, supplierScope, table, text, unitKey, unitLabel, withoutCostWords, type Answer, type Cell, type NameWordScope, type SalesWindow, type Scope } from './answer-parts.ts';
import { DELIVERIES, FRAMING, LOW_STOCK, REORDER, RUNS_OUT, SALES, TOP_SELLERS, VALUE, WITHOUT_SUPPLIER } from './question-words.ts';

type Db = Kysely<Database>;

const TABLE_ROWS = 50;

/** The answer's readable text (what the history shows and what a model reads back). */
export const contentOf = (answer: Answer) => answer.blocks.filter((b): b is Extract<AssistantBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n');

// Quick buttons ------------------------------------------------------------------------------

const noForecastYet: Answer = {
  blocks: [text('There is no whole-catalogue forecast yet, so nothing is advised. Choose "Regenerate whole catalogue" on the Forecasting screen.'), { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' }],
};
const codesNamed = ({ count, codes }: { count: number; codes: string[] }) => `${codes.join(', ')}${count > codes.length ? ` and ${count - codes.length} more` : ''}`;
/**
 * Products that sell but were never counted: no advice can be made for them (ADR 0144), so the answer
 * names them; and apart, those counted after the sales data ends, which need recent sales, not a
 * count (ADR 0193 F9).
 */
const uncounted = ({ unknownStock, inactiveDays }: OrderAdvice) => {
  const { count } = unknownStock;
  const { count: later, salesEnd } = unknownStock.countedAfterSales;
  const never = count
    ? ` ${number.format(count)} ${count === 1 ? 'product' : 'products'} that sold in the last ${inactiveDays} days ${count === 1 ? 'has' : 'have'} no stock count, so no order can be advised for ${count === 1 ? 'it' : 'them'}: ${codesNamed(unknownStock)}.`
    : '';
  const after = later
    ? ` ${number.format(later)} ${later === 1 ? 'product was' : 'products were'} counted after the sales data ends${salesEnd ? ` (${formatDay(salesEnd)})` : ''}, so no order can be advised for ${later === 1 ? 'it' : 'them'} until the sales since are imported: ${codesNamed(unknownStock.countedAfterSales)}.`
    : '';
  return never + after;
};
/** " 2 products have a delivery on its way that arrives after they run out: hurry them …" — the list's rows without an order. */
const deliveriesToHurry = (late: number) =>
  late
    ? ` ${number.format(late)} ${late === 1 ? 'product has a delivery on its way that arrives after it runs out: hurry it' : 'products have a delivery on its way that arrives after they run out: hurry them'} (a new order could not come sooner).`
    : '';
/**
 * An answer narrowed to one supplier says it after "from" or "for": its name ("from Acme Wholesale"),
 * or "for the products without a supplier" (null).
 */
const ofSupplier = (supplier: string | null, preposition: 'from' | 'for') => (supplier === null ? 'for the products without a supplier' : `${preposition} ${supplier}`);
/**
 * What an order list was narrowed to, in words after its name: " of products whose name holds
 * "merino jumper" (3 products: …)" (`within`, ADR 0189, amendment 2026-12-06 (5)), " from Acme";
 * "" for the whole list.
 */
const narrowedTo = (supplier: string | null | undefined, preposition: 'from' | 'for', within?: NameWordScope) => `${within?.words ?? ''}${supplier === undefined ? '' : ` ${ofSupplier(supplier, preposition)}`}`;
const nothingToOrder = (advice: OrderAdvice, supplier?: string | null, within?: NameWordScope) =>
  text(
    `${narrowedTo(supplier, 'from', within) ? `${withFullStop(`Nothing to order${narrowedTo(supplier, 'from', within)}`)} ` : ''}${advice.deliveriesLate
      ? `No product needs a new order.${deliveriesToHurry(advice.deliveriesLate)}${uncounted(advice)}${notBoughtWords(advice, 'on the order list')}`
      : `No product needs an order: the forecast expects every product with demand in the last ${advice.inactiveDays} days to last until an order placed in time arrives.${uncounted(advice)}${notBoughtWords(advice, 'on the order list')}`}`,
  );
/** " 3 products made here are not on the order list: nothing is bought for them." (ADR 0194); `where`: "on the order list". */
const madeHereWords = (count: number, where: string) => (count ? ` ${number.format(count)} ${count === 1 ? 'product made here is' : 'products made here are'} not ${where}: nothing is bought for ${count === 1 ? 'it' : 'them'}.` : '');
/** "1 product", "12 products". */
const productsWords = (count: number) => `${number.format(count)} ${count === 1 ? 'product' : 'products'}`;
/** What an order list leaves out as not bought (made here, not stocked), in words. */
const notBoughtWords = (advice: Pick<OrderAdvice, 'madeHere' | 'notStocked'>, where: string) => `${madeHereWords(advice.madeHere, where)}${notStockedWords(advice.notStocked, where)}`;
const leftOut = (advice: OrderAdvice) =>
  `${advice.inactive ? ` ${number.format(advice.inactive)} ${advice.inactive === 1 ? 'product' : 'products'} without demand in the last ${advice.inactiveDays} days ${advice.inactive === 1 ? 'is' : 'are'} left out.` : ''}${notBoughtWords(advice, 'on the order list')}`;
/** The button under an answer's orders: it carries them, so a click creates what was shown (not the list a forecast run made since). */
const createOrdersAction = (orders: OrderAdvice['products']): AssistantBlock => ({
  type: 'action',
  label: 'Create these orders as scheduled deliveries',
  action: 'create_recommended_orders',
  payload: { orders: orders.map((p) => ({ styleCode: p.styleCode, quantity: p.orderQuantity })) },
});

/** When an advised order must be placed: its order-by date, else its stockout less the lead time. */

/** Whether a day falls in the window (by its last day; from its first when it starts later). */
const inWindow = (due: DueWindow, day: string) => day <= due.by && (!due.starts || day >= due.starts);
/** When the days before a later window fall, as a buyer reads them: "on 5 Dec 2026", "in December", "from 28 Nov 2026 to 20 Dec 2026". */
function whenBefore(days: string[], today: string): string {
  const [first, last] = [days[0] as string, days.at(-1) as string];
  if (first === last) return `on ${formatDay(first)}`;
  if (first.slice(0, 7) !== last.slice(0, 7)) return `from ${formatDay(first)} to ${formatDay(last)}`;
  const month = MONTH_NAMES[Number(first.slice(5, 7)) - 1] as string;
  return `in ${month}${first.slice(0, 4) === today.slice(0, 4) ? '' : ` ${first.slice(0, 4)}`}`;
}
/**
 * Said when a window ahead ends after the stored forecasts do: a stockout or order after their last
 * day is not forecast yet, so the count (which reaches only to that day) is not the window's whole.
 */
async function pastForecastEnd(db: Db, due: DueWindow | null, unknown: string): Promise<string> {
  if (!due) return '';
  const last = await repo.forecastLastDay(db);
  return last && last < due.by ? ` The forecasts reach to ${formatDay(last)}: ${unknown} after that is not known yet.` : '';
}
/**
 * The advice (most urgent first), cut to the orders due by the window's last day — overdue ones and
 * those before a later start too (`orderWindowOf`: what the dashboard's task and the report writer
 * count); the first `rows` listed; `beyond`: what the window holds past the forecasts. Of one
 * `supplier`'s products when given (null: those without one), by the order list's own filter (ADR 0184).
 */
async function advisedOrders(db: Db, rows: number, window: DueWindow | null, supplier: string | null | undefined, within?: NameWordScope) {
  const due = window && orderWindowOf(window);
  const [whole, beyond, money] = await Promise.all([orderAdvice(db, supplier === undefined ? {} : { supplier }), pastForecastEnd(db, due, 'an order due'), shopMoney(db)]);
  if (!whole) return null;
  const advice = within ? adviceWithin(whole, within) : whole;
  // The list's rows with an order to place: a delivery to hurry has no order-by date and nothing to order.
  const orders = advice.products.filter(hasOrder);
  const kept = due ? orders.filter((p) => isDueBy(p.orderBy, due.by)) : orders;
  return { advice, beyond, due, orders, kept, money, listed: kept.slice(0, rows), total: kept.length, quantities: orderQuantities(kept), cost: round2(kept.reduce((sum, p) => sum + p.orderQuantity * p.unitCost, 0)) };
}
/**
 * The order list of the products a question names by a word of their names or a category (ADR 0189,
 * amendment 2026-12-06 (5)): their rows only. What the whole list leaves out (inactive products,
 * products made here or not stocked, products never counted) is counted over every product, so it is not said.
 */
function adviceWithin(advice: OrderAdvice, within: NameWordScope): OrderAdvice {
  const ids = new Set(within.productIds);
  const products = advice.products.filter((p) => ids.has(p.productId));
  return { ...advice, products, total: products.length, deliveriesLate: products.filter((p) => !hasOrder(p)).length, inactive: 0, madeHere: 0, notStocked: 0, unknownStock: { count: 0, codes: [], countedAfterSales: { count: 0, codes: [], salesEnd: null } } };
}
type AdvisedOrders = NonNullable<Awaited<ReturnType<typeof advisedOrders>>>;
const nothingDue = ({ orders, beyond }: AdvisedOrders, due: DueWindow, supplier: string | null | undefined, within?: NameWordScope): Answer => {
  const later = orders.length;
  return { blocks: [text(`No advised order${narrowedTo(supplier, 'from', within)} is due ${dueWords(due)}${later ? `; ${number.format(later)} ${later === 1 ? 'is' : 'are'} due later` : ''}.${beyond}`), { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' }] };
};

/**
 * A listed product's marks as the Forecasting screen's lists show them (ADR 0072, amendment
 * 2026-12-04 "hurry it"): an order on under four weeks of sales, an order too late to arrive before
 * the stockout, a delivery on its way that arrives after it. Null without any.
 */
function noteOf(product: AdvisedProduct, shortHistory: ReadonlySet<number>): string | null {
  const marks = [
    shortHistory.has(product.productId) ? LIST_MARKS.checkBeforeOrdering : null,
    isTooLate(product) ? LIST_MARKS.tooLate : null,
    product.onOrderArrives ? LIST_MARKS.onOrderLate(product.onOrderArrives) : null,
  ].filter((mark) => mark !== null);
  return marks.length ? marks.join('; ') : null;
}
/** The rows' products whose order rests on under four weeks of sales (read for the rows shown). */
const shortHistoryOf = (db: Db, rows: readonly AdvisedProduct[]) => shortHistoryProducts(db, rows.map((p) => p.productId));

/**
 * The list's marks of the products among `codes` that are on it (inactive ones too: a product
 * running out is named whatever it sold), by code: what a runs-out answer says beside its dates.
 */
async function listNotes(db: Db, codes: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(codes);
  const listed = (await orderAdvice(db, { includeInactive: true }))?.products.filter((p) => wanted.has(p.styleCode)) ?? [];
  const shortHistory = await shortHistoryOf(db, listed);
  return new Map(listed.flatMap((p) => {
    const note = noteOf(p, shortHistory);
    return note ? [[p.styleCode, note] as const] : [];
  }));
}

/**
 * A row's order, its unit (blank for pieces, as the downloads have it), what the supplier's terms made
 * of it in the screen's words ("2 cases of 24; 40 needed", ADR 0183 amendment 2026-12-06 (3); blank
 * where they changed nothing) and its cost; a delivery to hurry orders nothing, so quantity, terms and
 * cost are blank beside its note (as the downloads have them), not 0.
 */
const orderCells = (r: Pick<AdvisedProduct, 'orderQuantity' | 'unit' | 'unitCost' | 'onOrderArrives' | 'orderMultiple' | 'minOrderQuantity' | 'orderQuantityNeeded'>): { quantity: Cell; unit: Cell; terms: Cell; cost: Cell } =>
  r.onOrderArrives
    ? { quantity: null, unit: r.unit, terms: null, cost: null }
    : { quantity: r.orderQuantity, unit: r.unit, terms: supplierOrderWords(r, r.unit), cost: round2(r.orderQuantity * r.unitCost) };
/**
 * The order tables' order-by column: its cells keep the advice's day (the CSV's typed day), and the web
 * app shows one on or before today as "Now", as the Forecasting screen's lists do — a shop closed at
 * weekends reads Saturday's advice on Monday as an order to place now, not as two days late (ADR 0198 F12).
 */
const ORDER_BY_COLUMN: [string, string, 'order_by'] = ['orderBy', 'Order by', 'order_by'];
/** The order tables' column of `orderCells`' terms, after the unit. */
const TERMS_COLUMN: [string, string] = ['terms', "Supplier's terms"];
/**
 * An order table's supplier column, after the name, when its rows are of more than one supplier (ADR
 * 0184, amendment 2026-12-06): a list of one supplier's names it in its first line instead.
 */
const supplierColumn = (rows: readonly AdvisedProduct[]): { columns: [string, string][]; cells: (row: AdvisedProduct) => Record<string, Cell> } =>
  new Set(rows.map((row) => row.supplier ?? null)).size > 1 ? { columns: [['supplier', 'Supplier']], cells: (row) => ({ supplier: row.supplier ?? null }) } : { columns: [], cells: () => ({}) };

/**
 * Low stock: the Forecasting screen's list, most urgent first — the products that need an order (the
 * forecast's advice) and, without a window, those whose delivery on its way comes too late (hurry it).
 */
async function lowStock(db: Db, window: DueWindow | null = null, supplier?: string | null, within?: NameWordScope): Promise<Answer> {
  const found = await advisedOrders(db, TABLE_ROWS, window, supplier, within);
  if (!found) return noForecastYet;
  const { advice, beyond, due, total, money } = found;
  if (!advice.total) return { blocks: [nothingToOrder(advice, supplier, within)] };
  if (found.due && !total) return nothingDue(found, found.due, supplier, within);
  const narrowed = narrowedTo(supplier, 'from', within);
  // A window reads order-by dates, which a delivery to hurry has none of: it is the whole list's.
  const late = due ? 0 : advice.deliveriesLate;
  const rows = (due ? found.kept : advice.products).slice(0, TABLE_ROWS);
  const shortHistory = await shortHistoryOf(db, rows);
  const suppliers = supplierColumn(rows);
  return {
    blocks: [
      text(
        `${narrowed ? `Low stock${narrowed}: ` : ''}${!total ? 'No product needs a new order.' : `${due ? `${number.format(total)} of the ${number.format(found.orders.length)} products that need an order must be ordered ${dueWords(due)}` : `${number.format(total)} ${total === 1 ? 'product needs' : 'products need'} an order`}, most urgent first: ${amountsOf(found.quantities)}, ${money.format(found.cost)} in all.`}${deliveriesToHurry(late)}${total + late > rows.length ? ` The ${rows.length} most urgent are listed.` : ''}${beyond}${leftOut(advice)}${uncounted(advice)}`,
      ),
      table(
        [['styleCode', 'Product code'], ['name', 'Name'], ...suppliers.columns, ['onHand', 'On hand now'], ['stockout', 'Runs out'], ORDER_BY_COLUMN, ['quantity', 'Order'], ['unit', 'Unit'], TERMS_COLUMN, ['cost', 'Cost', 'money'], ['note', 'Note']],
        rows.map((r) => ({ styleCode: r.styleCode, name: r.name, ...suppliers.cells(r), onHand: onHandCell(r.onHand?.units), stockout: r.firstStockout, orderBy: r.orderBy, ...orderCells(r), note: noteOf(r, shortHistory) })),
      ),
      { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
      createOrdersAction(found.kept),
    ],
  };
}

/**
 * The advised orders with their totals and a CSV, named for the supplier when narrowed to one as the
 * Forecasting screen's download is ("reorder-report-acme-wholesale.csv"; "…-no-supplier"), so a
 * buyer's files per supplier do not overwrite each other.
 */
async function reorderReport(db: Db, window: DueWindow | null = null, supplier?: string | null, within?: NameWordScope): Promise<Answer> {
  const found = await advisedOrders(db, REPORT_ROWS, window, supplier, within);
  if (!found) return noForecastYet;
  const { advice, beyond, due, listed: rows, total, money } = found;
  if (!found.orders.length) return { blocks: [nothingToOrder(advice, supplier, within)] };
  if (found.due && !total) return nothingDue(found, found.due, supplier, within);
  const shortHistory = await shortHistoryOf(db, rows);
  const suppliers = supplierColumn(rows);
  return {
    blocks: [
      text(
        `Reorder report${narrowedTo(supplier, 'for', within)}: ${due ? `${number.format(total)} of ${number.format(found.orders.length)} advised orders due ${dueWords(due)}` : `${number.format(total)} advised ${total === 1 ? 'order' : 'orders'}`}, ${amountsOf(found.quantities)}, ${money.format(found.cost)} in all.${total > rows.length ? ` The ${rows.length} most urgent are listed.` : ''}${due ? '' : deliveriesToHurry(advice.deliveriesLate)}${beyond}${leftOut(advice)}`,
      ),
      table(
        [['styleCode', 'Product code'], ['name', 'Name'], ...suppliers.columns, ['onHand', 'On hand now'], ORDER_BY_COLUMN, ['quantity', 'Quantity'], ['unit', 'Unit'], TERMS_COLUMN, ['cost', 'Cost', 'money'], ['note', 'Note']],
        rows.map((r) => ({ styleCode: r.styleCode, name: r.name, ...suppliers.cells(r), onHand: onHandCell(r.onHand?.units), orderBy: r.orderBy, ...orderCells(r), note: noteOf(r, shortHistory) })),
        { styleCode: 'Total', name: null, ...(suppliers.columns.length ? { supplier: null } : {}), onHand: null, orderBy: null, ...totalCells('quantity', found.quantities), terms: null, cost: found.cost, note: null },
        `${supplierFileName('reorder-report', supplier)}.csv`,
      ),
      createOrdersAction(found.kept),
    ],
  };
}

/** A moment as the integration's schedule reads it, in its own time zone: "3 Dec 2026, 00:00 (Europe/Berlin)". */
function momentIn(moment: Date, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(moment).map((part) => [part.type, part.value]));
  return `${formatDay(`${parts.year}-${parts.month}-${parts.day}`)}, ${parts.hour}:${parts.minute} (${timeZone})`;
}

/** An integration as a shop names it: what it brings in and from where ("sales from shop.example.com"). */
function integrationName(run: { target_entity: string; endpoint: string }): string {
  const host = URL.canParse(run.endpoint) ? new URL(run.endpoint).host : run.endpoint;
  return `${run.target_entity.replaceAll('_', ' ')} from ${host}`;
}

/** A finished run's counts in words: "120 rows written, 3 rejected, 2 lines without a product code skipped, 5 lines left out by the mapping's row filters, 2 products created for unknown codes" (the last three when there are any). */
function runCounts(run: { written: number | null; rejected: number | null; filtered: number | null; skipped: number | null; created: number | null }): string {
  const skipped = run.skipped ? `, ${number.format(run.skipped)} ${run.skipped === 1 ? 'line' : 'lines'} without a product code skipped` : '';
  const filtered = run.filtered ? `, ${number.format(run.filtered)} ${run.filtered === 1 ? 'line' : 'lines'} left out by the mapping's row filters` : '';
  const created = run.created ? `, ${number.format(run.created)} ${run.created === 1 ? 'product' : 'products'} created for unknown codes` : '';
  return `${number.format(run.written ?? 0)} ${run.written === 1 ? 'row' : 'rows'} written, ${number.format(run.rejected ?? 0)} rejected${skipped}${filtered}${created}`;
}

/** The latest run of each scheduled integration: when, how it went, rows written, refused and left out (blank codes, row filters), products created, and when the next one is. */
async function integrationRuns(db: Db, now: Date): Promise<Answer> {
  const runs = await repo.integrationRuns(db);
  const settings: AssistantBlock = { type: 'link', label: 'Open Settings → Scheduled integrations (their logs)', href: '/app/settings' };
  if (!runs.length) return { blocks: [text('No scheduled integrations are set up: imports so far were files uploaded by hand.'), settings] };
  const rows = runs.map((run) => {
    const next = run.enabled ? nextRunTime(scheduleCron(run.schedule_frequency, run.cron_expression), now, run.time_zone) : null;
    const status = run.status === null ? 'never run' : run.status === 'success' ? 'succeeded' : run.status;
    return { run, next, status, last: run.started_at ? momentIn(run.started_at, run.time_zone) : null, nextWords: next ? momentIn(next, run.time_zone) : run.enabled ? null : 'paused' };
  });
  const sentence = ({ run, status, last, nextWords }: (typeof rows)[number]) =>
    last
      ? `${integrationName(run)}: the last run, ${last}, ${status}${run.status === 'running' ? '' : ` — ${runCounts(run)}`}${run.status === 'failed' && run.error_message ? ` (${run.error_message})` : ''}; ${nextWords === 'paused' ? 'it is paused' : `next run ${nextWords ?? 'not scheduled'}`}.`
      : `${integrationName(run)}: it has not run yet; ${nextWords === 'paused' ? 'it is paused' : `first run ${nextWords ?? 'not scheduled'}`}.`;
  return {
    blocks: [
      text(rows.map(sentence).join(' ')),
      table(
        [['integration', 'Integration'], ['lastRun', 'Last run'], ['status', 'Status'], ['written', 'Rows written'], ['rejected', 'Rejected'], ['skipped', 'Skipped (no product code)'], ['filtered', 'Left out'], ['created', 'Products created'], ['nextRun', 'Next run']],
        rows.map(({ run, status, last, nextWords }) => ({ integration: integrationName(run), lastRun: last, status, written: run.written, rejected: run.rejected, skipped: run.skipped, filtered: run.filtered, created: run.created, nextRun: nextWords })),
      ),
      settings,
    ],
  };
}

/** Scheduled deliveries: the late ones, and those to come — with a window, those expected in it (from today when it starts today). */
async function deliveries(db: Db, today: string, due: DueWindow | null = null): Promise<Answer> {
  const rows = await repo.scheduledDeliveries(db, REPORT_ROWS, due && { today, from: due.starts ?? today, to: due.by });
  const when = due ? ` ${dueWords(due)}` : '';
  if (!rows.length) return { blocks: [text(due ? `No deliveries are expected${when}, and none are late.` : 'No deliveries are scheduled.'), dataLink('deliveries', 'Open the deliveries table')] };
  const late = rows.filter((r) => r.expected_date < today);
  const upcoming = rows.filter((r) => r.expected_date >= today);
  const columns: [string, string][] = [['styleCode', 'Product code'], ['name', 'Name'], ['expectedDate', 'Expected'], ['quantity', 'Quantity']];
  const asRow = (r: (typeof rows)[number]) => ({ styleCode: r.product_code, name: r.name, expectedDate: r.expected_date, quantity: r.quantity });
  const coming = due ? `${number.format(upcoming.length)} ${upcoming.length === 1 ? 'delivery is' : 'deliveries are'} expected${when}` : `${number.format(upcoming.length)} upcoming ${upcoming.length === 1 ? 'delivery' : 'deliveries'}`;
  const blocks: AssistantBlock[] = [text(`${coming}; ${number.format(late.length)} late (expected before ${formatDay(today)} and not received).`)];
  if (late.length) blocks.push(text('Late:'), table(columns, late.slice(0, TABLE_ROWS).map(asRow)));
  if (upcoming.length) blocks.push(text('Upcoming:'), table(columns, upcoming.slice(0, TABLE_ROWS).map(asRow)));
  blocks.push(dataLink('deliveries', 'Open the deliveries table'));
  return { blocks };
}

export function answerQuick(db: Db, quick: QuickAction, today: string): Promise<Answer> {
  if (quick === 'low_stock') return lowStock(db);
  if (quick === 'reorder_report') return reorderReport(db);
  return deliveries(db, today);
}

// Plain questions ----------------------------------------------------------------------------

/** The products whose name holds a word of the catalogue's names ("Mug"), of a category when one is given, said with how many and the first codes. */
export async function nameWordScope(db: Db, word: string | null, category: string | null = null): Promise<NameWordScope> {
  const found = await repo.productsWithNameWord(db, word, category);
  // A path is named short among the catalogue's categories, read only then.
  const catalogue = [category, ...found.map((p) => p.category)].some((c) => c && categoryPathParts(c).length > 1) ? await categoryNames(db) : [];
  const spoken = category === null ? null : spokenCategory(category, catalogue);
  const codes = `${found.slice(0, NAMED_CODES).map((p) => p.product_code).join(', ')}${found.length > NAMED_CODES ? ` and ${found.length - NAMED_CODES} more` : ''}`;
  // A word of names across the catalogue says the categories it found them in (ADR 0189, amendment 2026-12-06).
  const where = category === null ? categoriesOf(found, catalogue) : '';
  const counted = (said: string) => `(${found.length} ${found.length === 1 ? 'product' : 'products'}${said}: ${codes})`;
  const holds = `whose name holds "${word}"`;
  const words = spoken === null ? ` of products ${holds} ${counted(where)}` : word === null ? ` in the ${spoken} category ${counted('')}` : ` of products in the ${spoken} category ${holds} ${counted('')}`;
  const heading = spoken === null ? `products' names hold "${word}"${where ? ` (${where.trim()})` : ''}` : word === null ? `products are in the ${spoken} category` : `products in the ${spoken} category have a name holding "${word}"`;
  // Broken down by category, the rows name the categories: the words do not name them too.
  const wordsBesideCategories = category === null ? ` of products ${holds} ${counted('')}` : words;
  return { category, productIds: found.map((p) => p.id), words, wordsBesideCategories, word, products: found, heading };
}
/** How many categories an answer names of the products a word of their names selected; more are counted. */
const NAMED_CATEGORIES = 3;
/**
 * The categories of the products a word of their names selected, in words: " in the Potgrond
 * category", " in the Potgrond and Tuinartikelen categories" (" or none" when some have none), " in
 * 5 categories"; "" when none of them has one — so "compost" counted across a category named otherwise
 * says where it found them.
 */
function categoriesOf(found: readonly { category: string | null }[], catalogue: readonly string[]): string {
  const named = [...new Set(found.map((p) => p.category?.trim() || null))];
  const shortNames = shortCategoryNames(catalogue);
  const categories = named
    .filter((c): c is string => c !== null)
    .map((c) => shortNames.get(c) ?? c)
    .sort((a, b) => a.localeCompare(b));
  if (!categories.length) return '';
  const none = named.includes(null) ? ' or none' : '';
  if (categories.length > NAMED_CATEGORIES) return ` in ${number.format(categories.length)} categories${none}`;
  const listed = categories.length === 1 ? `the ${categories[0]} category` : `the ${categories.slice(0, -1).join(', ')} and ${categories.at(-1)} categories`;
  return ` in ${listed}${none}`;
}
/** How many of the products a word of their names selected a stock or stock-out answer lists, one by one. */
const NAME_WORD_LINES = 10;
/**
 * A stock or stock-out answer for the products a word of their names selected: each of them, the
 * first few by code when many hold it, said first so one can be asked for by its code or full name.
 */
export async function forNameWord(scope: NameWordScope, answer: (listed: repo.ProductRow[], all: repo.ProductRow[]) => Promise<Answer>): Promise<Answer> {
  const listed = scope.products.slice(0, NAME_WORD_LINES);
  const answered = await answer(listed, scope.products);
  const count = scope.products.length;
  if (count === 1) return answered;
  const more = count > listed.length ? `; the first ${listed.length} by code are listed — name one by its code or full name to ask for it alone` : '';
  // One text with the lines, so notes under an answer's first text do not part them from it.
  const header = `${number.format(count)} ${scope.heading}${more}:`;
  const [lines, ...rest] = answered.blocks;
  return { blocks: lines?.type === 'text' ? [text(`${header}\n${lines.text}`), ...rest] : [text(header), ...answered.blocks] };
}
/** How many codes an answer names of the products a word of their names selected. */
const NAMED_CODES = 3;

/**
 * Products ranked by units sold, in words: ": Mug (12 units), Jar (10 units)"; of several units each
 * ranked apart, as repo.topSellers ranks them — "; in units: Mug (12 units); in kg: Cheddar (12.5 kg)"
 * (ADR 0177, amendment 2026-12-06 (4)): a kilo and a mug are not one ranking.
 */
function rankedPerUnit(rows: readonly { name: string; units: number; unit: string | null }[]): string {
  const listed = (group: readonly { name: string; units: number; unit: string | null }[]) => group.map((r) => `${r.name} (${amountOf(r.units, r.unit)})`).join(', ');
  const groups = groupByUnit(rows, (r) => r.unit);
  if (groups.length < 2) return `: ${listed(rows)}`;
  return `, each unit ranked on its own: ${groups.map((group) => `in ${group.unit ?? 'units'}: ${listed(group.items)}`).join('; ')}`;
}

/**
 * A table's Total row of quantities, under the table's key for them (`quantity`, `onHand`) and its
 * `unit` column: the figure and its unit when every row is in one unit, else each unit's total in words.
 */
const totalCells = (key: string, totals: readonly UnitQuantity[]): Record<string, Cell> =>
  totals.length > 1 ? { [key]: amountsOf(totals), unit: null } : { [key]: totals[0]?.quantity ?? 0, unit: totals[0]?.unit ?? null };

/** The verb after `amountsListed`: "1 unit was sold", "12 units were sold". */
const wasOrWere = (totals: readonly UnitQuantity[]) => (totals.length === 1 && totals[0]?.quantity === 1 ? 'was' : 'were');

/** A period's row of quantities sold: `sold[i]` is of `units[i]`. */
const soldCells = (units: readonly UnitQuantity[], sold: readonly number[]): Record<string, Cell> => Object.fromEntries(units.map((total, i) => [unitKey('units', total.unit), sold[i] ?? 0]));

/** Names in a sentence, the first `max` of them: "Acme, Brakes Bros and 3 more". */
export const listedNames = (names: readonly string[], max: number) => `${names.slice(0, max).join(', ')}${names.length > max ? ` and ${names.length - max} more` : ''}`;
/** How many suppliers an answer names when the one asked for is none of them. */
export const LISTED_SUPPLIERS = 20;
/** The suppliers the products name, each by its one spelling (ADR 0186), as a buyer reads them. */
export const supplierNames = async (db: Db): Promise<string[]> => (await readSupplierNames(db)).list().map((known) => known.supplier);
const NO_SUPPLIERS = "No product has a supplier yet: set each product's Supplier on the Data screen, or import the products again with a Supplier column.";
/** Said instead of a list narrowed to a supplier no product names: the suppliers there are, so the buyer can ask again. */
async function unknownSupplier(db: Db, asked: string): Promise<Answer> {
  const known = await supplierNames(db);
  const listed = known.length ? `No product is bought from a supplier named "${asked}". The suppliers are ${listedNames(known, LISTED_SUPPLIERS)}: ask, for example, "what should I order from ${known[0]}?".` : `No product is bought from "${asked}". ${NO_SUPPLIERS}`;
  return { blocks: [text(listed), dataLink('products', 'Open the products table')] };
}

/** The data functions, shared by the intent engine and the model's tool calls. */
export const dataFunctions = {
  /** Each product's stock, the first `listed` of them line by line, and "Together" of them all. */
  stockOf,
  async salesOf(db: Db, products: repo.ProductRow[], window: SalesWindow): Promise<Answer> {
    const sold = await Promise.all(products.map(async (p) => ({ product: p, ...(await repo.unitsSold(db, p.id, window.from, window.to)) })));
    const lines = sold.map(({ product: p, units, returned, firstSale }) => {
      const history = firstSale === null ? ' It has no sales recorded.' : firstSale > window.from && firstSale <= window.to ? ` Its sales start on ${formatDay(firstSale)}.` : '';
      return `${p.name} (${p.product_code}) ${soldWords(units, returned, p.unit)} ${window.words}.${history}`;
    });
    const blocks: AssistantBlock[] = [text(`${lines.join('\n')}${await dataEndsBefore(db, window)}${await closedDaysWords(db, window)}`)];
    if (sold.length > 1) {
      const total = totalCells('units', quantitiesByUnit(sold.map(({ product: p, units }) => ({ unit: p.unit, quantity: units }))));
      blocks.push(table([['styleCode', 'Product code'], ['name', 'Name'], ['units', 'Sold'], ['unit', 'Unit']], sold.map(({ product: p, units }) => ({ styleCode: p.product_code, name: p.name, units, unit: productUnit(p.unit) })), { styleCode: 'Total', name: null, ...total }));
    }
    return { blocks: [...blocks, ...products.slice(0, LINKED_PRODUCTS).map((p) => forecastLink(p.product_code, p.name))] };
  },
  /** What named products are forecast to sell over days still to come: the stored forecasts' demand summed over them; null when no forecast reaches them. */
  async forecastOf(db: Db, products: repo.ProductRow[], ahead: DateRange & { words: string }): Promise<Answer | null> {
    const forecasts = await repo.forecastDemand(db, products.map((p) => p.id), ahead.from, ahead.to);
    if (!forecasts.size) return null;
    const lines = products.map((p) => {
      const forecast = forecasts.get(p.id);
      if (!forecast) return `${p.name} (${p.product_code}) has no forecast for ${ahead.words}: make one on the Forecasting screen.`;
      const part = forecast.first > ahead.from || forecast.last < ahead.to ? `; its forecast reaches only ${formatRange({ from: forecast.first, to: forecast.last })} of it` : '';
      return `${p.name} (${p.product_code}) is forecast to sell about ${amountOf(Math.round(forecast.units * 10) / 10, p.unit)} over ${ahead.words}${likelyRange(forecast.units, forecast.spread95)}${part}.`;
    });
    return { blocks: [text(lines.join('\n')), ...products.slice(0, LINKED_PRODUCTS).map((p) => forecastLink(p.product_code, p.name))] };
  },
  /** Units sold in the period; `value`: their value at unit cost first, which is what revenue is counted as (`repo.totalUnitsSold`). */
  async totalSales(db: Db, window: SalesWindow, scope: Scope = EVERY_PRODUCT, measure: repo.SalesMeasure = 'units'): Promise<Answer> {
    const [{ byUnit, products, value }, money] = await Promise.all([repo.totalUnitsSold(db, window.from, window.to, scope), shopMoney(db)]);
    const by = `by ${number.format(products)} ${products === 1 ? 'product' : 'products'}`;
    // One total per unit (ADR 0177, amendment 2026-12-06 (2)): "12 units and 3.5 kg were sold".
    const sold = !byUnit.length
      ? `No units were sold${scope.words} ${window.words}.`
      : measure === 'value'
        ? `Sales${scope.words} ${window.words} are worth ${money.format(value)} ${AT_UNIT_COST}: ${amountsListed(byUnit)}, ${by}.`
        : `${amountsListed(byUnit)} ${wasOrWere(byUnit)} sold${scope.words} ${window.words}, ${by}.`;
    return { blocks: [text(`${sold}${await dataEndsBefore(db, window)}${await closedDaysWords(db, window)}`), dataLink('sales', 'Open the sales table')] };
  },
  /**
   * Products ranked by units sold, or by `value` (revenue counted at unit cost); the headline says
   * which. By units, products of different units are ranked apart, each unit said on its own.
   */
  async topSellers(db: Db, window: SalesWindow, rank: Rank = TOP_SELLERS_RANK, scope: Scope = EVERY_PRODUCT, measure: repo.SalesMeasure = 'units'): Promise<Answer> {
    const [rows, money] = await Promise.all([repo.topSellers(db, window.from, window.to, rank, scope, measure), shopMoney(db)]);
    if (!rows.length) return { blocks: [text(`Nothing sold${scope.words} ${window.words}.${await dataEndsBefore(db, window)}`), dataLink('sales', 'Open the sales table')] };
    const first = rows[0] as (typeof rows)[number];
    return {
      blocks: [
        text(
          measure === 'value'
            ? `${rank.direction === 'asc' ? 'Worst' : 'Top'} sellers${scope.words} ${window.words} by sales value ${AT_UNIT_COST}: ${rows.map((r) => `${r.name} (${money.format(r.value)}; ${amountOf(r.units, r.unit)})`).join(', ')}.`
            : `${rank.direction === 'asc' ? 'Worst' : 'Top'} sellers${scope.words} ${window.words} by units sold${rankedPerUnit(rows)}.`,
        ),
        measure === 'value'
          ? table([['styleCode', 'Product code'], ['name', 'Name'], ['value', 'Sales value (at unit cost)', 'money'], ['units', 'Units sold'], ['unit', 'Unit']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, value: r.value, units: r.units, unit: productUnit(r.unit) })))
          : table([['styleCode', 'Product code'], ['name', 'Name'], ['units', 'Units sold'], ['unit', 'Unit']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, units: r.units, unit: productUnit(r.unit) }))),
        forecastLink(first.product_code, first.name),
      ],
    };
  },
  lowStock,
  reorderReport,
  deliveries,
  integrationRuns,
  /** "Which suppliers do we use?": each supplier with how many products it supplies and how many of them the order list says to order (ADR 0184, amendment 2026-12-06). */
  async suppliers(db: Db): Promise<Answer> {
    // One row per supplier, its spellings ("ACME", "Acme") counted together (ADR 0186).
    const [names, advice] = await Promise.all([readSupplierNames(db), orderAdvice(db)]);
    const named = names.list();
    if (!named.length) return { blocks: [text(NO_SUPPLIERS), dataLink('products', 'Open the products table')] };
    const ordering = new Map<string | null, number>();
    for (const p of advice?.products.filter(hasOrder) ?? []) ordering.set(p.supplier ?? null, (ordering.get(p.supplier ?? null) ?? 0) + 1);
    const supplied = named.reduce((sum, row) => sum + row.products, 0);
    const none = names.withoutSupplier;
    const counts = [...named, ...(none ? [{ supplier: null, products: none }] : [])];
    const toOrder = [...ordering.values()].reduce((sum, count) => sum + count, 0);
    const orders = advice ? ` ${number.format(toOrder)} ${toOrder === 1 ? 'product needs' : 'products need'} an order.` : ' There is no whole-catalogue forecast yet, so no order is advised.';
    return {
      blocks: [
        text(`${number.format(named.length)} ${named.length === 1 ? 'supplier supplies' : 'suppliers supply'} ${number.format(supplied)} ${supplied === 1 ? 'product' : 'products'}${none ? `; ${number.format(none)} ${none === 1 ? 'product has' : 'products have'} no supplier` : ''}.${orders}`),
        table(
          [['supplier', 'Supplier'], ['products', 'Products'], ['toOrder', 'Need an order']],
          counts.slice(0, REPORT_ROWS).map((row) => ({ supplier: row.supplier ?? 'No supplier', products: row.products, toOrder: advice ? (ordering.get(row.supplier) ?? 0) : null })),
        ),
        { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
      ],
    };
  },
  /**
   * "Which products have no supplier?" (ADR 0184, amendment 2026-12-06 (2)): those products by code,
   * the first 50 listed and how many there are said; that every product has one; or, where no
   * product has any, how suppliers are recorded. Suppliers are counted one per spelling group (ADR 0186).
   */
  async productsWithoutSupplier(db: Db): Promise<Answer> {
    const names = await readSupplierNames(db);
    const suppliers = names.list();
    const none = names.withoutSupplier;
    const products = suppliers.reduce((sum, row) => sum + row.products, 0) + none;
    const openProducts = dataLink('products', 'Open the products table');
    if (!products) return { blocks: [text('There are no products yet: import a products file on the Data screen.'), openProducts] };
    if (none === products) return { blocks: [text(NO_SUPPLIERS), openProducts] };
    if (!none) {
      return { blocks: [text(`Every product has a supplier: ${number.format(products)} ${products === 1 ? 'product' : 'products'} from ${number.format(suppliers.length)} ${suppliers.length === 1 ? 'supplier' : 'suppliers'}.`), openProducts] };
    }
    const rows = await repo.productsWithoutSupplier(db, names.holds(null), TABLE_ROWS);
    const listed = none > rows.length ? `; the first ${rows.length} by code are listed` : '';
    return {
      blocks: [
        text(`${number.format(none)} of the ${number.format(products)} products ${none === 1 ? 'has' : 'have'} no supplier${listed}. Set each one's Supplier on the Data screen, or import the products again with a Supplier column.`),
        table([['styleCode', 'Product code'], ['name', 'Name'], CATEGORY_COLUMN], rows.map((row) => ({ styleCode: row.product_code, name: row.name, category: row.category }))),
        openProducts,
      ],
    };
  },
  /** "Who supplies HEA-1001?": each product's supplier (by its one spelling, ADR 0186), or that it has none. */
  async supplierOf(db: Db, products: repo.ProductRow[]): Promise<Answer> {
    const names = await readSupplierNames(db);
    const lines = products.map((p) => {
      const supplier = names.nameOf(p.supplier);
      return supplier ? withFullStop(`${p.name} (${p.product_code}) is supplied by ${supplier}`) : `${p.name} (${p.product_code}) has no supplier: set one in its Supplier column on the Data screen.`;
    });
    return { blocks: [text(lines.join('\n')), dataLink('products', 'Open the products table')] };
  },
  async runsOutFirst(db: Db, today: string, due: DueWindow | null = null, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const [all, beyond, notBought] = await Promise.all([repo.firstStockouts(db, due ? 10_000 : 5, scope), pastForecastEnd(db, due, 'a product running out'), repo.notBoughtStockouts(db, scope, due?.by ?? null)]);
    // Made here (ADR 0194): they run out of what is baked, not of what is bought; not stocked (ADR 0200): no stock to run out of.
    const notListed = notBoughtWords(notBought, 'on this list');
    const rows = due ? all.filter((r) => inWindow(due, r.first_stockout)) : all;
    const starts = due?.starts;
    const earlier = starts ? all.filter((r) => r.first_stockout < starts).map((r) => r.first_stockout) : [];
    const before = earlier.length ? `; ${number.format(earlier.length)} ${earlier.length === 1 ? 'runs' : 'run'} out before it, ${whenBefore(earlier, today)}` : '';
    // Narrowed, the products are said once, first: "In the Heating category, 3 are …", "Of products whose name holds "Radiator" (…), none is …".
    const among = scope.words ? `${capitalised(scope.words.trim())}, ` : '';
    const counted = (count: number) => (among ? `${among}${count ? number.format(count) : 'none'} ${count > 1 ? 'are' : 'is'}` : count ? `${number.format(count)} ${count === 1 ? 'product is' : 'products are'}` : 'No product is');
    if (!rows.length) {
      return { blocks: [text(due ? `${counted(0)} forecast to run out ${dueWords(due)}${before}.${beyond}${notListed}` : `${counted(0)} forecast to run out within the forecast horizon (or no forecast has been made yet).${notListed}`)] };
    }
    const first = rows[0] as (typeof rows)[number];
    const listed = rows.slice(0, TABLE_ROWS);
    const notes = await listNotes(db, listed.map((r) => r.product_code));
    const firstWords = earlier.length ? `the first of them is ${first.name} (${first.product_code}), on ${formatDay(first.first_stockout)}` : `${first.name} (${first.product_code}) runs out first${due ? '' : scope.words}, on ${formatDay(first.first_stockout)}`;
    return {
      blocks: [
        text(`${due ? `${counted(rows.length)} forecast to run out ${dueWords(due)}${before}. ${capitalised(firstWords)}` : firstWords}.${beyond}${notListed}`),
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ['onHand', 'On hand now'], ['stockout', 'Runs out'], ['note', 'Note']],
          listed.map((r) => ({ styleCode: r.product_code, name: r.name, onHand: onHandCell(r.on_hand), stockout: r.first_stockout, note: notes.get(r.product_code) ?? null })),
        ),
        forecastLink(first.product_code, first.name),
      ],
    };
  },
  async stockoutOf(db: Db, products: repo.ProductRow[]): Promise<Answer> {
    const ids = products.map((p) => p.id);
    // A product asked for by name is answered, made here or not; one not stocked has no stock to run out of (ADR 0200).
    const [rows, early, notStocked] = await Promise.all([repo.firstStockouts(db, products.length, { category: null, productIds: ids }, 'included'), repo.shortHistorySpans(db, ids), repo.notStockedOf(db, ids)]);
    const lines = products.map((p) => {
      if (notStocked.has(p.id)) return `${p.name} (${p.product_code}) is not stocked (a service or fee): no stock is kept of it, so it does not run out.`;
      const own = rows.find((r) => r.product_code === p.product_code);
      const said = own ? `${p.name} (${p.product_code}) is forecast to run out on ${formatDay(own.first_stockout)}.` : `${p.name} (${p.product_code}) is not forecast to run out within the forecast horizon.`;
      // A product added to an older shop: its day rests on its own few days of sales (ADR 0070, amendment 2026-12-06 (2)).
      const span = early.get(p.id);
      return span ? `${said} ${earlyEstimateWords(salesSpan(span.from, span.to))}` : said;
    });
    return { blocks: [text(lines.join('\n')), ...products.slice(0, LINKED_PRODUCTS).map((p) => forecastLink(p.product_code, p.name))] };
  },
  async stockValue(db: Db): Promise<Answer> {
    const [totals, money] = await Promise.all([inventoryTotals(db), shopMoney(db)]);
    return { blocks: [text(`The stock on hand is worth ${money.format(totals.value)} at unit cost: ${amountsOf(totals.byUnit)} across ${productsWords(totals.products)}.${withoutCostWords(totals.withoutCost)}${notStockedWords(totals.notStocked, 'in that value')}`), dataLink('products', 'Open the products table')] };
  },
  async totalStock(db: Db): Promise<Answer> {
    const totals = await inventoryTotals(db);
    return { blocks: [text(`There are ${amountsOf(totals.byUnit)} on hand across ${productsWords(totals.products)}.${notStockedWords(totals.notStocked, 'in it')}`), dataLink('products', 'Open the products table')] };
  },
  async noSales(db: Db, window: SalesWindow, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const { total, outOfSeason, rows } = await repo.productsWithoutSales(db, window.from, window.to, TABLE_ROWS, scope);
    if (!total) return { blocks: [text(`Every product${scope.words} sold something ${window.words}.${outOfSeasonWords(outOfSeason)}`)] };
    return {
      blocks: [
        text(`${number.format(total)} ${total === 1 ? 'product' : 'products'}${scope.words} ${total === 1 ? 'has' : 'have'} no sales ${window.words}.${outOfSeasonWords(outOfSeason)}${await dataEndsBefore(db, window)}`),
        table([['styleCode', 'Product code'], ['name', 'Name'], ['onHand', 'On hand now']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, onHand: onHandCell(r.on_hand) }))),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
  /** "Which products are overstocked?": stock beyond `days` days of the forecast's demand, with the value tied up (ADR 0155); products not stocked left out, and counted (ADR 0200). */
  async overstock(db: Db, today: string, days: number, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    if (!(await repo.hasForecastDemand(db))) {
      return { blocks: [text('There is no forecast yet, so overstock cannot be measured against demand. Choose "Regenerate whole catalogue" on the Forecasting screen; for stock that does not sell, ask for dead stock.'), { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' }] };
    }
    const [{ rows, notStocked }, money] = await Promise.all([repo.overstocked(db, today, days, scope), shopMoney(db)]);
    const notListed = notStockedWords(notStocked, 'on this list');
    if (!rows.length) return { blocks: [text(`No product${scope.words} has more than ${number.format(days)} days of stock at its forecast demand.${notListed}`)] };
    const value = round2(rows.reduce((sum, r) => sum + r.value, 0));
    return {
      blocks: [
        text(
          `${number.format(rows.length)} ${rows.length === 1 ? 'product' : 'products'}${scope.words} ${rows.length === 1 ? 'has' : 'have'} more than ${number.format(days)} days of stock at the forecast demand: ${money.format(value)} tied up at unit cost.${notListed} The most value first:`,
        ),
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ['onHand', 'On hand now'], ['daily', 'Forecast per day'], ['cover', 'Days of cover'], ['excess', `Beyond ${days} days`], ['unit', 'Unit'], ['value', 'Value', 'money']],
          rows.slice(0, TABLE_ROWS).map((r) => ({ styleCode: r.product_code, name: r.name, onHand: r.on_hand, daily: round2(r.daily), cover: r.cover, excess: r.excess, unit: productUnit(r.unit), value: r.value })),
          { styleCode: 'Total', name: null, onHand: null, daily: null, cover: null, ...totalCells('excess', quantitiesByUnit(rows.map((r) => ({ unit: r.unit, quantity: r.excess })))), value },
        ),
        { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
      ],
    };
  },
  /** "Dead stock": stock on hand with no sales in the period (default the last 90 days), with the value tied up (ADR 0155); products not stocked left out, and counted (ADR 0200). */
  async deadStock(db: Db, window: SalesWindow, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const [{ rows: unsold, notStocked }, money] = await Promise.all([repo.deadStock(db, window.from, window.to, scope), shopMoney(db)]);
    const rows = unsold.filter((r) => !r.out_of_season);
    const leftOut = `${outOfSeasonWords(unsold.length - rows.length)}${notStockedWords(notStocked, 'on this list')}`;
    if (!rows.length) return { blocks: [text(`No product${scope.words} in stock went without sales ${window.words}.${leftOut}`)] };
    const value = round2(rows.reduce((sum, r) => sum + r.value, 0));
    const onHand = quantitiesByUnit(rows.map((r) => ({ unit: r.unit, quantity: r.on_hand })));
    return {
      blocks: [
        text(`${number.format(rows.length)} ${rows.length === 1 ? 'product' : 'products'}${scope.words} in stock had no sales ${window.words}: ${amountsListed(onHand)}, ${money.format(value)} tied up at unit cost.${leftOut}${await dataEndsBefore(db, window)}`),
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ['onHand', 'On hand now'], ['unit', 'Unit'], ['value', 'Value', 'money']],
          rows.slice(0, TABLE_ROWS).map((r) => ({ styleCode: r.product_code, name: r.name, onHand: r.on_hand, unit: productUnit(r.unit), value: r.value })),
          { styleCode: 'Total', name: null, ...totalCells('onHand', onHand), value },
        ),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
  /**
   * "The best month last year": what each month (week…) of the period sold, best first, the best
   * named. With several units each unit's best is named, and the table runs oldest first, a column per
   * unit (ADR 0177, amendment 2026-12-06 (2)): kilos and pieces do not rank as one figure.
   */
  async bestPeriods(db: Db, today: string, window: SalesWindow, best: BestPeriod, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const { units: everyUnit, periods } = await repo.unitsPerPeriod(db, window.from, window.to, best.unit, scope);
    // Only whole ones that have ended: one cut by the period's edge or still under way would always look worst.
    const whole = periods.filter((r) => r.start >= window.from && r.last <= window.to && r.last < today);
    if (!whole.length) return { blocks: [text(`No whole ${best.unit} ${window.words} has ended yet: only whole ones are compared.`)] };
    const counted = everyUnit.flatMap((total, i) => (whole.some((r) => r.sold[i] !== 0) ? [{ unit: total.unit, sold: (r: (typeof whole)[number]) => r.sold[i] ?? 0 }] : []));
    if (!counted.length) return { blocks: [text(`Nothing sold${scope.words} ${window.words}.${await dataEndsBefore(db, window)}`), dataLink('sales', 'Open the sales table')] };
    const ranked = (sold: (r: (typeof whole)[number]) => number) => [...whole].sort((a, b) => (best.direction === 'desc' ? sold(b) - sold(a) : sold(a) - sold(b)) || a.start.localeCompare(b.start));
    const which = best.direction === 'desc' ? 'best' : 'worst';
    const units = counted.map(({ unit, sold }) => ({ unit, quantity: whole.reduce((sum, r) => sum + sold(r), 0) }));
    const row = (r: (typeof whole)[number]) => ({ period: unitWords(best.unit, r.start), ...soldCells(units, counted.map(({ sold }) => sold(r))) });
    const columns: [string, string][] = [['period', capitalised(best.unit)], ...units.map((total) => soldColumn(total.unit))];
    const [only] = counted;
    if (counted.length === 1 && only) {
      const rows = ranked(only.sold);
      const first = rows[0] as (typeof whole)[number];
      return {
        blocks: [
          text(`The ${which} ${best.unit}${scope.words} ${window.words} was ${unitWords(best.unit, first.start)}: ${amountOf(only.sold(first), only.unit)} sold. The whole ${best.unit}s that have ended, ${which} first:`),
          table(columns, rows.slice(0, REPORT_ROWS).map(row)),
          dataLink('sales', 'Open the sales table'),
        ],
      };
    }
    const eachBest = counted.map(({ unit, sold }) => {
      const first = ranked(sold)[0] as (typeof whole)[number];
      return `${unitWords(best.unit, first.start)} in ${unit ?? 'units'} (${amountOf(sold(first), unit)} sold)`;
    });
    return {
      blocks: [
        text(`The ${which} ${best.unit}${scope.words} ${window.words} was ${andList.format(eachBest)}. The whole ${best.unit}s that have ended, oldest first:`),
        table(columns, whole.slice(-REPORT_ROWS).map(row)),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
  /**
   * "Sales by quarter", "daily sales last week": units per day, week, month… of the period, oldest
   * first, as the report writer breaks them down; the one under way named "(to date)", as report
   * charts name it (ADR 0154), and one the period cuts with the days it holds.
   */
  async salesByPeriod(db: Db, today: string, window: SalesWindow, unit: PeriodUnit, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const { units, periods } = await repo.unitsPerPeriod(db, window.from, window.to, unit, scope);
    // One total and one column per unit (ADR 0177, amendment 2026-12-06 (2)).
    const sold = units.filter((total) => total.quantity !== 0);
    if (!sold.length) return { blocks: [text(`No units were sold${scope.words} ${window.words}.${await dataEndsBefore(db, window)}`), dataLink('sales', 'Open the sales table')] };
    const shown = periods.slice(-REPORT_ROWS);
    return {
      blocks: [
        text(`${amountsListed(sold)} ${wasOrWere(sold)} sold${scope.words} ${window.words}. By ${unit}${shown.length < periods.length ? `, the last ${REPORT_ROWS}` : ''}:`),
        table(
          [['period', capitalised(unit)], ...units.map((total) => soldColumn(total.unit))],
          shown.map((r) => ({ period: periodOfBreakdown(unit, r, window, today), ...soldCells(units, r.sold) })),
          { period: 'Total', ...soldCells(units, units.map((total) => total.quantity)) },
        ),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
  /**
   * Two periods compared like for like: while the later is under way, it runs to the last day with
   * sales and the earlier counts as many days from its start (`sameDaysSoFar`, ADR 0148); else both whole.
   */
  async comparePeriods(db: Db, today: string, comparison: Comparison, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const cut = sameDaysSoFar(comparison, today, await repo.lastSalesDay(db));
    if (!cut) return dataFunctions.compareSales(db, await salesWindow(db, comparison.earlier, today), await salesWindow(db, comparison.later, today), scope);
    return dataFunctions.compareSales(
      db,
      { ...cut.earlier, words: `in the same days of ${describePeriod(comparison.earlier)} (${formatRange(cut.earlier)})` },
      { ...cut.later, words: `${describePeriod(comparison.later)} so far (${formatRange(cut.later)})` },
      scope,
    );
  },
  /**
   * "This month vs last month": what sold in each, the earlier first, and the change from it; kilos
   * compared with kilos, pieces with pieces (ADR 0177, amendment 2026-12-06 (2)).
   */
  async compareSales(db: Db, earlier: SalesWindow, later: SalesWindow, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const [before, after] = await Promise.all([repo.totalUnitsSold(db, earlier.from, earlier.to, scope), repo.totalUnitsSold(db, later.from, later.to, scope)]);
    const sold = groupByUnit([...before.byUnit.map((total) => ({ ...total, later: false })), ...after.byUnit.map((total) => ({ ...total, later: true }))], (total) => total.unit);
    const units = (sold.length ? sold : [{ unit: null, items: [] }]).map(({ unit, items }) => {
      const [earlierSold, laterSold] = [items.find((total) => !total.later)?.quantity ?? 0, items.find((total) => total.later)?.quantity ?? 0];
      const change = roundQuantity(laterSold - earlierSold);
      return { unit, earlierSold, laterSold, change, changePct: earlierSold ? Math.round((1000 * change) / earlierSold) / 10 : null };
    });
    // A shop of pieces reads as it always has: "Units sold …: 12; …: 15".
    const pieces = units.length === 1 && units[0]?.unit === null;
    const figures = (quantity: (total: (typeof units)[number]) => number) =>
      pieces ? number.format(quantity(units[0] as (typeof units)[number])) : amountsListed(units.map((total) => ({ unit: total.unit, quantity: quantity(total) })).filter((total) => total.quantity !== 0));
    const changed = units.map(({ unit, earlierSold, change, changePct }) => {
      if (change === 0) return units.length === 1 ? 'no change' : `no change in ${unit ?? 'units'}`;
      const percent = changePct === null ? '' : ` (${change >= 0 ? '+' : ''}${number.format(changePct)}%)`;
      return `${change > 0 ? 'up' : 'down'} ${amountOf(Math.abs(change), unit)}${percent}${earlierSold ? '' : ' (no sales in the first period, so no percentage)'}`;
    });
    const cells = (quantity: (total: (typeof units)[number]) => number, changes: boolean) =>
      Object.fromEntries(
        units.flatMap((total) => [
          [unitKey('units', total.unit), quantity(total)],
          [unitKey('change', total.unit), changes ? total.change : null],
          [unitKey('changePct', total.unit), changes ? total.changePct : null],
        ]),
      );
    return {
      blocks: [
        text(`${pieces ? 'Units sold' : 'Sold'}${scope.words} ${earlier.words}: ${figures((total) => total.earlierSold)}; ${later.words}: ${figures((total) => total.laterSold)}. That is ${andList.format(changed)}.${await dataEndsBefore(db, later)}`),
        table(
          [['period', 'Period'], ...units.flatMap(({ unit }): [string, string][] => [soldColumn(unit), [unitKey('change', unit), unitLabel('Change', 'Change', unit)], [unitKey('changePct', unit), unitLabel('Change %', 'Change %', unit)]])],
          [
            { period: earlier.words, ...cells((total) => total.earlierSold, false) },
            { period: later.words, ...cells((total) => total.laterSold, true) },
          ],
        ),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
};

/** The stored band is the central 95 % of summed demand, a normal range (ADR 0110): its 80 % range is this share of it. */
const EIGHTY_IN_STOCK_BAND = normalQuantile(0.9) / normalQuantile(1 - STOCK_BAND_TAIL);

/**
 * ", likely between 9 and 18 (80 % range)": the 80 % range of a forecast's summed demand, in whole
 * units, from its stored band's half-width (`spread95`); "" when no band of that sum is stored (the
 * days' own bands do not add up to one, ADR 0148, amendment "a forecast's likely range") or it spans
 * no whole unit.
 */
function likelyRange(units: number, spread95: number | null): string {
  if (spread95 === null) return '';
  const half = spread95 * EIGHTY_IN_STOCK_BAND;
  const [low, high] = [Math.max(0, Math.round(units - half)), Math.round(units + half)];
  return low === high ? '' : `, likely between ${number.format(low)} and ${number.format(high)} (80 % range)`;
}

/**
 * A product's units of a period in words: returns (negative sales lines) are said as returns, not
 * as minus units sold ("had 1 unit returned and none sold", "sold 5 units and had 1 returned (4 net)").
 */
function soldWords(net: number, returned: number, unit: string | null): string {
  const unitsWord = (count: number) => amountOf(count, unit);
  if (!returned) return `sold ${amountOf(net, unit)}`;
  const gross = net + returned;
  return gross ? `sold ${unitsWord(gross)} and had ${number.format(returned)} returned (${number.format(net)} net)` : `had ${unitsWord(returned)} returned and none sold`;
}

/** Said first when a question asks for revenue and its answer can only count units. */
const UNITS_NOT_REVENUE = 'Counted in units sold: I cannot count revenue for this question yet (I can for top sellers and total sales).';
/** How many top sellers an answer lists when the question says no number. */
export const TOP_SELLERS_RANK: Rank = { direction: 'desc', limit: 5 };
/** A day, week, month, quarter or year by its first day, as an answer names it: "March 2025", "the week of 3 Mar 2025", "Q1 2025". */
function unitWords(unit: BestPeriod['unit'], start: string): string {
  const [year, month] = [start.slice(0, 4), Number(start.slice(5, 7))];
  if (unit === 'month') return `${MONTH_NAMES[month - 1]} ${year}`;
  if (unit === 'quarter') return `Q${Math.ceil(month / 3)} ${year}`;
  if (unit === 'year') return year;
  return unit === 'week' ? `the week of ${formatDay(start)}` : formatDay(start);
}

/**
 * A row of a breakdown: "Q4 2026"; the one holding today "Q4 2026 (to date)"; one the question's
 * period cuts, with the days it holds ("Q4 2025 (4–31 Dec 2025)").
 */
function periodOfBreakdown(unit: PeriodUnit, row: { start: string; last: string }, window: SalesWindow, today: string): string {
  const name = unitWords(unit, row.start);
  const days = { from: row.start < window.from ? window.from : row.start, to: row.last > window.to ? window.to : row.last };
  if (days.from === row.start && days.to === today) return `${name} (to date)`;
  return days.from === row.start && days.to === row.last ? name : `${name} (${formatRange(days)})`;
}

/** What the assistant answers; its dates in the asker's order ("since 3/11" day-first, "since 11/3" month-first). */
const helpFor = (order: DateOrder) =>
  `I can answer: the stock of a product and when it runs out (by its code, its name or a word of its name: stock of mugs), the stock of a category (how much compost have we got), sales of a product or of all products in a period (last month, last quarter, in October, Q3, in 2025, last weekend, last winter, this summer (seasons of your time zone's hemisphere), last financial year, FY2025-26, last Christmas, Christmas Eve 2025, Easter 2025, the Easter weekend, Black Friday, Australia Day, Anzac Day, since ${slashed(3, 11, order)}, by ${slashed(30, 11, order)}, from March to May, until December, the last 30 days…), of products by a word of their names (how many radiators…), top sellers (the last 30 days unless you say another period or "all time"; top 3, in a category such as "in Heating"), the best or worst month or week of a period, sales by day, week, month, quarter or year (all time unless you say a period; by day the last 30 days), average daily or weekly sales (average daily sales of a product), sales and stock by category (best selling category, stock value by category), two periods compared (this month vs last month, this month vs last year, last week vs the week before), what is out of stock now (sold out), slow movers (in stock, sold least in 90 days), what runs out first, the value of the stock, products with no sales (not sold in 60 days), overstock (stock for more than 180 days of forecast demand, or the days you say) and dead stock (in stock, no sales in 90 days), low stock, the reorder report and what runs out (from one supplier: what should I order from Acme, low stock from Acme; also due this week, next week, in January, in Q1, in the next N days, by a date, before Christmas, Boxing Day or Easter, until Black Friday, the end of the month or through December), deliveries and what is due in or arrives (tomorrow, on Friday, this week, next week), the suppliers (which suppliers do we use, who supplies a product, which products have no supplier), the last run of each scheduled integration (did last night’s import run?); and I can create the recommended orders or add a task. I read ${dateOrderWords(order)}.`;
/** Said with the "I don't know" answer: a German or Dutch shop's question is read for these words too. */
const READS =
  'I read questions in English, common German shop words (Bestand, Lagerwert, verkauft, Umsatz, Top, bestellen, wann … aus, ausverkauft; letzten Monat, im Oktober, seit März, von März bis Mai, diese Woche, in den nächsten 30 Tagen) and common Dutch ones (voorraad, voorraadwaarde, verkocht, omzet, top, meest verkocht, bestellen, leveringen, uitverkocht, wat raakt op, wanneer is … op; vorige week, vorige maand, in november, van maart tot mei, deze maand, afgelopen 30 dagen, volgende week).';

const TASK = /^(?:please\s+)?(?:add|create|make)\s+(?:a\s+)?(?:new\s+)?(?:task|todo|to-do|reminder)\s*(?:to|:|-)?\s*(.+)$/i;
const CREATE_ORDERS = /\b(create|place|make|raise|put in)\b.*\border/;
/** Sales by day of the week ("on Sundays", "every Monday", "at weekends"): no answer counts them so, and says that rather than answering another question. */
const WEEKDAY_SALES = /\b(?:on |every |each )?(?:sun|mon|tues|wednes|thurs|fri|satur)days\b|\b(?:every|each) (?:sun|mon|tues|wednes|thurs|fri|satur)day\b|\b(?:on |at |over )?(?:the )?weekends?\b|\bweekdays?\b|\bdays? of the week\b/;
/** A weekend named as a period: "last weekend", "the Easter weekend". */
const WEEKEND_PERIODS = new RegExp(`${WEEKEND.source}|\\beaster weekend\\b`, 'gu');
const COMPARE = /\bcompar(e|ed|es|ison)\b|\bvs\.?(?= )|\bversus\b|\bagainst\b/;
/** Words a stock-out question frames itself with ("when are we going to run out of stock?"): no product's name. */
const RUNS_OUT_FRAMING = orGerman(
  /\b(going to|gonna|forecast(ed)?|predicted|likely|soon|of (stock|inventory)|stock|inventory)\b/,
  'wann|bald|zuerst|als erste[sr]?|läuft|laufen|geht|gehen|wird|werden|sein',
  'wanneer|raakt|raken|eerst|als eerste|binnenkort|voorraad',
);
/** The particle that closes "was kommt … an", "wat komt er … binnen". */
const ARRIVES_PARTICLE = /(?<![\p{L}])(?:an|binnen)(?= *[?.!]* *$)/u;
/** A question about the scheduled imports: "did last night's import run?", "when did the web shop last sync?". */
const INTEGRATION_RUNS = /\b(integrations?|imports?|imported|sync(?:ed|s|ing)?|web ?shop|feed)\b/;
const TOTAL_STOCK = orGerman(
  /\b(how much|how many|total)\b.*\b(stock|inventory|units)\b|\bstock (level|on hand)\b/,
  '(?:wie viel|wieviel|wie viele|gesamt|insgesamt)(?: [\\p{L}]+)* (?:bestand|lager|lagerbestand|auf lager|vorrätig)',
  '(?:hoeveel|totale?)(?: [\\p{L}]+)* (?:voorraad|op voorraad|in voorraad)',
);

/**
 * Sales asked for days still to come ("sales next week", "top sellers in the next 30 days", "sold in
 * Q1 2027"): none are recorded yet, and the answer says so rather than a zero (ADR 0148).
 */
export function salesAhead(reading: Reading, today: string): Answer | null {
  const words = readSalesAhead(reading, today);
  if (!words) return null;
  return {
    blocks: [
      text(`There are no sales after today (${formatDay(today)}): the period asked for, ${words}, is still to come. The Forecasting screen shows the sales expected; for sales so far, ask for a past period (last week, the last 30 days).`),
      { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
    ],
  };
}

/**
 * An order or stock-out answer for the window the question names; a window said with a year that
 * ended before today ("in March 2026", "by 24/12/2025") is said to be over, not answered with none.
 */
function aheadAnswer(reading: Reading, today: string, answer: (due: DueWindow | null) => Promise<Answer>): Promise<Answer> {
  const window = readWindow(reading, today);
  return answerForWindow(window && dueWindowOf(window, today), today, answer);
}

/** An order or stock-out answer for a window (a question's, or a model's tool call's); one that ended before today is said to be over. */
export function answerForWindow(due: DueWindow | null, today: string, answer: (due: DueWindow | null) => Promise<Answer>): Promise<Answer> {
  if (!due || due.by >= today) return answer(due);
  return Promise.resolve({
    blocks: [
      text(`The window asked for, ${dueWords(due)}, ended before today (${formatDay(today)}): the forecasts look ahead from today. Ask for a window still to come, such as next month, in January or by 24/12.`),
      { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
    ],
  });
}

/**
 * The products a sales answer counts: those the question names, else a category it names ("in the
 * heating category", "garden products"), narrowed by a word of their names when one is left
 * ("christmas trees": the Christmas category's products named Tree), else a word of their names
 * ("radiators": the products whose name holds "Radiator"), as the report writer reads them. The words
 * count as used only when an answer `use`s the scope: a stock total that cannot narrow to them leaves
 * them said back as unused. `nameWord`: the products a word selected; `group`: a category's products
 * alone, for a stock answer (QA5 #10: never the whole shop's stock for a question naming a group).
 */
async function scopeOf(db: Db, reading: Reading, products: repo.ProductRow[], today: string, leading: string[]): Promise<{ use: () => Scope; nameWord: NameWordScope | null; group: NameWordScope | null }> {
  if (products.length) return { use: () => productScope(products), nameWord: null, group: null };
  const categories = await categoryNames(db);
  const names = await productNames(db);
  /** The question without the words every sales and stock question frames itself with, its period and ranking — no product's name — and the category read. */
  const frame = (category: string | null) => {
    const framed = reading.trial();
    [SALES, SALES_VALUE_WORDS, STOCK_VALUE_WORDS, STOCK_WORDS, VALUE, FRAMING, TOP_SELLERS, NOT_SOLD, OVERSTOCK, DEAD_STOCK, RUNS_OUT, RUNS_OUT_FRAMING, LOW_STOCK, REORDER, NAME_HOLDS, ...INVENTORY_QUESTION_WORDS].forEach((pattern) => framed.test(pattern));
    if (category) readCategory(framed, categories);
    if (!readComparison(framed, today) && !readQuietSpan(framed)) readPeriod(framed, today);
    // A deadline ("before Christmas", "by Easter") dates the question: it names no products.
    readAhead(framed, today);
    readBestPeriod(framed);
    readBreakdown(framed);
    readRank(framed, TOP_SELLERS_RANK.limit);
    readCoverDays(framed);
    return framed;
  };
  let category = readCategory(reading.trial(), categories);
  let framed = frame(category);
  let word = readNameWord(framed, names.words, names.phrases);
  let scope = word ? await nameWordScope(db, word, category) : null;
  if (category && word && !scope?.products.length) {
    // "Gingerbread syrup" where the Syrups category holds no Gingerbread product but "Gingerbread syrup 1L" sits in
    // Seasonal syrups: the category's word was part of a name (QA8 F13). Never a confident "0 products" while a name holds the words.
    const unframed = frame(null);
    const named = readNameWord(unframed, names.words, names.phrases);
    const anywhere = named ? await nameWordScope(db, named, null) : null;
    if (anywhere?.products.length) [category, framed, word, scope] = [null, unframed, named, anywhere];
  }
  // "Snow blowers" where names hold "Snow" but no "Snow Blower": every Snow product is counted, and the answer says so first (QA6 #6).
  const missed = word && missedPhrase(framed, word);
  const useCategory = () => category !== null && readCategory(reading, categories);
  if (!word || !scope) {
    if (!category) return { use: () => EVERY_PRODUCT, nameWord: null, group: null };
    return {
      use: () => {
        useCategory();
        readPackaging(reading);
        return categoryScope(category, categories);
      },
      nameWord: null,
      group: await nameWordScope(db, null, category),
    };
  }
  return {
    use: () => {
      useCategory();
      reading.test(nameWordPattern(word));
      reading.test(NAME_HOLDS);
      readPackaging(reading);
      if (missed) {
        reading.test(wholeWords(escapeRegExp(missed)));
        leading.push(`No product's name holds "${missed}": this counts every product whose name holds "${word}".`);
      }
      return scope;
    },
    nameWord: scope,
    group: null,
  };
}

/** The words before a window ("in", "by", "before"…). */
const WINDOW_PREPOSITION = '(?:in|by|before|until|till|within|during|after|from) (?:the )?';
/** A word of the question as a pattern, `before` it: whole, letters of any script counting as the word's own. */
const wordPattern = (word: string, before = '') => new RegExp(`(?<![\\p{L}\\p{N}])${before}${escapeRegExp(word.toLowerCase())}(?![\\p{L}\\p{N}])`, 'u');
/**
 * Said instead of a stock or stock-out answer when words the question names a product with match no
 * product's code or name (nor a category): an answer for the whole catalogue would read as one about
 * them. Codes no product has were answered before; a word after "in", "by", "before"… said a window
 * that was not read ("what runs out in Smarch"), and is said back under the answer instead. Null when
 * no word is left.
 */
function noProductNamed(reading: Reading, asked: string): Answer | null {
  const words = reading.unusedWords().filter((word) => !wordPattern(word, WINDOW_PREPOSITION).test(reading.text));
  if (!words.length) return null;
  words.forEach((word) => reading.test(wordPattern(word)));
  return {
    blocks: [
      text(`No product's code or name holds "${words.join(' ')}", so I cannot say ${asked}. Name a product by its code, its name or a word of its name.`),
      dataLink('products', 'Open the products table'),
    ],
  };
}
/**
 * The supplier the question names ("from Acme", "for Brakes Bros", "von Lieferant Müller"; ADR 0184,
 * amendment 2026-12-06), read before the products' words so that a supplier's name is not taken for a
 * word of product names; a product named by its code or name was read before it.
 */
async function namedSupplier(db: Db, reading: Reading): Promise<NamedSupplier | null> {
  const suppliers = await supplierNames(db);
  if (!suppliers.length) return null;
  const names = await productNames(db);
  return readSupplier(reading, suppliers, (words) => readNameWord(Reading.of(words), names.words, names.phrases) !== null);
}
/**
 * An order or stock-out answer of the supplier the question names (its words used), else — when
 * words after "from", "von" or "supplier" name no supplier — the suppliers there are; else `answer`
 * for every supplier.
 */
async function bySupplier(db: Db, asked: Reading, supplier: NamedSupplier | null, answer: (supplier: string | null | undefined) => Promise<Answer>): Promise<Answer> {
  if (supplier) {
    asked.test(supplier.pattern);
    return answer(supplier.supplier);
  }
  if (asked.test(WITHOUT_SUPPLIER)) return answer(null);
  const unknown = askedSupplier(asked);
  return unknown ? unknownSupplier(db, unknown) : answer(undefined);
}
/** "Which suppliers do we use?", "list our suppliers", "welche Lieferanten haben wir?". */
const WHICH_SUPPLIERS = /\b(?:which|what|list|all|show)(?: (?:are|of|the|our|me|all))* suppliers\b|\bwho are (?:our|the) suppliers\b|\bsuppliers (?:do )?we (?:use|have|buy from|order from)\b|\b(?:welche|alle|unsere) lieferanten\b|\b(?:welke|alle|onze) leveranciers\b/;
/** "Who supplies HEA-1001?", "who is the supplier of Blue Mug", "wer liefert …". */
const WHO_SUPPLIES = /\bwho (?:supplies|delivers|sells us)\b|\b(?:the )?supplier (?:of|for)\b|\bwho do we (?:buy|order|get)\b.*\bfrom\b|\bwer liefert\b|\bwie levert\b/;
/** The variants a question asks an order list of products for ("which sizes / colours of …"): each product is a row of it. */
export const VARIANT_WORDS = /\b(?:sizes?|colou?rs?|variants?)\b/;
/** The words of a plain question and the one rule they match: null when none does. `leading`: what the answer must say first, gathered as it is read. */
async function answerReading(db: Db, asked: Reading, products: repo.ProductRow[], today: string, leading: string[]): Promise<Answer | null> {
  const supplier = await namedSupplier(db, asked);
  // The supplier's words are blanked, as a named product's are, and used only by an answer that narrows to it.
  const reading = supplier ? asked.without(new RegExp(supplier.pattern.source, 'gu')) : asked;
  const q = reading.text;
  const claim = (...patterns: RegExp[]) => patterns.forEach((pattern) => reading.test(pattern));
  // Revenue is answered where it can be (top sellers, total sales), its words used there; elsewhere they are left for `answerText` to say the answer counts units.
  const measure = (): repo.SalesMeasure => (reading.test(SALES_VALUE_WORDS) ? 'value' : 'units');
  const asksSales = SALES.test(q) || SALES_VALUE_WORDS.test(q);
  const past = (fallback: Period) => salesWindow(db, readPeriod(reading, today) ?? fallback, today);
  /** A sales answer for the question's past period; a period still to come is said so. */
  const sales = async (fallback: Period, answer: (window: SalesWindow) => Promise<Answer>) => salesAhead(reading, today) ?? answer(await past(fallback));
  /** Units sold by the day, week, month… the question breaks them down by, else the total (`total`); a breakdown names no period: all time, by day the last 30 days. */
  const salesOrBreakdown = (scoped: () => Scope, total: (window: SalesWindow, scope: Scope) => Promise<Answer>) => {
    const unit = readBreakdown(reading);
    if (!unit) return sales(LAST_30_DAYS, (window) => total(window, scoped()));
    return sales(breakdownPeriod(unit), (window) => dataFunctions.salesByPeriod(db, today, window, unit, scoped()));
  };
  if (CREATE_ORDERS.test(q)) {
    // Word by word: the pattern's ".*" would count every word between as used.
    claim(/\b(create|place|make|raise|put in)\b/, FRAMING);
    if (supplier) asked.test(supplier.pattern);
    return reorderReport(db, null, supplier ? supplier.supplier : reading.test(WITHOUT_SUPPLIER) ? null : undefined);
  }
  if (INTEGRATION_RUNS.test(q)) {
    claim(INTEGRATION_RUNS, /\b(did|has|have|go|went|run|ran|last|night|when|sync|status)\b/, FRAMING);
    return integrationRuns(db, new Date());
  }
  // "Last weekend" and "the Easter weekend" are periods; "at weekends" asks for sales by day of the week.
  if ((SALES.test(q) || TOP_SELLERS.test(q)) && WEEKDAY_SALES.test(q.replace(WEEKEND_PERIODS, ' '))) {
    claim(WEEKDAY_SALES, SALES, TOP_SELLERS, FRAMING);
    return {
      blocks: [
        text('I cannot count sales by day of the week: I count them by day, week, month, quarter or year. Ask for "daily sales last week" to see each day, or "top sellers last month".'),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  }
  const scope = await scopeOf(db, reading, products, today, leading);
  // Asked alone: an order or stock-out question says it of them below.
  if (WITHOUT_SUPPLIER.test(q) && !supplier && ![LOW_STOCK, REORDER, RUNS_OUT, DELIVERIES, OUT_OF_STOCK].some((pattern) => pattern.test(q))) {
    claim(WITHOUT_SUPPLIER, /\b(have|has|got|are|is|there|do|does|we|which|what|list|show|all|haben|hat|sind|welke|hebben|heeft|zijn)\b/, FRAMING);
    return products.length ? dataFunctions.supplierOf(db, products) : dataFunctions.productsWithoutSupplier(db);
  }
  if (WHICH_SUPPLIERS.test(q)) {
    claim(WHICH_SUPPLIERS, /\b(use|have|buy|order|haben|wir|hebben|we)\b/, FRAMING);
    return dataFunctions.suppliers(db);
  }
  if (WHO_SUPPLIES.test(q)) {
    claim(WHO_SUPPLIES, /\b(who|supplier|from|buy|order|get|do|we)\b/, FRAMING);
    if (products.length) return dataFunctions.supplierOf(db, products);
    if (scope.nameWord) {
      const named = scope.nameWord;
      scope.use();
      return forNameWord(named, (listed) => dataFunctions.supplierOf(db, listed));
    }
    return noProductNamed(reading, 'who supplies it') ?? dataFunctions.suppliers(db);
  }
  if (OVERSTOCK.test(q)) {
    claim(OVERSTOCK, FRAMING);
    return dataFunctions.overstock(db, today, readCoverDays(reading) ?? OVERSTOCK_DAYS, scope.use());
  }
  if (DEAD_STOCK.test(q)) {
    claim(DEAD_STOCK, NOT_SOLD, FRAMING);
    const quiet = readQuietSpan(reading);
    return quiet ? dataFunctions.deadStock(db, await salesWindow(db, quiet, today), scope.use()) : sales(NO_SALES_PERIOD, (window) => dataFunctions.deadStock(db, window, scope.use()));
  }
  if (NOT_SOLD.test(q) && !/\bany sales of\b/.test(q)) {
    claim(NOT_SOLD, FRAMING);
    // "Not sold in 60 days" looks back over the last 60, read before any window ahead.
    const quiet = readQuietSpan(reading);
    return quiet ? dataFunctions.noSales(db, await salesWindow(db, quiet, today), scope.use()) : sales(NO_SALES_PERIOD, (window) => dataFunctions.noSales(db, window, scope.use()));
  }
  // Out of stock now, slow movers, an average per day or week, figures by category (ADR 0189).
  const everyday = await everydayAnswer({ db, reading, asked, products, today, scope, supplier, sales });
  if (everyday) return everyday;
  if ((SALES.test(q) || COMPARE.test(q)) && readComparison(reading.trial(), today)) {
    const comparison = readComparison(reading, today) as Comparison;
    claim(SALES, FRAMING);
    return salesAhead(reading, today) ?? dataFunctions.comparePeriods(db, today, comparison, scope.use());
  }
  const best = readBestPeriod(reading);
  if (best) {
    claim(SALES, TOP_SELLERS, FRAMING);
    return sales(LAST_12_MONTHS, (window) => dataFunctions.bestPeriods(db, today, window, best, scope.use()));
  }
  if (TOP_SELLERS.test(q)) {
    claim(TOP_SELLERS, FRAMING);
    const rank = readRank(reading, TOP_SELLERS_RANK.limit) ?? TOP_SELLERS_RANK;
    return sales(TOP_SELLERS_PERIOD, (window) => dataFunctions.topSellers(db, window, rank, scope.use(), measure()));
  }
  // "Which products will be out of stock next week": what runs out (out of stock now was answered above).
  if ((RUNS_OUT.test(q) || OUT_OF_STOCK.test(q)) && !products.length) {
    claim(RUNS_OUT, OUT_OF_STOCK, RUNS_OUT_FRAMING, FRAMING);
    const window = readWindow(reading, today);
    const runsOut = (scoped: Scope) => answerForWindow(window && dueWindowOf(window, today), today, (due) => dataFunctions.runsOutFirst(db, today, due, scoped));
    if (supplier) {
      asked.test(supplier.pattern);
      return runsOut(await supplierScope(db, supplier.supplier));
    }
    if (reading.test(WITHOUT_SUPPLIER)) return runsOut(await supplierScope(db, null));
    // Words after "from" that name no supplier, nor products by a word of their names or a category.
    const unknown = scope.nameWord || scope.group ? null : askedSupplier(reading);
    if (unknown) return unknownSupplier(db, unknown);
    const scoped = scope.use();
    // A word of product names asks when those products run out; with a window, which of them run out in it.
    if (scope.nameWord && !window) return forNameWord(scope.nameWord, (named) => dataFunctions.stockoutOf(db, named));
    const unmatched = scoped === EVERY_PRODUCT ? noProductNamed(reading, 'when it runs out') : null;
    if (unmatched) return unmatched;
    return runsOut(scoped);
  }
  // A word of product names or a category narrows the order list to those products, and the answer says so (ADR 0189, amendment 2026-12-06 (5)).
  const within = () => {
    const group = scope.nameWord ?? scope.group;
    if (!group) return undefined;
    scope.use();
    // "Which sizes of the merino jumper": each product is a row of the list.
    reading.test(VARIANT_WORDS);
    return group;
  };
  if (LOW_STOCK.test(q)) {
    claim(LOW_STOCK, FRAMING);
    const named = within();
    return aheadAnswer(reading, today, (due) => bySupplier(db, asked, supplier, (listed) => lowStock(db, due, listed, named)));
  }
  if (REORDER.test(q)) {
    claim(REORDER, FRAMING);
    const named = within();
    return aheadAnswer(reading, today, (due) => bySupplier(db, asked, supplier, (listed) => reorderReport(db, due, listed, named)));
  }
  if (DELIVERIES.test(q) || ARRIVALS.test(q)) {
    claim(DELIVERIES, ARRIVALS, /\b(arriv|com)(e|es|ing)\b|\bdue\b/, ARRIVES_PARTICLE, FRAMING);
    return aheadAnswer(reading, today, (due) => deliveries(db, today, due));
  }
  if (((VALUE.test(q) && STOCK_WORDS.test(q)) || STOCK_VALUE_WORDS.test(q)) && !products.length && !scope.nameWord && !scope.group) {
    claim(STOCK_VALUE_WORDS, VALUE, STOCK_WORDS);
    return dataFunctions.stockValue(db);
  }
  if (products.length) {
    if (asksSales) {
      claim(SALES, FRAMING);
      // "How much of KS-00300 will we sell next week?": the forecast's figure, not the sales none are recorded of yet.
      const ahead = readDaysAhead(reading.trial(), today);
      const forecast = ahead && (await dataFunctions.forecastOf(db, products, ahead));
      if (forecast) {
        readDaysAhead(reading, today);
        return forecast;
      }
      return salesOrBreakdown(scope.use, (window) => dataFunctions.salesOf(db, products, window));
    }
    if (RUNS_OUT.test(q) || OUT_OF_STOCK.test(q)) {
      claim(RUNS_OUT, OUT_OF_STOCK, RUNS_OUT_FRAMING, FRAMING);
      return dataFunctions.stockoutOf(db, products);
    }
    claim(STOCK_WORDS, VALUE, FRAMING);
    return dataFunctions.stockOf(db, products);
  }
  // Units sold across the catalogue (or a category, or the products a word of their names selects): "how many units did we sell last month" asks for sales, not stock.
  if (asksSales) {
    claim(SALES, FRAMING);
    return salesOrBreakdown(scope.use, (window, scoped) => dataFunctions.totalSales(db, window, scoped, measure()));
  }
  // "Stock of Blumenerde", "how much stock of candles in total", "how much compost have we got": the stock of each product whose name holds the word, or of the category named.
  const group = scope.nameWord ?? scope.group;
  if (group) {
    scope.use();
    claim(STOCK_WORDS, VALUE, /\b(total|level)\b/, FRAMING);
    return forNameWord(group, (listed, all) => dataFunctions.stockOf(db, all, listed.length));
  }
  if (TOTAL_STOCK.test(q)) {
    claim(STOCK_WORDS, /\b(total|level)\b/, FRAMING);
    return dataFunctions.totalStock(db);
  }
  if (STOCK_WORDS.test(q)) {
    claim(STOCK_WORDS, VALUE, FRAMING);
    return noProductNamed(reading, 'its stock');
  }
  return null;
}

/** Notes under an answer's first text: codes that name no product, and the words it did not use. */
function withNotes(answer: Answer, notes: string[]): Answer {
  if (!notes.length) return answer;
  const at = answer.blocks.findIndex((b) => b.type === 'text') + 1;
  return { blocks: [...answer.blocks.slice(0, at), ...notes.map(text), ...answer.blocks.slice(at)] };
}

/**
 * The deterministic intent engine: the first rule whose words match answers, for the period the
 * question names; a product code no product has is said, and so are the words it did not use.
 * Otherwise it says plainly it does not know.
 */
/** `timeZone`: the asker's, whose hemisphere seasons are of. */
export async function answerText(db: Db, question: string, today: string, dateOrder: DateOrder = DEFAULT_DATE_ORDER, timeZone?: string): Promise<Answer> {
  const taskMatch = TASK.exec(question.trim()) ?? /^remind me to\s+(.+)$/i.exec(question.trim());
  if (taskMatch?.[1]) {
    const taskText = taskMatch[1].trim().slice(0, 500);
    return { blocks: [text(`Add the task "${taskText}" to your dashboard?`), { type: 'action', label: 'Add task', action: 'add_task', payload: { text: taskText } }] };
  }
  const products = await repo.productsNamedIn(db, question);
  // The products' words are used, and blanked so that a name such as "May Flower" is not read as a period.
  const reading = products.reduce(claimed, Reading.of(question, dateOrder, timeZone));
  // "How many bags of PG-01": a product named, the words it is counted in frame the question.
  if (products.length) readPackaging(reading);
  const unknown = reading.unusedWords().filter(looksLikeProductCode);
  const missing = unknown.length ? await missingProducts(db, unknown) : '';
  if (unknown.length && !products.length) return { blocks: [text(missing), dataLink('products', 'Open the products table')] };
  // "Sales on 31/11/2025": no such day, and no figures for another period (QA5 #20).
  const impossible = impossibleDate(reading.text, today, reading.dateOrder);
  if (impossible) return { blocks: [text(`${impossible} Ask again with a day of the calendar.`)] };
  const tooLong = spanTooLong(reading.text);
  if (tooLong) return { blocks: [text(tooLong)] };
  const leading: string[] = [];
  const answered = await answerReading(db, reading, products, today, leading);
  if (!answered) return { blocks: [text(`I don't know how to answer that from the data. ${READS} ${helpFor(dateOrder)}`)] };
  // Revenue asked for and not used: the answer counts units, and says so before anything else.
  const revenueUnused = SALES_VALUE_WORDS.test(reading.text) && reading.unusedWords().some((word) => SALES_VALUE_WORDS.test(Reading.of(word).text));
  if (revenueUnused) reading.test(SALES_VALUE_WORDS);
  const unused = reading.unusedWords().filter((word) => !unknown.includes(word));
  const unmatched = unmatchedProductWords(question, unused);
  const answer = withNotes(answered, [missing, unmatched.length ? noProductMatches(unmatched) : '', unused.length ? `I did not use "${unused.join(' ')}": this answer does not filter or break down by it. ${helpFor(dateOrder)}` : ''].filter(Boolean));
  const first = [...(revenueUnused ? [UNITS_NOT_REVENUE] : []), ...leading];
  return first.length ? { blocks: [...first.map(text), ...answer.blocks] } : answer;
}

/** The reading with a named product's code and name used and blanked out. */
function claimed(reading: Reading, product: repo.ProductRow): Reading {
  const code = new RegExp(wordPattern(product.product_code).source, 'gu');
  // Its name as `productsNamedIn` found it: whole words, the last in either number ("paper bags" for "Paper bag").
  const name = new RegExp(fullNamePattern(product.name).source, 'gu');
  reading.test(code);
  reading.test(name);
  return reading.without(code).without(name);
}

const missingProducts = async (db: Db, codes: string[]) => {
  const known = await repo.productCodes(db);
  return codes.map((code) => noSuchProduct(code, known)).join(' ');
};

export const actionAnswers = {
  /**
   * `shown`: the orders an answer showed; created only while the advice still says the same for each
   * of them. `createdFor`: the products that got a delivery, whose forecasts it changes.
   */
  async createOrders(db: Db, today: string, shown?: { styleCode: string; quantity: number }[]): Promise<{ answer: Answer; createdFor: number[] }> {
    const advice = await orderAdvice(db);
    if (!advice) return { answer: noForecastYet, createdFor: [] };
    const advised = advice.products.filter(hasOrder);
    const current = new Map(advised.map((p) => [p.styleCode, p]));
    const changes = (shown ?? []).flatMap(({ styleCode, quantity }) => {
      const now = current.get(styleCode);
      if (!now) return [`${styleCode} no longer needs an order`];
      return now.orderQuantity === quantity ? [] : [`${styleCode}'s advised order is now ${number.format(now.orderQuantity)} (was ${number.format(quantity)})`];
    });
    if (changes.length) {
      const listed = changes.slice(0, 5).join('; ');
      const more = changes.length > 5 ? `; and ${changes.length - 5} more` : '';
      const report = await reorderReport(db);
      return { answer: { blocks: [text(`Nothing was created: the advice changed since that list was made (a forecast ran since). ${listed}${more}. The current advice:`), ...report.blocks] }, createdFor: [] };
    }
    const chosen = shown ? shown.map(({ styleCode }) => current.get(styleCode) as OrderAdvice['products'][number]) : advised;
    const arrivals = await arrivalDays(db, today, chosen.map((p) => p.leadTimeDays));
    const orders = chosen.map((p, i) => ({ productId: p.productId, quantity: p.orderQuantity, arrival: arrivals[i]! }));
    const { createdFor, alreadyOrdered } = await inTransaction(db, (trx) => repo.createAdvisedDeliveries(trx, today, orders));
    const created = createdFor.length;
    const answer: Answer = {
      blocks: [
        text(
          `Created ${number.format(created)} scheduled ${created === 1 ? 'delivery' : 'deliveries'} of the advised quantities, each arriving after its product's lead time, on a day the shop is open.${alreadyOrdered ? ` ${number.format(alreadyOrdered)} ${alreadyOrdered === 1 ? 'product' : 'products'} already had a delivery on the way and ${alreadyOrdered === 1 ? 'was' : 'were'} left alone.` : ''}${created ? ` ${created === 1 ? 'Its forecast is' : 'Their forecasts are'} being updated, so the advice counts ${created === 1 ? 'it' : 'them'} as on order in a few seconds.` : ''}`,
        ),
        dataLink('deliveries', 'Open the deliveries table'),
      ],
    };
    return { answer, createdFor };
  },
};
