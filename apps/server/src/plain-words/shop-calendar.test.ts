// A shop's words of time that depend on where it is (QA7 F10–F12): seasons of its hemisphere, read on fixed days.
import { describe, expect, it } from 'vitest';
import { describePeriod, rangeOf, readPeriod, spokenPeriod } from './period.ts';
import { Reading } from './reading.ts';
import { hemisphereOf } from './shop-calendar.ts';

const MELBOURNE = 'Australia/Melbourne';

const read = (question: string, today: string, timeZone?: string) => {
  const reading = Reading.of(question, undefined, timeZone);
  const period = readPeriod(reading, today);
  return { period, range: period && rangeOf(period, today), words: period && spokenPeriod(period, today), title: describePeriod(period), unused: reading.unusedWords() };
};

describe('seasons of the shop\'s hemisphere (QA7 F10)', () => {
  it('reads the southern zones as south, and any other, UTC or none as north', () => {
    for (const zone of [MELBOURNE, 'Australia/Perth', 'Pacific/Auckland', 'Pacific/Chatham', 'Pacific/Fiji', 'America/Argentina/Buenos_Aires', 'America/Santiago', 'America/Sao_Paulo', 'Africa/Johannesburg', 'Indian/Mauritius', 'Antarctica/McMurdo']) {
      expect(hemisphereOf(zone), zone).toBe('south');
    }
    for (const zone of ['Europe/London', 'America/New_York', 'Asia/Kolkata', 'America/Bogota', 'UTC', 'Etc/UTC', undefined]) expect(hemisphereOf(zone), zone).toBe('north');
  });

  it('reads "last winter" in Melbourne as June–August, "this summer" as December–February, and titles them so', () => {
    expect(read('sales last winter', '2026-12-05', MELBOURNE)).toMatchObject({ range: { from: '2026-06-01', to: '2026-08-31' }, words: 'in winter 2026 (1 Jun–31 Aug 2026)', title: 'winter 2026', unused: ['sales'] });
    // Under way: to today.
    expect(read('sales this summer', '2026-12-05', MELBOURNE)).toMatchObject({ range: { from: '2026-12-01', to: '2026-12-05' }, title: 'summer 2026–27' });
    // In January, this summer is the one that began in December.
    expect(read('sales this summer', '2027-01-10', MELBOURNE).range).toEqual({ from: '2026-12-01', to: '2027-01-10' });
    expect(read('sales last summer', '2026-12-05', MELBOURNE)).toMatchObject({ range: { from: '2025-12-01', to: '2026-02-28' }, words: 'in summer 2025–26 (1 Dec 2025–28 Feb 2026)' });
    expect(read('sales in autumn 2026', '2026-12-05', MELBOURNE).range).toEqual({ from: '2026-03-01', to: '2026-05-31' });
    expect(read('sales last spring', '2026-12-05', MELBOURNE).range).toEqual({ from: '2026-09-01', to: '2026-11-30' });
    expect(read('sales last spring', '2026-11-20', MELBOURNE).range).toEqual({ from: '2025-09-01', to: '2025-11-30' });
  });

  it('keeps the north\'s seasons for a northern zone, UTC or none', () => {
    for (const zone of ['Europe/London', 'UTC', undefined]) {
      expect(read('sales last winter', '2026-12-05', zone)).toMatchObject({ range: { from: '2025-12-01', to: '2026-02-28' }, title: 'winter 2025–26' });
      expect(read('sales this summer', '2026-12-05', zone).range).toEqual({ from: '2026-06-01', to: '2026-08-31' });
    }
  });
});
