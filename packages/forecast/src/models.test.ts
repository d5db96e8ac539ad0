import { describe, expect, it } from 'vitest';
import { crostonRate, averageInterval, croston, tsb } from './models/intermittent.ts';
import { etsForecastsAt, runEts, type EtsForm, type EtsParameters } from './models/ets.ts';
import { seasonalNaive, naive } from './models/naive.ts';
import { theta, regressionSlope } from './models/theta.ts';
import { multiplicativeIndices, seasonalityTest } from './seasonality.ts';
import { classifyDemand } from './demand.ts';
import { normalQuantile, quantile } from './stats.ts';

const SES: EtsForm = { trend: 'none', season: 'none', period: 1 };
const parameters = (overrides: Partial<EtsParameters>): EtsParameters => ({ alpha: 0.5, beta: 0, gamma: 0, phi: 1, level: 0, slope: 0, seasonal: new Float64Array(1), ...overrides });

describe('exponential smoothing recursions (hand-computed)', () => {
  it('SES with α=0.5 from level 10', () => {
    // l1 = 10 + .5(12-10) = 11; l2 = 11 + .5(8-11) = 9.5; l3 = 9.5 + .5(10-9.5) = 9.75
    const { sse, forecast } = runEts(SES, parameters({ level: 10 }), [12, 8, 10], 3, 2);
    expect(sse).toBeCloseTo(4 + 9 + 0.25, 10);
    expect(Array.from(forecast)).toEqual([9.75, 9.75]);
  });

  it('Holt linear trend follows a straight line exactly', () => {
    const line = [3, 5, 7, 9, 11];
    const { sse, forecast } = runEts({ trend: 'additive', season: 'none', period: 1 }, parameters({ alpha: 0.3, beta: 0.1, level: 1, slope: 2 }), line, 5, 3);
    expect(sse).toBeCloseTo(0, 10);
    expect(Array.from(forecast)).toEqual([13, 15, 17]);
  });

  it('damped trend adds φ + φ² + … of the slope', () => {
    const { forecast } = runEts({ trend: 'damped', season: 'none', period: 1 }, parameters({ alpha: 0.5, beta: 0.1, phi: 0.5, level: 10, slope: 4 }), [], 0, 3);
    expect(Array.from(forecast)).toEqual([12, 13, 13.5]);
  });

  it('additive Holt–Winters repeats the seasonal states on a perfectly seasonal series', () => {
    const seasonal = Float64Array.from([-1, 1]);
    const { sse, forecast } = runEts({ trend: 'none', season: 'additive', period: 2 }, parameters({ alpha: 0.2, gamma: 0.1, level: 5, seasonal }), [4, 6, 4, 6], 4, 3);
    expect(sse).toBeCloseTo(0, 10);
    expect(Array.from(forecast)).toEqual([4, 6, 4]);
  });

  it('multiplicative Holt–Winters scales the level by the seasonal index', () => {
    const seasonal = Float64Array.from([0.5, 1.5]);
    const { forecast } = runEts({ trend: 'none', season: 'multiplicative', period: 2 }, parameters({ level: 10, seasonal }), [5, 15], 2, 2);
    expect(Array.from(forecast)).toEqual([5, 15]);
  });

  it.each([
    { trend: 'none', season: 'none', period: 1 },
    { trend: 'damped', season: 'additive', period: 3 },
    { trend: 'additive', season: 'multiplicative', period: 3 },
  ] as EtsForm[])('one pass over several origins gives the per-origin forecasts exactly (%o)', (form) => {
    const y = Array.from({ length: 30 }, (_, t) => 10 + t / 4 + [2, -1, 0.5][t % 3]! + Math.sin(t));
    const p = parameters({ alpha: 0.4, beta: 0.05, gamma: 0.2, phi: 0.9, level: 10, slope: 0.2, seasonal: Float64Array.from(form.season === 'multiplicative' ? [1.1, 0.9, 1] : [1, -1, 0]) });
    const ends = [0, 7, 7, 20, 30];
    expect(etsForecastsAt(form, p, y, ends, 4)).toEqual(ends.map((end) => runEts(form, p, y, end, 4).forecast));
  });
});

describe('Theta', () => {
  it('regression slope of a line is its slope', () => {
    expect(regressionSlope([1, 3, 5, 7], 4)).toBeCloseTo(2, 12);
  });

  it('on a straight line forecasts continue with half the slope from the SES level', () => {
    const y = Float64Array.from({ length: 40 }, (_, t) => 2 * t);
    const forecast = theta().fit(y, 40).predict(y, 40, 3);
    expect(forecast[1]! - forecast[0]!).toBeCloseTo(1, 6);
    expect(forecast[0]!).toBeGreaterThan(70);
  });
});

describe('naive models', () => {
  it('naive repeats the last value and seasonal naive the last cycle', () => {
    const y = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(naive().fit(y, 8).predict(y, 8, 2))).toEqual([8, 8]);
    expect(Array.from(seasonalNaive(3).fit(y, 8).predict(y, 8, 4))).toEqual([6, 7, 8, 6]);
  });
});

describe('intermittent demand', () => {
  // Demand 0 0 4 0 2 with α=0.5: first demand size 4 after gap 3; then size 4+.5(2-4)=3, gap 3+.5(2-3)=2.5.
  const y = [0, 0, 4, 0, 2];
  it('Croston: size / interval', () => {
    expect(crostonRate(y, 5, 0.5, 'Croston')).toBeCloseTo(3 / 2.5, 12);
  });
  it('SBA removes the bias with (1 − α/2)', () => {
    expect(crostonRate(y, 5, 0.5, 'SBA')).toBeCloseTo((0.75 * 3) / 2.5, 12);
  });
  it('average inter-demand interval', () => {
    expect(averageInterval(y, 5)).toBe(2.5);
  });
  it('TSB decays towards zero when sales stop, Croston does not', () => {
    const selling = Float64Array.from({ length: 60 }, (_, t) => (t % 3 === 0 ? 3 : 0));
    const stopped = Float64Array.from([...selling, ...new Array<number>(60).fill(0)]);
    const tsbForecast = tsb().fit(stopped, 120).predict(stopped, 120, 1)[0]!;
    const crostonForecast = croston('Croston').fit(stopped, 120).predict(stopped, 120, 1)[0]!;
    expect(tsbForecast).toBeLessThan(crostonForecast);
  });
});

describe('seasonality', () => {
  it('classical multiplicative indices recover a known pattern', () => {
    const pattern = [0.5, 1, 1.5];
    const y = Array.from({ length: 30 }, (_, t) => 10 * pattern[t % 3]!);
    const indices = multiplicativeIndices(y, 30, 3);
    pattern.forEach((p, i) => expect(indices[i]!).toBeCloseTo(p, 10));
    expect(seasonalityTest(y, 3)).toBe(true);
  });
  it('white noise is not seasonal', () => {
    let s = 1;
    const noise = Array.from({ length: 200 }, () => ((s = (s * 16807) % 2147483647) / 2147483647));
    expect(seasonalityTest(noise, 7)).toBe(false);
  });
});

describe('demand classification (ADI 1.32, CV² 0.49)', () => {
  it.each([
    [[5, 5, 6, 5, 4, 5, 5, 6], 'smooth'],
    [[1, 20, 2, 30, 1, 25, 2, 40], 'erratic'],
    [[0, 5, 0, 0, 5, 0, 6, 0, 0, 5], 'intermittent'],
    [[0, 1, 0, 0, 40, 0, 2, 0, 0, 30], 'lumpy'],
  ] as const)('%j is %s', (values, expected) => {
    expect(classifyDemand(values).demandClass).toBe(expected);
  });
  it('ignores censored days', () => {
    const values = [5, 0, 5, 0, 5, 0, 5, 0];
    const observed = Uint8Array.from([1, 0, 1, 0, 1, 0, 1, 0]);
    expect(classifyDemand(values, observed).demandClass).toBe('smooth');
  });
});

describe('statistics', () => {
  it('normal quantiles', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.9)).toBeCloseTo(1.281552, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });
  it('type-7 quantile', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });
});
