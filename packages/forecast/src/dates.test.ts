import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber, formatDay } from './dates.ts';

describe('dates', () => {
  it('agrees with Date for every day in 1900–2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: -25_567, max: 84_000 }), (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        expect(formatDay(day)).toBe(iso);
        expect(dayNumber(iso)).toBe(day);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each(['2025-02-29', '2024-13-01', '2024-00-10', '2024-04-31', 'yesterday', '2024/01/01', '', '2024-1-01'])('rejects %s', (text) => {
    expect(dayNumber(text)).toBeNaN();
  });

  it('accepts leap days and ISO timestamps', () => {
    expect(formatDay(dayNumber('2024-02-29'))).toBe('2024-02-29');
    expect(formatDay(dayNumber('2000-02-29T10:00:00Z'))).toBe('2000-02-29');
  });
});
