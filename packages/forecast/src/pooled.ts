import { dayOfLeapYear, PROFILE_DAYS } from './calendar.ts';
import { formatDay } from './dates.ts';
import { fixed, type Candidate } from './models/candidate.ts';

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
