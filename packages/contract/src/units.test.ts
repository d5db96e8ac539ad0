// A total over products of several units is one total per unit (ADR 0177, amendment 2026-12-06):
// pieces first, then the units alphabetically; "kg" and " KG " one unit; a unit adding to 0 left out.
import { describe, expect, it } from 'vitest';
import { isMeasureUnit, orderStep, quantitiesByUnit } from './units.ts';

describe('quantities by unit', () => {
  it('totals each unit apart, pieces first, then the units alphabetically', () => {
    const totals = quantitiesByUnit([
      { unit: 'kg', quantity: 1.25 },
      { unit: null, quantity: 12 },
      { unit: 'box', quantity: 2 },
      { unit: '  ', quantity: 3 },
      { unit: 'kg', quantity: 2.25 },
    ]);
    expect(totals).toEqual([
      { unit: null, quantity: 15 },
      { unit: 'box', quantity: 2 },
      { unit: 'kg', quantity: 3.5 },
    ]);
  });

  it('takes a unit ignoring case and spaces, spelt as the first product spells it, to a thousandth', () => {
    expect(quantitiesByUnit([{ unit: ' KG ', quantity: 0.1 }, { unit: 'kg', quantity: 0.2 }])).toEqual([{ unit: 'KG', quantity: 0.3 }]);
  });

  it('adds products whose unit is a word for pieces ("Stk", "pcs", "Each") to the pieces', () => {
    expect(quantitiesByUnit([{ unit: 'Stk', quantity: 12 }, { unit: null, quantity: 30 }, { unit: 'kg', quantity: 4.35 }, { unit: 'pcs', quantity: 1 }, { unit: ' Each ', quantity: 2 }, { unit: 'St.', quantity: 5 }])).toEqual([
      { unit: null, quantity: 50 },
      { unit: 'kg', quantity: 4.35 },
    ]);
  });

  it('leaves out a unit whose quantities add to 0, and has none for an empty list', () => {
    expect(quantitiesByUnit([{ unit: 'kg', quantity: 0 }, { unit: null, quantity: 4 }])).toEqual([{ unit: null, quantity: 4 }]);
    expect(quantitiesByUnit([])).toEqual([]);
  });
});

describe('units sold by measure', () => {
  // ADR 0178's amendment of 2026-12-06 (2): the units a quantity cell may be written in are the units a product may be counted in by measure.
  it.each(['mm', 'MG', 't', 'cl', 'dl', 'ft', 'in', 'yd', 'lbs', ' kg '])('%s is a weight, length or volume', (unit) => {
    expect(isMeasureUnit(unit)).toBe(true);
  });

  it.each(['box', 'pcs', 'ton', 'kgs', '', null])('%s is not', (unit) => {
    expect(isMeasureUnit(unit)).toBe(false);
  });
});

describe('the step a product is ordered in (ADR 0203 F3)', () => {
  it.each(['kg', ' KG ', 'l', 'lb', 'm', 't'])('%s is ordered to a tenth', (unit) => {
    expect(orderStep(unit)).toBe(0.1);
  });

  it.each(['g', 'ml', 'cl', 'oz', 'cm', 'mg'])('%s is ordered in whole units', (unit) => {
    expect(orderStep(unit)).toBe(1);
  });

  it.each(['pcs', 'box', 'Stk', '', null])('%s has no step: its sales decide, as before', (unit) => {
    expect(orderStep(unit)).toBeNull();
  });
});
