import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDay, formatDayOfMonth, formatMoment, formatMonth } from './dates.ts';

describe('days as people read them', () => {
  it('writes a day, a day of the month and a month day first, with short month names', () => {
    expect(formatDay('2026-12-07')).toBe('7 Dec 2026');
    expect(formatDayOfMonth('2026-09-04')).toBe('4 Sep');
    expect(formatMonth('2026-12')).toBe('Dec 2026');
    expect(formatMonth('2026-09-01')).toBe('Sep 2026');
  });

  it('writes a moment as its day on the viewer’s clock and its time, to the second when asked', () => {
    // Built on the local clock: the day is the one the viewer is in, whatever the time zone.
    const evening = new Date(2026, 11, 7, 23, 4, 5);
    expect(formatMoment(evening)).toMatch(/^7 Dec 2026, 11:04\sPM$/);
    expect(formatMoment(evening, true)).toMatch(/^7 Dec 2026, 11:04:05\sPM$/);
    expect(formatMoment(evening.toISOString())).toBe(formatMoment(evening));
    expect(formatClockTime(new Date(2026, 0, 1, 9, 30))).toMatch(/^9:30\sAM$/);
  });
});
