// A PoolTask module for batch.test.ts: each product's forecast as JSON text, tagged with the
// context the pool was given, so a test sees that the threads run the caller's code.
import { forecastProduct } from './product.ts';
import type { ProductForecastInput } from './types.ts';

export function runItems(items: unknown[], context: unknown): { context: unknown; json: string }[] {
  return (items as ProductForecastInput[]).map((item) => ({ context, json: JSON.stringify(forecastProduct(item)) }));
}
