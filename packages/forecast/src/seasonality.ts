import { forecastsAt, type Candidate, type FittedModel } from './models/candidate.ts';
import { autocorrelations, gramMatrix, leastSquares, type RegressionDesign } from './stats.ts';

/**
 * The M4 benchmarks' seasonality test (R `SeasonalityTest`): the lag-m
 * autocorrelation must exceed its 90% one-sided limit under Bartlett's formula.
 * Kept identical so our Naive2 reproduces the published scores.
 */
export function seasonalityTest(values: ArrayLike<number>, period: number): boolean {
  const n = values.length;
  if (period < 2 || n < 3 * period) return false;
  const acf = autocorrelations(values, period);
  let sumSquares = 0;
  for (let lag = 1; lag < period; lag++) sumSquares += acf[lag - 1]! ** 2;
  const limit = (1.645 / Math.sqrt(n)) * Math.sqrt(1 + 2 * sumSquares);
  return Math.abs(acf[period - 1]!) > limit;
}

/**
 * Classical multiplicative decomposition indices (R `decompose`): ratio to a
 * centred moving average, averaged per position, normalised to mean 1.
 * Index i belongs to every t with t % period === i. `recentCycles` limits the
 * average to recent cycles so a changing pattern is followed.
 */
export function multiplicativeIndices(values: ArrayLike<number>, end: number, period: number, recentCycles = Infinity): Float64Array {
  const sums = new Float64Array(period);
  const counts = new Float64Array(period);
  const half = Math.floor(period / 2);
  const firstCentre = Math.max(half, end - half - Math.floor(Math.min(recentCycles * period, end)));
  forEachRatioToTrend(values, end, period, firstCentre, (centre, ratio) => {
    const position = centre % period;
    sums[position] = sums[position]! + ratio;
    counts[position] = counts[position]! + 1;
  });
  const indices = new Float64Array(period);
  let total = 0;
  for (let i = 0; i < period; i++) {
    indices[i] = counts[i]! > 0 ? sums[i]! / counts[i]! : 1;
    total += indices[i]!;
  }
  const norm = total / period;
  for (let i = 0; i < period; i++) indices[i] = norm > 0 ? indices[i]! / norm : 1;
  return indices;
}

/** Calls visit(t, values[t] / centred moving average) for every t from firstCentre whose window fits and whose average is positive. */
function forEachRatioToTrend(values: ArrayLike<number>, end: number, period: number, firstCentre: number, visit: (centre: number, ratio: number) => void): void {
  const half = Math.floor(period / 2);
  const even = period % 2 === 0;
  const prefix = new Float64Array(end + 1);
  for (let t = 0; t < end; t++) prefix[t + 1] = prefix[t]! + values[t]!;
  for (let centre = firstCentre; centre + half < end; centre++) {
    const window = prefix[centre + half + 1]! - prefix[centre - half]!;
    // An even period needs a 2×m moving average: the two end points get half weight.
    const movingAverage = even ? (window - 0.5 * (values[centre - half]! + values[centre + half]!)) / period : window / period;
    if (movingAverage > 0) visit(centre, values[centre]! / movingAverage);
  }
}

/**
 * Strength of seasonality (Wang, Smith & Hyndman 2006) on the classical
 * multiplicative decomposition: 1 − Var(remainder) / Var(detrended), from 0
 * (no pattern) to 1 (the pattern is all there is). Unlike the autocorrelation
 * test, a trend does not inflate it.
 */
export function seasonalStrength(values: ArrayLike<number>, period: number): number {
  const n = values.length;
  const indices = multiplicativeIndices(values, n, period);
  let count = 0;
  let detrendedSum = 0;
  let detrendedSquares = 0;
  let remainderSum = 0;
  let remainderSquares = 0;
  forEachRatioToTrend(values, n, period, Math.floor(period / 2), (centre, ratio) => {
    const remainder = ratio / Math.max(MIN_DIVISOR_INDEX, indices[centre % period]!);
    count++;
    detrendedSum += ratio;
    detrendedSquares += ratio * ratio;
    remainderSum += remainder;
    remainderSquares += remainder * remainder;
  });
  if (count < 2) return 0;
  const detrendedVariance = detrendedSquares / count - (detrendedSum / count) ** 2;
  const remainderVariance = remainderSquares / count - (remainderSum / count) ** 2;
  return detrendedVariance > 0 ? Math.max(0, 1 - remainderVariance / detrendedVariance) : 0;
}

// Dividing by an index under this (a weekday that never sells) would explode the result: seasonalStrength
// floors the divisor at it, divideByProfile fills such positions from the rest of their cycle.
const MIN_DIVISOR_INDEX = 0.05;

/**
 * Runs a non-seasonal model on seasonally adjusted data and puts the seasonal
 * pattern back on the forecast. Several periods (24 then 168 for hourly, 7 for
 * daily) are removed one after another, each on the data the previous left.
 */
export function deseasonalized(base: Candidate, periods: number[], recentCycles = Infinity): Candidate {
  const longest = Math.max(...periods);
  return adjustedFor(base, `Seasonal(${periods.join(',')})`, `Adjusted for the ${periods.map(describePeriod).join(' and ')} pattern.`, Math.max(base.minLength, 3 * longest), (history, end) =>
    decomposition(history, end, periods, recentCycles),
  );
}

/**
 * Like deseasonalized, with a weekday pattern pooled over many products (the category's or the
 * catalogue's) instead of the series' own: `pattern[t % 7]` for history day t, mean 1, 0 on closed
 * days. For an item that sells on some days only, whose own weekday averages are mostly chance
 * (ADR 0198 F11). The level is the base model's; the pattern spreads it over the week, so a quiet
 * day stays quiet whatever the level.
 */
export function pooledWeekdays(base: Candidate, pattern: Float64Array): Candidate {
  return adjustedFor(base, POOLED_WEEKDAYS, "Spread over the weekdays as the sales of its category (or of the whole catalogue) are.", base.minLength, (history) => ({
    profiles: [pattern],
    adjusted: divideByProfile(history, pattern),
  }));
}

/** The name a model gets with pooledWeekdays. */
export const POOLED_WEEKDAYS = 'PooledWeekdays';

/**
 * `base` fitted to the history divided by the profiles `decompose` gives, its forecasts multiplied by
 * them; named `${base.name}+${suffix}`, its description followed by `note`.
 */
function adjustedFor(base: Candidate, suffix: string, note: string, minLength: number, decompose: (history: Float64Array, end: number) => Decomposition): Candidate {
  return {
    name: `${base.name}+${suffix}`,
    description: `${base.description} ${note}`,
    minLength,
    fit(history, end): FittedModel {
      const { profiles, adjusted } = decompose(history, end);
      const baseModel = base.fit(adjusted, end);
      const adjust = (series: Float64Array): Float64Array => {
        if (series === history) return adjusted;
        let adjustedSeries = series;
        for (const indices of profiles) adjustedSeries = divideByProfile(adjustedSeries, indices);
        return adjustedSeries;
      };
      const reseasonalize = (out: Float64Array, seriesEnd: number): Float64Array => {
        for (const indices of profiles) {
          for (let j = 0; j < out.length; j++) out[j] = out[j]! * indices[(seriesEnd + j) % indices.length]!;
        }
        return out;
      };
      return {
        name: `${baseModel.name}+${suffix}`,
        predict: (series, seriesEnd, horizon) => reseasonalize(baseModel.predict(adjust(series), seriesEnd, horizon), seriesEnd),
        predictAt: (series, ends, horizon) => forecastsAt(baseModel, adjust(series), ends, horizon).map((out, i) => reseasonalize(out, ends[i]!)),
      };
    },
  };
}

type Decomposition = { profiles: Float64Array[]; adjusted: Float64Array };

// Several candidates (SES, damped, Theta) run on the same adjusted series; the
// decomposition is computed once per series, fit end and periods. Keyed weakly
// by the series so it lives exactly as long as the forecast that uses it.
const decompositions = new WeakMap<Float64Array, Map<string, Decomposition>>();

function decomposition(history: Float64Array, end: number, periods: number[], recentCycles: number): Decomposition {
  let cache = decompositions.get(history);
  if (!cache) decompositions.set(history, (cache = new Map()));
  const key = `${end}/${periods.join(',')}/${recentCycles}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const profiles: Float64Array[] = [];
  let adjusted = history;
  for (const period of periods) {
    const indices = multiplicativeIndices(adjusted, end, period, recentCycles);
    profiles.push(indices);
    adjusted = divideByProfile(adjusted, indices);
  }
  const result = { profiles, adjusted };
  cache.set(key, result);
  return result;
}

/**
 * The values over their position's index. A position whose index is near zero (a weekday the shop
 * is closed on) says nothing about the level: it takes the mean adjusted value of the other
 * positions in the cycle before it (after it, for the first cycle). Divided by the floor instead,
 * its zeros pulled the adjusted level down by its share of the cycle, and every forecast put back on
 * the open days with it (a shop closed on Sundays was forecast a seventh too low); the last open
 * day's value alone would count that day's noise twice.
 */
function divideByProfile(values: Float64Array, indices: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  const period = indices.length;
  // The divisors once per position (0: near-zero index), and a running position instead of t % period.
  const divisors = indices.map((index) => (index < MIN_DIVISOR_INDEX ? 0 : index));
  const closed: number[] = [];
  for (let t = 0, position = 0; t < values.length; t++) {
    const divisor = divisors[position]!;
    if (divisor > 0) out[t] = values[t]! / divisor;
    else closed.push(t);
    if (++position === period) position = 0;
  }
  if (!closed.length || closed.length === values.length) return out;
  for (const t of closed) {
    const from = t >= period ? t - period : t + 1;
    let sum = 0;
    let count = 0;
    for (let s = from; s < Math.min(values.length, from + period); s++) {
      if (divisors[s % period]! > 0) {
        sum += out[s]!;
        count++;
      }
    }
    out[t] = count ? sum / count : 0;
  }
  return out;
}

function describePeriod(period: number): string {
  if (period === 7) return 'weekday';
  if (period === 24) return 'hour-of-day';
  if (period === 168) return 'hour-of-week';
  if (period === 365 || period === 52) return 'yearly';
  return `${period}-period`;
}

const DAYS_PER_YEAR = 365.25;

/**
 * sin and cos of the k-th yearly harmonic at day t, computed once per thread and shared by every
 * product of a catalogue (the same values the fit would compute: results are unchanged).
 */
const harmonicTables: { sin: Float64Array; cos: Float64Array }[] = [];
function harmonic(k: number, length: number): { sin: Float64Array; cos: Float64Array } {
  const cached = harmonicTables[k];
  if (cached && cached.sin.length >= length) return cached;
  const size = Math.max(length, 2 * (cached?.sin.length ?? 0), 4096);
  const table = {
    sin: Float64Array.from({ length: size }, (_, t) => Math.sin((2 * Math.PI * k * t) / DAYS_PER_YEAR)),
    cos: Float64Array.from({ length: size }, (_, t) => Math.cos((2 * Math.PI * k * t) / DAYS_PER_YEAR)),
  };
  harmonicTables[k] = table;
  return table;
}

// The regression's columns (constant, time, the harmonics) and their normal-equations matrix
// depend only on the fit's end: every product of a catalogue with the same history length shares
// them. The last few ends are kept per thread.
const fourierDesigns = new Map<string, RegressionDesign>();
const FOURIER_DESIGNS_KEPT = 8;

function fourierDesign(end: number, harmonics: number): RegressionDesign {
  const key = `${end}/${harmonics}`;
  const cached = fourierDesigns.get(key);
  if (cached) return cached;
  const columns: Float64Array[] = [new Float64Array(end).fill(1), Float64Array.from({ length: end }, (_, t) => t / end)];
  for (let k = 1; k <= harmonics; k++) {
    const { sin, cos } = harmonic(k, end);
    columns.push(sin.subarray(0, end), cos.subarray(0, end));
  }
  const design = { columns, gram: gramMatrix(columns, end) };
  if (fourierDesigns.size >= FOURIER_DESIGNS_KEPT) fourierDesigns.delete(fourierDesigns.keys().next().value!);
  fourierDesigns.set(key, design);
  return design;
}

/**
 * Yearly seasonality for daily data as a few Fourier terms fitted jointly with a
 * linear trend (so the trend does not leak into the yearly wave). A 365-slot
 * profile would need several years; 3 harmonics need barely more than one.
 */
export function withYearlyFourier(base: Candidate, harmonics = 3): Candidate {
  return {
    name: `${base.name}+Yearly`,
    description: `${base.description} Adds the yearly seasonal wave.`,
    minLength: Math.max(base.minLength, 548),
    fit(history, end): FittedModel {
      const { columns, gram } = fourierDesign(end, harmonics);
      const coefficients = leastSquares(columns, history.subarray(0, end), undefined, gram);
      // The wave's value on each day up to the furthest one asked for, kept as it is computed:
      // removed from the history and added to every forecast.
      let wave = new Float64Array(0);
      const waveUntil = (length: number): Float64Array => {
        if (length > wave.length) {
          const grown = new Float64Array(Math.max(length, 2 * wave.length, end + 128));
          grown.set(wave);
          // Harmonic by harmonic, each day's sum taking its terms in the order of k as before.
          for (let k = 1; k <= harmonics; k++) {
            const { sin, cos } = harmonic(k, grown.length);
            const sinWeight = coefficients[2 * k]!;
            const cosWeight = coefficients[2 * k + 1]!;
            for (let u = wave.length; u < grown.length; u++) grown[u] = grown[u]! + (sinWeight * sin[u]! + cosWeight * cos[u]!);
          }
          wave = grown;
        }
        return wave;
      };
      const remove = (series: Float64Array): Float64Array => {
        const values = waveUntil(series.length);
        const remainder = new Float64Array(series.length);
        for (let t = 0; t < series.length; t++) remainder[t] = series[t]! - values[t]!;
        return remainder;
      };
      const remainder = remove(history);
      const baseModel = base.fit(remainder, end);
      const addWave = (out: Float64Array, seriesEnd: number): Float64Array => {
        const values = waveUntil(seriesEnd + out.length);
        for (let j = 0; j < out.length; j++) out[j] = out[j]! + values[seriesEnd + j]!;
        return out;
      };
      const adjust = (series: Float64Array): Float64Array => (series === history ? remainder : remove(series));
      return {
        name: `${baseModel.name}+Yearly`,
        predict: (series, seriesEnd, horizon) => addWave(baseModel.predict(adjust(series), seriesEnd, horizon), seriesEnd),
        predictAt: (series, ends, horizon) => forecastsAt(baseModel, adjust(series), ends, horizon).map((out, i) => addWave(out, ends[i]!)),
      };
    },
  };
}
