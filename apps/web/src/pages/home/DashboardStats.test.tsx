// The dashboard's stock worth leaves out stock whose unit cost is unknown (blank, stored as 0) and says how many products that is;
// it carries the shop's currency once one is chosen (ADR 0166); its monthly growth says what it compares, or when it will show.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { DashboardResponse, InventoryStats } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { useDashboardStore } from '../../stores/dashboard.ts';
import { initialShopState, useShopStore } from '../../stores/shop.ts';
import { Stats } from './DashboardPage.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(() => {
  cleanup();
  useShopStore.setState(initialShopState);
});

function renderStats(stats: Partial<InventoryStats>) {
  const inventoryStats: InventoryStats = { totalInventory: 14, inventoryByUnit: [{ unit: null, quantity: 14 }], totalValue: 25, withoutCost: 0, monthlyGrowth: null, snapshotDate: null, growthSince: null, ...stats };
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
