import { inClosedMonths, isPublicHoliday, type ClosedWeekdayInMonths } from './calendar.ts';
import { dayNumber, formatDay, monthDayText, MONTH_NAMES } from './dates.ts';
import { isNthWeekday, nthWeekdayText, type NthWeekday } from './moving-holidays.ts';
import type { EngineResult } from './engine.ts';
import type { DemandPattern, ShopClosedDay } from './types.ts';

const WEEKDAY_NAMES = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

/** The day numbers of the valid dates among `dates` (ProductForecastInput.closedDates). */
export function closedDayNumbers(dates: readonly string[] | undefined): number[] {
  if (!Array.isArray(dates)) return [];
  return dates.map(dayNumber).filter((day) => !Number.isNaN(day));
}

/**
 * Forecast days the business is closed (a public holiday, a weekday closed in its month, a day the
 * shop said) get zero demand and a zero band. Unlike a closed weekday, nothing is given back to the
 * other days: the models never saw the closed days (their past occurrences are unobserved), so their
 * forecast for one is an ordinary day's, and the lost sales of a closed day are lost. The closed days
 * that fell in the horizon are returned.
 */
export function applyClosedDates(result: EngineResult, firstForecastDay: number, closedDays: readonly number[]): number[] {
  const ahead = closedDays.filter((day) => day >= firstForecastDay && day < firstForecastDay + result.mean.length);
  if (!ahead.length) return ahead;
  const bands = [...result.bands.values(), ...result.continuousBands.values()];
  for (const series of new Set([result.mean, ...bands.flatMap((band) => [band.lower, band.upper])])) for (const day of ahead) series[day - firstForecastDay] = 0;
  return ahead;
}

/** A well-formed ProductForecastInput.closedWeekdaysInMonths entry. */
export function isClosedWeekdayInMonths(rule: unknown): rule is ClosedWeekdayInMonths {
  const { weekday, months } = (rule ?? {}) as Partial<ClosedWeekdayInMonths>;
  return Number.isInteger(weekday) && weekday! >= 0 && weekday! <= 6 && Array.isArray(months) && months.length > 0 && months.every((month) => Number.isInteger(month) && month >= 1 && month <= 12);
}

/**
 * The shop's own closed days (ProductForecastInput.shopClosedDates) by day number, each with its
 * note (null: none given). Whitespace is one space: a note typed over two lines reads as one.
 */
export function shopClosedDays(days: readonly ShopClosedDay[] | undefined): Map<number, string | null> {
  const notes = new Map<number, string | null>();
  for (const { date, note } of days ?? []) {
    const day = dayNumber(date);
    const text = typeof note === 'string' ? note.replace(/\s+/g, ' ').trim() : '';
    if (!notes.has(day)) notes.set(day, text || null);
  }
  return notes;
}

/** A well-formed ProductForecastInput.shopClosedDates entry: a real YYYY-MM-DD day, a note of text or none. */
export function isShopClosedDay(entry: unknown): entry is ShopClosedDay {
  const { date, note } = (entry ?? {}) as Partial<ShopClosedDay>;
  return !Number.isNaN(dayNumber(date)) && (note === undefined || note === null || typeof note === 'string');
}

/** How many of the shop's runs of closed days the description names before it counts the rest ("and 3 more days"). */
const SHOP_RUNS_NAMED = 3;

/** How many weekday-of-month holidays the description names before the rest are "other public holidays". */
const NTH_WEEKDAYS_NAMED = 3;

/**
 * What the forecast says of the closed days in its horizon (`closedAhead`): the weekdays closed in
 * their months by name ("Closed on Sundays in Jan–Feb.", pattern `closed_days`), the weekday-of-month
 * holidays (`nthWeekdays`) by rule and name, the first few in date order ("Closed on the last Monday
 * of August (summer bank holiday) and other public holidays."), any other learned closed day that is
 * a public holiday (isPublicHoliday; `businessClosedWeekdays` for its substitute days) as one
 * (`holidays`), the learned closed days in a run with one that is none (three weeks of congés) as the
 * shop's, by date: "Closed 3 Aug – 24 Aug, as the shop was in past years.", and the shop's own (`shopDays`) by date
 * with its note: "Closed on 28 Dec (Bank holiday (substitute)) and 4 Jan (Stock-take), as the shop's
 * settings say." (both pattern `shop_closed`). A day both learned and the shop's is the shop's: its
 * note says more than "public holiday", and the shop said it.
 */
export function closuresAhead(closedAhead: readonly number[], weekdaysInMonths: readonly ClosedWeekdayInMonths[], shopDays: ReadonlyMap<number, string | null> = new Map(), nthWeekdays: readonly NthWeekday[] = [], businessClosedWeekdays: readonly number[] = []): { description: string; patterns: DemandPattern[] } {
  const learned = closedAhead.filter((day) => !shopDays.has(day)).sort((a, b) => a - b);
  const shopAhead = closedAhead.filter((day) => shopDays.has(day)).sort((a, b) => a - b);
  const rulesAhead = weekdaysInMonths.filter((rule) => learned.some((day) => inClosedMonths(day, [rule])));
  const datesAhead = learned.filter((day) => !inClosedMonths(day, weekdaysInMonths));
  const isHoliday = (day: number) => nthWeekdays.some((rule) => isNthWeekday(day, rule)) || isPublicHoliday(day, businessClosedWeekdays);
  // A run of closed days with one that is no holiday (three weeks of congés, 15 August among them) is the shop's closure, all of it.
  const closedAsBefore = shopRuns(datesAhead, new Map()).flatMap(({ from, to }) => {
    const run = Array.from({ length: to - from + 1 }, (_, k) => from + k);
    return run.every(isHoliday) ? [] : run;
  });
  const shopsOwn = new Set(closedAsBefore);
  const holidayDays = datesAhead.filter((day) => !shopsOwn.has(day));
  // The weekday-of-month holidays in the order their first day comes.
  const nthAhead = [...new Set(holidayDays.flatMap((day) => nthWeekdays.filter((rule) => isNthWeekday(day, rule))))];
  const named = nthAhead.slice(0, NTH_WEEKDAYS_NAMED);
  const others = holidayDays.some((day) => !named.some((rule) => isNthWeekday(day, rule)));
  const holidays = holidayDays.length > 0;
  const sentences = [
    ...(named.length ? [`Closed on ${listText([...named.map(nthWeekdayText), ...(others ? ['other public holidays'] : [])])}.`] : holidays ? ['Closed on public holidays.'] : []),
    ...rulesAhead.map((rule) => `Closed on ${WEEKDAY_NAMES[rule.weekday]} in ${monthRanges(rule.months)}.`),
    ...(closedAsBefore.length ? [`${shopDaysText(closedAsBefore, new Map())}, as the shop was in past years.`] : []),
    ...(shopAhead.length ? [`${shopDaysText(shopAhead, shopDays)}, as the shop's settings say.`] : []),
  ];
  const shopClosed = shopAhead.length > 0 || closedAsBefore.length > 0;
  const patterns: DemandPattern[] = [...(rulesAhead.length ? ['closed_days' as const] : []), ...(holidays ? ['holidays' as const] : []), ...(shopClosed ? ['shop_closed' as const] : [])];
  return { description: sentences.map((sentence) => ` ${sentence}`).join(''), patterns };
}

type ShopRun = { from: number; to: number; note: string | null };

/** Consecutive days (ascending) with the same note as one run: a shop closed over Christmas said it once, not ten times. */
function shopRuns(days: readonly number[], notes: ReadonlyMap<number, string | null>): ShopRun[] {
  const runs: ShopRun[] = [];
  for (const day of days) {
    const note = notes.get(day) ?? null;
    const last = runs.at(-1);
    if (last && last.to === day - 1 && last.note === note) last.to = day;
    else runs.push({ from: day, to: day, note });
  }
  return runs;
}

/**
 * The shop's closed days ahead (ascending) as runs by date and note, the first few named and the
 * rest counted in days: "Closed 24 Dec – 2 Jan (Christmas closure) and 4 Jan (Stock-take)",
 * "Closed on 4 Jan (Stock-take), 6 Jan, 8 Jan and 3 more days" ("on" when every day named is a
 * day alone). The year too when the days named span a year or more, where "28 Dec" would name two days.
 */
function shopDaysText(days: readonly number[], notes: ReadonlyMap<number, string | null>): string {
  const named = shopRuns(days, notes).slice(0, SHOP_RUNS_NAMED);
  const withYear = named.at(-1)!.to - named[0]!.from >= 365;
  const dayText = (day: number) => {
    const date = formatDay(day);
    return `${monthDayText(date.slice(5))}${withYear ? ` ${date.slice(0, 4)}` : ''}`;
  };
  const parts = named.map(({ from, to, note }) => `${from === to ? dayText(from) : `${dayText(from)} – ${dayText(to)}`}${note ? ` (${note})` : ''}`);
  const lead = named.every(({ from, to }) => from === to) ? 'Closed on' : 'Closed';
  const more = days.length - named.reduce((sum, { from, to }) => sum + to - from + 1, 0);
  if (more) return `${lead} ${parts.join(', ')} and ${more} more ${more === 1 ? 'day' : 'days'}`;
  return `${lead} ${listText(parts)}`;
}

/** Parts of a sentence as a list: "a", "a and b", "a, b and c". */
const listText = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

/** Months (1–12) as runs a buyer reads, a run over the new year included: [1, 2, 12] is "Dec–Feb", [1, 3] "Jan, Mar". */
function monthRanges(months: readonly number[]): string {
  const closed = new Set(months);
  const next = (month: number) => (month % 12) + 1;
  const starts = [...closed].sort((a, b) => a - b).filter((month) => !closed.has(month === 1 ? 12 : month - 1));
  if (!starts.length) return 'every month';
  return starts
    .map((start) => {
      let end = start;
      while (closed.has(next(end))) end = next(end);
      return start === end ? MONTH_NAMES[start - 1] : `${MONTH_NAMES[start - 1]}–${MONTH_NAMES[end - 1]}`;
    })
    .join(', ');
}
