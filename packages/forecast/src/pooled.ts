import { dayOfLeapYear, PROFILE_DAYS } from './calendar.ts';
import { formatDay } from './dates.ts';
import type { EngineResult } from './engine.ts';
import { fixed, type Candidate } from './models/candidate.ts';
import { scaleDays } from './short.ts';

const YEAR = 364;
// The last eight weeks against what the pattern expected for them: how this year runs.
const RECENT_DAYS = 56;
// Units of prior weight on "as the pattern says" (ratio 1), so a few quiet weeks of a slow seller
// do not halve its season, and the ratio stays within ½–2 like YearlyNaive's.
const RECENT_PRIOR_UNITS = 10;
const MIN_RATIO = 0.5;
const MAX_RATIO = 2;
/** Half a year of the product's own sales: its level over the pattern is then measurable. */
export const POOLED_YEARLY_MIN_DAYS = 182;

/**
 * The yearly pattern of the product's category (or the whole catalogue), pooled over many
 * products, times the product's own level: for products with one or two years of history whose
 * own yearly pattern is too noisy to copy (YearlyNaive) or fit (Fourier terms). `index[t]` is the
 * pattern's value on history day t, for the history and the horizon after it. The level is the
 * last year's sales over the pattern's sum on the same days (a Christmas item's one season counts
 * in full), adjusted by how the last eight weeks ran against it (clipped ½–2). Rolling-origin
 * validation decides whether it is used, like the other candidates.
 */
export function pooledYearly(index: Float64Array): Candidate {
  return {
    name: 'PooledYearly',
    description: "Follows the yearly pattern of the product's category, at the product's own level.",
    minLength: POOLED_YEARLY_MIN_DAYS,
    fit: () =>
      fixed('PooledYearly', (history, end, out) => {
        let sales = 0;
        let pattern = 0;
        for (let t = Math.max(0, end - YEAR); t < end; t++) {
          sales += history[t]!;
          pattern += index[t] ?? 1;
        }
        const level = pattern > 0 ? sales / pattern : 0;
        let recent = 0;
        let expected = 0;
        for (let t = Math.max(0, end - RECENT_DAYS); t < end; t++) {
          recent += history[t]!;
          expected += level * (index[t] ?? 1);
        }
        const ratio = Math.min(MAX_RATIO, Math.max(MIN_RATIO, (recent + RECENT_PRIOR_UNITS) / (expected + RECENT_PRIOR_UNITS)));
        for (let j = 0; j < out.length; j++) out[j] = level * ratio * (index[end + j] ?? 1);
      }),
  };
}

// A short history sold where its pattern is under a tenth of its average day (a category's dead
// season) gives no level to carry through the year: it is forecast flat, as before.
const MIN_PATTERN_LEVEL = 0.1;

/**
 * A short history's average day carried through the year of its category (or the catalogue),
 * `profile` (366 values by day of a leap year), the history's `days` from `firstDay` (a day number)
 * and its average taken over `averagedDays` (history days). The average is read as the pattern's
 * level on those days, so three December days of a shop whose January is half its December forecast
 * a January half as high (ADR 0201 F10). The band follows the level, as wide relative to it. False
 * where the pattern gives those days no level (the forecast is left as it was).
 */
export function followPooledYear(result: EngineResult, profile: readonly number[], history: { firstDay: number; days: number }, averagedDays: number[]): boolean {
  // As a mean-1 index whatever the caller passed, so no day is more than PROFILE_DAYS times the average.
  const profileMean = profile.reduce((sum, value) => sum + value, 0) / PROFILE_DAYS;
  if (!(profileMean > 0) || averagedDays.length === 0) return false;
  const index = yearlyIndex(profile, history.firstDay, history.days + result.mean.length);
  const reference = averagedDays.reduce((sum, t) => sum + index[t]!, 0) / averagedDays.length / profileMean;
  if (!(reference >= MIN_PATTERN_LEVEL)) return false;
  scaleDays(result, (j) => index[history.days + j]! / profileMean / reference);
  result.description += " It follows its category's yearly pattern (or the whole catalogue's), from the level of those days.";
  return true;
}

const LEAP_DAYS_BEFORE_MARCH = 60;

/**
 * A yearly profile (366 values by day of a leap year) laid out over `length` days from `firstDay`
 * (a day number): the `index` pooledYearly reads. Steps day by day instead of formatting each date.
 */
export function yearlyIndex(profile: readonly number[], firstDay: number, length: number): Float64Array {
  const index = new Float64Array(length);
  let { position, year } = leapYearPosition(firstDay);
  for (let t = 0; t < length; t++) {
    index[t] = profile[position]!;
    position++;
    // 28 Feb of a common year is followed by 1 Mar; 31 Dec by 1 Jan.
    if (position === LEAP_DAYS_BEFORE_MARCH - 1 && !isLeapYear(year)) position++;
    if (position === PROFILE_DAYS) {
      position = 0;
      year++;
    }
  }
  return index;
}

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function leapYearPosition(day: number): { position: number; year: number } {
  const text = formatDay(day);
  return { position: dayOfLeapYear(day), year: Number(text.slice(0, 4)) };
}
