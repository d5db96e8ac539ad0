// The product header's stock figure (QA F4, F9): what is on hand when the forecast starts — the
// figure the chart's stock line ends at, from the forecast answer (`product.onHand`), never worked
// out again here — with the count it comes from beside it when the two differ or the count is old.
// The report's lists show the same figure in the same words (onHandCell; ADR 0030, amendment 2026-12-04).
import type { TFunction } from 'i18next';
import { formatDay, quantityFormat as units, type InventoryReport, type ProductForecastResponse } from '@stockwise/contract';
import { withUnit } from '../../components/quantity-words.ts';

/** `figure`: the header's value; `beside`: the count it comes from, or what to do without one. */
export type OnHandWords = { figure: string; beside: string | null; counted: boolean };

type OnHand = NonNullable<ProductForecastResponse['product']['onHand']>;
/** The product's unit (kg, box; ADR 0177): every figure here is followed by it; null: pieces, bare figures. */
type Unit = string | null | undefined;
const amount = (value: number, unit: Unit) => withUnit(units.format(value), unit);

/**
 * "≈ 35" when sales or deliveries moved the figure since the count, the count itself when they did
 * not; 0 when more was sold since than was counted — a shelf is never below empty (QA3 #4).
 */
const onHandFigure = ({ units: now, countedUnits }: OnHand, unit: Unit, t: TFunction) => {
  if (now < 0) return amount(0, unit);
  return now !== countedUnits ? t('forecasting.product.onHandEstimate', { units: amount(now, unit) }) : amount(now, unit);
};
/** The count the figure comes from; when more was sold since than it held, how many more, and to count again. */
const countedWords = ({ units: now, countedUnits, countedOn }: OnHand, unit: Unit, t: TFunction) => {
  const counted = t('forecasting.product.countedUnitsOn', { units: amount(countedUnits, unit), date: formatDay(countedOn) });
  return now < 0 ? t('forecasting.product.soldBeyondCount', { counted, units: amount(-now, unit) }) : counted;
};

/** A report list's "On hand now" cell: the header's figure, the count it comes from as its title; "Not counted yet" without one. */
export function onHandCell(onHand: InventoryReport['products'][number]['onHand'], unit: Unit, t: TFunction): { figure: string; title: string | undefined } {
  return onHand ? { figure: onHandFigure(onHand, unit, t), title: countedWords(onHand, unit, t) } : { figure: t('forecasting.product.notCounted'), title: undefined };
}

export function onHandWords(forecast: Pick<ProductForecastResponse, 'product' | 'metrics'>, t: TFunction): OnHandWords {
  const { onHand, lastCount, unit } = forecast.product;
  if (onHand) {
    const { units: now, countedUnits, countedOn } = onHand;
    if (now !== countedUnits) return { figure: onHandFigure(onHand, unit, t), beside: countedWords(onHand, unit, t), counted: true };
    // Counted on the stock line's last day or the first forecast day: the count is the figure.
    const recent = countedOn >= forecast.metrics.display_window.forecast_start;
    return { figure: amount(now, unit), beside: recent ? null : t('forecasting.product.countedOn', { date: formatDay(countedOn) }), counted: true };
  }
  // A count dated after the forecast's history (sales data that ends earlier): the stored figure, with its date.
  if (lastCount) return { figure: amount(lastCount.units, unit), beside: t('forecasting.product.countedOn', { date: formatDay(lastCount.date) }), counted: true };
  return { figure: t('forecasting.product.notCounted'), beside: t('forecasting.product.notCountedHint'), counted: false };
}
