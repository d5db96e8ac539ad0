import { describe, expect, it } from 'vitest';
import { normalQuantile } from './stats.ts';
import { reorderAdvice } from './stock.ts';

describe('reorderAdvice', () => {
  it('reads the daily error from the continuous 95% band, not the whole-unit one', () => {
    // Whole-unit upper bound 3 a day, continuous 1 + 1.96: σ_daily = 1, so the
    // safety stock is z(0.95) · 1 · √14, rounded up to a whole unit.
    const forecast = Array.from({ length: 20 }, (_, j) => ({ ds: `2025-01-${String(j + 1).padStart(2, '0')}`, yhat: 1, yhat_lower: 0, yhat_upper: 3, yhat_lower_80: 0, yhat_upper_80: 2 }));
    const advice = reorderAdvice({
      forecast,
      continuousUpper95: forecast.map(() => 1 + normalQuantile(0.975)),
      start: null,
      projection: [],
      deliveries: new Map(),
      leadTimeDays: 14,
      serviceLevel: 0.95,
      reviewPeriodDays: 30,
    });
    expect(advice.safetyStock).toBe(Math.ceil(normalQuantile(0.95) * Math.sqrt(14)));
    expect(advice.reorderPoint).toBe(Math.ceil(14 + normalQuantile(0.95) * Math.sqrt(14)));
  });
});
