// The rule of spellings without a database (the HTTP behaviour: spellings.test.ts): the name a
// supplier is known by, and the spelling a write stores, in the order it meets the names.
import { describe, expect, it } from 'vitest';
import { foldedSupplierNotices, SAID_FOLDED_SUPPLIERS, SupplierNames, SupplierSpeller } from './service.ts';

const names = (rows: [string | null, number, number][]) => new SupplierNames(rows.map(([stored, products, firstId]) => ({ stored, products, first_id: firstId })));

describe('supplier names (ADR 0186)', () => {
  it('knows a supplier by the spelling most products hold; of as many, the earliest product’s', () => {
    const known = names([
      ['Acme', 1, 1],
      ['ACME', 2, 5],
      [' acme ', 1, 2],
      ['acme', 1, 9],
      ['Brakes Bros', 1, 7],
      ['BRAKES  BROS', 1, 3],
      [null, 4, 4],
      ['  ', 1, 8],
    ]);
    // "acme" (2 products: ' acme ' and 'acme') ties with ACME (2): ACME's first product (5) is later than acme's (2).
    expect(known.list()).toEqual([
      { supplier: 'acme', products: 5 },
      { supplier: 'BRAKES BROS', products: 2 },
    ]);
    expect([known.nameOf('ACME'), known.nameOf(' Acme'), known.nameOf('Brakes Bros'), known.nameOf('Zeta  Co'), known.nameOf('  '), known.nameOf(null)]).toEqual(['acme', 'acme', 'BRAKES BROS', 'Zeta Co', null, null]);
    expect(known.find('ACME ')).toMatchObject({ name: 'acme', nameProducts: 2, products: 5 });
    expect(known.find('Acme Ltd')).toBeUndefined();
    expect(known.withoutSupplier).toBe(5);
  });

  it('stores a name in the spelling the others hold, else the first met, and says each other spelling once', () => {
    const speller = new SupplierSpeller(names([['ACME', 3, 1]]));
    expect(['acme', 'Nova', ' Acme ', 'NOVA', 'acme', 'nova', 'ACME', 'Nova  Trade', 'Nova Trade', '  '].map((written) => speller.spell(written))).toEqual([
      'ACME',
      'Nova',
      'ACME',
      'Nova',
      'ACME',
      'Nova',
      'ACME',
      'Nova Trade',
      'Nova Trade',
      null,
    ]);
    // White space alone ("Nova  Trade") is not said, nor the spelling kept.
    expect(speller.folded).toEqual([
      { written: 'acme', stored: 'ACME', products: 3 },
      { written: 'Acme', stored: 'ACME', products: 3 },
      { written: 'NOVA', stored: 'Nova', products: null },
      { written: 'nova', stored: 'Nova', products: null },
    ]);
  });

  it('says folded spellings in words, the first few and how many more', () => {
    expect(foldedSupplierNotices([{ written: 'acme', stored: 'ACME', products: 1 }], 'the file')).toEqual(["Supplier 'acme' written as 'ACME', as 1 product already has it."]);
    const many = Array.from({ length: SAID_FOLDED_SUPPLIERS + 2 }, (_, at) => ({ written: `s${at}`, stored: `S${at}`, products: null }));
    const said = foldedSupplierNotices(many, 'the run');
    expect(said).toHaveLength(SAID_FOLDED_SUPPLIERS + 1);
    expect(said[0]).toBe("Supplier 's0' written as 'S0', as the run first writes it.");
    expect(said.at(-1)).toBe('2 more supplier names were written in the spelling already used.');
  });
});
