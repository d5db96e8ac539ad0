// The viewer's date order and pattern: their own choice first, the browser's language for `browser`
// (ADR 0167, amendment "a person's own date order").
import { afterEach, describe, expect, it } from 'vitest';
import { useAccountStore } from '../stores/account.ts';
import { useBrowserLanguages } from '../test/jsdom.ts';
import { browserDates, viewerDates } from './viewer-dates.ts';

afterEach(() => useAccountStore.setState({ dateOrder: 'browser' }));

describe('viewerDates with a person’s own choice', () => {
  it('follows the browser’s language for `browser`', () => {
    expect(viewerDates('browser', ['en-US', 'en'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
    expect(viewerDates('browser', ['de-DE'])).toEqual({ order: 'day-first', pattern: 'DD.MM.YYYY' });
    expect(browserDates(['qq-ZZ', 'en-US'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY', language: 'en-US' });
    expect(browserDates(['qq-ZZ'])).toEqual({ order: 'day-first', pattern: 'DD.MM.YYYY', language: null });
  });

  it('takes the chosen order over the language, keeping a separator the language writes that order with, else slashes', () => {
    // A British shop on a US laptop.
    expect(viewerDates('day-first', ['en-US', 'en'])).toEqual({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    expect(viewerDates('day-first', ['de-DE'])).toEqual({ order: 'day-first', pattern: 'DD.MM.YYYY' });
    expect(viewerDates('day-first', ['nl-NL'])).toEqual({ order: 'day-first', pattern: 'DD-MM-YYYY' });
    expect(viewerDates('month-first', ['en-US'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
    expect(viewerDates('month-first', ['de-DE'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
    // ja writes the year first (ISO pattern): a chosen order gets slashes.
    expect(viewerDates('month-first', ['ja-JP'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
    expect(viewerDates('day-first', ['ja-JP'])).toEqual({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    expect(viewerDates('day-first', ['en-US'])).toBe(viewerDates('day-first', ['en-US']));
  });

  it('reads the signed-in person’s choice from the account when not told one', () => {
    const restore = useBrowserLanguages(['en-US', 'en']);
    try {
      expect(viewerDates()).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
      useAccountStore.setState({ dateOrder: 'day-first' });
      expect(viewerDates()).toEqual({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    } finally {
      restore();
    }
  });
});
