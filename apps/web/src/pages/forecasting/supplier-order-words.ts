// An order in the supplier's terms (ADR 0183), in the screen's words: the contract's rule
// (supplier-orders.ts, which the assistant and the report's download say in English) through the
// translations — "48 (2 cases of 24; 40 needed)", "10 (the supplier's minimum; 3 needed)". The lists
// say it short under the quantity ("2 × 24", "4 × 5 · min. 20").
import type { TFunction } from 'i18next';
import { supplierOrderNote as noteOf, supplierOrderWords as wordsOf, type ShapedOrder, type SupplierOrderPhrases } from '@stockwise/contract';

const phrases = (t: TFunction): SupplierOrderPhrases => ({
  cases: (count, size) => t('forecasting.supplierOrder.cases', { count, size }),
  casesShort: (count, size) => t('forecasting.supplierOrder.casesShort', { count, size }),
  minimum: t('forecasting.supplierOrder.minimum'),
  minimumShort: t('forecasting.supplierOrder.minimumShort'),
  casesAndMinimumShort: (cases, minimum) => t('forecasting.supplierOrder.casesAndMinimumShort', { cases, minimum }),
  toMinimum: (minimum) => t('forecasting.supplierOrder.toMinimum', { minimum }),
  needed: (quantity) => t('forecasting.supplierOrder.needed', { quantity }),
});

/** What the supplier's terms made of an order, for after its quantity ("2 cases of 24; 40 needed"); null where they shaped nothing. */
export const supplierOrderWords = (order: ShapedOrder, unit: string | null | undefined, t: TFunction): string | null => wordsOf(order, unit, phrases(t));

/** A quantity followed by what the supplier's terms made of it, in brackets: "48 (2 cases of 24; 40 needed)". */
export const withSupplierOrder = (quantity: string, order: ShapedOrder, unit: string | null | undefined, t: TFunction): string => {
  const words = supplierOrderWords(order, unit, t);
  return words ? `${quantity} (${words})` : quantity;
};

/** The lists' short form under a quantity: "2 × 24", "20 × 2.5 kg", "supplier's minimum" or "4 × 5 · min. 20"; null where the terms shaped nothing. */
export const supplierOrderNote = (order: ShapedOrder, unit: string | null | undefined, t: TFunction): string | null => noteOf(order, unit, phrases(t));
