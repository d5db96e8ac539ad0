// Items that sell in one season of the year and not outside it (a Christmas item). Rolling-origin
// validation cannot choose for them: its windows are the weeks before the forecast, before the
// season, where every model forecasts about nothing. Combined with level models, last year's
// season came out at half its size and went on selling through the off-season (ADR 0126).
import { dayNumber, easterSunday, formatDay, monthDayText } from './dates.ts';
import type { EngineResult } from './engine.ts';
import type { Candidate } from './models/candidate.ts';
import { poissonQuantile, scaleDays } from './short.ts';

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
// A season's first or last selling day this near Easter Sunday (Good Friday to Easter Monday) in a year
// of its history may move with Easter (ADR 0188, amended).
const NEAR_EASTER = { from: -2, to: 1 };
// Easter falls from 22 March to 25 April: five weeks apart at most.
const MAX_EASTER_SHIFT = 35;

/**
 * Where a season-only item's season lies: from its first day with sales in either of its last two
 * seasons (counted from the first of the history's last 365 days, the year read as a circle) for
 * `days` days, to its last. A day the business was closed is no day with sales (its value is imputed).
 * `easter`: a first (`from`) or last (`to`) day that moves with Easter, in days from Easter Sunday
 * (hot cross buns until Easter Sunday): in any year the season starts or ends that many days from
 * that year's Easter instead of on its calendar date.
 */
export type Season = { start: number; days: number; easter?: EasterBounds };
export type EasterBounds = { from?: number; to?: number };

/**
 * The season of the daily `values` (oldest first, ending the day before the forecast) when they show
 * an item sold only in its season, else null: in the last 365 days, 13 consecutive weeks (across the
 * new year too) held 90 % of the units, and the same weeks a year earlier held 90 % of that year's.
 * Two seasons must agree — or, where the history does not reach back into the earlier one, the
 * next season must have begun on time (ADR 0146): a burst that never came back is not a season.
 */
export function seasonOf(values: Float64Array, isClosed: (t: number) => boolean = () => false, firstDay?: number): Season | null {
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
  // A season by Easter (hot cross buns to Easter Sunday) a year earlier lies as many days from that
  // year's Easter: with Easter on 20 April 2025 and 5 April 2026, two weeks later in the year.
  let shiftBefore = 0;
  if (known < SEASON_DAYS / 2) {
    if (!restartedOnTime(values, bestStart)) return null;
  } else {
    let yearBefore = 0;
    for (let t = Math.max(0, yearBeforeStart); t < lastYearStart; t++) yearBefore += values[t]!;
    const holds = (shift: number) => {
      const seasonBefore = unitsOf(yearBeforeStart, (bestStart + shift + YEAR_DAYS) % YEAR_DAYS, SEASON_DAYS);
      return seasonBefore >= MIN_SEASON_UNITS && seasonBefore >= SEASON_SHARE * yearBefore;
    };
    if (!holds(0)) {
      shiftBefore = firstDay === undefined ? 0 : easterShift(firstDay + lastYearStart, bestStart);
      if (shiftBefore === 0 || !holds(shiftBefore)) return null;
    }
  }
  // The thirteen weeks are a bound: the season itself is the days between its first and last sales.
  const sold = (t: number) => (values[t] ?? 0) > 0 && !isClosed(t);
  const soldIn = (start: number) => (i: number) => sold(dayOf(start, (i + YEAR_DAYS) % YEAR_DAYS));
  const [first, last] = shiftBefore
    ? // Each year's season in its own weeks; the season's days, those of either.
      [seasonSpan(soldIn(lastYearStart), bestStart), seasonSpan(soldIn(yearBeforeStart), bestStart + shiftBefore)].reduce(([a, b], [c, d]) => [Math.min(a, c), Math.max(b, d)])
    : seasonSpan((i) => soldIn(lastYearStart)(i) || soldIn(yearBeforeStart)(i), bestStart);
  const season = { start: (first + YEAR_DAYS) % YEAR_DAYS, days: last - first + 1 };
  const easter = firstDay === undefined ? undefined : easterBoundsOf({ first, last }, [lastYearStart, yearBeforeStart], sold, firstDay, n);
  return easter ? { ...season, easter } : season;
}

const yearOf = (day: number) => Number(formatDay(day).slice(0, 4));

/**
 * The first and last days (positions) of a season that sells on the days `soldAt` says, in the
 * thirteen weeks from position `weeksStart` and the runs of selling days just outside them.
 */
function seasonSpan(soldAt: (i: number) => boolean, weeksStart: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let i = weeksStart; i < weeksStart + SEASON_DAYS; i++) {
    if (!soldAt(i)) continue;
    if (first < 0) first = i;
    last = i;
  }
  // A season of thirteen weeks and a few days more runs past the weeks that hold the most units: it
  // starts on its first day of a run of selling days, not where those weeks do (1 September, not
  // the 4th, for bulbs whose season this year sold until 3 December; QA5 #17). A week at most: an
  // off-season trickle on every day is no part of the season.
  while (first > weeksStart - SEASON_MARGIN_DAYS && soldAt(first - 1)) first--;
  while (last < weeksStart + SEASON_DAYS - 1 + SEASON_MARGIN_DAYS && soldAt(last + 1)) last++;
  return [first, last];
}

/**
 * How many days later in its year (a position of the year read as a circle, seasonOf) the season of
 * the year before lies if it moved with Easter: 0 unless Easter falls within the thirteen weeks from
 * position `weeksStart` of the year from day number `yearStart`, or a week either side.
 */
function easterShift(yearStart: number, weeksStart: number): number {
  const middle = yearStart + ((weeksStart + Math.floor(SEASON_DAYS / 2)) % YEAR_DAYS);
  const year = yearOf(middle);
  const easter = easterSunday(year);
  const position = (((easter - yearStart - weeksStart) % YEAR_DAYS) + YEAR_DAYS) % YEAR_DAYS;
  if (position >= SEASON_DAYS + SEASON_MARGIN_DAYS && position < YEAR_DAYS - SEASON_MARGIN_DAYS) return 0;
  return YEAR_DAYS - (easter - easterSunday(year - 1));
}

/**
 * The season's bounds that move with Easter (ADR 0188, amended), from each of the last two years'
 * first and last selling days within the season (`first`…`last`, positions as in seasonOf; `yearStarts`,
 * the history index of each year's position 0). A bound is read from Easter when in some year it fell
 * from Good Friday to Easter Monday, and when the history holds two years with different Easters, only
 * when Easter fits them as well as the calendar does: as many days from Easter as the earliest first
 * (latest last) selling day of the two, and no more days without sales at the season's edge, summed
 * over the years, than the calendar date leaves. One year's season is read from Easter on its word.
 */
function easterBoundsOf({ first, last }: { first: number; last: number }, yearStarts: number[], sold: (t: number) => boolean, firstDay: number, historyDays: number): EasterBounds | undefined {
  // A year's first (last) selling day is its season's start (end) when the history holds the days
  // from it to the season's bound and the day before (after) it: a history starts at its first sale,
  // and one that ends on a sale may end within the season.
  const edgeKnown = (side: 'from' | 'to', position: number, calendar: number, indexOf: (i: number) => number) => {
    const step = side === 'from' ? -1 : 1;
    const next = indexOf(position) + step;
    if (next < 0 || next >= historyDays) return false;
    for (let i = position + step; i * step <= calendar * step; i += step) if (indexOf(i) < 0) return false;
    return true;
  };
  const edges = yearStarts.map((start) => {
    const indexOf = (i: number) => start + ((i + YEAR_DAYS) % YEAR_DAYS);
    let from: number | undefined;
    let to: number | undefined;
    for (let i = first; i <= last; i++) {
      const t = indexOf(i);
      if (t < 0 || !sold(t)) continue;
      from ??= i;
      to = i;
    }
    // A year's run of selling days past the season's days (the weeks that hold the most units are
    // last year's; the year before's Easter may have been up to five weeks later or earlier).
    const soldNext = (i: number, step: number) => indexOf(i + step) === indexOf(i) + step && indexOf(i + step) >= 0 && sold(indexOf(i + step));
    while (to !== undefined && to < last + MAX_EASTER_SHIFT && soldNext(to, 1)) to++;
    while (from !== undefined && from > first - MAX_EASTER_SHIFT && soldNext(from, -1)) from--;
    return { from, to, indexOf };
  });
  const boundOf = (side: 'from' | 'to', calendar: number): number | undefined => {
    const years = edges.flatMap(({ [side]: position, indexOf }) => {
      if (position === undefined || !edgeKnown(side, position, calendar, indexOf)) return [];
      const day = firstDay + indexOf(position);
      return [{ position, offset: day - easterSunday(yearOf(day)) }];
    });
    if (!years.some(({ offset }) => offset >= NEAR_EASTER.from && offset <= NEAR_EASTER.to)) return undefined;
    const offsets = years.map(({ offset }) => offset);
    const offset = side === 'from' ? Math.min(...offsets) : Math.max(...offsets);
    const easterGap = years.reduce((sum, year) => sum + Math.abs(offset - year.offset), 0);
    const calendarGap = years.reduce((sum, year) => sum + Math.abs(calendar - year.position), 0);
    return easterGap <= calendarGap ? offset : undefined;
  };
  const from = boundOf('from', first);
  const to = boundOf('to', last);
  if (from === undefined && to === undefined) return undefined;
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
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
 * A bound that moves with Easter is that many days from the year's own Easter Sunday.
 */
export function onSeasonDates(season: Season, firstDay: number, historyDays: number): (t: number) => boolean {
  return seasonCalendarOf(season, firstDay, historyDays).isOn;
}

const YEAR_WEEKS_DAYS = 364;

/**
 * The season in the calendar, by day `t` of a history as in onSeasonDates: whether a day is on its
 * dates (`isOn`), its first and last day in the year it falls in (`spanOf`, day numbers, null off the
 * season), and how many days back last year's same day of the season is (`yearBack`, a whole number of
 * weeks): 364, the same weekday a year before, except on a day whose nearest season bound (its
 * season's own two, or off the season the last one's end and the next one's start) moves with Easter,
 * which reads the day as many days from last year's Easter (Easter is a Sunday: the weekday is kept).
 * Hot cross buns' last week before Easter 2027 reads the week before Easter 2026, and the weeks after
 * it the weeks after Easter 2026 — not the last weeks of 2025's season, which ran to 20 April, read
 * as 2026's off-season (ADR 0188, amended).
 */
export function seasonCalendarOf(season: Season, firstDay: number, historyDays: number): { isOn: (t: number) => boolean; spanOf: (day: number) => [number, number] | null; yearBack: (t: number) => number } {
  const dates = seasonDatesOf(season, firstDay, historyDays);
  const easter = season.easter;
  if (!easter) {
    const isOn = (t: number) => withinSeasonDates(dates, formatDay(firstDay + t).slice(5));
    return { isOn, spanOf: () => null, yearBack: () => YEAR_WEEKS_DAYS };
  }
  const dateIn = (year: number, monthDay: string) => {
    const day = dayNumber(`${year}-${monthDay}`);
    // 29 February in a year without one: the 28th.
    return Number.isNaN(day) ? dayNumber(`${year}-02-28`) : day;
  };
  const spans = new Map<number, [number, number]>();
  /** The season whose Easter is year `year`'s: a calendar bound on the side of the year it falls. */
  const spanIn = (year: number): [number, number] => {
    let span = spans.get(year);
    if (span) return span;
    const sunday = easterSunday(year);
    let from = easter.from !== undefined ? sunday + easter.from : dateIn(year, dates.from);
    let to = easter.to !== undefined ? sunday + easter.to : dateIn(year, dates.to);
    if (to < from && easter.from === undefined) from = dateIn(year - 1, dates.from);
    else if (to < from) to = dateIn(year + 1, dates.to);
    span = [from, to];
    spans.set(year, span);
    return span;
  };
  const spanOf = (day: number): [number, number] | null => {
    const year = yearOf(day);
    for (const y of [year, year + 1, year - 1]) {
      const span = spanIn(y);
      if (day >= span[0] && day <= span[1]) return span;
    }
    return null;
  };
  const yearBack = (t: number) => {
    const day = firstDay + t;
    const year = yearOf(day);
    // The season's first or last day nearest the day: within a season one of its own (seasons are
    // months apart), off it the last season's end or the next one's start.
    let nearest = { distance: Infinity, day, offset: undefined as number | undefined };
    for (const y of [year - 1, year, year + 1]) {
      const [from, to] = spanIn(y);
      for (const [bound, offset] of [[from, easter.from], [to, easter.to]] as const) {
        if (Math.abs(day - bound) < nearest.distance) nearest = { distance: Math.abs(day - bound), day: bound, offset };
      }
    }
    if (nearest.offset === undefined) return YEAR_WEEKS_DAYS;
    const easterYear = yearOf(nearest.day - nearest.offset);
    return easterSunday(easterYear) - easterSunday(easterYear - 1);
  };
  return { isOn: (t) => spanOf(firstDay + t) !== null, spanOf, yearBack };
}

/** A bound's day in words: "Easter Sunday", "Good Friday", "3 days after Easter". */
function easterDayText(offset: number): string {
  const named: Record<number, string> = { [-2]: 'Good Friday', [-1]: 'Easter Saturday', 0: 'Easter Sunday', 1: 'Easter Monday' };
  return named[offset] ?? `${Math.abs(offset)} days ${offset < 0 ? 'before' : 'after'} Easter`;
}

/** The season's dates in a buyer's words, a bound that moves with Easter by its day: "1 Feb–Easter Sunday". */
export function seasonText(season: Season, firstDay: number, historyDays: number): string {
  const dates = seasonDatesOf(season, firstDay, historyDays);
  const { from, to } = season.easter ?? {};
  if (from === undefined && to === undefined) return seasonDatesText(dates);
  return `${from !== undefined ? easterDayText(from) : monthDayText(dates.from)}–${to !== undefined ? easterDayText(to) : monthDayText(dates.to)}`;
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
  scaleDays(result, (j) => {
    const day = firstForecastDay + j;
    return !withinSeasonDates(season, formatDay(day).slice(5)) ? 0 : season.shape && reference > 0 ? shapeAt(day) / reference : 1;
  });
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
