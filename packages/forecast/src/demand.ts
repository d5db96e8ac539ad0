import { dayNumber } from './dates.ts';
import { closedDayNumbers } from './holidays.ts';
import { MIN_MODEL_DAYS } from './short.ts';
import { deliveriesByDay } from './stock.ts';
import type { DemandClass, EventRegressor, ProductForecastInput } from './types.ts';

/** The sales history turned into one value per day, with what we know about each day. */
export type DemandHistory = {
  firstDay: number;
  /** Daily demand estimate; censored and missing days are imputed. */
  values: Float64Array;
  /** 1 where the value is a real observation of demand, 0 where it was imputed. */
  observed: Uint8Array;
  /**
   * Units sold on days that ended out of stock (0 on other days), when there were any, in a history
   * shorter than MIN_MODEL_DAYS or one that sold on such days only: demand was at least that. Only
   * those histories' averages read it (shortHistoryForecast).
   */
  soldOutUnits?: Float64Array;
};

// Three years is enough for weekly and yearly patterns; older data slows every
// model and describes a business that has moved on.
export const MAX_HISTORY_DAYS = 3 * 365;
const IMPUTATION_WINDOW_DAYS = 28;

/**
 * Builds the daily demand series. Days with no sales row are zero sales (the
 * usual convention for transaction logs). Days the stock history shows the
 * product out of stock are censored — zero sales there say nothing about
 * demand — and NaN sales are unknown; both are imputed so they do not drag the
 * forecast down, and marked so they are not scored.
 */
export function buildDemandHistory(input: ProductForecastInput): DemandHistory | { error: string } {
  // Dense arrays indexed by day rather than maps keyed by day: a product has one
  // row per day, and this runs for every product of a catalogue.
  const { days, units } = salesByDay(input.sales);
  let firstKnown = Infinity;
  let lastKnown = -Infinity;
  for (const day of days) {
    if (Number.isNaN(day)) continue;
    if (day < firstKnown) firstKnown = day;
    if (day > lastKnown) lastKnown = day;
  }
  if (firstKnown === Infinity) return { error: 'No sales rows with a valid YYYY-MM-DD date.' };
  let lastDay = lastKnown;
  const today = input.today === undefined ? NaN : dayNumber(input.today);
  if (input.today !== undefined && Number.isNaN(today)) return { error: `today is not a valid YYYY-MM-DD date: ${String(input.today)}` };
  if (!Number.isNaN(today)) lastDay = Math.max(lastDay, today - 1);
  const firstDay = Math.max(firstKnown, lastDay - MAX_HISTORY_DAYS + 1);
  const length = lastDay - firstDay + 1;

  const values = new Float64Array(length);
  const hasSales = new Uint8Array(length);
  const unknown = new Uint8Array(length);
  for (let i = 0; i < days.length; i++) {
    const t = days[i]! - firstDay;
    if (!(t >= 0)) continue;
    const y = units[i];
    if (typeof y !== 'number' || !Number.isFinite(y)) {
      unknown[t] = 1;
      continue;
    }
    // Negative sales are returns; demand that day was at least zero.
    values[t] = values[t]! + Math.max(0, y);
    hasSales[t] = 1;
  }
  const stockouts = stockoutDays(input, firstDay, length, values);
  const observed = new Uint8Array(length);
  let observedSales = false;
  for (let t = 0; t < length; t++) {
    observed[t] = (unknown[t] && !hasSales[t]) || stockouts[t] === 1 ? 0 : 1;
    if (observed[t] && values[t]! > 0) observedSales = true;
  }
  // Kept for the histories that read them only (short ones, and those whose every sale came on a
  // day that sold out): a catalogue's other histories skip the copy.
  let soldOutUnits: Float64Array | undefined;
  if (length < MIN_MODEL_DAYS || !observedSales) {
    for (let t = 0; t < length; t++) if (stockouts[t] === 1 && values[t]! > 0) (soldOutUnits ??= new Float64Array(length))[t] = values[t]!;
  }
  // A day the business was closed (a public holiday) says nothing about demand either.
  for (const day of closedDayNumbers(input.closedDates)) {
    if (day < firstDay || day >= firstDay + length) continue;
    observed[day - firstDay] = 0;
    if (soldOutUnits) soldOutUnits[day - firstDay] = 0;
  }
  imputeUnobserved(values, observed);
  return { firstDay, values, observed, soldOutUnits };
}

/** Each sales row's day number (NaN for an invalid date) and units, from either form of ProductForecastInput.sales. */
function salesByDay(sales: ProductForecastInput['sales']): { days: Float64Array; units: ArrayLike<unknown> } {
  const rows = Array.isArray(sales);
  const days = new Float64Array(salesCount(sales));
  // Plain loops: Float64Array.from with a mapping function was about 4 % of a product.
  if (!rows) {
    for (let i = 0; i < days.length; i++) days[i] = sales.firstDay + sales.days[i]!;
    return { days, units: sales.units };
  }
  const units: unknown[] = new Array(days.length);
  for (let i = 0; i < days.length; i++) {
    days[i] = dayNumber(sales[i]?.ds);
    units[i] = sales[i]?.y;
  }
  return { days, units };
}

/** Rows in either form of ProductForecastInput.sales. */
export function salesCount(sales: ProductForecastInput['sales']): number {
  return Array.isArray(sales) ? sales.length : sales.days.length;
}

/**
 * The days out of stock. Stock snapshots are sparse: a level holds until the next snapshot — but an
 * empty shelf does not outlast the evidence against it: a later day with a sale or a delivery means
 * the product was back (a shop that counted zero once and restocked without counting again). The
 * day of a zero count itself stays out of stock, whatever it sold: it sold out.
 */
function stockoutDays(input: ProductForecastInput, firstDay: number, length: number, sold: Float64Array): Uint8Array {
  const out = new Uint8Array(length);
  const snapshots = (input.stock ?? [])
    .map((point) => ({ day: dayNumber(point?.ds), level: point?.stock_level }))
    .filter((point): point is { day: number; level: number } => !Number.isNaN(point.day) && typeof point.level === 'number' && Number.isFinite(point.level))
    .sort((a, b) => a.day - b.day);
  if (!snapshots.some((point) => point.level <= 0)) return out;
  const delivered = deliveriesByDay(input.deliveries);
  let next = 0;
  let empty = false;
  for (let t = 0; t < length; t++) {
    const day = firstDay + t;
    let counted = false;
    while (next < snapshots.length && snapshots[next]!.day <= day) {
      const snapshot = snapshots[next++]!;
      empty = snapshot.level <= 0;
      counted = snapshot.day === day;
    }
    if (empty && !counted && (sold[t]! > 0 || (delivered.get(day) ?? 0) > 0)) empty = false;
    if (empty) out[t] = 1;
  }
  return out;
}

/**
 * Imputes unobserved days with the mean of observed same-weekday values within
 * four weeks either side — the weekday keeps the weekly shape, the window keeps
 * the local level.
 */
function imputeUnobserved(values: Float64Array, observed: Uint8Array): void {
  let overallSum = 0;
  let overallCount = 0;
  for (let t = 0; t < values.length; t++) {
    if (!observed[t]) continue;
    overallSum += values[t]!;
    overallCount++;
  }
  const overall = overallCount > 0 ? overallSum / overallCount : 0;
  for (let t = 0; t < values.length; t++) {
    if (observed[t]) continue;
    let sum = 0;
    let count = 0;
    for (let offset = 7; offset <= IMPUTATION_WINDOW_DAYS; offset += 7) {
      for (const u of [t - offset, t + offset]) {
        if (u < 0 || u >= values.length || !observed[u]) continue;
        sum += values[u]!;
        count++;
      }
    }
    values[t] = count > 0 ? sum / count : overall;
  }
}

/**
 * Syntetos–Boylan–Croston classification on observed days: ADI (days per
 * non-zero demand) against 1.32 and CV² of the non-zero sizes against 0.49.
 */
export function classifyDemand(values: ArrayLike<number>, observed?: Uint8Array): { demandClass: DemandClass; adi: number; cv2: number } {
  let days = 0;
  const sizes: number[] = [];
  for (let t = 0; t < values.length; t++) {
    if (observed && !observed[t]) continue;
    days++;
    if (values[t]! > 0) sizes.push(values[t]!);
  }
  const adi = sizes.length > 0 ? days / sizes.length : Infinity;
  let cv2 = 0;
  if (sizes.length > 1) {
    const mu = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    const variance = sizes.reduce((a, b) => a + (b - mu) ** 2, 0) / sizes.length;
    cv2 = variance / (mu * mu);
  }
  const frequent = adi < 1.32;
  const stable = cv2 < 0.49;
  const demandClass: DemandClass = frequent ? (stable ? 'smooth' : 'erratic') : stable ? 'intermittent' : 'lumpy';
  return { demandClass, adi, cv2 };
}

/**
 * Multiplicative uplift of each event, learnt from its past days against the
 * surrounding two weeks, and shrunk towards "no effect" when only a few past
 * days exist (five past days give half the measured effect).
 */
export function eventUplifts(events: EventRegressor[], history: DemandHistory): Map<number, number> {
  const dayUplift = new Map<number, number>();
  const n = history.values.length;
  for (const event of events) {
    const days = new Set((event?.dates ?? []).map(dayNumber).filter((day) => !Number.isNaN(day)));
    let actual = 0;
    let baseline = 0;
    let count = 0;
    for (const day of days) {
      const t = day - history.firstDay;
      if (t < 0 || t >= n || !history.observed[t]) continue;
      let sum = 0;
      let samples = 0;
      for (let u = Math.max(0, t - 7); u <= Math.min(n - 1, t + 7); u++) {
        if (u === t || !history.observed[u] || days.has(history.firstDay + u)) continue;
        sum += history.values[u]!;
        samples++;
      }
      if (samples === 0) continue;
      actual += history.values[t]!;
      baseline += sum / samples;
      count++;
    }
    if (count === 0 || baseline <= 0) continue;
    const weight = count / (count + 5);
    const uplift = Math.max(0, 1 + weight * (actual / baseline - 1));
    for (const day of days) dayUplift.set(day, (dayUplift.get(day) ?? 1) * uplift);
  }
  return dayUplift;
}
