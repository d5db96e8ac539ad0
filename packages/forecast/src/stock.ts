import { dayNumber, formatDay } from './dates.ts';
import { normalQuantile } from './stats.ts';
import type { Delivery, ForecastRow, ReorderAdvice, SeasonTooLate, StockPoint, StockRow, Stockout } from './types.ts';

export type StockStart = { day: number; level: number };

/**
 * How many days after the first forecast day a count may be dated and still be the stock on hand
 * now. A count is dated in its writer's day (a browser's zone, an import's) and the forecast starts
 * on the shop's (ADR 0173): two zones' days differ by up to two dates (UTC−12 to UTC+14 is 26
 * hours), so a count typed this minute by someone ahead of the shop is dated its tomorrow or the
 * day after. Later counts are not history yet (data whose sales end in the past).
 */
export const COUNT_AHEAD_DAYS = 2;

/**
 * Stock on hand at the end of the last history day: the latest snapshot, minus
 * the sales recorded after it, plus deliveries dated after it (a snapshot on the
 * first forecast day, or up to COUNT_AHEAD_DAYS after it, is taken as is). Null
 * when no usable snapshot exists (the projection is then left empty).
 */
export function stockAtHistoryEnd(stock: StockPoint[] | undefined, deliveries: Delivery[] | undefined, salesAfter: (fromDay: number) => number, lastHistoryDay: number): StockStart | null {
  let latest: StockStart | null = null;
  for (const point of stock ?? []) {
    const day = dayNumber(point?.ds);
    // A snapshot taken on the first forecast day (stock counted this morning, sales known
    // up to yesterday) is the opening stock, as is one dated by a clock ahead of the shop's.
    if (Number.isNaN(day) || day > lastHistoryDay + 1 + COUNT_AHEAD_DAYS || typeof point.stock_level !== 'number' || !Number.isFinite(point.stock_level)) continue;
    if (!latest || day >= latest.day) latest = { day, level: point.stock_level };
  }
  if (!latest) return null;
  let level = latest.day > lastHistoryDay ? latest.level : latest.level - salesAfter(latest.day + 1);
  for (const [day, quantity] of deliveriesByDay(deliveries)) if (day > latest.day && day <= lastHistoryDay) level += quantity;
  return { day: lastHistoryDay, level };
}

export function deliveriesByDay(deliveries: Delivery[] | undefined): Map<number, number> {
  const byDay = new Map<number, number>();
  for (const delivery of deliveries ?? []) {
    const day = dayNumber(delivery?.ds);
    const quantity = delivery?.quantity;
    if (Number.isNaN(day) || typeof quantity !== 'number' || !Number.isFinite(quantity)) continue;
    byDay.set(day, (byDay.get(day) ?? 0) + quantity);
  }
  return byDay;
}

/** The stock band is the central 95 % of cumulative demand: "may run out" means a 2.5 % chance or more. */
export const STOCK_BAND_TAIL = 0.025;

/**
 * Daily forecast error (one standard deviation) read back from the continuous 95 % band: its
 * upper half-width / z(0.975) — the upper half because the lower one is clipped at zero — and
 * / `widening`, the factor the band was widened by (calibratedInflation(0.95) for a validated
 * model). A day's band is widened because the chosen model's validation errors are optimistic
 * in the tails; the stock band's tails come from the sum of many days, whose spread the
 * unwidened errors give (bench/stock-band: 0.1–0.8 % below stock_lower with the widened σ
 * instead of 2.5 %, ADR 0110).
 */
export function dailySigmas(forecast: ForecastRow[], continuousUpper95: ArrayLike<number>, widening = 1): Float64Array {
  const z = normalQuantile(1 - STOCK_BAND_TAIL) * widening;
  const sigmas = new Float64Array(forecast.length);
  for (let j = 0; j < sigmas.length; j++) sigmas[j] = Math.max(0, (continuousUpper95[j]! - forecast[j]!.yhat) / z);
  return sigmas;
}

/**
 * How much of the validated error correlation the stock band uses. Eight overlapping origins
 * measure it noisily (on 20 simulated histories of one Poisson process the implied 90-day spread
 * ranged 2–3×), and a band that follows each overestimate is too wide on average: with all of it,
 * 0.9–1.9 % of simulated futures fell below stock_lower, with none 2.2–3.9 %, with 0.3 of it
 * 1.8–2.3 % (nominal 2.5 %; rates 2 and 20 a day, 14–90 days; ADR 0110).
 */
const ERROR_CORRELATION_SHARE = 0.3;

/**
 * stock_level[t] = start − Σ yhat + Σ deliveries. The band comes from the distribution of
 * cumulative demand, not from subtracting each day's extreme bound (after 90 days that would be
 * the chance of every day being extreme at once, essentially nil): daily errors share one
 * correlation `errorCorrelation` (measured on the validation origins: a level that is off is off
 * every day; ERROR_CORRELATION_SHARE of it), so the variance of the sum is the sum of the
 * variances plus that share of the covariances, and the bounds are the
 * central 95 % of that sum (normal, demand never below zero). stock_lower crossing zero then
 * means a 2.5 % chance of having run out by that day.
 */
export function projectStock(start: StockStart, forecast: ForecastRow[], deliveries: Map<number, number>, sigmas: ArrayLike<number>, errorCorrelation = 0): StockRow[] {
  const z = normalQuantile(1 - STOCK_BAND_TAIL);
  let level = start.level;
  let demand = 0;
  let sumOfVariances = 0;
  let sumOfSigmas = 0;
  return forecast.map((row, j) => {
    level += (deliveries.get(start.day + 1 + j) ?? 0) - row.yhat;
    demand += row.yhat;
    sumOfVariances += sigmas[j]! ** 2;
    sumOfSigmas += sigmas[j]!;
    // Var(Σ e) = Σ σ² + ρ·Σ_{i≠j} σᵢσⱼ, and Σ_{i≠j} σᵢσⱼ = (Σ σ)² − Σ σ².
    const variance = sumOfVariances + ERROR_CORRELATION_SHARE * errorCorrelation * (sumOfSigmas ** 2 - sumOfVariances);
    const halfWidth = z * Math.sqrt(variance);
    return { ds: row.ds, stock_level: level, stock_upper: level + Math.min(demand, halfWidth), stock_lower: level - halfWidth };
  });
}

/**
 * Every day the projected stock (or its pessimistic bound) goes from above zero to zero or below.
 * A product that is out already (none on hand, or fewer than none: sold before it was counted)
 * runs out on the first day demand is expected and finds none: it crossed zero before the
 * forecast began, and without that day a shelf that is empty now would read "no stockout expected"
 * beside an order to place today.
 */
export function findStockouts(start: StockStart, rows: StockRow[]): Stockout[] {
  const stockouts: Stockout[] = [];
  const paths = [
    { type: 'stockForecast', level: (row: StockRow) => row.stock_level },
    { type: 'stockLowerBound', level: (row: StockRow) => row.stock_lower },
  ] as const;
  for (const path of paths) {
    let previous = start.level;
    let outAlready = start.level <= 0;
    for (const row of rows) {
      const current = path.level(row);
      const unmet = outAlready && current < previous;
      if (current <= 0 && (previous > 0 || unmet)) stockouts.push({ date: row.ds, type: path.type });
      // Until a delivery lifts it above zero or the first demand meets the empty shelf.
      if (current > 0 || unmet) outAlready = false;
      previous = current;
    }
  }
  return stockouts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export type ReorderInputs = {
  /** Demand from the first forecast day: the days an order may be due and, after them, its lead time and review period (uncut cover). */
  forecast: ForecastRow[];
  /** Upper bound of the 95% band per forecast day before whole units (EngineResult.continuousBands). */
  continuousUpper95: ArrayLike<number>;
  start: StockStart | null;
  /** The stock projected over `forecast`'s days. */
  projection: StockRow[];
  /** The days an order may be due on (the horizon shown); absent: every forecast day. */
  orderDays?: number;
  deliveries: Map<number, number>;
  leadTimeDays: number;
  serviceLevel: number;
  reviewPeriodDays: number;
  /** A season-only item's season (season-only.ts); absent for every other item. */
  season?: SeasonSpan;
  /** Whether the business is closed on a day (day number): a closed weekday or a holiday closure. */
  isClosed?: (day: number) => boolean;
  /** Sold in whole units (absent: so): quantities rounded up to whole units, else to a thousandth (0.25 kg, ADR 0176). */
  wholeUnits?: boolean;
  /** What the supplier sells: an order due is rounded up to them (ADR 0183). Absent: any quantity. */
  supplier?: SupplierTerms;
  /**
   * The step a buyer orders a product by measure in (0.1 for a kg, ADR 0203 F3): the order, its
   * need, the reorder point and the safety stock are rounded up to it. Absent: whole units or thousandths (`wholeUnits`).
   */
  orderStep?: number;
};

/** The supplier's case size (orders in whole multiples of it) and minimum order, each above 0 where given (ADR 0183). */
export type SupplierTerms = { orderMultiple?: number | undefined; minOrderQuantity?: number | undefined };

/** The season's first and last selling days as the last 365 days place them (day numbers), and whether a day number falls on its dates in any year. */
export type SeasonSpan = { from: number; to: number; isOn: (day: number) => boolean };

/**
 * Reorder point = forecast demand over the lead time + safety stock, where
 * safety stock = z(service level) · σ_daily · √(lead time), σ_daily being the
 * (root mean square) forecast error over the lead time — a season-only item's over its season's
 * selling days (seasonSigma) — read back from the continuous 95% band (its upper half-width
 * / 1.96; the upper half because the lower one is clipped at zero; continuous
 * because whole-unit bounds are rounded day by day, and a sum over the lead
 * time is not). A season-only item's order is buffered over no more days than its season still
 * sells from the arrival: √(selling days left) where fewer than the lead time (seasonSafetyDays).
 * Order by the first day the projected stock reaches the reorder
 * point, or the last open day before it when the business is closed that day; order
 * enough to cover the lead time plus a review period and the safety stock.
 */
export function reorderAdvice(inputs: ReorderInputs): ReorderAdvice {
  const { forecast, continuousUpper95, start, projection, deliveries, leadTimeDays, serviceLevel, reviewPeriodDays } = inputs;
  const { orderStep } = inputs;
  const up = orderStep === undefined ? roundValueUp(inputs.wholeUnits === false ? 1000 : 1) : (value: number) => multiplesOf(multiplesHolding(value, orderStep), orderStep);
  // Every advice names the supplier's terms it was made under; only an order due is rounded to them.
  const terms = supplierTermsOf(inputs.supplier);
  const round = (advice: ReorderAdvice): ReorderAdvice => ({ ...roundUp(up)(advice), ...terms });
  const lead = Math.min(leadTimeDays, forecast.length);
  const z = normalQuantile(serviceLevel);
  const sigmas = dailySigmas(forecast, continuousUpper95);
  const orderDays = Math.min(inputs.orderDays ?? forecast.length, forecast.length);
  const dailySigma = (inputs.season && seasonSigma(forecast, sigmas, inputs.season, orderDays)) ?? rootMeanSquare(sigmas, (j) => j < lead);
  const safetyDays = inputs.season ? seasonSafetyDays(forecast, inputs.season, leadTimeDays) : null;
  // The safety stock of an order placed on forecast day `orderDay`: the lead time's, or fewer days' for a season's last orders.
  const safetyStockOrderedOn = (orderDay: number): number => Math.max(0, z * dailySigma * Math.sqrt(safetyDays?.[orderDay + leadTimeDays] ?? leadTimeDays));
  const demandOver = (from: number, days: number): number => {
    let sum = 0;
    for (let j = from; j < Math.min(forecast.length, from + days); j++) sum += forecast[j]!.yhat;
    return sum;
  };
  // The advice's safety stock and reorder point are those of an order placed today, or, where one is due later, of that order.
  const advised = (orderDay: number) => {
    const safetyStock = safetyStockOrderedOn(orderDay);
    return { safetyStock, reorderPoint: demandOver(0, leadTimeDays) + safetyStock };
  };
  if (!start) {
    const { reorderPoint, safetyStock } = advised(0);
    return round({ reorderPoint, safetyStock, orderQuantity: demandOver(0, leadTimeDays + reviewPeriodDays) + safetyStock, orderBy: null, leadTimeDays, serviceLevel });
  }
  let orderDay = -1;
  for (let j = -1; j < Math.min(projection.length, orderDays); j++) {
    const onHand = j < 0 ? start.level : projection[j]!.stock_level;
    if (onHand <= demandOver(j + 1, leadTimeDays) + safetyStockOrderedOn(j + 1)) {
      orderDay = j + 1;
      break;
    }
  }
  if (orderDay < 0 || orderDay >= orderDays) {
    return round({ ...advised(0), orderQuantity: 0, orderBy: null, leadTimeDays, serviceLevel });
  }
  const { reorderPoint, safetyStock } = advised(orderDay);
  const arrival = orderDay + leadTimeDays;
  const coverEnd = arrival + reviewPeriodDays;
  const deliveredBetween = (from: number, to: number): number => {
    let sum = 0;
    for (let j = from; j < to; j++) sum += deliveries.get(start.day + 1 + j) ?? 0;
    return sum;
  };
  // A season-only item's customers do not wait for a delivery: what its shelf cannot meet before the
  // order arrives is lost, and after the season nobody buys it. So its order covers the demand from the
  // arrival to the end of the cover, less what is left on the shelf then (ADR 0126, amendment
  // 2026-12-04). Every other item keeps order-up-to over the lead time and review period (ADR 0072).
  const seasonal = inputs.season !== undefined && arrival < forecast.length;
  const demandFromArrival = demandOver(arrival, reviewPeriodDays);
  if (seasonal && demandFromArrival <= 1e-9) {
    return round({ reorderPoint, safetyStock, orderQuantity: 0, orderBy: null, leadTimeDays, serviceLevel, tooLateForSeason: tooLateForSeason(inputs.season!, start.day + 1 + arrival, leadTimeDays) });
  }
  const need = seasonal
    ? demandFromArrival + safetyStock - Math.max(0, arrival === 0 ? start.level : projection[arrival - 1]!.stock_level) - deliveredBetween(arrival, coverEnd)
    : demandOver(orderDay, leadTimeDays + reviewPeriodDays) + safetyStock - Math.max(0, orderDay === 0 ? start.level : projection[orderDay - 1]!.stock_level) - deliveredBetween(orderDay, coverEnd);
  const shortfall = shortfallFromArrival(start, projection, arrival, coverEnd);
  const orderQuantity = Math.max(need, shortfall);
  // Nothing to order (scheduled deliveries cover it): no order-by date either.
  if (orderQuantity > 1e-9) {
    const advice = inSupplierTerms(round({ reorderPoint, safetyStock, orderQuantity, orderBy: formatDay(openDayOnOrBefore(start.day + 1 + orderDay, start.day + 1, inputs.isClosed)), leadTimeDays, serviceLevel }), orderQuantity, up);
    if (!seasonal || advice.orderQuantityNeeded === undefined) return advice;
    // What the supplier's terms added beyond the need, less what the rest of the season takes after the order's cover.
    const rest = restOfSeason(inputs.season!, forecast, deliveries, start.day + 1, arrival, coverEnd);
    const left = rest === null ? 0 : advice.orderQuantity - advice.orderQuantityNeeded - Math.max(0, rest);
    return left > 1e-9 ? { ...advice, leftAfterSeason: up(left) } : advice;
  }
  // The stockout the screen shows: within the horizon.
  const onOrderArrives = lateDelivery(start, projection.slice(0, orderDays), deliveries);
  return round({ reorderPoint, safetyStock, orderQuantity: 0, orderBy: null, leadTimeDays, serviceLevel, ...(onOrderArrives ? { onOrderArrives } : {}) });
}

/**
 * `day`, or the last open day before it: nobody is in to place an order on a day the business is
 * closed, so an order due then is placed the trading day before. Never before `firstDay` (the first
 * forecast day): an order due by then is due now, whatever the day.
 */
function openDayOnOrBefore(day: number, firstDay: number, isClosed: ((day: number) => boolean) | undefined): number {
  let open = day;
  while (isClosed && open > firstDay && isClosed(open)) open -= 1;
  return open;
}

/** The root mean square of the `sigmas` whose index `counts`; 0 for none. */
function rootMeanSquare(sigmas: Float64Array, counts: (j: number) => boolean): number {
  let variance = 0;
  let days = 0;
  for (let j = 0; j < sigmas.length; j++) {
    if (!counts(j)) continue;
    variance += sigmas[j]! ** 2;
    days++;
  }
  return days > 0 ? Math.sqrt(variance / days) : 0;
}

/**
 * A season-only item's daily forecast error over the season's selling days in the horizon (its first `days`); null
 * when the horizon holds none. Its order is placed for the season, often from the off-season, whose
 * days forecast nothing with no spread: read from the lead time from today, its buffer was nothing.
 */
function seasonSigma(forecast: ForecastRow[], sigmas: Float64Array, season: SeasonSpan, days: number): number | null {
  const sells = sellingDay(forecast, season);
  const selling = (j: number) => j < days && sells(j);
  return forecast.some((_, j) => selling(j)) ? rootMeanSquare(sigmas, selling) : null;
}

/** Whether the forecast's day `j` is one of the season's selling days: on its dates and forecast above 0 (a closed day is none). */
function sellingDay(forecast: ForecastRow[], season: SeasonSpan): (j: number) => boolean {
  const firstDay = dayNumber(forecast[0]?.ds);
  return (j) => season.isOn(firstDay + j) && forecast[j]!.yhat > 0;
}

/**
 * The days a season-only item's safety stock is sized over for an order arriving on forecast day
 * `j` (the array's index): the lead time, or the season's selling days left from the arrival where
 * fewer — newsvendor reasoning: the safety stock meets demand above the forecast, and what of it the
 * season has no days left to sell is left over until next season, when an advent calendar is no
 * longer sold (ADR 0201 F9). Selling days are seasonSigma's (sellingDay). An arrival between
 * seasons counts the next season's days. Undefined where the season runs on past the forecast (its
 * end unknown): the lead time's.
 */
function seasonSafetyDays(forecast: ForecastRow[], season: SeasonSpan, leadTimeDays: number): (number | undefined)[] {
  const firstDay = dayNumber(forecast[0]?.ds);
  const sells = sellingDay(forecast, season);
  const days: (number | undefined)[] = new Array(forecast.length);
  // Walked from the end: the selling days from each day to the end of its season (or of the next one).
  let left: number | undefined;
  let offSeasonAfter = false;
  for (let j = forecast.length - 1; j >= 0; j--) {
    if (!season.isOn(firstDay + j)) offSeasonAfter = true;
    else {
      if (offSeasonAfter) left = 0;
      offSeasonAfter = false;
      if (left !== undefined && sells(j)) left++;
    }
    days[j] = left === undefined ? undefined : Math.min(leadTimeDays, left);
  }
  return days;
}

/**
 * An order for a season-only item that arrives (day number `arrivalDay`) after the season: when it
 * would arrive, the season's dates, and the day next season's buying starts — the season's next first
 * date on or after the arrival, less the lead time (the order-by date a stock of nothing would have).
 */
function tooLateForSeason(season: SeasonSpan, arrivalDay: number, leadTimeDays: number): SeasonTooLate {
  let day = arrivalDay;
  // Past the season's dates (a closed day at its end forecasts nothing), then on to the next season's first.
  while (season.isOn(day) && day < arrivalDay + 366) day++;
  const offFrom = day;
  while (!season.isOn(day) && day < offFrom + 366) day++;
  return { arrives: formatDay(arrivalDay), seasonFrom: formatDay(season.from), seasonTo: formatDay(season.to), nextOrderFrom: formatDay(day - leadTimeDays) };
}

/**
 * The first delivery on or after the expected stockout, when the stock runs out before it: the
 * advice orders nothing (that delivery covers what an order could), and says why the stockout
 * stays — so a warning never stands without advice (ADR 0072, amendment 2026-12-04).
 */
function lateDelivery(start: StockStart, projection: StockRow[], deliveries: Map<number, number>): string | null {
  const stockout = findStockouts(start, projection).find((s) => s.type === 'stockForecast');
  if (!stockout) return null;
  for (let day = dayNumber(stockout.date); day <= start.day + projection.length; day++) if ((deliveries.get(day) ?? 0) > 0) return formatDay(day);
  return null;
}

/**
 * An order by a date is never for nothing: where deliveries already cover the safety stock but the
 * expected path still runs dry, order at least the shortfall — but only the shortfall an order placed
 * now can fix: from its arrival (index `arrival`) to `end`. Demand before it arrives that nothing
 * on hand meets is lost whatever is ordered now (the screen says to hurry the delivery); counting it
 * ordered it again at every run, so pressing "Create the recommended orders" twice doubled the orders
 * (QA4 #4). The projection carries that lost demand as stock below zero, so the path from the
 * arrival on is measured from what is really left then: nothing, when the stock is below zero.
 */
function shortfallFromArrival(start: StockStart, projection: StockRow[], arrival: number, end: number): number {
  if (arrival >= projection.length) return 0;
  const before = arrival === 0 ? start.level : projection[arrival - 1]!.stock_level;
  const lost = Math.max(0, -before);
  let shortfall = 0;
  for (let j = arrival; j < Math.min(projection.length, end); j++) shortfall = Math.max(shortfall, -(projection[j]!.stock_level + lost));
  return shortfall;
}

/**
 * Stock comes in whole units, or in thousandths of a kilo or metre for a product sold by weight or
 * length (`steps` per unit), where no order step is given: quantities are rounded up, so rounding
 * never lowers the service level.
 */
const roundValueUp = (steps: number) => (value: number) => Math.ceil(value * steps - 1e-9) / steps;

const roundUp =
  (up: (value: number) => number) =>
  (advice: ReorderAdvice): ReorderAdvice => ({ ...advice, reorderPoint: up(advice.reorderPoint), safetyStock: up(advice.safetyStock), orderQuantity: Math.max(0, up(advice.orderQuantity)) });

/** The terms an advice names: those given (forecastProduct refuses any not above 0). */
const supplierTermsOf = (supplier: SupplierTerms | undefined): SupplierTerms => ({
  ...(supplier?.orderMultiple !== undefined ? { orderMultiple: supplier.orderMultiple } : {}),
  ...(supplier?.minOrderQuantity !== undefined ? { minOrderQuantity: supplier.minOrderQuantity } : {}),
});

/**
 * How far a need may pass a whole number of cases and still fill them: the forecast's sums carry
 * floating-point noise, and 48.0000001 needed is 2 cases of 24, not 3.
 */
const CASE_TOLERANCE = 1e-6;

/** How many multiples of `step` (a case, or a product's order step) hold `value`: rounded up. */
const multiplesHolding = (value: number, step: number): number => Math.max(0, Math.ceil((value - CASE_TOLERANCE) / step));

/** `count` multiples of `step`, to a thousandth, the places a quantity has (ADR 0176): 3 × 0.1 is 0.3, not 0.30000000000000004. */
const multiplesOf = (count: number, step: number): number => Math.round(count * step * 1000) / 1000;

/**
 * An order due, as the supplier sells it (ADR 0183): the fewest whole cases that hold both the need
 * and the supplier's minimum — max(minimum, ⌈need / case⌉ × case) wherever the minimum is itself
 * whole cases — and without a case size, at least the minimum in the product's own steps (`up`). Always up,
 * never to the nearest case: fewer than needed runs out before the next order. `need` is before any
 * rounding; the advice's quantity is it in the product's own steps, kept as
 * `orderQuantityNeeded` where the terms made the order larger.
 */
function inSupplierTerms(advice: ReorderAdvice, need: number, up: (value: number) => number): ReorderAdvice {
  const { orderMultiple: multiple, minOrderQuantity: minimum } = advice;
  if (multiple === undefined && minimum === undefined) return advice;
  const needed = advice.orderQuantity;
  const least = Math.max(need, minimum ?? 0);
  const ordered = multiple === undefined ? up(least) : multiplesOf(Math.max(1, multiplesHolding(least, multiple)), multiple);
  return ordered > needed ? { ...advice, orderQuantity: ordered, orderQuantityNeeded: needed } : { ...advice, orderQuantity: ordered };
}

/**
 * A season-only item's demand after an order's cover (forecast index `coverEnd`) to the end of the
 * season the order arrives for (at index `arrival`, or the first season after it), less the
 * deliveries due by then; 0 when the cover reaches the season's end; null when the season runs on
 * past the forecast (its end unknown). `firstDay`: the day number of the first forecast day.
 */
function restOfSeason(season: SeasonSpan, forecast: ForecastRow[], deliveries: Map<number, number>, firstDay: number, arrival: number, coverEnd: number): number | null {
  let end = arrival;
  while (end < forecast.length && !season.isOn(firstDay + end)) end++;
  while (end < forecast.length && season.isOn(firstDay + end)) end++;
  if (end >= forecast.length) return null;
  let rest = 0;
  for (let j = coverEnd; j < end; j++) rest += forecast[j]!.yhat - (deliveries.get(firstDay + j) ?? 0);
  return rest;
}
