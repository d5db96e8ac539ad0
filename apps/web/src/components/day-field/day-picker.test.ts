import { describe, expect, it } from 'vitest';
import { addMonths, dayOfText, fullDay, monthWeeks, movedDay } from './day-picker.ts';

describe('the date field calendar', () => {
  it("reads the field in the viewer's order or ISO", () => {
    expect(dayOfText('05.02.2026', 'day-first')).toBe('2026-02-05');
    expect(dayOfText('02/05/2026', 'month-first')).toBe('2026-02-05');
    expect(dayOfText('2026-02-05', 'month-first')).toBe('2026-02-05');
    expect(dayOfText('31.02.2026', 'day-first')).toBeNull();
    expect(dayOfText('13/05/2026', 'month-first')).toBeNull();
    expect(dayOfText('', 'day-first')).toBeNull();
  });

  it('lays a month out in weeks from Monday', () => {
    // 1 Dec 2026 is a Tuesday; the 31st a Thursday.
    const weeks = monthWeeks('2026-12-17');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weeks[4]).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null, null]);
    expect(monthWeeks('2027-02-01').flat().filter(Boolean)).toHaveLength(28);
  });

  it('moves by day, week, month and to the week’s ends, across months and years', () => {
    expect(movedDay('2026-12-31', 'ArrowRight')).toBe('2027-01-01');
    expect(movedDay('2026-12-01', 'ArrowUp')).toBe('2026-11-24');
    expect(movedDay('2026-01-31', 'PageDown')).toBe('2026-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(movedDay('2026-12-17', 'Home')).toBe('2026-12-14');
    expect(movedDay('2026-12-17', 'End')).toBe('2026-12-20');
    expect(movedDay('2026-12-17', 'Enter')).toBeNull();
  });

  it('names a day in full, weekday and all, as a screen reader says a calendar day', () => {
    expect(fullDay('2026-12-28')).toBe('Monday 28 December 2026');
    expect(fullDay('2027-01-02')).toBe('Saturday 2 January 2027');
  });
});
