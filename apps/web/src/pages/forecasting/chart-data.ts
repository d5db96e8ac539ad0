// The forecast chart's rows (spec §3 Chart row): actual sales and stock, forecast sales and stock
// with their 95% bands, merged by date. When the historical forecast (backtest) is not shown, the
// forecast values on or before the forecast start date are removed (spec §4).
import type { ProductForecastResponse } from '@stockwise/contract';

export type ChartRow = {
  date: string;
  actualSales: number | null;
  actualStock: number | null;
  forecastSales: number | null;
  salesUpperBound: number | null;
  salesLowerBound: number | null;
  forecastStock: number | null;
  stockUpperBound: number | null;
  stockLowerBound: number | null;
};

export type ChartSource = Pick<ProductForecastResponse, 'historical' | 'forecast' | 'backtest' | 'metrics'>;

const forecastKeys = ['forecastSales', 'salesUpperBound', 'salesLowerBound', 'forecastStock', 'stockUpperBound', 'stockLowerBound'] as const;

/** A day with no values. */
export const emptyRow = (date: string): ChartRow => ({
  date,
  actualSales: null,
  actualStock: null,
  forecastSales: null,
  salesUpperBound: null,
  salesLowerBound: null,
  forecastStock: null,
  stockUpperBound: null,
  stockLowerBound: null,
});

/**
 * Rows sorted by date. The backtest (the historical forecast) fills the forecast sales columns
 * on the days before the forecast starts; the forecast itself wins where both have a value.
 */
export function buildChartRows(source: ChartSource, showHistoricalForecast: boolean): ChartRow[] {
  const rows = new Map<string, ChartRow>();
  const rowAt = (date: string): ChartRow => {
    let row = rows.get(date);
    if (!row) {
      row = emptyRow(date);
      rows.set(date, row);
    }
    return row;
  };
  for (const point of source.historical.sales) rowAt(point.ds).actualSales = point.y;
  for (const point of source.historical.stock) rowAt(point.ds).actualStock = point.stock_level;
  for (const point of source.forecast.sales) {
    const row = rowAt(point.ds);
    row.forecastSales = point.yhat;
    row.salesUpperBound = point.yhat_upper;
    row.salesLowerBound = point.yhat_lower;
  }
  for (const point of source.forecast.stock) {
    const row = rowAt(point.ds);
    row.forecastStock = point.stock_level;
    row.stockUpperBound = point.stock_upper;
    row.stockLowerBound = point.stock_lower;
  }
  for (const point of source.backtest) {
    const row = rowAt(point.ds);
    if (row.forecastSales !== null) continue;
    row.forecastSales = point.yhat;
    row.salesUpperBound = point.yhat_upper;
    row.salesLowerBound = point.yhat_lower;
  }
  const sorted = fromFirstRecord([...rows.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)));
  if (showHistoricalForecast) return sorted;
  const forecastStart = source.metrics.display_window.forecast_start;
  for (const row of sorted) {
    if (row.date > forecastStart) break;
    for (const key of forecastKeys) row[key] = null;
  }
  return sorted.filter((row) => row.actualSales !== null || row.actualStock !== null || forecastKeys.some((key) => row[key] !== null));
}

/**
 * The rows from the product's first sale, stock figure or forecast on: the history's window holds
 * every day, and a product first sold last week is not drawn after two years of empty days.
 */
function fromFirstRecord(rows: ChartRow[]): ChartRow[] {
  const first = rows.findIndex((row) => (row.actualSales ?? 0) !== 0 || row.actualStock !== null || forecastKeys.some((key) => row[key] !== null));
  return first <= 0 ? rows : rows.slice(first);
}

/**
 * Round ticks from zero (or below) to the highest value of the given fields. After a stockout the
 * projection keeps falling (unmet demand); drawn in full it squashes the history, so an axis that
 * allows negatives shows below zero the larger of half the highest value and a quarter of the
 * lowest, and clips the rest: a product with stock shows its history, and one with none on hand
 * still shows its unmet demand fall (half of nothing was an axis from −1 to 0). Computed by the
 * chart because the history lines are not Recharts series (see DailyPath), so Recharts does not
 * see their values.
 */
export function valueAxis(rows: ChartRow[], fields: (keyof ChartRow)[], allowNegative: boolean): { domain: [number, number]; ticks: number[] } {
  let high = 0;
  let low = 0;
  for (const row of rows) {
    for (const field of fields) {
      const value = row[field];
      if (typeof value !== 'number') continue;
      if (value > high) high = value;
      if (value < low) low = value;
    }
  }
  const floor = allowNegative ? Math.max(low, -Math.max(0.5 * high, -0.25 * low, 0.5)) : 0;
  const rough = Math.max(high - floor, 1) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, ([1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= rough) ?? 10) * magnitude);
  const from = Math.floor(floor / step) * step;
  const to = Math.max(Math.ceil(high / step) * step, from + step);
  const ticks: number[] = [];
  for (let tick = from; tick <= to + step / 2; tick += step) ticks.push(Math.round(tick * 100) / 100);
  return { domain: [from, to], ticks };
}
