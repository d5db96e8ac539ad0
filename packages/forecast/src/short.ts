import type { Band, EngineResult } from './engine.ts';
import { normalQuantile, quantile } from './stats.ts';
import type { NewItemPrior } from './types.ts';

/** Below this many days of history no model is compared: weekday shape and validation need four weeks. */
export const MIN_MODEL_DAYS = 28;
// A product with no history at all: nothing is known but that it is for sale. A rate of one unit a
// day is the prior its band is drawn from (80 % band 0–2, 95 % band 0–3 units a day): wide enough
// to say "we do not know", small enough not to turn every new product into a stockout warning.
const NEW_ITEM_PRIOR_RATE = 1;
// With only a few days, the level itself is uncertain: the band is widened by this much.
const SHORT_HISTORY_WIDENING = 1.5;

const daysText = (count: number) => (count === 1 ? '1 day' : `${count} days`);

/** Smallest k with P(Poisson(rate) ≤ k) ≥ p. */
export const poissonQuantile = (rate: number, p: number): number => poissonMixtureQuantile([rate], p);

function flatResult(modelName: string, description: string, level: number, horizon: number, bounds: Map<number, [number, number]>): EngineResult {
  const bands = new Map<number, Band>();
  for (const [confidence, [lower, upper]] of bounds) bands.set(confidence, { lower: new Float64Array(horizon).fill(lower), upper: new Float64Array(horizon).fill(upper) });
  return { modelName, description, mean: new Float64Array(horizon).fill(level), bands, continuousBands: bands, validation: null };
}

/** Zero sales on every day we know of, or no days at all: a zero forecast, with a Poisson band. */
function zeroDemandForecast(days: number, horizon: number, levels: number[]): EngineResult {
  // Rule of three: after n days without a sale, a rate of up to 3/n a day is still plausible (95 %).
  const rate = days > 0 ? Math.min(NEW_ITEM_PRIOR_RATE, 3 / days) : NEW_ITEM_PRIOR_RATE;
  const bounds = new Map(levels.map((level): [number, [number, number]] => [level, [0, poissonQuantile(rate, (1 + level) / 2)]]));
  return days > 0
    ? flatResult('Zero', `No sales in the ${daysText(days)} of history, so no demand is expected; the band shows the few sales that would still not be surprising.`, 0, horizon, bounds)
    : flatResult('NewProduct', 'No sales history yet: no demand is forecast, with a wide band until sales come in.', 0, horizon, bounds);
}

// A single day above this many times the median selling day counts as that much (ADR 0135): one
// launch-day or bulk order does not set the level of the days after it. Two such days or more are
// demand that has moved, and count in full.
const SPIKE_CAP_MEDIANS = 3;

/**
 * What a short history says about its days' demand: the observed days' units, and the days it sold
 * out at what they sold, or the estimate for that day where higher (demand was at least that;
 * ADR 0135). Out-of-stock days without a sale say nothing and are left out.
 */
function knownDays(values: Float64Array, observed: Uint8Array, soldOutUnits: Float64Array | undefined): { days: number[]; soldOut: number } {
  const days: number[] = [];
  let soldOut = 0;
  for (let t = 0; t < values.length; t++) {
    if (observed[t]) days.push(values[t]!);
    else if (soldOutUnits && soldOutUnits[t]! > 0) {
      days.push(Math.max(soldOutUnits[t]!, values[t]!));
      soldOut++;
    }
  }
  return { days, soldOut };
}

/** The days' units, a lone spike capped at SPIKE_CAP_MEDIANS × the median of the days that sold. */
function spikeCapped(days: number[]): number[] {
  const cap = SPIKE_CAP_MEDIANS * quantile(days.filter((units) => units > 0).sort((a, b) => a - b), 0.5);
  return days.filter((units) => units > cap).length === 1 ? days.map((units) => Math.min(units, cap)) : days;
}

/**
 * A product with a few days of history: the mean of those days, one far larger than the others
 * capped, and a band from their spread — at least Poisson spread for counts, as five equal days do
 * not mean the sixth is certain — widened for the uncertain level.
 */
function recentLevelForecast(known: { days: number[]; soldOut: number }, horizon: number, levels: number[], wholeUnits: boolean, describe: (count: number) => string): EngineResult {
  const days = spikeCapped(known.days);
  const count = days.length;
  const level = days.reduce((sum, units) => sum + units, 0) / count;
  const squares = days.reduce((sum, units) => sum + (units - level) ** 2, 0);
  const variance = Math.max(count > 1 ? squares / (count - 1) : 0, level);
  const spread = Math.sqrt(variance * (1 + 1 / count)) * SHORT_HISTORY_WIDENING;
  const bounds = new Map(
    levels.map((confidence): [number, [number, number]] => {
      const halfWidth = normalQuantile((1 + confidence) / 2) * spread;
      const lower = Math.max(0, level - halfWidth);
      const upper = level + halfWidth;
      return [confidence, wholeUnits ? [Math.floor(lower), Math.ceil(upper)] : [lower, upper]];
    }),
  );
  return flatResult('RecentMean', describe(count), level, horizon, bounds);
}

/** A short history's description: the days that count are the ones averaged (a closed Sunday in a four-day history is not a day of it). */
const shortHistoryDescription = (historyDays: number, soldOutDays: number) => (count: number) => {
  const leftOut = historyDays - count > 0 ? ` (${historyDays} on the calendar; closed days and days out of stock without a sale left out)` : '';
  const soldOut = soldOutDays > 0 ? ` It sold out on ${soldOutDays} of them, so demand may be higher.` : '';
  return `Only ${daysText(count)} of history${leftOut}: too little to find a pattern, so the average day is forecast, with a wide band.${soldOut}`;
};

/**
 * A history long enough for the models whose every sale came on a day that ended out of stock (a
 * product sold out at each delivery): no day shows its demand, but what it sold over the whole
 * history is a floor. Its average day — out-of-stock days at zero, so a rate rather than a selling
 * day's units — is forecast, not the zero that "no observed sales" would give (ADR 0138).
 */
function soldOutRateForecast(values: Float64Array, soldOutUnits: Float64Array, horizon: number, levels: number[], wholeUnits: boolean): EngineResult {
  const days = Array.from(soldOutUnits, (units) => units);
  const soldOut = days.filter((units) => units > 0).length;
  return recentLevelForecast(
    { days, soldOut },
    horizon,
    levels,
    wholeUnits,
    () =>
      `It sold out on every day it sold (${daysText(soldOut)} in ${daysText(values.length)}), so its demand is not known: what it sold over those days, on average a day, is forecast as the least it needs, with a wide band.`,
  );
}

/**
 * The forecast for histories too short or too empty for model selection, or null when the
 * history is long enough and has demand. `soldOutUnits`: what sold on days that ended out of stock
 * (DemandHistory), which a short history counts as days of at least that demand.
 */
export function shortHistoryForecast(values: Float64Array, observed: Uint8Array, horizon: number, levels: number[], wholeUnits: boolean, soldOutUnits?: Float64Array): EngineResult | null {
  if (values.length >= MIN_MODEL_DAYS) {
    for (let t = 0; t < values.length; t++) if (observed[t] && values[t]! > 0) return null;
    if (soldOutUnits?.some((units) => units > 0)) return soldOutRateForecast(values, soldOutUnits, horizon, levels, wholeUnits);
    return zeroDemandForecast(values.length, horizon, levels);
  }
  const known = knownDays(values, observed, soldOutUnits);
  if (!known.days.some((units) => units > 0)) return zeroDemandForecast(values.length, horizon, levels);
  return recentLevelForecast(known, horizon, levels, wholeUnits, shortHistoryDescription(values.length, known.soldOut));
}

/**
 * Each forecast day `j` times `factorAt(j)`, its bands with it: whole-unit bounds stay whole,
 * rounded outward. A factor of 1 leaves the day as it was.
 */
export function scaleDays(result: EngineResult, factorAt: (j: number) => number): void {
  const bands = [...new Set([...result.bands.values(), ...result.continuousBands.values()])];
  for (let j = 0; j < result.mean.length; j++) {
    const factor = factorAt(j);
    if (factor === 1) continue;
    result.mean[j] = result.mean[j]! * factor;
    for (const band of bands) {
      band.lower[j] = Number.isInteger(band.lower[j]) ? Math.floor(band.lower[j]! * factor + 1e-9) : band.lower[j]! * factor;
      band.upper[j] = Number.isInteger(band.upper[j]) ? Math.ceil(band.upper[j]! * factor - 1e-9) + 0 : band.upper[j]! * factor;
    }
  }
}

/**
 * No history at all (a new product). With the first-weeks daily demand of new products like it
 * (its category's, or the catalogue's), the forecast is their median, and the band comes from the
 * mixture of their Poisson demands: how much a new product sells varies between products far more
 * than from day to day, and the mixture holds both. Without them, the flat prior.
 */
export function newProductForecast(horizon: number, levels: number[], prior?: NewItemPrior): EngineResult {
  if (!prior?.rates.length) return zeroDemandForecast(0, horizon, levels);
  const rates = [...prior.rates].sort((a, b) => a - b);
  const level = quantile(rates, 0.5);
  const bounds = new Map(
    levels.map((confidence): [number, [number, number]] => {
      const tail = (1 - confidence) / 2;
      return [confidence, [Math.min(level, poissonMixtureQuantile(rates, tail)), Math.max(level, poissonMixtureQuantile(rates, 1 - tail))]];
    }),
  );
  const scope = prior.scope === 'category' ? 'its category' : 'the catalogue';
  return flatResult(
    'NewProduct',
    `No sales history yet: the forecast is the typical daily demand of ${scope}'s new products in their first four weeks, with a wide band until sales come in.`,
    level,
    horizon,
    bounds,
  );
}

/** Smallest k with P(X ≤ k) ≥ p, X a Poisson count whose rate is one of `rates`, each equally likely. */
export function poissonMixtureQuantile(rates: readonly number[], p: number): number {
  // Each rate's P(X = k) in logs: e^-rate underflows to zero from a rate of about 745 a day.
  const logRates = rates.map((rate) => Math.log(Math.max(0, rate)));
  const logTerms = rates.map((rate) => -Math.max(0, rate));
  let cumulative = logTerms.reduce((sum, logTerm) => sum + Math.exp(logTerm), 0) / rates.length;
  let k = 0;
  while (cumulative < p && k < 100_000) {
    k++;
    let step = 0;
    for (let i = 0; i < logTerms.length; i++) {
      logTerms[i] = logTerms[i]! + logRates[i]! - Math.log(k);
      step += Math.exp(logTerms[i]!);
    }
    cumulative += step / rates.length;
  }
  return k;
}
