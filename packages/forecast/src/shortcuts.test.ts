// The engine's shortcuts for speed (ADR 0117) give what the long way gives, to the last bit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayLabels, formatDay } from './dates.ts';
import { fitEts, holtWintersForms, NON_SEASONAL_FORMS, runEts } from './models/ets.ts';
import { random } from './simulate.test-data.ts';
import { gramMatrix, leastSquares } from './stats.ts';

describe('speed shortcuts', () => {
  it("reports the optimiser's sum of squares that the recursion gives for the fitted parameters, for every form", () => {
    const next = random(17);
    const y = Float64Array.from({ length: 200 }, (_, t) => 20 + 0.05 * t + 6 * Math.sin((2 * Math.PI * t) / 7) + 4 * next());
    for (const form of [...NON_SEASONAL_FORMS, ...holtWintersForms(7)]) {
      const fitted = fitEts(form, y, y.length, { tolerance: 3e-4 });
      expect(fitted.sse).toBe(runEts(form, fitted.parameters, y, y.length).sse);
    }
  });

  it('solves least squares the same with a precomputed normal-equations matrix', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 12, maxLength: 60 }), (values) => {
        const n = values.length;
        const columns = [new Float64Array(n).fill(1), Float64Array.from({ length: n }, (_, t) => t / n), Float64Array.from({ length: n }, (_, t) => Math.sin(t))];
        const gram = gramMatrix(columns, n);
        expect(Array.from(leastSquares(columns, values, undefined, gram))).toEqual(Array.from(leastSquares(columns, values)));
        // The shared matrix is left as it was for the next target.
        expect(gram).toEqual(gramMatrix(columns, n));
      }),
    );
  });

  it('labels a window of days as formatDay does, also when a longer window of the same start was asked for', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 1, max: 120 }), (first, count) => {
        const formatted = (length: number) => Array.from({ length }, (_, j) => formatDay(first + j));
        expect(dayLabels(first, count + 5).slice(0, count + 5)).toEqual(formatted(count + 5));
        expect(dayLabels(first, count).slice(0, count)).toEqual(formatted(count));
      }),
    );
  });
});
