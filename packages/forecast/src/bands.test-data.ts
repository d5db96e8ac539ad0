import { expect } from 'vitest';
import type { ForecastRow } from './types.ts';

/** Every value finite and non-negative, and 95 % ⊇ 80 % ⊇ point on every day. */
export function expectOrderedBands(forecast: ForecastRow[]): void {
  for (const row of forecast) {
    for (const value of [row.yhat, row.yhat_lower, row.yhat_upper, row.yhat_lower_80, row.yhat_upper_80]) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(row.yhat_lower).toBeLessThanOrEqual(row.yhat_lower_80);
    expect(row.yhat_lower_80).toBeLessThanOrEqual(row.yhat + 1e-9);
    expect(row.yhat).toBeLessThanOrEqual(row.yhat_upper_80 + 1e-9);
    expect(row.yhat_upper_80).toBeLessThanOrEqual(row.yhat_upper);
  }
}
