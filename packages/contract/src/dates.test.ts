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

  it('writes the time on a 24-hour clock where the viewer’s locale reads one, in English words still', () => {
    const evening = new Date(2026, 11, 4, 19, 48, 55);
    expect(formatMoment(evening, true, 'en-GB')).toBe('4 Dec 2026, 19:48:55');
    expect(formatClockTime(evening, false, 'de-DE')).toBe('19:48');
    expect(formatClockTime(new Date(2026, 0, 1, 9, 5), false, 'nl-NL')).toBe('09:05');
    expect(formatMoment(evening, true, 'en-US')).toMatch(/^4 Dec 2026, 7:48:55\sPM$/);
  });
});
