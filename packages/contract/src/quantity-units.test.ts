import { describe, expect, it } from 'vitest';
import { inReadingUnit, measureOf, splitQuantityUnit } from './quantity-units.ts';
import { MEASURE_UNITS } from './units.ts';

const UNITS_LISTED = 'kg, g, mg, t, lb, lbs, oz, l, ml, cl, dl, m, cm, mm, in, ft, yd, or pcs for pieces';
const ofCheese = (unit: string | null) => ({ unit, of: 'the unit of product CHE-001' });

describe('a quantity cell written with its unit', () => {
  it.each([
    ['0.25 kg', '0.25', 'kg'],
    ['0.25kg', '0.25', 'kg'],
    [' 250 G ', '250', 'G'],
    ['1,5 kg', '1,5', 'kg'],
    ['1.250,5 kg', '1.250,5', 'kg'],
    ['-0.2 kg', '-0.2', 'kg'],
    ['3 Stk.', '3', 'Stk.'],
    ['2 Stück', '2', 'Stück'],
    ['3 boxes', '3', 'boxes'],
  ])('splits %s into its number and word', (text, number, word) => {
    expect(splitQuantityUnit(text)).toEqual({ number, word });
  });

  // Only a whole cell of a number and one word: a note beside the figure is not a unit, however short its first word.
  it.each(['12', '0.25', '12.', 'kg', 'kg 2', '2 kg 3', '1e5', '', '£3', '2 5 kg x y', '2 in stock', 'in 2', '3 t each'])('leaves %s alone', (text) => {
    expect(splitQuantityUnit(text)).toBeNull();
  });

  it('knows the size and kind of every measure unit a product can be counted in', () => {
    for (const unit of MEASURE_UNITS) expect(measureOf(unit.toUpperCase())).toBeDefined();
  });

  it.each([
    [0.25, 'kg', 'kg', 0.25],
    [0.25, 'KG', 'kg', 0.25],
    [250, 'g', 'kg', 0.25],
    [0.25, 'kg', 'g', 250],
    [500, 'ml', 'l', 0.5],
    [8, 'oz', 'lb', 0.5],
    [50, 'cm', 'm', 0.5],
    [3, 'boxes', 'Box', 3],
    [3, 'Stk.', 'pcs', 3],
    [1, 'mm', 'm', 0.001],
    [25, 'MM', 'cm', 2.5],
    [1500, 'mg', 'g', 1.5],
    [2, 't', 'kg', 2000],
    [250, 'kg', 'T', 0.25],
    [33, 'cl', 'l', 0.33],
    [5, 'dl', 'ml', 500],
    [75, 'cl', 'dl', 7.5],
    [12, 'in', 'ft', 1],
    [3, 'ft', 'yd', 1],
    [2, 'In', 'cm', 5.08],
    [10, 'ft', 'in', 120],
    [1, 'yd', 'ft', 3],
    [3, 'lbs', 'lb', 3],
    [2, 'lb', 'lbs', 2],
    [16, 'oz', 'lbs', 1],
  ])('reads %s %s for a product in %s as %s', (value, word, unit, read) => {
    expect(inReadingUnit(value, word, `${value} ${word}`, ofCheese(unit), 3)).toBe(read);
  });

  it('refuses what a conversion of a new unit would round: 1 mg of a kilo product, 1 ft of a product in m, a ton', () => {
    expect(inReadingUnit(1, 'mg', '1 mg', ofCheese('kg'), 3)).toBe('1 mg is 0.000001 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg in the file, rounded to 3.');
    expect(inReadingUnit(1, 'ft', '1 ft', ofCheese('m'), 3)).toBe('1 ft is 0.3048 m (the unit of product CHE-001), more than 3 decimal places: write it in m in the file, rounded to 3.');
    expect(inReadingUnit(1, 'mm', '1 mm', ofCheese('in'), 3)).toMatch(/^1 mm is 0\.03937007874\d* in \(the unit of product CHE-001\), more than 3 decimal places/);
    expect(inReadingUnit(2, 'ton', '2 ton', ofCheese('kg'), 3)).toBe(`Expected a quantity in kg (the unit of product CHE-001), not 2 ton: ton is not a unit the import reads (${UNITS_LISTED}); write the number alone.`);
  });

  it('refuses a new unit of another kind, naming both kinds', () => {
    expect(inReadingUnit(2, 'in', '2 in', ofCheese('kg'), 3)).toBe('Expected a quantity in kg (the unit of product CHE-001), not 2 in: in is a length, kg is a weight; write the quantity in kg.');
    expect(inReadingUnit(1, 't', '1 t', ofCheese('l'), 3)).toBe('Expected a quantity in l (the unit of product CHE-001), not 1 t: t is a weight, l is a volume; write the quantity in l.');
  });

  it('reads the number as written for a product without a unit, a measure or pieces alike', () => {
    expect(inReadingUnit(0.25, 'kg', '0.25 kg', ofCheese(null), 3)).toBe(0.25);
    expect(inReadingUnit(3, 'pcs', '3 pcs', ofCheese(null), 3)).toBe(3);
  });

  it('refuses a unit of another kind, naming both units', () => {
    expect(inReadingUnit(0.5, 'l', '0.5 l', ofCheese('kg'), 3)).toBe('Expected a quantity in kg (the unit of product CHE-001), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.');
    expect(inReadingUnit(3, 'pcs', '3 pcs', ofCheese('kg'), 3)).toBe('Expected a quantity in kg (the unit of product CHE-001), not 3 pcs: pcs counts pieces, kg is a weight; write the quantity in kg.');
    expect(inReadingUnit(0.25, 'kg', '0.25 kg', ofCheese('box'), 3)).toBe('Expected a quantity in box (the unit of product CHE-001), not 0.25 kg: kg is a weight, box is no weight, length or volume; write the quantity in box.');
  });

  it('refuses a word it does not know, naming it', () => {
    expect(inReadingUnit(3, 'boxes', '3 boxes', ofCheese(null), 3)).toBe(`Expected a number, not 3 boxes: boxes is not a unit the import reads (${UNITS_LISTED}); write the number alone.`);
    expect(inReadingUnit(3, 'kgs', '3 kgs', ofCheese('l'), 3)).toBe(`Expected a quantity in l (the unit of product CHE-001), not 3 kgs: kgs is not a unit the import reads (${UNITS_LISTED}); write the number alone.`);
  });

  it('refuses a conversion with more places than the column keeps, rather than rounding it', () => {
    expect(inReadingUnit(0.5, 'g', '0.5 g', ofCheese('kg'), 3)).toBe('0.5 g is 0.0005 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg in the file, rounded to 3.');
    expect(inReadingUnit(250, 'g', '250 g', ofCheese('lb'), 3)).toMatch(/^250 g is 0\.551155655\d* lb \(the unit of product CHE-001\), more than 3 decimal places/);
  });

  it('tells a Data screen field what to do there, not in a file', () => {
    expect(inReadingUnit(3, 'boxes', '3 boxes', ofCheese(null), 3, 'form')).toBe(`Expected a number, not 3 boxes: boxes is not a unit Stockwise reads (${UNITS_LISTED}); write the number alone.`);
    expect(inReadingUnit(0.5, 'g', '0.5 g', ofCheese('kg'), 3, 'form')).toBe('0.5 g is 0.0005 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg, rounded to 3.');
  });
});
