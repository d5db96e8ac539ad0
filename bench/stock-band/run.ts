// Coverage of the cumulative stock band (ADR 0108) on simulated Poisson demand: the share of
// simulated futures whose stock falls below stock_lower (nominal 2.5 %) or above stock_upper, and
// the band's half-width against the sum of the daily half-widths it replaced.
// Run: bash scripts/with-node24.sh node bench/stock-band/run.ts
import { forecastProduct, isForecastError } from '@stockwise/forecast';
import { poisson, random } from '../../packages/forecast/src/simulate.test-data.ts';

const day = (t: number): string => new Date(Date.parse('2025-01-01T00:00:00Z') + t * 86_400_000).toISOString().slice(0, 10);
const PATHS = 4000;
const OPENING = 5000;

console.log('| daily rate | day | below stock_lower | above stock_upper | band half-width | summed daily half-widths |');
console.log('|---|---|---|---|---|---|');
for (const rate of [2, 20]) {
  const next = random(7);
  const result = forecastProduct({ sales: Array.from({ length: 365 }, (_, t) => ({ ds: day(t), y: poisson(rate, next) })), horizon: 90, stock: [{ ds: day(364), stock_level: OPENING }] });
  if (isForecastError(result)) throw new Error(result.error);
  for (const k of [14, 30, 90]) {
    const row = result.stock[k - 1]!;
    let below = 0;
    let above = 0;
    for (let p = 0; p < PATHS; p++) {
      let demand = 0;
      for (let j = 0; j < k; j++) demand += poisson(rate, next);
      if (OPENING - demand < row.stock_lower) below++;
      if (OPENING - demand > row.stock_upper) above++;
    }
    const summed = result.forecast.slice(0, k).reduce((sum, r) => sum + r.yhat_upper - r.yhat, 0);
    const percent = (count: number) => `${((100 * count) / PATHS).toFixed(1)} %`;
    console.log(`| ${rate} | ${k} | ${percent(below)} | ${percent(above)} | ${(row.stock_level - row.stock_lower).toFixed(1)} | ${summed.toFixed(1)} |`);
  }
}
