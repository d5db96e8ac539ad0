import { describe, expect, it } from 'vitest';
import { buildChartRows, emptyRow, valueAxis } from './chart-data.ts';
import { forecastFixture } from './fixtures.test-data.ts';

describe('buildChartRows', () => {
  it('merges history, forecast and the historical forecast by date, sorted', () => {
    const rows = buildChartRows(forecastFixture(), true);
    expect(rows.map((row) => row.date)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05']);
    expect(rows[0]).toEqual({
      date: '2026-01-01',
      actualSales: 3,
      actualStock: null,
      forecastSales: null,
      salesUpperBound: null,
      salesLowerBound: null,
      forecastStock: null,
      stockUpperBound: null,
      stockLowerBound: null,
    });
    expect(rows[1]).toMatchObject({ actualSales: 4, actualStock: 20, forecastSales: 3.5, salesUpperBound: 6, salesLowerBound: 1 });
    expect(rows[4]).toEqual({
      date: '2026-01-05',
      actualSales: null,
      actualStock: null,
      forecastSales: 6,
      salesUpperBound: 9,
      salesLowerBound: 3,
      forecastStock: 4,
      stockUpperBound: 10,
      stockLowerBound: -2,
    });
  });

  it('keeps the forecast start day when the historical forecast is shown', () => {
    const rows = buildChartRows(forecastFixture(), true);
    expect(rows.find((row) => row.date === '2026-01-04')).toMatchObject({ forecastSales: 5, forecastStock: 10 });
  });

  it('removes forecast values on or before the forecast start when the historical forecast is hidden (spec §4)', () => {
    const rows = buildChartRows(forecastFixture(), false);
    for (const row of rows.filter((r) => r.date <= '2026-01-04')) {
      expect([row.forecastSales, row.salesUpperBound, row.salesLowerBound, row.forecastStock, row.stockUpperBound, row.stockLowerBound]).toEqual([null, null, null, null, null, null]);
    }
    // Actuals stay; the day after the start keeps its forecast.
    expect(rows.find((row) => row.date === '2026-01-03')).toMatchObject({ actualSales: 5, actualStock: 15 });
    expect(rows.find((row) => row.date === '2026-01-05')).toMatchObject({ forecastSales: 6, forecastStock: 4 });
    // A day left with nothing at all is dropped.
    expect(rows.map((row) => row.date)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-05']);
  });

  it('lets the forecast win over a backtest value on the same day', () => {
    const fixture = forecastFixture({ backtest: [{ ds: '2026-01-05', yhat: 99, yhat_upper: 100, yhat_lower: 98 }] });
    expect(buildChartRows(fixture, true).find((row) => row.date === '2026-01-05')).toMatchObject({ forecastSales: 6, salesUpperBound: 9 });
  });

  it("starts at the product's first sale or stock figure, not at the history window's empty first days", () => {
    const base = forecastFixture();
    const emptyDays = ['2025-12-29', '2025-12-30', '2025-12-31'].map((ds) => ({ ds, y: 0 }));
    const listedLately = forecastFixture({ historical: { ...base.historical, sales: [...emptyDays, ...base.historical.sales] } });
    expect(buildChartRows(listedLately, false)[0]?.date).toBe('2026-01-01');
    const stockFirst = forecastFixture({ historical: { sales: emptyDays, stock: [{ ds: '2025-12-30', stock_level: 8, isStockSnapshot: true, isLastSnapshot: false }, ...base.historical.stock] } });
    expect(buildChartRows(stockFirst, false)[0]?.date).toBe('2025-12-30');
  });

  it('handles an empty answer', () => {
    const empty = forecastFixture({ historical: { sales: [], stock: [] }, forecast: { sales: [], stock: [] }, backtest: [] });
    expect(buildChartRows(empty, false)).toEqual([]);
  });
});

describe('valueAxis', () => {
  const stockRows = (levels: number[]) => levels.map((level, i) => ({ ...emptyRow(`2026-01-${String(i + 1).padStart(2, '0')}`), forecastStock: level }));
  const stockAxis = (levels: number[]) => valueAxis(stockRows(levels), ['forecastStock'], true);

  it('shows the unmet demand of a product with nothing on hand, not an axis from −1 to 0', () => {
    const { domain, ticks } = stockAxis([-0.5, -6, -20, -54]);
    expect(domain[0]).toBeLessThanOrEqual(-13.5);
    expect(domain[0]).toBeGreaterThan(-54);
    expect(domain[1]).toBeGreaterThanOrEqual(0);
    expect(ticks).toContain(0);
  });

  it('keeps the history of a stocked product in view: below zero at most the larger of half its highest and a quarter of its lowest value', () => {
    // The floor, then down to a round tick.
    const floorOf = (levels: number[]) => stockAxis(levels).domain[0];
    expect(floorOf([500, 300, -100])).toBe(-200);
    expect(floorOf([100, 20, -1000])).toBe(-300);
    expect(floorOf([400, 0, -300])).toBe(-200);
    expect(floorOf([400, 0, -3000])).toBe(-750);
  });

  it('starts a sales axis at zero', () => {
    const rows = [{ ...emptyRow('2026-01-01'), actualSales: -3, forecastSales: 7 }];
    expect(valueAxis(rows, ['actualSales', 'forecastSales'], false).domain).toEqual([0, 8]);
  });
});
