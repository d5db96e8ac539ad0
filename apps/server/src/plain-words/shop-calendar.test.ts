// A shop's words of time that depend on where it is (QA7 F10–F12): seasons of its hemisphere, read on fixed days.
import { describe, expect, it } from 'vitest';
import { describePeriod, rangeOf, readPeriod, readWindow, spokenPeriod } from './period.ts';
import { Reading } from './reading.ts';
import { financialYearRuleOf, hemisphereOf, shopCalendarWords } from './shop-calendar.ts';
import { looksLikeProductCode } from './reading.ts';

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

describe('the financial year of the shop\'s country (QA7 F11)', () => {
  it('keeps each country\'s year by the time zone: Australia July, New Zealand, the UK and India April, South Africa March, any other the calendar year', () => {
    const cases: [string | undefined, string][] = [
      [MELBOURNE, 'australia'],
      ['Australia/Perth', 'australia'],
      ['Pacific/Auckland', 'new_zealand'],
      ['Pacific/Chatham', 'new_zealand'],
      ['Europe/London', 'united_kingdom'],
      ['Asia/Kolkata', 'india'],
      ['Asia/Calcutta', 'india'],
      ['Africa/Johannesburg', 'south_africa'],
      ['America/New_York', 'calendar'],
      ['America/Toronto', 'calendar'],
      ['UTC', 'calendar'],
      [undefined, 'calendar'],
    ];
    for (const [zone, rule] of cases) expect(financialYearRuleOf(zone), zone).toBe(rule);
  });

  it('reads "last financial year", "FY2025-26", "FY26", "this financial year", "financial year to date" in Melbourne as July–June years, said with their dates', () => {
    const lastYear = { range: { from: '2025-07-01', to: '2026-06-30' }, words: 'in the financial year 2025–26 (1 Jul 2025–30 Jun 2026)', title: 'financial year 2025–26' };
    for (const question of ['sales by category for the last financial year', 'sales in FY2025-26', 'sales FY26', 'sales in fy 2026', 'sales in the previous fiscal year', 'sales in financial year 2025–26', 'sales last FY']) {
      expect(read(question, '2026-12-05', MELBOURNE), question).toMatchObject({ ...lastYear, unused: ['sales'].concat(question.includes('category') ? ['category'] : []) });
    }
    for (const question of ['sales this financial year', 'sales financial year to date', 'sales FYTD', 'sales for the financial year']) {
      expect(read(question, '2026-12-05', MELBOURNE), question).toMatchObject({ range: { from: '2026-07-01', to: '2026-12-05' }, words: 'in the financial year 2026–27 (1 Jul–5 Dec 2026)' });
    }
    // Before July, the year under way began last July.
    expect(read('sales last financial year', '2026-06-30', MELBOURNE).range).toEqual({ from: '2024-07-01', to: '2025-06-30' });
    expect(read('sales this financial year', '2026-07-01', MELBOURNE).range).toEqual({ from: '2026-07-01', to: '2026-07-01' });
  });

  it('reads other countries\' years and says the choices: the UK\'s 1 April (not 6 April), the calendar year where none other is known', () => {
    expect(read('sales last financial year', '2026-12-05', 'Europe/London')).toMatchObject({
      range: { from: '2025-04-01', to: '2026-03-31' },
      words: "in the financial year 2025–26 (1 Apr 2025–31 Mar 2026; a company's year from 1 April, not the personal tax year from 6 April)",
    });
    expect(read('sales last financial year', '2026-12-05', 'Pacific/Auckland').range).toEqual({ from: '2025-04-01', to: '2026-03-31' });
    expect(read('sales in FY26', '2026-12-05', 'Asia/Kolkata').range).toEqual({ from: '2025-04-01', to: '2026-03-31' });
    expect(read('sales last financial year', '2026-12-05', 'Africa/Johannesburg').range).toEqual({ from: '2025-03-01', to: '2026-02-28' });
    for (const zone of ['America/New_York', undefined]) {
      expect(read('sales last financial year', '2026-12-05', zone)).toMatchObject({ range: { from: '2025-01-01', to: '2025-12-31' }, words: 'in the financial year read as the calendar year 2025 (1 Jan–31 Dec 2025)', title: 'financial year 2025 (the calendar year)' });
    }
  });

  it('reads its titles back as the same year, and no financial year as a product code', () => {
    expect(read('Sales by category, financial year 2025–26', '2027-03-01', MELBOURNE).range).toEqual({ from: '2025-07-01', to: '2026-06-30' });
    expect(read('Sales by category, financial year 2025 (the calendar year)', '2027-03-01').range).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    for (const word of ['FY26', 'FY2025-26', 'fy2026']) expect(looksLikeProductCode(word), word).toBe(false);
    expect(looksLikeProductCode('FYX-26')).toBe(true);
  });
});

describe('Australian and New Zealand days (QA7 F12)', () => {
  it('reads Anzac Day, Australia Day and Waitangi Day as their day for any viewer: the latest that has come, a year said, "last" before today', () => {
    for (const zone of [MELBOURNE, 'Europe/London', undefined]) {
      expect(read('what sold on Anzac Day?', '2026-12-05', zone), zone).toMatchObject({ range: { from: '2026-04-25', to: '2026-04-25' }, words: 'on Anzac Day 2026 (25 Apr 2026)', unused: ['sold'] });
    }
    expect(read('sales on Australia Day', '2026-12-05', MELBOURNE)).toMatchObject({ range: { from: '2026-01-26', to: '2026-01-26' }, words: 'on Australia Day 2026 (26 Jan 2026)' });
    expect(read('sales on Australia Day', '2026-01-20', MELBOURNE).range).toEqual({ from: '2025-01-26', to: '2025-01-26' });
    expect(read('sales on Australia Day 2025', '2026-12-05').range).toEqual({ from: '2025-01-26', to: '2025-01-26' });
    expect(read('sales last Anzac Day', '2026-04-25').range).toEqual({ from: '2025-04-25', to: '2025-04-25' });
    expect(read('sales on Waitangi Day', '2026-12-05', 'Pacific/Auckland')).toMatchObject({ range: { from: '2026-02-06', to: '2026-02-06' }, words: 'on Waitangi Day 2026 (6 Feb 2026)' });
  });

  it('reads "before Boxing Day" as a deadline, as "before Christmas": up to Christmas Day', () => {
    const reading = Reading.of('what should I reorder before Boxing Day?', undefined, MELBOURNE);
    expect(readWindow(reading, '2026-12-05')).toMatchObject({ by: '2026-12-25', words: 'before Boxing Day' });
    expect(reading.unusedWords()).toEqual(['reorder']);
    expect(readWindow(Reading.of('what runs out by Boxing Day'), '2026-12-27')).toMatchObject({ by: '2027-12-26' });
  });
});

describe("a report-writing model is told the shop's calendar", () => {
  it('says the southern seasons and the financial year where they are not the north\'s calendar year; nothing else', () => {
    expect(shopCalendarWords(MELBOURNE)).toBe(
      "The shop's time zone is Australia/Melbourne: it is in the southern hemisphere (summer is December–February, autumn March–May, winter June–August, spring September–November); its financial year starts on 1 July and is named by the year it ends in (FY2025-26, FY26).",
    );
    expect(shopCalendarWords('America/Sao_Paulo')).toContain('southern hemisphere');
    expect(shopCalendarWords('America/Sao_Paulo')).not.toContain('financial year');
    expect(shopCalendarWords('Europe/London')).toContain('starts on 1 April');
    for (const zone of ['America/New_York', 'UTC', undefined]) expect(shopCalendarWords(zone), zone).toBeNull();
  });
});
