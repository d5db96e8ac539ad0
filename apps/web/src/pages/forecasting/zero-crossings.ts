// Zero crossings of the stock forecast (spec §3 Zero-crossing item, §4): a day where the forecast
// stock, or its lower bound, is at or below zero while the day before it was above zero.
import type { ProductForecastResponse } from '@stockwise/contract';

export type ZeroCrossingType = 'stockForecast' | 'stockLowerBound';
export type ZeroCrossing = { date: string; type: ZeroCrossingType };

type StockPoint = ProductForecastResponse['forecast']['stock'][number];

/** In date order; on a day where both cross, the forecast comes before its lower bound. */
export function findZeroCrossings(stock: readonly StockPoint[]): ZeroCrossing[] {
  const points = [...stock].sort((a, b) => (a.ds < b.ds ? -1 : a.ds > b.ds ? 1 : 0));
  const crossings: ZeroCrossing[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const before = points[i - 1]!;
    const day = points[i]!;
    if (before.stock_level > 0 && day.stock_level <= 0) crossings.push({ date: day.ds, type: 'stockForecast' });
    if (before.stock_lower > 0 && day.stock_lower <= 0) crossings.push({ date: day.ds, type: 'stockLowerBound' });
  }
  return crossings;
}

/** The first day the forecast stock itself runs out, else null. */
export function firstStockout(crossings: readonly ZeroCrossing[]): string | null {
  return crossings.find((crossing) => crossing.type === 'stockForecast')?.date ?? null;
}
