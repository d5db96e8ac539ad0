import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forecastSeries } from './index.ts';

describe('forecastSeries', () => {
  it('follows a clean seasonal pattern', () => {
    const values = Array.from({ length: 24 * 30 }, (_, t) => 100 + 30 * Math.sin((2 * Math.PI * t) / 24));
    const result = forecastSeries(values, { horizon: 24, seasonalPeriods: [24] });
    result.mean.forEach((value, j) => expect(value).toBeCloseTo(values[values.length - 24 + j]!, 0));
  });

  it('handles empty input and a zero horizon without throwing', () => {
    expect(forecastSeries([], { horizon: 3 }).mean).toHaveLength(3);
    expect(forecastSeries([1, 2, 3], { horizon: 0 }).mean).toHaveLength(0);
  });

  it('gives ordered, finite bands of the right length, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 0, maxLength: 150 }),
        fc.integer({ min: 1, max: 30 }),
        (values, horizon) => {
          const result = forecastSeries(values, { horizon, seasonalPeriods: [7] });
          expect(result.mean).toHaveLength(horizon);
          for (let j = 0; j < horizon; j++) {
            const row = [result.lower[95]![j]!, result.lower[80]![j]!, result.mean[j]!, result.upper[80]![j]!, result.upper[95]![j]!];
            row.forEach((value) => expect(Number.isFinite(value)).toBe(true));
            for (let k = 1; k < row.length; k++) expect(row[k - 1]!).toBeLessThanOrEqual(row[k]! + 1e-9);
            expect(row[0]!).toBeGreaterThanOrEqual(0);
          }
          expect(forecastSeries(values, { horizon, seasonalPeriods: [7] })).toEqual(result);
        },
      ),
      { numRuns: 60 },
    );
  });
});
