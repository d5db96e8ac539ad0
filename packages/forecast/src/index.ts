// Public API of @stockwise/forecast.
export type {
  BacktestRow,
  DailyPoint,
  Delivery,
  DemandClass,
  DemandPattern,
  HistoryLength,
  EventRegressor,
  ForecastError,
  ForecastErrorCode,
  ForecastRow,
  ModelSummary,
  NewItemPrior,
  CategorySeason,
  ProductForecast,
  ProductForecastInput,
  ReorderAdvice,
  SalesColumns,
  ShopClosedDay,
  StockPoint,
  StockRow,
  Stockout,
} from './types.ts';
export { isForecastError } from './types.ts';
export { forecastProduct, DEFAULT_HORIZON, DEFAULT_LEAD_TIME_DAYS, DEFAULT_SERVICE_LEVEL, DEFAULT_REVIEW_PERIOD_DAYS } from './product.ts';
export { forecastSeries, type SeriesForecast, type SeriesForecastOptions } from './series.ts';
export { createForecastPool, forecastBatch, forecastSeriesBatch, type BatchOptions, type ForecastPool, type PoolOptions, type PoolTask, type PoolTaskModule, type SeriesBatchItem } from './batch.ts';
export { classifyDemand } from './demand.ts';
export { dayLabels, dayNumber } from './dates.ts';
export { seasonalityTest, multiplicativeIndices } from './seasonality.ts';
export { nelderMead, normalQuantile } from './stats.ts';
export { COUNT_AHEAD_DAYS, STOCK_BAND_TAIL } from './stock.ts';
export { crostonRate } from './models/intermittent.ts';
export { catalogueCalendar, closedDatesBetween, firstOpenDayFrom, CATALOGUE_PROFILE, NEW_ITEM_DAYS, type CatalogueCalendar, type ClosedWeekdayInMonths, type DailyTotals, type ProductStart } from './calendar.ts';
export type { NthWeekday } from './moving-holidays.ts';
