// The product header's stock figure (QA F4, F9): what is on hand when the forecast starts — the
// figure the chart's stock line ends at, from the forecast answer (`product.onHand`), never worked
// out again here — with the count it comes from beside it when the two differ or the count is old.
import type { TFunction } from 'i18next';
import { formatDay, type ProductForecastResponse } from '@stockwise/contract';

const units = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** `figure`: the header's value; `beside`: the count it comes from, or what to do without one. */
export type OnHandWords = { figure: string; beside: string | null; counted: boolean };

export function onHandWords(forecast: Pick<ProductForecastResponse, 'product' | 'metrics'>, t: TFunction): OnHandWords {
  const { onHand, lastCount } = forecast.product;
  if (onHand) {
    const { units: now, countedUnits, countedOn } = onHand;
    if (now !== countedUnits) return { figure: t('forecasting.product.onHandEstimate', { units: units.format(now) }), beside: t('forecasting.product.countedUnitsOn', { units: units.format(countedUnits), date: formatDay(countedOn) }), counted: true };
    // Counted on the stock line's last day or the first forecast day: the count is the figure.
    const recent = countedOn >= forecast.metrics.display_window.forecast_start;
    return { figure: units.format(now), beside: recent ? null : t('forecasting.product.countedOn', { date: formatDay(countedOn) }), counted: true };
  }
  // A count dated after the forecast's history (sales data that ends earlier): the stored figure, with its date.
  if (lastCount) return { figure: units.format(lastCount.units), beside: t('forecasting.product.countedOn', { date: formatDay(lastCount.date) }), counted: true };
  return { figure: t('forecasting.product.notCounted'), beside: t('forecasting.product.notCountedHint'), counted: false };
}
