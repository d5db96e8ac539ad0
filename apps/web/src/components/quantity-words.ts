// Quantities with their unit (ADR 0177), on every screen that shows them: "12.5 kg", "order 3.25 kg",
// where a product says what it is counted in; without a unit, as before — a bare figure in a table or
// a header, "40 units" in a sentence; totals over several products one per unit ("12 units, 3.5 kg").
// The unit is written as the shop wrote it on the products table.
import type { TFunction } from 'i18next';
import { quantityFormat, type UnitQuantity } from '@stockwise/contract';

/** A figure already written ("12.5", "≈ 12.5") followed by the product's unit when it has one. */
export const withUnit = (figure: string, unit: string | null | undefined): string => (unit ? `${figure} ${unit}` : figure);

/** What a unit is called in a title or a choice: its own word, "units" for pieces. */
export const unitName = (unit: string | null | undefined, t: TFunction): string => unit || t('quantity.piecesName');

/** A recorded quantity in a sentence: "3.25 kg"; without a unit, "40 units" ("1 unit"). `format`: fewer places for an estimate. */
export const quantityWords = (value: number, unit: string | null | undefined, t: TFunction, format: Intl.NumberFormat = quantityFormat): string => {
  const quantity = format.format(value);
  return unit ? withUnit(quantity, unit) : t('quantity.pieces', { quantity, count: value });
};

/** Quantities of several products, one total per unit (ADR 0177, amendment 2026-12-06): "12 units, 3.5 kg"; none: "0 units". */
export const quantitiesWords = (totals: readonly UnitQuantity[], t: TFunction): string =>
  totals.length ? totals.map((total) => quantityWords(total.quantity, total.unit, t)).join(', ') : quantityWords(0, null, t);
