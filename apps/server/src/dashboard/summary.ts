// The per-product demand summary written with each stored forecast (docs/api.md "Dashboard figures").
import { dayNumber, type ProductForecast } from '@stockwise/forecast';
import { PROJECTION_MONTHS } from '@stockwise/contract';

/** yhat_lower/yhat_upper are a 95 % interval: half its width over this is one day's standard deviation. */
const Z95 = 1.959964;
/** Days at the end of the forecast whose mean demand carries the projection past the horizon. */
const TAIL_DAYS = 28;

/** The last day of each of the six calendar months from the forecast start's month on. */
export function projectionMonthEnds(forecastStart: string): string[] {
  const start = new Date(`${forecastStart}T00:00:00Z`);
  return Array.from({ length: PROJECTION_MONTHS }, (_, k) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k + 1, 0)).toISOString().slice(0, 10));
}

// A catalogue run summarises every product from the same forecast start: its month ends are worked out once.
let monthEndDays: { forecastStart: string; days: number[] } | null = null;
function monthEndDaysFrom(forecastStart: string): number[] {
  if (monthEndDays?.forecastStart !== forecastStart) monthEndDays = { forecastStart, days: projectionMonthEnds(forecastStart).map(dayNumber) };
  return monthEndDays.days;
}

export type ProductSummary = { cumDemand: number[]; cumVariance: number[]; firstStockout: string | null; orderQuantity: number };

/**
 * Cumulative expected demand, and its variance (days taken as independent), from the forecast start
 * to each month end. Past the forecast horizon each day is the mean of the forecast's last weeks.
 */
export function summariseForecast(forecast: Pick<ProductForecast, 'forecast' | 'stockouts' | 'reorder'>, forecastStart: string): ProductSummary {
  const rows = forecast.forecast;
  // Plain loops over values worked out once per row: this runs for every product of a catalogue run.
  const variances = rows.map((row) => ((row.yhat_upper - row.yhat_lower) / (2 * Z95)) ** 2);
  const tailStart = Math.max(0, rows.length - TAIL_DAYS);
  const tailDays = rows.length - tailStart;
  let tailDemand = 0;
  let tailSpread = 0;
  for (let i = tailStart; i < rows.length; i++) {
    tailDemand += rows[i]!.yhat;
    tailSpread += variances[i]!;
  }
  const tailMean = tailDays ? tailDemand / tailDays : 0;
  const tailVariance = tailDays ? tailSpread / tailDays : 0;
  const startDay = dayNumber(forecastStart);
  // Parsed once, not once per month end.
  const rowDays = rows.map((row) => dayNumber(row.ds));
  const lastForecastDay = rowDays.length ? (rowDays.at(-1) as number) : startDay - 1;
  const cumDemand: number[] = [];
  const cumVariance: number[] = [];
  for (const endDay of monthEndDaysFrom(forecastStart)) {
    let demand = 0;
    let spread = 0;
    for (let i = 0; i < rows.length; i++) {
      const day = rowDays[i]!;
      if (day < startDay || day > endDay) continue;
      demand += rows[i]!.yhat;
      spread += variances[i]!;
    }
    const extraDays = Math.max(0, endDay - Math.max(lastForecastDay, startDay - 1));
    cumDemand.push(demand + extraDays * tailMean);
    cumVariance.push(spread + extraDays * tailVariance);
  }
  const firstStockout = forecast.stockouts.filter((s) => s.type === 'stockForecast').map((s) => s.date).sort()[0] ?? null;
  return { cumDemand, cumVariance, firstStockout, orderQuantity: forecast.reorder.orderQuantity };
}
