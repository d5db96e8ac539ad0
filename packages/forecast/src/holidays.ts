import { dayNumber } from './dates.ts';
import type { EngineResult } from './engine.ts';

/** The day numbers of the valid dates among `dates` (ProductForecastInput.closedDates). */
export function closedDayNumbers(dates: readonly string[] | undefined): number[] {
  if (!Array.isArray(dates)) return [];
  return dates.map(dayNumber).filter((day) => !Number.isNaN(day));
}

/**
 * Forecast days the business is closed (a public holiday) get zero demand and a zero band. Unlike a
 * closed weekday, nothing is given back to the other days: the models never saw the holiday (its
 * past occurrences are unobserved), so their forecast for it is an ordinary day's, and the lost
 * sales of a closed day are lost. True when a closed day fell in the horizon.
 */
export function applyClosedDates(result: EngineResult, firstForecastDay: number, closedDays: readonly number[]): boolean {
  const positions = closedDays.map((day) => day - firstForecastDay).filter((j) => j >= 0 && j < result.mean.length);
  if (!positions.length) return false;
  const bands = [...result.bands.values(), ...result.continuousBands.values()];
  for (const series of new Set([result.mean, ...bands.flatMap((band) => [band.lower, band.upper])])) for (const j of positions) series[j] = 0;
  return true;
}
