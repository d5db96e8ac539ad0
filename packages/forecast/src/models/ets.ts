import { gramMatrix, leastSquares, nelderMead, type RegressionDesign } from '../stats.ts';
import { multiplicativeIndices } from '../seasonality.ts';
import { arraysInOneBuffer, type Candidate, type FittedModel } from './candidate.ts';

export type TrendKind = 'none' | 'additive' | 'damped';
export type SeasonKind = 'none' | 'additive' | 'multiplicative';
export type EtsForm = { trend: TrendKind; season: SeasonKind; period: number };

/** Smoothing constants plus the initial states they start from. */
export type EtsParameters = {
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
  level: number;
  slope: number;
  seasonal: Float64Array;
};

/**
 * Innovations state-space recursion with additive errors (Hyndman et al. 2008,
 * table 2.3), shared by SES, Holt, damped Holt and Holt–Winters. Returns the
 * sum of squared one-step errors over [0, end) and, when horizon > 0, the
 * forecasts from `end`.
 */
export function runEts(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number, horizon = 0): { sse: number; forecast: Float64Array } {
  const forecasts = horizon > 0 ? [new Float64Array(horizon)] : [];
  const sse = recurse(form, p, y, end, seasonalState(form, p), horizon > 0 ? [end] : [], forecasts);
  return { sse, forecast: forecasts[0] ?? new Float64Array(0) };
}

/**
 * Forecasts from several origins in one pass: the state at a later origin is the
 * state at an earlier one run forward, so rolling-origin validation costs one
 * recursion instead of one per origin. `ends` must be ascending.
 */
export function etsForecastsAt(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, ends: readonly number[], horizon: number): Float64Array[] {
  const forecasts = arraysInOneBuffer(ends.length, horizon);
  recurse(form, p, y, ends[ends.length - 1] ?? 0, seasonalState(form, p), ends, forecasts);
  return forecasts;
}

function seasonalState(form: EtsForm, p: EtsParameters): Float64Array {
  return form.season === 'none' ? new Float64Array(1) : p.seasonal.slice();
}

/**
 * The recursion over [0, end), writing forecasts[i] when t reaches ends[i].
 * `seasonal` is the working seasonal state, overwritten. This is the hot path
 * of every fit (one pass per optimiser step): locals and a running seasonal
 * position instead of property reads and t % period.
 */
function recurse(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number, seasonal: Float64Array, ends: readonly number[], forecasts: Float64Array[]): number {
  if (form.season === 'none') return recurseNonSeasonal(form, p, y, end, ends, forecasts);
  const hasTrend = form.trend !== 'none';
  const phi = form.trend === 'damped' ? p.phi : 1;
  const period = form.period;
  const multiplicative = form.season === 'multiplicative';
  const { alpha, beta, gamma } = p;
  let level = p.level;
  let slope = hasTrend ? p.slope : 0;
  let sse = 0;
  let position = 0;
  let next = 0;
  let nextEnd = ends.length > 0 ? ends[0]! : -1;
  for (let t = 0; ; t++) {
    while (t === nextEnd) {
      writeForecast(form, level, slope, phi, seasonal, position, forecasts[next]!);
      nextEnd = ++next < ends.length ? ends[next]! : -1;
    }
    if (t >= end) return sse;
    const s = seasonal[position]!;
    const base = level + phi * slope;
    const error = y[t]! - (multiplicative ? base * s : base + s);
    sse += error * error;
    if (multiplicative) {
      const divisor = s > 1e-8 ? s : 1e-8;
      level = base + (alpha * error) / divisor;
      slope = hasTrend ? phi * slope + (beta * error) / divisor : 0;
      seasonal[position] = s + (gamma * error) / (Math.abs(base) > 1e-8 ? base : 1e-8);
    } else {
      level = base + alpha * error;
      slope = hasTrend ? phi * slope + beta * error : 0;
      seasonal[position] = s + gamma * error;
    }
    if (++position === period) position = 0;
  }
}

/** Its own loop: reading a zero seasonal state every step lengthens the dependency chain by half. */
function recurseNonSeasonal(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number, ends: readonly number[], forecasts: Float64Array[]): number {
  const phi = form.trend === 'damped' ? p.phi : 1;
  const beta = form.trend === 'none' ? 0 : p.beta;
  const { alpha } = p;
  const none = new Float64Array(1);
  let level = p.level;
  let slope = form.trend === 'none' ? 0 : p.slope;
  let sse = 0;
  for (let t = 0, next = 0; ; t++) {
    for (; next < ends.length && ends[next] === t; next++) writeForecast(form, level, slope, phi, none, 0, forecasts[next]!);
    if (t >= end) return sse;
    const base = level + phi * slope;
    const error = y[t]! - base;
    sse += error * error;
    level = base + alpha * error;
    slope = phi * slope + beta * error;
  }
}

type SumOfSquares = (form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number, seasonal: Float64Array) => number;

/**
 * The optimiser's objective for a form: the sum of squared one-step errors over [0, end), as
 * `recurse` computes it, in a loop of its own for the forms daily products fit (no season, or a
 * season without a trend): without the origins to write and the trend tested at every step, an
 * evaluation takes less time. The same operations in the same order, so the same sums to the last
 * bit.
 */
function sumOfSquaresLoop(form: EtsForm): SumOfSquares {
  if (form.season === 'none') return form.trend === 'none' ? sumOfSquaresLevel : sumOfSquaresTrend;
  if (form.trend !== 'none') return (f, p, y, end, seasonal) => recurse(f, p, y, end, seasonal, [], []);
  return sumOfSquaresSeasonal;
}

function sumOfSquaresLevel(_form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number): number {
  const alpha = p.alpha;
  let level = p.level;
  let sse = 0;
  for (let t = 0; t < end; t++) {
    // `+ 0`: recurse's level + φ·slope with a zero slope (it turns a level of −0 into 0, as there).
    const base = level + 0;
    const error = y[t]! - base;
    sse += error * error;
    level = base + alpha * error;
  }
  return sse;
}

function sumOfSquaresTrend(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number): number {
  const phi = form.trend === 'damped' ? p.phi : 1;
  const { alpha, beta } = p;
  let level = p.level;
  let slope = p.slope;
  let sse = 0;
  for (let t = 0; t < end; t++) {
    const base = level + phi * slope;
    const error = y[t]! - base;
    sse += error * error;
    level = base + alpha * error;
    slope = phi * slope + beta * error;
  }
  return sse;
}

function sumOfSquaresSeasonal(form: EtsForm, p: EtsParameters, y: ArrayLike<number>, end: number, seasonal: Float64Array): number {
  const { alpha, gamma } = p;
  const period = form.period;
  const multiplicative = form.season === 'multiplicative';
  let level = p.level;
  let sse = 0;
  for (let t = 0, position = 0; t < end; t++) {
    const s = seasonal[position]!;
    const base = level + 0;
    const error = y[t]! - (multiplicative ? base * s : base + s);
    sse += error * error;
    if (multiplicative) {
      level = base + (alpha * error) / (s > 1e-8 ? s : 1e-8);
      seasonal[position] = s + (gamma * error) / (Math.abs(base) > 1e-8 ? base : 1e-8);
    } else {
      level = base + alpha * error;
      seasonal[position] = s + gamma * error;
    }
    if (++position === period) position = 0;
  }
  return sse;
}

function writeForecast(form: EtsForm, level: number, slope: number, phi: number, seasonal: Float64Array, position: number, out: Float64Array): void {
  const period = seasonal.length;
  let damping = 0;
  let power = 1;
  for (let j = 0; j < out.length; j++) {
    power *= phi;
    damping += power;
    const base = level + damping * slope;
    const s = seasonal[(position + j) % period]!;
    out[j] = form.season === 'none' ? base : form.season === 'multiplicative' ? base * s : base + s;
  }
}

/** Heuristic initial states (Hyndman et al. 2008, §2.6.1): seasonal indices from the first cycles, level/slope from a regression on the first adjusted points. */
export function initialStates(form: EtsForm, y: ArrayLike<number>, end: number): Pick<EtsParameters, 'level' | 'slope' | 'seasonal'> {
  const period = form.season === 'none' ? 1 : form.period;
  let seasonal: Float64Array = new Float64Array(1);
  // Only the first points seed the level and slope, so only those are adjusted.
  const count = Math.min(end, Math.max(10, 2 * period));
  // A plain array: a typed array this long would get a backing store of its own.
  const adjusted: number[] = [];
  for (let t = 0; t < count; t++) adjusted.push(y[t]!);
  if (form.season !== 'none') {
    const indices = multiplicativeIndices(y, Math.min(end, 4 * period), period);
    let cycleMean = 0;
    for (let t = 0; t < period; t++) cycleMean += y[t]! / period;
    seasonal = form.season === 'multiplicative' ? indices : indices.map((index) => (index - 1) * cycleMean);
    for (let t = 0; t < count; t++) {
      const s = seasonal[t % period]!;
      adjusted[t] = form.season === 'multiplicative' ? adjusted[t]! / Math.max(1e-8, s) : adjusted[t]! - s;
    }
  }
  if (form.trend === 'none' || count < 3) {
    let sum = 0;
    for (let t = 0; t < count; t++) sum += adjusted[t]!;
    return { level: count > 0 ? sum / count : 0, slope: 0, seasonal };
  }
  const { columns, gram } = trendDesign(count);
  const [level = 0, slope = 0] = leastSquares(columns, adjusted, undefined, gram);
  return { level, slope, seasonal };
}

// The level and slope regression's columns (a constant and the time) and their normal-equations
// matrix depend only on how many points seed the states: made once per count and thread.
const trendDesigns = new Map<number, RegressionDesign>();

function trendDesign(count: number): RegressionDesign {
  let design = trendDesigns.get(count);
  if (!design) {
    const columns = [new Float64Array(count).fill(1), Float64Array.from({ length: count }, (_, t) => t + 1)];
    design = { columns, gram: gramMatrix(columns, count) };
    trendDesigns.set(count, design);
  }
  return design;
}

const ALPHA_BOUNDS = [1e-4, 0.9999] as const;
const PHI_BOUNDS = [0.8, 0.98] as const;

/**
 * Fits the smoothing constants by least squares (the additive-error likelihood
 * has the same optimum). beta and gamma are optimised as fractions of their
 * admissible range so the usual constraints β ≤ α and γ ≤ 1 − α always hold.
 */
/**
 * `tolerance`: the optimiser stops when its simplex's sums of squares agree within this share
 * (nelderMead's default, 0.01 %, unless given).
 */
export type FitOptions = {
  tolerance?: number;
  /**
   * Theta estimates its smoothing constant on the ETS candidates' window (the last ETS_FIT_WINDOW
   * points) instead of the whole history, and runs from the window's start: on a series an SES
   * candidate was fitted to, that fit is reused (ADR 0117).
   */
  windowed?: boolean;
};

export function fitEts(form: EtsForm, y: ArrayLike<number>, end: number, options: FitOptions = {}): { parameters: EtsParameters; sse: number; aicc: number } {
  const states = initialStates(form, y, end);
  const hasTrend = form.trend !== 'none';
  const hasSeason = form.season !== 'none';
  const damped = form.trend === 'damped';
  // The optimiser's evaluations reuse one parameter object: no allocation per step.
  const decode = (x: Float64Array, into: EtsParameters = { alpha: 0, beta: 0, gamma: 0, phi: 1, ...states }): EtsParameters => {
    const alpha = x[0]!;
    let i = 1;
    into.alpha = alpha;
    into.beta = hasTrend ? x[i++]! * alpha : 0;
    into.gamma = hasSeason ? x[i++]! * (1 - alpha) : 0;
    into.phi = damped ? x[i]! : 1;
    return into;
  };
  const trial = decode(new Float64Array(4));
  // [start, lower, upper] per optimised parameter, in the order decode() reads them.
  const dimensions: [number, number, number][] = [[0.3, ALPHA_BOUNDS[0], ALPHA_BOUNDS[1]]];
  if (hasTrend) dimensions.push([0.1, 0, 1]);
  if (hasSeason) dimensions.push([0.1, 0, 1]);
  if (damped) dimensions.push([0.95, PHI_BOUNDS[0], PHI_BOUNDS[1]]);
  const start = dimensions.map((d) => d[0]);
  const lower = dimensions.map((d) => d[1]);
  const upper = dimensions.map((d) => d[2]);
  const work = new Float64Array(states.seasonal.length);
  const sumOfSquares = sumOfSquaresLoop(form);
  const objective = (x: Float64Array): number => {
    work.set(states.seasonal);
    return sumOfSquares(form, decode(x, trial), y, end, work);
  };
  const best = nelderMead(objective, start, lower, upper, 25 * start.length, options.tolerance);
  const parameters = decode(best.x);
  const stateCount = 1 + (hasTrend ? 1 : 0) + (hasSeason ? form.period - 1 : 0);
  const k = start.length + stateCount;
  const sse = Math.max(best.value, 1e-12 * end);
  const aicc = end * Math.log(sse / end) + 2 * k + (end - k - 1 > 0 ? (2 * k * (k + 1)) / (end - k - 1) : Infinity);
  return { parameters, sse, aicc };
}

export function etsLabel(form: EtsForm): string {
  const trend = { none: 'N', additive: 'A', damped: 'Ad' }[form.trend];
  const season = { none: 'N', additive: 'A', multiplicative: 'M' }[form.season];
  return `ETS(A,${trend},${season})`;
}

const DESCRIPTIONS: Record<TrendKind, string> = {
  none: 'Exponential smoothing: a weighted average that trusts recent days more.',
  additive: 'Exponential smoothing with a trend (Holt).',
  damped: 'Exponential smoothing with a trend that flattens out over time (damped Holt).',
};

// Their own first words: a combination's description names each member by them.
const SEASONAL_DESCRIPTIONS: Record<TrendKind, string> = {
  none: 'Holt–Winters exponential smoothing: the level and the seasonal pattern, both updated as they drift.',
  additive: 'Holt–Winters exponential smoothing: the level, a trend and the seasonal pattern, all updated as they drift.',
  damped: 'Holt–Winters exponential smoothing: the level, a trend that flattens out and the seasonal pattern, all updated as they drift.',
};

/**
 * Parameters are estimated on at most the last `fitWindow` points (and at least
 * four cycles): old data describes a series that has moved on, and the cost of
 * the optimiser is linear in the length. Forecasts run the recursion from the
 * same window start, so initial states and seasonal phase stay consistent.
 */
const ETS_FIT_WINDOW = 300;

function windowStart(form: EtsForm, end: number): number {
  const window = Math.max(ETS_FIT_WINDOW, form.season === 'none' ? 0 : 4 * form.period);
  return Math.max(0, end - window);
}

export type WindowFit = { form: EtsForm; start: number; parameters: EtsParameters; aicc: number };

// Fits by series, form, end and tolerance: a Theta fitted in the window (FitOptions.windowed) on the
// weekday-adjusted series reuses the SES fit of the same series. Keyed weakly by the series, so a fit
// lives as long as the forecast that made it.
const windowFits = new WeakMap<Float64Array, Map<string, WindowFit>>();

export function fitInWindow(form: EtsForm, history: Float64Array, end: number, options: FitOptions): WindowFit {
  let fits = windowFits.get(history);
  if (!fits) windowFits.set(history, (fits = new Map()));
  const key = `${form.trend}/${form.season}/${form.period}/${end}/${options.tolerance ?? ''}`;
  const known = fits.get(key);
  if (known) return known;
  const start = windowStart(form, end);
  const fitted = fitEts(form, history.subarray(start, end), end - start, options);
  const fit = { form, start, parameters: fitted.parameters, aicc: fitted.aicc };
  fits.set(key, fit);
  return fit;
}

export function windowedModel(fitted: { form: EtsForm; start: number; parameters: EtsParameters }): FittedModel {
  const { form, start, parameters } = fitted;
  return {
    name: etsLabel(form),
    predict: (series, seriesEnd, horizon) => runEts(form, parameters, series.subarray(start), seriesEnd - start, horizon).forecast,
    predictAt: (series, ends, horizon) =>
      etsForecastsAt(
        form,
        parameters,
        series.subarray(start),
        ends.map((seriesEnd) => seriesEnd - start),
        horizon,
      ),
  };
}

export function ets(form: EtsForm, options: FitOptions = {}): Candidate {
  return {
    name: etsLabel(form),
    description: form.season === 'none' ? DESCRIPTIONS[form.trend] : SEASONAL_DESCRIPTIONS[form.trend],
    minLength: form.season === 'none' ? (form.trend === 'none' ? 3 : 8) : 3 * form.period,
    fit: (history, end) => windowedModel(fitInWindow(form, history, end, options)),
  };
}

/**
 * Fits the admissible forms and keeps the lowest AICc, like R's ets(). Forms
 * that need more data than we have are skipped rather than forced. Stepwise: a
 * damped form is fitted only for the season type that won among the undamped
 * forms, which saves a four-parameter fit per call (ADR 0101).
 */
export function autoEts(forms: EtsForm[], options: FitOptions = {}): Candidate {
  const minLength = Math.min(...forms.map((form) => ets(form).minLength));
  return {
    name: 'AutoETS',
    description: 'Exponential smoothing, with the trend and seasonal form chosen automatically (AICc).',
    minLength,
    fit(history, end): FittedModel {
      let best: ReturnType<typeof fitInWindow> | undefined;
      for (const form of [...forms.filter((f) => f.trend !== 'damped'), ...forms.filter((f) => f.trend === 'damped')]) {
        if (end < ets(form).minLength) continue;
        if (form.trend === 'damped' && best && best.form.season !== form.season) continue;
        if (form.season === 'multiplicative' && hasNonPositive(history, end)) continue;
        const fitted = fitInWindow(form, history, end, options);
        if (Number.isFinite(fitted.aicc) && (!best || fitted.aicc < best.aicc)) best = fitted;
      }
      const chosen = best ?? fitInWindow(forms[0]!, history, end, options);
      return { ...windowedModel(chosen), refit: ets(chosen.form, options).fit };
    },
  };
}

function hasNonPositive(values: ArrayLike<number>, end: number): boolean {
  for (let t = 0; t < end; t++) if (!(values[t]! > 0)) return true;
  return false;
}

export const NON_SEASONAL_FORMS: EtsForm[] = [
  { trend: 'none', season: 'none', period: 1 },
  { trend: 'additive', season: 'none', period: 1 },
  { trend: 'damped', season: 'none', period: 1 },
];

/** Holt–Winters forms: additive or multiplicative season, with no trend or a damped one. */
export function holtWintersForms(period: number): EtsForm[] {
  return [
    { trend: 'none', season: 'additive', period },
    { trend: 'damped', season: 'additive', period },
    { trend: 'none', season: 'multiplicative', period },
    { trend: 'damped', season: 'multiplicative', period },
  ];
}
