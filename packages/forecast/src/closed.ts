import { weekdayOf } from './dates.ts';
import type { EngineResult } from './engine.ts';

const WEEK = 7;
// "A long stretch": the last twelve weeks, of which at least four observed for the weekday.
export const CLOSED_WEEKS = 12;
const MIN_OBSERVED_WEEKS = 4;
// Near no sales: under 5 % of an open day's demand…
const CLOSED_SHARE = 0.05;
// …where the open days' rate makes a run of empty days unlikely by chance: a slow seller with one
// sale a week has many empty Saturdays without the shop being closed. Five expected units over the
// stretch leave a chance of exp(−5) < 1 % that an open weekday sold nothing.
const MIN_EXPECTED_UNITS = 5;
// On a weekday the catalogue trades on, one product's empty weekday is one chance among thousands
// (seven weekdays of every product): a slow seller at half a unit a day has a weekday empty for
// twelve weeks once in 400 (e^-6), and a shop open every day had products "closed on Tuesdays" by
// chance (QA6 #14). There the chance that an open weekday had no sale in the stretch must be under
// e^-20, as for a public holiday (calendar.ts). Read from the days with a sale, not from units: a
// product sold six at a time has far more empty days than its units say.
const TRADING_EVIDENCE = 20;

/**
 * The weekdays the business has (close to) no sales on, as a mask by position in the week
 * (`closed[t % 7]` for day index t of the history). A weekday counts as closed when its recent
 * sales are a tiny share of the other weekdays' and the others sell enough for that not to be chance;
 * far more than enough on the positions `trading` marks (weekdays the whole business trades on).
 */
export function closedWeekdays(values: Float64Array, observed: Uint8Array, trading: readonly boolean[] = []): boolean[] {
  const n = values.length;
  const from = Math.max(0, n - CLOSED_WEEKS * WEEK);
  const sums = new Float64Array(WEEK);
  const counts = new Float64Array(WEEK);
  const sellingDays = new Float64Array(WEEK);
  for (let t = from; t < n; t++) {
    if (!observed[t]) continue;
    sums[t % WEEK] = sums[t % WEEK]! + values[t]!;
    counts[t % WEEK] = counts[t % WEEK]! + 1;
    if (values[t]! > 0) sellingDays[t % WEEK] = sellingDays[t % WEEK]! + 1;
  }
  return Array.from({ length: WEEK }, (_, weekday) => {
    if (counts[weekday]! < MIN_OBSERVED_WEEKS) return false;
    let otherSum = 0;
    let otherCount = 0;
    for (let d = 0; d < WEEK; d++) {
      if (d === weekday) continue;
      otherSum += sums[d]!;
      otherCount += counts[d]!;
    }
    if (otherCount === 0) return false;
    const openRate = otherSum / otherCount;
    const nearNoSales = openRate * counts[weekday]! >= MIN_EXPECTED_UNITS && sums[weekday]! / counts[weekday]! <= CLOSED_SHARE * openRate;
    return nearNoSales && (!trading[weekday] || emptyWeekdayEvidence(sellingDays, counts, weekday) >= TRADING_EVIDENCE);
  });
}

/**
 * −ln of the chance that `weekday`, were it open, had a sale on none of its observed days: its days
 * times −ln of the share of the other weekdays' days without a sale. Other weekdays without any sale
 * are left out: a product sold Monday to Friday only is not made to look slow on Saturday by Sunday.
 */
function emptyWeekdayEvidence(sellingDays: Float64Array, counts: Float64Array, weekday: number): number {
  let selling = 0;
  let days = 0;
  for (let d = 0; d < WEEK; d++) {
    if (d === weekday || sellingDays[d] === 0) continue;
    selling += sellingDays[d]!;
    days += counts[d]!;
  }
  return days === 0 ? 0 : -counts[weekday]! * Math.log(1 - selling / days);
}

/**
 * The product's closed weekdays (closedWeekdays) and those the whole business is closed on
 * (`businessWeekdays`, 0 = Sunday … 6 = Saturday, from the catalogue's calendar), as one mask by
 * position in the week of a history whose first day is `firstDay`. A slow seller's or a new
 * product's own sales are too few to show that the shop shuts on Sundays; the catalogue's show it.
 * With the calendar known (`businessWeekdays` given, even empty), the other weekdays trade: the
 * product's own closure on one of them needs far stronger evidence. Without it, its own sales alone.
 */
export function closedWeekdaysOf(values: Float64Array, observed: Uint8Array, firstDay: number, businessWeekdays?: readonly number[]): boolean[] {
  if (!businessWeekdays) return closedWeekdays(values, observed);
  const businessClosed = Array.from({ length: WEEK }, (_, position) => businessWeekdays.includes(weekdayOf(firstDay + position)));
  const closed = closedWeekdays(values, observed, businessClosed.map((shut) => !shut));
  return closed.map((own, position) => own || businessClosed[position]!);
}

/**
 * Closed weekdays forecast zero with a zero band. With `keepTotal`, what the forecast spread onto
 * them (a level of every day, closed ones included) was sold on the open days, so the open days of
 * the horizon get it back in proportion (their bands scaled alike): the expected total over the
 * horizon is unchanged. Without, the forecast is already an open day's (a short history's average
 * of its open days) and the closed days are only zeroed. `firstIndex` is the history index of the
 * first forecast day. `totalDays`: the days whose total is kept (absent: all) — the horizon shown,
 * when the forecast runs on past it for an order's cover: the share of closed days in those extra
 * days would otherwise change the forecast shown.
 */
export function applyClosedDays(result: EngineResult, closed: boolean[], firstIndex: number, wholeUnits: boolean, options: { keepTotal: boolean; totalDays?: number }): void {
  if (!closed.some(Boolean) || closed.every(Boolean)) return;
  const isClosed = (j: number) => closed[(firstIndex + j) % WEEK]!;
  let total = 0;
  let open = 0;
  for (let j = 0; j < Math.min(result.mean.length, options.totalDays ?? Infinity); j++) {
    total += result.mean[j]!;
    if (!isClosed(j)) open += result.mean[j]!;
  }
  const factor = options.keepTotal && open > 0 ? total / open : 1;
  const bands = [...result.bands.values(), ...result.continuousBands.values()];
  // A Set: without whole units the continuous bands are the same arrays.
  const series = new Set([result.mean, ...bands.flatMap((band) => [band.lower, band.upper])]);
  // Whole-unit bounds stay whole units, rounded outward once scaled (a bound at the forecast itself
  // is not a count, and scales with it).
  const lowerCounts = new Set(wholeUnits ? [...result.bands.values()].map((band) => band.lower) : []);
  const upperCounts = new Set(wholeUnits ? [...result.bands.values()].map((band) => band.upper) : []);
  for (const values of series) {
    for (let j = 0; j < values.length; j++) {
      const value = values[j]!;
      const scaled = value * factor;
      if (isClosed(j)) values[j] = 0;
      else if (!Number.isInteger(value)) values[j] = scaled;
      // `+ 0`: a bound of nothing rounded up from −1e-9 is 0, not −0.
      else values[j] = upperCounts.has(values) ? Math.ceil(scaled - 1e-9) + 0 : lowerCounts.has(values) ? Math.floor(scaled + 1e-9) : scaled;
    }
  }
}
