import { describe, expect, it } from 'vitest';
import { isoDayProblem, notACalendarDay } from './calendar.ts';
import { csvLine, toTsv } from './csv.ts';
import { dateOrderOf, dayInPattern, dayPatternOfLanguage, dateOrderOfLanguage } from './date-order.ts';
import { readTypedDay, readTypedFilter, typedFilterKind, typedFilterProblemText, typedMoney, typedNumber } from './typed-values.ts';

describe('number and date filters typed as text', () => {
  it.each([
    ['7', { equals: 7 }],
    ['=7', { equals: 7 }],
    ['= 7', { equals: 7 }],
    ['<10', { lt: 10 }],
    ['< 10', { lt: 10 }],
    ['<=10', { lte: 10 }],
    ['=<10', { lte: 10 }],
    ['≤10', { lte: 10 }],
    ['>5', { gt: 5 }],
    ['>=5', { gte: 5 }],
    ['=>5', { gte: 5 }],
    ['≥5', { gte: 5 }],
    ['10-50', { gte: 10, lte: 50 }],
    ['10 - 50', { gte: 10, lte: 50 }],
    ['10–50', { gte: 10, lte: 50 }],
    ['10..50', { gte: 10, lte: 50 }],
    ['50-10', { gte: 10, lte: 50 }],
    ['..50', { lte: 50 }],
    ['10..', { gte: 10 }],
    ['-5', { equals: -5 }],
    ['<-5', { lt: -5 }],
    ['-10--2', { gte: -10, lte: -2 }],
    ['-10-5', { gte: -10, lte: 5 }],
    ['-10..-2', { gte: -10, lte: -2 }],
    ['  12  ', { equals: 12 }],
  ])('a whole-number column reads %j', (text, filter) => {
    expect(readTypedFilter('wholeNumber', text)).toEqual({ filter });
  });

  it.each([
    ['2.5', { equals: 2.5 }],
    ['2,5', { equals: 2.5 }],
    ['<2,40', { lt: 2.4 }],
    ['1,5-2,5', { gte: 1.5, lte: 2.5 }],
    ['1.5..2.5', { gte: 1.5, lte: 2.5 }],
    ['>=1.234,50', { gte: 1234.5 }],
    ['-0.5--0.25', { gte: -0.5, lte: -0.25 }],
    ['<99999999999999', { lt: 99_999_999_999_999 }],
  ])('a decimal column reads %j', (text, filter) => {
    expect(readTypedFilter('number', text)).toEqual({ filter });
  });

  it.each([
    ['abc', 'wholeNumber'],
    ['<', 'wholeNumber'],
    ['<abc', 'wholeNumber'],
    ['10.5', 'wholeNumber'],
    ['<10.5', 'wholeNumber'],
    ['1-2-3', 'wholeNumber'],
    ['5-', 'wholeNumber'],
    ['<>5', 'wholeNumber'],
    ['!=5', 'wholeNumber'],
    ['>>5', 'wholeNumber'],
    ['1e5', 'wholeNumber'],
    ['99999999999', 'wholeNumber'],
    ['10-x', 'wholeNumber'],
  ])('a whole-number column refuses %j', (text, problem) => {
    expect(readTypedFilter('wholeNumber', text)).toEqual({ problem });
  });

  it.each(['abc', '1.2.3', '..', `9${'9'.repeat(400)}`, 'Infinity', 'NaN'])('a decimal column refuses %j', (text) => {
    expect(readTypedFilter('number', text)).toEqual({ problem: 'number' });
  });

  it.each([
    ['2026-11-01', { equals: '2026-11-01' }],
    ['2026-1-5', { equals: '2026-01-05' }],
    ['=2026-11-01', { equals: '2026-11-01' }],
    ['>=2026-11-01', { gte: '2026-11-01' }],
    ['> 2026-11-01', { gt: '2026-11-01' }],
    ['<2026-11-01', { lt: '2026-11-01' }],
    ['<=2026-11-01', { lte: '2026-11-01' }],
    ['2026-11', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2028-02', { gte: '2028-02-01', lte: '2028-02-29' }],
    ['<2026-11', { lt: '2026-11-01' }],
    ['<=2026-11', { lte: '2026-11-30' }],
    ['>2026-11', { gt: '2026-11-30' }],
    ['>=2026-11', { gte: '2026-11-01' }],
    ['2026-11-01..2026-11-30', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-11-01 .. 2026-11-30', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-11-01-2026-11-30', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-11-01 - 2026-11-30', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-11-30..2026-11-01', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-10..2026-12', { gte: '2026-10-01', lte: '2026-12-31' }],
    ['2026-12-2026-10', { gte: '2026-10-01', lte: '2026-12-31' }],
    ['2026-11-03..', { gte: '2026-11-03' }],
    ['..2026-11-20', { lte: '2026-11-20' }],
    ['30.11.2026', { equals: '2026-11-30' }],
    ['30/11/2026', { equals: '2026-11-30' }],
    ['1.2.2026', { equals: '2026-02-01' }],
    ['29.02.2028', { equals: '2028-02-29' }],
    ['>=01.11.2026', { gte: '2026-11-01' }],
    ['< 30/11/2026', { lt: '2026-11-30' }],
    ['01.11.2026..30.11.2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['1.11.2026 - 30.11.2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['30/11/2026-1/11/2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['01.11.2026..', { gte: '2026-11-01' }],
    ['11.2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2/2026', { gte: '2026-02-01', lte: '2026-02-28' }],
    ['2026-11-01..30.11.2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['03-12-2026', { equals: '2026-12-03' }],
    ['1-11-2026-30-11-2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['>= 1-11-2026', { gte: '2026-11-01' }],
  ])('a date column reads %j', (text, filter) => {
    expect(readTypedFilter('date', text)).toEqual({ filter });
  });

  it.each([
    ['2026-02-30', { problem: 'noSuchDay', day: '2026-02-30', why: 'February 2026 has 28 days' }],
    ['>=2026-02-30', { problem: 'noSuchDay', day: '2026-02-30', why: 'February 2026 has 28 days' }],
    ['2026-02-01..2026-02-30', { problem: 'noSuchDay', day: '2026-02-30', why: 'February 2026 has 28 days' }],
    ['30.02.2026', { problem: 'noSuchDay', day: '30.02.2026', why: 'February 2026 has 28 days' }],
    ['31/11/2026', { problem: 'noSuchDay', day: '31/11/2026', why: 'November 2026 has 30 days' }],
    ['11/30/2026', { problem: 'noSuchDay', day: '11/30/2026', why: 'dates are read as DD/MM/YYYY (30/11/2026), and a year has 12 months' }],
    ['11.30.2026', { problem: 'noSuchDay', day: '11.30.2026', why: 'dates are read as DD.MM.YYYY (30.11.2026), and a year has 12 months' }],
    ['15.13.2026', { problem: 'noSuchDay', day: '15.13.2026', why: 'a year has 12 months' }],
    ['0.11.2026', { problem: 'noSuchDay', day: '0.11.2026', why: 'days start at 1' }],
    ['2026-13', { problem: 'date' }],
    ['13.2026', { problem: 'date' }],
    ['30.11.26', { problem: 'date' }],
    ['30-11', { problem: 'date' }],
    ['30.11/2026', { problem: 'date' }],
    ['<tomorrow', { problem: 'date' }],
    ['>=2026-11-01abc', { problem: 'date' }],
    ['2026', { problem: 'date' }],
    ['..', { problem: 'date' }],
  ])('a date column refuses %j', (text, problem) => {
    expect(readTypedFilter('date', text)).toEqual(problem);
  });

  // QA6 #15, QA7 F13: an en-US buyer types 11/30/2026; 03/04/2026 is 4 March to them.
  it.each([
    ['11/30/2026', { equals: '2026-11-30' }],
    ['03/04/2026', { equals: '2026-03-04' }],
    ['3.4.2026', { equals: '2026-03-04' }],
    ['12-24-2026', { equals: '2026-12-24' }],
    ['>=11/01/2026', { gte: '2026-11-01' }],
    ['11/01/2026..11/30/2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['11/30/2026 - 11/1/2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['11/2026', { gte: '2026-11-01', lte: '2026-11-30' }],
    ['2026-11-30', { equals: '2026-11-30' }],
    ['2026-11-01..11/30/2026', { gte: '2026-11-01', lte: '2026-11-30' }],
  ])('month first, a date column reads %j', (text, filter) => {
    expect(readTypedFilter('date', text, 'month-first')).toEqual({ filter });
  });

  it.each([
    ['13/04/2026', 'dates are read as MM/DD/YYYY (04/13/2026), and a year has 12 months'],
    ['30.11.2026', 'dates are read as MM.DD.YYYY (11.30.2026), and a year has 12 months'],
    ['02/30/2026', 'February 2026 has 28 days'],
  ])('month first, a date column refuses %j and says why', (text, why) => {
    expect(readTypedFilter('date', text, 'month-first')).toEqual({ problem: 'noSuchDay', day: text, why });
    expect(readTypedFilter('date', `>=${text}`, 'month-first')).toEqual({ problem: 'noSuchDay', day: text, why });
  });

  it('reads a typed day in either order, ISO in both', () => {
    expect(readTypedDay('03/04/2026')).toEqual({ day: '2026-04-03' });
    expect(readTypedDay('03/04/2026', 'day-first')).toEqual({ day: '2026-04-03' });
    expect(readTypedDay('03/04/2026', 'month-first')).toEqual({ day: '2026-03-04' });
    expect(readTypedDay('2026-03-04', 'month-first')).toEqual({ day: '2026-03-04' });
    expect(readTypedDay('13/04/2026', 'month-first')).toEqual({ problem: 'noSuchDay', day: '13/04/2026', why: 'dates are read as MM/DD/YYYY (04/13/2026), and a year has 12 months' });
    expect(readTypedDay('04/2026', 'month-first')).toEqual({ problem: 'date' });
  });

  it("decides the order and the pattern from the viewer's language, and writes a day in it", () => {
    const languages = ['en-US', 'en-AU', 'en-GB', 'de-DE', 'de', 'fr-FR', 'nl-NL', 'ja-JP', 'sv-SE', 'en-CA', 'qq-ZZ'];
    expect(languages.map(dateOrderOfLanguage)).toEqual(['month-first', 'day-first', 'day-first', 'day-first', 'day-first', 'day-first', 'day-first', 'month-first', 'month-first', 'month-first', null]);
    expect(languages.map(dayPatternOfLanguage)).toEqual(['MM/DD/YYYY', 'DD/MM/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'DD.MM.YYYY', 'DD/MM/YYYY', 'DD-MM-YYYY', 'YYYY-MM-DD', 'YYYY-MM-DD', 'YYYY-MM-DD', 'DD.MM.YYYY']);
    expect(['MM/DD/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'YYYY-MM-DD'].map((pattern) => dayInPattern('2026-12-04', pattern as never))).toEqual(['12/04/2026', '04.12.2026', '04-12-2026', '2026-12-04']);
    expect(dateOrderOf('en-US,en;q=0.9')).toBe('month-first');
    expect(dateOrderOf(undefined)).toBe('day-first');
  });

  it('reads ids and whole numbers alike, decimals and dates by their own rules, other columns as text', () => {
    expect(['AutoField', 'IntegerField', 'DecimalField', 'DateField', 'CharField', 'ForeignKey', 'DateTimeField', 'BooleanField'].map((type) => typedFilterKind(type as never))).toEqual([
      'wholeNumber',
      'wholeNumber',
      'number',
      'date',
      null,
      null,
      null,
      null,
    ]);
  });

  it('says what to type, and names a day that does not exist', () => {
    expect(typedFilterProblemText({ problem: 'number' })).toBe('Type a number, or <, <=, >, >= and one, or a range like 10-50.');
    expect(typedFilterProblemText({ problem: 'noSuchDay', day: '2026-02-30', why: 'February 2026 has 28 days' })).toBe('2026-02-30 is not a real date: February 2026 has 28 days.');
    expect(typedFilterProblemText({ problem: 'date' })).toContain('as DD.MM.YYYY, DD/MM/YYYY or YYYY-MM-DD');
    expect(typedFilterProblemText({ problem: 'date' }, 'month-first')).toBe(
      'Type a date as MM/DD/YYYY or YYYY-MM-DD, or a month as MM/YYYY or YYYY-MM, or <, <=, >, >= and one, or a range like 11/01/2026..11/30/2026.',
    );
  });
});

describe('numbers as a shop types them (ADR 0145)', () => {
  it('reads decimal commas and group separators, and gives anything else back as typed', () => {
    expect(['2,40', '2.40', ' 2,4 ', '1.234,50', '1,234.50', '1 234,5', '-3', '12'].map(typedNumber)).toEqual(['2.40', '2.40', '2.4', '1234.50', '1234.50', '1234.5', '-3', '12']);
    expect(['2,4,0', 'abc', '1.2.3'].map(typedNumber)).toEqual(['2,4,0', 'abc', '1.2.3']);
    // A pasted US price (QA6 #18): its sign taken off, its thousands commas read.
    expect(['$24.99', '-$5.00', '$1,119.63', '24,99 €', 'USD 1,299.00', '£ 3', '12'].map(typedMoney)).toEqual(['24.99', '-5.00', '1119.63', '24.99', '1299.00', '3', '12']);
    expect(['$', '$abc', '5 $ 5'].map(typedMoney)).toEqual(['$', '$abc', '5$5']);
  });
});

describe('days of the calendar', () => {
  it.each([
    ['2026-02-28', null],
    ['2028-02-29', null],
    ['2026-02-29', '2026-02-29 is not a real date: February 2026 has 28 days.'],
    ['2026-04-31', '2026-04-31 is not a real date: April 2026 has 30 days.'],
    ['2026-13-01', '2026-13-01 is not a real date: a year has 12 months.'],
    ['2026-00-10', '2026-00-10 is not a real date: a year has 12 months.'],
    ['2026-01-00', '2026-01-00 is not a real date: days start at 1.'],
    ['2100-02-29', '2100-02-29 is not a real date: February 2100 has 28 days.'],
    ['2026-1-1', 'Expected a date as YYYY-MM-DD.'],
    ['1.2.2026', 'Expected a date as YYYY-MM-DD.'],
  ])('%s', (text, problem) => {
    expect(isoDayProblem(text)).toBe(problem);
  });

  it('words a split date the same way', () => {
    expect(notACalendarDay('31.02.2026', 2026, 2, 31)).toBe('31.02.2026 is not a real date: February 2026 has 28 days.');
  });
});

describe('delimited text', () => {
  it('writes booleans as words and tab-separated fields quoted only when they hold a tab, quote or line break', () => {
    expect(csvLine([true, false, 1.5, null, 'a,b'])).toBe('true,false,1.5,,"a,b"\r\n');
    expect(toTsv([['ID', 'Name'], [3, 'Hose, garden'], [4, 'Tab\there'], [5, '=1+1'], [-6, '5" pipe']])).toBe('ID\tName\r\n3\tHose, garden\r\n4\t"Tab\there"\r\n5\t"\'=1+1"\r\n-6\t"5"" pipe"\r\n');
  });
});
