// The US retail days as periods, and slashed dates in the asker's order (QA6 #5, #13).
import { describe, expect, it } from 'vitest';
import { rangeOf, readComparison, readPeriod, spokenPeriod, type Period } from './period.ts';
import { Reading } from './reading.ts';
import { readCategory } from './catalogue.ts';
import { dateOrderOf } from '@stockwise/contract';

const TODAY = '2026-12-04';
const read = (question: string, today = TODAY) => {
  const reading = Reading.of(question);
  const period = readPeriod(reading, today);
  return { period, unused: reading.unusedWords() };
};
const dayOf = (question: string, today = TODAY) => (read(question, today).period as Extract<Period, { kind: 'day' }> | null)?.date ?? null;

describe('US retail days', () => {
  it('reads each as its day: the latest that has come, the one of a year said, "last" before today, "this" this year\'s', () => {
    expect(dayOf('sales on Black Friday')).toBe('2026-11-27');
    expect(dayOf('sales on Black Friday 2025')).toBe('2025-11-28');
    expect(dayOf('Black Friday sales 2024')).toBe('2024-11-29');
    expect(dayOf('sales on Black Friday last year')).toBe('2025-11-28');
    expect(dayOf('sales last Black Friday', '2026-11-27')).toBe('2025-11-28');
    expect(dayOf('sales on Black Friday', '2026-11-27')).toBe('2026-11-27');
    expect(dayOf('sales on Black Friday', '2026-11-26')).toBe('2025-11-28');
    expect(dayOf('Thanksgiving 2025')).toBe('2025-11-27');
    expect(dayOf('sales on Thanksgiving Day')).toBe('2026-11-26');
    expect(dayOf('Cyber Monday 2025')).toBe('2025-12-01');
    expect(dayOf('sales on Memorial Day 2026')).toBe('2026-05-25');
    expect(dayOf('sales on Memorial Day 2025')).toBe('2025-05-26');
    expect(dayOf('sales on Labor Day 2026')).toBe('2026-09-07');
    expect(dayOf('Labour Day 2025')).toBe('2025-09-01');
    expect(dayOf('July 4th 2025')).toBe('2025-07-04');
    expect(dayOf('sales on the 4th of July')).toBe('2026-07-04');
    expect(dayOf('sales on Independence Day last year')).toBe('2025-07-04');
    expect(dayOf('sales last July 4th')).toBe('2026-07-04');
    expect(dayOf('sales on the fourth of July', '2026-07-03')).toBe('2025-07-04');
    for (const question of ['sales on Black Friday 2025', 'sales last Black Friday', 'Cyber Monday sales 2025', 'sales on Labor Day']) expect(read(question).unused, question).toEqual(['sales']);
  });

  it('says the day by its name, and compares it with the same day a year before', () => {
    const period = read('sales on Black Friday 2025').period as Period;
    expect(spokenPeriod(period, TODAY)).toBe('on Black Friday 2025 (28 Nov 2025)');
    const comparison = readComparison(Reading.of('sales on Black Friday compared to last year'), TODAY);
    expect(comparison).toEqual({ earlier: { kind: 'day', date: '2025-11-28', retailDay: 'black_friday' }, later: { kind: 'day', date: '2026-11-27', retailDay: 'black_friday' } });
  });
});

describe("the UK's bank holidays (QA8 F14)", () => {
  it('reads the early May, spring and summer bank holidays by name, as the retail days are read', () => {
    expect(dayOf('sales on the August bank holiday')).toBe('2026-08-31');
    expect(dayOf('sales on the summer bank holiday 2025')).toBe('2025-08-25');
    expect(dayOf('sales over the late May bank holiday last year')).toBe('2025-05-26');
    expect(dayOf('spring bank holiday 2026')).toBe('2026-05-25');
    expect(dayOf('sales on the early May bank holiday')).toBe('2026-05-04');
    expect(dayOf('sales on the May bank holiday', '2026-05-03')).toBe('2025-05-05');
    expect(dayOf('sales on August bank holiday Monday 2024')).toBe('2024-08-26');
    for (const question of ['sales on the August bank holiday', 'sales on the summer bank holiday 2025']) expect(read(question).unused, question).toEqual(['sales']);
    expect(spokenPeriod(read('sales on the summer bank holiday 2025').period as Period, TODAY)).toBe('on the summer bank holiday 2025 (25 Aug 2025)');
  });

  it('reads "the bank holiday (Monday)" as the latest that has come, substitute days included, and its weekend as Saturday to Monday', () => {
    expect(dayOf('what did we sell on bank holiday Monday')).toBe('2026-08-31');
    expect(dayOf('what did we sell on the bank holiday', '2026-04-10')).toBe('2026-04-06');
    expect(dayOf('sales on the bank holiday', '2026-04-04')).toBe('2026-04-03');
    // New Year's Day 2026 is a Thursday: the latest Monday one is August's.
    expect(dayOf('sales on the bank holiday', '2026-01-05')).toBe('2026-01-01');
    expect(dayOf('sales on bank holiday monday', '2026-01-05')).toBe('2025-08-25');
    // Boxing Day 2026 is a Saturday: Monday the 28th is its substitute; Christmas 2027 a Saturday: the 27th and 28th.
    expect(dayOf('sales on the bank holiday', '2026-12-29')).toBe('2026-12-28');
    expect(dayOf('sales on the last bank holiday', '2026-12-28')).toBe('2026-12-25');
    expect(dayOf('sales on the bank holiday', '2027-12-31')).toBe('2027-12-28');
    expect(dayOf('sales on the bank holiday', '2028-01-05')).toBe('2028-01-03');
    expect(read('sales over the bank holiday weekend').period).toEqual({ kind: 'between', from: '2026-08-29', to: '2026-08-31' });
    expect(read('sales over the bank holiday weekend', '2026-04-07').period).toEqual({ kind: 'between', from: '2026-04-03', to: '2026-04-06' });
    expect(read('what did we sell on bank holiday Monday').unused).toEqual(['sell']);
    expect(spokenPeriod(read('sales on bank holiday monday').period as Period, TODAY)).toBe('on the summer bank holiday 2026 (31 Aug 2026)');
  });
});

describe('ranges of named days', () => {
  const range = (question: string, today = TODAY, order: 'day-first' | 'month-first' = 'day-first') => {
    const reading = Reading.of(question, order);
    const period = readPeriod(reading, today);
    return { range: period && [rangeOf(period, today).from, rangeOf(period, today).to], unused: reading.unusedWords() };
  };

  it('reads "from X to Y" and "between X and Y" with a named end as the days between: the first the latest that has come, the last the first on or after it', () => {
    expect(range('sales from Black Friday to Cyber Monday')).toEqual({ range: ['2026-11-27', '2026-11-30'], unused: ['sales'] });
    expect(range('sales from black friday through cyber monday', '2026-11-20').range).toEqual(['2025-11-28', '2025-12-01']);
    // Under way: up to today, as any period.
    expect(range('sales from Black Friday to Cyber Monday', '2026-11-28').range).toEqual(['2026-11-27', '2026-11-28']);
    expect(range('sales between Thanksgiving and Christmas').range).toEqual(['2026-11-26', '2026-12-04']);
    expect(range('sales between Thanksgiving and Christmas', '2027-01-10').range).toEqual(['2026-11-26', '2026-12-25']);
    expect(range('sales from Easter to the end of May')).toEqual({ range: ['2026-04-05', '2026-05-31'], unused: ['sales'] });
    expect(range('sales from Easter to May').range).toEqual(['2026-04-05', '2026-05-31']);
    expect(range('sales from the start of June to Labor Day').range).toEqual(['2026-06-01', '2026-09-07']);
    expect(range("sales from Christmas Eve to New Year's Day").range).toEqual(['2025-12-24', '2026-01-01']);
    expect(range('sales from 12/1 to Christmas', '2026-12-20', 'month-first').range).toEqual(['2026-12-01', '2026-12-20']);
  });

  it('takes a year said of either end, or "last year" after the range; two months or two dates are read as before', () => {
    expect(range('sales from Black Friday to Cyber Monday 2025')).toEqual({ range: ['2025-11-28', '2025-12-01'], unused: ['sales'] });
    expect(range('sales from Black Friday 2024 to Cyber Monday').range).toEqual(['2024-11-29', '2024-12-02']);
    expect(range('sales from Black Friday to Cyber Monday last year')).toEqual({ range: ['2025-11-28', '2025-12-01'], unused: ['sales'] });
    expect(range('sales between Thanksgiving and Christmas 2025').range).toEqual(['2025-11-27', '2025-12-25']);
    expect(range('sales from Easter until the end of May 2025').range).toEqual(['2025-04-20', '2025-05-31']);
    expect(range('sales from March to May').range).toEqual(['2026-03-01', '2026-05-31']);
    expect(range('sales from 1/12/2025 to 31/12/2025').range).toEqual(['2025-12-01', '2025-12-31']);
  });

  it('reads a named day of a range as no category: "between Thanksgiving and Christmas" dates the question', () => {
    expect(readCategory(Reading.of('sales between Thanksgiving and Christmas'), ['Christmas', 'Easter'])).toBeNull();
    expect(readCategory(Reading.of('easter eggs sold from Easter to the end of May'), ['Christmas', 'Easter'])).toBe('Easter');
  });
});

describe('slashed dates in the asker\'s order', () => {
  it('takes the order from the most preferred language with calendar data; day-first otherwise', () => {
    expect(dateOrderOf('en-US,en;q=0.9')).toBe('month-first');
    expect(dateOrderOf('en-GB,en-US;q=0.9')).toBe('day-first');
    expect(dateOrderOf('de;q=0.5, en-US;q=0.8')).toBe('month-first');
    expect(dateOrderOf('nl-NL')).toBe('day-first');
    expect(dateOrderOf(undefined)).toBe('day-first');
    expect(dateOrderOf('*')).toBe('day-first');
    expect(dateOrderOf('qq-ZZ')).toBe('day-first');
    expect(dateOrderOf(';;,=,q=,en-US;q=abc')).toBe('month-first');
  });

  it('reads 12/1 as 1 December month-first and 12 January day-first; 27 can only be the day; dotted dates are day-first', () => {
    const dated = (question: string, order: 'day-first' | 'month-first') => readPeriod(Reading.of(question, order), TODAY);
    expect(dated('sales since 12/1', 'month-first')).toEqual({ kind: 'since', date: '2026-12-01' });
    expect(dated('sales since 12/1', 'day-first')).toEqual({ kind: 'since', date: '2026-01-12' });
    expect(dated('sales on 11/27/2025', 'day-first')).toEqual({ kind: 'day', date: '2025-11-27' });
    expect(dated('sales on 27/11/2025', 'month-first')).toEqual({ kind: 'day', date: '2025-11-27' });
    expect(dated('Umsatz am 3.11.2025', 'month-first')).toEqual({ kind: 'day', date: '2025-11-03' });
  });
});
