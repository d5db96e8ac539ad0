// The "historical" member of a forecast read (spec §3) as JSON text: a product's daily sales over the
// history window and its daily stock from the first snapshot, made from the "day:value" pairs the
// database gives (ProductForecastRow in repo.ts). The reads after one catalogue run share one window,
// so each day's date and JSON prefix are written once per window, not once per read.
import { pairs } from './batch-task.ts';
import type { ProductForecastRow } from './repo.ts';

const DAY_MS = 86_400_000;

type Window = { since: string; days: number; salesPrefixes: string[]; stockPrefixes: string[] };
let latestWindow: Window | null = null;

function windowOf(since: string, days: number): Window {
  if (latestWindow?.since !== since || latestWindow.days !== days) {
    const first = Date.parse(`${since}T00:00:00Z`);
    const dates = Array.from({ length: days }, (_, day) => new Date(first + day * DAY_MS).toISOString().slice(0, 10));
    latestWindow = {
      since,
      days,
      salesPrefixes: dates.map((date) => `{"ds":"${date}","y":`),
      stockPrefixes: dates.map((date) => `{"ds":"${date}","stock_level":`),
    };
  }
  return latestWindow;
}

/** Calls `visit` with each "day:value" pair of `text` (comma-joined, in any order) as numbers. */
const eachPair = (text: string | null, visit: (day: number, value: number) => void) => pairs(text, (day, value) => visit(Number(day), Number(value)));

/**
 * What the product has on hand when the forecast starts: the stock line's last day (the last day of
 * history) and the count it started from — or a count dated the first forecast day itself, taken
 * as it is, as the projection takes it (`stockAtHistoryEnd` in the engine). Null without a count
 * on or before that day.
 */
export type OnHand = { units: number; countedUnits: number; countedOn: string };

/**
 * `{"sales":[…],"stock":[…]}` for the `days` days from `since` (`json`): sales per day (0 on a day
 * without any), and stock per day from the first snapshot on — a snapshot resets the level; between
 * them, minus the day's sales plus the day's received deliveries. `onHand`: from the same levels, so
 * the screen's figure and the chart's line cannot disagree.
 */
export function historicalJson(history: Pick<ProductForecastRow, 'sales' | 'snapshots' | 'deliveries'>, since: string, days: number): { json: string; onHand: OnHand | null } {
  const { salesPrefixes, stockPrefixes } = windowOf(since, days);
  const sold = new Float64Array(days);
  eachPair(history.sales, (day, units) => {
    if (day < days) sold[day] = units;
  });
  const sales = new Array<string>(days);
  for (let day = 0; day < days; day++) sales[day] = `${salesPrefixes[day]}${sold[day]}}`;

  const snapshotLevels = new Float64Array(days);
  const hasSnapshot = new Uint8Array(days);
  let firstSnapshot = Infinity;
  let lastSnapshot = -Infinity;
  // Set in the callback, which the compiler's narrowing does not follow.
  let openingCount = null as number | null;
  eachPair(history.snapshots, (day, level) => {
    firstSnapshot = Math.min(firstSnapshot, day);
    lastSnapshot = Math.max(lastSnapshot, day);
    if (day < days) {
      snapshotLevels[day] = level;
      hasSnapshot[day] = 1;
    } else if (day === days) openingCount = level;
  });
  const received = new Float64Array(days);
  eachPair(history.deliveries, (day, units) => {
    if (day < days) received[day] = (received[day] as number) + units;
  });
  const stock: string[] = [];
  let level = 0;
  let countDay = -1;
  for (let day = firstSnapshot; day < days; day++) {
    if (hasSnapshot[day]) countDay = day;
    level = hasSnapshot[day] ? (snapshotLevels[day] as number) : level - (sold[day] as number) + (received[day] as number);
    stock.push(`${stockPrefixes[day]}${level},"isStockSnapshot":${hasSnapshot[day] === 1},"isLastSnapshot":${day === lastSnapshot}}`);
  }
  const json = `{"sales":[${sales.join(',')}],"stock":[${stock.join(',')}]}`;
  if (openingCount !== null) return { json, onHand: { units: openingCount, countedUnits: openingCount, countedOn: dayOf(since, days) } };
  if (countDay < 0) return { json, onHand: null };
  return { json, onHand: { units: level, countedUnits: snapshotLevels[countDay] as number, countedOn: dayOf(since, countDay) } };
}

const dayOf = (since: string, day: number) => new Date(Date.parse(`${since}T00:00:00Z`) + day * DAY_MS).toISOString().slice(0, 10);
