// The everyday questions' words (ADR 0189) on fixed days: the period before a named one, one day to
// come, out of stock now or later, slow movers, averages — and the words they must not take.
import { describe, expect, it } from 'vitest';
import { dueWindowOf, dueWords, periodBefore, rangeOf, readComparison, readWindow, type Period } from './period.ts';
import { ARRIVALS, asksOutOfStockNow, readAverage, readSlowMoversCount, SLOW_MOVERS } from './inventory-words.ts';
import { Reading } from './reading.ts';

/** Sunday 6 December 2026. */
const SUNDAY = '2026-12-06';
/** Wednesday 9 December 2026. */
const WEDNESDAY = '2026-12-09';

const compared = (question: string, today = SUNDAY) => {
  const reading = Reading.of(question);
  const comparison = readComparison(reading, today);
  return { earlier: comparison && rangeOf(comparison.earlier, today), later: comparison && rangeOf(comparison.later, today), unused: reading.unusedWords() };
};

describe('the period before a named one', () => {
  it('reads "the week before", "the month before", "the previous month", "the one before" after a period, its days and its name', () => {
    expect(compared('sales last week vs the week before')).toEqual({ earlier: { from: '2026-11-16', to: '2026-11-22' }, later: { from: '2026-11-23', to: '2026-11-29' }, unused: ['sales'] });
    expect(compared('how did sales this month compare to the month before')).toEqual({ earlier: { from: '2026-11-01', to: '2026-11-30' }, later: { from: '2026-12-01', to: '2026-12-06' }, unused: ['sales'] });
    // "The previous month" after last month is the one before it, not last month again.
    expect(compared('sales last month vs the previous month')).toMatchObject({ earlier: { from: '2026-10-01', to: '2026-10-31' }, later: { from: '2026-11-01', to: '2026-11-30' } });
    expect(compared('did we sell more last month than the month before?')).toEqual({ earlier: { from: '2026-10-01', to: '2026-10-31' }, later: { from: '2026-11-01', to: '2026-11-30' }, unused: ['sell'] });
    expect(compared('sales last year vs the year before')).toMatchObject({ earlier: { from: '2024-01-01', to: '2024-12-31' } });
    expect(compared('sales in Q3 vs the prior quarter')).toMatchObject({ earlier: { from: '2026-04-01', to: '2026-06-30' }, later: { from: '2026-07-01', to: '2026-09-30' } });
    expect(compared('sales in the last 30 days vs the period before')).toMatchObject({ earlier: { from: '2026-10-07', to: '2026-11-05' }, later: { from: '2026-11-06', to: '2026-12-05' } });
    expect(compared('sales yesterday vs the day before')).toMatchObject({ earlier: { from: '2026-12-04', to: '2026-12-04' } });
    expect(compared('sales last weekend vs the one before')).toMatchObject({ earlier: { from: '2026-11-21', to: '2026-11-22' }, later: { from: '2026-11-28', to: '2026-11-29' } });
    expect(compared('sales at Christmas 2025 vs the one before')).toMatchObject({ earlier: { from: '2024-12-01', to: '2024-12-24' } });
    // A week named by its days: the week before it, and the words said.
    expect(compared('sales in the week of 23/11/2026 compared with the week before')).toMatchObject({ earlier: { from: '2026-11-16', to: '2026-11-22' } });
  });

  it('names the period before as a buyer reads it', () => {
    const named = (period: Period, unit: 'week' | 'month' | null, today = SUNDAY) => periodBefore(period, unit, today);
    expect(named({ kind: 'this', unit: 'week' }, null)).toEqual({ kind: 'previous', unit: 'week' });
    expect(named({ kind: 'previous', unit: 'month' }, 'month')).toEqual({ kind: 'month_of_year', year: 2026, month: 10 });
    expect(named({ kind: 'month_of_year', year: 2026, month: 1 }, null)).toEqual({ kind: 'month_of_year', year: 2025, month: 12 });
    expect(named({ kind: 'today' }, null)).toEqual({ kind: 'yesterday' });
    // A season: the three months before it.
    expect(named({ kind: 'season', season: 'summer', year: 2026 }, null)).toEqual({ kind: 'between', from: '2026-03-01', to: '2026-05-31' });
    expect(named({ kind: 'all_time' }, null)).toBeNull();
  });

  it('leaves other questions with "than" or "before" alone', () => {
    expect(compared('products with more than 6 months of stock').earlier).toBeNull();
    expect(compared('what must I order before Christmas').earlier).toBeNull();
    // Both sides named: read as before.
    expect(compared('sales this month vs last month')).toMatchObject({ earlier: { from: '2026-11-01', to: '2026-11-30' } });
  });
});

describe('one day to come', () => {
  const window = (question: string, today = SUNDAY) => {
    const reading = Reading.of(question);
    const read = readWindow(reading, today);
    return { words: read && dueWords(dueWindowOf(read, today)), unused: reading.unusedWords() };
  };

  it('reads tomorrow, the day after, a weekday after on / this / coming / next, in English, German and Dutch', () => {
    expect(window('what arrives tomorrow')).toEqual({ words: 'tomorrow (7 Dec 2026)', unused: ['arrives'] });
    expect(window('deliveries the day after tomorrow').words).toBe('the day after tomorrow (8 Dec 2026)');
    expect(window('deliveries on Friday').words).toBe('on Friday (11 Dec 2026)');
    expect(window('deliveries this Friday', WEDNESDAY).words).toBe('this Friday (11 Dec 2026)');
    // "Next Friday" is next week's; "on Friday" the coming one.
    expect(window('deliveries next Friday', WEDNESDAY).words).toBe('next Friday (18 Dec 2026)');
    expect(window('deliveries on Friday', WEDNESDAY).words).toBe('on Friday (11 Dec 2026)');
    expect(window('deliveries for Monday').words).toBe('on Monday (7 Dec 2026)');
    // Today's weekday is today.
    expect(window('deliveries on Sunday').words).toBe('by 6 Dec 2026 (today)');
    expect(window('was kommt morgen an').words).toBe('tomorrow (7 Dec 2026)');
    expect(window('wat komt er overmorgen binnen').words).toBe('the day after tomorrow (8 Dec 2026)');
  });

  it('reads no day in Black Friday, Easter Monday, a weekday alone or a German morning', () => {
    expect(window('deliveries on Black Friday').words).toBeNull();
    expect(window('deliveries Easter Monday').words).toBeNull();
    expect(window('Friday deliveries').words).toBeNull();
    expect(window('was kam heute morgen an').words).not.toBe('tomorrow (7 Dec 2026)');
    // A deadline is read as before: up to the day.
    expect(window('what runs out by Friday').words).toBe('by 11 Dec 2026 (by Friday)');
  });
});

describe('the everyday questions’ words', () => {
  it('asks what is out of stock now, and not what runs out later, a product named "Out…" or stock counts', () => {
    for (const now of ['which products are out of stock', 'what is out of stock and when will it be back', 'welche produkte sind ausverkauft und wann kommen sie wieder', 'out-of-stock items', 'sold out', 'what has no stock', 'products with zero stock', 'what is not in stock', 'welche produkte sind ausverkauft', 'was ist nicht mehr auf lager', 'welke producten zijn uitverkocht', 'wat is niet op voorraad']) {
      expect(asksOutOfStockNow(Reading.of(now).text), now).toBe(true);
    }
    for (const later of ['which products will be out of stock next week', 'when will we run out of stock', 'when does the blue mug go out of stock', 'wann ist die blumenerde ausverkauft', 'wanneer is de koffie uitverkocht', 'stock of outdoor chair', 'which products have no stock count', 'stock-outs this month']) {
      expect(asksOutOfStockNow(Reading.of(later).text), later).toBe(false);
    }
  });

  it('reads slow movers and how many to list', () => {
    for (const words of ['slow movers', 'slow moving items', 'slow-moving stock', 'slow sellers', 'slowest selling products', 'langsamdreher', 'winkeldochters']) expect(SLOW_MOVERS.test(words), words).toBe(true);
    for (const words of ['what sells worst', 'dead stock', 'slow delivery']) expect(SLOW_MOVERS.test(words), words).toBe(false);
    expect(readSlowMoversCount(Reading.of('top 20 slow movers'))).toBe(20);
    expect(readSlowMoversCount(Reading.of('the slowest 5'))).toBe(5);
    expect(readSlowMoversCount(Reading.of('slow movers last month'))).toBeNull();
  });

  it('reads an average a day or a week, never a breakdown word alone', () => {
    const average = (words: string) => {
      const reading = Reading.of(words);
      return { per: readAverage(reading), unused: reading.unusedWords() };
    };
    // "Sales" and the products are other readings' words.
    expect(average('average daily sales of radiators')).toEqual({ per: 'day', unused: ['sales', 'radiators'] });
    expect(average('daily average')).toEqual({ per: 'day', unused: [] });
    expect(average('average sales per week')).toEqual({ per: 'week', unused: [] });
    expect(average('weekly average')).toEqual({ per: 'week', unused: [] });
    expect(average('how many do we sell a day on average').per).toBe('day');
    expect(average('durchschnittlich pro Tag').per).toBe('day');
    expect(average('gemiddeld per week').per).toBe('week');
    expect(average('daily sales last week').per).toBeNull();
    expect(average('sales per week').per).toBeNull();
  });

  it('reads what arrives', () => {
    for (const words of ['what arrives tomorrow', "what's arriving", 'arrivals on friday']) expect(ARRIVALS.test(words), words).toBe(true);
  });
});
