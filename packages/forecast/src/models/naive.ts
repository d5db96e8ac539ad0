import { fixed, type Candidate } from './candidate.ts';

export function naive(): Candidate {
  return {
    name: 'Naive',
    description: 'Repeats the most recent value.',
    minLength: 1,
    fit: () => fixed('Naive', (history, end, out) => out.fill(history[end - 1] ?? 0)),
  };
}

/**
 * Random walk with drift: the last value plus the average change per period
 * over the whole history (the line from the first to the last point, carried on).
 */
export function drift(): Candidate {
  return {
    name: 'Drift',
    description: 'Continues the average change per period since the start of the history.',
    minLength: 2,
    fit: () =>
      fixed('Drift', (history, end, out) => {
        const last = history[end - 1] ?? 0;
        const step = end > 1 ? (last - history[0]!) / (end - 1) : 0;
        for (let j = 0; j < out.length; j++) out[j] = last + step * (j + 1);
      }),
  };
}

export function seasonalNaive(period: number): Candidate {
  return {
    name: `SeasonalNaive(${period})`,
    description: `Repeats the last ${period === 7 ? 'week' : `${period} periods`} exactly.`,
    minLength: period,
    fit: () =>
      fixed(`SeasonalNaive(${period})`, (history, end, out) => {
        for (let j = 0; j < out.length; j++) out[j] = history[end - period + (j % period)] ?? 0;
      }),
  };
}

/**
 * Mean of the same seasonal position over the last few cycles. Averaging cycles
 * removes much of the noise seasonal naive copies forward, which matters for
 * hourly data where a single week is a noisy template.
 */
export function seasonalAverage(period: number, cycles: number): Candidate {
  return {
    name: `SeasonalAverage(${period}x${cycles})`,
    description: `Averages the same ${period === 7 ? 'weekday' : 'position'} over the last ${cycles} cycles.`,
    minLength: period * cycles,
    fit: () =>
      fixed(`SeasonalAverage(${period}x${cycles})`, (history, end, out) => {
        for (let j = 0; j < out.length; j++) {
          let sum = 0;
          for (let c = 1; c <= cycles; c++) sum += history[end - c * period + (j % period)] ?? 0;
          out[j] = sum / cycles;
        }
      }),
  };
}

const YEAR = 364; // 52 weeks: last year's same weekday, so the weekly shape lines up
// The same weekday a week either side: less noise than one day, and the weekday shape kept.
const YEAR_WINDOW_WEEKS = 1;
const YEAR_RATIO_WEEKS = 8;
// Fewer days than these to compare with last year and the year is not scaled: its level stays last year's.
const MIN_RATIO_DAYS = 28;

// An off-season sale of a season-only item is its off-season's level this many days either side.
const SEASON_EDGE_DAYS = 3;

/**
 * Last year's same days (each with its weekday a week either side), scaled by how the last eight weeks compare
 * with the same weeks a year before (clipped to ½–2). For seasonal-only items — a Christmas item
 * ramps up before December and is gone after it — where level-and-trend models carry the season's
 * level on into the off-season; rolling-origin validation decides whether it is used.
 * `onSeason` (an item that sells in its season only, season-only.ts; whether day t is on its season's
 * dates): scaled by the last year against the year before, and each day reads last year's days of its
 * own kind only. A day on the season's dates averages the window's days that are on those dates too, a
 * day with nothing sold as zero (a gap in last year's season stays a gap): last year's same weekday is a
 * day later in the calendar, and the week either side reaches past the season's edge, whose empty days
 * thinned the days a week in from either end to 8/3 of 4 and Christmas Eve (last year's Christmas Day)
 * to half. A day off the season's dates reads the off-season's days only, those with an off-season sale
 * within three days: the season's weeks carried half its level onto Christmas Day and the days before
 * its first.
 */
export function yearlyNaive(options: { onSeason?: (t: number) => boolean; isClosed?: (t: number) => boolean; yearBack?: (t: number) => number } = {}): Candidate {
  const { onSeason } = options;
  // How many days back last year's same day is: 364, or a season's day as many days from last year's
  // Easter as this one is from this year's (a season that ends at Easter, seasonCalendarOf).
  const yearBack = options.yearBack ?? (() => YEAR);
  // A closed date's value is imputed (what the day would have sold), not a sale: it is no off-season sale.
  const isClosed = options.isClosed ?? (() => false);
  /** Whether anything sold within SEASON_EDGE_DAYS of day `t` on an off-season day. */
  const soldNearOffSeason = (history: Float64Array, t: number, isSeasonDay: (t: number) => boolean): boolean => {
    for (let s = Math.max(0, t - SEASON_EDGE_DAYS); s <= t + SEASON_EDGE_DAYS && s < history.length; s++) {
      if (history[s]! > 0 && !isClosed(s) && !isSeasonDay(s)) return true;
    }
    return false;
  };
  /** Whether last year's day `t` is read for a forecast day on (`forSeason`) or off the season's dates: a day of the same kind only. */
  const counts = (history: Float64Array, t: number, forSeason: boolean): boolean => {
    if (!onSeason) return true;
    return forSeason ? onSeason(t) : !onSeason(t) && soldNearOffSeason(history, t, onSeason);
  };
  // A season-only item's last eight weeks hold a few weeks of its season at most, a noisy ratio (0.5
  // to 2 for the same rate both years): it compares the last year with the one before instead, as far
  // as the history holds both.
  const ratioDays = onSeason ? (end: number) => Math.min(YEAR, end - YEAR) : () => YEAR_RATIO_WEEKS * 7;
  return {
    name: 'YearlyNaive',
    description: onSeason
      ? "Repeats last year's season, scaled to this year's level: the item sells in the same weeks every year and not outside them."
      : "Repeats the same weeks of last year, scaled to this year's level: the yearly season.",
    minLength: YEAR + YEAR_RATIO_WEEKS * 7,
    fit: () =>
      fixed('YearlyNaive', (history, end, out) => {
        let recent = 0;
        let lastYear = 0;
        // Each day against its own day last year: a season that ends at Easter was two weeks longer
        // the year Easter came two weeks later, and is not at a lower level for being shorter.
        for (let t = end - ratioDays(end); t < end; t++) {
          recent += history[t] ?? 0;
          lastYear += history[t - yearBack(t)] ?? 0;
        }
        // A shop's first year (ADR 0146) holds a few days of this year's season at most: too few to scale by.
        const ratio = ratioDays(end) < MIN_RATIO_DAYS ? 1 : Math.min(2, Math.max(0.5, (recent + 1) / (lastYear + 1)));
        for (let j = 0; j < out.length; j++) {
          // The nearest year back whose window lies wholly in the history.
          let source = end + j - yearBack(end + j);
          while (source + 7 * YEAR_WINDOW_WEEKS >= end) source -= yearBack(source);
          const forSeason = onSeason?.(end + j) ?? true;
          // Off the season, a day whose own last year's day sold nothing near it forecasts nothing: its
          // weeks either side may hold a stray sale that is not the off-season's level.
          if (!forSeason && !counts(history, source, false)) continue;
          let sum = 0;
          let count = 0;
          for (let week = -YEAR_WINDOW_WEEKS; week <= YEAR_WINDOW_WEEKS; week++) {
            const t = source + 7 * week;
            if (t < 0 || !counts(history, t, forSeason)) continue;
            sum += history[t]!;
            count++;
          }
          out[j] = count > 0 ? (ratio * sum) / count : 0;
        }
      }),
  };
}
