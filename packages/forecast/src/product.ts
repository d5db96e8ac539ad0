import { NEW_ITEM_DAYS, PROFILE_DAYS } from './calendar.ts';
import { applyClosedDays, closedWeekdaysOf } from './closed.ts';
import { applyClosedDates, closedDayNumbers, closuresAhead, isClosedWeekdayInMonths, isShopClosedDay, shopClosedDays } from './holidays.ts';
import { isNthWeekdayRule } from './moving-holidays.ts';
import { followPooledYear, POOLED_YEARLY_MIN_DAYS, pooledYearly, yearlyIndex } from './pooled.ts';
import { dayLabels, dayNumber, weekdayOf } from './dates.ts';
import { buildDemandHistory, classifyDemand, MAX_HISTORY_DAYS, eventUplifts, salesCount, type DemandHistory } from './demand.ts';
import { calibratedInflation, selectAndForecast, type EngineResult } from './engine.ts';
import type { Candidate } from './models/candidate.ts';
import { ets, NON_SEASONAL_FORMS, type EtsForm, type FitOptions } from './models/ets.ts';
import { croston, imapa, tsb } from './models/intermittent.ts';
import { seasonalNaive, yearlyNaive } from './models/naive.ts';
import { atLeastPoissonSpread, lastSeasonStart, offSeasonBands, repeatedSeason, seasonCalendarOf, seasonOf, seasonText, withinCategorySeason, type Season } from './season-only.ts';
import { MIN_MODEL_DAYS, newProductForecast, shortHistoryForecast } from './short.ts';
import { theta } from './models/theta.ts';
import { deseasonalized, POOLED_WEEKDAYS, pooledWeekdays, seasonalityTest, withYearlyFourier } from './seasonality.ts';
import { dailySigmas, deliveriesByDay, findStockouts, projectStock, reorderAdvice, stockAtHistoryEnd, type SeasonSpan } from './stock.ts';
import type { BacktestRow, DemandClass, DemandPattern, ForecastError, ForecastRow, HistoryLength, ProductForecast, ProductForecastInput, SalesColumns } from './types.ts';

export const DEFAULT_HORIZON = 90;
export const DEFAULT_LEAD_TIME_DAYS = 14;
export const DEFAULT_SERVICE_LEVEL = 0.95;
export const DEFAULT_REVIEW_PERIOD_DAYS = 30;
const MAX_HORIZON = 3 * 365;
const LEVELS = [0.8, 0.95];
const DAY_MS = 86_400_000;
const WEEK = 7;
// Weekly and yearly waves need this much history before Fourier terms are trusted.
const YEARLY_MIN_DAYS = 548;
// Last year's same weeks plus the eight weeks of validation before the forecast.
const YEARLY_NAIVE_MIN_DAYS = 364 + 8 * 7 + 28;
// The weekday pattern as Holt–Winters' additive season. A multiplicative form competed with it by
// AICc for a sixth of a product's fitting time, and validation did not miss it: the weekday-adjusted
// candidates already scale the pattern with the level (ADR 0121). The damped seasonal forms cost
// twice as much, and trend is already covered by the damped candidates.
const HOLT_WINTERS: EtsForm = { trend: 'none', season: 'additive', period: WEEK };
// Fits stop at 0.06 % agreement instead of 0.01 %: 0.03 % saved a tenth of a catalogue run's thread
// time (ADR 0112), 0.06 % a tenth of the evaluations left, with the validation scores of M5 and the
// demo data unchanged (ADR 0121; 0.1 % made M5's worse). Generic series (M4, tourism) keep the default.
const DAILY_FIT: FitOptions = { tolerance: 6e-4 };

/**
 * Candidate models by demand class. Frequent sellers get the exponential-smoothing
 * family, Theta and seasonal naive, with the weekday pattern (and the yearly
 * wave when there is enough history); items that sell on some days only get
 * the intermittent-demand methods, which forecast a rate instead of chasing
 * zeros.
 */
export function productCandidates(values: Float64Array, demandClass: DemandClass, pooledIndex?: Float64Array, weekdayPattern?: Float64Array): Candidate[] {
  const intermittent = demandClass === 'intermittent' || demandClass === 'lumpy';
  // Sold on some days only, an item's own weekday averages are mostly chance: its category's (or the
  // catalogue's) pattern is put on its weekday-adjusted candidates instead, whatever its own test says
  // (ADR 0198 F11). Validation still chooses between them and the flat rates.
  const pooledWeek = intermittent ? weekdayPattern : undefined;
  const weekly = pooledWeek !== undefined || seasonalityTest(values, WEEK);
  const [ses, , damped] = NON_SEASONAL_FORMS.map((form) => ets(form, DAILY_FIT)) as [Candidate, Candidate, Candidate];
  const seasonal = (candidate: Candidate): Candidate => (pooledWeek ? pooledWeekdays(candidate, pooledWeek) : weekly ? deseasonalized(candidate, [WEEK]) : candidate);
  // Over a year of history: last year's season competes, for seasonal-only and intermittent items too.
  const yearly = values.length >= YEARLY_NAIVE_MIN_DAYS ? [yearlyNaive()] : [];
  // The category's yearly pattern at the product's level, for histories too short or noisy for their own.
  if (pooledIndex && values.length >= POOLED_YEARLY_MIN_DAYS) yearly.push(seasonal(pooledYearly(pooledIndex)));
  if (intermittent) {
    return [croston('SBA'), tsb(), imapa(), ses, ...(weekly ? [seasonal(tsb()), seasonal(ses)] : []), ...yearly];
  }
  const candidates: Candidate[] = [seasonal(ses), seasonal(damped), seasonal(theta({ ...DAILY_FIT, windowed: true }))];
  if (weekly) candidates.push(seasonalNaive(WEEK), ets(HOLT_WINTERS, DAILY_FIT));
  if (values.length >= YEARLY_MIN_DAYS) candidates.push(seasonal(withYearlyFourier(damped)));
  candidates.push(...yearly);
  return candidates;
}

function invalid(message: string): ForecastError {
  return { error: message, code: 'invalid_input' };
}

function positiveInteger(value: number | undefined, fallback: number, name: string, max: number): number | ForecastError {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) return invalid(`${name} must be an integer from 1 to ${max}.`);
  return value;
}

/**
 * One product, end to end. Every failure is returned as a ForecastError value:
 * a catalogue run must not stop because one product has bad data.
 */
export function forecastProduct(input: ProductForecastInput): ProductForecast | ForecastError {
  try {
    return forecastProductUnsafe(input);
  } catch (error) {
    return { error: `Forecast failed: ${error instanceof Error ? error.message : String(error)}`, code: 'internal' };
  }
}

function forecastProductUnsafe(input: ProductForecastInput): ProductForecast | ForecastError {
  if (!input || !(Array.isArray(input.sales) || isSalesColumns(input.sales))) return invalid('sales must be an array of { ds, y } or columns { firstDay, days, units }.');
  const horizon = positiveInteger(input.horizon, DEFAULT_HORIZON, 'horizon', MAX_HORIZON);
  if (typeof horizon !== 'number') return horizon;
  const leadTimeDays = positiveInteger(input.leadTimeDays, DEFAULT_LEAD_TIME_DAYS, 'leadTimeDays', 365);
  if (typeof leadTimeDays !== 'number') return leadTimeDays;
  const reviewPeriodDays = positiveInteger(input.reviewPeriodDays, DEFAULT_REVIEW_PERIOD_DAYS, 'reviewPeriodDays', 365);
  if (typeof reviewPeriodDays !== 'number') return reviewPeriodDays;
  if (input.closedDates !== undefined && !(Array.isArray(input.closedDates) && closedDayNumbers(input.closedDates).length === input.closedDates.length)) {
    return invalid('closedDates must be a list of YYYY-MM-DD dates.');
  }
  const shopClosed = input.shopClosedDates;
  if (shopClosed !== undefined && !(Array.isArray(shopClosed) && shopClosed.every(isShopClosedDay))) {
    return invalid('shopClosedDates must be a list of { date: YYYY-MM-DD, note?: text }.');
  }
  const shopDays = shopClosedDays(shopClosed);
  // The shop's days are closed whether or not the caller also listed them among closedDates.
  const closedDates = shopDays.size ? [...new Set([...(input.closedDates ?? []), ...shopClosed!.map((day) => day.date)])] : input.closedDates;
  const businessWeekdays = input.closedWeekdays;
  if (businessWeekdays !== undefined && !(Array.isArray(businessWeekdays) && businessWeekdays.every((weekday) => Number.isInteger(weekday) && weekday >= 0 && weekday <= 6))) {
    return invalid('closedWeekdays must be a list of weekdays from 0 (Sunday) to 6 (Saturday).');
  }
  const weekdaysInMonths = input.closedWeekdaysInMonths ?? [];
  if (!(Array.isArray(weekdaysInMonths) && weekdaysInMonths.every(isClosedWeekdayInMonths))) {
    return invalid('closedWeekdaysInMonths must be a list of { weekday: 0 (Sunday) to 6, months: 1 to 12 }.');
  }
  const nthWeekdays = input.closedNthWeekdays ?? [];
  if (!(Array.isArray(nthWeekdays) && nthWeekdays.every(isNthWeekdayRule))) {
    return invalid("closedNthWeekdays must be a list of { month: 1 to 12, weekday: 0 (Sunday) to 6, nth: 1 to 4 or 'last', onOrBefore?: 7 to the month's last day (with 'last'), offset?: -6 to 6 days }.");
  }
  const profile = input.yearlyProfile;
  if (profile !== undefined && !(Array.isArray(profile) && profile.length === PROFILE_DAYS && profile.every((value) => typeof value === 'number' && value >= 0 && Number.isFinite(value)))) {
    return invalid(`yearlyProfile must be ${PROFILE_DAYS} non-negative numbers.`);
  }
  const weekdayProfile = input.weekdayProfile;
  if (weekdayProfile !== undefined && !(Array.isArray(weekdayProfile) && weekdayProfile.length === WEEK && weekdayProfile.every((value) => typeof value === 'number' && value >= 0 && Number.isFinite(value)))) {
    return invalid(`weekdayProfile must be ${WEEK} non-negative numbers, from Sunday.`);
  }
  const prior = input.newItemPrior;
  if (prior !== undefined && !(prior && ['category', 'catalogue'].includes(prior.scope) && Array.isArray(prior.rates) && prior.rates.every((rate) => typeof rate === 'number' && rate >= 0 && Number.isFinite(rate)))) {
    return invalid("newItemPrior must be { rates: non-negative numbers, scope: 'category' or 'catalogue' }.");
  }
  const categorySeason = input.categorySeason;
  const monthDay = (value: unknown) => typeof value === 'string' && /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value);
  const shape = categorySeason?.shape;
  const validShape = shape === undefined || (Array.isArray(shape) && shape.length > 0 && shape.length <= PROFILE_DAYS && shape.every((value) => typeof value === 'number' && value >= 0 && Number.isFinite(value)));
  if (categorySeason !== undefined && !(categorySeason && typeof categorySeason.category === 'string' && monthDay(categorySeason.from) && monthDay(categorySeason.to) && validShape)) {
    return invalid("categorySeason must be { category, from: 'MM-DD', to: 'MM-DD', shape?: up to 366 non-negative numbers }.");
  }
  for (const term of ['orderMultiple', 'minOrderQuantity', 'orderStep'] as const) {
    const value = input[term];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) return invalid(`${term} must be a number above 0.`);
  }
  const serviceLevel = input.serviceLevel ?? DEFAULT_SERVICE_LEVEL;
  if (typeof serviceLevel !== 'number' || !(serviceLevel > 0 && serviceLevel < 1)) return invalid('serviceLevel must be between 0 and 1 (exclusive).');

  const history = salesCount(input.sales) === 0 ? unsoldHistory(input.today, input.listedSince) : buildDemandHistory({ ...input, closedDates });
  if ('error' in history) return invalid(history.error);
  // Closed days are not days without demand: they neither make a product look intermittent nor score a model.
  const closed = closedWeekdaysOf(history.values, history.observed, history.firstDay, businessWeekdays);
  const openDays = closed.some(Boolean) ? history.observed.map((seen, t) => (closed[t % 7] ? 0 : seen)) : history.observed;
  const { demandClass } = classifyDemand(history.values, openDays);
  const historyLength: HistoryLength = history.values.length === 0 ? 'none' : history.values.length < MIN_MODEL_DAYS ? 'short' : 'full';
  const wholeUnits = input.soldByMeasure !== true && inWholeUnits(history);
  // A short history's average day is an open day's: its closed days are not days without demand
  // (three days from Thursday to Saturday are not a week). Only a product sold on closed days alone
  // is averaged over them.
  const averagesOpenDays = openDays.some(Boolean);
  // An order due on the horizon's last day covers its lead time and review period after it: demand
  // is forecast that far for the advice (else an order due late is cut at the horizon and a longer
  // look orders more), and shown, stored and projected over the horizon only.
  const adviceDays = horizon + leadTimeDays + reviewPeriodDays;
  const unmodelled = historyLength === 'none' ? newProductForecast(adviceDays, LEVELS, prior) : shortHistoryForecast(history.values, averagesOpenDays ? openDays : history.observed, adviceDays, LEVELS, wholeUnits, history.soldOutUnits);
  // Too little history for the models: the days the business is closed are still closed. A new
  // product's prior is per calendar day, so its closed days' share goes to the open days.
  if (unmodelled) applyClosedDays(unmodelled, closed, history.values.length, wholeUnits, { keepTotal: historyLength === 'none' || !averagesOpenDays, totalDays: horizon });
  // Too little history for a season of its own: its category's, where that sells in one season only.
  if (unmodelled && categorySeason && historyLength !== 'full') {
    const soldOn = Array.from(history.values.keys()).flatMap((t) => (openDays[t] ? [history.firstDay + t] : []));
    withinCategorySeason(unmodelled, categorySeason, history.firstDay + history.values.length, soldOn);
  }
  // Too little history for a year of its own: its category's (or the catalogue's), from the level of the days averaged (ADR 0201 F10).
  const averaged = averagesOpenDays ? openDays : history.observed;
  const followsYear =
    unmodelled !== null && !categorySeason && profile !== undefined && historyLength === 'short' && unmodelled.mean.some((units) => units > 0) &&
    followPooledYear(unmodelled, profile, { firstDay: history.firstDay, days: history.values.length }, Array.from(history.values.keys()).filter((t) => averaged[t]));
  const closedDays = new Set(closedDayNumbers(closedDates));
  const { result, season } = unmodelled ? { result: unmodelled, season: null } : forecastDemand({ ...history, observed: openDays }, { horizon: adviceDays, shown: horizon }, demandClass, eventUplifts(input.regressors?.events ?? [], history), closed, closedDays, { yearly: profile, weekdays: weekdayProfile }, input.soldByMeasure === true);

  const lastHistoryDay = history.firstDay + history.values.length - 1;
  const closedAhead = applyClosedDates(result, lastHistoryDay + 1, [...closedDays]);
  const closures = closuresAhead(
    closedAhead.filter((day) => day <= lastHistoryDay + horizon),
    weekdaysInMonths,
    shopDays,
    nthWeekdays,
    businessWeekdays ?? [],
  );
  const forecast: ForecastRow[] = [];
  const band95 = result.bands.get(0.95)!;
  const band80 = result.bands.get(0.8)!;
  const days = dayLabels(lastHistoryDay + 1, adviceDays);
  for (let j = 0; j < adviceDays; j++) {
    forecast.push({
      ds: days[j]!,
      yhat: result.mean[j]!,
      yhat_lower: band95.lower[j]!,
      yhat_upper: band95.upper[j]!,
      yhat_lower_80: band80.lower[j]!,
      yhat_upper_80: band80.upper[j]!,
    });
  }

  const deliveries = deliveriesByDay(input.deliveries);
  const recordedSalesFrom = (fromDay: number): number => {
    let sum = 0;
    for (let t = Math.max(0, fromDay - history.firstDay); t < history.values.length; t++) if (history.observed[t]) sum += history.values[t]!;
    return sum;
  };
  const start = stockAtHistoryEnd(input.stock, input.deliveries, recordedSalesFrom, lastHistoryDay);
  const sigmas = dailySigmas(forecast, result.continuousBands.get(0.95)!.upper, result.validation ? calibratedInflation(0.95) : 1);
  const projection = start ? projectStock(start, forecast, deliveries, sigmas, result.validation?.errorCorrelation) : [];
  const stock = projection.slice(0, horizon);
  return {
    forecast: forecast.slice(0, horizon),
    backtest: backtestRows(result, history),
    stock,
    stockouts: start ? findStockouts(start, stock) : [],
    model: {
      name: result.modelName,
      description: `${season ? seasonDescription(season, history) : result.description}${closures.description}`,
      // Not one sale: no way it sells to describe (its description says so).
      demandClass: history.values.some((units) => units > 0) ? demandClass : 'none',
      history: historyLength,
      // The patterns a chosen model found; a history too short or too empty for one has only the closed days (and the year it borrows).
      patterns: [...new Set([...(unmodelled ? [...closedPatternOf(closed), ...(followsYear ? (['yearly'] as const) : [])] : patternsOf(result.modelName, demandClass, closed, season !== null)), ...closures.patterns])],
      backtest: {
        mase: finiteOrNull(result.validation?.mase),
        smape: finiteOrNull(result.validation?.smape),
        mae: finiteOrNull(result.validation?.mae),
        ...(result.validation ? { coverage95: finiteOrNull(result.validation.coverage) } : {}),
      },
    },
    reorder: reorderAdvice({ forecast, continuousUpper95: result.continuousBands.get(0.95)!.upper, start, projection, orderDays: horizon, deliveries, leadTimeDays, serviceLevel, reviewPeriodDays, wholeUnits, supplier: { orderMultiple: input.orderMultiple, minOrderQuantity: input.minOrderQuantity }, ...(input.orderStep !== undefined ? { orderStep: input.orderStep } : {}), ...(season ? { season: seasonDates(season, history) } : {}), isClosed: (day) => closed[(((day - history.firstDay) % 7) + 7) % 7]! || closedDays.has(day) }),
  };
}

const closedPatternOf = (closed: boolean[]): DemandPattern[] => (closed.some(Boolean) ? ['closed_days'] : []);

/**
 * The patterns behind a forecast, read from the chosen model (a combination has those of its
 * members): closed weekdays, the weekday shape, the yearly wave, a trend, sales on some days only.
 * An item sold in its season only has that one: its days without sales are the off-season, not
 * small, scattered demand (QA m9).
 */
function patternsOf(modelName: string, demandClass: DemandClass, closed: boolean[], seasonOnly: boolean): DemandPattern[] {
  const patterns = closedPatternOf(closed);
  if (seasonOnly) return [...patterns, 'season_only'];
  if (/Seasonal\(7\)|SeasonalNaive|ETS\(A,\w+,[AM]\)/.test(modelName) || modelName.includes(`+${POOLED_WEEKDAYS}`)) patterns.push('weekly');
  if (/Yearly/.test(modelName)) patterns.push('yearly');
  if (/ETS\(A,Ad?,/.test(modelName)) patterns.push('trend');
  if (demandClass === 'intermittent' || demandClass === 'lumpy') patterns.push('intermittent');
  return patterns;
}

/** The season's first and last selling days as the last 365 days place them, and its dates in any year, by day number. */
function seasonDates(season: Season, history: DemandHistory): SeasonSpan {
  const from = history.firstDay + lastSeasonStart(season, history.values.length);
  const calendar = seasonCalendarOf(season, history.firstDay, history.values.length);
  // A bound that moves with Easter: the last season's own first and last days, not the two years' widest.
  const [first, last] = calendar.spanOf(from) ?? [from, from + season.days - 1];
  return { from: first, to: last, isOn: (day) => calendar.isOn(day - history.firstDay) };
}

/** A season-only item's forecast in a buyer's words, with the days its last season ran: "Sells in its season only (20 Nov–24 Dec): …". */
function seasonDescription(season: Season, history: DemandHistory): string {
  const dates = seasonText(season, history.firstDay, history.values.length);
  return `Sells in its season only (${dates}): the forecast follows last year's season, scaled to this year's level, and is zero outside it.`;
}

function isSalesColumns(sales: unknown): sales is SalesColumns {
  if (typeof sales !== 'object' || sales === null) return false;
  const { firstDay, days, units } = sales as Partial<SalesColumns>;
  return Number.isInteger(firstDay) && days !== undefined && units !== undefined && Number.isInteger(days.length) && days.length === units.length;
}

/** JSON has no NaN or Infinity: a figure that could not be measured is null. */
const finiteOrNull = (value: number | undefined): number | null => (value !== undefined && Number.isFinite(value) ? value : null);

/**
 * A product without sales rows. Listed for NEW_ITEM_DAYS or more without a sale, it is not new but
 * unsold: those days are its history, every one a day without a sale (ADR 0108, amended). Else, a
 * new product: no days of history, ending the day before `today`.
 */
function unsoldHistory(today: string | undefined, listedSince: string | undefined): DemandHistory | { error: string } {
  const day = today === undefined ? Math.floor(Date.now() / DAY_MS) : dayNumber(today);
  if (Number.isNaN(day)) return { error: `today is not a valid YYYY-MM-DD date: ${String(today)}` };
  const listed = listedSince === undefined ? day : dayNumber(listedSince);
  if (Number.isNaN(listed)) return { error: `listedSince is not a valid YYYY-MM-DD date: ${String(listedSince)}` };
  const days = Math.min(day - listed, MAX_HISTORY_DAYS);
  if (days < NEW_ITEM_DAYS) return { firstDay: day, values: new Float64Array(0), observed: new Uint8Array(0) };
  return { firstDay: day - days, values: new Float64Array(days), observed: new Uint8Array(days).fill(1) };
}

/**
 * Event days are divided by their uplift before fitting, so a promotion does not
 * look like a level shift, and multiplied back on future event days. Closed
 * weekdays (`closed`, by history index mod 7) are forecast zero.
 */
function forecastDemand(
  history: DemandHistory,
  { horizon, shown }: { horizon: number; shown: number },
  demandClass: DemandClass,
  uplifts: Map<number, number>,
  closed: boolean[],
  closedDays: ReadonlySet<number>,
  profiles: { yearly: number[] | undefined; weekdays: number[] | undefined },
  soldByMeasure: boolean,
): { result: EngineResult; season: Season | null } {
  const values = history.values.slice();
  if (uplifts.size > 0) for (let t = 0; t < values.length; t++) values[t] = values[t]! / (uplifts.get(history.firstDay + t) || 1);
  const intermittent = demandClass === 'intermittent' || demandClass === 'lumpy';
  const pooledIndex = profiles.yearly ? yearlyIndex(profiles.yearly, history.firstDay, values.length + horizon) : undefined;
  const weekdayPattern = profiles.weekdays ? weekdayPatternOf(profiles.weekdays, closed, history.firstDay) : undefined;
  const wholeUnits = !soldByMeasure && inWholeUnits(history);
  // Sold in its season only: last year's season is the forecast, which validation before the season cannot choose.
  const isClosed = (t: number) => closedDays.has(history.firstDay + t);
  const season = seasonOf(values, isClosed, history.firstDay);
  const calendar = season ? seasonCalendarOf(season, history.firstDay, values.length) : undefined;
  const onSeason = calendar?.isOn;
  const candidates = calendar ? [yearlyNaive({ onSeason, isClosed, yearBack: calendar.yearBack })] : productCandidates(values, demandClass, pooledIndex, weekdayPattern);
  const selected = selectAndForecast(values, candidates, {
    horizon,
    // The horizon shown's: the days forecast past it for an order's cover change nothing shown.
    validationHorizon: Math.min(shown, 28),
    origins: 8,
    originStep: WEEK,
    levels: LEVELS,
    nonNegative: true,
    score: intermittent || demandClass === 'erratic' ? 'rmse' : 'mae',
    observed: history.observed,
    scalePeriod: 1,
    combineTop: 3,
    // One widening for every product, the one set on M4: what needed a
    // widening of its own for slow sellers was whole units (ADR 0104).
    intervalInflation: calibratedInflation,
    wholeUnits,
    refitFinal: false,
  });
  // One season and the next begun: too short to validate last year's season, which is still the forecast.
  const result = season && !selected.validation ? repeatedSeason(candidates[0]!, values, horizon, LEVELS) : selected;
  if (season) {
    atLeastPoissonSpread(result);
    offSeasonBands(result, values, season, onSeason!);
  }
  applyClosedDays(result, closed, values.length, wholeUnits, { keepTotal: true, totalDays: shown });
  const lastHistoryDay = history.firstDay + values.length - 1;
  const applyUplift = (series: Float64Array, firstDay: number): void => {
    for (let j = 0; j < series.length; j++) series[j] = series[j]! * (uplifts.get(firstDay + j) ?? 1);
  };
  if (uplifts.size > 0) {
    // A Set: without whole units the continuous bands are the same arrays.
    const bands = [...result.bands.values(), ...result.continuousBands.values()];
    for (const series of new Set([result.mean, ...bands.flatMap((band) => [band.lower, band.upper])])) applyUplift(series, lastHistoryDay + 1);
  }
  return { result, season };
}

/**
 * A weekday profile (7 values from Sunday) by position in the week of a history whose first day is
 * `firstDay` (pooledWeekdays' pattern): 0 on the product's closed weekdays (`closed`, by position),
 * mean 1 over the week. Undefined when it leaves no open day.
 */
function weekdayPatternOf(profile: readonly number[], closed: boolean[], firstDay: number): Float64Array | undefined {
  const pattern = Float64Array.from({ length: WEEK }, (_, position) => (closed[position] ? 0 : profile[weekdayOf(firstDay + position)]!));
  const total = pattern.reduce((sum, value) => sum + value, 0);
  return total > 0 ? pattern.map((value) => (WEEK * value) / total) : undefined;
}

/**
 * Sales counted in units (every observed day a whole number) get whole-unit
 * bands; sales in kilograms or litres keep continuous ones. Event days are
 * divided by their uplift before fitting, so their errors are not whole units;
 * they are few, and the rounding treats them as the nearest count. A product
 * whose unit is a weight, length or volume (input.soldByMeasure) is not asked:
 * it is continuous before its first decimal sale (ADR 0177).
 */
function inWholeUnits(history: DemandHistory): boolean {
  for (let t = 0; t < history.values.length; t++) if (history.observed[t] && !Number.isInteger(history.values[t]!)) return false;
  return true;
}

function backtestRows(result: EngineResult, history: DemandHistory): BacktestRow[] {
  const validation = result.validation;
  if (!validation) return [];
  const band = validation.bands.get(0.95)!;
  const days = dayLabels(history.firstDay + validation.origin, validation.mean.length);
  return Array.from(validation.mean, (yhat, j) => ({
    ds: days[j]!,
    yhat,
    yhat_lower: band.lower[j]!,
    yhat_upper: band.upper[j]!,
  }));
}

