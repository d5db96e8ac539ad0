export { forecastSeries, type SeriesForecast, type SeriesForecastOptions } from './series.ts';
export { seasonalityTest, multiplicativeIndices } from './seasonality.ts';
export { crostonRate } from './models/intermittent.ts';
