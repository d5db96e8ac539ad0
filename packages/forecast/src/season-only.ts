// Items that sell in one season of the year and not outside it (a Christmas item). Rolling-origin
// validation cannot choose for them: its windows are the weeks before the forecast, before the
// season, where every model forecasts about nothing. Combined with level models, last year's
// season came out at half its size and went on selling through the off-season (ADR 0126).
import { dayNumber, formatDay, monthDayText } from './dates.ts';
import type { EngineResult } from './engine.ts';
import type { Candidate } from './models/candidate.ts';
import { poissonQuantile } from './short.ts';

const YEAR_DAYS = 365;
// The season: at most thirteen weeks of the year…
const SEASON_DAYS = 91;
// …holding nine tenths of the year's units, in each of the last two years…
const SEASON_SHARE = 0.9;
// …which sold enough for the share to mean something (a handful of units can fall anywhere).
const MIN_SEASON_UNITS = 20;
const SEASON_MARGIN_DAYS = 7;
// One season is enough when the history cannot reach the one before (a shop's first year) and the
// next has begun on time: units sold in the last two weeks, on days within last year's season a year on.
const RESTART_DAYS = 14;
const MIN_RESTART_UNITS = 3;

/**
 * Where a season-only item's season lies: from its first day with sales in either of its last two
 * seasons (counted from the first of the history's last 365 days, the year read as a circle) for
 * `days` days, to its last. A day the business was closed is no day with sales (its value is imputed).
 */
export type Season = { start: number; days: number };

/**
 * The season of the daily `values` (oldest first, ending the day before the forecast) when they show
 * an item sold only in its season, else null: in the last 365 days, 13 consecutive weeks (across the
 * new year too) held 90 % of the units, and the same weeks a year earlier held 90 % of that year's.
 * Two seasons must agree — or, where the history does not reach back into the earlier one, the
 * next season must have begun on time (ADR 0146): a burst that never came back is not a season.
 */
export function seasonOf(values: Float64Array, isClosed: (t: number) => boolean = () => false): Season | null {
  const n = values.length;
  if (n < YEAR_DAYS) return null;
  const lastYearStart = n - YEAR_DAYS;
  const dayOf = (start: number, i: number) => start + (i % YEAR_DAYS);
  const unitsOf = (start: number, from: number, days: number) => {
    let sum = 0;
    // Days before the history (a negative index) read as undefined: nothing known, nothing sold.
    for (let i = from; i < from + days; i++) sum += values[dayOf(start, i)] ?? 0;
    return sum;
  };
  const lastYear = unitsOf(lastYearStart, 0, YEAR_DAYS);
  if (lastYear < MIN_SEASON_UNITS) return null;
  // The thirteen weeks holding the most units, the year read as a circle.
  let window = unitsOf(lastYearStart, 0, SEASON_DAYS);
  let best = window;
  let bestStart = 0;
  for (let s = 1; s < YEAR_DAYS; s++) {
    window += values[dayOf(lastYearStart, s + SEASON_DAYS - 1)]! - values[dayOf(lastYearStart, s - 1)]!;
    if (window > best) [best, bestStart] = [window, s];
  }
  if (best < SEASON_SHARE * lastYear) return null;
  // The same weeks a year earlier, at least half of them within the history (a history starts at
  // the first sale, so an earlier season's first days can be just before it).
  const yearBeforeStart = lastYearStart - YEAR_DAYS;
  let known = 0;
  for (let i = bestStart; i < bestStart + SEASON_DAYS; i++) if (dayOf(yearBeforeStart, i) >= 0) known++;
  if (known < SEASON_DAYS / 2) {
    if (!restartedOnTime(values, bestStart)) return null;
  } else {
    let yearBefore = 0;
    for (let t = Math.max(0, yearBeforeStart); t < lastYearStart; t++) yearBefore += values[t]!;
    const seasonBefore = unitsOf(yearBeforeStart, bestStart, SEASON_DAYS);
    if (seasonBefore < MIN_SEASON_UNITS || seasonBefore < SEASON_SHARE * yearBefore) return null;
  }
  // The thirteen weeks are a bound: the season itself is the days between its first and last sales.
  let first = -1;
  let last = -1;
  const sold = (t: number) => (values[t] ?? 0) > 0 && !isClosed(t);
  const soldEitherYear = (i: number) => sold(dayOf(lastYearStart, (i + YEAR_DAYS) % YEAR_DAYS)) || sold(dayOf(yearBeforeStart, (i + YEAR_DAYS) % YEAR_DAYS));
  for (let i = bestStart; i < bestStart + SEASON_DAYS; i++) {
    if (!soldEitherYear(i)) continue;
    if (first < 0) first = i;
    last = i;
  }
  // A season of thirteen weeks and a few days more runs past the weeks that hold the most units: it
  // starts on its first day of a run of selling days, not where those weeks do (1 September, not
  // the 4th, for bulbs whose season this year sold until 3 December; QA5 #17). A week at most: an
  // off-season trickle on every day is no part of the season.
  while (first > bestStart - SEASON_MARGIN_DAYS && soldEitherYear(first - 1)) first--;
  while (last < bestStart + SEASON_DAYS - 1 + SEASON_MARGIN_DAYS && soldEitherYear(last + 1)) last++;
  return { start: (first + YEAR_DAYS) % YEAR_DAYS, days: last - first + 1 };
}

/**
 * The last two weeks sold at least a few units, every one on a day within the 13 weeks from
 * `seasonStart` (last year's season, counted from the first of the last 365 days, read a year on)
 * or in the three weeks before them.
 */
function restartedOnTime(values: Float64Array, seasonStart: number): boolean {
  const n = values.length;
  let units = 0;
  for (let t = n - RESTART_DAYS; t < n; t++) {
    const sold = values[t]!;
    if (sold <= 0) continue;
    const position = (t - (n - YEAR_DAYS) - seasonStart + YEAR_DAYS) % YEAR_DAYS;
    // Up to three weeks early: last year's season may have begun before the history did (a shop's
    // first export starts at its first sale).
    if (position >= SEASON_DAYS && position < YEAR_DAYS - RESTART_DAYS - SEASON_MARGIN_DAYS) return false;
    units += sold;
  }
  return units >= MIN_RESTART_UNITS;
}

export const isSeasonOnly = (values: Float64Array): boolean => seasonOf(values) !== null;

/** The index, in a history of `historyDays` days, of the first day of the item's last season. */
export const lastSeasonStart = (season: Season, historyDays: number): number => historyDays - YEAR_DAYS + season.start;

/** A season by its calendar dates, month-days 'MM-DD' from its first selling day to its last ('to' before 'from': across the new year). */
export type SeasonDates = { from: string; to: string };

/**
 * A category's season (CatalogueCalendar.categorySeasons) and, where its history holds the season's
 * days, how its sales rise and fall through it: `shape[k]` for the k-th day from `from`, mean 1.
 */
export type CategorySeasonDates = SeasonDates & { shape?: number[] };

/** The day of the season (0 on its first date) that day number `day` is, on the season's dates. */
export function seasonDayOf({ from }: SeasonDates, day: number): number {
  const year = Number(formatDay(day).slice(0, 4));
  const start = dayNumber(`${year}-${from}`);
  return start <= day ? day - start : day - dayNumber(`${year - 1}-${from}`);
}

/** The month-days of the season's first and last selling days, in a history of `historyDays` days from day number `firstDay`. */
export function seasonDatesOf(season: Season, firstDay: number, historyDays: number): SeasonDates {
  const first = lastSeasonStart(season, historyDays);
  const last = historyDays - YEAR_DAYS + ((season.start + season.days - 1) % YEAR_DAYS);
  return { from: formatDay(firstDay + first).slice(5), to: formatDay(firstDay + last).slice(5) };
}

/** Whether a month-day ('MM-DD') falls on the season's dates, in any year. */
export const withinSeasonDates = ({ from, to }: SeasonDates, monthDay: string): boolean => (from <= to ? monthDay >= from && monthDay <= to : monthDay >= from || monthDay <= to);

/**
 * The season's dates in a buyer's words: "20 Nov–24 Dec". Days, not months: a season that ran to
 * 3 December, said "Sep–Dec", read as selling through a December forecast at zero (QA5 #17).
 */
export const seasonDatesText = (dates: SeasonDates): string => (dates.from === dates.to ? monthDayText(dates.from) : `${monthDayText(dates.from)}–${monthDayText(dates.to)}`);

/**
 * Whether day `t` of a history of `historyDays` days from day number `firstDay` (t past its end too:
 * the forecast's days) falls on the season's dates, from its first selling day to its last, in any year.
 * By the calendar, not 365 days on: a 29 February in between would move a season ending on Christmas
 * Eve to the 23rd. A season across the new year runs from its first date to the end of the year and on.
 */
export function onSeasonDates(season: Season, firstDay: number, historyDays: number): (t: number) => boolean {
  const dates = seasonDatesOf(season, firstDay, historyDays);
  return (t) => withinSeasonDates(dates, formatDay(firstDay + t).slice(5));
}

// A category season whose days differ from its average day by more than a tenth is said to rise and fall.
const UNEVEN_SEASON = 0.1;

/**
 * A forecast from too little history of the product's own (a new product's prior, a short history's
 * average day), in a category that sells in one season only: nothing, with no band, on the days
 * outside the category's season, as its products with history are forecast (ADR 0146, amended).
 * A new Christmas tree added on 4 December otherwise sold its prior's 29 a day through January (QA5 #18).
 * Within the season it follows the category's shape where known: the prior is a season's average
 * day, a short history's average that of the season's days it was sold on (`historyDays`, day numbers).
 */
export function withinCategorySeason(result: EngineResult, season: CategorySeasonDates & { category: string }, firstForecastDay: number, historyDays: number[]): void {
  const shapeAt = (day: number) => season.shape![Math.min(season.shape!.length - 1, seasonDayOf(season, day))]!;
  const soldInSeason = historyDays.filter((day) => withinSeasonDates(season, formatDay(day).slice(5)));
  const reference = season.shape && soldInSeason.length ? soldInSeason.reduce((sum, day) => sum + shapeAt(day), 0) / soldInSeason.length : 1;
  const bands = [...new Set([...result.bands.values(), ...result.continuousBands.values()])];
  for (let j = 0; j < result.mean.length; j++) {
    const day = firstForecastDay + j;
    const factor = !withinSeasonDates(season, formatDay(day).slice(5)) ? 0 : season.shape && reference > 0 ? shapeAt(day) / reference : 1;
    if (factor === 1) continue;
    result.mean[j] = result.mean[j]! * factor;
    // Whole-unit bounds stay whole, rounded outward.
    for (const band of bands) {
      band.lower[j] = Number.isInteger(band.lower[j]) ? Math.floor(band.lower[j]! * factor + 1e-9) : band.lower[j]! * factor;
      band.upper[j] = Number.isInteger(band.upper[j]) ? Math.ceil(band.upper[j]! * factor - 1e-9) + 0 : band.upper[j]! * factor;
    }
  }
  // A season the category sells evenly through reads as before.
  const shaped = season.shape?.some((value) => Math.abs(value - 1) > UNEVEN_SEASON) ? ' Within them it rises and falls as the category sells.' : '';
  result.description += ` New product in a seasonal category: ${season.category} sells ${seasonDatesText(season)} only, so nothing is forecast outside those dates.${shaped}`;
}

/**
 * A season-only item whose history is too short to validate last year's season on (a shop's first
 * year, ADR 0146): the season repeated as `candidate` gives it, its bands a count's spread
 * (atLeastPoissonSpread widens them from the forecast itself; no backtest to widen them more).
 */
export function repeatedSeason(candidate: Candidate, values: Float64Array, horizon: number, levels: number[]): EngineResult {
  const mean = candidate
    .fit(values, values.length)
    .predict(values, values.length, horizon)
    .map((value) => (Number.isFinite(value) ? Math.max(0, value) : 0));
  const bands = new Map(levels.map((level) => [level, { lower: mean.slice(), upper: mean.slice() }]));
  return { modelName: candidate.name, description: candidate.description, mean, bands, continuousBands: bands, validation: null };
}

/**
 * Widens each day's bands to at least the Poisson spread of its forecast. A season-only item's
 * validation windows are the quiet weeks before its season, whose errors are about zero: the
 * season's days would otherwise get bands as narrow, as if its daily count were certain.
 */
export function atLeastPoissonSpread(result: EngineResult): void {
  for (const bands of new Set([result.bands, result.continuousBands])) {
    for (const [level, band] of bands) {
      const tail = (1 - level) / 2;
      for (let j = 0; j < result.mean.length; j++) {
        const mean = result.mean[j]!;
        if (mean <= 0) continue;
        band.lower[j] = Math.min(band.lower[j]!, poissonQuantile(mean, tail));
        band.upper[j] = Math.max(band.upper[j]!, poissonQuantile(mean, 1 - tail));
      }
    }
  }
}

/**
 * Bands outside the season: the days off the season's dates (`onSeason`, onSeasonDates) that the
 * forecast holds nothing on get the spread of the item's own off-season days, two years of them at
 * most — for a Christmas item, none at all, from Christmas Day on. The chosen model's bands there come
 * from validation windows around the season's start and grow with the horizon: by late January they
 * read "one a day" at 80 % for an item that had not sold in January or February in two years.
 */
export function offSeasonBands(result: EngineResult, values: Float64Array, season: Season, onSeason: (t: number) => boolean): void {
  const lastYearStart = values.length - YEAR_DAYS;
  // The spread is read a week or more from the season: a season that ended a few days late sold on
  // the days just past last year's end, which are not off-season days.
  const outOfSeason = (t: number) => {
    const position = (((t - lastYearStart - season.start + SEASON_MARGIN_DAYS) % YEAR_DAYS) + YEAR_DAYS) % YEAR_DAYS;
    return position >= season.days + 2 * SEASON_MARGIN_DAYS;
  };
  const offSeason: number[] = [];
  for (let t = Math.max(0, values.length - 2 * YEAR_DAYS); t < values.length; t++) if (outOfSeason(t)) offSeason.push(Math.max(0, values[t]!));
  offSeason.sort((a, b) => a - b);
  const quantile = (p: number) => offSeason[Math.min(offSeason.length - 1, Math.floor(p * offSeason.length))] ?? 0;
  for (const bands of new Set([result.bands, result.continuousBands])) {
    for (const [level, band] of bands) {
      const upper = quantile(1 - (1 - level) / 2);
      for (let j = 0; j < result.mean.length; j++) {
        if (result.mean[j]! > 0 || onSeason(values.length + j)) continue;
        band.lower[j] = 0;
        band.upper[j] = upper;
      }
    }
  }
}
