import { forecastsAt, arraysInOneBuffer, type Candidate, type FittedModel } from './models/candidate.ts';
import { mean, normalQuantile, quantile } from './stats.ts';

export type EngineOptions = {
  horizon: number;
  /** How far ahead each validation origin forecasts; capped by the history available. */
  validationHorizon: number;
  origins: number;
  /** Distance between consecutive origins. */
  originStep: number;
  levels: number[];
  nonNegative: boolean;
  /** 'rmse' for intermittent demand: MAE would reward forecasting zero. */
  score: 'mae' | 'rmse';
  /** 0 where an observation must not be scored (censored stockout days). */
  observed?: Uint8Array;
  /** Seasonal period of the naive scale used for MASE. */
  scalePeriod: number;
  /** How many of the best candidates the combination averages. */
  combineTop: number;
  /**
   * Widening of the validated error quantiles per level: the chosen model's
   * validation errors are optimistic (it was chosen because they were small),
   * and more so in the tails. Set on training-only validation data, ADR 0104.
   */
  intervalInflation: (level: number) => number;
  /**
   * Demand comes in whole units: bands are read from the discrete predictive
   * distribution (`wholeUnitBounds`, ADR 0104) instead of being continuous
   * quantiles, whose coverage of counts jumps whenever a bound crosses a unit.
   */
  wholeUnits: boolean;
  /**
   * Re-estimate the chosen models on the full history before forecasting. When
   * false, the parameters from the validation fit are reused and only the state
   * recursion is re-run to the end — a few weeks older, several times cheaper.
   */
  refitFinal: boolean;
  /**
   * Errors are measured relative to the forecast and bands scale with it: for
   * positive series whose noise grows with their level (a growing series'
   * early origins would otherwise set the width of its later, larger values).
   */
  relativeErrors?: boolean;
  /**
   * No band narrower than the random walk's: the normal quantile × the RMS of
   * the history's one-step changes × √(step·(1 + step/(n − 1))), the random walk
   * with drift's, whose drift is estimated from n points. For series too short
   * for their few validation errors to say much about the tails (ADR 0110, 0113).
   */
  randomWalkFloor?: boolean;
  /**
   * Each validated step's band is as wide as that step's own validation errors
   * (their RMS), instead of one a·h^p curve through all steps; steps past the
   * validated ones grow from the last by h^p. A seasonal series' errors rise and
   * dip within the season (smallest where the forecast month was just observed a
   * season ago), which no growth curve follows (ADR 0115).
   */
  stepWidths?: boolean;
};

export type Band = { lower: Float64Array; upper: Float64Array };

export type EngineResult = {
  modelName: string;
  description: string;
  mean: Float64Array;
  bands: Map<number, Band>;
  /**
   * The same bands before whole units (the same object when `wholeUnits` is
   * off). The reorder advice reads the daily error from these: a whole-unit
   * bound is rounded day by day, and a lead-time sum of demand is not.
   */
  continuousBands: Map<number, Band>;
  validation: {
    /** Index of the latest origin; its forecasts are the backtest a chart shows. */
    origin: number;
    mean: Float64Array;
    bands: Map<number, Band>;
    mae: number;
    smape: number;
    mase: number;
    /** Share of the validated days inside the widest band (the 95 % band of a product). */
    coverage: number;
    /**
     * Average correlation of two days' errors from the same origin: a level that
     * is off stays off for the whole horizon, so the error of a sum of days grows
     * faster than with independent days (the stock band, ADR 0110).
     */
    errorCorrelation: number;
  } | null;
};

type Scored = { candidates: Candidate[]; fitted: FittedModel[]; forecasts: Float64Array[]; score: number };

/** Widening given at 80% and 95%, linear in between and constant outside. */
function interpolatedInflation(at80: number, at95: number): (level: number) => number {
  return (level) => (level >= 0.95 ? at95 : level <= 0.8 ? at80 : at80 + ((level - 0.8) / 0.15) * (at95 - at80));
}

/** Calibrated on the last horizon of the M4 training halves (ADR 0104): 1.2 at 80%, 1.25 at 95%. */
export const calibratedInflation = interpolatedInflation(1.2, 1.25);

/**
 * Automatic choice per series by rolling-origin validation: every candidate is
 * fitted once on the data before the earliest origin, forecasts from each
 * origin, and is scored on what happened next. The best single model competes
 * with the mean of the best few (combinations are rarely much worse than the
 * best model and often better, M4 finding). Prediction intervals come from the
 * same validation errors, so they are calibrated on out-of-sample behaviour
 * rather than on model assumptions.
 */
export function selectAndForecast(y: Float64Array, candidates: Candidate[], options: EngineOptions): EngineResult {
  const n = y.length;
  const origins = originIndices(n, candidates, options);
  if (origins.length === 0) return fallbackForecast(y, options);
  const earliest = origins[origins.length - 1]!;
  const validationHorizon = Math.min(options.validationHorizon, n - origins[0]!);
  const ascending = [...origins].reverse();

  const scored: Scored[] = [];
  for (const candidate of candidates) {
    if (candidate.minLength > earliest) continue;
    const validated = fitAndValidate(candidate, y, ascending, validationHorizon);
    if (!validated) continue;
    const forecasts = validated.forecasts.reverse().map((forecast) => clean(forecast, options.nonNegative));
    scored.push({ candidates: [candidate], fitted: [validated.fitted], forecasts, score: scoreForecasts(y, origins, forecasts, options) });
  }
  if (scored.length === 0) return fallbackForecast(y, options);
  scored.sort((a, b) => a.score - b.score);
  const top = scored.slice(0, Math.min(options.combineTop, scored.length));
  if (top.length > 1) {
    const averages = arraysInOneBuffer(origins.length, validationHorizon);
    const forecasts = origins.map((_, o) => averageOf(top.map((entry) => entry.forecasts[o]!), averages[o]));
    scored.push({ candidates: top.flatMap((entry) => entry.candidates), fitted: top.flatMap((entry) => entry.fitted), forecasts, score: scoreForecasts(y, origins, forecasts, options) });
    scored.sort((a, b) => a.score - b.score);
  }
  const chosen = scored[0]!;

  const finals = options.refitFinal
    ? chosen.candidates.map((candidate, i) => tryFit(candidate, y, n, chosen.fitted[i])).filter((fitted): fitted is FittedModel => fitted !== null)
    : chosen.fitted;
  if (finals.length === 0) return fallbackForecast(y, options);
  const point = clean(averageOf(finals.map((fitted) => fitted.predict(y, n, options.horizon))), options.nonNegative);

  // Relative errors need positive forecasts to be relative to: a forecast clipped to zero (a
  // falling trend) would make one error, and so every band, enormous.
  const relative = options.relativeErrors === true && chosen.forecasts.every((forecast) => forecast.every((value) => value > 0)) && point.every((value) => value > 0);
  const bandOptions = relative === (options.relativeErrors === true) ? options : { ...options, relativeErrors: relative };
  const errors = validationErrors(y, origins, chosen.forecasts, options.observed, relative);
  const steps = Math.max(options.horizon, validationHorizon);
  const intervals = intervalModel(errors, options.levels, options.intervalInflation, steps, options.randomWalkFloor ? randomWalkSpread(y, relative) : null, n, options.stepWidths === true);
  const latest = chosen.forecasts[0]!;
  const validationBands = bandsAround(latest, intervals, bandOptions);
  const bands = bandsAround(point, intervals, bandOptions);
  return {
    modelName: finals.length > 1 ? `Combination(${finals.map((fitted) => fitted.name).join(' + ')})` : finals[0]!.name,
    description:
      chosen.candidates.length > 1
        ? `Average of the ${chosen.candidates.length} models that were most accurate on recent history: ${chosen.candidates.map(headline).join('; ')}.`
        : chosen.candidates[0]!.description,
    mean: point,
    bands,
    continuousBands: options.wholeUnits ? bandsAround(point, intervals, { ...bandOptions, wholeUnits: false }) : bands,
    validation: {
      origin: origins[0]!,
      mean: latest,
      bands: validationBands,
      ...accuracy(y, origins, chosen.forecasts, earliest, options),
      coverage: widestCoverage(y, origins, chosen.forecasts, intervals, bandOptions),
      errorCorrelation: errorCorrelation(y, origins, chosen.forecasts, options.observed),
    },
  };
}

/** Mean product of two different days' errors from the same origin over the mean squared error, in [0, 1]. */
function errorCorrelation(y: Float64Array, origins: number[], forecasts: Float64Array[], observed: Uint8Array | undefined): number {
  let squares = 0;
  let count = 0;
  let crossProducts = 0;
  let pairs = 0;
  origins.forEach((origin, o) => {
    let sum = 0;
    let sumSquares = 0;
    let days = 0;
    forEachObserved(y, [origin], [forecasts[o]!], observed, (actual, forecast) => {
      const error = actual - forecast;
      sum += error;
      sumSquares += error * error;
      days++;
    });
    squares += sumSquares;
    count += days;
    crossProducts += sum * sum - sumSquares;
    pairs += days * (days - 1);
  });
  if (count === 0 || pairs === 0 || squares === 0) return 0;
  return Math.min(1, Math.max(0, crossProducts / pairs / (squares / count)));
}

/** The part of a description before its first colon or full stop: "Theta method", "Croston". */
function headline(candidate: Candidate): string {
  return candidate.description.split(/[:.]/)[0]!.trim();
}

function originIndices(n: number, candidates: Candidate[], options: EngineOptions): number[] {
  const shortest = Math.min(...candidates.map((candidate) => candidate.minLength));
  const validationHorizon = Math.min(options.validationHorizon, Math.floor(n / 3));
  if (validationHorizon < 1) return [];
  const origins: number[] = [];
  for (let k = 0; k < options.origins; k++) {
    const origin = n - validationHorizon - k * options.originStep;
    if (origin < Math.max(shortest, 2)) break;
    origins.push(origin);
  }
  return origins;
}

/**
 * The candidate fitted on the history before the earliest of the ascending `origins`, and its
 * forecasts from each origin; null when the fit fails or its states are not finite. tryFit's probe
 * is the earliest origin's first forecast, which the validation makes anyway.
 */
function fitAndValidate(candidate: Candidate, y: Float64Array, origins: number[], horizon: number): { fitted: FittedModel; forecasts: Float64Array[] } | null {
  try {
    const fitted = candidate.fit(y, origins[0]!);
    const forecasts = forecastsAt(fitted, y, origins, horizon);
    return Number.isFinite(forecasts[0]![0]) ? { fitted, forecasts } : null;
  } catch {
    return null;
  }
}

function tryFit(candidate: Candidate, y: Float64Array, end: number, previous?: FittedModel): FittedModel | null {
  try {
    const fitted = previous?.refit ? previous.refit(y, end) : candidate.fit(y, end);
    // A probe forecast weeds out models whose fit produced non-finite states.
    return fitted.predict(y, end, 1).every(Number.isFinite) ? fitted : null;
  } catch {
    return null;
  }
}

/** In place: every forecast array is a fresh one owned by the caller. */
function clean(values: Float64Array, nonNegative: boolean): Float64Array {
  for (let j = 0; j < values.length; j++) {
    const value = values[j]!;
    values[j] = Number.isFinite(value) ? (nonNegative ? Math.max(0, value) : value) : 0;
  }
  return values;
}

/** Into `out` (zeroed), when given. */
function averageOf(forecasts: Float64Array[], out: Float64Array = new Float64Array(forecasts[0]!.length)): Float64Array {
  for (const forecast of forecasts) for (let j = 0; j < out.length; j++) out[j] = out[j]! + forecast[j]! / forecasts.length;
  return out;
}

/** Calls `visit` for every validated (origin, step) whose actual value was observed. */
function forEachObserved(y: Float64Array, origins: number[], forecasts: Float64Array[], observed: Uint8Array | undefined, visit: (actual: number, forecast: number, step: number) => void): void {
  origins.forEach((origin, o) => {
    const forecast = forecasts[o]!;
    for (let j = 0; j < forecast.length; j++) if (!observed || observed[origin + j] !== 0) visit(y[origin + j]!, forecast[j]!, j);
  });
}

/** Runs for every candidate, so it is a plain loop rather than a forEachObserved visit. */
function scoreForecasts(y: Float64Array, origins: number[], forecasts: Float64Array[], options: EngineOptions): number {
  const squared = options.score === 'rmse';
  let total = 0;
  let count = 0;
  for (let o = 0; o < origins.length; o++) {
    const forecast = forecasts[o]!;
    for (let j = 0, t = origins[o]!; j < forecast.length; j++, t++) {
      if (options.observed && options.observed[t] === 0) continue;
      const error = y[t]! - forecast[j]!;
      total += squared ? error * error : Math.abs(error);
      count++;
    }
  }
  if (count === 0) return Infinity;
  return options.score === 'rmse' ? Math.sqrt(total / count) : total / count;
}

/** errors[j] holds the step-(j+1) errors from every origin. */
function validationErrors(y: Float64Array, origins: number[], forecasts: Float64Array[], observed: Uint8Array | undefined, relative: boolean): number[][] {
  const errors: number[][] = [];
  forEachObserved(y, origins, forecasts, observed, (actual, forecast, j) => (errors[j] ??= []).push(relative ? (actual - forecast) / relativeScale(forecast) : actual - forecast));
  return errors;
}

/**
 * Per level, in ascending order: the tail probability left out on each side
 * (after the conformal correction), the widening, and the continuous band's
 * offsets in units of the error spread.
 */
type LevelModel = { level: number; tail: number; widen: number; offsets: [number, number]; floor: number };
/**
 * scale[j] is the error spread at step j + 1; `standardized` holds the sorted errors in units of it;
 * `driftPoints` is the number of one-step changes a drift would be estimated from (the floor's growth).
 */
type IntervalModel = { scale: Float64Array; standardized: Float64Array; levels: LevelModel[]; driftPoints: number };

/** RMS of the history's one-step changes, relative to the value before when `relative`. */
function randomWalkSpread(y: Float64Array, relative: boolean): number | null {
  let sumSquares = 0;
  for (let t = 1; t < y.length; t++) sumSquares += ((y[t]! - y[t - 1]!) / (relative ? relativeScale(y[t - 1]!) : 1)) ** 2;
  return y.length > 1 ? Math.sqrt(sumSquares / (y.length - 1)) : null;
}

/** The unit of a relative error: the forecast, kept away from zero. */
function relativeScale(forecast: number): number {
  return Math.max(Math.abs(forecast), 1e-9);
}

/**
 * Error spread per step is fitted as scale(h) = a·h^p (p clipped to [0, ½], from
 * "does not grow" to random-walk growth) so we can extrapolate past the
 * validated steps — or, with `perStep`, is each validated step's own RMS error
 * (`perStepSpread`); the shape of the distribution (skew of intermittent demand)
 * comes from empirical quantiles of the errors divided by that scale. The
 * (n+1)/n conformal correction keeps small samples from under-covering.
 */
function intervalModel(errors: number[][], levels: number[], inflation: (level: number) => number, steps: number, randomWalk: number | null, historyLength: number, perStep: boolean): IntervalModel {
  const driftPoints = Math.max(1, historyLength - 1);
  const spreads: { logStep: number; logScale: number; weight: number }[] = [];
  errors.forEach((stepErrors, j) => {
    if (!stepErrors || stepErrors.length === 0) return;
    const rms = Math.sqrt(mean(stepErrors.map((e) => e * e)));
    if (rms > 0) spreads.push({ logStep: Math.log(j + 1), logScale: Math.log(rms), weight: stepErrors.length });
  });
  const ascending = [...levels].sort((a, b) => a - b);
  if (spreads.length === 0) return { scale: new Float64Array(steps), standardized: new Float64Array(0), levels: ascending.map((level) => ({ level, tail: 0, widen: 1, offsets: [0, 0], floor: 0 })), driftPoints };
  let growth = 0;
  if (spreads.length >= 3) {
    const totalWeight = spreads.reduce((sum, s) => sum + s.weight, 0);
    const meanX = spreads.reduce((sum, s) => sum + s.weight * s.logStep, 0) / totalWeight;
    const meanY = spreads.reduce((sum, s) => sum + s.weight * s.logScale, 0) / totalWeight;
    let covariance = 0;
    let spread = 0;
    for (const s of spreads) {
      covariance += s.weight * (s.logStep - meanX) * (s.logScale - meanY);
      spread += s.weight * (s.logStep - meanX) ** 2;
    }
    growth = spread > 0 ? Math.min(0.5, Math.max(0, covariance / spread)) : 0;
  }
  const shape = perStep ? perStepSpread(errors, steps, growth) : Float64Array.from({ length: steps }, (_, j) => (j + 1) ** growth);
  const standardized: number[] = [];
  let sumSquares = 0;
  errors.forEach((stepErrors, j) => {
    if (!stepErrors) return;
    // A step's spread read from its own dozen errors fits them too well: each error in units of
    // the RMS of the step's other errors (leave one out) keeps the tails as wide as a new error's.
    const stepSquares = perStep ? stepErrors.reduce((sum, e) => sum + e * e, 0) : 0;
    for (const e of stepErrors) {
      const others = perStep && stepErrors.length > 1 ? Math.sqrt(Math.max(0, stepSquares - e * e) / (stepErrors.length - 1)) : 0;
      const unit = others > 0 ? others : shape[j]!;
      const z = unit > 0 ? e / unit : 0;
      standardized.push(z);
      sumSquares += z ** 2;
    }
  });
  const base = Math.sqrt(sumSquares / standardized.length);
  const scale = shape.map((value) => base * value);
  // A plain loop: Float64Array.from an array goes through its iterator.
  const sorted = new Float64Array(standardized.length);
  for (let i = 0; i < sorted.length; i++) sorted[i] = base > 0 ? standardized[i]! / base : 0;
  sorted.sort();
  const count = sorted.length;
  const levelModels = ascending.map((level): LevelModel => {
    const tail = (1 - level) / 2;
    const correctedTail = Math.max(0, tail - (1 - tail) / count);
    const widen = inflation(level);
    const lower = Math.min(0, quantile(sorted, correctedTail)) * widen;
    const upper = Math.max(0, quantile(sorted, 1 - correctedTail)) * widen;
    const floor = randomWalk ? normalQuantile(1 - tail) * randomWalk : 0;
    return { level, tail: correctedTail, widen, offsets: [lower, upper], floor };
  });
  return { scale, standardized: sorted, levels: levelModels, driftPoints };
}

/**
 * RMS of each validated step's errors; a step without errors takes the step before's (or,
 * at the start, the first validated one's), and past the last validated step the spread
 * grows from it by h^growth.
 */
export function perStepSpread(errors: number[][], steps: number, growth: number): Float64Array {
  const spread = new Float64Array(steps);
  const validated = Math.min(steps, errors.length);
  for (let j = 0; j < validated; j++) {
    const stepErrors = errors[j];
    spread[j] = stepErrors && stepErrors.length > 0 ? Math.sqrt(mean(stepErrors.map((e) => e * e))) : j > 0 ? spread[j - 1]! : NaN;
  }
  const first = spread.findIndex((value) => !Number.isNaN(value));
  for (let j = 0; j < (first < 0 ? validated : first); j++) spread[j] = first < 0 ? 0 : spread[first]!;
  for (let j = validated; j < steps; j++) spread[j] = validated > 0 ? spread[validated - 1]! * ((j + 1) / validated) ** growth : 0;
  return spread;
}

function bandsAround(point: Float64Array, intervals: IntervalModel, options: EngineOptions): Map<number, Band> {
  const arrays = arraysInOneBuffer(2 * intervals.levels.length, point.length);
  const bands = intervals.levels.map((_, i) => ({ lower: arrays[2 * i]!, upper: arrays[2 * i + 1]! }));
  const bounds = new Float64Array(2 * bands.length);
  for (let j = 0; j < point.length; j++) {
    bandsAt(point[j]!, j, intervals, options, bounds);
    for (let i = 0; i < bands.length; i++) {
      bands[i]!.lower[j] = bounds[2 * i]!;
      bands[i]!.upper[j] = bounds[2 * i + 1]!;
    }
  }
  return new Map(intervals.levels.map(({ level }, i) => [level, bands[i]!]));
}

/**
 * Every level's lower and upper bound at step j, written to `out` as
 * [lower, upper, lower, upper, …] in ascending order of level (no arrays per
 * call: this runs for every forecast and validated day). Nested: whole-unit
 * bounds of a wider level can come out narrower on one side (its lower side
 * may use more of its tail), and a 95% band must still hold the 80% one.
 */
function bandsAt(point: number, j: number, intervals: IntervalModel, options: EngineOptions, out: Float64Array): void {
  let innerLower = point;
  let innerUpper = point;
  for (let i = 0; i < intervals.levels.length; i++) {
    levelBounds(point, j, intervals, options, i, out, 2 * i);
    innerLower = Math.min(innerLower, out[2 * i]!);
    innerUpper = Math.max(innerUpper, out[2 * i + 1]!);
    out[2 * i] = innerLower;
    out[2 * i + 1] = innerUpper;
  }
}

/** The error spread at step j around `point`, before a level's widening. */
function errorSpread(point: number, j: number, intervals: IntervalModel, options: EngineOptions): number {
  return intervals.scale[j]! * (options.relativeErrors ? relativeScale(point) : 1);
}

/** The i-th level's own bounds at step j (before nesting), written to out[at] and out[at + 1]. */
function levelBounds(point: number, j: number, intervals: IntervalModel, options: EngineOptions, i: number, out: Float64Array, at: number): void {
  const { tail, widen, offsets, floor } = intervals.levels[i]!;
  const spread = errorSpread(point, j, intervals, options);
  if (options.wholeUnits) {
    const [lower, upper] = wholeUnitBounds(point, intervals.standardized, widen * spread, tail);
    out[at] = lower;
    out[at + 1] = upper;
    return;
  }
  // A short series' drift is uncertain too: its error adds step² · σ²/(n − 1) (the drift method's variance).
  const floorSpread = Math.sqrt((j + 1) * (1 + (j + 1) / intervals.driftPoints)) * (options.relativeErrors ? relativeScale(point) : 1);
  const lower = Math.min(point + offsets[0] * spread, point - floor * floorSpread);
  out[at] = options.nonNegative ? Math.max(0, lower) : lower;
  out[at + 1] = Math.max(point + offsets[1] * spread, point + floor * floorSpread);
}

/**
 * Bounds of a band for demand in whole units. The predictive distribution is
 * the point forecast plus the validation errors (`standardized`, sorted) times
 * `spread`, each outcome rounded to the nearest unit and clipped at zero: the
 * continuity correction that maps a continuous approximation back onto counts.
 * On counts no bound leaves out exactly `tail`, and a bound that crosses a unit
 * moves coverage by that unit's whole probability, so the bounds are the
 * mid-quantiles of that distribution (Ma, Genton & Parzen 2011: quantiles of
 * F(v) − P(v)/2, interpolated between the values that occur), which pick the
 * bound whose left-out probability is nearest to the target. Equal tails are
 * impossible at zero: when zero holds more than twice `tail`, as for most slow
 * sellers, nothing can be left out below. That share of the 2·`tail` is left
 * out above instead, so the band covers the nominal level rather than
 * 1 − `tail` (an 80% band of a slow seller would otherwise cover 90% or more).
 * Always lower ≤ point ≤ upper.
 */
export function wholeUnitBounds(point: number, standardized: Float64Array, spread: number, tail: number): [number, number] {
  const n = standardized.length;
  if (n === 0) return [point, point];
  const outcome = (i: number): number => Math.max(0, Math.round(point + standardized[i]! * spread));
  // How many outcomes are at most v units. `standardized` is sorted, and
  // max(0, round(x)) ≤ v exactly when x < v + ½: the first index where that
  // fails. Each call knows an index `near` whose outcome is v or next to it, so
  // the search gallops out from there (runs are short next to n) before it
  // bisects; the predicate is monotone, so the answer is the one a bisection
  // of the whole array gives. Equal outcomes form runs of consecutive indices;
  // a run [start, end) has the mid-distribution value F(v) − P(v)/2 =
  // (start + end) / 2n. Plain numbers rather than run objects: this runs a few
  // times for every forecast day and every validated day of a product.
  const atMost = (v: number, near: number): number => {
    if (v < 0) return 0;
    const limit = v + 0.5;
    let low: number;
    let high: number;
    if (point + standardized[near]! * spread < limit) {
      low = near + 1;
      high = near + 1;
      for (let step = 1; high < n && point + standardized[high]! * spread < limit; ) {
        low = high + 1;
        step *= 2;
        high = Math.min(n, near + step);
      }
    } else {
      high = near;
      low = near - 1;
      for (let step = 1; low >= 0 && !(point + standardized[low]! * spread < limit); ) {
        high = low;
        step *= 2;
        low = near - step;
      }
      low = low < 0 ? 0 : low + 1;
    }
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (point + standardized[middle]! * spread < limit) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const mid = (start: number, end: number): number => (start + end) / (2 * n);

  // Lower bound: the first run whose mid-distribution value reaches `tail`. Runs
  // ending at or before tail·n fall short and runs starting after it reach it,
  // so it is the run holding index ⌊tail·n⌋ or the next one. Between it and the
  // run before, the mid-quantile is interpolated and rounded up.
  const lowerIndex = Math.min(n - 1, Math.floor(tail * n));
  let value = outcome(lowerIndex);
  let start = atMost(value - 1, lowerIndex);
  let end = atMost(value, lowerIndex);
  if (mid(start, end) < tail && end < n) {
    value = outcome(end);
    start = end;
    end = atMost(value, start);
  }
  let lower = value;
  if (start > 0) {
    const before = outcome(start - 1);
    const beforeMid = mid(atMost(before - 1, start - 1), start);
    lower = Math.ceil(before + ((tail - beforeMid) / (mid(start, end) - beforeMid)) * (value - before));
  }

  // Upper bound: the last run whose mid-distribution value is within what is
  // left to cover; by the same argument, the run holding ⌊covered·n⌋ or the one
  // before. Towards the next run, interpolated and rounded down.
  const covered = 1 - (2 * tail - start / n);
  const upperIndex = Math.min(n - 1, Math.floor(covered * n));
  value = outcome(upperIndex);
  start = atMost(value - 1, upperIndex);
  end = atMost(value, upperIndex);
  if (mid(start, end) > covered) {
    if (start === 0) return [Math.min(lower, point), Math.max(value, point)];
    end = start;
    value = outcome(end - 1);
    start = atMost(value - 1, end - 1);
  }
  let upper = value;
  if (end < n) {
    const after = outcome(end);
    const afterMid = mid(end, atMost(after, end));
    const ownMid = mid(start, end);
    upper = Math.floor(value + ((covered - ownMid) / (afterMid - ownMid)) * (after - value));
  }
  return [Math.min(lower, point), Math.max(upper, point)];
}

/**
 * True when `actual` is inside wholeUnitBounds(point, standardized, spread, tail) for sure, read
 * from two outcomes instead of the bounds (false says nothing). The lower bound is at most the
 * outcome of the run it starts from, and that run starts before index 2·tail·n: its
 * mid-distribution value (start + end) / 2n fell short of `tail` or it holds index ⌊tail·n⌋. The
 * upper bound is at least the outcome of its run, which ends after index n·(1 − 4·tail) − 1:
 * `covered` is at least 1 − 2·tail, and a run given up for one before it had (start + end) / 2n
 * above `covered`. The interpolations towards the neighbouring runs only move the bounds outwards
 * (for tails below ½). A validated day is mostly between those outcomes: the backtest's coverage
 * then needs no bounds.
 */
export function surelyWithinWholeUnitBounds(actual: number, point: number, standardized: Float64Array, spread: number, tail: number): boolean {
  const n = standardized.length;
  if (n === 0 || !(tail < 0.5)) return false;
  const outcome = (i: number): number => Math.max(0, Math.round(point + standardized[i]! * spread));
  return actual >= outcome(Math.min(n - 1, Math.ceil(2 * tail * n) + 1)) && actual <= outcome(Math.max(0, Math.floor(n * (1 - 4 * tail)) - 1));
}

function accuracy(y: Float64Array, origins: number[], forecasts: Float64Array[], trainEnd: number, options: EngineOptions): { mae: number; smape: number; mase: number } {
  let absolute = 0;
  let symmetric = 0;
  let count = 0;
  forEachObserved(y, origins, forecasts, options.observed, (actual, forecast) => {
    const error = Math.abs(actual - forecast);
    absolute += error;
    const denominator = Math.abs(actual) + Math.abs(forecast);
    symmetric += denominator > 0 ? (200 * error) / denominator : 0;
    count++;
  });
  const mae = count > 0 ? absolute / count : 0;
  const scale = naiveScale(y, trainEnd, options.scalePeriod);
  return { mae, smape: count > 0 ? symmetric / count : 0, mase: scale > 0 ? mae / scale : mae > 0 ? Infinity : 0 };
}

/** In-sample mean absolute seasonal difference: the MASE denominator. */
function naiveScale(y: ArrayLike<number>, end: number, period: number): number {
  const lag = end > period ? period : 1;
  let sum = 0;
  for (let t = lag; t < end; t++) sum += Math.abs(y[t]! - y[t - lag]!);
  return end > lag ? sum / (end - lag) : 0;
}

/**
 * Share of the validated days inside the widest band (the backtest's coverage). The nested bands
 * are hulls of the levels' own bounds, which all hold the point, so a day is inside the widest
 * band when it is inside any level's own bounds: the widest level's first, which hold nearly every
 * day, so the narrower levels' bounds are computed only for the few days outside them. Whole-unit
 * bounds are computed only for days that two outcomes cannot place inside them.
 */
function widestCoverage(y: Float64Array, origins: number[], forecasts: Float64Array[], intervals: IntervalModel, options: EngineOptions): number {
  const own = new Float64Array(2);
  let inside = 0;
  let count = 0;
  forEachObserved(y, origins, forecasts, options.observed, (actual, forecast, j) => {
    count++;
    for (let i = intervals.levels.length - 1; i >= 0; i--) {
      if (options.wholeUnits) {
        const { tail, widen } = intervals.levels[i]!;
        if (surelyWithinWholeUnitBounds(actual, forecast, intervals.standardized, widen * errorSpread(forecast, j, intervals, options), tail)) {
          inside++;
          return;
        }
      }
      levelBounds(forecast, j, intervals, options, i, own, 0);
      if (actual >= Math.min(forecast, own[0]!) && actual <= Math.max(forecast, own[1]!)) {
        inside++;
        return;
      }
    }
  });
  return count > 0 ? inside / count : NaN;
}

/**
 * Too little history to validate anything: forecast the mean of the last few
 * points, with a band from the spread of the points themselves. Honest and wide.
 */
function fallbackForecast(y: Float64Array, options: EngineOptions): EngineResult {
  const recent = y.subarray(Math.max(0, y.length - 28));
  const level = recent.length > 0 ? mean(recent) : 0;
  const spread = recent.length > 1 ? Math.sqrt(mean(recent.map((v) => (v - level) ** 2))) : Math.abs(level) * 0.5;
  const point = clean(new Float64Array(options.horizon).fill(level), options.nonNegative);
  const bands = new Map<number, Band>();
  for (const level of options.levels) {
    // 1.5× the spread because the level itself is uncertain with so few points.
    const halfWidth = normalQuantile((1 + level) / 2) * spread * 1.5;
    const lower = point.map((value) => value - halfWidth);
    const upper = point.map((value) => value + halfWidth);
    bands.set(level, { lower: options.nonNegative ? lower.map((v) => Math.max(0, v)) : lower, upper });
  }
  return {
    modelName: 'RecentMean',
    description: 'Too little history to compare models, so the average of the most recent days is used, with a wide band.',
    mean: point,
    bands,
    continuousBands: bands,
    validation: null,
  };
}
