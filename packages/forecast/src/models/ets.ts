import { leastSquares, nelderMead } from '../stats.ts';
import { multiplicativeIndices } from '../seasonality.ts';
import type { Candidate, FittedModel } from './candidate.ts';

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
  const hasTrend = form.trend !== 'none';
  const phi = form.trend === 'damped' ? p.phi : 1;
  const period = form.season === 'none' ? 1 : form.period;
  const seasonal = form.season === 'none' ? new Float64Array(1) : Float64Array.from(p.seasonal);
  const multiplicative = form.season === 'multiplicative';
  const { alpha, beta, gamma } = p;
  const seasonalUpdates = form.season !== 'none';
  let level = p.level;
  let slope = hasTrend ? p.slope : 0;
  let sse = 0;
  // This loop is the hot path of every fit (one pass per optimiser step): locals
  // and a running seasonal position instead of property reads and t % period.
  let position = 0;
  for (let t = 0; t < end; t++) {
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
      if (seasonalUpdates) seasonal[position] = s + gamma * error;
    }
    if (++position === period) position = 0;
  }
  const forecast = new Float64Array(horizon);
  let damping = 0;
  let power = 1;
  for (let j = 0; j < horizon; j++) {
    power *= phi;
    damping += power;
    const base = level + damping * slope;
    const s = seasonal[(end + j) % period]!;
    forecast[j] = form.season === 'none' ? base : multiplicative ? base * s : base + s;
  }
  return { sse, forecast };
}

/** Heuristic initial states (Hyndman et al. 2008, §2.6.1): seasonal indices from the first cycles, level/slope from a regression on the first adjusted points. */
export function initialStates(form: EtsForm, y: ArrayLike<number>, end: number): Pick<EtsParameters, 'level' | 'slope' | 'seasonal'> {
  const period = form.season === 'none' ? 1 : form.period;
  let seasonal: Float64Array = new Float64Array(1);
  const adjusted = Float64Array.from({ length: end }, (_, t) => y[t]!);
  if (form.season !== 'none') {
    const indices = multiplicativeIndices(y, Math.min(end, 4 * period), period);
    let cycleMean = 0;
    for (let t = 0; t < period; t++) cycleMean += y[t]! / period;
    seasonal = form.season === 'multiplicative' ? indices : indices.map((index) => (index - 1) * cycleMean);
    for (let t = 0; t < end; t++) {
      const s = seasonal[t % period]!;
      adjusted[t] = form.season === 'multiplicative' ? adjusted[t]! / Math.max(1e-8, s) : adjusted[t]! - s;
    }
  }
  const count = Math.min(end, Math.max(10, 2 * period));
  if (form.trend === 'none' || count < 3) {
    let sum = 0;
    for (let t = 0; t < count; t++) sum += adjusted[t]!;
    return { level: count > 0 ? sum / count : 0, slope: 0, seasonal };
  }
  const intercept = new Float64Array(count).fill(1);
  const time = Float64Array.from({ length: count }, (_, t) => t + 1);
  const [level = 0, slope = 0] = leastSquares([intercept, time], adjusted.subarray(0, count));
  return { level, slope, seasonal };
}

const ALPHA_BOUNDS = [1e-4, 0.9999] as const;
const PHI_BOUNDS = [0.8, 0.98] as const;

/**
 * Fits the smoothing constants by least squares (the additive-error likelihood
 * has the same optimum). beta and gamma are optimised as fractions of their
 * admissible range so the usual constraints β ≤ α and γ ≤ 1 − α always hold.
 */
export function fitEts(form: EtsForm, y: ArrayLike<number>, end: number): { parameters: EtsParameters; sse: number; aicc: number } {
  const states = initialStates(form, y, end);
  const hasTrend = form.trend !== 'none';
  const hasSeason = form.season !== 'none';
  const damped = form.trend === 'damped';
  const decode = (x: Float64Array): EtsParameters => {
    const alpha = x[0]!;
    let i = 1;
    const beta = hasTrend ? x[i++]! * alpha : 0;
    const gamma = hasSeason ? x[i++]! * (1 - alpha) : 0;
    const phi = damped ? x[i]! : 1;
    return { alpha, beta, gamma, phi, ...states };
  };
  // [start, lower, upper] per optimised parameter, in the order decode() reads them.
  const dimensions: [number, number, number][] = [[0.3, ALPHA_BOUNDS[0], ALPHA_BOUNDS[1]]];
  if (hasTrend) dimensions.push([0.1, 0, 1]);
  if (hasSeason) dimensions.push([0.1, 0, 1]);
  if (damped) dimensions.push([0.95, PHI_BOUNDS[0], PHI_BOUNDS[1]]);
  const start = dimensions.map((d) => d[0]);
  const lower = dimensions.map((d) => d[1]);
  const upper = dimensions.map((d) => d[2]);
  const best = nelderMead((x) => runEts(form, decode(x), y, end).sse, start, lower, upper, 25 * start.length);
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

function fitInWindow(form: EtsForm, history: Float64Array, end: number): { form: EtsForm; start: number; parameters: EtsParameters; aicc: number } {
  const start = windowStart(form, end);
  const fitted = fitEts(form, history.subarray(start, end), end - start);
  return { form, start, parameters: fitted.parameters, aicc: fitted.aicc };
}

function windowedModel(fitted: { form: EtsForm; start: number; parameters: EtsParameters }): FittedModel {
  const { form, start, parameters } = fitted;
  return {
    name: etsLabel(form),
    predict: (series, seriesEnd, horizon) => runEts(form, parameters, series.subarray(start), seriesEnd - start, horizon).forecast,
  };
}

export function ets(form: EtsForm): Candidate {
  return {
    name: etsLabel(form),
    description: DESCRIPTIONS[form.trend] + (form.season === 'none' ? '' : ' Seasonal pattern updated as it drifts (Holt–Winters).'),
    minLength: form.season === 'none' ? (form.trend === 'none' ? 3 : 8) : 3 * form.period,
    fit: (history, end) => windowedModel(fitInWindow(form, history, end)),
  };
}

/**
 * Fits each admissible form and keeps the lowest AICc, like R's ets(). Forms
 * that need more data than we have are skipped rather than forced.
 */
export function autoEts(forms: EtsForm[]): Candidate {
  const minLength = Math.min(...forms.map((form) => ets(form).minLength));
  return {
    name: 'AutoETS',
    description: 'Exponential smoothing, with the trend and seasonal form chosen automatically (AICc).',
    minLength,
    fit(history, end): FittedModel {
      let best: ReturnType<typeof fitInWindow> | undefined;
      for (const form of forms) {
        if (end < ets(form).minLength) continue;
        if (form.season === 'multiplicative' && hasNonPositive(history, end)) continue;
        const fitted = fitInWindow(form, history, end);
        if (Number.isFinite(fitted.aicc) && (!best || fitted.aicc < best.aicc)) best = fitted;
      }
      const chosen = best ?? fitInWindow(forms[0]!, history, end);
      return { ...windowedModel(chosen), refit: ets(chosen.form).fit };
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
