// An order in the supplier's terms (ADR 0183), in a buyer's words: how many cases, whether the
// supplier's minimum set it, and what the stock needs where that is less — "2 cases of 24; 40
// needed", "the supplier's minimum; 3 needed" — so the buyer sees why the order is larger than the
// need. One rule for every place that says it: the Forecasting screen (through its translations),
// the assistant's order tables and the report's download (in English, ADR 0183 amendment (3)).
import type { SupplierOrder } from './forecasting.ts';
import { quantityFormat } from './money.ts';

/** An advised order and the supplier's terms it was made under. */
export type ShapedOrder = SupplierOrder & { orderQuantity: number };

/** The words the terms are said in; `size`, `minimum` and `quantity` come written, with the product's unit. */
export type SupplierOrderPhrases = {
  cases: (count: number, size: string) => string;
  casesShort: (count: number, size: string) => string;
  minimum: string;
  minimumShort: string;
  /** The short note of cases the supplier's minimum set: "4 × 5 · min. 20". */
  casesAndMinimumShort: (cases: string, minimum: string) => string;
  toMinimum: (minimum: string) => string;
  needed: (quantity: string) => string;
};

/** The server's words, as the screen's English translations say them. */
export const SUPPLIER_ORDER_PHRASES: SupplierOrderPhrases = {
  cases: (count, size) => `${count} ${count === 1 ? 'case' : 'cases'} of ${size}`,
  casesShort: (count, size) => `${count} × ${size}`,
  minimum: "the supplier's minimum",
  minimumShort: "supplier's minimum",
  casesAndMinimumShort: (cases, minimum) => `${cases} · min. ${minimum}`,
  toMinimum: (minimum) => `to reach the supplier's minimum of ${minimum}`,
  needed: (quantity) => `${quantity} needed`,
};

const figure = (value: number, unit: string | null | undefined) => (unit ? `${quantityFormat.format(value)} ${unit}` : quantityFormat.format(value));
/** The order's cases: a whole number but for floating-point noise. */
const caseCount = (order: ShapedOrder, size: number) => Math.round(order.orderQuantity / size);
/** The supplier's minimum where it made the order larger than the need; else null. */
const raisingMinimum = ({ orderQuantityNeeded, minOrderQuantity }: ShapedOrder): number | null =>
  orderQuantityNeeded !== undefined && minOrderQuantity !== undefined && orderQuantityNeeded < minOrderQuantity ? minOrderQuantity : null;

/**
 * What the supplier's terms made of an order, for after its quantity: "2 cases of 24", "the
 * supplier's minimum; 3 needed", "2 cases of 6, to reach the supplier's minimum of 10; 3 needed";
 * null where they shaped nothing (no case size, a minimum below the need) or nothing is ordered.
 */
export function supplierOrderWords(order: ShapedOrder, unit: string | null | undefined, say: SupplierOrderPhrases = SUPPLIER_ORDER_PHRASES): string | null {
  if (order.orderQuantity <= 0) return null;
  const terms: string[] = [];
  if (order.orderMultiple !== undefined) terms.push(say.cases(caseCount(order, order.orderMultiple), figure(order.orderMultiple, unit)));
  const minimum = raisingMinimum(order);
  if (minimum !== null) terms.push(order.orderQuantity > minimum ? say.toMinimum(figure(minimum, unit)) : say.minimum);
  if (!terms.length) return null;
  const shaped = terms.join(', ');
  return order.orderQuantityNeeded === undefined ? shaped : `${shaped}; ${say.needed(figure(order.orderQuantityNeeded, unit))}`;
}

/**
 * The lists' short form under a quantity: "2 × 24", "20 × 2.5 kg", "supplier's minimum", or — cases
 * the minimum set — "4 × 5 · min. 20", so a sighted buyer sees the minimum without hovering (ADR 0183
 * amendment 2026-12-06 (5)); null where the terms shaped nothing.
 */
export function supplierOrderNote(order: ShapedOrder, unit: string | null | undefined, say: SupplierOrderPhrases = SUPPLIER_ORDER_PHRASES): string | null {
  if (order.orderQuantity <= 0) return null;
  const minimum = raisingMinimum(order);
  if (order.orderMultiple === undefined) return minimum !== null ? say.minimumShort : null;
  const cases = say.casesShort(caseCount(order, order.orderMultiple), figure(order.orderMultiple, unit));
  return minimum === null ? cases : say.casesAndMinimumShort(cases, figure(minimum, unit));
}
