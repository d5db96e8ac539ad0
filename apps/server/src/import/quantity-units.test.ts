import { describe, expect, it } from 'vitest';
import { UnitsAsWritten, unitsAsWrittenMessage, unitsAsWrittenSentence } from './quantity-units.ts';

describe('quantities read in the unit their cells wrote', () => {
  it('says how many and in which units, once each whatever the case', () => {
    const noted = new UnitsAsWritten();
    expect(unitsAsWrittenMessage(noted)).toBe('');
    noted.note('kg');
    expect(unitsAsWrittenMessage(noted)).toBe(" 1 quantity of a product without a unit was read in the unit its cell wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.");
    noted.note('KG');
    noted.note('l');
    expect(unitsAsWrittenMessage(noted)).toBe(" 3 quantities of products without a unit were read in the unit their cells wrote (kg, l): set the products' Unit on the Data screen so that files in other units are converted.");
  });

  it('says it in the future before the import (the preview)', () => {
    const noted = new UnitsAsWritten();
    expect(unitsAsWrittenSentence(noted, 'future')).toBe('');
    noted.note('g');
    expect(unitsAsWrittenSentence(noted, 'future')).toBe("1 quantity of a product without a unit will be read in the unit its cell wrote (g): set the products' Unit on the Data screen so that files in other units are converted.");
    noted.note('g');
    expect(unitsAsWrittenSentence(noted, 'future')).toMatch(/^2 quantities of products without a unit will be read in the unit their cells wrote \(g\): /);
  });
});
