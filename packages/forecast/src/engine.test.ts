import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibratedInflation, selectAndForecast, surelyWithinWholeUnitBounds, wholeUnitBounds, type EngineOptions } from './engine.ts';
import { croston, tsb } from './models/intermittent.ts';

/** Errors that put `counts[v]` of the outcomes on v units when added to `point` with spread 1. */
function errorsFor(point: number, counts: number[]): Float64Array {
  return Float64Array.from(counts.flatMap((count, value) => new Array<number>(count).fill(value - point)));
}

/** Fraction of the outcomes point + error (rounded, clipped at 0) inside [lower, upper], and below lower. */
function shares(point: number, errors: Float64Array, [lower, upper]: [number, number]): { inside: number; below: number } {
  const outcomes = Array.from(errors, (e) => Math.max(0, Math.round(point + e)));
  return { inside: outcomes.filter((v) => v >= lower && v <= upper).length / outcomes.length, below: outcomes.filter((v) => v < lower).length / outcomes.length };
}

describe('wholeUnitBounds', () => {
  it('leaves the lower tail above when zero cannot be left out (hand-computed)', () => {
    // P = .5, .3, .15, .05 on 0–3 units. Zero holds more than 10%, so the lower
    // bound is 0 and the whole 20% goes above: mid-distribution values are
    // .25, .65, .875, .975, and .8 lies between 1 and 2 units, nearer to 1's.
    const errors = errorsFor(0.6, [50, 30, 15, 5]);
    expect(wholeUnitBounds(0.6, errors, 1, 0.1)).toEqual([0, 1]);
    expect(shares(0.6, errors, [0, 1]).inside).toBeCloseTo(0.8, 12);
    // Equal tails would have taken 2 units, covering 95%.
    expect(wholeUnitBounds(0.6, errors, 1, 0.025)).toEqual([0, 2]);
  });

  it('leaves out zero when it holds little of the distribution', () => {
    // P = .05, .45, .5 on 0–2: mid values .025, .275, .75; 10% lies between 0 and 1 units.
    expect(wholeUnitBounds(1.4, errorsFor(1.4, [5, 45, 50]), 1, 0.1)).toEqual([1, 2]);
  });

  it('interpolates between values that occur, and scales the errors by the spread', () => {
    // Outcomes 0, 4 and 10 units (60%, 30%, 10%; mid values .3, .75, .95): the
    // .9 target lies three quarters of the way from 4 to 10, at 8.5 units.
    const gaps = new Array<number>(11).fill(0);
    [gaps[0], gaps[4], gaps[10]] = [60, 30, 10];
    expect(wholeUnitBounds(0.2, errorsFor(0.2, gaps), 1, 0.05)).toEqual([0, 8]);
    const errors = errorsFor(1, [20, 60, 20]);
    const halfSpread = wholeUnitBounds(1, errors.map((e) => 2 * e), 0.5, 0.1);
    expect(halfSpread).toEqual(wholeUnitBounds(1, errors, 1, 0.1));
  });

  it('gives the point itself when there are no errors or no spread', () => {
    expect(wholeUnitBounds(2.3, new Float64Array(0), 1, 0.1)).toEqual([2.3, 2.3]);
    expect(wholeUnitBounds(2.3, Float64Array.from([-1, 0, 1]), 0, 0.1)).toEqual([2, 2.3]);
  });

  const errorSample = fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 1, maxLength: 300 }).map((values) => Float64Array.from(values).sort());

  it('brackets the point with whole-unit bounds', () => {
    fc.assert(
      fc.property(errorSample, fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 0.001, max: 0.25, noNaN: true }), (errors, point, spread, tail) => {
        const [lower, upper] = wholeUnitBounds(point, errors, spread, tail);
        expect(lower).toBeGreaterThanOrEqual(0);
        expect(lower).toBeLessThanOrEqual(point);
        expect(upper).toBeGreaterThanOrEqual(point);
        for (const bound of [lower, upper]) expect(Number.isInteger(bound) || bound === point).toBe(true);
      }),
    );
  });

  it('misses the level and the lower tail by at most half the largest single outcome probability', () => {
    fc.assert(
      // Levels of 80% and more (tail ≤ 10%): the bounds then hold the median outcome, which is
      // made the point, so they are never moved to reach it.
      fc.property(errorSample, fc.double({ min: 0.001, max: 0.1, noNaN: true }), (errors, tail) => {
        const centred = errors.map((e) => e - errors[Math.floor(errors.length / 2)]!);
        const point = 12; // centred errors lie within ±12, so no outcome is clipped at zero
        const { inside, below } = shares(point, centred, wholeUnitBounds(point, centred, 1, tail));
        const counts = new Map<number, number>();
        for (const e of centred) counts.set(e, (counts.get(e) ?? 0) + 1);
        const halfAtom = Math.max(...counts.values()) / centred.length / 2;
        expect(Math.abs(below - tail)).toBeLessThanOrEqual(halfAtom + 1e-9);
        expect(Math.abs(inside - (1 - 2 * tail))).toBeLessThanOrEqual(halfAtom + 1e-9);
      }),
    );
  });
});

describe('surelyWithinWholeUnitBounds', () => {
  // Ties (whole errors) and spread-out errors (any doubles), as the validation errors come.
  const errors = fc
    .oneof(fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 1, maxLength: 300 }), fc.array(fc.double({ min: -8, max: 8, noNaN: true }), { minLength: 1, maxLength: 300 }))
    .map((values) => Float64Array.from(values).sort());

  it('says inside only for outcomes between the whole-unit bounds', () => {
    fc.assert(
      fc.property(errors, fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0, max: 4, noNaN: true }), fc.double({ min: 0, max: 0.49, noNaN: true }), fc.integer({ min: 0, max: 60 }), (sample, point, spread, tail, actual) => {
        if (!surelyWithinWholeUnitBounds(actual, point, sample, spread, tail)) return;
        const [lower, upper] = wholeUnitBounds(point, sample, spread, tail);
        expect(actual).toBeGreaterThanOrEqual(lower);
        expect(actual).toBeLessThanOrEqual(upper);
      }),
      { numRuns: 20_000 },
    );
  });

  it('places the days near the point of a 95 % band inside without its bounds', () => {
    const sample = Float64Array.from({ length: 224 }, (_, i) => -3 + (6 * i) / 223);
    for (const actual of [8, 10, 12]) expect(surelyWithinWholeUnitBounds(actual, 10, sample, 1, 0.025)).toBe(true);
    // Outside the outcomes it reads (about ±2.7 units), so it cannot tell: false.
    expect(surelyWithinWholeUnitBounds(13, 10, sample, 1, 0.025)).toBe(false);
    expect(surelyWithinWholeUnitBounds(4, 10, sample, 1, 0.025)).toBe(false);
  });
});

describe('selectAndForecast with whole units', () => {
  const sales = Float64Array.from({ length: 400 }, (_, t) => [0, 0, 1, 0, 2, 0, 0, 1, 3, 0, 1][(t * 7) % 11]!);
  const options = (wholeUnits: boolean): EngineOptions => ({
    horizon: 30,
    validationHorizon: 28,
    origins: 8,
    originStep: 7,
    levels: [0.95, 0.8],
    nonNegative: true,
    score: 'rmse',
    scalePeriod: 1,
    combineTop: 2,
    intervalInflation: calibratedInflation,
    wholeUnits,
    refitFinal: false,
  });
  const candidates = [croston('SBA'), tsb()];

  it('gives nested whole-unit bands and keeps the continuous ones next to them', () => {
    const counted = selectAndForecast(sales, candidates, options(true));
    const continuous = selectAndForecast(sales, candidates, options(false));
    expect(counted.continuousBands).toEqual(continuous.bands);
    expect(counted.mean).toEqual(continuous.mean);
    const [band80, band95] = [counted.bands.get(0.8)!, counted.bands.get(0.95)!];
    counted.mean.forEach((point, j) => {
      for (const bound of [band80.lower[j]!, band80.upper[j]!, band95.lower[j]!, band95.upper[j]!]) expect(Number.isInteger(bound) || bound === point).toBe(true);
      expect(band95.lower[j]).toBeLessThanOrEqual(band80.lower[j]!);
      expect(band80.lower[j]).toBeLessThanOrEqual(point);
      expect(point).toBeLessThanOrEqual(band80.upper[j]!);
      expect(band80.upper[j]).toBeLessThanOrEqual(band95.upper[j]!);
    });
    expect(continuous.continuousBands).toBe(continuous.bands);
  });
});
