// Projected stock in a buyer's words (QA F19, ADR 0169): a shelf holds no fewer than 0. Past a
// stockout the chart's line keeps going below zero — its zero crossings are the stockout markers
// (spec §4) — but the day's readout says 0 and how many the shelf falls short by: the demand it
// cannot meet. Both in the product's unit when it has one ("0 (short by 2.5 kg)", ADR 0177).
import type { TFunction } from 'i18next';
import { withUnit } from '../../components/quantity-words.ts';

const units = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** A day's stock: "120" ("120 kg"), or "0 (short by 16.5)" ("0 (short by 16.5 kg)") below zero. */
export const stockLevelWords = (level: number, t: TFunction, unit: string | null = null): string =>
  level < 0 ? t('forecasting.chart.stockShort', { units: withUnit(units.format(-level), unit) }) : withUnit(units.format(level), unit);

/** A day's stock range: "0 – 45" ("0 – 45 kg"), "0 – 45 (short by up to 12)" when its low end is below zero; each end at least 0. */
export function stockRangeWords([lower, upper]: [number, number], t: TFunction, unit: string | null = null): string {
  const range = withUnit(`${units.format(Math.max(0, lower))} – ${units.format(Math.max(0, upper))}`, unit);
  return lower < 0 ? t('forecasting.chart.stockRangeShort', { range, units: withUnit(units.format(-lower), unit) }) : range;
}
