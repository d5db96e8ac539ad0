// What the screen says of an order recorded from the lists (ADR 0182): "Recorded: 32 Desk Lamp Pro
// arriving 12 Dec.", then, once the product's forecast has run again, what its advice is now — no
// other order needed, the next one and when, or its stock running out before a delivery comes.
import type { TFunction } from 'i18next';
import { formatDay, formatDayOfMonth, quantityFormat, type ProductForecastResponse, type RecordedOrder } from '@stockwise/contract';
import { viewerToday } from '../../api/shop-day.ts';
import { withUnit } from '../../components/quantity-words.ts';
import { orderDueNow } from '../../components/order-by.tsx';

/** "12 Dec" within the year, "12 Dec 2027" beyond it. */
const arrivalWords = (day: string, today: string) => (day.slice(0, 4) === today.slice(0, 4) ? formatDayOfMonth(day) : formatDay(day));

/** "Recorded: 32 Desk Lamp Pro arriving 12 Dec." ("2.5 kg Cheddar"), and the delivery's whole quantity when the order was added to one expected that day. */
export function recordedWords(recorded: RecordedOrder, t: TFunction, today = viewerToday()): string {
  const words = t('forecasting.recordOrder.recorded', { quantity: withUnit(quantityFormat.format(recorded.ordered), recorded.unit), name: recorded.name, date: arrivalWords(recorded.expectedDate, today) });
  if (recorded.delivery.quantity === recorded.ordered) return words;
  return `${words} ${t('forecasting.recordOrder.addedTo', { quantity: withUnit(quantityFormat.format(recorded.delivery.quantity), recorded.unit) })}`;
}

/** The product's advice after its run, in a sentence; or why it could not be updated. */
export function orderOutcomeWords(outcome: { advice: ProductForecastResponse | null } | { failure: string }, t: TFunction, today = viewerToday()): string {
  if ('failure' in outcome) return t('forecasting.recordOrder.notUpdated', { reason: outcome.failure });
  const { advice } = outcome;
  if (!advice) return t('forecasting.recordOrder.updated');
  const { reorder, product } = advice;
  const quantity = withUnit(quantityFormat.format(reorder.orderQuantity), product.unit);
  if (reorder.orderQuantity > 0 && reorder.orderBy) {
    return orderDueNow(reorder.orderBy, today) ? t('forecasting.recordOrder.moreNow', { quantity }) : t('forecasting.recordOrder.nextOrder', { quantity, date: formatDay(reorder.orderBy) });
  }
  const stockout = advice.stockouts.find((item) => item.type === 'stockForecast')?.date;
  if (reorder.onOrderArrives && stockout) return t('forecasting.recordOrder.hurry', { stockout: formatDay(stockout), date: formatDay(reorder.onOrderArrives) });
  return t('forecasting.recordOrder.covered', { count: advice.forecast.sales.length });
}
