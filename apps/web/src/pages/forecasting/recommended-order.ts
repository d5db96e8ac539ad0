// Recommended orders for low-stock products (spec §3 Recommended order, §9): quantity 100,
// status 'recommended', cost 100 × unit cost, for every product whose current stock is below 100.
import { lowStockThreshold, type Product } from '../../api/forecasting.ts';

export const recommendedOrderQuantity = 100;

export type RecommendedOrder = {
  id: Product['id'];
  styleCode: string;
  quantity: number;
  status: 'recommended';
  cost: number;
  name: string;
  currentStock: number;
};

export function isLowStock(product: Pick<Product, 'currentStock'>): boolean {
  return product.currentStock < lowStockThreshold;
}

export function recommendedOrder(product: Product): RecommendedOrder {
  return {
    id: product.id,
    styleCode: product.styleCode,
    quantity: recommendedOrderQuantity,
    status: 'recommended',
    cost: recommendedOrderQuantity * product.unitCost,
    name: product.name,
    currentStock: product.currentStock,
  };
}

/** Low-stock products only, lowest stock first. */
export function recommendedOrders(products: readonly Product[]): RecommendedOrder[] {
  return products
    .filter(isLowStock)
    .sort((a, b) => a.currentStock - b.currentStock)
    .map(recommendedOrder);
}
