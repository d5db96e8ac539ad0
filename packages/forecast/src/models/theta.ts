import { fitEts, fitInWindow, windowedModel, type EtsForm, type FitOptions } from './ets.ts';
import { forecastsAt, type Candidate } from './candidate.ts';

const SES_FORM: EtsForm = { trend: 'none', season: 'none', period: 1 };

/**
 * Standard Theta method (Assimakopoulos & Nikolopoulos 2000) in the Hyndman &
 * Billah (2003) form: SES plus a drift of half the linear-regression slope.
 * The slope is recomputed from each origin's own history.
 */
export function theta(options: FitOptions = {}): Candidate {
  return {
    name: 'Theta',
    description: 'Theta method: a smoothed level plus half the long-run trend.',
    minLength: 4,
    fit(history, end) {
      // The level runs from `start`; the drift is the whole history's.
      const { start, parameters } = options.windowed ? fitInWindow(SES_FORM, history, end, options) : { start: 0, parameters: fitEts(SES_FORM, history, end, options).parameters };
      const alpha = parameters.alpha;
      const addDrift = (levelForecast: Float64Array, seriesEnd: number, series: Float64Array): Float64Array => {
        const drift = regressionSlope(series, seriesEnd) / 2;
        const decay = (1 - (1 - alpha) ** (seriesEnd - start)) / alpha;
        for (let j = 0; j < levelForecast.length; j++) levelForecast[j] = levelForecast[j]! + drift * (j + decay);
        return levelForecast;
      };
      const level = windowedModel({ form: SES_FORM, start, parameters });
      return {
        name: 'Theta',
        predict: (series, seriesEnd, horizon) => addDrift(level.predict(series, seriesEnd, horizon), seriesEnd, series),
        predictAt: (series, ends, horizon) => forecastsAt(level, series, ends, horizon).map((forecast, i) => addDrift(forecast, ends[i]!, series)),
      };
    },
  };
}

export function regressionSlope(values: ArrayLike<number>, end: number): number {
  if (end < 2) return 0;
  const meanTime = (end - 1) / 2;
  let meanValue = 0;
  for (let t = 0; t < end; t++) meanValue += values[t]!;
  meanValue /= end;
  let covariance = 0;
  let timeVariance = 0;
  for (let t = 0; t < end; t++) {
    covariance += (t - meanTime) * (values[t]! - meanValue);
    timeVariance += (t - meanTime) ** 2;
  }
  return covariance / timeVariance;
}
