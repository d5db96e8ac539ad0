// A projection drawn from under four weeks of sales, said alike wherever one is shown: the dashboard's
// catalogue projection and a product's stock-out day on the Forecasting screen (ADR 0070, amendments
// 2026-12-06) — the text the assistant says too (the contract's `earlyEstimateWords`).
import type { TFunction } from 'i18next';
import { formatDay, PROJECTION_SETTLED_DAYS, type ProjectionHistory } from '@stockwise/contract';

/** "An early estimate: drawn from 3 days of sales (3 Dec 2026 – 5 Dec 2026). It settles once there are 4 weeks of sales." */
export const earlyEstimate = (t: TFunction, span: ProjectionHistory): string =>
  t('earlyEstimate', { count: span.days, from: formatDay(span.from), to: formatDay(span.to), settled: PROJECTION_SETTLED_DAYS / 7 });
