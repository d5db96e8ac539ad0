// The lists' mark for a row whose stock runs out before help arrives, as the product panel says it:
// an order that, even placed today, arrives after the expected stockout (QA4 #23), or a delivery on
// its way that does (no order to place: hurry it; ADR 0072, amendment 2026-12-04 "hurry it").
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDay, isTooLate, type ReportProduct } from '@stockwise/contract';

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** `urgencyDays` below zero: an order placed today arrives that many days after the expected stockout; `onOrderArrives`: the delivery on its way does. */
export function TooLateMark({ product }: { product: Pick<ReportProduct, 'urgencyDays' | 'onOrderArrives' | 'firstStockout'> }) {
  const { t } = useTranslation();
  const { onOrderArrives, firstStockout } = product;
  if (onOrderArrives) {
    const explanation = firstStockout
      ? t('forecasting.onOrderLate.explanation', { count: daysBetween(firstStockout, onOrderArrives), stockout: formatDay(firstStockout) })
      : t('forecasting.onOrderLate.explanationUndated');
    return (
      <Badge color="red.9" variant="filled" autoContrast size="sm" ml={6} tt="none" title={explanation} data-testid="on-order-late">
        {t('forecasting.onOrderLate.label', { date: formatDay(onOrderArrives) })}
      </Badge>
    );
  }
  if (!isTooLate(product)) return null;
  const explanation = t('forecasting.tooLate.explanation', { count: -product.urgencyDays });
  return (
    <Badge color="red.9" variant="filled" autoContrast size="sm" ml={6} tt="none" title={explanation} data-testid="too-late">
      {t('forecasting.tooLate.label')}
    </Badge>
  );
}
