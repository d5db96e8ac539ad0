// A small seeded PRNG (mulberry32) so the demo data is the same on every machine.
export type Random = {
  next(): number;
  between(min: number, max: number): number;
  integer(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  poisson(mean: number): number;
};

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (min: number, max: number) => min + (max - min) * next();
  return {
    next,
    between,
    integer: (min, max) => Math.floor(between(min, max + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    poisson: (mean) => {
      if (mean <= 0) return 0;
      if (mean > 30) {
        // Normal approximation: exact sampling gets slow and adds nothing at this size.
        const gaussian = Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
        return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian));
      }
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k += 1;
        p *= next();
      }
      return k;
    },
  };
}
