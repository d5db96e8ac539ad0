// The dashboard's stock worth leaves out stock whose unit cost is unknown (blank, stored as 0) and says how many products that is;
// it carries the shop's currency once one is chosen (ADR 0166); its monthly growth says what it compares, or when it will show.
// Kilos and pieces are never one figure: the total, the growth and the projection go one unit at a time once a product has a unit.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { DashboardResponse, InventoryStats, ProjectionHistory, UnitStockProjection } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { useDashboardStore } from '../../stores/dashboard.ts';
import { initialShopState, useShopStore } from '../../stores/shop.ts';
import { openingUnit, Projection, Stats } from './DashboardPage.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(() => {
  cleanup();
  useShopStore.setState(initialShopState);
});

function renderStats(stats: Partial<InventoryStats>) {
  const inventoryStats: InventoryStats = { totalInventory: 14, inventoryByUnit: [{ unit: null, quantity: 14 }], totalValue: 25, withoutCost: 0, monthlyGrowth: null, growthByUnit: [], snapshotDate: null, growthSince: null, ...stats };
  useDashboardStore.setState({ data: { inventoryStats } as DashboardResponse });
  render(
    <MantineProvider>
      <Stats />
    </MantineProvider>,
  );
  return screen.getByTestId('total-value').textContent;
}

describe('the stock worth on the dashboard', () => {
  it('says how many products on hand have no unit cost and are not in it', () => {
    expect(renderStats({ withoutCost: 1 })).toBe('Worth 25.00 at unit cost · 1 product on hand has no unit cost and is not in it');
    cleanup();
    expect(renderStats({ withoutCost: 3 })).toBe('Worth 25.00 at unit cost · 3 products on hand have no unit cost and are not in it');
  });

  it('says the worth alone when every product on hand has a cost', () => {
    expect(renderStats({})).toBe('Worth 25.00 at unit cost');
  });

  it("writes the worth in the shop's currency once one is chosen", () => {
    useShopStore.setState({ currency: 'GBP', requested: true });
    expect(renderStats({ totalValue: 1240.5 })).toBe('Worth £1,240.50 at unit cost');
  });
});

describe('the total inventory on the dashboard', () => {
  const total = (stats: Partial<InventoryStats>) => {
    renderStats(stats);
    return [screen.getByTestId('total-inventory').textContent, document.getElementById('total-inventory-title')?.textContent];
  };

  it('says how many products not stocked it leaves out, and nothing of them when there are none (ADR 0200, amendment 2026-12-07)', () => {
    renderStats({ notStocked: 1 });
    expect(screen.getByTestId('total-not-stocked').textContent).toBe('1 product not stocked (a service or fee) is not in the total or its growth: no stock is kept of it.');
    cleanup();
    renderStats({ notStocked: 2 });
    expect(screen.getByTestId('total-not-stocked').textContent).toBe('2 products not stocked (services or fees) are not in the total or its growth: no stock is kept of them.');
    cleanup();
    // 0, or an older server that does not say.
    renderStats({ notStocked: 0 });
    expect(screen.queryByTestId('total-not-stocked')).toBeNull();
    cleanup();
    renderStats({});
    expect(screen.queryByTestId('total-not-stocked')).toBeNull();
  });

  it('is one figure while every product is counted in pieces', () => {
    expect(total({ totalInventory: 1240 })).toEqual(['1,240', 'Total inventory (units on hand now)']);
  });

  it("is one total per unit once a product has one, not kilos and pieces in one sum (ADR 0177, amendment 2026-12-06)", () => {
    expect(total({ totalInventory: 1243.5, inventoryByUnit: [{ unit: null, quantity: 1240 }, { unit: 'kg', quantity: 3.5 }] })).toEqual(['1,240 units, 3.5 kg', 'Total inventory (on hand now)']);
    cleanup();
    expect(total({ totalInventory: 2.25, inventoryByUnit: [{ unit: 'kg', quantity: 2.25 }] })).toEqual(['2.25 kg', 'Total inventory (on hand now)']);
  });
});

describe('the monthly growth on the dashboard', () => {
  const growthTexts = (stats: Partial<InventoryStats>) => {
    renderStats(stats);
    return [screen.getByTestId('monthly-growth').textContent, screen.queryByTestId('monthly-growth-basis')?.textContent ?? null];
  };

  it('says which products and days it compares: products added since are left out', () => {
    expect(growthTexts({ monthlyGrowth: 5, snapshotDate: '2025-11-18', growthSince: '2025-10-18' })).toEqual([
      '+5.0 %',
      'Stock counted up to 18 Nov 2025 against 18 Oct 2025, for the products counted by then: products added since are not growth and are left out.',
    ]);
  });

  it('says one percent per unit once a product has a unit, not kilos and pieces in one figure (ADR 0177, amendment 2026-12-06 (2))', () => {
    const inUnits = { inventoryByUnit: [{ unit: null, quantity: 400 }, { unit: 'kg', quantity: 25.3 }], snapshotDate: '2025-11-20', growthSince: '2025-10-20' };
    expect(growthTexts({ ...inUnits, monthlyGrowth: 29.3, growthByUnit: [{ unit: null, percent: 33.3 }, { unit: 'kg', percent: -18.8 }] })[0]).toBe('+33.3 % in units, -18.8 % in kg');
    cleanup();
    // Only the pieces have a month of history: their figure, named, not the sum's.
    expect(growthTexts({ ...inUnits, monthlyGrowth: 29.3, growthByUnit: [{ unit: null, percent: 33.3 }] })[0]).toBe('+33.3 % in units');
    cleanup();
    expect(growthTexts({ ...inUnits, monthlyGrowth: 29.3, growthByUnit: [] })[0]).toBe('Growth shows once a month of stock history is here');
  });

  it('shows no figure before a month of stock history, and says when it will', () => {
    expect(growthTexts({ snapshotDate: '2025-11-18', growthSince: '2025-10-18' })).toEqual([
      'Growth shows once a month of stock history is here',
      "Stock is counted up to 18 Nov 2025. Growth compares it with the same products' stock on 18 Oct 2025, a month before, and there is none to compare with yet.",
    ]);
    cleanup();
    // Before the first stock count: the sentence alone.
    expect(growthTexts({})).toEqual(['Growth shows once a month of stock history is here', null]);
  });
});

describe('the stock projection on the dashboard', () => {
  const series = (unit: string | null, products: number, medium: number): UnitStockProjection => ({ unit, products, points: [{ month: '2025-11', high: medium + 1, medium, low: medium - 1 }] });
  const renderProjection = (byUnit: UnitStockProjection[], history: ProjectionHistory | null = null, madeHere?: number, notStocked?: number) =>
    render(
      <MantineProvider>
        <Projection byUnit={byUnit} history={history} madeHere={madeHere} notStocked={notStocked} />
      </MantineProvider>,
    );
  const shown = () => [screen.getByTestId('projection-explain').textContent, screen.getByTestId('projection-chart').getAttribute('aria-label')];

  it('reads as before for a catalogue of pieces: one chart, no unit to choose', () => {
    renderProjection([series(null, 40, 120)]);
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(shown()).toEqual([
      "Medium: total projected stock at each month end from the latest forecasts and scheduled deliveries. High and low: the 80 % band of the whole catalogue's demand.",
      'Projected stock per month: high, medium and low',
    ]);
  });

  it('opens on the unit with the most products, pieces first in the choice, and names the unit it shows', () => {
    renderProjection([series(null, 3, 120), series('kg', 200, 24.3)]);
    expect(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['units', 'kg']);
    expect(screen.getByRole('radio', { name: 'kg' })).toHaveProperty('checked', true);
    expect(shown()).toEqual([
      'Medium: projected stock of the 200 products counted in kg at each month end, from the latest forecasts and scheduled deliveries. High and low: the 80 % band of their demand.',
      'Projected stock in kg per month: high, medium and low',
    ]);
    fireEvent.click(screen.getByRole('radio', { name: 'units' }));
    expect(shown()).toEqual([
      'Medium: projected stock of the 3 products counted in units at each month end, from the latest forecasts and scheduled deliveries. High and low: the 80 % band of their demand.',
      'Projected stock in units per month: high, medium and low',
    ]);
  });

  it('names a shop of one unit that is not pieces', () => {
    renderProjection([series('kg', 1, 2.5)]);
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(shown()[0]).toBe('Medium: projected stock of the 1 product counted in kg at each month end, from the latest forecasts and scheduled deliveries. High and low: the 80 % band of its demand.');
  });

  it("says a new shop's projection is an early estimate from its few days of sales, and says nothing once it has four weeks", () => {
    renderProjection([series(null, 4, 120)], { from: '2026-12-03', to: '2026-12-05', days: 3 });
    expect(screen.getByTestId('projection-history').textContent).toBe('An early estimate: drawn from 3 days of sales (3 Dec 2026 – 5 Dec 2026). It settles once there are 4 weeks of sales.');
    // The chart is still drawn: the figure with its basis, not nothing.
    expect(screen.getByTestId('projection-chart')).toBeTruthy();
    cleanup();
    renderProjection([series(null, 4, 120)], { from: '2026-12-05', to: '2026-12-05', days: 1 });
    expect(screen.getByTestId('projection-history').textContent).toBe('An early estimate: drawn from 1 day of sales (5 Dec 2026). It settles once there are 4 weeks of sales.');
    cleanup();
    renderProjection([series(null, 4, 120)], { from: '2026-11-08', to: '2026-12-05', days: 28 });
    expect(screen.queryByTestId('projection-history')).toBeNull();
    cleanup();
    // No forecast drawn: nothing to qualify.
    renderProjection([], { from: '2026-12-03', to: '2026-12-05', days: 3 });
    expect(screen.queryByTestId('projection-history')).toBeNull();
  });

  it('says how many products not stocked it leaves out, apart from those made here, and never "no forecast yet" when every product is one (ADR 0200)', () => {
    renderProjection([series(null, 12, 120)], null, 1, 2);
    expect(screen.getByTestId('projection-not-stocked').textContent).toBe('2 products not stocked (services or fees) are not in the projection: no stock is kept of them.');
    expect(screen.getByTestId('projection-made-here').textContent).toBe('1 product made here is not in the projection: it shows the stock you buy, and nothing is bought for it.');
    cleanup();
    renderProjection([], null, 0, 1);
    expect(screen.getByTestId('projection-not-stocked').textContent).toBe('1 product not stocked (a service or fee) is not in the projection: no stock is kept of it.');
    expect(screen.queryByText(/No forecast yet/)).toBeNull();
    cleanup();
    renderProjection([series(null, 12, 120)], null, 0, 0);
    expect(screen.queryByTestId('projection-not-stocked')).toBeNull();
  });

  it('says how many products made here it leaves out, and never "no forecast yet" when every product is made here (ADR 0194)', () => {
    renderProjection([series(null, 12, 120)], null, 3);
    expect(screen.getByTestId('projection-made-here').textContent).toBe('3 products made here are not in the projection: it shows the stock you buy, and nothing is bought for them.');
    expect(screen.getByTestId('projection-chart')).toBeTruthy();
    cleanup();
    renderProjection([], null, 1);
    expect(screen.getByTestId('projection-made-here').textContent).toBe('1 product made here is not in the projection: it shows the stock you buy, and nothing is bought for it.');
    expect(screen.queryByText(/No forecast yet/)).toBeNull();
    cleanup();
    // None made here (or an older server that does not say): no line.
    renderProjection([series(null, 12, 120)]);
    expect(screen.queryByTestId('projection-made-here')).toBeNull();
    cleanup();
    renderProjection([], null, 0);
    expect(screen.getByText(/No forecast yet/)).toBeTruthy();
  });

  it('takes the first listed of the units with as many products', () => {
    expect(openingUnit([series(null, 5, 1), series('kg', 5, 1), series('l', 2, 1)])).toBe(0);
    expect(openingUnit([series(null, 5, 1), series('kg', 6, 1), series('l', 6, 1)])).toBe(1);
  });
});
