import { describe, expect, it } from 'vitest';
import type { Product } from '../../api/forecasting.ts';
import { isLowStock, recommendedOrder, recommendedOrders } from './recommended-order.ts';

const product = (styleCode: string, currentStock: number, unitCost: number): Product => ({ id: styleCode.length, styleCode, name: `Name ${styleCode}`, currentStock, unitCost, leadTimeDays: 7, category: null });

describe('recommended order (spec §3, §9)', () => {
  it('is quantity 100, status recommended, cost 100 × unit cost', () => {
    expect(recommendedOrder(product('A-1', 12, 3.21))).toEqual({ id: 3, styleCode: 'A-1', quantity: 100, status: 'recommended', cost: 321, name: 'Name A-1', currentStock: 12 });
  });

  it('low stock is current stock below 100', () => {
    expect(isLowStock({ currentStock: 99 })).toBe(true);
    expect(isLowStock({ currentStock: 99.5 })).toBe(true);
    expect(isLowStock({ currentStock: 100 })).toBe(false);
    expect(isLowStock({ currentStock: 0 })).toBe(true);
  });

  it('lists only low-stock products, lowest stock first', () => {
    const orders = recommendedOrders([product('A', 50, 1), product('B', 100, 1), product('C', 3, 2), product('D', 250, 1)]);
    expect(orders.map((order) => [order.styleCode, order.cost])).toEqual([
      ['C', 200],
      ['A', 100],
    ]);
  });
});
