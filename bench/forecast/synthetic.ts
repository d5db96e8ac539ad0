import type { DailyPoint, ProductForecastInput } from '@stockwise/forecast';

/** An input with its sales as rows { ds, y }. */
export type RowsInput = ProductForecastInput & { sales: DailyPoint[] };

/** mulberry32: tiny, seedable, and identical on every platform. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct indices below `size`, in ascending order, the same for the same seed. */
export function seededSample(size: number, count: number, seed: number): number[] {
  if (count >= size) return Array.from({ length: size }, (_, i) => i);
  const next = random(seed);
  const indices = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [indices[i], indices[j]] = [indices[j]!, indices[i]!];
  }
  return indices.slice(0, count).sort((a, b) => a - b);
}

function poisson(mean: number, next: () => number): number {
  // Knuth's method is fine for the small daily means used here.
  const limit = Math.exp(-Math.min(mean, 50));
  let k = 0;
  let p = next();
  while (p > limit) {
    k++;
    p *= next();
  }
  return k;
}

/**
 * A catalogue that looks like retail: a mix of fast sellers with weekday and
 * yearly patterns and slow intermittent ones (`fastShare` of them fast), with
 * stock snapshots and a delivery, so the benchmark exercises the whole product path.
 */
export function syntheticCatalogue(products: number, days: number, seed: number, fastShare = 0.5): RowsInput[] {
  const next = random(seed);
  const first = Date.parse('2024-01-01T00:00:00Z');
  const day = (t: number): string => new Date(first + t * 86_400_000).toISOString().slice(0, 10);
  return Array.from({ length: products }, () => {
    const fast = next() < fastShare;
    const base = fast ? 5 + 40 * next() : 0.05 + 0.6 * next();
    const weekday = Array.from({ length: 7 }, () => 0.7 + 0.6 * next());
    const yearly = fast ? 0.3 * next() : 0;
    const sales = Array.from({ length: days }, (_, t) => ({
      ds: day(t),
      y: poisson(base * weekday[t % 7]! * (1 + yearly * Math.sin((2 * Math.PI * t) / 365.25)), next),
    }));
    return {
      sales,
      stock: [{ ds: day(days - 1), stock_level: Math.round(base * 30 * next()) }],
      deliveries: [{ ds: day(days + 20), quantity: Math.round(base * 30) }],
    };
  });
}
