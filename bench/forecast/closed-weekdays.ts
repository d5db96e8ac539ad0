// Shops closed on some weekdays: are the open days' forecasts level with their demand?
// `node bench/forecast/closed-weekdays.ts [--products=600] [--seeds=4242,777,31337]`.
// Simulated products (Poisson demand at 0.3–30 units an open day, a busier Friday and Saturday,
// 200–730 days of history, flat or drifting level), closed on Sundays or on Saturdays and Sundays (and,
// for reference, a shop open every day with a quiet Sunday),
// forecast 28 days with the business's closed weekdays as the catalogue run passes them. Prints, per
// shop and demand: forecast over actual units, the error of each product's 28-day total (what an
// order is made of), the daily MAE scaled by the last four weeks' mean, with seasonal naive's, and
// the share of open days within the 80 % and 95 % bands.
import { forecastProduct, isForecastError } from '@stockwise/forecast';

const argument = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const products = Number(argument('products', '600'));
const seeds = argument('seeds', '4242,777,31337').split(',').map(Number);
const HORIZON = 28;
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.parse('2024-06-03') / DAY_MS;
const SHOPS: Record<string, number[]> = { 'open every day': [0.7, 0.8, 0.9, 0.9, 1, 1.2, 1.6], 'closed Sundays': [0, 0.8, 0.9, 0.9, 1, 1.2, 1.6], 'closed Sat + Sun': [0, 1, 1, 1, 1, 1.1, 0] };

/** Park–Miller: the same products for every checkout measured. */
function generator(seed: number) {
  let state = seed;
  const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const poisson = (rate: number) => {
    if (rate > 30) return Math.max(0, Math.round(rate + Math.sqrt(rate) * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())));
    let k = 0;
    let p = Math.exp(-rate);
    let cumulative = p;
    const u = uniform();
    while (u > cumulative && k < 500) {
      k++;
      p *= rate / k;
      cumulative += p;
    }
    return k;
  };
  return { uniform, poisson };
}

const ds = (t: number) => new Date((FIRST_DAY + t) * DAY_MS).toISOString().slice(0, 10);
const weekday = (t: number) => new Date((FIRST_DAY + t) * DAY_MS).getUTCDay();

console.log('| shop | demand | seed | forecast / actual | 28-day total, mean abs error | daily MAE (scaled) | sNaive daily MAE | open days in 80 / 95 % band |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [shop, shape] of Object.entries(SHOPS)) {
  const closedWeekdays = shape.flatMap((factor, day) => (factor === 0 ? [day] : []));
  for (const drifting of [false, true]) {
    for (const seed of seeds) {
      const { uniform, poisson } = generator(seed);
      let forecastUnits = 0;
      let actualUnits = 0;
      let totalError = 0;
      let dailyError = 0;
      let naiveError = 0;
      let openDays = 0;
      let inside80 = 0;
      let inside95 = 0;
      for (let p = 0; p < products; p++) {
        const rate = 0.3 * Math.pow(100, (p % 60) / 59);
        const n = 200 + ((p * 97) % 530);
        const drift = drifting ? 0.3 * (uniform() - 0.5) : 0;
        const series = Array.from({ length: n + HORIZON }, (_, t) => poisson(rate * shape[weekday(t)]! * (1 + (drift * t) / n)));
        const result = forecastProduct({ sales: series.slice(0, n).map((y, t) => ({ ds: ds(t), y })), horizon: HORIZON, today: ds(n), closedWeekdays });
        if (isForecastError(result)) throw new Error(result.error);
        const scale = series.slice(n - HORIZON, n).reduce((a, b) => a + b, 0) / HORIZON || 1;
        let forecastTotal = 0;
        let actualTotal = 0;
        result.forecast.forEach((row, j) => {
          const actual = series[n + j]!;
          dailyError += Math.abs(row.yhat - actual) / scale;
          naiveError += Math.abs(series[n - 7 + (j % 7)]! - actual) / scale;
          if (shape[weekday(n + j)]! > 0) {
            openDays++;
            if (actual >= row.yhat_lower_80 && actual <= row.yhat_upper_80) inside80++;
            if (actual >= row.yhat_lower && actual <= row.yhat_upper) inside95++;
          }
          forecastTotal += row.yhat;
          actualTotal += actual;
        });
        forecastUnits += forecastTotal;
        actualUnits += actualTotal;
        totalError += Math.abs(forecastTotal - actualTotal) / Math.max(1, actualTotal);
      }
      const cells = [(forecastUnits / actualUnits).toFixed(3), `${((100 * totalError) / products).toFixed(1)} %`, (dailyError / products / HORIZON).toFixed(4), (naiveError / products / HORIZON).toFixed(4), `${(inside80 / openDays).toFixed(3)} / ${(inside95 / openDays).toFixed(3)}`];
      console.log(`| ${shop} | ${drifting ? 'drifting' : 'flat'} | ${seed} | ${cells.join(' | ')} |`);
    }
  }
}
