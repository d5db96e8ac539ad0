// Coverage of the cumulative stock band (ADR 0108, 0110) on simulated Poisson demand: the share of
// simulated futures whose stock falls below stock_lower (nominal 2.5 %) or above stock_upper, and
// the band's half-width against the sum of the daily half-widths it replaced. The first table is
// one history per rate; the second averages over 20 histories, because one history's level
// estimate is off one way for its whole horizon.
// Run: bash scripts/with-node24.sh node bench/stock-band/run.ts
import { forecastProduct, isForecastError, type ProductForecast } from '@stockwise/forecast';
import { poisson, random } from '../../packages/forecast/src/simulate.test-data.ts';

const day = (t: number): string => new Date(Date.parse('2025-01-01T00:00:00Z') + t * 86_400_000).toISOString().slice(0, 10);
const OPENING = 5000;
const DAYS = [14, 30, 90];
const RATES = [2, 20];

function forecastFor(rate: number, next: () => number): ProductForecast {
  const result = forecastProduct({ sales: Array.from({ length: 365 }, (_, t) => ({ ds: day(t), y: poisson(rate, next) })), horizon: 90, stock: [{ ds: day(364), stock_level: OPENING }] });
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}

/** Shares of `paths` simulated futures below stock_lower and above stock_upper on day k. */
function outside(result: ProductForecast, rate: number, k: number, paths: number, next: () => number): { below: number; above: number } {
  const row = result.stock[k - 1]!;
  let below = 0;
  let above = 0;
  for (let p = 0; p < paths; p++) {
    let demand = 0;
    for (let j = 0; j < k; j++) demand += poisson(rate, next);
    if (OPENING - demand < row.stock_lower) below++;
    if (OPENING - demand > row.stock_upper) above++;
  }
  return { below: below / paths, above: above / paths };
}

const percent = (share: number): string => `${(100 * share).toFixed(1)} %`;

console.log('One history (seed 7), 4,000 futures:\n');
console.log('| daily rate | day | below stock_lower | above stock_upper | band half-width | summed daily half-widths |');
console.log('|---|---|---|---|---|---|');
for (const rate of RATES) {
  const next = random(7);
  const result = forecastFor(rate, next);
  for (const k of DAYS) {
    const row = result.stock[k - 1]!;
    const { below, above } = outside(result, rate, k, 4000, next);
    const summed = result.forecast.slice(0, k).reduce((sum, r) => sum + r.yhat_upper - r.yhat, 0);
    console.log(`| ${rate} | ${k} | ${percent(below)} | ${percent(above)} | ${(row.stock_level - row.stock_lower).toFixed(1)} | ${summed.toFixed(1)} |`);
  }
}

const HISTORIES = 20;
console.log(`\nAverage over ${HISTORIES} histories (seeds 1–${HISTORIES}), 1,000 futures each:\n`);
console.log('| daily rate | day | below stock_lower | above stock_upper |');
console.log('|---|---|---|---|');
for (const rate of RATES) {
  const totals = DAYS.map(() => ({ below: 0, above: 0 }));
  for (let seed = 1; seed <= HISTORIES; seed++) {
    const next = random(seed);
    const result = forecastFor(rate, next);
    DAYS.forEach((k, i) => {
      const { below, above } = outside(result, rate, k, 1000, next);
      totals[i]!.below += below / HISTORIES;
      totals[i]!.above += above / HISTORIES;
    });
  }
  DAYS.forEach((k, i) => console.log(`| ${rate} | ${k} | ${percent(totals[i]!.below)} | ${percent(totals[i]!.above)} |`));
}
