import { describe, expect, it } from 'vitest';
import { bySupplierName, isSupplierColumn, supplierKey, supplierSpelling } from './suppliers.ts';

describe('supplier spellings (ADR 0186)', () => {
  it('trims a name and makes each run of white space one space; blank is none', () => {
    expect(supplierSpelling('  Acme \t  Ltd\u00a0 ')).toBe('Acme Ltd');
    expect(supplierSpelling('ACME')).toBe('ACME');
    expect([supplierSpelling(' \t '), supplierSpelling(''), supplierSpelling(null), supplierSpelling(undefined)]).toEqual([null, null, null, null]);
  });

  it('gives spellings differing only in case, white space or Unicode form one key, and any other difference another', () => {
    expect(new Set(['ACME', 'Acme', ' acme ', 'aCmE'].map(supplierKey)).size).toBe(1);
    expect(supplierKey('Acme  Ltd')).toBe(supplierKey('ACME LTD'));
    // An "Ü" typed as U + diaeresis (a Mac's file name, some exports) is the "ü" typed.
    expect(supplierKey('Gro\u00dfhandel M\u00fcller')).toBe(supplierKey('GRO\u00dfHANDEL MU\u0308LLER'));
    expect(supplierKey('Acme')).not.toBe(supplierKey('Acme Ltd'));
    expect(supplierKey('Acme Ltd')).not.toBe(supplierKey('Acme Ltd.'));
    expect(supplierKey('AcmeLtd')).not.toBe(supplierKey('Acme Ltd'));
  });

  it('sorts suppliers by name, case and accents aside, no supplier last', () => {
    expect(['brakes', null, 'Äpfel', 'Acme'].sort(bySupplierName)).toEqual(['Acme', 'Äpfel', 'brakes', null]);
  });

  it("knows the products' supplier column", () => {
    expect([isSupplierColumn('products', 'supplier'), isSupplierColumn('products', 'name'), isSupplierColumn('sales', 'supplier')]).toEqual([true, false, false]);
  });
});
