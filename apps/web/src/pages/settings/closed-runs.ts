// The shop's closed days as the "Closed on" panel shows and adds them (ADR 0171, amendment "a run of
// closed days in one go"): consecutive days with one note are one run — Christmas Eve to 2 January
// is one line and one Add, not ten — while the server keeps its list of single days.
import { MAX_CLOSED_DATES, type ShopClosedDate } from '@stockwise/contract';
import { addDays } from '../../components/day-field/day-picker.ts';

export type ClosedRun = { from: string; to: string; note: string | null; days: number };

/**
 * The most days one Add takes: two months, a summer closure or Christmas to the New Year with room
 * to spare. A year mistyped in "to" (2027 for 2026) would otherwise close the shop for a year.
 */
export const LONGEST_ADDED_RUN = 62;

/** The list's days in date order, consecutive days with the same note (or none) as one run. */
export function closedRuns(closed: readonly ShopClosedDate[]): ClosedRun[] {
  const runs: ClosedRun[] = [];
  for (const day of [...closed].sort((a, b) => a.date.localeCompare(b.date))) {
    const last = runs.at(-1);
    if (last && last.note === day.note && addDays(last.to, 1) === day.date) {
      last.to = day.date;
      last.days += 1;
    } else runs.push({ from: day.date, to: day.date, note: day.note, days: 1 });
  }
  return runs;
}

/** Where a run stands on the shop's day (ISO): over, under way (today is one of its days), or still ahead. */
export const runWhen = (run: Pick<ClosedRun, 'from' | 'to'>, today: string): 'past' | 'now' | 'ahead' => (run.to < today ? 'past' : run.from <= today ? 'now' : 'ahead');

const daysFromTo = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export type RunAdded =
  /** The list to save, the run's days, and how many of them the list held already (they take the run's note). */
  | { closedDates: ShopClosedDate[]; days: number; alreadyListed: number }
  | { problem: 'reversed' }
  | { problem: 'tooLong'; days: number }
  | { problem: 'tooMany'; total: number };

/** `closed` with every day from `from` to `to` (ISO, both included) closed with `note`; why not, when the run is backwards, too long, or overfills the list. */
export function withRun(closed: readonly ShopClosedDate[], from: string, to: string, note: string | null): RunAdded {
  if (to < from) return { problem: 'reversed' };
  const days = daysFromTo(from, to);
  if (days > LONGEST_ADDED_RUN) return { problem: 'tooLong', days };
  const inRun = (date: string) => date >= from && date <= to;
  const others = closed.filter((day) => !inRun(day.date));
  const total = others.length + days;
  if (total > MAX_CLOSED_DATES) return { problem: 'tooMany', total };
  const run = Array.from({ length: days }, (_, index) => ({ date: addDays(from, index), note }));
  return { closedDates: [...others, ...run], days, alreadyListed: closed.length - others.length };
}
