// New items simulated on the demo data and the M5 subset (ADR 0201 F10):
// `node bench/forecast/new-items.ts [--sets=demo,m5] [--days=3,7,14,28]`.
// At each validation origin every product keeps only its last N days before it, while the rest of
// the catalogue keeps its whole history (the calendar's pooled profiles are built from that), and
// its next 28 and 90 days are scored. Origins stop 90 days before the demo's four held-out windows
// and before the M5 subset's held-out 28 days: settings are chosen on training data only.
import { CATALOGUE_PROFILE, catalogueCalendar, closedDatesBetween, forecastProduct, isForecastError, type DailyTotals, type ProductForecastInput } from '@stockwise/forecast';
import { demoCatalogue } from '../../apps/server/src/demo/seed.ts';
import { loadM5 } from './data.ts';
import { rmsse } from './metrics.ts';

const DAY_MS = 86_400_000;
const HORIZON = 90;
const SHORT_HORIZON = 28;
// A year of the catalogue before the first origin, so it has a yearly profile.
const MIN_CATALOGUE_DAYS = 365;

/** A catalogue on one calendar: day 0 is `firstDay` (a day number); a product's days before its first sale are not listed. */
type Catalogue = { name: string; firstDay: number; days: number; products: { category: string; firstSale: number; values: Float64Array }[]; origins: number[] };

type Totals = { mae28: number; mae90: number; rmsse28: number[]; rmsse90: number[]; error: number; actual: number; inside80: number; inside95: number; days: number; forecasts: number };

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function demoSet(): Catalogue {
  const today = new Date('2026-11-24T00:00:00Z');
  const catalogue = demoCatalogue(today);
  const days = 730;
  const firstDay = Date.parse(today.toISOString().slice(0, 10)) / DAY_MS - days;
  const products = catalogue.map(({ product, history }) => {
    const values = new Float64Array(days);
    for (const sale of history.sales) values[Date.parse(sale.date) / DAY_MS - firstDay] = sale.quantity;
    return { category: product.category, firstSale: Math.max(0, values.findIndex((units) => units > 0)), values };
  });
  // The last origin's 90 days end where the four held-out 28-day windows begin; one every four weeks before it.
  const last = days - 4 * 28 - HORIZON;
  return { name: 'Demo data', firstDay, days, products, origins: originsBack(last, 28) };
}

function m5Set(): Catalogue {
  const series = loadM5();
  const firstDay = Math.min(...series.map((s) => Date.parse(`${s.start}T00:00:00Z`) / DAY_MS));
  const days = Math.max(...series.map((s) => Date.parse(`${s.start}T00:00:00Z`) / DAY_MS - firstDay + s.train.length));
  const products = series.map((s) => {
    const firstSale = Date.parse(`${s.start}T00:00:00Z`) / DAY_MS - firstDay;
    const values = new Float64Array(days);
    values.set(s.train, firstSale);
    return { category: 'FOODS_3', firstSale, values };
  });
  // loadM5's training part ends before the held-out 28 days. Six origins two months apart, the last
  // 90 days before that end: a year of seasons.
  return { name: 'M5 subset', firstDay, days, products, origins: originsBack(days - HORIZON, 61) };
}

const originsBack = (last: number, step: number) => Array.from({ length: 6 }, (_, k) => last - k * step).filter((origin) => origin >= MIN_CATALOGUE_DAYS);

/** The forecast input of product `index` with its last `keep` days before `origin`, and the calendar of the catalogue with that product cut so. */
function newItemInput(set: Catalogue, index: number, origin: number, keep: number): ProductForecastInput {
  const from = origin - keep;
  const categories = new Map<string | null, DailyTotals>();
  set.products.forEach((product, i) => {
    const group = categories.get(product.category) ?? { firstDay: set.firstDay, totals: new Float64Array(origin) };
    for (let t = i === index ? from : 0; t < origin; t++) group.totals[t]! += product.values[t]!;
    categories.set(product.category, group);
  });
  const calendar = catalogueCalendar(categories);
  const product = set.products[index]!;
  const closedDates = closedDatesBetween(calendar, dayText(set.firstDay + from), keep + HORIZON);
  const yearlyProfile = calendar.yearlyProfiles[product.category] ?? calendar.yearlyProfiles[CATALOGUE_PROFILE];
  const weekdayProfile = calendar.weekdayProfiles?.[product.category] ?? calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
  const season = calendar.categorySeasons?.[product.category];
  return {
    sales: Array.from(product.values.subarray(from, origin), (y, t) => ({ ds: dayText(set.firstDay + from + t), y })),
    horizon: HORIZON,
    today: dayText(set.firstDay + origin),
    ...(closedDates.length ? { closedDates } : {}),
    ...(calendar.closedWeekdays ? { closedWeekdays: calendar.closedWeekdays } : {}),
    ...(yearlyProfile ? { yearlyProfile } : {}),
    ...(weekdayProfile ? { weekdayProfile } : {}),
    ...(season ? { categorySeason: { category: product.category, ...season } } : {}),
  };
}

function scoreSet(set: Catalogue, keep: number): Totals {
  const totals: Totals = { mae28: 0, mae90: 0, rmsse28: [], rmsse90: [], error: 0, actual: 0, inside80: 0, inside95: 0, days: 0, forecasts: 0 };
  for (const origin of set.origins) {
    set.products.forEach((product, index) => {
      // Listed for at least the kept days, and the whole 90 days ahead known.
      if (product.firstSale > origin - keep || origin + HORIZON > set.days) return;
      const result = forecastProduct(newItemInput(set, index, origin, keep));
      if (isForecastError(result)) throw new Error(result.error);
      const actual = Array.from(product.values.subarray(origin, origin + HORIZON));
      const mean = result.forecast.map((row) => row.yhat);
      const absolute = (days: number) => actual.slice(0, days).reduce((sum, units, j) => sum + Math.abs(units - mean[j]!), 0) / days;
      totals.mae28 += absolute(SHORT_HORIZON);
      totals.mae90 += absolute(HORIZON);
      // RMSSE scaled by the product's whole history before the origin (a few days have no scale of their own).
      const insample = Array.from(product.values.subarray(product.firstSale, origin));
      const scaled = (days: number) => rmsse(insample, actual.slice(0, days), mean.slice(0, days));
      if (Number.isFinite(scaled(HORIZON))) {
        totals.rmsse28.push(scaled(SHORT_HORIZON));
        totals.rmsse90.push(scaled(HORIZON));
      }
      result.forecast.forEach((row, j) => {
        totals.error += row.yhat - actual[j]!;
        totals.actual += actual[j]!;
        if (actual[j]! >= row.yhat_lower_80 && actual[j]! <= row.yhat_upper_80) totals.inside80++;
        if (actual[j]! >= row.yhat_lower && actual[j]! <= row.yhat_upper) totals.inside95++;
      });
      totals.days += HORIZON;
      totals.forecasts++;
    });
  }
  return totals;
}

const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function main(): void {
  const argument = (name: string, fallback: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  const sets = argument('sets', 'demo,m5').split(',');
  const keeps = argument('days', '3,7,14,28').split(',').map(Number);
  console.log('| set | days kept | forecasts | MAE 28 | MAE 90 | RMSSE 28 | RMSSE 90 | bias (Σ forecast − actual over Σ actual, 90 days) | cover 80 | cover 95 |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const set of [...(sets.includes('demo') ? [demoSet()] : []), ...(sets.includes('m5') ? [m5Set()] : [])]) {
    for (const keep of keeps) {
      const t = scoreSet(set, keep);
      const cells = [t.mae28 / t.forecasts, t.mae90 / t.forecasts, average(t.rmsse28), average(t.rmsse90)].map((value) => value.toFixed(3));
      const bias = `${((100 * t.error) / t.actual).toFixed(1)} %`;
      console.log(`| ${set.name} (origins ${set.origins.map((origin) => dayText(set.firstDay + origin)).join(', ')}) | ${keep} | ${t.forecasts} | ${cells.join(' | ')} | ${bias} | ${(t.inside80 / t.days).toFixed(3)} | ${(t.inside95 / t.days).toFixed(3)} |`);
    }
  }
}

if (import.meta.main) main();
