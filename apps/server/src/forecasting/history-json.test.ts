import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '@stockwise/forecast';
import { onHandOf } from './batch-task.ts';
import { historicalJson } from './history-json.ts';

const DAY_MS = 86_400_000;
const dateOf = (since: string, day: number) => new Date(Date.parse(`${since}T00:00:00Z`) + day * DAY_MS).toISOString().slice(0, 10);

type Pairs = [day: number, value: string][];

/** The history as the spec describes it, written plainly: dates, maps and JSON.stringify. */
function expectedHistorical(since: string, days: number, sales: Pairs, snapshots: Pairs, deliveries: Pairs) {
  const dates = Array.from({ length: days }, (_, day) => dateOf(since, day));
  const today = dateOf(since, days);
  const soldOn = new Map(sales.map(([day, units]) => [dateOf(since, day), Number(units)]));
  const stock: { ds: string; stock_level: number; isStockSnapshot: boolean; isLastSnapshot: boolean }[] = [];
  if (snapshots.length) {
    const levelOn = new Map(snapshots.map(([day, level]) => [dateOf(since, day), Number(level)]));
    const receivedOn = new Map<string, number>();
    for (const [day, units] of deliveries) if (dateOf(since, day) < today) receivedOn.set(dateOf(since, day), (receivedOn.get(dateOf(since, day)) ?? 0) + Number(units));
    const snapshotDates = [...levelOn.keys()].sort();
    const last = snapshotDates.at(-1);
    let level = 0;
    for (let ds = snapshotDates[0] as string; ds < today; ds = dateOf(ds, 1)) {
      const snapshot = levelOn.get(ds);
      level = snapshot ?? level - (soldOn.get(ds) ?? 0) + (receivedOn.get(ds) ?? 0);
      stock.push({ ds, stock_level: level, isStockSnapshot: snapshot !== undefined, isLastSnapshot: ds === last });
    }
  }
  return JSON.stringify({ sales: dates.map((ds) => ({ ds, y: soldOn.get(ds) ?? 0 })), stock });
}

/** On hand as a buyer reads the chart: the latest count dated the first forecast day or up to two after it, else the line's last day from the count it started at. */
function expectedOnHand(since: string, days: number, snapshots: Pairs, historical: string) {
  const opening = snapshots.filter(([day]) => day >= days && day <= days + 2).sort(([a], [b]) => a - b).at(-1);
  if (opening) return { units: Number(opening[1]), countedUnits: Number(opening[1]), countedOn: dateOf(since, opening[0]) };
  const { stock } = JSON.parse(historical) as { stock: { ds: string; stock_level: number; isStockSnapshot: boolean }[] };
  const count = stock.filter((point) => point.isStockSnapshot).at(-1);
  const last = stock.at(-1);
  return count && last ? { units: last.stock_level, countedUnits: count.stock_level, countedOn: count.ds } : null;
}

// Unordered, as the database's string_agg gives them; one value per day, as its unique keys allow.
const pairsText = (pairs: Pairs) => (pairs.length ? pairs.map(([day, value]) => `${day}:${value}`).join(',') : null);
const quantity = fc.oneof(fc.integer({ min: -50, max: 500 }).map(String), fc.constantFrom('1.5', '0.25', '-2.75', '3.000', '0', '1e2'));
const pairsOver = (days: number) => fc.uniqueArray(fc.tuple(fc.nat(days + 5), quantity), { selector: ([day]) => day, maxLength: days + 5 });

describe('historicalJson', () => {
  it('writes what the plain computation writes, for any sales, snapshots and deliveries in any order', () => {
    const history = fc.integer({ min: 1, max: 70 }).chain((days) =>
      fc.record({ days: fc.constant(days), since: fc.constantFrom('2024-02-20', '2025-12-25', '2026-03-28'), sales: pairsOver(days), snapshots: pairsOver(days), deliveries: pairsOver(days) }),
    );
    fc.assert(
      fc.property(history, ({ days, since, sales, snapshots, deliveries }) => {
        const { json, onHand } = historicalJson({ sales: pairsText(sales), snapshots: pairsText(snapshots), deliveries: pairsText(deliveries) }, since, days);
        expect(json).toBe(expectedHistorical(since, days, sales, snapshots, deliveries));
        expect(onHand).toEqual(expectedOnHand(since, days, snapshots, json));
      }),
      { numRuns: 300 },
    );
  });

  it("stores with the forecast what the header shows: the read's walk, else the latest count as it is", () => {
    const history = fc.integer({ min: 1, max: 70 }).chain((days) =>
      fc.record({ days: fc.constant(days), since: fc.constantFrom('2024-02-20', '2025-12-25', '2026-03-28'), sales: pairsOver(days), snapshots: pairsOver(days), deliveries: pairsOver(days) }),
    );
    fc.assert(
      fc.property(history, ({ days, since, sales, snapshots, deliveries }) => {
        // The run reads every sale, count (in date order) and delivery since the history's first day (repo.productRowsAfter); the read only those it shows.
        const counts = [...snapshots].sort(([a], [b]) => a - b);
        const input = {
          sales: { firstDay: dayNumber(since), days: sales.map(([day]) => day), units: sales.map(([, units]) => Number(units)) },
          stock: counts.map(([day, level]) => ({ ds: dateOf(since, day), stock_level: Number(level) })),
          deliveries: deliveries.map(([day, units]) => ({ ds: dateOf(since, day), quantity: Number(units) })),
        };
        const shown = historicalJson({ sales: pairsText(sales.filter(([day]) => day < days)), snapshots: pairsText(snapshots), deliveries: pairsText(deliveries.filter(([day]) => day < days)) }, since, days);
        const latest = counts.at(-1);
        const header = shown.onHand ?? (latest ? { units: Number(latest[1]), countedUnits: Number(latest[1]), countedOn: dateOf(since, latest[0]) } : null);
        expect(onHandOf(input, { since, historyDays: days })).toEqual(header);
      }),
      { numRuns: 300 },
    );
  });

  it('gives two years of zeros and no stock rows to a product with no history', () => {
    const { json, onHand } = historicalJson({ sales: null, snapshots: null, deliveries: null }, '2024-11-24', 730);
    expect(onHand).toBeNull();
    const historical = JSON.parse(json) as { sales: { ds: string; y: number }[]; stock: unknown[] };
    expect(historical.sales).toHaveLength(730);
    expect(historical.sales[0]).toEqual({ ds: '2024-11-24', y: 0 });
    expect(historical.sales.at(-1)).toEqual({ ds: '2026-11-23', y: 0 });
    expect(historical.stock).toEqual([]);
  });

  it('starts the stock at the first snapshot and carries it across days without one', () => {
    const { json, onHand } = historicalJson({ sales: '3:2,1:5,4:1', snapshots: '1:10', deliveries: '3:4,9:100' }, '2026-01-01', 5);
    const historical = JSON.parse(json) as { stock: unknown[] };
    expect(historical.stock).toEqual([
      { ds: '2026-01-02', stock_level: 10, isStockSnapshot: true, isLastSnapshot: true },
      { ds: '2026-01-03', stock_level: 10, isStockSnapshot: false, isLastSnapshot: false },
      { ds: '2026-01-04', stock_level: 12, isStockSnapshot: false, isLastSnapshot: false },
      { ds: '2026-01-05', stock_level: 11, isStockSnapshot: false, isLastSnapshot: false },
    ]);
    expect(onHand).toEqual({ units: 11, countedUnits: 10, countedOn: '2026-01-02' });
  });

  it('takes a count dated the first forecast day as what is on hand, as the projection does', () => {
    const { json, onHand } = historicalJson({ sales: '3:2', snapshots: '1:10,5:40', deliveries: null }, '2026-01-01', 5);
    expect(onHand).toEqual({ units: 40, countedUnits: 40, countedOn: '2026-01-06' });
    // The history's line still ends where the sales left it.
    expect((JSON.parse(json) as { stock: { stock_level: number }[] }).stock.at(-1)?.stock_level).toBe(8);
  });

  it("takes the latest count dated up to two days after it (a writer's day ahead of the shop's) as what is on hand; a later one waits", () => {
    expect(historicalJson({ sales: '3:2', snapshots: '1:10,7:30,6:40', deliveries: null }, '2026-01-01', 5).onHand).toEqual({ units: 30, countedUnits: 30, countedOn: '2026-01-08' });
    expect(historicalJson({ sales: '3:2', snapshots: '1:10,8:30', deliveries: null }, '2026-01-01', 5).onHand).toEqual({ units: 8, countedUnits: 10, countedOn: '2026-01-02' });
  });
});
