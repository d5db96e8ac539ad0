import { describe, expect, it } from 'vitest';
import { forecastSeries } from '@stockwise/forecast';
import { crostonBenchmark, naive2, seasonalNaive } from './baselines.ts';
import { loadM4, loadM5, loadTourism } from './data.ts';
import { benchmarkM5, benchmarkTourism, score } from './run.ts';
import { seededSample } from './synthetic.ts';
import { mase, owa, rmsse, smape } from './metrics.ts';

// Published M4 scores (Evaluation and Ranks.xlsx): reproducing them proves the
// loaders, the metric code and the Naive2 decomposition before we trust our own numbers.
const PUBLISHED = {
  Weekly: { Naive2: { smape: 9.161, mase: 2.777 } },
  Hourly: { Naive2: { smape: 18.383, mase: 2.395 }, sNaive: { smape: 13.912, mase: 1.193 } },
};

function withinOnePercent(actual: number, published: number): void {
  expect(Math.abs(actual / published - 1)).toBeLessThan(0.01);
}

describe('metric code against the published M4 benchmarks', () => {
  it('small hand-computed cases', () => {
    expect(smape([100, 200], [110, 180])).toBeCloseTo((200 * 10) / 210 / 2 + (200 * 20) / 380 / 2, 10);
    expect(mase([1, 2, 4, 7], [8, 10], [9, 9], 1)).toBeCloseTo(1 / 2, 10);
    expect(rmsse([1, 2, 4, 7], [8, 10], [9, 9])).toBeCloseTo(Math.sqrt(1 / (14 / 3)), 10);
    expect(owa({ smape: 9, mase: 3 }, { smape: 10, mase: 2 })).toBeCloseTo(0.5 * (0.9 + 1.5), 10);
  });

  it.each(['Weekly', 'Hourly'] as const)('Naive2 on the full %s set', (name) => {
    const set = loadM4(name);
    const forecasts = set.train.map((values) => ({ mean: naive2(values, set.horizon, set.period) }));
    const scores = score(set.train, set.test, forecasts, set.period);
    withinOnePercent(scores.smape, PUBLISHED[name].Naive2.smape);
    withinOnePercent(scores.mase, PUBLISHED[name].Naive2.mase);
  });

  it('sNaive on the full Hourly set', () => {
    const set = loadM4('Hourly');
    const scores = score(set.train, set.test, set.train.map((values) => ({ mean: seasonalNaive(values, 48, 24) })), 24);
    withinOnePercent(scores.smape, PUBLISHED.Hourly.sNaive.smape);
    withinOnePercent(scores.mase, PUBLISHED.Hourly.sNaive.mase);
  });
});

/**
 * Tourism competition (Athanasopoulos, Hyndman, Song & Wu 2011, IJF 27(3), Tables 4–6):
 * MAPE of the seasonal naive forecast (naive for yearly) over the whole horizon, as
 * published — the Tcomp R package reproduces them exactly (ellisp/Tcomp-r-package,
 * pkg/tests/testthat/test-naive-mape.R). The paper's own MASE figures for these
 * rows could not be retrieved here; Tcomp notes its MASE comes out slightly above
 * them. MASE is pinned to Tcomp's reproduction instead (`Tcomp_reproduction`, R
 * forecast::accuracy: in-sample seasonal naive scale, m = 12, 4, 1), an independent
 * implementation, and to the straightforward one below.
 */
const TOURISM_PUBLISHED = {
  Monthly: { sNaiveMape: 22.56, tcompSNaiveMase: 1.63 },
  Quarterly: { sNaiveMape: 16.46, tcompSNaiveMase: 1.7 },
  Yearly: { sNaiveMape: 23.61, tcompSNaiveMase: 3.01 },
} as const;

/** The textbook definitions, written out without the benchmark's helpers. */
function straightforwardMapeAndMase(train: number[][], test: number[][], period: number): { mape: number; mase: number } {
  let mape = 0;
  let mase = 0;
  train.forEach((insample, i) => {
    const actual = test[i]!;
    const forecast = actual.map((_, j) => insample[insample.length - period + (j % period)]!);
    let scale = 0;
    for (let t = period; t < insample.length; t++) scale += Math.abs(insample[t]! - insample[t - period]!);
    scale /= insample.length - period;
    mape += actual.reduce((sum, y, j) => sum + (100 * Math.abs(y - forecast[j]!)) / Math.abs(y), 0) / actual.length;
    mase += actual.reduce((sum, y, j) => sum + Math.abs(y - forecast[j]!), 0) / actual.length / scale;
  });
  return { mape: mape / train.length, mase: mase / train.length };
}

describe('seasonal naive on the tourism competition against its published scores', () => {
  it.each(['Monthly', 'Quarterly', 'Yearly'] as const)('%s', (name) => {
    const set = loadTourism(name);
    const forecasts = set.train.map((values) => ({ mean: seasonalNaive(values, set.horizon, set.period) }));
    const ours = score(set.train, set.test, forecasts, set.period);
    const mape = set.test.reduce((sum, actual, i) => sum + actual.reduce((s, y, j) => s + (100 * Math.abs(y - forecasts[i]!.mean[j]!)) / Math.abs(y), 0) / actual.length, 0) / set.test.length;
    withinOnePercent(mape, TOURISM_PUBLISHED[name].sNaiveMape);
    withinOnePercent(ours.mase, TOURISM_PUBLISHED[name].tcompSNaiveMase);
    const reference = straightforwardMapeAndMase(set.train, set.test, set.period);
    expect(mape).toBeCloseTo(reference.mape, 9);
    expect(ours.mase).toBeCloseTo(reference.mase, 9);
    // Naive2 is seasonal naive's level on yearly data, where there is no season to adjust.
    if (set.period === 1) expect(score(set.train, set.test, set.train.map((values) => ({ mean: naive2(values, set.horizon, 1) })), 1)).toEqual(ours);
  });
});

describe('reduced benchmark (CI)', () => {
  it.each([
    ['Weekly', [52], 40],
    ['Hourly', [24, 168], 25],
  ] as const)('beats Naive2 on a seeded sample of M4 %s with calibrated intervals', (name, periods, sampleSize) => {
    const set = loadM4(name);
    const indices = seededSample(set.ids.length, sampleSize, 1);
    const train = indices.map((i) => set.train[i]!);
    const test = indices.map((i) => set.test[i]!);
    const ours = train.map((values) => forecastSeries(values, { horizon: set.horizon, seasonalPeriods: [...periods] }));
    const scores = score(train, test, ours.map((f) => ({ mean: f.mean, lower80: f.lower[80], upper80: f.upper[80], lower95: f.lower[95], upper95: f.upper[95] })), set.period);
    const naive2Scores = score(train, test, train.map((values) => ({ mean: naive2(values, set.horizon, set.period) })), set.period);
    expect(owa(scores, naive2Scores)).toBeLessThan(1);
    expect(scores.coverage95!).toBeGreaterThan(0.85);
    expect(scores.coverage80!).toBeGreaterThan(0.7);
  });

  it.each(['Monthly', 'Quarterly', 'Yearly'] as const)('beats Theta and Damped on tourism %s with calibrated intervals', (name) => {
    const rows = benchmarkTourism(name, { validation: false });
    const owaOf = (method: string): number => rows.find((row) => row.method === method)!.owa!;
    const ours = rows.find((row) => row.method === 'Stockwise (ours)')!;
    expect(ours.owa!).toBeLessThan(owaOf('Theta'));
    expect(ours.owa!).toBeLessThan(owaOf('Damped'));
    expect(ours.scores.coverage80!).toBeGreaterThan(0.75);
    expect(ours.scores.coverage80!).toBeLessThan(0.9);
    expect(ours.scores.coverage95!).toBeGreaterThan(0.9);
  });

  it('beats seasonal naive and Croston on the M5 subset (RMSSE)', async () => {
    const rows = await benchmarkM5({ validation: false, withProphet: false });
    const rmsseOf = (method: string): number => rows.find((row) => row.method.startsWith(method))!.scores.rmsse!;
    expect(rmsseOf('Stockwise')).toBeLessThan(rmsseOf('sNaive'));
    expect(rmsseOf('Stockwise')).toBeLessThan(rmsseOf('Croston'));
  });

  it('loads the M5 subset as 10 series with a 28-day holdout', () => {
    const series = loadM5();
    expect(series).toHaveLength(10);
    for (const s of series) expect(s.test).toHaveLength(28);
    expect(crostonBenchmark([0, 2, 0, 2], 2)).toEqual([1, 1]);
  });
});
