// A small forecast answer in the contract's shape, for the screen's unit tests.
import type { ProductForecastResponse } from '@stockwise/contract';

type Stock = ProductForecastResponse['forecast']['stock'][number];

export function stockPoint(ds: string, stock_level: number, stock_lower = stock_level - 5, stock_upper = stock_level + 5): Stock {
  return { ds, stock_level, stock_lower, stock_upper };
}

export function forecastFixture(overrides: Partial<ProductForecastResponse> = {}): ProductForecastResponse {
  return {
    report: { id: 'r1', type: 'product_forecast', title: 'Forecast for Widget', productCode: 'W-1', timestamp: '2026-01-04T00:00:00.000Z' },
    product: {
      id: 1,
      styleCode: 'W-1',
      name: 'Widget',
      currentStock: 12,
      unit: null,
      unitCost: 2.5,
      leadTimeDays: 7,
      lastCount: { units: 15, date: '2026-01-03' },
      onHand: { units: 15, countedUnits: 15, countedOn: '2026-01-03' },
    },
    historical: {
      sales: [
        { ds: '2026-01-01', y: 3 },
        { ds: '2026-01-02', y: 4 },
        { ds: '2026-01-03', y: 5 },
      ],
      stock: [
        { ds: '2026-01-02', stock_level: 20, isStockSnapshot: true, isLastSnapshot: false },
        { ds: '2026-01-03', stock_level: 15, isStockSnapshot: true, isLastSnapshot: true },
      ],
    },
    forecast: {
      sales: [
        { ds: '2026-01-04', yhat: 5, yhat_upper: 8, yhat_lower: 2, yhat_upper_80: 7, yhat_lower_80: 3 },
        { ds: '2026-01-05', yhat: 6, yhat_upper: 9, yhat_lower: 3, yhat_upper_80: 8, yhat_lower_80: 4 },
      ],
      stock: [stockPoint('2026-01-04', 10, 7, 13), stockPoint('2026-01-05', 4, -2, 10)],
    },
    backtest: [
      { ds: '2026-01-02', yhat: 3.5, yhat_upper: 6, yhat_lower: 1 },
      { ds: '2026-01-03', yhat: 4.5, yhat_upper: 7, yhat_lower: 2 },
    ],
    metrics: {
      display_window: { forecast_start: '2026-01-04' },
      model: { name: 'SES', description: 'Simple exponential smoothing.', demandClass: 'smooth', history: 'full', patterns: ['weekly'] },
      accuracy: { mase: 0.8, smape: 30, mae: 1.2, coverage95: 0.95 },
    },
    display_settings: { historical_forecast: false },
    stockouts: [],
    reorder: { reorderPoint: 20, safetyStock: 5, orderQuantity: 40, orderBy: '2026-01-04', leadTimeDays: 7, serviceLevel: 0.95 },
    activity: { recentDemand: 12, inactiveDays: 90 },
    ...overrides,
  };
}
