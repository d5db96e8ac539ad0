import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvReader } from './csv.ts';

/** The reader fed in the given chunk sizes: header and records, or the error's message. */
function readAll(text: string, chunkSizes: number[] = [text.length]): { header: string[] | null; records: string[][] } | string {
  const reader = new CsvReader();
  const records: string[][] = [];
  try {
    let at = 0;
    for (let i = 0; at < text.length; i++) {
      const size = Math.max(1, chunkSizes[i % chunkSizes.length] ?? text.length);
      records.push(...reader.push(text.slice(at, at + size)));
      at += size;
    }
    records.push(...reader.end());
    return { header: reader.header, records };
  } catch (error) {
    return (error as Error).message;
  }
}

describe('CsvReader', () => {
  it('reads quoted commas, quotes and newlines, BOM, CRLF and empty lines', () => {
    expect(readAll('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"two\nlines",\r\n')).toEqual({
      header: ['a', 'b'],
      records: [
        ['x, y', 'say "hi"'],
        ['two\nlines', ''],
      ],
    });
  });

  it.each([
    ['a,b\n"x,1\n', 'A quoted field is not closed at line 2.'],
    ['a,b\n"x"y,1\n', 'A closing quote is followed by text at line 2.'],
    ['a,b\nx"y,1\n', 'A quote appears inside a field that is not quoted at line 2.'],
    ['a,b\n1,2\n"multi\nline"\n', 'A record has 1 field where the header has 2 at line 3.'],
    ['a,b\n1,2,3\n', 'A record has 3 fields where the header has 2 at line 2.'],
  ])('refuses %j, naming the line', (text, message) => {
    expect(readAll(text)).toBe(message);
  });

  it('reads what csv-parse reads, and refuses what it refuses, however the file is cut into chunks', () => {
    const token = fc.constantFrom('a', 'b', ' ', 'é', '😀', ',', ',', '"', '""', '\n', '\n', '\uFEFF');
    const csv = fc.tuple(fc.array(token, { maxLength: 40 }), fc.boolean(), fc.boolean()).map(([tokens, crlf, bom]) => `${bom ? '\uFEFF' : ''}${tokens.join('')}`.replaceAll('\n', crlf ? '\r\n' : '\n'));
    fc.assert(
      fc.property(csv, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }), (text, chunks) => {
        let expected: { header: string[] | null; records: string[][] } | 'error';
        try {
          const rows = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
          expected = { header: rows[0] ?? null, records: rows.slice(1) };
        } catch {
          expected = 'error';
        }
        const whole = readAll(text);
        const chunked = readAll(text, chunks);
        expect(chunked).toEqual(whole);
        if (expected === 'error') expect(typeof whole).toBe('string');
        else expect(whole).toEqual(expected);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });
});
