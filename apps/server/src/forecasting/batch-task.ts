// What the forecast pool's threads do for the server (a PoolTask module, loaded on each thread):
// the database's rows of a product in, the JSON row the database stores out. Parsing histories,
// forecasting, stringifying and summarising all happen here, so the API's event loop only passes
// strings between the database and the threads.
import { CATALOGUE_PROFILE, closedDatesBetween, dayNumber, forecastProduct, isForecastError, type CatalogueCalendar, type NewItemPrior, type Delivery, type ProductForecastInput, type SalesColumns, type ShopClosedDay, type StockPoint } from '@stockwise/forecast';
import { isMeasureUnit, orderStep } from '@stockwise/contract';
import { summariseForecast } from '../dashboard/summary.ts';
import type { ProductRows, StoredForecastRow } from './repo.ts';
import { storedForecastJson } from './stored-forecast.ts';
import { addCount, addDelivery, emptyHistory, walkStockLine, type OnHand } from './stock-line.ts';

/** Shared by every product of a run: sent to each thread once. */
export type BatchContext = {
  /** The first forecast day (YYYY-MM-DD). */
  today: string;
  horizon: number;
  /** The first history day: sales days are counted from it. */
  since: string;
  /** Days from `since` to `today`: the history's length. */
  historyDays: number;
  calendar: CatalogueCalendar;
  /** The catalogue's first sales day since `since`: a product added before any sale was listed from it. Null: no sales at all. */
  firstSale: string | null;
};

export type BatchResult = { code: string; stockout: boolean; row: StoredForecastRow } | { code: string; error: string };

type Prepared = { firstDay: number; closedDates: string[]; shopClosedDates: ShopClosedDay[] };
// A thread serves one run's context at a time; its first day and closed dates are worked out once.
let prepared: { context: BatchContext; value: Prepared } | null = null;

function prepare(context: BatchContext): Prepared {
  if (prepared?.context !== context) {
    const closedDates = closedDatesBetween(context.calendar, context.since, context.historyDays + context.horizon);
    prepared = { context, value: { firstDay: dayNumber(context.since), closedDates, shopClosedDates: shopClosedDatesOf(context.calendar, closedDates) } };
  }
  return prepared.value;
}

/** The window's closed dates that the shop said (CatalogueCalendar.closedOn), with its notes: the forecast names them as the shop's (ADR 0171, amendment). */
function shopClosedDatesOf(calendar: CatalogueCalendar, closedDates: string[]): ShopClosedDay[] {
  const shops = new Set(calendar.closedOn);
  const notes = calendar.closedOnNotes ?? {};
  return closedDates.filter((date) => shops.has(date)).map((date) => (Object.hasOwn(notes, date) ? { date, note: notes[date] } : { date }));
}

/** "a:b,c:d" as pairs, each split at its first colon. */
export function pairs(text: string | null, visit: (key: string, value: string) => void): void {
  if (!text) return;
  for (const pair of text.split(',')) {
    const colon = pair.indexOf(':');
    visit(pair.slice(0, colon), pair.slice(colon + 1));
  }
}

const MINUS = 45;

/**
 * The sales pairs "day:units,…" as the engine's sales columns (days counted from `firstDay`),
 * scanned once: 730 pairs per product, where splitting into strings and converting each was a
 * tenth of a thread's time, and a date string per pair for the engine to parse back another
 * (ADR 0118). Whole numbers are read digit by digit; anything else (a decimal) goes through Number.
 * Only the `days` days of history: sales from the first forecast day on (today's till so far) are
 * not a whole day's demand, and the engine would make them its last history day (ADR 0169).
 */
function salesColumns(text: string | null, firstDay: number, historyDays: number): SalesColumns {
  const days: number[] = [];
  const units: number[] = [];
  for (let start = 0; text && start < text.length; ) {
    const colon = text.indexOf(':', start);
    let end = text.indexOf(',', colon);
    if (end < 0) end = text.length;
    let day = 0;
    for (let i = start; i < colon; i++) day = day * 10 + text.charCodeAt(i) - 48;
    const negative = text.charCodeAt(colon + 1) === MINUS;
    let sold = 0;
    for (let i = negative ? colon + 2 : colon + 1; i < end; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) {
        sold = NaN;
        break;
      }
      sold = sold * 10 + digit;
    }
    if (Number.isNaN(sold)) sold = Number(text.slice(colon + 1, end));
    else if (negative) sold = -sold;
    if (day < historyDays) {
      days.push(day);
      units.push(sold);
    }
    start = end + 1;
  }
  return { firstDay, days, units };
}

/** The engine's input as productInput parses it: sales as columns (days counted from the history's first day), counts and deliveries as lists. */
type ParsedInput = ProductForecastInput & { sales: SalesColumns; stock: StockPoint[]; deliveries: Delivery[] };

/** The engine's input from a product's database rows. */
export function productInput(product: ProductRows, context: BatchContext): ParsedInput {
  const { firstDay, closedDates, shopClosedDates } = prepare(context);
  const sales = salesColumns(product.sales, firstDay, context.historyDays);
  const stock: StockPoint[] = [];
  pairs(product.snapshots, (ds, level) => stock.push({ ds, stock_level: Number(level) }));
  const deliveries: Delivery[] = [];
  pairs(product.deliveries, (ds, quantity) => deliveries.push({ ds, quantity: Number(quantity) }));
  const profiles = context.calendar.yearlyProfiles;
  const yearlyProfile = (product.category !== null ? profiles[product.category] : undefined) ?? profiles[CATALOGUE_PROFILE];
  const weekdayProfiles = context.calendar.weekdayProfiles ?? {};
  const weekdayProfile = (product.category !== null ? weekdayProfiles[product.category] : undefined) ?? weekdayProfiles[CATALOGUE_PROFILE];
  const unsold = sales.days.length === 0;
  const newItemPrior = unsold ? newItemPriorOf(product.category, context.calendar) : undefined;
  const listedSince = unsold ? listedSinceOf(product, context) : null;
  const season = product.category !== null ? context.calendar.categorySeasons?.[product.category] : undefined;
  const categorySeason = season && product.category !== null ? { category: product.category, ...season } : undefined;
  const step = orderStep(product.unit);
  return {
    sales,
    stock,
    deliveries,
    horizon: context.horizon,
    leadTimeDays: product.lead_time_days,
    today: context.today,
    ...(closedDates.length ? { closedDates } : {}),
    ...(shopClosedDates.length ? { shopClosedDates } : {}),
    // Even none: the calendar then shows every weekday trading, and a product's own closed weekday needs strong evidence.
    ...(context.calendar.closedWeekdays ? { closedWeekdays: context.calendar.closedWeekdays } : {}),
    ...(context.calendar.closedWeekdaysInMonths?.length ? { closedWeekdaysInMonths: context.calendar.closedWeekdaysInMonths } : {}),
    ...(context.calendar.closedNthWeekdays?.length ? { closedNthWeekdays: context.calendar.closedNthWeekdays } : {}),
    ...(yearlyProfile ? { yearlyProfile } : {}),
    ...(weekdayProfile ? { weekdayProfile } : {}),
    ...(newItemPrior ? { newItemPrior } : {}),
    ...(listedSince ? { listedSince } : {}),
    ...(categorySeason ? { categorySeason } : {}),
    // Counted in kg, m or l: forecast in fractions before any decimal sale says so (ADR 0177).
    ...(isMeasureUnit(product.unit) ? { soldByMeasure: true } : {}),
    // Ordered to the hundred grams, not the gram (ADR 0203 F3).
    ...(step !== null ? { orderStep: step } : {}),
    // What the supplier sells: an order due in whole cases, at least the minimum (ADR 0183).
    ...(product.order_multiple !== null ? { orderMultiple: product.order_multiple } : {}),
    ...(product.min_order_quantity !== null ? { minOrderQuantity: product.min_order_quantity } : {}),
  };
}

/**
 * The first day of the catalogue's sales history that a product without sales has been listed
 * for: the day after the last sales day when it was added, else (added before any sale, as a
 * shop's first import adds its range) the catalogue's first sale; no earlier than the history read.
 * The engine calls it new only when that is under four weeks ago (ADR 0108, amended).
 */
function listedSinceOf(product: ProductRows, context: BatchContext): string | null {
  const listed = product.listed_after ? addDays(product.listed_after, 1) : context.firstSale;
  if (!listed) return null;
  return listed > context.since ? listed : context.since;
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** What new products of the category (else of the catalogue) sold in their first weeks, if the last catalogue run found enough of them. */
function newItemPriorOf(category: string | null, calendar: CatalogueCalendar): NewItemPrior | undefined {
  const rates = calendar.newItemRates ?? {};
  const own = category !== null ? rates[category] : undefined;
  if (own) return { rates: own, scope: 'category' };
  const catalogue = rates[CATALOGUE_PROFILE];
  return catalogue ? { rates: catalogue, scope: 'catalogue' } : undefined;
}

/**
 * What the product's header says it has on hand (ADR 0030, amendment 2026-12-04), from the engine's
 * input: the end of the forecast read's walk (stock-line.ts), else — a count dated after the
 * history — the latest count, as it is. Stored with the forecast for the lists and the dashboard.
 */
export function onHandOf(input: ParsedInput, context: Pick<BatchContext, 'since' | 'historyDays'>): OnHand | null {
  const history = emptyHistory(context.historyDays);
  const { days, units } = input.sales;
  for (let i = 0; i < days.length; i++) {
    const day = days[i] as number;
    if (day < history.days) history.sold[day] = units[i] as number;
  }
  const first = input.sales.firstDay;
  for (const count of input.stock) addCount(history, dayNumber(count.ds) - first, count.stock_level);
  for (const delivery of input.deliveries) addDelivery(history, dayNumber(delivery.ds) - first, delivery.quantity);
  const latest = input.stock.at(-1);
  return walkStockLine(history, context.since) ?? (latest ? { units: latest.stock_level, countedUnits: latest.stock_level, countedOn: latest.ds } : null);
}

/** One product: its stored row (see repo.storeForecastRows), or why it could not be forecast. */
export function forecastRow(product: ProductRows, context: BatchContext): BatchResult {
  const input = productInput(product, context);
  const result = forecastProduct(input);
  if (isForecastError(result)) return { code: product.product_code, error: result.error };
  const summary = summariseForecast(result, context.today);
  const row: StoredForecastRow = {
    productId: product.id,
    resultJson: storedForecastJson(result),
    stockoutsJson: JSON.stringify(result.stockouts),
    reorderJson: JSON.stringify(result.reorder),
    modelName: result.model.name,
    onHand: onHandOf(input, context),
    ...summary,
  };
  return { code: product.product_code, stockout: result.stockouts.length > 0, row };
}

export function runItems(items: unknown[], context: unknown): BatchResult[] {
  return (items as ProductRows[]).map((product) => forecastRow(product, context as BatchContext));
}
