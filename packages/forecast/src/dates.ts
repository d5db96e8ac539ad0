// Dates are whole UTC days. Working in day numbers avoids DST and time-zone drift.
const MS_PER_DAY = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Day number since 1970-01-01, or NaN when `ds` is not a real 'YYYY-MM-DD' date. */
export function dayNumber(ds: unknown): number {
  if (typeof ds !== 'string' || !ISO_DAY.test(ds.slice(0, 10))) return NaN;
  const time = Date.parse(`${ds.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(time)) return NaN;
  const day = time / MS_PER_DAY;
  // Date.parse rolls 2024-02-30 over to March; reject instead of guessing.
  return formatDay(day) === ds.slice(0, 10) ? day : NaN;
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}
