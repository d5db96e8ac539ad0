// CPU per product of forecastProduct as the catalogue run calls it (issue #16, ADR 0117): a fixed
// generated catalogue of two-year daily histories (four in five products fast sellers with weekday
// and yearly patterns, as bench/forecast-batch's), each with the catalogue's yearly profile, a stock
// snapshot, a delivery and a lead time, forecast 90 days ahead on one core.
//   node bench/forecast/products-speed.ts [--products=1500] [--rounds=6] [--reference=/work/ref-engine] [--rows]
// With --rows it times what a catalogue run's thread does per product instead (the server's
// batch-task `forecastRow`: the database's text rows parsed, forecast, summarised and stringified),
// and the digest covers the whole stored row.
// Each round times one pass (after a warm-up) in a fresh process. With --reference, that checkout's
// engine (its packages/forecast) is timed too, alternating with this one, and the forecasts of the
// two are compared.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CATALOGUE_PROFILE, catalogueCalendar, closedDatesBetween, isForecastError, type CatalogueCalendar, type DailyTotals, type forecastProduct, type ForecastRow } from '@stockwise/forecast';
import type { BatchContext, BatchResult, forecastRow } from '../../apps/server/src/forecasting/batch-task.ts';
import type { ProductRows } from '../../apps/server/src/forecasting/repo.ts';
import { syntheticCatalogue, type RowsInput } from './synthetic.ts';

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '1500' },
    rounds: { type: 'string', default: '6' },
    reference: { type: 'string' },
    checkout: { type: 'string' },
    rows: { type: 'boolean', default: false },
  },
});
const PRODUCTS = Number(args.products);
const ROUNDS = Number(args.rounds);
const DAYS = 730;
const DAY_MS = 86_400_000;
// bench/forecast-batch's catalogue: every fifth product sells on some days only.
const FAST_SHARE = 0.8;

type Engine = typeof forecastProduct;
/** Per product: the chosen model, the daily rows and a digest of the whole result, or null for an error. */
type Forecasts = ({ model: string; rows: ForecastRow[]; digest: string } | null)[];

type Catalogue = { inputs: RowsInput[]; since: string; today: string; calendar: CatalogueCalendar };

/** The catalogue as the server's run hands it to the engine: sales rows only where units sold, the calendar's profile and closed dates. */
function catalogue(): Catalogue {
  const generated = syntheticCatalogue(PRODUCTS, DAYS, 16, FAST_SHARE);
  const firstDay = Date.parse(generated[0]!.sales[0]!.ds) / DAY_MS;
  const totals = new Float64Array(DAYS);
  for (const input of generated) input.sales.forEach((sale, t) => (totals[t]! += sale.y ?? 0));
  const calendar = catalogueCalendar(new Map<string | null, DailyTotals>([['Generated', { firstDay, totals }]]));
  const since = generated[0]!.sales[0]!.ds;
  const today = new Date((firstDay + DAYS) * DAY_MS).toISOString().slice(0, 10);
  const closedDates = closedDatesBetween(calendar, since, DAYS + 90);
  const yearlyProfile = calendar.yearlyProfiles.Generated ?? calendar.yearlyProfiles[CATALOGUE_PROFILE];
  const weekdayProfile = calendar.weekdayProfiles?.Generated ?? calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
  const inputs = generated.map((input, i) => ({
    ...input,
    sales: input.sales.filter((sale) => (sale.y ?? 0) > 0),
    horizon: 90,
    leadTimeDays: 7 + (i % 14),
    today,
    ...(closedDates.length ? { closedDates } : {}),
    ...(yearlyProfile ? { yearlyProfile } : {}),
    ...(weekdayProfile ? { weekdayProfile } : {}),
  }));
  return { inputs, since, today, calendar };
}

/** The same catalogue as the database's rows of each product (repo.ts productRowsAfter) and the run's context. */
function catalogueRows({ inputs, since, today, calendar }: Catalogue): { products: ProductRows[]; context: BatchContext } {
  const firstDay = Date.parse(since) / DAY_MS;
  const joined = <T>(points: T[] | undefined, pair: (point: T) => string) => (points?.length ? points.map(pair).join(',') : null);
  const products = inputs.map((input, i) => ({
    id: i + 1,
    product_code: `P${i + 1}`,
    category: 'Generated',
    lead_time_days: input.leadTimeDays!,
    unit: null,
    order_multiple: null,
    min_order_quantity: null,
    sales: joined(input.sales, (sale) => `${Date.parse(sale.ds) / DAY_MS - firstDay}:${sale.y}`),
    snapshots: joined(input.stock, (snapshot) => `${snapshot.ds}:${snapshot.stock_level}`),
    deliveries: joined(input.deliveries, (delivery) => `${delivery.ds}:${delivery.quantity}`),
    listed_after: null,
  }));
  return { products, context: { today, horizon: 90, since, historyDays: DAYS, calendar, firstSale: since } };
}

/** CPU ms per product of one pass over the catalogue, and its results. */
function pass<I, R>(forecast: (input: I) => R, inputs: I[]): { ms: number; results: R[] } {
  const start = process.cpuUsage();
  const results = inputs.map(forecast);
  const cpu = process.cpuUsage(start);
  return { ms: (cpu.user + cpu.system) / 1000 / inputs.length, results };
}

const digest = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex');

/** One timed pass of the engine alone. */
async function enginePass(checkout: string): Promise<{ ms: number; forecasts: Forecasts }> {
  const { forecastProduct: forecast } = (await import(`${checkout}/packages/forecast/src/index.ts`)) as { forecastProduct: Engine };
  const { inputs } = catalogue();
  inputs.slice(0, 100).forEach(forecast);
  const { ms, results } = pass(forecast, inputs);
  return { ms, forecasts: results.map((result) => (isForecastError(result) ? null : { model: result.model.name, rows: result.forecast, digest: digest(result) })) };
}

/** One timed pass of a thread's whole work per product; the rows compared are the stored forecast's. */
async function rowPass(checkout: string): Promise<{ ms: number; forecasts: Forecasts }> {
  const { forecastRow: toRow } = (await import(`${checkout}/apps/server/src/forecasting/batch-task.ts`)) as { forecastRow: typeof forecastRow };
  const { products, context } = catalogueRows(catalogue());
  products.slice(0, 100).forEach((product) => toRow(product, context));
  const { ms, results } = pass((product: ProductRows) => toRow(product, context), products);
  return {
    ms,
    forecasts: results.map((result: BatchResult) => {
      if (!('row' in result)) return null;
      // The text, also from a checkout whose threads hand it over as UTF-8 bytes.
      const json: unknown = result.row.resultJson;
      const text = typeof json === 'string' ? json : new TextDecoder().decode(json as Uint8Array);
      const stored = JSON.parse(text) as { model: { name: string }; forecast: ForecastRow[] };
      return { model: stored.model.name, rows: stored.forecast, digest: digest({ ...result.row, resultJson: text }) };
    }),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Products whose result differs in any figure, and the largest difference of a daily figure relative to the product's mean forecast. */
function compare(results: Forecasts, reference: Forecasts): { differing: number; models: number; largest: number } {
  let differing = 0;
  let models = 0;
  let largest = 0;
  results.forEach((result, i) => {
    const other = reference[i]!;
    if (result === null || other === null) {
      if ((result === null) !== (other === null)) differing++;
      return;
    }
    if (result.model !== other.model) models++;
    const level = Math.max(1e-9, other.rows.reduce((sum, row) => sum + row.yhat, 0) / other.rows.length);
    let product = 0;
    result.rows.forEach((row, j) => {
      const otherRow = other.rows[j]!;
      for (const key of ['yhat', 'yhat_lower', 'yhat_upper', 'yhat_lower_80', 'yhat_upper_80'] as const) product = Math.max(product, Math.abs(row[key] - otherRow[key]) / level);
    });
    if (result.digest !== other.digest) differing++;
    largest = Math.max(largest, product);
  });
  return { differing, models, largest };
}

const checkouts = [...(args.reference ? [args.reference] : []), fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')];

if (args.checkout) {
  // A child: one checkout's engine, warmed up, then one timed pass; its figures and forecasts to stdout.
  process.stdout.write(JSON.stringify(await (args.rows ? rowPass : enginePass)(args.checkout)));
} else {
  // Each round runs every checkout in its own process, alternating which goes first: two engines
  // in one process do not run alike (the second copy's code is compiled and placed differently).
  console.log(`${PRODUCTS.toLocaleString()} products × ${DAYS} days, horizon 90, ${args.rows ? "a thread's forecastRow" : 'forecastProduct'}; load average before ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const timings = checkouts.map(() => [] as number[]);
  const forecasts: Forecasts[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? checkouts.map((_, c) => c) : checkouts.map((_, c) => checkouts.length - 1 - c);
    for (const c of order) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), `--products=${PRODUCTS}`, `--checkout=${checkouts[c]}`, ...(args.rows ? ['--rows'] : [])], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (child.status !== 0) throw new Error(child.stderr);
      const answer = JSON.parse(child.stdout) as { ms: number; forecasts: Forecasts };
      timings[c]!.push(answer.ms);
      forecasts[c] ??= answer.forecasts;
    }
  }
  checkouts.forEach((checkout, c) => {
    const errors = forecasts[c]!.filter((forecast) => forecast === null).length;
    console.log(`${checkout}: median ${median(timings[c]!).toFixed(3)} CPU ms/product (rounds ${timings[c]!.map((ms) => ms.toFixed(3)).join(', ')})${errors ? `, ${errors} errors` : ''}`);
  });
  if (checkouts.length === 2) {
    const { differing, models, largest } = compare(forecasts[1]!, forecasts[0]!);
    console.log(`ratio this / reference: ${(median(timings[1]!) / median(timings[0]!)).toFixed(3)}; forecasts differing: ${differing} of ${PRODUCTS} (other model chosen: ${models}; largest daily difference ${(100 * largest).toFixed(2)} % of the mean forecast)`);
  }
  console.log(`load average after ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
}
