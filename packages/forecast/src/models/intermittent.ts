import { arraysInOneBuffer, type Candidate } from './candidate.ts';

// Small grids rather than a continuous optimiser: intermittent errors are flat
// in the smoothing constant, and a grid is cheaper and fully deterministic.
const ALPHA_GRID = [0.05, 0.1, 0.2, 0.3];
const PROBABILITY_GRID = [0.02, 0.05, 0.1, 0.2];

export type CrostonVariant = 'Croston' | 'SBA';

type Pass = { sse: number; rate: number };

/**
 * Croston (1972): smooth the non-zero demand sizes and the gaps between them
 * separately; forecast size / gap. SBA (Syntetos & Boylan 2005) multiplies by
 * (1 − α/2) to remove Croston's known upward bias.
 */
export function crostonRate(y: ArrayLike<number>, end: number, alpha: number, variant: CrostonVariant): number {
  return crostonPass(y, end, alpha, variant).rate;
}

/**
 * One pass over [0, end): the rate at the end, the rate at each of the ascending
 * `ends` (written to `rates`), and the in-sample one-step squared error from
 * the first demand on — so a grid point or a set of origins costs one pass.
 */
function crostonPass(y: ArrayLike<number>, end: number, alpha: number, variant: CrostonVariant, ends: readonly number[] = [], rates?: Float64Array): Pass {
  let size = 0;
  let interval = 0;
  let sinceLast = 1;
  let started = false;
  let sse = 0;
  const correction = variant === 'SBA' ? 1 - alpha / 2 : 1;
  for (let t = 0, next = 0; ; t++) {
    const rate = started ? (correction * size) / interval : 0;
    for (; next < ends.length && ends[next] === t; next++) rates![next] = rate;
    if (t >= end) return { sse, rate };
    const value = y[t]!;
    if (started) sse += (value - rate) ** 2;
    if (value > 0) {
      if (!started) {
        size = value;
        interval = sinceLast;
        started = true;
      } else {
        size += alpha * (value - size);
        interval += alpha * (sinceLast - interval);
      }
      sinceLast = 1;
    } else {
      sinceLast++;
    }
  }
}

/** A rate model's forecasts: the rate at each origin, held flat over the horizon. */
function flatForecastsAt(ends: readonly number[], horizon: number, pass: (rates: Float64Array) => void): Float64Array[] {
  const rates = new Float64Array(ends.length);
  pass(rates);
  const forecasts = arraysInOneBuffer(ends.length, horizon);
  forecasts.forEach((forecast, i) => forecast.fill(rates[i]!));
  return forecasts;
}

export function croston(variant: CrostonVariant): Candidate {
  return {
    name: variant,
    description:
      variant === 'Croston'
        ? 'Croston: for items that sell on some days only, estimates the typical order size and how often orders come.'
        : 'Croston with the Syntetos–Boylan correction: typical order size and frequency, without the upward bias.',
    minLength: 2,
    fit(history, end) {
      const alpha = bestOnGrid(ALPHA_GRID, (a) => crostonPass(history, end, a, variant).sse);
      return {
        name: variant,
        predict: (series, seriesEnd, horizon) => new Float64Array(horizon).fill(crostonRate(series, seriesEnd, alpha, variant)),
        predictAt: (series, ends, horizon) => flatForecastsAt(ends, horizon, (rates) => crostonPass(series, ends[ends.length - 1]!, alpha, variant, ends, rates)),
      };
    },
  };
}

/**
 * TSB (Teunter, Syntetos & Babai 2011): smooths the probability of a sale every
 * day, so the forecast decays when an item stops selling — Croston never does.
 * Same pass structure as crostonPass.
 */
function tsbPass(y: ArrayLike<number>, end: number, alpha: number, beta: number, ends: readonly number[] = [], rates?: Float64Array): Pass {
  let probability = 0;
  let size = 0;
  let seen = 0;
  let sse = 0;
  for (let t = 0, next = 0; ; t++) {
    for (; next < ends.length && ends[next] === t; next++) rates![next] = probability * size;
    if (t >= end) return { sse, rate: probability * size };
    if (y[t]! > 0) {
      size = seen === 0 ? y[t]! : size + alpha * (y[t]! - size);
      seen++;
    }
    if (t === 0) probability = y[0]! > 0 ? 1 : 0;
    sse += (y[t]! - probability * size) ** 2;
    probability += beta * ((y[t]! > 0 ? 1 : 0) - probability);
  }
}

export function tsb(): Candidate {
  return {
    name: 'TSB',
    description: 'TSB: for items that sell on some days only; tracks how likely a sale is each day, so it drops when an item goes quiet.',
    minLength: 2,
    fit(history, end) {
      let best = { alpha: 0.1, beta: 0.05, error: Infinity };
      for (const alpha of ALPHA_GRID) {
        for (const beta of PROBABILITY_GRID) {
          const error = tsbPass(history, end, alpha, beta).sse;
          if (error < best.error) best = { alpha, beta, error };
        }
      }
      const { alpha, beta } = best;
      return {
        name: 'TSB',
        predict: (series, seriesEnd, horizon) => new Float64Array(horizon).fill(tsbPass(series, seriesEnd, alpha, beta).rate),
        predictAt: (series, ends, horizon) => flatForecastsAt(ends, horizon, (rates) => tsbPass(series, ends[ends.length - 1]!, alpha, beta, ends, rates)),
      };
    },
  };
}

/**
 * ADIDA (Nikolopoulos et al. 2011): sum the series into buckets of about one
 * inter-demand interval, smooth the bucket totals with SES, spread the result
 * evenly. iMAPA averages this over every bucket size up to that interval,
 * which avoids betting on one aggregation level.
 */
export function imapa(): Candidate {
  return {
    name: 'iMAPA',
    description: 'iMAPA: looks at demand summed over several bucket sizes (days, few days, weeks) and averages what each sees.',
    minLength: 4,
    fit(history, end) {
      const maxBucket = Math.min(14, Math.max(1, Math.round(averageInterval(history, end))), Math.floor(end / 2));
      const alphas: number[] = [];
      for (let bucket = 1; bucket <= maxBucket; bucket++) {
        const totals = bucketTotals(history, end, bucket);
        alphas.push(bestOnGrid(ALPHA_GRID, (a) => sesSquaredError(totals, a)));
      }
      const rateAt = (series: Float64Array, seriesEnd: number): number => {
        let rate = 0;
        for (let bucket = 1; bucket <= maxBucket; bucket++) rate += bucketSesLevel(series, seriesEnd, bucket, alphas[bucket - 1]!) / bucket;
        return rate / maxBucket;
      };
      return {
        name: maxBucket === 1 ? 'ADIDA(1)' : `iMAPA(1..${maxBucket})`,
        predict: (series, seriesEnd, horizon) => new Float64Array(horizon).fill(rateAt(series, seriesEnd)),
        predictAt: (series, ends, horizon) => flatForecastsAt(ends, horizon, (rates) => ends.forEach((seriesEnd, i) => (rates[i] = rateAt(series, seriesEnd)))),
      };
    },
  };
}

/** Average demand interval (ADI): periods per non-zero demand. */
export function averageInterval(y: ArrayLike<number>, end: number): number {
  let nonZero = 0;
  for (let t = 0; t < end; t++) if (y[t]! > 0) nonZero++;
  return nonZero === 0 ? end : end / nonZero;
}

/** Buckets are aligned to the end so the most recent bucket is always complete. */
function bucketTotals(y: ArrayLike<number>, end: number, bucket: number): Float64Array {
  const count = Math.floor(end / bucket);
  const totals = new Float64Array(count);
  const offset = end - count * bucket;
  for (let b = 0; b < count; b++) {
    let sum = 0;
    for (let i = 0; i < bucket; i++) sum += y[offset + b * bucket + i]!;
    totals[b] = sum;
  }
  return totals;
}

/** SES level over the bucket totals of bucketTotals(), summed on the fly: predictions run at every origin. */
function bucketSesLevel(y: ArrayLike<number>, end: number, bucket: number, alpha: number): number {
  const count = Math.floor(end / bucket);
  const offset = end - count * bucket;
  let level = 0;
  for (let b = 0; b < count; b++) {
    let sum = 0;
    for (let i = 0; i < bucket; i++) sum += y[offset + b * bucket + i]!;
    level = b === 0 ? sum : level + alpha * (sum - level);
  }
  return level;
}

function sesSquaredError(values: Float64Array, alpha: number): number {
  let level = values[0] ?? 0;
  let sse = 0;
  for (let t = 1; t < values.length; t++) {
    const error = values[t]! - level;
    sse += error * error;
    level += alpha * error;
  }
  return sse;
}

function bestOnGrid(grid: number[], error: (value: number) => number): number {
  let best = grid[0]!;
  let bestError = Infinity;
  for (const value of grid) {
    const e = error(value);
    if (e < bestError) {
      best = value;
      bestError = e;
    }
  }
  return best;
}
