// Periods and product-code-like words on fixed days, so year ends and short months are met whatever the day the tests run.
import { describe, expect, it } from 'vitest';
import { comparisonOf, datedPeriod, describePeriod, dueWindowOf, dueWords, easterSunday, formatRange, impossibleDate, rangeOf, readAhead, readBestPeriod, readBreakdown, readComparison, readDaysAhead, readPeriod, readQuietSpan, readSalesAhead, readWindow, sameDaysSoFar, spanTooLong, spokenPeriod, windowOf, type Comparison, type Period } from './period.ts';
import { comparedName, fullNamePattern, missedPhrase, nameWordSqlPattern, readCategory, readCoverDays, readNameWord, readRank, wordsInEitherNumber } from './catalogue.ts';
import { looksLikeProductCode, Reading } from './reading.ts';
import { type DateOrder } from '@stockwise/contract';

const read = (question: string, today: string) => {
  const reading = Reading.of(question);
  const period = readPeriod(reading, today);
  return { period, range: period && rangeOf(period, today), unused: reading.unusedWords() };
};

/** A window ahead and the words it left unused. */
const ahead = (question: string, today: string) => {
  const reading = Reading.of(question);
  return { ...readAhead(reading, today), unused: reading.unusedWords() };
};

/** The window of an order or stock-out question, its words and the words it left unused. */
const windowOn = (question: string, today: string) => {
  const reading = Reading.of(question);
  const window = readWindow(reading, today);
  return { by: window?.by, words: window?.words, unused: reading.unusedWords() };
};

type Case = [question: string, today: string, from: string | null, to?: string];
const expectRanges = (cases: Case[]) => {
  for (const [question, today, from, to] of cases) expect(read(question, today).range, `${question} on ${today}`).toEqual(from === null ? null : { from, to: to ?? from });
};

/** The words of the question that say a product's whole name, lower-cased; null when none do. */
const said = (name: string, question: string) => fullNamePattern(name).exec(question.toLowerCase())?.[0] ?? null;

describe('periods in plain words', () => {
  it('reads a British fortnight and a week named by its first day (QA8 F14)', () => {
    expectRanges([
      ['sales over the last fortnight', '2026-12-05', '2026-11-21', '2026-12-04'],
      ['sales in the past 2 fortnights', '2026-12-05', '2026-11-07', '2026-12-04'],
      // A week not over yet runs to today, as "this week" does.
      ['sales w/c 30 Nov', '2026-12-05', '2026-11-30', '2026-12-05'],
      ['sales week commencing 23/11/2026', '2026-12-05', '2026-11-23', '2026-11-29'],
      ['what did we sell the week beginning 29th December', '2026-01-10', '2025-12-29', '2026-01-04'],
    ]);
    expect(read('sales over the last fortnight', '2026-12-05').unused).toEqual(['sales']);
    expect(read('sales w/c 30 Nov', '2026-12-05').unused).toEqual(['sales']);
    // Ahead, for an order question: the week to come.
    expect(windowOn('what needs ordering for w/c 7 Dec', '2026-12-05')).toMatchObject({ by: '2026-12-13', unused: ['ordering'] });
  });

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

  it('reads calendar quarters: this quarter to date, last quarter whole, Q1–Q4 as their latest started occurrence', () => {
    expectRanges([
      ['sales this quarter', '2026-12-02', '2026-10-01', '2026-12-02'],
      ['sales quarter to date', '2026-05-20', '2026-04-01', '2026-05-20'],
      // Across the year end: on 15 January last quarter is October–December of the year before.
      ['sales last quarter', '2026-01-15', '2025-10-01', '2025-12-31'],
      ['sales previous quarter', '2026-12-02', '2026-07-01', '2026-09-30'],
      // Q4 on 2 December is this year's, under way; Q4 on 30 September has not started, so last year's.
      ['sales in Q4', '2026-12-02', '2026-10-01', '2026-12-02'],
      ['sales in Q4', '2026-09-30', '2025-10-01', '2025-12-31'],
      ['sales in Q1', '2026-01-15', '2026-01-01', '2026-01-15'],
      ['Q3 2026 sales', '2026-12-02', '2026-07-01', '2026-09-30'],
      ['sales in 2025 Q2', '2026-12-02', '2025-04-01', '2025-06-30'],
      ['sales in the third quarter', '2026-12-02', '2026-07-01', '2026-09-30'],
      ['sales in the first quarter of 2025', '2026-12-02', '2025-01-01', '2025-03-31'],
      ['sales over the last 2 quarters', '2026-12-02', '2026-06-02', '2026-12-01'],
    ]);
    for (const question of ['sales this quarter', 'sales last quarter', 'sales in Q3', 'sales in Q3 2026', 'sales in the third quarter']) expect(read(question, '2026-12-02').unused, question).toEqual(['sales']);
    expect(spokenPeriod({ kind: 'quarter', quarter: 4 }, '2026-09-30')).toBe('in Q4 2025 (1 Oct–31 Dec 2025)');
    expect(spokenPeriod({ kind: 'previous', unit: 'quarter' }, '2026-01-15')).toBe('last quarter (1 Oct–31 Dec 2025)');
    for (const question of ['sales in Q3', 'sales in Q3 2026', 'sales last quarter']) {
      const period = read(question, '2026-12-02').period as Period;
      expect(read(`Units sold (${describePeriod(period)})`, '2026-12-02').period, question).toEqual(period);
    }
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

  it('reads windows ahead for order and stock-out questions: next week/month, the next N days, by or before a date', () => {
    // 27 Dec 2026 is a Sunday: next week is Monday 28 Dec to Sunday 3 Jan, over the year end.
    expect(ahead('order next week', '2026-12-27')).toEqual({ from: '2026-12-28', by: '2027-01-03', words: 'next week', span: { next: 'week' }, unused: ['order'] });
    expect(ahead('order next week', '2026-12-28')).toMatchObject({ from: '2027-01-04', by: '2027-01-10' });
    expect(ahead('run out next month', '2026-12-15')).toMatchObject({ from: '2027-01-01', by: '2027-01-31', words: 'next month' });
    expect(ahead('orders due next quarter', '2026-12-02')).toMatchObject({ from: '2027-01-01', by: '2027-03-31' });
    expect(ahead('order in the next 14 days', '2026-12-02')).toMatchObject({ from: '2026-12-02', by: '2026-12-15', words: 'the next 14 days', span: { days: 14 } });
    expect(ahead('order within the next 2 weeks', '2026-12-20')).toMatchObject({ by: '2027-01-02', words: 'the next 14 days' });
    // A date without a year ahead is its next occurrence from today on; "before" stops the day before.
    expect(ahead('order by 24/12', '2026-12-02')).toEqual({ from: null, by: '2026-12-24', words: 'by 24 Dec 2026', span: { through: '2026-12-24' }, unused: ['order'] });
    expect(ahead('order by 5/1', '2026-12-02')).toMatchObject({ by: '2027-01-05' });
    expect(ahead('order before 20 December', '2026-12-02')).toMatchObject({ by: '2026-12-19', words: 'before 20 Dec 2026', span: { through: '2026-12-19' } });
    expect(ahead('order before 20 December', '2026-12-21')).toMatchObject({ by: '2027-12-19' });
    expect(ahead('order by 2/12', '2026-12-02')).toMatchObject({ by: '2026-12-02' });
    expect(ahead('order by 24/12/2025', '2026-12-02')).toMatchObject({ by: '2025-12-24' });
    // A day-first date ending in a dot, a weekday (today included), a day named for the season.
    expect(ahead('order by 24.12.', '2026-12-02')).toEqual({ from: null, by: '2026-12-24', words: 'by 24 Dec 2026', span: { through: '2026-12-24' }, unused: ['order'] });
    expect(ahead('order by Friday', '2026-12-02')).toMatchObject({ by: '2026-12-04', words: 'by Friday', unused: ['order'] });
    expect(ahead('order by friday', '2026-12-04')).toMatchObject({ by: '2026-12-04' });
    expect(ahead('run out before Monday', '2026-12-02')).toMatchObject({ by: '2026-12-06' });
    expect(ahead('order before Christmas', '2026-12-02')).toMatchObject({ by: '2026-12-24', words: 'before Christmas', unused: ['order'] });
    expect(ahead('order by Christmas Eve', '2026-12-26')).toMatchObject({ by: '2027-12-24' });
    expect(ahead("run out before New Year's Eve", '2026-12-02')).toMatchObject({ by: '2026-12-30' });
    expect(ahead('sales last week', '2026-12-02')).toEqual({ unused: ['sales', 'last', 'week'] });
  });

  it('reads "until" a named day, the end of a month or unit, or a month as a window from today to that day, both included', () => {
    // A retail day said alone is the latest one (a past day); "until" it is the next. A month: to its end, this one's while
    // it is under way, else the next; "through" is from today, not the month's first day.
    for (const [question, today, by, words] of [
      ['what runs out until Christmas', '2026-12-05', '2026-12-25', 'until Christmas'],
      ['what runs out till Easter', '2026-12-05', '2027-03-28', 'till Easter'],
      ['what runs out until Black Friday', '2026-12-05', '2027-11-26', 'until Black Friday'],
      ['what runs out until Black Friday', '2026-06-10', '2026-11-27', 'until Black Friday'],
      ['what runs out until Anzac Day', '2026-12-05', '2027-04-25', 'until Anzac Day'],
      ['what runs out until the end of the month', '2026-12-05', '2026-12-31', 'until the end of the month'],
      ['what runs out until end of month', '2027-02-03', '2027-02-28', 'until end of month'],
      ['what runs out by the end of next month', '2026-12-05', '2027-01-31', 'by the end of next month'],
      ['what runs out till the end of January', '2026-12-05', '2027-01-31', 'till the end of January'],
      ['what runs out through the end of the week', '2026-12-05', '2026-12-06', 'through the end of the week'],
      ['what runs out through December', '2026-12-05', '2026-12-31', 'through December 2026'],
      ['what runs out through December', '2026-06-10', '2026-12-31', 'through December 2026'],
      ['what runs out until January', '2026-12-05', '2027-01-31', 'until January 2027'],
    ] as const) {
      expect(ahead(question, today), `${question} on ${today}`).toEqual({ from: null, by, words, span: { through: by }, unused: ['runs', 'out'] });
    }
    expect(ahead('what runs out until dec 24', '2026-12-05')).toMatchObject({ by: '2026-12-24' });
    // A day of the month without its month: the next one that has the day, said as a date.
    expect(ahead('what runs out till the 24th', '2026-12-05')).toEqual({ from: null, by: '2026-12-24', words: 'till 24 Dec 2026', span: { through: '2026-12-24' }, unused: ['runs', 'out'] });
    expect(ahead('what runs out before the 3rd', '2026-12-05')).toMatchObject({ by: '2027-01-02', words: 'before 3 Jan 2027' });
    expect(ahead('order by the 31st', '2027-04-02')).toMatchObject({ by: '2027-05-31' });
    expect(ahead('order by the 5th', '2026-12-05')).toMatchObject({ by: '2026-12-05' });
    expect(ahead('what runs out until the 24th of December', '2026-12-05')).toMatchObject({ by: '2026-12-24' });
    // Two dates are a range (a window that starts later), not a window to the second.
    expect(windowOn('what runs out from 1/1/2027 until 10/1/2027', '2026-12-05')).toEqual({ by: '2027-01-10', words: '1–10 Jan 2027', unused: ['runs', 'out'] });
    // "By March" is still left unread; "in December" is still the month alone.
    expect(ahead('order by March', '2026-12-05')).toEqual({ unused: ['order', 'March'] });
    expect(ahead('runs out in January', '2026-12-05')).toMatchObject({ from: '2027-01-01', by: '2027-01-31' });
  });

  it('reads "before the next bank holiday", "by bank holiday Monday" and "before the bank holiday weekend" as a window to the next one, named by its day', () => {
    // England and Wales (gov.uk): Boxing Day 2026 is a Saturday, so Monday 28 Dec is its substitute; 2027 opens on Friday 1 Jan.
    expect(ahead('what should I order before the next bank holiday', '2026-12-05')).toEqual({ from: null, by: '2026-12-24', words: 'before Christmas Day on 25 Dec 2026', span: { through: '2026-12-24' }, unused: ['order'] });
    expect(ahead('what runs out by the bank holiday', '2026-12-25')).toMatchObject({ by: '2026-12-25', words: 'by Christmas Day on 25 Dec 2026' });
    expect(ahead('what runs out by the next bank holiday', '2026-12-25')).toMatchObject({ by: '2026-12-28', words: 'by the bank holiday on 28 Dec 2026' });
    // "Before" the day that is today is the following one: a window must have days to come.
    expect(ahead('what runs out before the bank holiday', '2026-12-28')).toMatchObject({ by: '2026-12-31', words: "before New Year's Day on 1 Jan 2027" });
    expect(ahead('what runs out until bank holiday monday', '2026-12-05')).toMatchObject({ by: '2026-12-28', words: 'until the bank holiday on 28 Dec 2026' });
    expect(ahead('what runs out until bank holiday monday', '2027-01-02')).toMatchObject({ by: '2027-03-29', words: 'until Easter Monday on 29 Mar 2027' });
    expect(ahead('what runs out by the next bank holiday', '2027-01-02')).toMatchObject({ by: '2027-03-26', words: 'by Good Friday on 26 Mar 2027' });
    // One with a name is said by it; the weekend is Saturday to the Monday, Good Friday to Easter Monday at Easter.
    expect(ahead('order before the next bank holiday', '2026-06-01')).toMatchObject({ by: '2026-08-30', words: 'before the summer bank holiday on 31 Aug 2026' });
    expect(ahead('what runs out before the bank holiday weekend', '2026-06-01')).toMatchObject({ by: '2026-08-28', words: 'before the bank holiday weekend (29–31 Aug 2026)' });
    expect(ahead('what runs out through the bank holiday weekend', '2027-03-01')).toMatchObject({ by: '2027-03-29', words: 'through the bank holiday weekend (26–29 Mar 2027)' });
    expect(ahead('what runs out by the bank holiday weekend', '2027-03-01')).toMatchObject({ by: '2027-03-26' });
    // Named by its season, it is still the retail day's reading; said of the past, still the latest that has come.
    expect(ahead('order before the August bank holiday', '2026-06-01')).toMatchObject({ by: '2026-08-30', words: 'before the summer bank holiday' });
    expect(windowOn('what runs out before the next bank holiday', '2026-12-05')).toEqual({ by: '2026-12-24', words: 'before Christmas Day on 25 Dec 2026', unused: ['runs', 'out'] });
  });

  it('reads what will sell "until" a named day as the days from today to it, where the past reading has no "up to"', () => {
    const days = (question: string, today: string) => readDaysAhead(Reading.of(question), today);
    expect(days('what will I sell until Black Friday', '2026-12-05')).toEqual({ from: '2026-12-05', to: '2027-11-26', words: 'until Black Friday (5 Dec 2026–26 Nov 2027)' });
    expect(days('what will we sell until the end of the month', '2026-12-05')).toEqual({ from: '2026-12-05', to: '2026-12-31', words: 'until the end of the month (5–31 Dec 2026)' });
    // Said of days to come, "until Christmas" in June is this Christmas, not last year's (the nearer one a past question reads).
    expect(days('what will I sell until Christmas', '2026-06-10')).toMatchObject({ from: '2026-06-10', to: '2026-12-25' });
    expect(days('sales until Christmas', '2026-06-10')).toBeNull();
    expect(days('sales until December', '2026-06-10')).toBeNull();
  });

  it('reads a named month or quarter ahead as its next occurrence, the current one from today, one with a year as that one', () => {
    // In December, January and March are next year's; sales keep reading them as the latest started ones.
    expect(ahead('which products run out in January?', '2026-12-02')).toEqual({ from: '2027-01-01', by: '2027-01-31', words: 'January 2027', span: { month: 1, year: null }, unused: ['run', 'out'] });
    expect(ahead('what will run out in March', '2026-12-02')).toMatchObject({ from: '2027-03-01', by: '2027-03-31', words: 'March 2027' });
    expect(read('sales in January', '2026-12-02').range).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(readSalesAhead(Reading.of('sales in January'), '2026-12-02')).toBeNull();
    // The current month or quarter: from today to its end.
    expect(ahead('what runs out in December', '2026-12-02')).toMatchObject({ from: '2026-12-02', by: '2026-12-31', words: 'December 2026', span: { month: 12, year: null } });
    expect(ahead('run out in January', '2027-01-31')).toMatchObject({ from: '2027-01-31', by: '2027-01-31' });
    expect(ahead('run out in Q4', '2026-12-02')).toMatchObject({ from: '2026-12-02', by: '2026-12-31', words: 'Q4 2026', span: { quarter: 4, year: null } });
    // Q4 on 30 September is this year's coming one (a sales question reads last year's).
    expect(ahead('run out in Q4', '2026-09-30')).toMatchObject({ from: '2026-10-01', by: '2026-12-31' });
    expect(ahead('what runs out in Q1 2027?', '2026-12-02')).toEqual({ from: '2027-01-01', by: '2027-03-31', words: 'Q1 2027', span: { quarter: 1, year: 2027 }, unused: ['runs', 'out'] });
    expect(ahead('run out in the first quarter of 2027', '2026-12-02')).toMatchObject({ by: '2027-03-31', span: { quarter: 1, year: 2027 } });
    expect(ahead('orders due in May 2027', '2026-12-02')).toMatchObject({ from: '2027-05-01', by: '2027-05-31', span: { month: 5, year: 2027 } });
    // With a year that has passed it is that month, over (the assistant says so).
    expect(ahead('run out in March 2026', '2026-12-02')).toMatchObject({ from: '2026-03-01', by: '2026-03-31', words: 'March 2026' });
    // "By March" could be its first or its last day: left unread and said back, as is a month that does not exist.
    expect(ahead('order by March', '2026-12-02')).toEqual({ unused: ['order', 'March'] });
    expect(ahead('run out in Smarch', '2026-12-02')).toEqual({ unused: ['run', 'out', 'Smarch'] });
  });

  it('reads "by D" on a sales question as the year to date up to D, the nearer D when it has no year', () => {
    expectRanges([
      ['sales by 30/11', '2026-12-02', '2026-01-01', '2026-11-30'],
      ['units sold by 24.12.', '2027-01-05', '2026-01-01', '2026-12-24'],
      ['sales until 2/12', '2026-12-02', '2026-01-01', '2026-12-02'],
      ['sales up to 24/12/2025', '2026-12-02', '2025-01-01', '2025-12-24'],
      ['sales by Christmas', '2027-01-05', '2026-01-01', '2026-12-25'],
      // Wednesday 2 December: last Monday is nearer than next Monday.
      ['sales by Monday', '2026-12-02', '2026-01-01', '2026-11-30'],
      ['sales by 31/02', '2026-12-02', null],
      // From a day to another is those days, however the first is said.
      ['sales since 1/11 until 20/11', '2026-12-02', '2026-11-01', '2026-11-20'],
    ]);
    expect(read('units sold by 24.12.', '2027-01-05').unused).toEqual(['units', 'sold']);
    expect(read('sales by 31/02', '2026-12-02').unused).toEqual(['sales', '31/02']);
    expect(spokenPeriod({ kind: 'until', date: '2026-11-30' }, '2026-12-02')).toBe('up to 30 Nov 2026 (1 Jan–30 Nov 2026)');
    // D still to come: no sales to count yet, said with the day.
    const salesAhead = (question: string, today: string) => readSalesAhead(Reading.of(question), today);
    expect(salesAhead('sales by 24/12', '2026-12-02')).toBe('up to 24 Dec 2026');
    expect(salesAhead('units sold by 24.12.', '2026-12-02')).toBe('up to 24 Dec 2026');
    expect(salesAhead('sales by 30/11', '2026-12-02')).toBeNull();
    expect(salesAhead('sales by 2/12', '2026-12-02')).toBeNull();
    const period = read('sales by 30/11', '2026-12-02').period as Period;
    expect(read(`Units sold (${describePeriod(period)})`, '2026-12-02').period).toEqual(period);
  });

  it('reads the window of an order or stock-out question: a window ahead, or today, this week or month, or days with their year not yet over', () => {
    const window = (question: string, today: string) => {
      const reading = Reading.of(question);
      const read = readWindow(reading, today);
      return { ...read, said: read && dueWords(dueWindowOf(read, today)), unused: reading.unusedWords() };
    };
    // Thursday 3 December 2026. A window from today keeps what is overdue: it is said as its last day.
    expect(window('reorder this week', '2026-12-03')).toEqual({ from: '2026-12-03', by: '2026-12-06', words: 'this week', span: { this: 'week' }, said: 'by 6 Dec 2026 (this week)', unused: ['reorder'] });
    expect(window('what to order today', '2026-12-03')).toMatchObject({ by: '2026-12-03', span: { this: 'day' }, said: 'by 3 Dec 2026 (today)', unused: ['order'] });
    expect(window('run out this month', '2026-12-27')).toMatchObject({ by: '2026-12-31', said: 'by 31 Dec 2026 (this month)' });
    expect(window('orders due this quarter', '2026-11-15')).toMatchObject({ by: '2026-12-31', span: { this: 'quarter' } });
    expect(window('orders due from 1/12/2026 to 24/12/2026', '2026-12-03')).toMatchObject({ by: '2026-12-24', span: { through: '2026-12-24' }, said: 'by 24 Dec 2026', unused: ['orders', 'due'] });
    // One that starts later keeps what falls in it: said as its days.
    expect(window('reorder on 5/1/2027', '2026-12-03')).toMatchObject({ from: '2027-01-05', by: '2027-01-05', span: { dates: { from: '2027-01-05', to: '2027-01-05' } }, said: 'on 5 Jan 2027' });
    expect(window('must I order next week', '2026-12-03')).toMatchObject({ from: '2026-12-07', by: '2026-12-13', said: 'next week (7–13 Dec 2026)', unused: ['must', 'order'] });
    expect(window('what to reorder in January', '2026-12-03')).toMatchObject({ from: '2027-01-01', by: '2027-01-31', said: 'in January 2027' });
    // A past period is no window, and its words stay unused; one said with a year that ended is, and ends before today.
    expect(window('reorder last week', '2026-12-03')).toEqual({ said: null, unused: ['reorder', 'last', 'week'] });
    expect(window('reorder in March 2026', '2026-12-03')).toMatchObject({ by: '2026-03-31', said: 'by 31 Mar 2026 (March 2026)' });
    // A window's span gives the same days read again on another day: what a report's relative SQL does.
    expect(windowOf({ next: 'week' }, '2026-12-27')).toMatchObject({ from: '2026-12-28', by: '2027-01-03' });
    expect(windowOf({ month: 1, year: null }, '2027-01-31')).toMatchObject({ from: '2027-01-31', by: '2027-01-31', words: 'January 2027' });
    expect(windowOf({ this: 'month' }, '2027-02-10')).toMatchObject({ from: '2027-02-10', by: '2027-02-28', words: 'this month' });
  });

  it('names the period with its dates', () => {
    expect(spokenPeriod({ kind: 'month', month: 10 }, '2026-12-02')).toBe('in October 2026 (1–31 Oct 2026)');
    expect(spokenPeriod({ kind: 'previous', unit: 'week' }, '2026-12-02')).toBe('last week (23–29 Nov 2026)');
    expect(spokenPeriod({ kind: 'previous', unit: 'week' }, '2026-01-02')).toBe('last week (22–28 Dec 2025)');
    expect(formatRange({ from: '2025-12-28', to: '2026-01-03' })).toBe('28 Dec 2025–3 Jan 2026');
    expect(formatRange({ from: '2026-11-30', to: '2026-12-06' })).toBe('30 Nov–6 Dec 2026');
  });

  it("names a period in the report's words with the days it spans as of the day written", () => {
    const today = '2026-12-04';
    const cases: [Period, string][] = [
      [{ kind: 'previous', unit: 'month' }, 'last month (November 2026)'],
      [{ kind: 'previous', unit: 'week' }, 'last week (23–29 Nov 2026)'],
      [{ kind: 'previous', unit: 'quarter' }, 'last quarter (Q3 2026)'],
      [{ kind: 'previous', unit: 'year' }, 'last year (2025)'],
      [{ kind: 'this', unit: 'month' }, 'this month (December 2026)'],
      [{ kind: 'last_days', days: 30 }, 'the last 30 days (4 Nov–3 Dec 2026)'],
      [{ kind: 'month', month: 10 }, 'October 2026'],
      [{ kind: 'quarter', quarter: 4 }, 'Q4 2026'],
      [{ kind: 'yesterday' }, 'yesterday (3 Dec 2026)'],
      [{ kind: 'month_of_year', month: 10, year: 2025 }, 'October 2025'],
      [{ kind: 'year', year: 2025 }, 'in 2025'],
    ];
    for (const [period, words] of cases) expect(datedPeriod(period, today), words).toBe(words);
  });

  it("reads a German shop's periods and breakdowns, and a previous calendar month as last month", () => {
    expectRanges([
      ['Umsatz letzten Monat', '2026-12-04', '2026-11-01', '2026-11-30'],
      ['Stück im letzten Monat', '2026-12-04', '2026-11-01', '2026-11-30'],
      ['Menge letzte Woche', '2026-12-04', '2026-11-23', '2026-11-29'],
      ['Umsatz letztes Jahr', '2026-12-04', '2025-01-01', '2025-12-31'],
      ['Umsatz dieses Jahr', '2026-12-04', '2026-01-01', '2026-12-04'],
      ['Umsatz diesen Monat', '2026-12-04', '2026-12-01', '2026-12-04'],
      ['Umsatz im vergangenen Quartal', '2026-12-04', '2026-07-01', '2026-09-30'],
      ['Umsatz in den letzten 30 Tagen', '2026-12-04', '2026-11-04', '2026-12-03'],
      ['Umsatz gestern', '2026-12-04', '2026-12-03'],
      ['units sold in the previous calendar month', '2026-12-04', '2026-11-01', '2026-11-30'],
    ]);
    const unitOf = (question: string) => readBreakdown(Reading.of(question));
    const cases: [string, ReturnType<typeof readBreakdown>][] = [
      ['Umsatz pro Tag', 'day'],
      ['Umsatz täglich', 'day'],
      ['Umsatz pro Woche', 'week'],
      ['Umsatz wöchentlich', 'week'],
      ['Umsatz je Monat', 'month'],
      ['Umsatz nach Monaten', 'month'],
      ['Umsatz monatlich', 'month'],
      ['Umsatz vierteljährlich', 'quarter'],
      ['Umsatz pro Jahr', 'year'],
      ['Umsatz jährlich', 'year'],
    ];
    for (const [question, unit] of cases) expect(unitOf(question), question).toBe(unit);
    // The filler words of a German request are not named as unused; "Kategorie" beside a category is its word.
    const reading = Reading.of('Umsatz in der Kategorie Garden');
    expect(readCategory(reading, ['Garden'])).toBe('Garden');
    expect(reading.unusedWords()).toEqual(['Umsatz']);
  });

  it("reads a German shop's windows ahead, and its question words as filler", () => {
    const today = '2026-12-04';
    const windowIn = (question: string) => windowOn(question, today);
    expect(windowIn('Welche Produkte laufen in den nächsten 30 Tagen aus?')).toEqual({ by: '2027-01-02', words: 'the next 30 days', unused: ['laufen', 'aus'] });
    expect(windowIn('Was muss ich in den kommenden 2 Wochen bestellen?')).toEqual({ by: '2026-12-17', words: 'the next 14 days', unused: ['bestellen'] });
    expect(windowIn('Was muss ich nächste Woche bestellen?')).toEqual({ by: '2026-12-13', words: 'next week', unused: ['bestellen'] });
    expect(windowIn('Bestellungen im nächsten Monat')).toEqual({ by: '2027-01-31', words: 'next month', unused: ['Bestellungen'] });
    // A sales question's days still to come are said to be so, in German too.
    expect(readSalesAhead(Reading.of('Umsatz in den nächsten 30 Tagen'), today)).toBe('the next 30 days (4 Dec 2026–2 Jan 2027)');
  });

  it('reads German month names, with and without umlaut, and short forms; "since" a month from its first day', () => {
    const today = '2026-12-04';
    expectRanges([
      ['Umsatz im Oktober', today, '2026-10-01', '2026-10-31'],
      ['Umsatz Dezember 2026', today, '2026-12-01', '2026-12-04'],
      ['Umsatz Dezember 2025', today, '2025-12-01', '2025-12-31'],
      ['verkauft im Mai', today, '2026-05-01', '2026-05-31'],
      ['Umsatz Juni', today, '2026-06-01', '2026-06-30'],
      ['Stück Juli', today, '2026-07-01', '2026-07-31'],
      ['Umsatz im Januar', today, '2026-01-01', '2026-01-31'],
      ['Umsatz Februar 2026', today, '2026-02-01', '2026-02-28'],
      ['Umsatz Jänner', today, '2026-01-01', '2026-01-31'],
      ['Umsatz im März', today, '2026-03-01', '2026-03-31'],
      ['Umsatz im Maerz', today, '2026-03-01', '2026-03-31'],
      ['Umsatz im Marz', today, '2026-03-01', '2026-03-31'],
      ['Umsatz Okt', today, '2026-10-01', '2026-10-31'],
      ['Umsatz Okt. 2025', today, '2025-10-01', '2025-10-31'],
      ['Umsatz im Dez', today, '2026-12-01', '2026-12-04'],
      ['Umsatz Mär', today, '2026-03-01', '2026-03-31'],
      ['Umsatz im Mrz', today, '2026-03-01', '2026-03-31'],
      ['sales in Oct', today, '2026-10-01', '2026-10-31'],
      ['sales Oct 2025', today, '2025-10-01', '2025-10-31'],
      ['Umsatz letzten Oktober', today, '2025-10-01', '2025-10-31'],
      ['Umsatz diesen November', today, '2026-11-01', '2026-11-30'],
      // Since a month: from its first day to today, the latest that has started without a year.
      ['verkauft seit März', today, '2026-03-01', today],
      ['verkauft seit Dezember', today, '2026-12-01', today],
      ['verkauft seit Dezember 2025', today, '2025-12-01', today],
      ['sales since March', today, '2026-03-01', today],
      ['Umsatz ab Okt.', today, '2026-10-01', today],
      // A day with the German month: "3. März", "seit 3. Okt. 2025".
      ['Umsatz am 3. März', today, '2026-03-03'],
      ['verkauft seit 3. Okt. 2025', today, '2025-10-03', today],
      // English short forms are read only where a word or year dates them: "Jan" alone is as likely a name.
      ['sales of Jan', today, '2026-01-01', '2026-01-31'],
      ['Jan sales', today, null],
    ]);
    for (const question of ['Umsatz im Oktober', 'verkauft seit März', 'Umsatz Okt. 2025', 'Umsatz letzten Oktober']) expect(read(question, today).unused, question).toEqual(['Umsatz', 'verkauft'].filter((word) => question.startsWith(word)));
    // Orders and stock-outs read a German month ahead as its next occurrence.
    const window = (question: string) => readWindow(Reading.of(question), today);
    expect(window('Was läuft im Januar aus?')).toMatchObject({ from: '2027-01-01', by: '2027-01-31', words: 'January 2027' });
    expect(window('Was muss ich im Dezember bestellen?')).toMatchObject({ from: today, by: '2026-12-31', words: 'December 2026' });
    expect(window('Bestellungen Februar 2027')).toMatchObject({ from: '2027-02-01', by: '2027-02-28' });
    // "Mai" is the month; English "may" alone stays the verb.
    expect(read('Mai', today).period).toEqual({ kind: 'month', month: 5 });
    expect(read('may I see the sales', today).period).toBeNull();
  });

  it('reads a range of months, both included: the latest that has started, over a year end, into the future up to today', () => {
    expectRanges([
      ['sales from March to May', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['Umsatz von März bis Mai', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['verkocht van maart tot mei', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['verkocht van maart t/m mei', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['sales between March and May', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['Umsatz zwischen März und Mai', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['sales March–May', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['sales Mar-May', '2026-12-04', '2026-03-01', '2026-05-31'],
      ['sales March to May 2025', '2026-12-04', '2025-03-01', '2025-05-31'],
      // A range that has started and reaches into the future ends today.
      ['sales from March to May', '2026-04-10', '2026-03-01', '2026-04-10'],
      // In February March has not started this year: last year's range.
      ['sales from March to May', '2027-02-10', '2026-03-01', '2026-05-31'],
      // Over the year end: the latest November to the February after it.
      ['sales from November to February', '2027-03-15', '2026-11-01', '2027-02-28'],
      ['sales from November to February', '2027-01-20', '2026-11-01', '2027-01-20'],
      ['sales from November to February', '2026-12-04', '2026-11-01', '2026-12-04'],
      ['sales from November 2025 to February 2026', '2026-12-04', '2025-11-01', '2026-02-28'],
      ['sales from November to February 2024', '2026-12-04', '2023-11-01', '2024-02-29'],
      // A month said with its year starts the range, the other month follows it.
      ['sales from October 2025 to January', '2026-12-04', '2025-10-01', '2026-01-31'],
      // "Until" a month: the year up to its end — this year's once it has started, else whichever ends nearer today.
      ['sales until December', '2026-12-04', '2026-01-01', '2026-12-04'],
      ['sales up to May', '2026-12-04', '2026-01-01', '2026-05-31'],
      ['Umsatz bis Dezember', '2026-12-04', '2026-01-01', '2026-12-04'],
      ['verkocht tot december', '2026-12-04', '2026-01-01', '2026-12-04'],
      ['verkocht tot en met oktober', '2026-12-04', '2026-01-01', '2026-10-31'],
      ['sales until December', '2027-01-10', '2026-01-01', '2026-12-31'],
      ['sales until February', '2027-01-10', '2027-01-01', '2027-01-10'],
      ['sales till March 2025', '2026-12-04', '2025-01-01', '2025-03-31'],
    ]);
    for (const question of ['sales from March to May', 'Umsatz von März bis Mai', 'verkocht van maart tot mei', 'sales until December', 'Umsatz bis Dezember', 'verkocht tot december', 'sales between March and May']) {
      expect(read(question, '2026-12-04').unused, question).toEqual([question.split(' ')[0]]);
    }
    // Said back with its dates, and read back as the same days.
    const range = read('sales from March to May', '2026-12-04').period as Period;
    expect(spokenPeriod(range, '2026-12-04')).toBe('from 1 Mar 2026 to 31 May 2026');
    expect(read(describePeriod(range), '2026-12-04').period).toEqual(range);
    // A range wholly to come has no sales yet; one under way is read as a past period.
    expect(readSalesAhead(Reading.of('sales from January 2027 to March 2027'), '2026-12-04')).toBe('from 1 Jan 2027 to 31 Mar 2027');
    expect(readSalesAhead(Reading.of('sales until December'), '2026-12-04')).toBeNull();
    // "Compare March to June" still compares two months.
    expect(readComparison(Reading.of('compare March to June'), '2026-12-04')).toEqual({ earlier: { kind: 'month', month: 3 }, later: { kind: 'month', month: 6 } });
  });
});

describe('what a shop owner asks on 3 December 2026', () => {
  const TODAY = '2026-12-03';
  /** What a reader gets from `read` and the words it left unused. */
  const reading = <T>(question: string, read: (reading: Reading) => T) => {
    const words = Reading.of(question);
    return { read: read(words), unused: words.unusedWords() };
  };
  /** A unit read by `read` (the best month, a breakdown by quarter), the days of the period beside it and the words left unused. */
  const unitAndPeriod = <T>(read: (reading: Reading) => T) => (question: string) => {
    const words = Reading.of(question);
    const unit = read(words);
    const period = readPeriod(words, TODAY);
    return { unit, range: period && rangeOf(period, TODAY), unused: words.unusedWords() };
  };

  it('reads "not sold in 60 days" as the last 60 days, with the number said', () => {
    const quiet = (question: string) => {
      const words = Reading.of(question);
      const period = readQuietSpan(words);
      return period && rangeOf(period, TODAY);
    };
    expect(quiet('which products have not sold in 60 days?')).toEqual({ from: '2026-10-04', to: '2026-12-02' });
    expect(quiet('products with no sales for 8 weeks')).toEqual({ from: '2026-10-08', to: '2026-12-02' });
    expect(quiet("what haven't we sold in 3 months")).toEqual({ from: '2026-09-03', to: '2026-12-02' });
    expect(quiet('products not sold in the last 45 days')).toBeNull();
    expect(reading('which products have not sold in 60 days?', readQuietSpan).unused).toEqual(['not', 'sold']);
  });

  it('reads a category named in any case or number, and a ranking with its number', () => {
    const categories = ['Garden', 'Heating', 'Kitchen Tools'];
    expect(reading('what sells best in the heating category?', (r) => readCategory(r, categories))).toEqual({ read: 'Heating', unused: ['sells', 'best'] });
    expect(reading('top sellers in Heating', (r) => readCategory(r, categories)).read).toBe('Heating');
    expect(reading('best selling garden products', (r) => readCategory(r, categories)).read).toBe('Garden');
    expect(reading('units sold in gardens', (r) => readCategory(r, categories)).read).toBe('Garden');
    expect(reading('sales of kitchen tool', (r) => readCategory(r, categories)).read).toBe('Kitchen Tools');
    expect(reading('sales of heaters', (r) => readCategory(r, categories)).read).toBeNull();
    expect(reading('what sells best', (r) => readRank(r, 5)).read).toEqual({ direction: 'desc', limit: 5 });
    expect(reading('top 3 sellers', (r) => readRank(r, 5)).read).toEqual({ direction: 'desc', limit: 3 });
    expect(reading('worst sellers', (r) => readRank(r, 5)).read).toEqual({ direction: 'asc', limit: 5 });
    for (const words of ['what sold best', 'bestsellers', 'best-selling', 'most sold', 'which products sell most', 'sold the most', 'meistverkaufte']) {
      expect(reading(words, (r) => readRank(r, 5)).read, words).toEqual({ direction: 'desc', limit: 5 });
    }
    for (const words of ['what sold least', 'sold the worst', 'least sold']) expect(reading(words, (r) => readRank(r, 5)).read, words).toEqual({ direction: 'asc', limit: 5 });
  });

  it('reads the best or worst month, week or day of a period', () => {
    const best = unitAndPeriod(readBestPeriod);
    expect(best('what was the best month last year?')).toEqual({ unit: { unit: 'month', direction: 'desc' }, range: { from: '2025-01-01', to: '2025-12-31' }, unused: [] });
    expect(best('best selling month in 2025')).toMatchObject({ unit: { unit: 'month', direction: 'desc' }, range: { from: '2025-01-01', to: '2025-12-31' }, unused: [] });
    expect(best('worst week this year')).toEqual({ unit: { unit: 'week', direction: 'asc' }, range: { from: '2026-01-01', to: '2026-12-03' }, unused: [] });
    expect(best('top sellers this week').unit).toBeNull();
  });

  it('reads a breakdown by day, week, month, quarter or year, and its period beside it; "average daily" is a measure', () => {
    const breakdown = unitAndPeriod(readBreakdown);
    const cases: [string, ReturnType<typeof readBreakdown>][] = [
      ['sales by quarter', 'quarter'],
      ['units sold per quarter', 'quarter'],
      ['quarterly sales', 'quarter'],
      ['sales quarter by quarter', 'quarter'],
      ['sales each quarter', 'quarter'],
      ['sales by year', 'year'],
      ['units sold per year', 'year'],
      ['yearly sales', 'year'],
      ['annual sales', 'year'],
      ['sales by day', 'day'],
      ['daily sales', 'day'],
      ['sales day by day', 'day'],
      ['weekly sales', 'week'],
      ['sales by month', 'month'],
      ['sales trend', 'month'],
      ['sales', null],
      ['average daily sales', null],
      ['daily average sales', null],
      ['units sold per day on average', null],
    ];
    for (const [question, unit] of cases) expect(breakdown(question).unit, question).toBe(unit);
    // Beside a period, a quarter's own words are not one: "this quarter by month" is months of this quarter.
    expect(breakdown('sales this quarter by month')).toEqual({ unit: 'month', range: { from: '2026-10-01', to: '2026-12-03' }, unused: ['sales'] });
    expect(breakdown('quarterly sales last year')).toEqual({ unit: 'quarter', range: { from: '2025-01-01', to: '2025-12-31' }, unused: ['sales'] });
    expect(breakdown('sales last quarter').unit).toBeNull();
  });

  it('reads two periods set side by side, the earlier first', () => {
    const compare = (question: string, today = TODAY) => {
      const words = Reading.of(question);
      const read = readComparison(words, today);
      return { earlier: read && rangeOf(read.earlier, today), later: read && rangeOf(read.later, today), unused: words.unusedWords() };
    };
    expect(compare('compare sales of this November with last November')).toEqual({ earlier: { from: '2025-11-01', to: '2025-11-30' }, later: { from: '2026-11-01', to: '2026-11-30' }, unused: ['sales'] });
    expect(compare('sales this month vs last month')).toEqual({ earlier: { from: '2026-11-01', to: '2026-11-30' }, later: { from: '2026-12-01', to: '2026-12-03' }, unused: ['sales'] });
    expect(compare('December 2025 against December 2024')).toEqual({ earlier: { from: '2024-12-01', to: '2024-12-31' }, later: { from: '2025-12-01', to: '2025-12-31' }, unused: [] });
    // "With" and "and" set periods side by side only after "compare"; one period is no comparison.
    expect(compare('sales with discounts last month').earlier).toBeNull();
    expect(compare('compare sales last month').earlier).toBeNull();
    // "Last November" in January is still the one of the year before.
    expect(compare('compare last November and this November', '2027-01-10')).toMatchObject({ earlier: { from: '2026-11-01', to: '2026-11-30' } });
    // Two periods a model's tool is given, in either order: the earlier first.
    const thisMonth: Period = { kind: 'this', unit: 'month' };
    const lastMonth: Period = { kind: 'previous', unit: 'month' };
    expect(comparisonOf(thisMonth, lastMonth, TODAY)).toEqual({ earlier: lastMonth, later: thisMonth });
    expect(comparisonOf(lastMonth, thisMonth, TODAY)).toEqual({ earlier: lastMonth, later: thisMonth });
  });

  it('reads "all time" and "ever" as every sale up to today, said and read back as "all time"', () => {
    for (const question of ['top sellers of all time', 'all-time best sellers', 'the best month ever', 'units sold over all time']) {
      expect(read(question, TODAY).period, question).toEqual({ kind: 'all_time' });
      expect(read(question, TODAY).unused, question).not.toContain('time');
    }
    expect(read('top sellers of all time', TODAY).unused).toEqual(['top', 'sellers']);
    // "Never", "every" are not "ever".
    expect(read('products never sold', TODAY).period).toBeNull();
    expect(read('sales every week', TODAY).period).toBeNull();
    const allTime: Period = { kind: 'all_time' };
    expect(describePeriod(allTime)).toBe('all time');
    expect(read(`Units sold: top 10 products (${describePeriod(allTime)})`, TODAY).period).toEqual(allTime);
    // Its days are the data's where an answer knows them: from the first sale.
    expect(spokenPeriod(allTime, TODAY, { from: '2025-07-14', to: TODAY })).toBe('of all time (14 Jul 2025–3 Dec 2026)');
    expect(rangeOf(allTime, TODAY).to).toBe(TODAY);
  });

  it('cuts the earlier period to the same days while the later is under way', () => {
    const sameDays = (question: string, today = TODAY, lastSalesDay: string | null = today) => sameDaysSoFar(readComparison(Reading.of(question), today) as Comparison, today, lastSalesDay);
    expect(sameDays('sales this month vs last month')).toEqual({ earlier: { from: '2026-11-01', to: '2026-11-03' }, later: { from: '2026-12-01', to: '2026-12-03' } });
    // Today's sales not in yet: both run to the last day with sales.
    expect(sameDays('sales this month vs last month', TODAY, '2026-12-02')).toEqual({ earlier: { from: '2026-11-01', to: '2026-11-02' }, later: { from: '2026-12-01', to: '2026-12-02' } });
    expect(sameDays('sales this month vs last month', TODAY, '2026-10-20')?.later).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    // A later month longer than the earlier one stops at the earlier's end.
    expect(sameDays('this month vs last month', '2027-03-30')?.earlier).toEqual({ from: '2027-02-01', to: '2027-02-28' });
    expect(sameDays('this year vs last year')?.earlier).toEqual({ from: '2025-01-01', to: '2025-12-03' });
    // Both ended: whole periods.
    expect(sameDays('compare sales of this November with last November')).toBeNull();
    expect(sameDays('December 2025 against December 2024')).toBeNull();
  });
});

describe("a garden centre's Christmas and year-ago comparisons (QA5 #7, #9)", () => {
  it('reads Christmas as the season 1–24 December: "last Christmas" the latest that has ended, a year said never dropped, Christmas Eve and Boxing Day as days', () => {
    expectRanges([
      ['what did we sell last Christmas', '2026-12-04', '2025-12-01', '2025-12-24'],
      ['what did we sell last Christmas', '2026-12-27', '2026-12-01', '2026-12-24'],
      ['what did we sell last Christmas', '2027-01-10', '2026-12-01', '2026-12-24'],
      ['how many christmas trees did we sell at Christmas 2025', '2026-12-04', '2025-12-01', '2025-12-24'],
      ['sales over the christmas period last year', '2026-12-04', '2025-12-01', '2025-12-24'],
      ['sales this christmas', '2026-12-04', '2026-12-01', '2026-12-04'],
      ['sales at christmas', '2026-07-01', '2025-12-01', '2025-12-24'],
      ['what did we sell on Christmas Eve last year', '2026-12-04', '2025-12-24'],
      ['what did we sell on christmas eve (last year)', '2026-12-04', '2025-12-24'],
      ['christmas eve sales', '2026-12-04', '2025-12-24'],
      ['boxing day sales 2024', '2026-12-04', '2024-12-26'],
      ['sales on christmas day 2025', '2026-12-04', '2025-12-25'],
      // "Christmas" with no word that dates it is a category's or a product's word, not a period.
      ['sales of christmas', '2026-12-04', null],
      ['christmas trees sold', '2026-12-04', null],
    ]);
    expect(read('how many christmas trees did we sell at Christmas 2025', '2026-12-04').unused).toEqual(['christmas', 'trees', 'sell']);
    expect(read('sales at christmas 2025', '2026-12-04').unused).toEqual(['sales']);
    const period = read('what did we sell last Christmas', '2026-12-04').period as Period;
    expect(spokenPeriod(period, '2026-12-04')).toBe('at Christmas 2025 (1–24 Dec 2025)');
    // Read back from a report's title as the same season.
    expect(read(`Units sold (${describePeriod(period)})`, '2026-12-04').period).toEqual(period);
    // The words of the period are not a category named "Christmas"; "category Christmas" and "christmas trees" are.
    const category = (question: string) => readCategory(Reading.of(question), ['Christmas', 'Compost']);
    expect(category('what did we sell last Christmas')).toBeNull();
    expect(category('what did we sell at christmas 2025')).toBeNull();
    expect(category('how many christmas trees did we sell at Christmas 2025')).toBe('Christmas');
    expect(category('sales last christmas in the christmas category')).toBe('Christmas');
  });

  it('reads "last year" against a month, week or quarter as the same span a year before', () => {
    const compare = (question: string, today = '2026-12-04') => {
      const words = Reading.of(question);
      const read = readComparison(words, today);
      return { earlier: read && rangeOf(read.earlier, today), later: read && rangeOf(read.later, today), unused: words.unusedWords() };
    };
    expect(compare('how are sales this month compared with last year')).toEqual({ earlier: { from: '2025-12-01', to: '2025-12-31' }, later: { from: '2026-12-01', to: '2026-12-04' }, unused: ['sales'] });
    expect(compare('units sold this month vs the same month last year')).toEqual({ earlier: { from: '2025-12-01', to: '2025-12-31' }, later: { from: '2026-12-01', to: '2026-12-04' }, unused: ['units', 'sold'] });
    // A week against the one 52 weeks before: the same weekdays.
    expect(compare('sales this week vs last year')).toMatchObject({ earlier: { from: '2025-12-01', to: '2025-12-07' }, later: { from: '2026-11-30', to: '2026-12-04' } });
    expect(compare('sales this quarter against last year')).toMatchObject({ earlier: { from: '2025-10-01', to: '2025-12-31' } });
    expect(compare('sales last month against last year')).toMatchObject({ earlier: { from: '2025-11-01', to: '2025-11-30' }, later: { from: '2026-11-01', to: '2026-11-30' } });
    // The years themselves: unchanged, the earlier cut to the same days.
    expect(compare('sales this year vs last year')).toMatchObject({ earlier: { from: '2025-01-01', to: '2025-12-31' } });
    const cut = sameDaysSoFar(readComparison(Reading.of('how are sales this month compared with last year'), '2026-12-04') as Comparison, '2026-12-04', '2026-12-03');
    expect(cut).toEqual({ earlier: { from: '2025-12-01', to: '2025-12-03' }, later: { from: '2026-12-01', to: '2026-12-03' } });
  });
});

describe("a garden centre's weekends, Easter, deadlines and impossible dates (QA5 #16, #20, #25)", () => {
  it('computes Easter Sunday by the Gregorian computus over known years, its earliest and latest dates included', () => {
    const known: Record<number, string> = {
      1818: '1818-03-22',
      1943: '1943-04-25',
      2000: '2000-04-23',
      2008: '2008-03-23',
      2011: '2011-04-24',
      2019: '2019-04-21',
      2024: '2024-03-31',
      2025: '2025-04-20',
      2026: '2026-04-05',
      2027: '2027-03-28',
      2038: '2038-04-25',
      2285: '2285-03-22',
    };
    for (const [year, sunday] of Object.entries(known)) expect(easterSunday(Number(year)), year).toBe(sunday);
  });

  it('reads last, this and next weekend as Saturday and Sunday of that week, in English, German and Dutch', () => {
    expectRanges([
      // Friday 4 December 2026: last weekend 28–29 November; this weekend is still to come.
      ['sales last weekend', '2026-12-04', '2026-11-28', '2026-11-29'],
      ["last weekend's sales", '2026-12-04', '2026-11-28', '2026-11-29'],
      ['sales this weekend', '2026-12-04', '2026-12-05', '2026-12-06'],
      ['sales next weekend', '2026-12-04', '2026-12-12', '2026-12-13'],
      // On a Sunday this weekend is under way, last weekend the one before; over a year end.
      ['sales this weekend', '2026-12-06', '2026-12-05', '2026-12-06'],
      ['sales last weekend', '2026-12-06', '2026-11-28', '2026-11-29'],
      ['sales last weekend', '2027-01-04', '2027-01-02', '2027-01-03'],
      ['sales last weekend', '2027-01-01', '2026-12-26', '2026-12-27'],
      ['Umsatz letztes Wochenende', '2026-12-04', '2026-11-28', '2026-11-29'],
      ['verkoop vorig weekend', '2026-12-04', '2026-11-28', '2026-11-29'],
      ['verkoop afgelopen weekend', '2026-12-04', '2026-11-28', '2026-11-29'],
    ]);
    const period = read('sales last weekend', '2026-12-04').period as Period;
    expect(read('sales last weekend', '2026-12-04').unused).toEqual(['sales']);
    expect(spokenPeriod(period, '2026-12-04')).toBe('last weekend (28–29 Nov 2026)');
    expect(read(`Units sold (${describePeriod(period)})`, '2026-12-04').period).toEqual(period);
    expect(readSalesAhead(Reading.of('sales this weekend'), '2026-12-04')).toBe('this weekend (5–6 Dec 2026)');
    expect(dueWords(dueWindowOf(readWindow(Reading.of("what's due in this weekend"), '2026-12-04') as NonNullable<ReturnType<typeof readWindow>>, '2026-12-04'))).toBe('this weekend (5–6 Dec 2026)');
    expect(windowOn("what's due in this week", '2026-12-04')).toEqual({ by: '2026-12-06', words: 'this week', unused: ['due'] });
  });

  it('reads "last Saturday" as the latest Saturday before today, in English, German and Dutch (QA café F7)', () => {
    expectRanges([
      // Monday 7 December 2026 in Melbourne: last Saturday is the 5th; on a Saturday it is a week ago.
      ['how many croissants did we sell last Saturday?', '2026-12-07', '2026-12-05'],
      ["last saturday's sales", '2026-12-07', '2026-12-05'],
      ['sales this past Saturday', '2026-12-07', '2026-12-05'],
      ['sales last Saturday', '2026-12-05', '2026-11-28'],
      ['sales last Sunday', '2026-12-07', '2026-12-06'],
      ['sales last Monday', '2026-12-07', '2026-11-30'],
      ['sales last Friday', '2027-01-01', '2026-12-25'],
      ['Umsatz letzten Samstag', '2026-12-07', '2026-12-05'],
      ['verkoop afgelopen zaterdag', '2026-12-07', '2026-12-05'],
    ]);
    const period = read('how many croissants did we sell last Saturday', '2026-12-07');
    expect(period.period).toEqual({ kind: 'day', date: '2026-12-05' });
    expect(period.unused).not.toContain('saturday');
  });

  it('reads Easter as Good Friday to Easter Monday, its days by name, and "before" or "by" Easter as a deadline', () => {
    expectRanges([
      ['what did we sell at Easter 2025', '2026-12-04', '2025-04-18', '2025-04-21'],
      ['easter weekend 2025 sales', '2026-12-04', '2025-04-18', '2025-04-21'],
      ['easter sales', '2026-12-04', '2026-04-03', '2026-04-06'],
      ['what did we sell last Easter', '2026-12-04', '2026-04-03', '2026-04-06'],
      // In March 2027 last Easter is 2026's; "at Easter" the latest that has started.
      ['what did we sell last Easter', '2027-03-10', '2026-04-03', '2026-04-06'],
      ['sales over easter', '2027-03-27', '2027-03-26', '2027-03-27'],
      ['sales over easter last year', '2026-12-04', '2025-04-18', '2025-04-21'],
      ['good friday sales 2025', '2026-12-04', '2025-04-18'],
      ['sales on easter monday', '2026-12-04', '2026-04-06'],
      // "Easter" with no word that dates it is a category's or a product's word.
      ['easter eggs sold', '2026-12-04', null],
    ]);
    const period = read('sales at easter 2025', '2026-12-04').period as Period;
    expect(spokenPeriod(period, '2026-12-04')).toBe('at Easter 2025 (18–21 Apr 2025)');
    expect(read(`Units sold (${describePeriod(period)})`, '2026-12-04').period).toEqual(period);
    expect(ahead('what runs out before Easter', '2026-12-04')).toMatchObject({ by: '2027-03-27', words: 'before Easter', unused: ['runs', 'out'] });
    expect(ahead('order by Easter', '2026-03-01')).toMatchObject({ by: '2026-04-05' });
    expect(ahead('order by Good Friday', '2026-03-01')).toMatchObject({ by: '2026-04-03' });
  });

  it('reads a deadline\'s date words as no category: "before Christmas", "by Easter"; "Christmas trees" still are', () => {
    const category = (question: string) => readCategory(Reading.of(question), ['Christmas', 'Easter', 'Compost']);
    expect(category('what runs out before Christmas')).toBeNull();
    expect(category('what runs out by Easter')).toBeNull();
    expect(category('which easter lines run out at Easter 2025')).toBe('Easter');
    expect(category('christmas trees running out before christmas')).toBe('Christmas');
    expect(category('christmas trees running out')).toBe('Christmas');
  });

  it('names a date that is no day of the calendar, and no real one nor two numbers that date nothing', () => {
    const said = (question: string) => impossibleDate(Reading.of(question).text, '2026-12-04');
    expect(said('sales on 31/11/2025')).toBe('There is no 31 November 2025. November has 30 days.');
    expect(said('sales on 29/02/2025')).toBe('There is no 29 February 2025. February 2025 has 28 days.');
    expect(said('sales on 29.02.25')).toBe('There is no 29 February 2025. February 2025 has 28 days.');
    expect(said('sales on 32/01')).toBe('There is no 32 January. January has 31 days.');
    expect(said('sales on 31/13/2025')).toBe('There is no month 13 (31/13/2025). A year has 12 months.');
    expect(said('sales on 2025-02-30')).toBe('There is no 30 February 2025. February 2025 has 28 days.');
    expect(said('sales 31 November 2025')).toBe('There is no 31 November 2025. November has 30 days.');
    expect(said('sales between 1/11 and 31/11')).toBe('There is no 31 November. November has 30 days.');
    expect(said('sales by 30/02')).toBe('There is no 30 February. February has at most 29 days.');
    for (const fine of ['sales on 30/11/2025', 'sales on 29/02/2024', 'sales on 29/02', 'sales on 12/31/2025', '50/50 compost mix', 'sales of 2.75 kg bags', 'sales in 2025']) expect(said(fine), fine).toBeNull();
  });

  it('names a span past a century instead of reading back before year 1 (a database error answered as a 400)', () => {
    const said = (question: string) => spanTooLong(Reading.of(question).text);
    expect(said('slow movers in the last 99999999 days')).toBe('"last 99999999 days" is more than a century: ask about at most the last or next 100 years (1,200 months, 36,500 days).');
    expect(said('top sellers over the past 101 years')).toMatch(/^"past 101 years" is more than a century/);
    expect(said('what runs out in the next 5300 weeks')).toMatch(/^"next 5300 weeks" is more than a century/);
    expect(said('verkauft in den letzten 1300 Monaten')).toMatch(/^"letzten 1300 monaten" is more than a century/);
    expect(said('verkocht in de afgelopen 40000 dagen')).toMatch(/^"afgelopen 40000 dagen" is more than a century/);
    for (const fine of ['sales in the last 36500 days', 'sales over the last 100 years', 'sales in the last 400 quarters', 'top 5000 sellers in the last 30 days', 'sales in the last 30 days']) expect(said(fine), fine).toBeNull();
  });

  it('names an impossible slashed date in the asker\'s order: month-first for en-US, dotted dates day-first whatever the language', () => {
    const said = (question: string, order: DateOrder) => impossibleDate(Reading.of(question, order).text, '2026-12-04', order);
    expect(said('sales on 11/31/2025', 'month-first')).toBe('There is no 31 November 2025. November has 30 days.');
    expect(said('sales on 11/31/2025', 'day-first')).toBe('There is no month 31 (11/31/2025). A year has 12 months.');
    expect(said('sales on 2/30', 'month-first')).toBe('There is no 30 February. February has at most 29 days.');
    expect(said('sales on 11-31-2025', 'month-first')).toBe('There is no 31 November 2025. November has 30 days.');
    expect(said('sales on 13/31/2025', 'month-first')).toBe('There is no month 13 (13/31/2025). A year has 12 months.');
    expect(said('sales on 31.11.2025', 'month-first')).toBe('There is no 31 November 2025. November has 30 days.');
    expect(said('sales on 2025-11-31', 'month-first')).toBe('There is no 31 November 2025. November has 30 days.');
    for (const fine of ['sales on 11/30/2025', 'sales on 2/29', 'sales on 30/11/2025']) expect(said(fine, 'month-first'), fine).toBeNull();
  });
});

describe('seasons, words of product names and days of cover', () => {
  it('reads meteorological seasons of the northern hemisphere: last winter the latest that has ended', () => {
    expectRanges([
      ['how many radiators did we sell last winter?', '2026-12-03', '2025-12-01', '2026-02-28'],
      // Winter under way has not ended: "last winter" is the one before; once over, it is that one.
      ['sales last winter', '2027-01-10', '2025-12-01', '2026-02-28'],
      ['sales last winter', '2027-03-05', '2026-12-01', '2027-02-28'],
      ['sales this summer', '2026-12-03', '2026-06-01', '2026-08-31'],
      ['sales this winter', '2027-01-10', '2026-12-01', '2027-01-10'],
      ['sales in the autumn', '2026-12-03', '2026-09-01', '2026-11-30'],
      ['sales last fall', '2026-10-15', '2025-09-01', '2025-11-30'],
      ['sales in winter 2023', '2026-12-03', '2023-12-01', '2024-02-29'],
    ]);
    const period = read('sales last winter', '2026-12-03').period as Period;
    expect(describePeriod(period)).toBe('winter 2025–26');
    expect(spokenPeriod(period, '2026-12-03')).toBe('in winter 2025–26 (1 Dec 2025–28 Feb 2026)');
    expect(read(`Units sold (${describePeriod(period)})`, '2026-12-03').period).toEqual(period);
  });

  it('reads a word of product names in either number among the words nothing else used', () => {
    const named = (question: string) => {
      const words = Reading.of(question);
      readPeriod(words, '2026-12-03');
      return { word: readNameWord(words, ['Radiator', 'Heater', 'Draught', 'Excluder', 'Classic']), unused: words.unusedWords() };
    };
    expect(named('how many radiators did we sell last winter?')).toEqual({ word: 'Radiator', unused: ['sell'] });
    expect(named('heater sales this year')).toEqual({ word: 'Heater', unused: ['sales'] });
    expect(named('sales last month').word).toBeNull();
  });

  it('reads the longest phrase of product names first: three words before two before one, and says the word beside a shorter one', () => {
    const words = ['Pressure', 'Treated', 'Lumber', 'Post', 'Stainless', 'Steel', 'Screw', 'Hinge'];
    const phrases = ['Pressure Treated', 'Treated Lumber', 'Treated Post', 'Stainless Steel', 'Steel Screw', 'Steel Hinge', 'Pressure Treated Lumber', 'Pressure Treated Post', 'Stainless Steel Screw', 'Stainless Steel Hinge'];
    const named = (question: string) => {
      const reading = Reading.of(question);
      readPeriod(reading, '2026-12-03');
      const word = readNameWord(reading, words, phrases);
      return { word, missed: word && missedPhrase(reading, word), unused: reading.unusedWords() };
    };
    expect(named('how much pressure treated lumber did we sell last month')).toEqual({ word: 'Pressure Treated Lumber', missed: null, unused: ['sell'] });
    expect(named('how many stainless steel screws did we sell last month')).toEqual({ word: 'Stainless Steel Screw', missed: null, unused: ['sell'] });
    expect(named('treated lumber sold').word).toBe('Treated Lumber');
    // No name holds the three together: the longest phrase that names products, said first.
    expect(named('how many pressure treated decking did we sell')).toEqual({ word: 'Pressure Treated', missed: 'pressure treated decking', unused: ['decking', 'sell'] });
    expect(named('how many stainless bolts did we sell')).toEqual({ word: 'Stainless', missed: 'stainless bolts', unused: ['bolts', 'sell'] });
  });

  it('reads short words of product names and their plurals, and no common short word as one', () => {
    const names = ['Mug', 'Box', 'Tie', 'Battery', 'Glass', 'Horse', 'Jeans', 'Top', 'Day', 'The', 'All', 'New', 'May', 'Set'];
    const named = (question: string) => {
      const words = Reading.of(question);
      readPeriod(words, '2026-12-03');
      return { word: readNameWord(words, names), unused: words.unusedWords() };
    };
    expect(named('how many mugs did we sell')).toEqual({ word: 'Mug', unused: ['sell'] });
    expect(named('how many mug did we sell')).toEqual({ word: 'Mug', unused: ['sell'] });
    expect(named('boxes sold last month')).toEqual({ word: 'Box', unused: ['sold'] });
    expect(named('how many ties did we sell last week').word).toBe('Tie');
    expect(named('batteries sold this year').word).toBe('Battery');
    expect(named('glasses sold').word).toBe('Glass');
    expect(named('horses sold').word).toBe('Horse');
    expect(named('jeans sold').word).toBe('Jeans');
    // Words a question says for what it asks select no product, though names hold them.
    for (const question of ['top sellers this week', 'the best day last month', 'units sold per day', 'sales of all the products', "what's new", 'sales in may', 'top 5 sellers', 'sales by set of days']) {
      expect(named(question).word, question).toBeNull();
    }
    // The name word's pattern takes either number, as the answers claim it.
    const boxes = Reading.of('boxes sold last week');
    expect(readNameWord(boxes, ['Box'])).toBe('Box');
    expect(boxes.unusedWords()).not.toContain('boxes');
    // A category in either number: "ties" is the Tie category's plural, "tie" the Ties category's singular.
    expect(readCategory(Reading.of('units sold in ties'), ['Tie'])).toBe('Tie');
    expect(readCategory(Reading.of('units sold in tie'), ['Ties'])).toBe('Ties');
    expect(readCategory(Reading.of('boxes last month'), ['Box'])).toBe('Box');
  });

  it('reads German names in either number, umlauts and ß as letters', () => {
    const names = ['Gießkanne', 'Handschuh', 'Topf', 'Licht', 'Übertopf', 'Rosen', 'Salz', 'und', 'Pfeffer'];
    const named = (question: string) => {
      const words = Reading.of(question);
      return { word: readNameWord(words, names), unused: words.unusedWords() };
    };
    expect(named('Wie viele Gießkannen haben wir?').word).toBe('Gießkanne');
    expect(named('Gießkanne Bestand').word).toBe('Gießkanne');
    expect(named('Handschuhe verkauft').word).toBe('Handschuh');
    expect(named('Wann sind die Töpfe leer?').word).toBe('Topf');
    expect(named('Lichter im Dezember').word).toBe('Licht');
    expect(named('how many rose did we sell').word).toBe('Rosen');
    // A name word at the start of a question, beginning with an umlaut, is used up by the reading.
    const overpots = named('Übertöpfe auf Lager?');
    expect(overpots.word).toBe('Übertopf');
    expect(overpots.unused).not.toContain('Übertöpfe');
    // English words do not become German names: "under" is not the plural of "und".
    expect(named('products under 10 units').word).toBeNull();
    expect(readCategory(Reading.of('Umsatz Zubehör letzten Monat'), ['Zubehör'])).toBe('Zubehör');
    expect(readCategory(Reading.of('Pflanzen im März'), ['Pflanze'])).toBe('Pflanze');
    expect(readCategory(Reading.of('Zubehörteile'), ['Zubehör'])).toBeNull();
  });

  it('reads the words goods are counted in (bags, Säcke, zakken, flessen) as framing beside a product word, and a name holding one as that name', () => {
    const words = ['Compost', 'zak', 'Paper', 'Bag', 'Rindenmulch', 'wijn', 'Rode', 'paint', 'Tomaten'];
    const phrases = ['Compost zak', 'Paper Bag', 'Rode wijn'];
    const named = (question: string) => {
      const reading = Reading.of(question);
      const word = readNameWord(reading, words, phrases);
      return { word, missed: word && missedPhrase(reading, word), unused: reading.unusedWords() };
    };
    expect(named('hoeveel zakken compost')).toEqual({ word: 'Compost', missed: null, unused: [] });
    expect(named('how many bags of compost')).toEqual({ word: 'Compost', missed: null, unused: [] });
    expect(named('how many compost bags')).toEqual({ word: 'Compost', missed: null, unused: [] });
    expect(named('wie viele Säcke Rindenmulch')).toEqual({ word: 'Rindenmulch', missed: null, unused: [] });
    expect(named('wie viele Kisten Tomaten')).toEqual({ word: 'Tomaten', missed: null, unused: [] });
    expect(named('hoeveel flessen wijn')).toEqual({ word: 'wijn', missed: null, unused: [] });
    expect(named('how many cans of paint')).toEqual({ word: 'paint', missed: null, unused: [] });
    // A name holding the word together with the product's: that name.
    expect(named('hoeveel compost zak')).toEqual({ word: 'Compost zak', missed: null, unused: [] });
    expect(named('how many paper bags')).toEqual({ word: 'Paper Bag', missed: null, unused: [] });
    // No other word names products: a packaging word is a word of names like any other, else unused.
    expect(named('how many bags')).toEqual({ word: 'Bag', missed: null, unused: [] });
    expect(named('how many crates')).toEqual({ word: null, missed: null, unused: ['crates'] });
  });

  it("reads a product's whole name with its last word in either number, never inside a longer word", () => {
    // The plural of the name's last word is the name, the whole word used: no "s" left over.
    expect(said('Paper bag', 'how many paper bags did we sell')).toBe('paper bags');
    expect(said('Paper bags', 'how many paper bag did we sell')).toBe('paper bag');
    expect(said('Croissant', 'hoeveel croissants')).toBe('croissants');
    expect(said('Gießkanne', 'wie viele Gießkannen')).toBe('gießkannen');
    expect(said('Blumentöpfe', 'ein Blumentopf')).toBe('blumentopf');
    expect(said('Battery', 'how many batteries')).toBe('batteries');
    expect(said('Paper  bag', 'paper\tbags')).toBe('paper\tbags');
    // Inside a longer word, or that word's other number, it is no name.
    expect(said('Paper bag', 'how many paper bagger')).toBeNull();
    expect(said('Tea', 'how many teapots')).toBeNull();
    expect(said('Mug', 'teamugs')).toBeNull();
    // A last word of digits or signs is written one way only.
    expect(said('Compost 40L', 'compost 40ls')).toBeNull();
    expect(said('Compost 40L', 'compost 40l bags')).toBe('compost 40l');
    // The words a database picks names by: each of the text's in either number.
    expect(wordsInEitherNumber('Paper bags, 40L')).toEqual(expect.arrayContaining(['paper', 'bags', 'bag', '40l']));
    expect(wordsInEitherNumber('Paper bags, 40L')).not.toContain('40ls');
  });

  it("reads a whole name whose last word is joined by hyphens or an apostrophe in either number, its spaces and apostrophes as written anywhere (ADR 0189, amendment 2026-12-06 (6))", () => {
    // The last part's number is the word's: English, German and Dutch endings alike.
    expect(said('Crew T-Shirt', 'how many crew t-shirts')).toBe('crew t-shirts');
    expect(said('Crew T-Shirts', 'how many crew t-shirt')).toBe('crew t-shirt');
    expect(said("Men's Jumper", 'how many men’s jumpers')).toBe('men’s jumpers');
    expect(said('Men’s Jumper', "how many men's jumpers")).toBe("men's jumpers");
    expect(said("Jack-o'-lantern", "jack-o'-lanterns")).toBe("jack-o'-lanterns");
    expect(said('Pop-up Battery', 'pop-up batteries')).toBe('pop-up batteries');
    expect(said('Kaffee-Kanne', 'wie viele kaffee-kannen')).toBe('kaffee-kannen');
    expect(said('Blumen-Topf', 'zwei blumen-töpfe')).toBe('blumen-töpfe');
    expect(said('T-shirt', 'hoeveel t-shirts')).toBe('t-shirts');
    // A last part under 3 letters has one number ("men's" is no plural of "men'"), and a part is no whole.
    expect(said("Socks Men's", "socks men'ss")).toBeNull();
    expect(said("Socks Men's", "socks men's")).toBe("socks men's");
    expect(said('Crew T-Shirt', 'crew t-shirtses')).toBeNull();
    expect(said('T-Shirt', 'how many shirts')).toBeNull();
    // White space as JavaScript and the database read it: any run is one space, none at either end.
    expect(said('  Paper  bag ', 'how many paper bags')).toBe('paper bags');
    expect(said('Oat\u00a0latte', 'two oat lattes')).toBe('oat lattes');
    expect(comparedName(' Oat \t latte\u00a0 ')).toBe('oat latte');
    expect(comparedName('Men’s  Jumper')).toBe("men's jumper");
    // The words a database picks names by: a joined word whole and by its parts, each in either number.
    expect(wordsInEitherNumber('crew T-Shirts, men’s')).toEqual(expect.arrayContaining(['crew', 't-shirts', 't-shirt', 't', 'shirts', 'shirt', "men's", 'men', 's']));
    expect(wordsInEitherNumber("men's")).not.toContain("men'ss");
  });

  it('reads a word joined by hyphens or an apostrophe whole first, then by its parts (ADR 0189, amendment 2026-12-06 (5))', () => {
    // The words of names as vocabulary.ts keeps them: hyphenated words whole and their parts of 3 or more letters.
    const words = ['T-Shirt', 'Shirt', 'Crew', 'linen-shirt', 'linen', 'V-Neck', 'Neck', 'Jumper', "Men's", 'Men', 'Socks'];
    const phrases = ['T-Shirt Crew', 'Shirt Crew', 'V-Neck Jumper', 'Neck Jumper', 'linen shirt', "Men's Socks"];
    const named = (question: string) => {
      const reading = Reading.of(question);
      const word = readNameWord(reading, words, phrases);
      return { word, unused: reading.unusedWords() };
    };
    expect(named('how many t-shirts')).toEqual({ word: 'T-Shirt', unused: [] });
    expect(named('how many T-Shirts sold')).toEqual({ word: 'T-Shirt', unused: ['sold'] });
    expect(named('how many linen shirts')).toEqual({ word: 'linen shirt', unused: [] });
    expect(named('how many linen-shirts')).toEqual({ word: 'linen-shirt', unused: [] });
    expect(named('v-neck jumpers in stock')).toEqual({ word: 'V-Neck Jumper', unused: ['stock'] });
    expect(named('how many men’s socks')).toEqual({ word: "Men's Socks", unused: [] });
    // A part when the whole is no word of names; a single letter never.
    expect(named('how many x-shirts')).toEqual({ word: 'Shirt', unused: [] });
    expect(named('how many v')).toEqual({ word: null, unused: ['v'] });
    expect(named('how many t-bars')).toEqual({ word: null, unused: ['t-bars'] });
    // The database's pattern: whole words, a phrase's words apart by spaces or hyphens, either apostrophe.
    const matches = (word: string, name: string) => new RegExp(nameWordSqlPattern(word).replace(/\\[mM]/g, '\\b'), 'u').test(name.toLowerCase());
    expect(matches('linen shirt', 'linen-shirt XS')).toBe(true);
    expect(matches('T-Shirt', 'T-Shirt Crew M')).toBe(true);
    expect(matches('Shirt', 'T-Shirt Crew M')).toBe(true);
    expect(matches("Men's", 'Men’s Socks')).toBe(true);
    expect(matches('V-Neck', 'Crew-Neck Jumper')).toBe(false);
  });

  it('reads days of cover', () => {
    const cover = (question: string) => readCoverDays(Reading.of(question));
    expect([cover('overstocked: more than 6 months of stock'), cover('over 90 days of cover'), cover('more than 2 weeks'), cover('overstocked')]).toEqual([180, 90, 14, null]);
  });
});

describe('words written like a product code', () => {
  it('are letters with digits, not quarters, ordinals or measures', () => {
    expect(['NOPE-999', 'MUG-03', 'sku123', 'A1'].filter(looksLikeProductCode)).toEqual(['NOPE-999', 'MUG-03', 'sku123', 'A1']);
    expect(['Q4', 'H1', '3rd', '350ml', '2.5kg', '7d', '2026', '3/11'].filter(looksLikeProductCode)).toEqual([]);
  });
});

describe("a Dutch shop's words (QA4 #3)", () => {
  const today = '2026-12-04';
  it('reads its periods, month names and short forms, breakdowns and windows ahead', () => {
    expectRanges([
      ['hoeveel verkocht vorige week?', today, '2026-11-23', '2026-11-29'],
      ['omzet vorige maand', today, '2026-11-01', '2026-11-30'],
      ['omzet afgelopen maand', today, '2026-11-01', '2026-11-30'],
      ['omzet vorig jaar', today, '2025-01-01', '2025-12-31'],
      ['omzet vorig kwartaal', today, '2026-07-01', '2026-09-30'],
      ['verkocht deze maand', today, '2026-12-01', '2026-12-04'],
      ['verkocht dit jaar', today, '2026-01-01', '2026-12-04'],
      ['verkocht deze week', today, '2026-11-30', '2026-12-04'],
      ['verkocht in de afgelopen 30 dagen', today, '2026-11-04', '2026-12-03'],
      ['verkocht de laatste 2 weken', today, '2026-11-20', '2026-12-03'],
      ['verkocht vandaag', today, '2026-12-04'],
      ['verkocht gisteren', today, '2026-12-03'],
      ['verkocht in november', today, '2026-11-01', '2026-11-30'],
      ['verkocht in januari', today, '2026-01-01', '2026-01-31'],
      ['verkocht in februari', today, '2026-02-01', '2026-02-28'],
      ['verkocht in maart', today, '2026-03-01', '2026-03-31'],
      ['verkocht in mrt.', today, '2026-03-01', '2026-03-31'],
      ['verkocht in mei', today, '2026-05-01', '2026-05-31'],
      ['verkocht in augustus', today, '2026-08-01', '2026-08-31'],
      ['verkocht in okt', today, '2026-10-01', '2026-10-31'],
      ['omzet december 2025', today, '2025-12-01', '2025-12-31'],
      ['verkocht vorige november', today, '2025-11-01', '2025-11-30'],
      ['verkocht sinds maart', today, '2026-03-01', '2026-12-04'],
      ['verkocht sinds 3/11', today, '2026-11-03', '2026-12-04'],
      ['verkocht op 3 december', today, '2026-12-03'],
    ]);
    for (const question of ['hoeveel verkocht vorige week?', 'omzet vorige maand', 'verkocht in de afgelopen 30 dagen', 'verkocht in mrt.']) {
      expect(read(question, today).unused, question).toEqual(question.startsWith('omzet') ? ['omzet'] : ['verkocht']);
    }
    const unitOf = (question: string) => readBreakdown(Reading.of(question));
    expect(['verkoop per dag', 'verkoop per week', 'verkoop per maand', 'verkoop per kwartaal', 'verkoop per jaar', 'verkoop maandelijks', 'verkoop wekelijks'].map(unitOf)).toEqual(['day', 'week', 'month', 'quarter', 'year', 'month', 'week']);
    const windows: [question: string, by: string, words: string, unused: string[]][] = [
      ['Welke producten raken op in de komende 30 dagen?', '2027-01-02', 'the next 30 days', ['raken', 'op']],
      ['Wat moet ik volgende week bestellen?', '2026-12-13', 'next week', ['bestellen']],
      ['leveringen volgende maand', '2027-01-31', 'next month', ['leveringen']],
      ['Wat moet ik binnen 2 weken bestellen?', '2026-12-17', 'the next 14 days', ['bestellen']],
    ];
    for (const [question, by, words, unused] of windows) expect(windowOn(question, today), question).toEqual({ by, words, unused });
    expect(readSalesAhead(Reading.of('hoeveel verkopen we volgende week?'), today)).toBe('next week (7–13 Dec 2026)');
  });

  it('reads "meest" and "minst verkocht" as a ranking, and no short Dutch word as a word of product names', () => {
    expect(readRank(Reading.of('wat werd het meest verkocht?'), 5)).toEqual({ direction: 'desc', limit: 5 });
    expect(readRank(Reading.of('bestverkochte producten'), 5)).toEqual({ direction: 'desc', limit: 5 });
    expect(readRank(Reading.of('minst verkocht'), 5)).toEqual({ direction: 'asc', limit: 5 });
    expect(readRank(Reading.of('top 5 vorige maand'), 5)).toEqual({ direction: 'desc', limit: 5 });
    // "Wat" is no product's name word: it grew into "Water" as a German plural (−er) and selected every water product.
    const names = ['Water', 'Sparkling', 'Bottle', 'Topf', 'Töpfe'];
    for (const question of ['wat raakt op?', 'wat is op?', 'Wat zijn de bestsellers?', 'wat verkopen we']) {
      const reading = Reading.of(question);
      expect(readNameWord(reading, names), question).toBeNull();
    }
    expect(readNameWord(Reading.of('hoeveel water verkocht'), names)).toBe('Water');
    expect(readNameWord(Reading.of('Töpfe verkauft'), ['Topf'])).toBe('Topf');
  });
});
