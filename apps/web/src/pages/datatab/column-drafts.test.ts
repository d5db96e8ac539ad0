// The add-table dialog's drafts as the column definitions it sends: a decimal ticked as money is
// marked so (the grid then writes it in the shop's currency, ADR 0166); nothing else ever is.
import { describe, expect, it } from 'vitest';
import { draftToDefinition, emptyDraft } from './column-drafts.ts';

describe('a column draft as a definition', () => {
  it('marks a decimal ticked as money, and leaves an unticked one a plain figure', () => {
    expect(draftToDefinition({ ...emptyDraft(1), label: 'Price', type: 'DecimalField', decimalPlaces: '2', money: true })).toEqual({ key: 'price', label: 'Price', type: 'DecimalField', decimal_places: 2, money: true });
    expect(draftToDefinition({ ...emptyDraft(2), label: 'VAT rate', type: 'DecimalField', decimalPlaces: '2' })).toEqual({ key: 'vat_rate', label: 'VAT rate', type: 'DecimalField', decimal_places: 2 });
  });

  it('drops the mark when the type was changed away from decimal after ticking it', () => {
    expect(draftToDefinition({ ...emptyDraft(3), label: 'Weight', type: 'IntegerField', money: true })).toEqual({ key: 'weight', label: 'Weight', type: 'IntegerField' });
  });
});
