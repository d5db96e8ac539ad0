import { crostonRate, multiplicativeIndices, seasonalityTest } from '@stockwise/forecast';

/** M4 Naive2: naive on data seasonally adjusted by classical multiplicative decomposition, when the 90% test finds seasonality. */
export function naive2(insample: number[], horizon: number, period: number): number[] {
  const last = insample[insample.length - 1]!;
  if (period <= 1 || !seasonalityTest(insample, period)) return new Array<number>(horizon).fill(last);
  const indices = multiplicativeIndices(insample, insample.length, period);
  const n = insample.length;
  const adjustedLast = last / indices[(n - 1) % period]!;
  return Array.from({ length: horizon }, (_, j) => adjustedLast * indices[(n + j) % period]!);
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
