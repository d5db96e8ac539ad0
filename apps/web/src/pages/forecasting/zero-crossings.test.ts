import { describe, expect, it } from 'vitest';
import { findZeroCrossings, firstStockout } from './zero-crossings.ts';
import { stockPoint } from './fixtures.test-data.ts';

describe('findZeroCrossings', () => {
  it('finds where the forecast stock goes from above zero to zero or below', () => {
    const stock = [stockPoint('2026-01-01', 5, 10), stockPoint('2026-01-02', 0, 10), stockPoint('2026-01-03', -3, 10)];
    expect(findZeroCrossings(stock)).toEqual([{ date: '2026-01-02', type: 'stockForecast' }]);
  });

  it('finds the lower bound crossing separately, and both on the same day in order', () => {
    const stock = [stockPoint('2026-01-01', 10, 4), stockPoint('2026-01-02', 6, -1), stockPoint('2026-01-03', 3, -4), stockPoint('2026-01-04', -1, -9)];
    expect(findZeroCrossings(stock)).toEqual([
      { date: '2026-01-02', type: 'stockLowerBound' },
      { date: '2026-01-04', type: 'stockForecast' },
    ]);
    const both = [stockPoint('2026-01-01', 2, 1), stockPoint('2026-01-02', -1, -2)];
    expect(findZeroCrossings(both)).toEqual([
      { date: '2026-01-02', type: 'stockForecast' },
      { date: '2026-01-02', type: 'stockLowerBound' },
    ]);
  });

  it('does not count a start at or below zero, and counts a second crossing after a delivery', () => {
    const stock = [stockPoint('2026-01-01', 0, -5), stockPoint('2026-01-02', -2, -7), stockPoint('2026-01-03', 50, 40), stockPoint('2026-01-04', -1, 30)];
    expect(findZeroCrossings(stock)).toEqual([{ date: '2026-01-04', type: 'stockForecast' }]);
  });

  it('sorts by date first and handles zero or one point', () => {
    expect(findZeroCrossings([stockPoint('2026-01-02', -1, -1), stockPoint('2026-01-01', 1, 1)])).toEqual([
      { date: '2026-01-02', type: 'stockForecast' },
      { date: '2026-01-02', type: 'stockLowerBound' },
    ]);
    expect(findZeroCrossings([])).toEqual([]);
    expect(findZeroCrossings([stockPoint('2026-01-01', -1)])).toEqual([]);
  });

  it('firstStockout is the first forecast crossing, not a lower-bound one', () => {
    expect(firstStockout([{ date: '2026-01-02', type: 'stockLowerBound' }, { date: '2026-01-05', type: 'stockForecast' }])).toBe('2026-01-05');
    expect(firstStockout([{ date: '2026-01-02', type: 'stockLowerBound' }])).toBeNull();
  });
});
