// The hand check of the row page's query string against the schema it stands in for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rowDataQuery, tableName } from '@stockwise/contract';
import { plainRowDataQuery, plainTableParams } from './row-query.ts';

const numberText = fc.oneof(fc.integer({ min: -5, max: 2_000_000_000 }).map(String), fc.constantFrom('', '0', '01', '1.0', '1e3', ' 2', '1000', '1001', '999999999', '1000000000', 'abc'));
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('date', 'a\u0000b', '\ud800', 'x'.repeat(101), '{"product_id":1}'), fc.string({ minLength: 1990, maxLength: 2010 }));
const query = fc.record(
  {
    page: numberText,
    page_size: numberText,
    sort_by: text,
    sort_dir: fc.constantFrom('asc', 'desc', 'DESC', ''),
    filters_json: text,
    after: text,
    from_end: fc.constantFrom('true', 'false', 'yes'),
    date_order: fc.constantFrom('day-first', 'month-first', 'dmy', ''),
    other: fc.string(),
  },
  { requiredKeys: [] },
);

describe('plainRowDataQuery', () => {
  it('gives exactly what the schema gives, or leaves the query to it', () => {
    fc.assert(
      fc.property(query, (input) => {
        const plain = plainRowDataQuery(input);
        const parsed = rowDataQuery.safeParse(input);
        if (plain) expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
        return true;
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the queries the grid sends without the schema', () => {
    const grid = { page: '2', page_size: '50', sort_by: 'date', sort_dir: 'desc', filters_json: '{"product_id":1}', date_order: 'month-first' };
    expect(plainRowDataQuery(grid)).toEqual({ page: 2, page_size: 50, sort_by: 'date', sort_dir: 'desc', filters_json: '{"product_id":1}', date_order: 'month-first' });
    expect(plainRowDataQuery({})).toEqual({ page: 1, page_size: 50, sort_dir: 'asc' });
  });

  it('leaves repeated, out-of-range and unusual values to the schema', () => {
    for (const input of [{ page: ['1', '2'] }, { page: '0' }, { page_size: '1001' }, { page: '01' }, { sort_dir: 'DESC' }, { from_end: 'yes' }, { date_order: 'dmy' }, { sort_by: 'a\u0000' }, { after: 'x'.repeat(2001) }]) {
      expect(plainRowDataQuery(input)).toBeNull();
    }
  });
});

describe('plainTableParams', () => {
  const tableParams = z.object({ name: tableName });
  it('gives exactly what the schema gives, or leaves the name to it', () => {
    const name = fc.oneof(fc.string({ maxLength: 130 }), fc.constantFrom('sales', ' sales', 'sales ', '', '__proto__', 'constructor', ' prototype', 'a\u0000', '\udc00', 'x'.repeat(120), 'x'.repeat(121)));
    fc.assert(
      fc.property(name, (value) => {
        const plain = plainTableParams({ name: value });
        const parsed = tableParams.safeParse({ name: value });
        if (plain) expect(plain).toEqual(parsed.data);
        return true;
      }),
      { numRuns: 3000 },
    );
    expect(plainTableParams({ name: 'sales' })).toEqual({ name: 'sales' });
    expect(plainTableParams({ name: ' sales' })).toBeNull();
    expect(plainTableParams({ name: '__proto__' })).toBeNull();
  });
});
