// The history's stock line and what is on hand at its end (ADR 0030, amended), walked by one function
// for the forecast read (history-json.ts: the chart's line and the header's figure) and for the
// catalogue run's worker threads (batch-task.ts: the figure stored with each forecast, which the
// report's lists and the dashboard read), so the screens cannot disagree about it.
import { COUNT_AHEAD_DAYS } from '@stockwise/forecast';

/**
 * What the product has on hand when the forecast starts: the stock line's last day (the last day of
 * history) and the count it started from — or a count dated the first forecast day itself, or up to
 * COUNT_AHEAD_DAYS after it (typed by someone whose day is ahead of the shop's), taken as it is, as
 * the projection takes it (`stockAtHistoryEnd` in the engine). Null without such a count.
 */
export type OnHand = { units: number; countedUnits: number; countedOn: string };

/** A product's history by day, counted from the window's first day, over the window's `days` days. */
export type DailyHistory = {
  days: number;
  sold: Float64Array;
  received: Float64Array;
  counted: Float64Array;
  isCount: Uint8Array;
  firstCount: number;
  /** The latest count dated the first forecast day (day `days`) or up to COUNT_AHEAD_DAYS after it: what is on hand, as it is. */
  openingCount: { day: number; level: number } | null;
};

export const emptyHistory = (days: number): DailyHistory => ({
  days,
  sold: new Float64Array(days),
  received: new Float64Array(days),
  counted: new Float64Array(days),
  isCount: new Uint8Array(days),
  firstCount: Infinity,
  openingCount: null,
});

/** A count on `day`: within the window it resets the line; from the first forecast day on (COUNT_AHEAD_DAYS) the latest is the opening count; later ones wait. */
export function addCount(history: DailyHistory, day: number, level: number): void {
  if (day < 0 || day > history.days + COUNT_AHEAD_DAYS) return;
  history.firstCount = Math.min(history.firstCount, day);
  if (day >= history.days) {
    if (!history.openingCount || day >= history.openingCount.day) history.openingCount = { day, level };
  } else {
    history.counted[day] = level;
    history.isCount[day] = 1;
  }
}

export function addDelivery(history: DailyHistory, day: number, units: number): void {
  if (day >= 0 && day < history.days) history.received[day] = (history.received[day] as number) + units;
}

/**
 * Walks the stock line from the first count to the window's last day — a count resets the level;
 * between counts, minus the day's sales plus the day's received deliveries — calling `visit` with
 * each day's level, and says what is on hand at its end.
 */
export function walkStockLine(history: DailyHistory, since: string, visit?: (day: number, level: number) => void): OnHand | null {
  const { days, sold, received, counted, isCount } = history;
  let level = 0;
  let countDay = -1;
  for (let day = history.firstCount; day < days; day++) {
    if (isCount[day]) countDay = day;
    level = isCount[day] ? (counted[day] as number) : level - (sold[day] as number) + (received[day] as number);
    visit?.(day, level);
  }
  const opening = history.openingCount;
  if (opening) return { units: opening.level, countedUnits: opening.level, countedOn: dayOf(since, opening.day) };
  if (countDay < 0) return null;
  return { units: level, countedUnits: counted[countDay] as number, countedOn: dayOf(since, countDay) };
}

const DAY_MS = 86_400_000;
const dayOf = (since: string, day: number) => new Date(Date.parse(`${since}T00:00:00Z`) + day * DAY_MS).toISOString().slice(0, 10);
