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
    ? flatResult('Zero', `No sales in the ${days} days of history, so no demand is expected; the band shows the few sales that would still not be surprising.`, 0, horizon, bounds)
    : flatResult('NewProduct', 'No sales history yet: no demand is forecast, with a wide band until sales come in.', 0, horizon, bounds);
}

/**
 * A product with a few days of history: the mean of those days, and a band from their spread — at
 * least Poisson spread for counts, as five equal days do not mean the sixth is certain — widened
 * for the uncertain level.
 */
function recentLevelForecast(values: Float64Array, observed: Uint8Array, horizon: number, levels: number[], wholeUnits: boolean): EngineResult {
  let sum = 0;
  let count = 0;
  for (let t = 0; t < values.length; t++) {
    if (!observed[t]) continue;
    sum += values[t]!;
    count++;
  }
  const level = count > 0 ? sum / count : 0;
  let squares = 0;
  for (let t = 0; t < values.length; t++) if (observed[t]) squares += (values[t]! - level) ** 2;
  const variance = Math.max(count > 1 ? squares / (count - 1) : 0, level);
  const spread = Math.sqrt(variance * (1 + 1 / Math.max(1, count))) * SHORT_HISTORY_WIDENING;
  const bounds = new Map(
    levels.map((confidence): [number, [number, number]] => {
      const halfWidth = normalQuantile((1 + confidence) / 2) * spread;
      const lower = Math.max(0, level - halfWidth);
      const upper = level + halfWidth;
      return [confidence, wholeUnits ? [Math.floor(lower), Math.ceil(upper)] : [lower, upper]];
    }),
  );
  return flatResult('RecentMean', `Only ${values.length} days of history: too little to find a pattern, so the average day is forecast, with a wide band.`, level, horizon, bounds);
}

/**
 * The forecast for histories too short or too empty for model selection, or null when the
 * history is long enough and has demand.
 */
export function shortHistoryForecast(values: Float64Array, observed: Uint8Array, horizon: number, levels: number[], wholeUnits: boolean): EngineResult | null {
  let anyDemand = false;
  for (let t = 0; t < values.length; t++) if (observed[t] && values[t]! > 0) anyDemand = true;
  if (!anyDemand) return zeroDemandForecast(values.length, horizon, levels);
  return values.length < MIN_MODEL_DAYS ? recentLevelForecast(values, observed, horizon, levels, wholeUnits) : null;
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
