/** A small deterministic generator (mulberry32), so simulations need no seed from outside. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Poisson draw by multiplying uniforms (fine for the small rates of daily demand). */
export function poisson(rate: number, next: () => number): number {
  let k = 0;
  for (let p = next(), limit = Math.exp(-rate); p > limit; p *= next()) k++;
  return k;
}
