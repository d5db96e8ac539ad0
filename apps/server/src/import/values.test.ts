import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asStoredDecimal, DateOrderDetector, DECIMAL_SEPARATOR_CHOICE, decimalPlacesWritten, detectDecimalSeparator, fromDecimalComma, isoDateProblem, isoDateTime, isoDay, numberWritingHint, pointGroupsProblem, readDate, readExcelSerial, splitDate } from './values.ts';

describe('dates as files write them', () => {
  it.each([
    ['2011-12-01', 'iso', '2011-12-01'],
    ['2011-12-01T08:26:00Z', 'iso', '2011-12-01'],
    ['2011-12-01 08:26', 'iso', '2011-12-01'],
    // A web shop's export: the shop's own day, its zone after a space.
    ['2026-11-29 23:45:10 -0500', 'iso', '2026-11-29'],
    ['2026-11-29 23:45:10 UTC', 'iso', '2026-11-29'],
    ['1/12/2011', 'dd/mm/yyyy', '2011-12-01'],
    ['01-12-2011 8:26', 'dd/mm/yyyy', '2011-12-01'],
    ['12/1/2011 8:26 PM', 'mm/dd/yyyy', '2011-12-01'],
    ['01.12.2011', 'dd.mm.yyyy', '2011-12-01'],
  ] as const)('reads %s as %s', (text, format, day) => {
    const read = readDate(text, format);
    expect(read && isoDay(read)).toBe(day);
  });

  it.each([
    ['2011-02-30', 'iso'],
    ['31/04/2011', 'dd/mm/yyyy'],
    ['01.12.2011', 'dd/mm/yyyy'],
    ['1/12/2011', 'dd.mm.yyyy'],
    ['13/13/2011', 'mm/dd/yyyy'],
    ['1/12/2011 25:00', 'dd/mm/yyyy'],
  ] as const)('refuses %s as %s', (text, format) => {
    expect(readDate(text, format)).toBeNull();
  });

  it('keeps the time for timestamps, read as UTC without a zone', () => {
    expect(isoDateTime(readDate('12/1/2011 8:26 PM', 'mm/dd/yyyy') as never)).toBe('2011-12-01T20:26:00Z');
    expect(isoDateTime(readDate('2011-12-01T08:26:00+01:00', 'iso') as never)).toBe('2011-12-01T08:26:00+01:00');
    expect(isoDateTime(readDate('2026-11-29 23:45:10 -0500', 'iso') as never)).toBe('2026-11-29T23:45:10-05:00');
    expect(isoDateTime(readDate('2026-11-29 23:45:10 UTC', 'iso') as never)).toBe('2026-11-29T23:45:10Z');
  });

  it('reads Excel serial days (1900 system, its phantom 29 February refused)', () => {
    expect(isoDay(readExcelSerial(45292) as never)).toBe('2024-01-01');
    expect(isoDay(readExcelSerial(1) as never)).toBe('1900-01-01');
    expect(isoDay(readExcelSerial(61) as never)).toBe('1900-03-01');
    expect(readExcelSerial(60)).toBeNull();
    expect(isoDateTime(readExcelSerial(45292.5) as never)).toBe('2024-01-01T12:00:00Z');
  });
});

describe('splitDate', () => {
  // What splitDate answered before its usual shapes were read by hand: the regular expression alone.
  const byExpression = (text: string) => {
    const match = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[T ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?$/.exec(text);
    if (!match) return null;
    let hours = Number(match[5]);
    if (match[8]) {
      if (hours < 1 || hours > 12) return null;
      hours = (hours % 12) + (match[8].toLowerCase() === 'pm' ? 12 : 0);
    }
    if (match[5] !== undefined && (hours > 23 || Number(match[6]) > 59 || Number(match[7] ?? 0) > 59)) return null;
    const time = match[5] === undefined ? null : `${String(hours).padStart(2, '0')}:${match[6]}:${String(match[7] ?? 0).padStart(2, '0')}`;
    const yearDigits = match[4] as string;
    // Two-digit years as Excel reads them: 00–69 → 20YY, 70–99 → 19YY.
    const year = yearDigits.length === 2 ? (Number(yearDigits) < 70 ? 2000 : 1900) + Number(yearDigits) : Number(yearDigits);
    return { first: Number(match[1]), second: Number(match[3]), year, separator: match[2], time };
  };

  it('reads every text as the regular expression does', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const piece = fc.oneof(digits(0, 5), fc.constantFrom('/', '.', '-', ' ', ':', 'T', ',', 'AM', 'pm', '  ', 'x'));
    const shaped = fc
      .tuple(digits(0, 3), fc.constantFrom('/', '.', '-'), digits(0, 3), fc.constantFrom('/', '.', '-'), digits(1, 5), fc.constantFrom('', ' ', 'T', ', ', '  '), digits(0, 3), fc.constantFrom('', ':'), digits(0, 3), fc.constantFrom('', ':'), digits(0, 3), fc.constantFrom('', ' PM', 'am', 'x'))
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(shaped, fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''))), (text) => {
        expect(splitDate(text)).toEqual(byExpression(text));
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['1/2/2024', '31.12.2024 23:59:59', '01-02-2024 8:26', '1/2/2024 24:00', '1/2/2024 8:60', '1/2/2024 8:26:60', '1/2/2024  8:26', '1/2/2024T8:26', '12/1/2011 8:26 PM', '111/2/2024', '1/2/20245', '0/0/00', '31.12.69', '1.1.70 8:26', '1/2/024']) {
      expect(splitDate(text), text).toEqual(byExpression(text));
    }
  });
});

describe('DateOrderDetector', () => {
  it('reads undecided dates day-first and says which rows to swap once month-first is proven', () => {
    const detector = new DateOrderDetector();
    expect(isoDay(detector.read('02/03/2024', 1) as never)).toBe('2024-03-02');
    expect(detector.ambiguity?.row).toBe(1);
    expect(isoDay(detector.read('02/25/2024', 7) as never)).toBe('2024-02-25');
    expect(detector).toMatchObject({ order: 'mm/dd/yyyy', needsSwap: true, ambiguity: null, candidates: ['mm/dd/yyyy'] });
    expect(detector.read('25/02/2024', 9)).toContain('written dd/mm/yyyy but earlier dates of the file are mm/dd/yyyy (row 7)');
  });

  it('needs no swap when day-first is proven', () => {
    const detector = new DateOrderDetector();
    detector.read('02/03/2024', 1);
    detector.read('13/03/2024', 2);
    expect(detector).toMatchObject({ order: 'dd/mm/yyyy', needsSwap: false, ambiguity: null });
  });

  it('calls a file ambiguous while every day is 12 or less', () => {
    const detector = new DateOrderDetector();
    for (const [row, text] of ['01/02/2024', '2024-01-05', '12/12/2024'].entries()) detector.read(text, row + 1);
    expect(detector.ambiguity).toMatchObject({ row: 1, message: expect.stringContaining('dates like 01/02/2024 could be day-first') });
    expect(detector.candidates).toEqual(['iso', 'dd/mm/yyyy', 'mm/dd/yyyy']);
  });

  it('reads a two-digit year as Excel does: 00–69 are 20YY, 70–99 are 19YY', () => {
    expect(splitDate('2.12.26')).toEqual({ first: 2, second: 12, year: 2026, separator: '.', time: null });
    expect(splitDate('31/12/99 08:15')).toMatchObject({ year: 1999, time: '08:15:00' });
    expect(splitDate('1/2/69 8:26 PM')).toMatchObject({ year: 2069, time: '20:26:00' });
    expect(splitDate('2.12.262')).toBeNull();
    expect(readDate('2.12.26', 'dd.mm.yyyy')).toEqual({ year: 2026, month: 12, day: 2, time: null });
    expect(readDate('12/24/26', 'mm/dd/yyyy')).toEqual({ year: 2026, month: 12, day: 24, time: null });
    const detector = new DateOrderDetector();
    expect(detector.read('2.12.26', 1)).toEqual({ year: 2026, month: 12, day: 2, time: null });
    expect(detector.read('29.02.25', 2)).toBe('29.02.25 is not a real date: February 2025 has 28 days.');
    const slashed = new DateOrderDetector();
    expect(slashed.read('24/12/26', 1)).toEqual({ year: 2026, month: 12, day: 24, time: null });
    expect(slashed.order).toBe('dd/mm/yyyy');
    expect(slashed.read('12/24/26', 2)).toMatch(/is written mm\/dd\/yyyy but earlier dates of the file are dd\/mm\/yyyy \(row 1\)/);
  });

  it('names a day that does not exist as the row validator does, and says which part is wrong', () => {
    const detector = new DateOrderDetector();
    expect(detector.read('2026-02-30', 1)).toBe('2026-02-30 is not a real date: February 2026 has 28 days.');
    expect(detector.read('31.04.2026', 2)).toBe('31.04.2026 is not a real date: April 2026 has 30 days.');
    expect(detector.read('2026-01-05 25:00', 3)).toBe('2026-01-05 25:00 is not a real time of day.');
    expect(detector.read('31/31/2026', 4)).toBe('31/31/2026 is not a real date.');
    expect(isoDateProblem('13/01/2026')).toBeNull();
  });
});

describe('decimal commas', () => {
  it.each([
    ['12,5', '12.5'],
    ['1.234,50', '1234.50'],
    ['-3', '-3'],
    ['1 234,5', '1234.5'],
    ['12.5', '12.5'],
    ['abc', 'abc'],
    ['1,2,3', '1,2,3'],
  ])('reads %s as %s', (text, number) => {
    expect(fromDecimalComma(text)).toBe(number);
  });

  it('says why a refused figure was refused when its writing tells', () => {
    expect(numberWritingHint('3,20', false)).toBe("Expected a number, not 3,20: it is written with a decimal comma: set Decimal separator to Comma on the import screen (the mapping's decimal_separator).");
    expect(numberWritingHint('1.234,5', false)).toContain('decimal comma');
    // A decimal point with thousands could be either too: only a comma says which.
    expect(numberWritingHint('1.234', false)).toBeNull();
    expect(numberWritingHint('1,234.50', false)).toBe('Expected a number, not 1,234.50: it has commas between thousands: save the column without thousands separators.');
    expect(numberWritingHint('1,234.50', true)).toContain('commas between thousands');
    // Either: both are said.
    expect(numberWritingHint('1,234', false)).toMatch(/decimal comma.*; or it has commas between thousands/);
    for (const [raw, comma] of [['abc', false], ['3,20', true], ['12.5.1', false], [7, false]] as const) expect(numberWritingHint(raw, comma)).toBeNull();
  });

  it("names the Import screen's Decimal separator and its options in the words the select shows", async () => {
    type Builder = { decimalSeparator: string; decimalSeparators: { point: string; comma: string } };
    const locale = JSON.parse(await readFile(new URL('../../../web/public/locales/en/common.json', import.meta.url), 'utf8')) as { import: { builder: Builder } };
    const builder = locale.import.builder;
    expect([builder.decimalSeparator, builder.decimalSeparators.point, builder.decimalSeparators.comma]).toEqual([DECIMAL_SEPARATOR_CHOICE.label, `${DECIMAL_SEPARATOR_CHOICE.point} (1.25)`, `${DECIMAL_SEPARATOR_CHOICE.comma} (1,25)`]);
    expect(pointGroupsProblem('2.450')).toContain(`set ${builder.decimalSeparator} to ${DECIMAL_SEPARATOR_CHOICE.point} on the import screen`);
  });

  it('tells a currency sign in a whole-number column as the money columns read one (currency.ts), a refund before its sign too', () => {
    for (const raw of ['£3', '3 £', 'EUR 3', '-£3', '- € 2', '+$4']) {
      expect(numberWritingHint(raw, false, true)).toBe(`Expected a whole number, not ${raw}: it has a currency sign: save the column as plain numbers, without the sign.`);
    }
    for (const raw of ['£', 'GBP', '3£x']) expect(numberWritingHint(raw, false, true)).toBeNull();
  });

  it('tells a fraction in a whole-number column apart from a separator to set', () => {
    for (const [raw, comma] of [['2,5', false], ['2,5', true], ['2.5', false]] as const) {
      expect(numberWritingHint(raw, comma, true)).toBe(`Expected a whole number, not ${raw}: this column counts whole units.`);
    }
    expect(numberWritingHint('1,234', false, true)).toBe('Expected a whole number, not 1,234: it has commas between thousands: save the column without thousands separators.');
    expect(numberWritingHint('2.450', false, true)).toBe(
      "Expected a whole number, not 2.450: this column counts whole units; or, if it means 2450, the file groups thousands with points: set Decimal separator to Comma on the import screen (the mapping's decimal_separator).",
    );
    expect(numberWritingHint('-1.000.000', false, true)).toContain('if it means -1000000,');
    // Read with a decimal comma, 2.450 is 2450 already; 1234.500 groups no thousands.
    expect(numberWritingHint('2.450', true, true)).toBeNull();
    expect(numberWritingHint('1234.500', false, true)).toBe('Expected a whole number, not 1234.500: this column counts whole units.');
  });

  it.each([
    [['1,25', '12,90', ''], ','],
    [['1.234,50', '7'], ','],
    [['1.25', '12'], '.'],
    [['1,234.50'], '.'],
    // Either way round, or nothing to tell: the user decides.
    [['1,234', '1.234', '12', '', null], null],
    [[1.25, 3], null],
    [['1,25', '1.25'], null],
  ] as [unknown[], ',' | '.' | null][])('detects the separator of %j as %s', (values, separator) => {
    expect(detectDecimalSeparator(values)).toBe(separator);
  });
});

describe('quantities by weight or length (ADR 0176)', () => {
  it("detects a scale's 0.250 as a decimal point: no thousands group starts with 0", () => {
    expect(detectDecimalSeparator(['0.250', '1.250'])).toBe('.');
    expect(detectDecimalSeparator(['1.250'])).toBeNull();
  });

  it.each([
    ['2.450', '2.450 could be 2.45 or 2450'],
    ['-1.000', '-1.000 could be -1 or -1000'],
    ['0.250', null],
    ['2.45', null],
    ['12.500', '12.500 could be 12.5 or 12500'],
    ['1234.500', null],
    ['1.234.567', null],
  ])('says %s could be a fraction or thousands: %s', (text, start) => {
    const problem = pointGroupsProblem(text);
    if (start === null) expect(problem).toBeNull();
    else expect(problem?.startsWith(`${start}: if it means`)).toBe(true);
  });

  it('counts the places written, and takes a spreadsheet number as the decimal it shows', () => {
    expect([decimalPlacesWritten('0.12345'), decimalPlacesWritten(' -1.5 '), decimalPlacesWritten('12'), decimalPlacesWritten('1e-5')]).toEqual([5, 1, 0, 0]);
    expect(asStoredDecimal(0.1 + 0.2, 3)).toBe(0.3);
    expect(asStoredDecimal(1.0005, 3)).toBe(1.0005);
    expect(asStoredDecimal(-2.675, 3)).toBe(-2.675);
  });
});
