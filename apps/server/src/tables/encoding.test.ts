import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTableName, encodeTableName, parseCopyName, TableNameEncodingError } from './encoding.ts';

describe('table name encoding', () => {
  it('keeps plain lower-case names as they are', () => {
    expect(encodeTableName('stock_snapshots')).toBe('stock_snapshots');
  });

  it('encodes spaces, capitals, # and Unicode reversibly', () => {
    for (const name of ['Sales #2', 'Ventes été', '库存 表', 'Products 🚀', "O'Brien; drop table x"]) {
      const encoded = encodeTableName(name);
      expect(encoded).toMatch(/^[a-z0-9_$]+$/);
      expect(decodeTableName(encoded)).toBe(name);
    }
  });

  it('round-trips any name that fits, and refuses the rest with an error', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (name) => {
        let encoded: string;
        try {
          encoded = encodeTableName(name);
        } catch (error) {
          expect(error).toBeInstanceOf(TableNameEncodingError);
          return;
        }
        expect(encoded.length).toBeLessThanOrEqual(63);
        expect(decodeTableName(encoded)).toBe(name);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('refuses identifiers that are not the canonical encoding of a name', () => {
    for (const bad of ['', 'Products', 'a b', '$61$', '$zz$', 'a"b', 'x'.repeat(64)]) {
      expect(() => decodeTableName(bad)).toThrow(TableNameEncodingError);
    }
  });

  it('reads copy names', () => {
    expect(parseCopyName('Sales #12')).toEqual({ baseName: 'Sales', isCopy: true, copyNumber: 12 });
    expect(parseCopyName('Sales')).toEqual({ baseName: 'Sales', isCopy: false, copyNumber: null });
  });
});
