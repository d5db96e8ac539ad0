import { inClosedMonths, type ClosedWeekdayInMonths } from './calendar.ts';
import { dayNumber, MONTH_NAMES } from './dates.ts';
import type { EngineResult } from './engine.ts';
import type { DemandPattern } from './types.ts';

const WEEKDAY_NAMES = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

/** The day numbers of the valid dates among `dates` (ProductForecastInput.closedDates). */
export function closedDayNumbers(dates: readonly string[] | undefined): number[] {
  if (!Array.isArray(dates)) return [];
  return dates.map(dayNumber).filter((day) => !Number.isNaN(day));
}

/**
 * Forecast days the business is closed (a public holiday, a weekday closed in its month) get zero
 * demand and a zero band. Unlike a closed weekday, nothing is given back to the other days: the
 * models never saw the closed days (their past occurrences are unobserved), so their forecast for
 * one is an ordinary day's, and the lost sales of a closed day are lost. The closed days that fell in
 * the horizon are returned.
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
 * What the forecast says of the closed days in its horizon (`closedAhead`): the weekdays closed in
 * their months by name ("Closed on Sundays in Jan–Feb.", pattern `closed_days`), any other closed
 * day as a public holiday (`holidays`).
 */
export function closuresAhead(closedAhead: readonly number[], weekdaysInMonths: readonly ClosedWeekdayInMonths[]): { description: string; patterns: DemandPattern[] } {
  const rulesAhead = weekdaysInMonths.filter((rule) => closedAhead.some((day) => inClosedMonths(day, [rule])));
  const holidays = closedAhead.some((day) => !inClosedMonths(day, weekdaysInMonths));
  const sentences = [...(holidays ? ['Closed on public holidays.'] : []), ...rulesAhead.map((rule) => `Closed on ${WEEKDAY_NAMES[rule.weekday]} in ${monthRanges(rule.months)}.`)];
  const patterns: DemandPattern[] = [...(rulesAhead.length ? ['closed_days' as const] : []), ...(holidays ? ['holidays' as const] : [])];
  return { description: sentences.map((sentence) => ` ${sentence}`).join(''), patterns };
}

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
