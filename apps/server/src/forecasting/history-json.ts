// The "historical" member of a forecast read (spec §3) as JSON text: a product's daily sales over the
// history window and its daily stock from the first snapshot, made from the "day:value" pairs the
// database gives (ProductForecastRow in repo.ts). The reads after one catalogue run share one window,
// so each day's date and JSON prefix are written once per window, not once per read.
import { pairs } from './batch-task.ts';
import type { ProductForecastRow } from './repo.ts';
import { addCount, addDelivery, emptyHistory, walkStockLine, type OnHand } from './stock-line.ts';

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
 * `{"sales":[…],"stock":[…]}` for the `days` days from `since` (`json`): sales per day (0 on a day
 * without any), and stock per day from the first snapshot on (walkStockLine). `onHand`: from the same
 * walk, so the screen's figure and the chart's line cannot disagree.
 */
export function historicalJson(history: Pick<ProductForecastRow, 'sales' | 'snapshots' | 'deliveries'>, since: string, days: number): { json: string; onHand: OnHand | null } {
  const { salesPrefixes, stockPrefixes } = windowOf(since, days);
  const daily = emptyHistory(days);
  const sold = daily.sold;
  eachPair(history.sales, (day, units) => {
    if (day < days) sold[day] = units;
  });
  const sales = new Array<string>(days);
  for (let day = 0; day < days; day++) sales[day] = `${salesPrefixes[day]}${sold[day]}}`;

  let lastSnapshot = -Infinity;
  eachPair(history.snapshots, (day, level) => {
    lastSnapshot = Math.max(lastSnapshot, day);
    addCount(daily, day, level);
  });
  eachPair(history.deliveries, (day, units) => addDelivery(daily, day, units));
  const stock: string[] = [];
  const onHand = walkStockLine(daily, since, (day, level) =>
    stock.push(`${stockPrefixes[day]}${level},"isStockSnapshot":${daily.isCount[day] === 1},"isLastSnapshot":${day === lastSnapshot}}`),
  );
  return { json: `{"sales":[${sales.join(',')}],"stock":[${stock.join(',')}]}`, onHand };
}
