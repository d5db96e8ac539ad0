// An order in the supplier's terms (ADR 0183), in a buyer's words: how many cases, whether the
// supplier's minimum set it, and what the stock needs where that is less — "48 (2 cases of 24; 40
// needed)", "10 (the supplier's minimum; 3 needed)" — so the buyer sees why the order is larger than
// the need. The lists say it short under the quantity ("2 × 24").
import type { TFunction } from 'i18next';
import { quantityFormat, type SupplierOrder } from '@stockwise/contract';
import { withUnit } from '../../components/quantity-words.ts';

type ShapedOrder = SupplierOrder & { orderQuantity: number };

const figure = (value: number, unit: string | null | undefined) => withUnit(quantityFormat.format(value), unit);
/** The order's cases, `size` each: a whole number but for floating-point noise. */
const cases = (quantity: number, size: number, unit: string | null | undefined) => ({ count: Math.round(quantity / size), size: figure(size, unit) });
/** The supplier's minimum where it made the order larger than the need; else null. */
const raisingMinimum = ({ orderQuantityNeeded, minOrderQuantity }: ShapedOrder): number | null =>
  orderQuantityNeeded !== undefined && minOrderQuantity !== undefined && orderQuantityNeeded < minOrderQuantity ? minOrderQuantity : null;

/**
 * What the supplier's terms made of an order, for after its quantity: "2 cases of 24", "the
 * supplier's minimum; 3 needed", "2 cases of 6, to reach the supplier's minimum of 10; 3 needed";
 * null where they shaped nothing (no case size, a minimum below the need) or nothing is ordered.
 */
export function supplierOrderWords(order: ShapedOrder, unit: string | null | undefined, t: TFunction): string | null {
  if (order.orderQuantity <= 0) return null;
  const terms: string[] = [];
  if (order.orderMultiple !== undefined) terms.push(t('forecasting.supplierOrder.cases', cases(order.orderQuantity, order.orderMultiple, unit)));
  const minimum = raisingMinimum(order);
  if (minimum !== null) terms.push(order.orderQuantity > minimum ? t('forecasting.supplierOrder.toMinimum', { minimum: figure(minimum, unit) }) : t('forecasting.supplierOrder.minimum'));
  if (!terms.length) return null;
  const shaped = terms.join(', ');
  return order.orderQuantityNeeded === undefined ? shaped : `${shaped}; ${t('forecasting.supplierOrder.needed', { quantity: figure(order.orderQuantityNeeded, unit) })}`;
}

/** A quantity followed by what the supplier's terms made of it, in brackets: "48 (2 cases of 24; 40 needed)". */
export const withSupplierOrder = (quantity: string, order: ShapedOrder, unit: string | null | undefined, t: TFunction): string => {
  const words = supplierOrderWords(order, unit, t);
  return words ? `${quantity} (${words})` : quantity;
};

/** The lists' short form under a quantity: "2 × 24", "20 × 2.5 kg", or "supplier's minimum"; null where the terms shaped nothing. */
export function supplierOrderNote(order: ShapedOrder, unit: string | null | undefined, t: TFunction): string | null {
  if (order.orderQuantity <= 0) return null;
  if (order.orderMultiple !== undefined) return t('forecasting.supplierOrder.casesShort', cases(order.orderQuantity, order.orderMultiple, unit));
  return raisingMinimum(order) !== null ? t('forecasting.supplierOrder.minimumShort') : null;
}
