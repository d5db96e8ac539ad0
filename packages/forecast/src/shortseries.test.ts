import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { perStepSpread, selectAndForecast, type EngineOptions } from './engine.ts';
import { forecastSeries } from './index.ts';
import { combination } from './models/combination.ts';
import { fixed, type Candidate } from './models/candidate.ts';
import { drift, naive } from './models/naive.ts';
import { projectStock } from './stock.ts';
import { random } from './simulate.test-data.ts';

/** A standard normal draw (Box–Muller). */
const normal = (next: () => number): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

const constant = (name: string, value: number): Candidate => ({ name, description: name, minLength: 1, fit: () => fixed(name, (_, __, out) => out.fill(value)) });

const OPTIONS: EngineOptions = {
  horizon: 4,
  validationHorizon: 4,
  origins: 12,
  originStep: 1,
  levels: [0.8, 0.95],
  nonNegative: true,
  score: 'mae',
  scalePeriod: 1,
  combineTop: 1,
  intervalInflation: () => 1,
  wholeUnits: false,
  refitFinal: true,
};

describe('short-series models', () => {
  it('drift carries the average change since the first point on', () => {
    const model = drift().fit(Float64Array.from([10, 12, 16]), 3);
    expect(Array.from(model.predict(Float64Array.from([10, 12, 16]), 3, 3))).toEqual([19, 22, 25]);
  });

  it('a combination takes the median or the mean of its members, step by step', () => {
    const members = [constant('a', 1), constant('b', 2), constant('c', 9)];
    const history = new Float64Array(5);
    expect(Array.from(combination('m', members, 'median').fit(history, 5).predict(history, 5, 2))).toEqual([2, 2]);
    expect(Array.from(combination('m', members, 'mean').fit(history, 5).predict(history, 5, 2))).toEqual([4, 4]);
    const fromOrigins = combination('m', [naive(), drift()], 'mean').fit(Float64Array.from([1, 2, 3, 4, 5]), 3);
    expect(fromOrigins.predictAt!(Float64Array.from([1, 2, 3, 4, 5]), [3, 5], 1).map((f) => f[0])).toEqual([3.5, 5.5]);
  });
});

describe('bands of short and growing series', () => {
  it('relative errors: a series growing tenfold gets bands in proportion to its level, not to its early errors', () => {
    const next = random(3);
    const y = Float64Array.from({ length: 60 }, (_, t) => 10 * 1.04 ** t * (1 + 0.05 * (next() - 0.5)));
    const absolute = selectAndForecast(y, [naive(), drift()], OPTIONS);
    const relative = selectAndForecast(y, [naive(), drift()], { ...OPTIONS, relativeErrors: true });
    const width = (result: typeof absolute) => result.bands.get(0.8)!.upper[0]! - result.bands.get(0.8)!.lower[0]!;
    expect(relative.mean).toEqual(absolute.mean);
    expect(width(relative)).toBeGreaterThan(width(absolute));
    // 5 % noise on a level near 100: the 80 % band is a few percent of it, not tens.
    expect(width(relative) / relative.mean[0]!).toBeLessThan(0.2);
  });

  it('falls back to absolute errors when a falling trend is clipped to zero', () => {
    // A fall from 100 to 10, then flat: drift from the early origins forecasts below zero, clipped to 0, while 10 was sold.
    const y = Float64Array.from({ length: 24 }, (_, t) => (t < 10 ? 100 - 10 * t : 10 + (t % 2)));
    const result = selectAndForecast(y, [drift()], { ...OPTIONS, relativeErrors: true });
    for (const band of result.bands.values()) band.upper.forEach((value) => expect(value).toBeLessThan(100));
  });

  it('the random-walk floor keeps a seven-point series from a band narrower than its own year-to-year changes', () => {
    const y = Float64Array.from([100, 120, 90, 130, 100, 125, 95]);
    const floored = selectAndForecast(y, [constant('flat', 110)], { ...OPTIONS, randomWalkFloor: true });
    const changes = Math.sqrt([20, -30, 40, -30, 25, -30].reduce((sum, d) => sum + d * d, 0) / 6);
    for (let j = 0; j < 4; j++) expect(floored.bands.get(0.95)!.upper[j]! - 110).toBeGreaterThanOrEqual(1.95 * changes * Math.sqrt(j + 1));
  });

  it("the floor grows like a random walk with drift's error: its drift is estimated from few points", () => {
    const y = Float64Array.from([100, 120, 90, 130, 100, 125, 95]);
    const floored = selectAndForecast(y, [constant('flat', 110)], { ...OPTIONS, randomWalkFloor: true });
    const changes = Math.sqrt([20, -30, 40, -30, 25, -30].reduce((sum, d) => sum + d * d, 0) / 6);
    // Six one-step changes: at step h the drift's error adds h²·σ²/6 to the random walk's h·σ².
    for (let j = 0; j < 4; j++) expect(floored.bands.get(0.95)!.upper[j]! - 110).toBeGreaterThanOrEqual(1.959 * changes * Math.sqrt((j + 1) * (1 + (j + 1) / 6)));
  });

  it('any short positive series gives finite, ordered bands with the short-series pools', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 }), fc.constantFrom(1, 4, 12), (values, period) => {
        const horizon = period === 1 ? 4 : 2 * period;
        const result = forecastSeries(values, { horizon, seasonalPeriods: period > 1 ? [period] : [] });
        for (let j = 0; j < horizon; j++) {
          const row = [result.lower[95]![j]!, result.lower[80]![j]!, result.mean[j]!, result.upper[80]![j]!, result.upper[95]![j]!];
          row.forEach((value) => expect(Number.isFinite(value)).toBe(true));
          for (let k = 1; k < row.length; k++) expect(row[k - 1]!).toBeLessThanOrEqual(row[k]! + 1e-6 * Math.abs(row[k]!));
        }
      }),
      { numRuns: 80 },
    );
  });

  it('a short seasonal series is forecast by the fixed seasonal combination', () => {
    const values = Array.from({ length: 40 }, (_, t) => 100 + 10 * t + [30, -10, -30, 10][t % 4]!);
    const result = forecastSeries(values, { horizon: 8, seasonalPeriods: [4] });
    expect(result.model).toBe('SeasonalCombination');
    // Trend and season both carried on: next year's first quarter is above this year's.
    expect(result.mean[4]!).toBeGreaterThan(values[values.length - 4]!);
  });
});

describe('band width per horizon step', () => {
  it("each validated step's spread is the RMS of its own errors; gaps take the step before, later steps grow by h^p", () => {
    const errors: number[][] = [[3, -4], [1, -1, 1, -1]];
    errors[3] = [6, -8];
    expect(Array.from(perStepSpread(errors, 6, 0.5))).toEqual([Math.sqrt(12.5), 1, 1, Math.sqrt(50), Math.sqrt(50) * Math.sqrt(5 / 4), Math.sqrt(50) * Math.sqrt(6 / 4)]);
    // Not forced to grow: a step whose errors are smaller than the step before's gets a narrower band.
    expect(perStepSpread([[4, -4], [1, -1]], 2, 0)[1]).toBeLessThan(perStepSpread([[4, -4], [1, -1]], 2, 0)[0]!);
  });

  // A quarterly series whose noise differs by quarter (spread 1, 3, 1, 2) around a known level:
  // the quarter of each step is that of its validation errors, since the origins are a year apart.
  const QUARTER_SPREADS = [1, 3, 1, 2];
  const simulatedCoverage = (stepWidths: boolean) => {
    const next = random(16);
    const inside = [0.8, 0.95].map(() => new Float64Array(4));
    const runs = 300;
    for (let run = 0; run < runs; run++) {
      const y = Float64Array.from({ length: 84 }, (_, t) => 100 + QUARTER_SPREADS[t % 4]! * normal(next));
      const history = y.subarray(0, 80);
      const result = selectAndForecast(history, [constant('level', 100)], { ...OPTIONS, originStep: 4, nonNegative: false, stepWidths });
      [0.8, 0.95].forEach((level, l) => {
        const band = result.bands.get(level)!;
        for (let j = 0; j < 4; j++) if (y[80 + j]! >= band.lower[j]! && y[80 + j]! <= band.upper[j]!) inside[l]![j]!++;
      });
    }
    return inside.map((counts) => Array.from(counts, (count) => count / runs));
  };

  it('steps as wide as their own errors cover near nominal at every step, where one growth curve cannot', () => {
    const [perStep80, perStep95] = simulatedCoverage(true);
    for (const coverage of perStep80!) expect(Math.abs(coverage - 0.8)).toBeLessThan(0.06);
    for (const coverage of perStep95!) expect(Math.abs(coverage - 0.95)).toBeLessThan(0.04);
    // The a·h^p curve through all steps: the noisy second quarter's band is as narrow as its neighbours'.
    const [curve80] = simulatedCoverage(false);
    expect(Math.min(...curve80!)).toBeLessThan(0.7);
    expect(Math.max(...curve80!)).toBeGreaterThan(0.9);
  });

  it('leaves point forecasts as they are', () => {
    const next = random(5);
    const y = Float64Array.from({ length: 60 }, (_, t) => 50 + t + 5 * normal(next));
    const withSteps = selectAndForecast(y, [naive(), drift()], { ...OPTIONS, stepWidths: true });
    expect(withSteps.mean).toEqual(selectAndForecast(y, [naive(), drift()], OPTIONS).mean);
  });
});

describe('error correlation between days of one origin', () => {
  it('is 1 when a forecast is off by the same amount every day, and near 0 for independent noise', () => {
    const offByFive = selectAndForecast(new Float64Array(40).fill(15), [constant('low', 10)], OPTIONS);
    expect(offByFive.validation!.errorCorrelation).toBe(1);
    const next = random(9);
    const noise = selectAndForecast(Float64Array.from({ length: 400 }, () => 10 + next() - 0.5), [constant('right', 10)], { ...OPTIONS, horizon: 28, validationHorizon: 28, originStep: 7 });
    expect(noise.validation!.errorCorrelation).toBeLessThan(0.1);
  });
});

describe('stock band with correlated daily errors', () => {
  const forecast = Array.from({ length: 30 }, (_, j) => ({ ds: `2025-01-${String(j + 1).padStart(2, '0')}`, yhat: 10, yhat_lower: 0, yhat_upper: 20, yhat_lower_80: 0, yhat_upper_80: 15 }));
  const sigmas = new Float64Array(30).fill(3);

  it('widens with the correlation between days, from the independent sum towards the sum of the spreads', () => {
    const halfWidth = (correlation: number) => {
      const last = projectStock({ day: 0, level: 1000 }, forecast, new Map(), sigmas, correlation).at(-1)!;
      return last.stock_level - last.stock_lower;
    };
    expect(halfWidth(0)).toBeCloseTo(1.959964 * 3 * Math.sqrt(30), 3);
    expect(halfWidth(0.5)).toBeGreaterThan(halfWidth(0));
    expect(halfWidth(1)).toBeGreaterThan(halfWidth(0.5));
    // Even fully correlated days are only partly counted (ERROR_CORRELATION_SHARE), so the band stays below the summed daily spreads.
    expect(halfWidth(1)).toBeLessThan(1.959964 * 3 * 30);
  });
});
