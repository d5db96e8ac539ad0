// What the whole catalogue's history says about the calendar: the dates the business closes every
// year (public holidays) and the yearly pattern of each category. One product's history is too
// thin to tell either; the sum over many products tells both (docs/adr/0111).
import { CLOSED_WEEKS, closedWeekdays } from './closed.ts';
import { dayNumber, easterSunday, formatDay, weekdayOf } from './dates.ts';
import { isDayOff, isNthWeekday, NTH_WEEKDAY_HOLIDAYS, nthWeekdayKey, substituteDays, SUBSTITUTED_MONTH_DAYS, type NthWeekday } from './moving-holidays.ts';
import { isSeasonOnly, seasonDatesOf, seasonDayOf, seasonOf, withinSeasonDates, type CategorySeasonDates, type SeasonDates } from './season-only.ts';
import { quantile } from './stats.ts';

export { easterSunday } from './dates.ts';

/** Public holidays that move with Easter, by their offset in days from Easter Sunday. */
export const EASTER_HOLIDAYS = { good_friday: -2, easter_monday: 1, ascension: 39, whit_monday: 50 } as const;
export type EasterHoliday = keyof typeof EASTER_HOLIDAYS;

/** Passed to each product's forecast (ProductForecastInput.closedDates / yearlyProfile). */
export type CatalogueCalendar = {
  /** Month-days ('12-25') on which the catalogue sold (close to) nothing in every past year the history covers. */
  closedDates: string[];
  /**
   * Easter-based holidays the catalogue was closed on in every year the history shows them.
   * Absent in calendars stored before they were looked for.
   */
  closedHolidays?: EasterHoliday[];
  /**
   * Weekdays (0 = Sunday … 6 = Saturday) on which the whole catalogue sold (close to) nothing for
   * the last twelve weeks: the business is closed then, for every product. Absent in calendars
   * stored before they were looked for.
   */
  closedWeekdays?: number[];
  /**
   * Weekdays the whole catalogue sold (close to) nothing on in the same months of every past year
   * (closedWeekdaysInMonths): a garden centre shut on Sundays in January and February. Absent in
   * calendars stored before they were looked for.
   */
  closedWeekdaysInMonths?: ClosedWeekdayInMonths[];
  /**
   * Weekday-of-month public holidays (NTH_WEEKDAY_HOLIDAYS: the last Monday of August, the fourth
   * Thursday of November, the Friday after it, the last Monday on or before 24 May) the catalogue was
   * closed on in every year the history shows them. Absent in calendars stored before they were looked
   * for; a rule stored before `onOrBefore` and `offset` reads as it did (ADR 0188 and its amendment).
   */
  closedNthWeekdays?: NthWeekday[];
  /**
   * Month-days of `closedDates` (among SUBSTITUTED_MONTH_DAYS) whose substitute day is closed too:
   * when the holiday falls on a weekend or a closed weekday, the next weekday the business opens on
   * (substituteDays). Absent in calendars stored before they were looked for (ADR 0188).
   */
  closedSubstitutes?: string[];
  /**
   * Multiplicative yearly index (mean 1) by day of a leap year (366 values: index 59 is 29 Feb,
   * 365 is 31 Dec), per category; the whole catalogue's under CATALOGUE_PROFILE.
   */
  yearlyProfiles: Record<string, number[]>;
  /**
   * Per category (the whole catalogue's under CATALOGUE_PROFILE), the weekday pattern of its sales
   * over the last year (weekdayProfile: 7 values from Sunday, mean 1, 0 on the closed weekdays), where
   * it is known well enough. Absent in calendars stored before they were kept.
   */
  weekdayProfiles?: Record<string, number[]>;
  /**
   * Per category (the whole catalogue's under CATALOGUE_PROFILE), the daily demand of the products
   * that started within the history, over their first four weeks: ascending, at most 21 quantiles.
   * A product without history is forecast from them (ProductForecastInput.newItemPrior). Absent in
   * calendars stored before they were kept.
   */
  newItemRates?: Record<string, number[]>;
  /**
   * The dates of each category whose sales together are those of one season only (seasonOf: nine
   * tenths of the units in thirteen weeks, in each of two years): a product of it without a season
   * of its own yet (new, or a short history) is forecast zero outside them
   * (ProductForecastInput.categorySeason), following its shape within them. Absent in calendars
   * stored before they were kept; their `shape` too.
   */
  categorySeasons?: Record<string, CategorySeasonDates>;
  /**
   * Dates (YYYY-MM-DD) the shop says it is closed on (Settings → Shop, ADR 0171): a substitute bank
   * holiday, a stock-take day — closures no history can show. Never learned, so never stored with
   * the learned calendar: the server adds the shop's list to each run's.
   */
  closedOn?: string[];
  /** The shop's note for a date of `closedOn` ("Stock-take"), where it gave one: the forecast's description names it. */
  closedOnNotes?: Record<string, string>;
};

/** A weekday (0 = Sunday … 6 = Saturday) the business is closed on in some months (1 = January … 12 = December) only. */
export type ClosedWeekdayInMonths = { weekday: number; months: number[] };

/** A product's first sale (a day number) and the units it sold in the NEW_ITEM_DAYS from it. */
export type ProductStart = { category: string | null; firstSaleDay: number; units: number };

/** A new product's first weeks: long enough for a weekly rhythm, short enough to still be new. */
export const NEW_ITEM_DAYS = 28;
// Fewer new products than this say too little about the next one: the catalogue's (or the flat prior) is used.
const MIN_NEW_ITEMS = 5;
// The rates kept per group: their 0 %, 5 %, …, 100 % quantiles, enough for the shape of the prior.
const NEW_ITEM_QUANTILES = 21;

/** A group's daily units sold from `firstDay` (a day number), one value per day. */
export type DailyTotals = { firstDay: number; totals: Float64Array };

/** The key of the whole catalogue's yearly profile. */
export const CATALOGUE_PROFILE = '*';
export const PROFILE_DAYS = 366;
const WEEK = 7;

// A day counts as closed when it sold under 5 % of the open days around it (two weeks either side)…
const CLOSED_SHARE = 0.05;
const NEIGHBOUR_DAYS = 14;
// …where those sell enough for the day to say something (an empty day at 5 units a day is chance
// once in 150)…
const MIN_OCCURRENCE_UNITS = 5;
// …and its years together make chance impossible: their neighbours' daily units add up to 20, so
// that every year empty by chance has P = e^-20 (one year at 20 units a day, or two years of a small
// shop at 10): any of a year's 366 month-days is tested, and a shop rarely shuts on an ordinary date.
const MIN_EVIDENCE_UNITS = 20;
// A public holiday (PUBLIC_HOLIDAY_MONTH_DAYS, EASTER_HOLIDAYS) is one of some 25 dates tested, and
// one a shop often shuts on: e^-10 is enough (one year of a gift shop at 12 units a day in April,
// empty on Good Friday and Anzac Day), the years of a holiday it traded on still vetoing it (ADR 0125).
const MIN_HOLIDAY_EVIDENCE_UNITS = 10;
/**
 * Month-days ('12-25') that are public holidays on which shops commonly close somewhere our shops
 * trade: New Year, Epiphany, Australia, Waitangi, St Patrick's, Anzac and May Day, the national days
 * of Canada, the United States, France and Germany, the Assumption, All Saints, Armistice Day, the
 * Immaculate Conception, and Christmas Eve to New Year's Eve. Easter-based ones are EASTER_HOLIDAYS.
 */
const PUBLIC_HOLIDAY_MONTH_DAYS: ReadonlySet<string> = new Set(['01-01', '01-02', '01-06', '01-26', '02-06', '03-17', '04-25', '05-01', '07-01', '07-04', '07-14', '08-15', '10-03', '11-01', '11-11', '12-08', '12-24', '12-25', '12-26', '12-31']);
// A weekday closed in some months only needs six closed days in them across the years: a month's
// four or five Sundays shut once (a short-staffed August) is no rule for next year, eight weeks of
// Sundays in one winter while the other days trade is no chance.
const MIN_SEASON_CLOSED_DAYS = 6;
// A yearly profile needs a full year of the group's sales, and enough of them that the day-of-year
// shape is more than noise: on average two units a day.
const MIN_PROFILE_UNITS_PER_DAY = 2;
// A category selling less (a boutique's dresses, five sizes of a few units each) still has a
// season its sizes alone do not show (ADR 0195 F9): its pattern is smoothed wider, over as many
// units as a group of two a day has in a week either side, down to a quarter of a unit a day
// (some 90 units a year; under that a month's window holds too few for a shape). The whole
// catalogue's pattern keeps the two units a day (ADR 0129: a Christmas shop's few cards).
const MIN_CATEGORY_PROFILE_UNITS_PER_DAY = 0.25;
const MIN_PROFILE_DAYS = 365;
// Daily sums are smoothed over a week (the weekday shape is the product's own) and the profile
// over a week either side, so one busy day in one year does not become a yearly spike.
const SMOOTH_HALF_WIDTH = 3;
const PROFILE_DECIMALS = 1000;

/** Day of a leap year (0–365) of a day number: 29 Feb is always 59, 1 Mar always 60. */
export function dayOfLeapYear(day: number): number {
  const text = formatDay(day);
  const month = Number(text.slice(5, 7));
  const date = Number(text.slice(8, 10));
  return LEAP_MONTH_STARTS[month - 1]! + date - 1;
}
const LEAP_MONTH_STARTS = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335];

/**
 * From the daily totals of each category (null: products without one), each product's first sale
 * and the dates (YYYY-MM-DD) the shop says it was closed on (Settings → Shop, ADR 0171): the
 * catalogue's calendar. The shop's dates are left out of the patterns as the learned closures are
 * (its three weeks of congés are no summer low), and not kept in the calendar (CatalogueCalendar.closedOn).
 */
export function catalogueCalendar(categories: Map<string | null, DailyTotals>, starts: ProductStart[] = [], shopClosedOn: readonly string[] = []): CatalogueCalendar {
  const catalogue = sumOf([...categories.values()]);
  const yearlyProfiles: Record<string, number[]> = {};
  if (catalogue) {
    // New relative to the catalogue's own sales, not to the window read: a shop whose history
    // starts 200 days into a two-year window has no launches in its first weeks, only its range.
    const firstSale = catalogue.totals.findIndex((units) => units > 0);
    const newItemRates = newItemRatesOf(starts, catalogue.firstDay + Math.max(0, firstSale), catalogue.firstDay + catalogue.totals.length);
    const closedLately = closedBusinessWeekdays(catalogue);
    // A weekday shut for the last twelve weeks as in the same months of the years before, and open
    // again after them then, reopens when those months end: closed in them, not all year.
    const weekdays = closedLately.filter((weekday) => !reopensAfterItsMonths(catalogue, closedLately, weekday));
    const weekdaysInMonths = closedWeekdaysInMonths(catalogue, weekdays);
    const holidays = closedEasterHolidays(catalogue);
    const nthWeekdays = closedNthWeekdays(catalogue, holidays, weekdaysInMonths);
    const { closed, substitutes } = closedMonthDaysAndSubstitutes(catalogue, holidays, weekdaysInMonths, nthWeekdays, weekdays);
    const learned = { closedDates: [...closed].sort(), closedHolidays: [...holidays].sort(), closedNthWeekdays: nthWeekdays, closedSubstitutes: [...substitutes].sort(), closedWeekdays: weekdays };
    const closedSet = new Set(closedDatesBetween({ ...learned, closedOn: [...shopClosedOn] }, formatDay(catalogue.firstDay), catalogue.totals.length).map(dayNumber));
    // A weekday closed in some months is left out of a group's pattern in them (its empty Sundays
    // are no January low), unless the group is closed on it all year: a shop's hardware shut every
    // Sunday, whose catalogue trades on Sundays before Christmas only (its lights), would otherwise
    // read its December, Sundays empty, as a seventh lower than its January.
    const closedDaysOf = (group: DailyTotals) => {
      const allYear = closedBusinessWeekdays(group);
      const rules = weekdaysInMonths.filter((rule) => !allYear.includes(rule.weekday));
      return (day: number) => closedSet.has(day) || inClosedMonths(day, rules);
    };
    const whole = catalogueProfile([...categories.values()], catalogue, closedDaysOf);
    if (whole) yearlyProfiles[CATALOGUE_PROFILE] = whole;
    const weekdayProfiles: Record<string, number[]> = {};
    const isClosedDay = (day: number) => closedSet.has(day) || inClosedMonths(day, weekdaysInMonths);
    const wholeWeekdays = weekdayProfile(catalogue, weekdays, isClosedDay);
    if (wholeWeekdays) weekdayProfiles[CATALOGUE_PROFILE] = wholeWeekdays;
    const categorySeasons: Record<string, CategorySeasonDates> = {};
    for (const [category, totals] of categories) {
      if (category === null) continue;
      const closedDays = closedDaysOf(totals);
      const profile = yearlyProfile(totals, closedDays, MIN_CATEGORY_PROFILE_UNITS_PER_DAY);
      if (profile) yearlyProfiles[category] = profile;
      const weekdayPattern = weekdayProfile(totals, weekdays, isClosedDay, wholeWeekdays ?? undefined);
      if (weekdayPattern) weekdayProfiles[category] = weekdayPattern;
      const season = groupSeason(totals, closedDays);
      if (season) categorySeasons[category] = season;
    }
    return { ...learned, closedWeekdaysInMonths: weekdaysInMonths, yearlyProfiles, weekdayProfiles, newItemRates, categorySeasons };
  }
  return { closedDates: [], closedHolidays: [], closedNthWeekdays: [], closedSubstitutes: [], closedWeekdays: [], closedWeekdaysInMonths: [], yearlyProfiles, newItemRates: {}, categorySeasons: {} };
}

/**
 * The season of a group sold in one season only, read from its first sale on: days before it are no
 * year without sales (a shop's first export starts at its first season), as a product's history is not.
 */
function groupSeason(group: DailyTotals, isClosed: (day: number) => boolean): CategorySeasonDates | null {
  const first = Math.max(0, group.totals.findIndex((units) => units > 0));
  const totals = group.totals.subarray(first);
  const firstDay = group.firstDay + first;
  const season = seasonOf(totals, (t) => isClosed(firstDay + t));
  if (!season) return null;
  const dates = seasonDatesOf(season, firstDay, totals.length);
  const shape = seasonShape({ firstDay, totals }, dates, isClosed);
  return shape ? { ...dates, shape } : dates;
}

/**
 * How a group's sales rise and fall through its season: per day of the season (0 on its first
 * date), its open days' units averaged over the years, smoothed over a week (a weekday's busier
 * days fall on other dates each year), mean 1. Null when the history holds under half its days.
 */
function seasonShape(group: DailyTotals, dates: SeasonDates, isClosed: (day: number) => boolean): number[] | null {
  // A leap year's days, so a season through February has a place for its 29th.
  const length = seasonDayOf(dates, dayNumber(`2024-${dates.to}`)) + 1;
  const sums = new Float64Array(length);
  const counts = new Float64Array(length);
  for (let t = 0; t < group.totals.length; t++) {
    const day = group.firstDay + t;
    if (isClosed(day) || !withinSeasonDates(dates, formatDay(day).slice(5))) continue;
    const k = Math.min(length - 1, seasonDayOf(dates, day));
    sums[k] = sums[k]! + group.totals[t]!;
    counts[k] = counts[k]! + 1;
  }
  if (counts.filter((count) => count > 0).length * 2 < length) return null;
  const means = Array.from(sums, (sum, k) => (counts[k]! > 0 ? sum / counts[k]! : NaN));
  const filled = means.map((value, k) => (Number.isNaN(value) ? nearestKnown(means, k) : value));
  const smoothed = filled.map((_, k) => {
    const window = filled.slice(Math.max(0, k - SMOOTH_HALF_WIDTH), k + SMOOTH_HALF_WIDTH + 1);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
  const mean = smoothed.reduce((a, b) => a + b, 0) / length;
  return mean > 0 ? smoothed.map((value) => Math.round((value / mean) * PROFILE_DECIMALS) / PROFILE_DECIMALS) : null;
}

/**
 * The weekdays (0 = Sunday … 6 = Saturday) the catalogue is closed on: closedWeekdays of its daily
 * totals, over the weeks it sold in. A week without a sale (before the shop's first, a fortnight's
 * closing) says nothing about which weekdays it trades on: counted, a shop's first week of weekday
 * sales made its twelve weeks of empty weekends "closed".
 */
function closedBusinessWeekdays(catalogue: DailyTotals): number[] {
  const { totals } = catalogue;
  const tradingWeeks = new Uint8Array(totals.length).fill(1);
  for (let end = totals.length; end > 0; end -= WEEK) {
    const start = Math.max(0, end - WEEK);
    if (!totals.subarray(start, end).some((units) => units > 0)) tradingWeeks.fill(0, start, end);
  }
  const closed = closedWeekdays(totals, tradingWeeks);
  return closed.flatMap((isClosed, position) => (isClosed ? [weekdayOf(catalogue.firstDay + position)] : [])).sort((a, b) => a - b);
}

/**
 * The weekdays the catalogue is closed on in some months of every year only (not those of
 * `closedAllYear`): a weekday whose every informative day (one whose other weekdays around it sell
 * enough for an empty day to mean something, as for a public holiday) in a month sold (close to)
 * nothing, in each year the history shows that month; at least one whole month of it in the history;
 * and MIN_SEASON_CLOSED_DAYS such days in the closed months together.
 */
export function closedWeekdaysInMonths(catalogue: DailyTotals, closedAllYear: readonly number[]): ClosedWeekdayInMonths[] {
  const { firstDay, totals } = catalogue;
  const first = totals.findIndex((units) => units > 0);
  if (first < 0) return [];
  const last = totals.length - 1;
  const monthAt = (t: number) => Number(formatDay(firstDay + t).slice(5, 7));
  // Per weekday and month (weekday * 12 + month - 1): closed on every informative day so far, and how many.
  const verdicts = Array.from({ length: WEEK * 12 }, () => ({ closed: true, days: 0 }));
  weekdayClosures(catalogue, closedAllYear, (t, weekday, closed) => {
    const verdict = verdicts[weekday * 12 + monthAt(t) - 1]!;
    verdict.closed &&= closed;
    verdict.days++;
  });
  // The months the history holds from their first day to their last.
  const wholeMonths = new Set<number>();
  for (let t = first; t <= last; t++) if (formatDay(firstDay + t).endsWith('-01') && t + daysInMonthOf(firstDay + t) - 1 <= last) wholeMonths.add(monthAt(t));
  const rules: ClosedWeekdayInMonths[] = [];
  for (let weekday = 0; weekday < WEEK; weekday++) {
    const months = Array.from({ length: 12 }, (_, i) => i + 1).filter((month) => {
      const verdict = verdicts[weekday * 12 + month - 1]!;
      return verdict.closed && verdict.days > 0 && wholeMonths.has(month);
    });
    const closedDays = months.reduce((sum, month) => sum + verdicts[weekday * 12 + month - 1]!.days, 0);
    if (months.length && closedDays >= MIN_SEASON_CLOSED_DAYS) rules.push({ weekday, months });
  }
  return rules;
}

/**
 * Calls `visit` for each informative day of a weekday not in `closedAllYear` (one whose other
 * weekdays two weeks either side sell enough for an empty day to mean something, as for a public
 * holiday), from the catalogue's first sale on, saying whether it sold (close to) nothing.
 */
function weekdayClosures(catalogue: DailyTotals, closedAllYear: readonly number[], visit: (t: number, weekday: number, closed: boolean) => void): void {
  const { firstDay, totals } = catalogue;
  const first = totals.findIndex((units) => units > 0);
  if (first < 0) return;
  const last = totals.length - 1;
  const weekdayAt = (t: number) => weekdayOf(firstDay + t);
  for (let t = first; t <= last; t++) {
    const weekday = weekdayAt(t);
    if (closedAllYear.includes(weekday)) continue;
    let sum = 0;
    let count = 0;
    for (let s = Math.max(first, t - NEIGHBOUR_DAYS); s <= Math.min(last, t + NEIGHBOUR_DAYS); s++) {
      const other = weekdayAt(s);
      if (other === weekday || closedAllYear.includes(other)) continue;
      sum += totals[s]!;
      count++;
    }
    const neighbours = count > 0 ? sum / count : 0;
    if (neighbours >= MIN_OCCURRENCE_UNITS) visit(t, weekday, totals[t]! <= CLOSED_SHARE * neighbours);
  }
}

/**
 * Whether a weekday the last twelve weeks close (closedBusinessWeekdays) is closed in some months of
 * every year instead: a garden centre shut on Sundays from November to February, run in late
 * February. So when it has a closed-months rule, its closed days of those weeks all fall in the
 * rule's months, and an earlier year shows it trading again after a closure (no recent closure
 * then: the history's first closure may be the shop's new rule, kept all year until it trades).
 */
function reopensAfterItsMonths(catalogue: DailyTotals, closedAllYear: readonly number[], weekday: number): boolean {
  const others = closedAllYear.filter((other) => other !== weekday);
  const rule = closedWeekdaysInMonths(catalogue, others).find((candidate) => candidate.weekday === weekday);
  if (!rule) return false;
  const recentFrom = catalogue.totals.length - CLOSED_WEEKS * WEEK;
  const monthAt = (t: number) => Number(formatDay(catalogue.firstDay + t).slice(5, 7));
  let recentInMonths = true;
  let closedEarlier = false;
  let reopenedEarlier = false;
  weekdayClosures(catalogue, others, (t, day, closed) => {
    if (day !== weekday) return;
    if (t >= recentFrom) recentInMonths &&= !closed || rule.months.includes(monthAt(t));
    else if (closed) closedEarlier ||= rule.months.includes(monthAt(t));
    else reopenedEarlier ||= closedEarlier;
  });
  return recentInMonths && reopenedEarlier;
}

/** The number of days in the month of a day number. */
function daysInMonthOf(day: number): number {
  const [year, month] = formatDay(day).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a day number falls on a weekday the business closes on in its month (closedWeekdaysInMonths). */
export function inClosedMonths(day: number, rules: readonly ClosedWeekdayInMonths[]): boolean {
  if (!rules.length) return false;
  const weekday = weekdayOf(day);
  const month = Number(formatDay(day).slice(5, 7));
  return rules.some((rule) => rule.weekday === weekday && rule.months.includes(month));
}

/**
 * The first-weeks daily demand of the products that started within the history, per category and
 * for the catalogue. A product counts as new when its first sale is at least NEW_ITEM_DAYS after
 * the catalogue's first sale (one that sells at least every four weeks and was already listed would
 * show a sale before) and its first weeks end before the history does.
 */
export function newItemRatesOf(starts: ProductStart[], historyFirstDay: number, historyEndDay: number): Record<string, number[]> {
  const groups = new Map<string, number[]>([[CATALOGUE_PROFILE, []]]);
  for (const start of starts) {
    if (start.firstSaleDay < historyFirstDay + NEW_ITEM_DAYS || start.firstSaleDay + NEW_ITEM_DAYS > historyEndDay) continue;
    const rate = Math.max(0, start.units) / NEW_ITEM_DAYS;
    groups.get(CATALOGUE_PROFILE)!.push(rate);
    if (start.category !== null) {
      const group = groups.get(start.category) ?? [];
      group.push(rate);
      groups.set(start.category, group);
    }
  }
  const rates: Record<string, number[]> = {};
  for (const [group, values] of groups) if (values.length >= MIN_NEW_ITEMS) rates[group] = quantilesOf(values.sort((a, b) => a - b));
  return rates;
}

/** At most NEW_ITEM_QUANTILES evenly spaced quantiles of ascending values (all of them when fewer). */
function quantilesOf(sorted: number[]): number[] {
  if (sorted.length <= NEW_ITEM_QUANTILES) return sorted.map(roundRate);
  return Array.from({ length: NEW_ITEM_QUANTILES }, (_, i) => roundRate(quantile(sorted, i / (NEW_ITEM_QUANTILES - 1))));
}
const roundRate = (rate: number) => Math.round(rate * 1000) / 1000;

/** The Easter-based holiday (among `among`) that falls on a day number, or null. */
function easterHolidayOf(day: number, among: Iterable<EasterHoliday>): EasterHoliday | null {
  const easter = easterSunday(Number(formatDay(day).slice(0, 4)));
  for (const holiday of among) if (day - easter === EASTER_HOLIDAYS[holiday]) return holiday;
  return null;
}

const ALL_EASTER_HOLIDAYS = Object.keys(EASTER_HOLIDAYS) as EasterHoliday[];

/**
 * Easter-based holidays the catalogue was closed on in every year the history shows them on an
 * open weekday: the same rule as closedMonthDays, with the holiday rather than the month-day as
 * the thing every year must agree on, and a public holiday's bar (MIN_HOLIDAY_EVIDENCE_UNITS).
 */
export function closedEasterHolidays(catalogue: DailyTotals): Set<EasterHoliday> {
  return closedKeys(catalogue, (day) => keyList(easterHolidayOf(day, ALL_EASTER_HOLIDAYS)), () => MIN_HOLIDAY_EVIDENCE_UNITS);
}

const keyList = <Key>(key: Key | null): Key[] => (key === null ? [] : [key]);

/**
 * Whether a day number is a public holiday shops close on: a month-day of PUBLIC_HOLIDAY_MONTH_DAYS,
 * an Easter-based holiday, or the substitute weekday of a fixed one (`closedWeekdays`: the
 * business's, which with the weekend are the days a holiday moves off). A closure learned on another
 * date is the shop's own (three weeks of congés), not a holiday (ADR 0203 F4(c)).
 */
export function isPublicHoliday(day: number, closedWeekdays: readonly number[]): boolean {
  if (PUBLIC_HOLIDAY_MONTH_DAYS.has(formatDay(day).slice(5)) || easterHolidayOf(day, ALL_EASTER_HOLIDAYS) !== null) return true;
  let substitute = false;
  substituteDays(SUBSTITUTED_MONTH_DAYS, closedWeekdays, day, day, () => {
    substitute = true;
  });
  return substitute;
}

/**
 * The weekday-of-month public holidays (NTH_WEEKDAY_HOLIDAYS) the catalogue was closed on in every
 * year the history shows them on an open weekday: the rule of closedMonthDays with a public holiday's
 * bar. Days of the closed Easter-based `holidays` and of a weekday closed in their month are explained
 * by those and say nothing here (Whit Monday 2026 is also the last Monday of May). Any other weekday of
 * a month is not tested (ADR 0188).
 */
export function closedNthWeekdays(catalogue: DailyTotals, holidays: ReadonlySet<EasterHoliday> = new Set(), weekdaysInMonths: readonly ClosedWeekdayInMonths[] = []): NthWeekday[] {
  const closed = closedKeys(
    catalogue,
    (day) => ((holidays.size && easterHolidayOf(day, holidays) !== null) || inClosedMonths(day, weekdaysInMonths) ? [] : NTH_WEEKDAY_HOLIDAYS.flatMap(({ rule }) => (isNthWeekday(day, rule) ? [nthWeekdayKey(rule)] : []))),
    () => MIN_HOLIDAY_EVIDENCE_UNITS,
  );
  return NTH_WEEKDAY_HOLIDAYS.flatMap(({ rule }) => (closed.has(nthWeekdayKey(rule)) ? [rule] : []));
}

/** Whether a day number is one of the weekday-of-month `rules`' days. */
const onNthWeekday = (day: number, rules: readonly NthWeekday[]) => rules.some((rule) => isNthWeekday(day, rule));

/** The closed month-days that may have a substitute day: the public holidays some country moves off a weekend. */
const substitutedAmong = (closedDates: Iterable<string>) => new Set([...closedDates].filter((monthDay) => SUBSTITUTED_MONTH_DAYS.has(monthDay)));

/**
 * The closed month-days, and those of them whose substitute day (substituteDays) the catalogue was
 * closed on too in every year the history shows one, with a public holiday's bar. A substitute day
 * the shop opened again after (its next weekday's date not closed) is the holiday's and says nothing
 * about its own date: else Monday 28 December 2026, Boxing Day's substitute, would close every 28
 * December. One inside a longer closure (a shop shut from Christmas to New Year) still counts for its
 * date. `closedWeekdays`: the business's, which with the weekend are the days a holiday moves off.
 */
function closedMonthDaysAndSubstitutes(catalogue: DailyTotals, holidays: ReadonlySet<EasterHoliday>, weekdaysInMonths: readonly ClosedWeekdayInMonths[], nthWeekdays: readonly NthWeekday[], closedWeekdays: readonly number[]): { closed: Set<string>; substitutes: Set<string> } {
  const explainedByNth = (day: number) => onNthWeekday(day, nthWeekdays);
  const first = closedMonthDays(catalogue, holidays, weekdaysInMonths, explainedByNth);
  const substituted = substitutedAmong(first);
  // The substitute days of the history, each with the holiday it stands in for.
  const owed = new Map<number, string>();
  substituteDays(substituted, closedWeekdays, catalogue.firstDay, catalogue.firstDay + catalogue.totals.length - 1, (day, holiday) => owed.set(day, holiday));
  const substitutes = closedKeys(catalogue, (day) => keyList(owed.get(day) ?? null), () => MIN_HOLIDAY_EVIDENCE_UNITS);
  if (!substitutes.size) return { closed: first, substitutes };
  // Whether the next working day after a substitute day (not a day off, a closed holiday or another substitute) is an open date.
  const reopenedAfter = (day: number) => {
    for (let next = day + 1; next <= day + WEEK * 2; next++) {
      if (!owed.has(next) && !substituted.has(formatDay(next).slice(5)) && !isDayOff(next, closedWeekdays)) return !first.has(formatDay(next).slice(5));
    }
    return false;
  };
  const explained = (day: number) => explainedByNth(day) || (substitutes.has(owed.get(day) ?? '') && reopenedAfter(day));
  return { closed: closedMonthDays(catalogue, holidays, weekdaysInMonths, explained), substitutes };
}

function sumOf(groups: DailyTotals[]): DailyTotals | null {
  if (!groups.length) return null;
  const firstDay = Math.min(...groups.map((g) => g.firstDay));
  const lastDay = Math.max(...groups.map((g) => g.firstDay + g.totals.length - 1));
  const totals = new Float64Array(lastDay - firstDay + 1);
  for (const group of groups) for (let t = 0; t < group.totals.length; t++) totals[group.firstDay - firstDay + t]! += group.totals[t]!;
  return { firstDay, totals };
}

/**
 * Month-days the catalogue was closed on in every year the history shows them on an open weekday.
 * A closed weekday (a shop shut on Sundays) says nothing about the date, so such occurrences are
 * skipped; a date with no informative occurrence is not closed. Days of the closed Easter-based
 * `holidays`, those of a weekday closed in their month (`weekdaysInMonths`) and those
 * `explainedElsewhere` (a weekday-of-month holiday's, a substitute day) are explained by them and say
 * nothing about their month-day either: otherwise a one-year history would also close next year's
 * same date. A public holiday (PUBLIC_HOLIDAY_MONTH_DAYS) needs half the evidence of
 * another date.
 */
export function closedMonthDays(catalogue: DailyTotals, holidays: ReadonlySet<EasterHoliday> = new Set(), weekdaysInMonths: readonly ClosedWeekdayInMonths[] = [], explainedElsewhere: (day: number) => boolean = () => false): Set<string> {
  const explained = (day: number) => (holidays.size && easterHolidayOf(day, holidays) !== null) || inClosedMonths(day, weekdaysInMonths) || explainedElsewhere(day);
  const keysOf = (day: number) => (explained(day) ? [] : [formatDay(day).slice(5)]);
  const minEvidenceOf = (monthDay: string) => (PUBLIC_HOLIDAY_MONTH_DAYS.has(monthDay) ? MIN_HOLIDAY_EVIDENCE_UNITS : MIN_EVIDENCE_UNITS);
  const closed = closedKeys(catalogue, keysOf, minEvidenceOf);
  // A closure longer than the fortnight either side (three weeks of congés) gives a day of it whose
  // other year fell on the closed weekday neighbours that are mostly the closure's own empty days:
  // too little evidence. Read again with the days known closed left out of the neighbours, so they
  // are open days, until no more are found (ADR 0203 F4(a)). Only empty days can join, each on the
  // same bar against the open days around it: a slow shop's quiet day is no closure here either.
  const monthDays = Array.from(catalogue.totals, (_, t) => formatDay(catalogue.firstDay + t).slice(5));
  const explainedAt = Uint8Array.from(catalogue.totals, (_, t) => (explained(catalogue.firstDay + t) ? 1 : 0));
  for (;;) {
    const known = new Set(closed);
    const added = [...closedKeys(catalogue, keysOf, minEvidenceOf, (t) => explainedAt[t] === 1 || known.has(monthDays[t]!))].filter((monthDay) => !known.has(monthDay));
    if (!added.length) return closed;
    for (const monthDay of added) closed.add(monthDay);
  }
}

/**
 * The keys (of days, by `keysOf`; none: not a candidate) on which the catalogue was closed in every
 * informative occurrence (an open weekday whose neighbours sell enough for the day to say something),
 * with enough of them together that the empty days are not chance: their neighbours' daily units
 * add up to `minEvidenceOf(key)`. Neighbours are the open weekdays two weeks either side, those
 * `knownClosed` (by index t of the totals) left out.
 */
function closedKeys<Key>(catalogue: DailyTotals, keysOf: (day: number) => readonly Key[], minEvidenceOf: (key: Key) => number, knownClosed: (t: number) => boolean = () => false): Set<Key> {
  const { totals } = catalogue;
  const first = totals.findIndex((units) => units > 0);
  if (first < 0) return new Set();
  const weekdayClosed = closedWeekdays(totals, new Uint8Array(totals.length).fill(1));
  // Day index t of the totals has weekday position (t) % 7 in closedWeekdays' terms.
  const isOpenWeekday = (t: number) => !weekdayClosed[t % 7];
  // Per key: closed in every informative occurrence so far, and the neighbours' units of those.
  const verdicts = new Map<Key, { closed: boolean; evidence: number }>();
  for (let t = first; t < totals.length; t++) {
    if (!isOpenWeekday(t)) continue;
    const keys = keysOf(catalogue.firstDay + t);
    if (!keys.length) continue;
    let sum = 0;
    let count = 0;
    for (let s = Math.max(first, t - NEIGHBOUR_DAYS); s <= Math.min(totals.length - 1, t + NEIGHBOUR_DAYS); s++) {
      if (s === t || !isOpenWeekday(s) || knownClosed(s)) continue;
      sum += totals[s]!;
      count++;
    }
    const neighbours = count > 0 ? sum / count : 0;
    if (neighbours < MIN_OCCURRENCE_UNITS) continue;
    for (const key of keys) {
      const verdict = verdicts.get(key) ?? { closed: true, evidence: 0 };
      verdict.closed &&= totals[t]! <= CLOSED_SHARE * neighbours;
      verdict.evidence += neighbours;
      verdicts.set(key, verdict);
    }
  }
  return new Set([...verdicts].filter(([key, verdict]) => verdict.closed && verdict.evidence >= minEvidenceOf(key)).map(([key]) => key));
}

/**
 * The group's yearly pattern: each open day's week-smoothed sales over the history's mean, averaged
 * per day of the year over the years, smoothed over a week either side, normalised to mean 1; a
 * day's net returns count as no sales. A group under two units a day is smoothed wider, in
 * proportion (0.5 a day: 12 days either side), so its windows hold as many units. Null when the
 * group has under a year of sales or fewer than `minUnitsPerDay` for a shape. Closed dates (a
 * holiday, three weeks of congés) are no seasonal low: they are left out, an open day is smoothed
 * with open days only (openWeekAround), and the days of the year closed in every year are filled
 * across, between the open days either side (ADR 0203 F4).
 */
export function yearlyProfile(group: DailyTotals, isClosed: (day: number) => boolean = () => false, minUnitsPerDay = MIN_PROFILE_UNITS_PER_DAY): number[] | null {
  const first = group.totals.findIndex((units) => units > 0);
  if (first < 0) return null;
  // A day of returns only (trees brought back after Christmas) sold nothing: no negative demand, as in a product's own history.
  const totals = group.totals.subarray(first).map((units) => Math.max(0, units));
  const firstDay = group.firstDay + first;
  const n = totals.length;
  if (n < MIN_PROFILE_DAYS) return null;
  let total = 0;
  for (const units of totals) total += units;
  const mean = total / n;
  if (mean < minUnitsPerDay) return null;
  const halfWidth = Math.ceil(SMOOTH_HALF_WIDTH * Math.max(1, MIN_PROFILE_UNITS_PER_DAY / mean));
  const closed = Uint8Array.from(totals, (_, t) => (isClosed(firstDay + t) ? 1 : 0));
  const sums = new Float64Array(PROFILE_DAYS);
  const counts = new Float64Array(PROFILE_DAYS);
  for (let t = 0; t < n; t++) {
    if (closed[t]) continue;
    const { from, to } = openWeekAround(closed, t);
    let windowSum = 0;
    let windowCount = 0;
    for (let s = from; s <= to; s++) {
      if (closed[s]) continue;
      windowSum += totals[s]!;
      windowCount++;
    }
    const position = dayOfLeapYear(firstDay + t);
    sums[position]! += windowSum / windowCount / mean;
    counts[position]! += 1;
  }
  // NaN: a day of the year closed in every year (or 29 Feb, three years in four without one).
  const raw = Array.from(sums, (sum, i) => (counts[i]! > 0 ? sum / counts[i]! : NaN));
  const smoothed = raw.map((value, i) => {
    if (Number.isNaN(value)) return NaN;
    let sum = 0;
    let count = 0;
    for (let k = -halfWidth; k <= halfWidth; k++) {
      const other = raw[(i + k + PROFILE_DAYS) % PROFILE_DAYS]!;
      if (Number.isNaN(other)) continue;
      sum += other;
      count++;
    }
    return sum / count;
  });
  const filled = interpolatedAcross(smoothed);
  const profileMean = filled.reduce((a, b) => a + b, 0) / PROFILE_DAYS;
  if (!(profileMean > 0)) return null;
  return filled.map((value) => Math.round((value / profileMean) * PROFILE_DECIMALS) / PROFILE_DECIMALS);
}

/**
 * The days (indices, inclusive) a day `t` not closed is smoothed over: seven days in a row none of
 * which is `closed`, as centred on `t` as they fit, so each weekday counts once (a shop's quiet
 * Sunday and busy Saturday both) and the days before a closure are not averaged with those after it.
 * Where the open days around `t` are fewer than a week (between Christmas and New Year, a weekday
 * closed in its months), the week either side of `t`, its closed days skipped.
 */
function openWeekAround(closed: Uint8Array, t: number): { from: number; to: number } {
  let from = t;
  while (from > 0 && t - from < WEEK - 1 && !closed[from - 1]) from--;
  let to = t;
  while (to < closed.length - 1 && to - t < WEEK - 1 && !closed[to + 1]) to++;
  if (to - from + 1 < WEEK) return { from: Math.max(0, t - SMOOTH_HALF_WIDTH), to: Math.min(closed.length - 1, t + SMOOTH_HALF_WIDTH) };
  const start = Math.min(Math.max(t - SMOOTH_HALF_WIDTH, from), to - WEEK + 1);
  return { from: start, to: start + WEEK - 1 };
}

/**
 * A yearly profile's unknown days (NaN) filled along the straight line between the known days
 * either side, across the year's end: a closure's gap takes neither side's value alone.
 */
function interpolatedAcross(values: number[]): number[] {
  const known = values.flatMap((value, i) => (Number.isNaN(value) ? [] : [i]));
  if (!known.length) return values.map(() => 1);
  return values.map((value, i) => {
    if (!Number.isNaN(value)) return value;
    const after = known.find((k) => k > i) ?? known[0]! + values.length;
    const before = known.findLast((k) => k < i) ?? known[known.length - 1]! - values.length;
    const share = (i - before) / (after - before);
    return values[(before + values.length) % values.length]! * (1 - share) + values[after % values.length]! * share;
  });
}

/**
 * The whole catalogue's yearly pattern: that of its groups' (categories') summed units, leaving out
 * the groups sold in one season only (isSeasonOnly). A small shop's one category of Christmas goods
 * would otherwise make the shop's December, and every product that falls back on the catalogue's
 * pattern (a box of screws) would get its bump; the season stays in that category's own pattern.
 * Where the year-round groups sell too little for a pattern (a Christmas shop's few other goods),
 * the season is the business's: the whole `catalogue` (all groups summed) counts.
 */
export function catalogueProfile(groups: DailyTotals[], catalogue: DailyTotals, closedDaysOf: (group: DailyTotals) => (day: number) => boolean): number[] | null {
  const yearRound = sumOf(groups.filter((group) => !isSeasonOnly(group.totals)));
  return (yearRound && yearlyProfile(yearRound, closedDaysOf(yearRound))) ?? yearlyProfile(catalogue, closedDaysOf(catalogue));
}

// The weekday pattern of the last year: long enough to average out its seasons (each weekday has
// as many August days as the others), recent enough to be the business's rhythm now; at least
// twelve weeks of it.
const WEEKDAY_PROFILE_DAYS = 364;
const MIN_WEEKDAY_PROFILE_DAYS = 12 * WEEK;
// A pattern must differ from the one it would replace beyond chance: the squared differences of the
// weekdays' averages from what that one expects, each over its variance, add up to more than χ² at
// 1 % with (open weekdays − 1) degrees of freedom. A catalogue whose days look alike has no pattern
// to lend, and a category whose few lumpy sales differ from the catalogue's by chance lends the
// catalogue's. Per number of open weekdays from 2 to 7.
const CHI_SQUARE_1_PERCENT = [0, 0, 6.63, 9.21, 11.34, 13.28, 15.09, 16.81];

/**
 * The group's weekday pattern over its last year (from its first sale): 7 values by weekday (0 =
 * Sunday), mean 1, 0 on `closedWeekdays`; each open weekday's average units over the open days'
 * average, days `isClosed` (holidays) left out. Null with under twelve weeks of sales, or when it
 * does not differ beyond chance (CHI_SQUARE_1_PERCENT) from `reference` (a weekday profile; absent:
 * every open weekday alike).
 */
export function weekdayProfile(group: DailyTotals, closedWeekdays: readonly number[], isClosed: (day: number) => boolean, reference?: readonly number[]): number[] | null {
  const { firstDay, totals } = group;
  const first = totals.findIndex((units) => units > 0);
  const from = Math.max(first, totals.length - WEEKDAY_PROFILE_DAYS);
  if (first < 0 || totals.length - from < MIN_WEEKDAY_PROFILE_DAYS) return null;
  const sums = new Float64Array(WEEK);
  const squares = new Float64Array(WEEK);
  const counts = new Float64Array(WEEK);
  for (let t = from; t < totals.length; t++) {
    const weekday = weekdayOf(firstDay + t);
    if (closedWeekdays.includes(weekday) || isClosed(firstDay + t)) continue;
    const units = Math.max(0, totals[t]!);
    sums[weekday]! += units;
    squares[weekday]! += units * units;
    counts[weekday]! += 1;
  }
  const open = Array.from({ length: WEEK }, (_, weekday) => !closedWeekdays.includes(weekday) && counts[weekday]! > 1);
  const openDays = open.filter(Boolean).length;
  if (openDays < 2) return null;
  const means = Array.from({ length: WEEK }, (_, weekday) => (open[weekday] ? sums[weekday]! / counts[weekday]! : 0));
  const overall = means.reduce((a, b) => a + b, 0) / openDays;
  if (!(overall > 0)) return null;
  // The reference's shape on this group's open weekdays, mean 1 over them.
  const referenceTotal = reference ? open.reduce((sum, isOpen, weekday) => sum + (isOpen ? reference[weekday]! : 0), 0) : 0;
  const expected = (weekday: number) => (referenceTotal > 0 ? (overall * openDays * reference![weekday]!) / referenceTotal : overall);
  let chiSquare = 0;
  for (let weekday = 0; weekday < WEEK; weekday++) {
    if (!open[weekday]) continue;
    const variance = Math.max(0, squares[weekday]! / counts[weekday]! - means[weekday]! ** 2) / (counts[weekday]! - 1);
    chiSquare += variance > 0 ? (means[weekday]! - expected(weekday)) ** 2 / variance : 0;
  }
  if (chiSquare <= CHI_SQUARE_1_PERCENT[openDays]!) return null;
  return means.map((mean) => Math.round((mean / overall) * (WEEK / openDays) * PROFILE_DECIMALS) / PROFILE_DECIMALS);
}

function nearestKnown(values: number[], i: number): number {
  for (let k = 1; k < values.length; k++) {
    const before = values[(i - k + values.length) % values.length]!;
    if (!Number.isNaN(before)) return before;
    const after = values[(i + k) % values.length]!;
    if (!Number.isNaN(after)) return after;
  }
  return 1;
}

/** The calendar's parts that say which dates the business is closed on (closedDatesBetween, firstOpenDayFrom). */
export type ClosedDaysCalendar = Pick<CatalogueCalendar, 'closedDates' | 'closedHolidays' | 'closedNthWeekdays' | 'closedSubstitutes' | 'closedWeekdays' | 'closedWeekdaysInMonths' | 'closedOn'>;

/**
 * The calendar dates (YYYY-MM-DD) from `from` for `days` days whose month-day, Easter-based or
 * weekday-of-month holiday is closed, that are a closed holiday's substitute day, whose weekday is
 * closed in their month, or that the shop said it is closed on.
 */
export function closedDatesBetween(calendar: ClosedDaysCalendar, from: string, days: number): string[] {
  const holidays = calendar.closedHolidays ?? [];
  const weekdaysInMonths = calendar.closedWeekdaysInMonths ?? [];
  const nthWeekdays = calendar.closedNthWeekdays ?? [];
  const closedOn = new Set(calendar.closedOn);
  if (!calendar.closedDates.length && !holidays.length && !weekdaysInMonths.length && !nthWeekdays.length && !closedOn.size) return [];
  const start = dayNumber(from);
  const substitutes = new Set<number>();
  const kept = new Set(calendar.closedSubstitutes);
  if (kept.size) {
    substituteDays(substitutedAmong(calendar.closedDates), calendar.closedWeekdays ?? [], start, start + days - 1, (day, holiday) => {
      if (kept.has(holiday)) substitutes.add(day);
    });
  }
  const closed = new Set(calendar.closedDates);
  const dates: string[] = [];
  for (let day = start; day < start + days; day++) {
    const date = formatDay(day);
    if (closedOn.has(date) || closed.has(date.slice(5)) || substitutes.has(day) || (holidays.length && easterHolidayOf(day, holidays) !== null) || inClosedMonths(day, weekdaysInMonths) || onNthWeekday(day, nthWeekdays)) dates.push(date);
  }
  return dates;
}

/**
 * `date`, or the first day after it that the business is open: not one of its closed weekdays or
 * closed dates (closedDatesBetween). A delivery arrives on a day someone is there to take it.
 * At most two weeks on (a calendar closed every day would be a shop without sales).
 */
export function firstOpenDayFrom(calendar: ClosedDaysCalendar, date: string): string {
  const fortnight = 14;
  const closedDays = new Set(closedDatesBetween(calendar, date, fortnight));
  const closedWeekdays = new Set(calendar.closedWeekdays ?? []);
  const start = dayNumber(date);
  for (let day = start; day < start + fortnight; day++) {
    const candidate = formatDay(day);
    if (!closedDays.has(candidate) && !closedWeekdays.has(weekdayOf(day))) return candidate;
  }
  return date;
}
