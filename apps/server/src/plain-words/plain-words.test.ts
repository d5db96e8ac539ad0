// Periods and product-code-like words on fixed days, so year ends and short months are met whatever the day the tests run.
import { describe, expect, it } from 'vitest';
import { describePeriod, formatRange, rangeOf, readPeriod, spokenPeriod, type Period } from './period.ts';
import { looksLikeProductCode, Reading } from './reading.ts';

const read = (question: string, today: string) => {
  const reading = Reading.of(question);
  const period = readPeriod(reading, today);
  return { period, range: period && rangeOf(period, today), unused: reading.unusedWords() };
};

type Case = [question: string, today: string, from: string | null, to?: string];
const expectRanges = (cases: Case[]) => {
  for (const [question, today, from, to] of cases) expect(read(question, today).range, `${question} on ${today}`).toEqual(from === null ? null : { from, to: to ?? from });
};

describe('periods in plain words', () => {
  it('reads calendar weeks, months and years, crossing a year end', () => {
    expectRanges([
      ['sales last week', '2026-01-02', '2025-12-22', '2025-12-28'],
      ['sales last month', '2026-01-15', '2025-12-01', '2025-12-31'],
      ['sales this week', '2026-01-02', '2025-12-29', '2026-01-02'],
      ['sales last year', '2026-03-01', '2025-01-01', '2025-12-31'],
      ['sales yesterday', '2026-01-01', '2025-12-31'],
    ]);
  });

  it('reads "the last N days/weeks/months" as whole days before today', () => {
    expectRanges([
      ['sales in the last 30 days', '2026-12-02', '2026-11-02', '2026-12-01'],
      ['sales over the last 2 weeks', '2026-12-02', '2026-11-18', '2026-12-01'],
      // "the last month" is last month, the calendar one; "the last 1 month" counts back from today,
      // and 31 March less a month is the last day of February, as PostgreSQL has it.
      ['sales in the last month', '2026-03-31', '2026-02-01', '2026-02-28'],
      ['sales in the last 1 month', '2026-03-31', '2026-02-28', '2026-03-30'],
    ]);
  });

  it('reads a month without a year as its latest occurrence that has started', () => {
    expectRanges([
      ['sales in October', '2026-12-02', '2026-10-01', '2026-10-31'],
      ['sales in December', '2026-12-02', '2026-12-01', '2026-12-02'],
      ['sales in December', '2026-11-30', '2025-12-01', '2025-12-31'],
      ['October 2025 sales', '2026-12-02', '2025-10-01', '2025-10-31'],
      ['sales in 2025', '2026-12-02', '2025-01-01', '2025-12-31'],
      // "may" alone is the verb; after "in" it is the month.
      ['may I see the sales', '2026-12-02', null],
      ['sales in may', '2026-12-02', '2026-05-01', '2026-05-31'],
    ]);
  });

  it('reads dates day-first as the shop writes them, month-first only where nothing else fits', () => {
    expectRanges([
      ['sales since 3/11/2026', '2026-12-02', '2026-11-03', '2026-12-02'],
      ['sales since 03.11.2026', '2026-12-02', '2026-11-03', '2026-12-02'],
      ['sales since 11/23/2026', '2026-12-02', '2026-11-23', '2026-12-02'],
      // Without a year: the latest such day that has come.
      ['sales since 20/12', '2026-01-05', '2025-12-20', '2026-01-05'],
      ['sales on 3 Nov', '2026-12-02', '2026-11-03'],
      ['sales from 28/12/2025 to 3/1/2026', '2026-12-02', '2025-12-28', '2026-01-03'],
      ['sales since 31/2/2026', '2026-12-02', null],
    ]);
    expect(read('sales since 3/11/2026', '2026-12-02').unused).toEqual(['sales']);
    // A report's title says its period so that reading the title back gives the same period.
    for (const question of ['sales from 28/12/2025 to 3/1/2026', 'sales in October', 'sales on 3 Nov', 'sales since 20/12']) {
      const period = read(question, '2026-12-02').period as Period;
      expect(read(`Units sold (${describePeriod(period)})`, '2026-12-02').period, question).toEqual(period);
    }
  });

  it('names the period with its dates', () => {
    expect(spokenPeriod({ kind: 'month', month: 10 }, '2026-12-02')).toBe('in October 2026 (1–31 Oct 2026)');
    expect(spokenPeriod({ kind: 'previous', unit: 'week' }, '2026-12-02')).toBe('last week (23–29 Nov 2026)');
    expect(spokenPeriod({ kind: 'previous', unit: 'week' }, '2026-01-02')).toBe('last week (22–28 Dec 2025)');
    expect(formatRange({ from: '2025-12-28', to: '2026-01-03' })).toBe('28 Dec 2025–3 Jan 2026');
    expect(formatRange({ from: '2026-11-30', to: '2026-12-06' })).toBe('30 Nov–6 Dec 2026');
  });
});

describe('words written like a product code', () => {
  it('are letters with digits, not quarters, ordinals or measures', () => {
    expect(['NOPE-999', 'MUG-03', 'sku123', 'A1'].filter(looksLikeProductCode)).toEqual(['NOPE-999', 'MUG-03', 'sku123', 'A1']);
    expect(['Q4', 'H1', '3rd', '350ml', '2.5kg', '7d', '2026', '3/11'].filter(looksLikeProductCode)).toEqual([]);
  });
});
