import { crostonRate, multiplicativeIndices, nelderMead, seasonalityTest } from '@stockwise/forecast';

/**
 * The M4 benchmarks' seasonal adjustment: classical multiplicative decomposition
 * when the 90% autocorrelation test finds seasonality at `period`, else none.
 */
function seasonalAdjustment(insample: number[], period: number): Float64Array | null {
  if (period <= 1 || !seasonalityTest(insample, period)) return null;
  return multiplicativeIndices(insample, insample.length, period);
}

/** Runs a non-seasonal method on the adjusted series and puts the pattern back on its forecast. */
function withSeasonalAdjustment(insample: number[], horizon: number, period: number, method: (adjusted: number[], horizon: number) => number[]): number[] {
  const indices = seasonalAdjustment(insample, period);
  if (!indices) return method(insample, horizon);
  const n = insample.length;
  const adjusted = insample.map((value, t) => value / indices[t % period]!);
  return method(adjusted, horizon).map((value, j) => value * indices[(n + j) % period]!);
}

/** M4 Naive2: naive on data seasonally adjusted by classical multiplicative decomposition, when the 90% test finds seasonality. */
export function naive2(insample: number[], horizon: number, period: number): number[] {
  return withSeasonalAdjustment(insample, horizon, period, (adjusted) => new Array<number>(horizon).fill(adjusted[adjusted.length - 1]!));
}

export function seasonalNaive(insample: number[], horizon: number, period: number): number[] {
  const n = insample.length;
  if (n < period) return new Array<number>(horizon).fill(insample[n - 1]!);
  return Array.from({ length: horizon }, (_, j) => insample[n - period + (j % period)]!);
}

/** Croston with the classic fixed α = 0.1: the usual intermittent-demand benchmark. */
export function crostonBenchmark(insample: number[], horizon: number): number[] {
  return new Array<number>(horizon).fill(crostonRate(insample, insample.length, 0.1, 'Croston'));
}

/**
 * Damped-trend Holt (additive errors): level ℓ, slope b, damping φ. Returns the
 * sum of squared one-step errors and the state at the end.
 */
function dampedHolt(y: number[], alpha: number, beta: number, phi: number, level0: number, slope0: number): { sse: number; level: number; slope: number } {
  let level = level0;
  let slope = slope0;
  let sse = 0;
  for (const value of y) {
    const error = value - (level + phi * slope);
    sse += error * error;
    level = level + phi * slope + alpha * error;
    slope = phi * slope + beta * error;
  }
  return { sse, level, slope };
}

// Enough optimiser steps for two to five parameters on series of 7–300 points.
const OPTIMISER_EVALUATIONS = 400;

/**
 * Simple exponential smoothing with α and the initial level by least squares
 * (the additive-error likelihood has the same optimum): the M4 `ses` benchmark.
 */
function ses(y: number[]): { alpha: number; level: number } {
  const objective = (x: Float64Array): number => dampedHolt(y, x[0]!, 0, 0, x[1]!, 0).sse;
  const spread = Math.max(...y) - Math.min(...y) || Math.abs(y[0]!) || 1;
  const best = nelderMead(objective, [0.5, y[0]!], [1e-4, y[0]! - 2 * spread], [0.9999, y[0]! + 2 * spread], OPTIMISER_EVALUATIONS, 1e-8);
  const alpha = best.x[0]!;
  return { alpha, level: dampedHolt(y, alpha, 0, 0, best.x[1]!, 0).level };
}

/**
 * The M4 Theta benchmark (Assimakopoulos & Nikolopoulos 2000, in Hyndman &
 * Billah's 2003 form) on the seasonally adjusted series: SES plus a drift of half
 * the slope of a linear regression on time, ŷ(h) = ℓ + b/2·(h − 1 + (1 − (1 − α)ⁿ)/α).
 */
export function thetaBenchmark(insample: number[], horizon: number, period: number): number[] {
  return withSeasonalAdjustment(insample, horizon, period, (y) => {
    const n = y.length;
    if (n < 3) return new Array<number>(horizon).fill(y[n - 1]!);
    const { alpha, level } = ses(y);
    const meanTime = (n - 1) / 2;
    const meanValue = y.reduce((sum, value) => sum + value, 0) / n;
    let covariance = 0;
    let timeVariance = 0;
    y.forEach((value, t) => {
      covariance += (t - meanTime) * (value - meanValue);
      timeVariance += (t - meanTime) ** 2;
    });
    const drift = covariance / timeVariance / 2;
    const offset = (1 - (1 - alpha) ** n) / alpha;
    return Array.from({ length: horizon }, (_, j) => level + drift * (j + offset));
  });
}

/**
 * The M4 Damped benchmark: damped-trend Holt on the seasonally adjusted series,
 * α, β, φ and the initial level and slope by least squares (β ≤ α, φ in
 * [0.8, 0.98] as in R's `holt(damped = TRUE)`); ŷ(h) = ℓ + (φ + … + φʰ)·b.
 */
export function dampedBenchmark(insample: number[], horizon: number, period: number): number[] {
  return withSeasonalAdjustment(insample, horizon, period, (y) => {
    const n = y.length;
    if (n < 3) return new Array<number>(horizon).fill(y[n - 1]!);
    const spread = Math.max(...y) - Math.min(...y) || Math.abs(y[0]!) || 1;
    const slopeStart = y[1]! - y[0]!;
    // β is optimised as a fraction of α so that β ≤ α always holds.
    const objective = (x: Float64Array): number => dampedHolt(y, x[0]!, x[1]! * x[0]!, x[2]!, x[3]!, x[4]!).sse;
    const best = nelderMead(
      objective,
      [0.5, 0.1, 0.9, y[0]!, slopeStart],
      [1e-4, 0, 0.8, y[0]! - 2 * spread, -spread],
      [0.9999, 1, 0.98, y[0]! + 2 * spread, spread],
      OPTIMISER_EVALUATIONS,
      1e-8,
    );
    const [alpha, fraction, phi, level0, slope0] = best.x as unknown as [number, number, number, number, number];
    const { level, slope } = dampedHolt(y, alpha, fraction * alpha, phi, level0, slope0);
    let damping = 0;
    return Array.from({ length: horizon }, (_, j) => {
      damping += phi ** (j + 1);
      return level + damping * slope;
    });
  });
}
