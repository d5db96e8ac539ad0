// An order-by day as the Forecasting screen writes it, in the product panel and both lists alike
// (ADR 0169, amendment 2026-12-05), and the assistant's order tables too (ADR 0198, amendment
// 2026-12-07): a day that has come — or passed, on a catalogue run made days ago or Saturday's advice
// read on Monday — reads "Now", since the order is placed today, not on a day gone by; a later day is
// its date. The lists still sort by the date itself, and the downloads keep it (they are typed days).
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDay } from '@stockwise/contract';

/** Whether an order-by day has come by `today` (the viewer's, `viewerToday`). */
export const orderDueNow = (orderBy: string, today: string) => orderBy <= today;

/** "Now" on or after the order-by day, else the day (7 Dec 2026). */
export const orderByWords = (orderBy: string, today: string, t: TFunction) => (orderDueNow(orderBy, today) ? t('forecasting.explain.orderByNow') : formatDay(orderBy));

/** A list's order-by cell text; empty without an order-by day (a delivery to hurry has none). */
export function OrderByDay({ orderBy, today }: { orderBy: string | null; today: string }) {
  const { t } = useTranslation();
  return <span data-testid="order-by">{orderBy ? orderByWords(orderBy, today, t) : ''}</span>;
}
