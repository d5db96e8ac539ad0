// The dates of the weekday-of-month rules (ADR 0188 and its amendment of 2026-12-06): the known dates
// of the holidays whose rule is not "the n-th weekday" — the last Monday of May and of August, Victoria
// Day (the last Monday on or before 24 May) and the day after Thanksgiving (the Friday after the
// fourth Thursday of November) — written out by hand from the published calendars, 2019 to 2032; and
// what every listed rule must hold in any year.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber, formatDay, weekdayOf } from './dates.ts';
import { isNthWeekday, isNthWeekdayRule, NTH_WEEKDAY_HOLIDAYS, nthWeekdayKey, nthWeekdayText, type NthWeekday } from './moving-holidays.ts';

/** Every day of `year` that is the rule's. */
function datesIn(rule: NthWeekday, year: number): string[] {
  const dates: string[] = [];
  for (let day = dayNumber(`${year}-01-01`); day <= dayNumber(`${year}-12-31`); day++) if (isNthWeekday(day, rule)) dates.push(formatDay(day));
  return dates;
}

const ruleNamed = (name: string): NthWeekday => NTH_WEEKDAY_HOLIDAYS.find((holiday) => holiday.name === name)!.rule;
const YEARS = Array.from({ length: 13 }, (_, i) => 2020 + i);

const KNOWN: Record<string, string[]> = {
  // The Friday after Thanksgiving; 2024 and 2030 (1 November a Friday) are where "the fourth Friday" is a week early.
  'day after Thanksgiving': ['2020-11-27', '2021-11-26', '2022-11-25', '2023-11-24', '2024-11-29', '2025-11-28', '2026-11-27', '2027-11-26', '2028-11-24', '2029-11-23', '2030-11-29', '2031-11-28', '2032-11-26'],
  Thanksgiving: ['2020-11-26', '2021-11-25', '2022-11-24', '2023-11-23', '2024-11-28', '2025-11-27', '2026-11-26', '2027-11-25', '2028-11-23', '2029-11-22', '2030-11-28', '2031-11-27', '2032-11-25'],
  // The Monday before 25 May: the 24th itself in 2021, 2027 and 2032.
  'Victoria Day': ['2020-05-18', '2021-05-24', '2022-05-23', '2023-05-22', '2024-05-20', '2025-05-19', '2026-05-18', '2027-05-24', '2028-05-22', '2029-05-21', '2030-05-20', '2031-05-19', '2032-05-24'],
  // The last Monday of May: the fifth in 2021, 2027 and 2032, when the fourth is 24 May (Victoria Day).
  'spring bank holiday or Memorial Day': ['2020-05-25', '2021-05-31', '2022-05-30', '2023-05-29', '2024-05-27', '2025-05-26', '2026-05-25', '2027-05-31', '2028-05-29', '2029-05-28', '2030-05-27', '2031-05-26', '2032-05-31'],
  // The last Monday of August: the fifth in 2020, 2026 and 2032.
  'summer bank holiday': ['2020-08-31', '2021-08-30', '2022-08-29', '2023-08-28', '2024-08-26', '2025-08-25', '2026-08-31', '2027-08-30', '2028-08-28', '2029-08-27', '2030-08-26', '2031-08-25', '2032-08-30'],
};

describe('the weekday-of-month holidays, year by year', () => {
  it.each(Object.entries(KNOWN))('%s falls on its known dates, 2020 to 2032', (name, known) => {
    expect(YEARS.flatMap((year) => datesIn(ruleNamed(name), year))).toEqual(known);
  });

  it('keeps the day after Thanksgiving, Victoria Day and Memorial Day on their days in 2019 and the years the brief names', () => {
    expect(datesIn(ruleNamed('day after Thanksgiving'), 2019)).toEqual(['2019-11-29']);
    expect(datesIn(ruleNamed('Victoria Day'), 2019)).toEqual(['2019-05-20']);
    expect(datesIn(ruleNamed('spring bank holiday or Memorial Day'), 2019)).toEqual(['2019-05-27']);
  });

  it('is not the fourth Friday of November, nor the third or fourth Monday of May', () => {
    // 1 November 2024 was a Friday: the fourth Friday was the 22nd, Thanksgiving the 28th.
    expect(datesIn({ month: 11, weekday: 5, nth: 4 }, 2024)).toEqual(['2024-11-22']);
    expect(datesIn(ruleNamed('day after Thanksgiving'), 2024)).toEqual(['2024-11-29']);
    // Victoria Day was the third Monday of May in 2026 and the fourth in 2027.
    expect(datesIn({ month: 5, weekday: 1, nth: 3 }, 2027)).toEqual(['2027-05-17']);
    expect(datesIn({ month: 5, weekday: 1, nth: 4 }, 2026)).toEqual(['2026-05-25']);
  });

  it('lists the rules by the form a buyer reads, the new ones with their names', () => {
    expect(nthWeekdayText(ruleNamed('Victoria Day'))).toBe('the last Monday on or before 24 May (Victoria Day)');
    expect(nthWeekdayText(ruleNamed('day after Thanksgiving'))).toBe('the Friday after the fourth Thursday of November (day after Thanksgiving)');
    expect(nthWeekdayText({ month: 11, weekday: 4, nth: 4, offset: -1 })).toBe('the Wednesday before the fourth Thursday of November');
    expect(nthWeekdayText(ruleNamed('summer bank holiday'))).toBe('the last Monday of August (summer bank holiday)');
  });
});

describe('every listed rule', () => {
  it('holds one day a year, on its weekday, in its place of the month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1901, max: 2199 }), fc.constantFrom(...NTH_WEEKDAY_HOLIDAYS), (year, { rule }) => {
        const dates = datesIn(rule, year);
        expect(dates).toHaveLength(1);
        const offset = rule.offset ?? 0;
        const ruleDay = dayNumber(dates[0]!) - offset;
        expect(weekdayOf(ruleDay)).toBe(rule.weekday);
        const [, month, dayOfMonth] = formatDay(ruleDay).split('-').map(Number);
        expect(month).toBe(rule.month);
        if (rule.nth !== 'last') expect(Math.ceil(dayOfMonth! / 7)).toBe(rule.nth);
        else if (rule.onOrBefore !== undefined) expect(rule.onOrBefore - dayOfMonth!).toSatisfy((gap: number) => gap >= 0 && gap < 7);
        else expect(Number(formatDay(ruleDay + 7).slice(5, 7))).not.toBe(rule.month);
      }),
      { numRuns: 300 },
    );
  });

  it('has its own key and name, and is well formed', () => {
    const keys = NTH_WEEKDAY_HOLIDAYS.map(({ rule }) => nthWeekdayKey(rule));
    expect(new Set(keys).size).toBe(keys.length);
    expect(NTH_WEEKDAY_HOLIDAYS.every(({ rule }) => isNthWeekdayRule(rule))).toBe(true);
    expect(NTH_WEEKDAY_HOLIDAYS).toHaveLength(20);
  });

  it("keeps the key of a rule in ADR 0188's first form, and reads that form as before", () => {
    // Calendars stored before the amendment hold { month, weekday, nth } only.
    const stored = JSON.parse('[{"month":8,"weekday":1,"nth":"last"},{"month":11,"weekday":4,"nth":4}]') as unknown[];
    expect(stored.every(isNthWeekdayRule)).toBe(true);
    expect((stored as NthWeekday[]).map(nthWeekdayKey)).toEqual(['8-1-last', '11-4-4']);
    expect(datesIn(stored[1] as NthWeekday, 2026)).toEqual(['2026-11-26']);
    expect(nthWeekdayKey(ruleNamed('Victoria Day'))).toBe('5-1-last<=24');
    expect(nthWeekdayKey(ruleNamed('day after Thanksgiving'))).toBe('11-4-4+1');
  });
});
