// The forecasting benchmark: `node bench/forecast/run.ts [--quick] [--validation [--windows=N]] [--sets=weekly,hourly,m5,monthly,quarterly,yearly,demo,catalogue]`.
// --quick samples the sets so CI can run it; --validation scores on the last
// horizon of each training half (how settings were chosen) instead of the test
// half, and --windows=N on the last N 28-day windows of the M5 training half and
// the last N horizons of each tourism training part.
import { resourceUsage } from 'node:process';
import { availableParallelism } from 'node:os';
import { CATALOGUE_PROFILE, catalogueCalendar, closedDatesBetween, forecastBatch, forecastProduct, forecastSeries, forecastSeriesBatch, isForecastError, type DailyTotals, type ProductForecastInput } from '@stockwise/forecast';
import { demoCatalogue } from '../../apps/server/src/demo/seed.ts';
import { crostonBenchmark, dampedBenchmark, naive2, seasonalNaive, thetaBenchmark } from './baselines.ts';
import { loadM4, loadM5, loadTourism, M5_HOLDOUT_DAYS, type M5Series, type SeriesSet, type TourismName } from './data.ts';
import { coverage, mase, owa, rmsse, smape } from './metrics.ts';
import { prophetForecast } from './prophet.ts';
import { seededSample, syntheticCatalogue } from './synthetic.ts';

export type Scores = { smape: number; mase: number; rmsse?: number; coverage80?: number; coverage95?: number };
export type Row = { set: string; method: string; series: number; scores: Scores; owa?: number; seriesPerSecond?: number; seriesPerSecondAllCores?: number; failures?: number };

type Forecast = { mean: number[]; lower80?: number[]; upper80?: number[]; lower95?: number[]; upper95?: number[] };

/** Averages each metric over series, the way the M4 and M5 scores are reported. */
export function score(train: number[][], test: number[][], forecasts: Forecast[], period: number, withRmsse = false): Scores {
  const n = forecasts.length;
  const average = (metric: (i: number) => number): number => forecasts.reduce((sum, _, i) => sum + metric(i), 0) / n;
  const scores: Scores = {
    smape: average((i) => smape(test[i]!, forecasts[i]!.mean)),
    mase: average((i) => mase(train[i]!, test[i]!, forecasts[i]!.mean, period)),
  };
  if (withRmsse) scores.rmsse = average((i) => rmsse(train[i]!, test[i]!, forecasts[i]!.mean));
  if (forecasts[0]?.lower80) scores.coverage80 = average((i) => coverage(test[i]!, forecasts[i]!.lower80!, forecasts[i]!.upper80!));
  if (forecasts[0]?.lower95) scores.coverage95 = average((i) => coverage(test[i]!, forecasts[i]!.lower95!, forecasts[i]!.upper95!));
  return scores;
}

// Enough CPU time that a 10- or 20-series sample is not measured at the
// granularity of the clock or of one garbage collection.
const MIN_TIMED_CPU_SECONDS = 1;
const WARM_UP_ITEMS = 5;

/**
 * One-core speed, the same rule for us and for Prophet: an untimed warm-up on
 * the first few items (JIT compilation, WASM tier-up), then whole passes over
 * all items until at least MIN_TIMED_CPU_SECONDS of CPU time of this process
 * has been measured. CPU time, because on a shared machine wall time mostly
 * measures the neighbours. Results are those of the first timed pass.
 */
function timed<T, R>(items: T[], forecast: (item: T) => R): { results: R[]; perCpuSecond: number; wallSecondsPerItem: number } {
  items.slice(0, WARM_UP_ITEMS).forEach(forecast);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let results: R[] | undefined;
  let passes = 0;
  let cpuSeconds: number;
  do {
    const pass = items.map(forecast);
    results ??= pass;
    passes++;
    const cpu = process.cpuUsage(cpuStart);
    cpuSeconds = (cpu.user + cpu.system) / 1e6;
  } while (cpuSeconds < MIN_TIMED_CPU_SECONDS);
  return { results, perCpuSecond: (passes * items.length) / cpuSeconds, wallSecondsPerItem: (performance.now() - start) / 1000 / (passes * items.length) };
}

function holdOut(set: SeriesSet, validation: boolean): { train: number[][]; test: number[][] } {
  if (!validation) return { train: set.train, test: set.test };
  return { train: set.train.map((values) => values.slice(0, -set.horizon)), test: set.train.map((values) => values.slice(-set.horizon)) };
}

/** The training and test (or validation) parts of a seeded sample of the set's series. */
function sampledSplit(set: SeriesSet, options: { sample?: number; validation: boolean }): { train: number[][]; test: number[][] } {
  const indices = seededSample(set.ids.length, options.sample ?? set.ids.length, 1);
  const { train, test } = holdOut(set, options.validation);
  return { train: indices.map((i) => train[i]!), test: indices.map((i) => test[i]!) };
}

// Weekly data gets the yearly period (52 weeks) as a candidate; the seasonality
// test and validation decide per series whether it is used. MASE still uses m = 1.
const M4_SEASONAL_PERIODS = { Weekly: [52], Hourly: [24, 168] } as const;
const PROPHET_STEP_SECONDS = { Weekly: 7 * 86_400, Hourly: 3_600 } as const;

export async function benchmarkM4(name: 'Weekly' | 'Hourly', options: { sample?: number; prophetSample: number; validation: boolean }): Promise<Row[]> {
  const full = loadM4(name);
  const { train, test } = sampledSplit(full, options);
  const { horizon, period } = full;
  const seasonalPeriods = [...M4_SEASONAL_PERIODS[name]];
  const label = `M4 ${name}${options.validation ? ' (validation)' : ''}`;

  const naive2Forecasts = train.map((values) => ({ mean: naive2(values, horizon, period) }));
  const naive2Scores = score(train, test, naive2Forecasts, period);
  const ours = timed(train, (values) => forecastSeries(values, { horizon, seasonalPeriods }));
  const ourForecasts = ours.results.map((f) => ({ mean: f.mean, lower80: f.lower[80], upper80: f.upper[80], lower95: f.lower[95], upper95: f.upper[95] }));
  const allCores = await (async () => {
    const start = performance.now();
    await forecastSeriesBatch(train.map((values) => ({ values, options: { horizon, seasonalPeriods } })));
    return (performance.now() - start) / 1000;
  })();
  const rows: Row[] = [];
  const add = (method: string, scores: Scores, extra: Partial<Row> = {}, reference = naive2Scores, series = train.length): void => {
    rows.push({ set: label, method, series, scores, owa: owa(scores, reference), ...extra });
  };
  add('Stockwise (ours)', score(train, test, ourForecasts, period), { seriesPerSecond: ours.perCpuSecond, seriesPerSecondAllCores: train.length / allCores });
  add('Naive2', naive2Scores);
  add('sNaive', score(train, test, train.map((values) => ({ mean: seasonalNaive(values, horizon, name === 'Hourly' ? 24 : 1) })), period));

  // Prophet is slow, so it runs on a seeded sample; ours and Naive2 are re-scored on the same sample for a fair side-by-side.
  const prophetIndices = seededSample(train.length, options.prophetSample, 2);
  const sampleTrain = prophetIndices.map((i) => train[i]!);
  const sampleTest = prophetIndices.map((i) => test[i]!);
  const sampleNaive2 = score(sampleTrain, sampleTest, prophetIndices.map((i) => naive2Forecasts[i]!), period);
  const prophet = timed(sampleTrain, (values) => prophetForecast(values, PROPHET_STEP_SECONDS[name], horizon));
  const prophetForecasts = prophet.results.map((f) => ({ mean: f.mean, lower95: f.lower95, upper95: f.upper95 }));
  const oursOnSample = timed(sampleTrain, (values) => forecastSeries(values, { horizon, seasonalPeriods }));
  const oursSampleForecasts = oursOnSample.results.map((f) => ({ mean: f.mean, lower80: f.lower[80], upper80: f.upper[80], lower95: f.lower[95], upper95: f.upper[95] }));
  const prophetFailures = prophet.results.filter((f) => f.failed).length;
  add(`Prophet (sample)`, score(sampleTrain, sampleTest, prophetForecasts, period), { seriesPerSecond: prophet.perCpuSecond, failures: prophetFailures }, sampleNaive2, sampleTrain.length);
  add(`Stockwise (same sample)`, score(sampleTrain, sampleTest, oursSampleForecasts, period), { seriesPerSecond: oursOnSample.perCpuSecond }, sampleNaive2, sampleTrain.length);
  return rows;
}

/**
 * The tourism competition's short series (ADR 0110): ours against Naive2, seasonal
 * naive and the M4 Theta and Damped benchmarks, MASE scaled by the in-sample
 * seasonal naive at the set's period (12, 4, 1).
 */
export function benchmarkTourism(name: TourismName, options: { validation: boolean; sample?: number; windows?: number }): Row[] {
  const full = loadTourism(name);
  const windows = options.validation ? Math.max(1, options.windows ?? 1) : 1;
  const { train, test } = windows > 1 ? tourismValidationWindows(full, windows, options.sample) : sampledSplit(full, options);
  const { horizon, period } = full;
  const seasonalPeriods = period > 1 ? [period] : [];
  const label = `Tourism ${name}${windows > 1 ? ` (validation, ${windows} windows)` : options.validation ? ' (validation)' : ''}`;
  const baseline = (forecast: (values: number[], horizon: number, period: number) => number[]): Scores =>
    score(train, test, train.map((values) => ({ mean: forecast(values, horizon, period) })), period);
  const naive2Scores = baseline(naive2);
  const ours = timed(train, (values) => forecastSeries(values, { horizon, seasonalPeriods }));
  const ourForecasts = ours.results.map((f) => ({ mean: f.mean, lower80: f.lower[80], upper80: f.upper[80], lower95: f.lower[95], upper95: f.upper[95] }));
  const row = (method: string, scores: Scores, extra: Partial<Row> = {}): Row => ({ set: label, method, series: train.length, scores, owa: owa(scores, naive2Scores), ...extra });
  return [
    row('Stockwise (ours)', score(train, test, ourForecasts, period), { seriesPerSecond: ours.perCpuSecond }),
    row('Naive2', naive2Scores),
    row(`sNaive (${period})`, baseline(seasonalNaive)),
    row('Theta', baseline(thetaBenchmark)),
    row('Damped', baseline(dampedBenchmark)),
  ];
}

/**
 * The last `windows` horizons of each training part, each with the history before it (k = 1 is
 * the usual validation window). One window is a noisy basis for interval calibration: a few
 * volatile years decide it. A window is scored only when the history before it is at least as
 * long as the shortest one of the first window, so every window holds series of the lengths
 * the first one does, and none shorter.
 */
export function tourismValidationWindows(set: SeriesSet, windows: number, sample?: number): { train: number[][]; test: number[][]; window: number[] } {
  const indices = seededSample(set.ids.length, sample ?? set.ids.length, 1);
  const shortest = Math.min(...set.train.map((values) => values.length)) - set.horizon;
  const train: number[][] = [];
  const test: number[][] = [];
  const window: number[] = [];
  for (let k = 1; k <= windows; k++) {
    for (const i of indices) {
      const values = set.train[i]!;
      const end = values.length - (k - 1) * set.horizon;
      if (end - set.horizon < shortest) continue;
      train.push(values.slice(0, end - set.horizon));
      test.push(values.slice(end - set.horizon, end));
      window.push(k);
    }
  }
  return { train, test, window };
}

const DAY_MS = 86_400_000;

/**
 * The k-th 28-day window before the holdout (k = 1 is the one just before it),
 * with the history before it. Ten series give few validation days, so interval
 * calibration looks at several such windows of the training half.
 */
function m5ValidationWindow(series: M5Series, k: number): M5Series {
  const end = series.train.length - (k - 1) * M5_HOLDOUT_DAYS;
  return { ...series, train: series.train.slice(0, end - M5_HOLDOUT_DAYS), test: series.train.slice(end - M5_HOLDOUT_DAYS, end) };
}

// A window is scored only with this much history before it: less, and the
// engine cannot validate a 28-day horizon. The shortest item has 438 training
// days, so it drops out after 12 windows.
const M5_MIN_HISTORY_DAYS = 3 * M5_HOLDOUT_DAYS;

export async function benchmarkM5(options: { validation: boolean; windows?: number; withProphet?: boolean }): Promise<Row[]> {
  const windows = options.validation ? Math.max(1, options.windows ?? 1) : 0;
  const series =
    windows === 0
      ? loadM5()
      : loadM5().flatMap((s) =>
          Array.from({ length: windows }, (_, k) => k + 1)
            .filter((k) => s.train.length - k * M5_HOLDOUT_DAYS >= M5_MIN_HISTORY_DAYS)
            .map((k) => m5ValidationWindow(s, k)),
        );
  const train = series.map((s) => s.train);
  const test = series.map((s) => s.test);
  const label = `M5 subset${windows > 1 ? ` (validation, ${windows} windows)` : options.validation ? ' (validation)' : ''}`;
  const inputs: ProductForecastInput[] = series.map((s) => {
    const first = Date.parse(`${s.start}T00:00:00Z`);
    return { sales: s.train.map((y, t) => ({ ds: new Date(first + t * DAY_MS).toISOString().slice(0, 10), y })), horizon: M5_HOLDOUT_DAYS };
  });
  const ours = timed(inputs, forecastProduct);
  const ourForecasts = ours.results.map((result) => {
    if (isForecastError(result)) throw new Error(result.error);
    const rows = result.forecast;
    return { mean: rows.map((r) => r.yhat), lower80: rows.map((r) => r.yhat_lower_80), upper80: rows.map((r) => r.yhat_upper_80), lower95: rows.map((r) => r.yhat_lower), upper95: rows.map((r) => r.yhat_upper) };
  });
  const allCoresStart = performance.now();
  await forecastBatch(inputs, { chunkSize: 2 });
  const allCores = (performance.now() - allCoresStart) / 1000;
  const rows: Row[] = [
    { set: label, method: 'Stockwise (ours)', series: series.length, scores: score(train, test, ourForecasts, 1, true), seriesPerSecond: ours.perCpuSecond, seriesPerSecondAllCores: series.length / allCores },
    { set: label, method: 'sNaive (7)', series: series.length, scores: score(train, test, train.map((v) => ({ mean: seasonalNaive(v, M5_HOLDOUT_DAYS, 7) })), 1, true) },
    { set: label, method: 'Croston (α=0.1)', series: series.length, scores: score(train, test, train.map((v) => ({ mean: crostonBenchmark(v, M5_HOLDOUT_DAYS) })), 1, true) },
    { set: label, method: 'Naive', series: series.length, scores: score(train, test, train.map((v) => ({ mean: seasonalNaive(v, M5_HOLDOUT_DAYS, 1) })), 1, true) },
  ];
  if (options.withProphet ?? true) {
    const prophet = timed(train, (values) => prophetForecast(values, 86_400, M5_HOLDOUT_DAYS));
    // Prophet knows nothing of non-negative demand; clipping at zero only helps it.
    const clipped = prophet.results.map((f) => ({ mean: f.mean.map((v) => Math.max(0, v)), lower95: f.lower95.map((v) => Math.max(0, v)), upper95: f.upper95 }));
    const failures = prophet.results.filter((f) => f.failed).length;
    rows.push({ set: label, method: 'Prophet', series: series.length, scores: score(train, test, clipped, 1, true), seriesPerSecond: prophet.perCpuSecond, failures });
  }
  return rows;
}

// The demo catalogue as the server seeds it, for a fixed day so the figures repeat.
const DEMO_TODAY = new Date('2026-11-24T00:00:00Z');
// Windows need this much history before them: a year and a half, so the yearly candidates compete.
const DEMO_MIN_HISTORY_DAYS = 548;
// The newest four 28-day windows are the test part; validation uses the ones before them.
const DEMO_TEST_WINDOWS = 4;

/**
 * The demo data's held-out windows: the last `windows` 28-day windows of each product's two years
 * (k = 1 is the newest), each forecast from the days before it with its stock snapshots and the
 * catalogue calendar of those days, as the server's catalogue run would. Sales are capped by stock,
 * so a stockout day in a window counts as it sold. `validation`: the windows before the four
 * held-out ones instead (k = 5, 6: as many as leave a year and a half of history before them).
 */
export function benchmarkDemo(options: { windows: number; validation?: boolean }): Row[] {
  const catalogue = demoCatalogue(DEMO_TODAY);
  const firstDay = Date.parse(DEMO_TODAY.toISOString().slice(0, 10)) / DAY_MS - 730;
  const day = (t: number) => new Date((firstDay + t) * DAY_MS).toISOString().slice(0, 10);
  const train: number[][] = [];
  const test: number[][] = [];
  const inputs: ProductForecastInput[] = [];
  const first = options.validation ? DEMO_TEST_WINDOWS + 1 : 1;
  for (let k = first; k < first + options.windows; k++) {
    const end = 730 - (k - 1) * M5_HOLDOUT_DAYS - M5_HOLDOUT_DAYS;
    if (end < DEMO_MIN_HISTORY_DAYS) break;
    const daily = catalogue.map(({ history }) => {
      const values = new Array<number>(730).fill(0);
      for (const sale of history.sales) values[Date.parse(sale.date) / DAY_MS - firstDay] = sale.quantity;
      return values;
    });
    const categories = new Map<string | null, DailyTotals>();
    catalogue.forEach(({ product }, i) => {
      const group = categories.get(product.category) ?? { firstDay, totals: new Float64Array(end) };
      for (let t = 0; t < end; t++) group.totals[t]! += daily[i]![t]!;
      categories.set(product.category, group);
    });
    const calendar = catalogueCalendar(categories);
    const closedDates = closedDatesBetween(calendar, day(0), end + M5_HOLDOUT_DAYS);
    catalogue.forEach(({ product, history }, i) => {
      train.push(daily[i]!.slice(0, end));
      test.push(daily[i]!.slice(end, end + M5_HOLDOUT_DAYS));
      const yearlyProfile = calendar.yearlyProfiles[product.category] ?? calendar.yearlyProfiles[CATALOGUE_PROFILE];
      const weekdayProfile = calendar.weekdayProfiles?.[product.category] ?? calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
      inputs.push({
        sales: daily[i]!.slice(0, end).map((y, t) => ({ ds: day(t), y })),
        stock: history.snapshots.filter((snapshot) => snapshot.date < day(end)).map((snapshot) => ({ ds: snapshot.date, stock_level: snapshot.stock_level })),
        horizon: M5_HOLDOUT_DAYS,
        today: day(end),
        ...(closedDates.length ? { closedDates } : {}),
        // Even when empty, as the catalogue run passes it: the weekdays the catalogue trades on.
        ...(calendar.closedWeekdays ? { closedWeekdays: calendar.closedWeekdays } : {}),
        ...(yearlyProfile ? { yearlyProfile } : {}),
        ...(weekdayProfile ? { weekdayProfile } : {}),
      });
    });
  }
  const ours = timed(inputs, forecastProduct);
  const forecasts = ours.results.map((result) => {
    if (isForecastError(result)) throw new Error(result.error);
    const rows = result.forecast;
    return { mean: rows.map((r) => r.yhat), lower80: rows.map((r) => r.yhat_lower_80), upper80: rows.map((r) => r.yhat_upper_80), lower95: rows.map((r) => r.yhat_lower), upper95: rows.map((r) => r.yhat_upper) };
  });
  const label = `Demo data (${train.length / catalogue.length} held-out 28-day windows)`;
  return [
    { set: label, method: 'Stockwise (ours)', series: train.length, scores: score(train, test, forecasts, 1, true), seriesPerSecond: ours.perCpuSecond },
    { set: label, method: 'sNaive (7)', series: train.length, scores: score(train, test, train.map((v) => ({ mean: seasonalNaive(v, M5_HOLDOUT_DAYS, 7) })), 1, true) },
  ];
}

/** The product path end to end: 2 years of daily sales, 90-day horizon, stock and deliveries. */
export async function benchmarkCatalogue(
  products: number,
): Promise<{ products: number; msPerSeriesOneCore: number; wallMsPerSeriesOneCore: number; secondsAllCores: number; workers: number; errors: number }> {
  const inputs = syntheticCatalogue(products, 730, 3);
  const oneCoreSample = inputs.slice(0, Math.min(300, products));
  const oneCore = timed(oneCoreSample, forecastProduct);
  const start = performance.now();
  const results = await forecastBatch(inputs);
  return {
    products,
    msPerSeriesOneCore: 1000 / oneCore.perCpuSecond,
    wallMsPerSeriesOneCore: oneCore.wallSecondsPerItem * 1000,
    secondsAllCores: (performance.now() - start) / 1000,
    workers: availableParallelism(),
    errors: results.filter(isForecastError).length,
  };
}

function format(value: number | undefined, digits = 3): string {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

export function markdownTable(rows: Row[]): string {
  const lines = [
    '| set | method | series | sMAPE | MASE | OWA | RMSSE | cover 80 | cover 95 | series/s 1 core (CPU time) | series/s all cores (wall) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const s = row.scores;
    lines.push(
      `| ${row.set} | ${row.method}${row.failures ? ` (${row.failures} failed → naive)` : ''} | ${row.series} | ${format(s.smape)} | ${format(s.mase)} | ${format(row.owa)} | ${format(s.rmsse)} | ${format(s.coverage80, 2)} | ${format(s.coverage95, 2)} | ${format(row.seriesPerSecond, 0)} | ${format(row.seriesPerSecondAllCores, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** Interval coverage of our bands per set (the rows that have bands). */
export function coverageTable(rows: Row[]): string {
  const lines = ['| set | series | cover 80 (nominal 0.80) | cover 95 (nominal 0.95) |', '|---|---|---|---|'];
  for (const row of rows) {
    if (!row.method.startsWith('Stockwise (ours)') || row.scores.coverage80 === undefined) continue;
    lines.push(`| ${row.set} | ${row.series} | ${format(row.scores.coverage80)} | ${format(row.scores.coverage95)} |`);
  }
  return lines.join('\n');
}

/**
 * Like for like: our one-core rate on Prophet's seeded sample (the same series,
 * horizon and timing rule) against Prophet's; on M5 both run on all ten
 * series. Our rate over the whole set is printed next to it.
 */
export function speedRatios(rows: Row[]): string {
  const ratios: string[] = [];
  for (const set of new Set(rows.map((row) => row.set))) {
    const rate = (method: string): number | undefined => rows.find((row) => row.set === set && row.method.startsWith(method))?.seriesPerSecond;
    const prophet = rate('Prophet');
    const whole = rate('Stockwise (ours)');
    const sameSeries = rate('Stockwise (same sample)') ?? whole;
    if (!prophet || !sameSeries || !whole) continue;
    ratios.push(`${set} ${(sameSeries / prophet).toFixed(0)}×${sameSeries === whole ? '' : ` (whole set against the sample: ${(whole / prophet).toFixed(0)}×)`}`);
  }
  return ratios.length > 0 ? `Series/s on one core relative to Prophet, same series: ${ratios.join(', ')}.` : '';
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const validation = process.argv.includes('--validation');
  const setsArgument = process.argv.find((argument) => argument.startsWith('--sets='));
  const sets = new Set((setsArgument?.slice('--sets='.length) ?? 'weekly,hourly,m5,monthly,quarterly,yearly,demo,catalogue').split(','));
  const started = performance.now();
  const rows: Row[] = [];
  if (sets.has('weekly')) rows.push(...(await benchmarkM4('Weekly', { sample: quick ? 60 : undefined, prophetSample: quick ? 5 : 40, validation })));
  if (sets.has('hourly')) rows.push(...(await benchmarkM4('Hourly', { sample: quick ? 40 : undefined, prophetSample: quick ? 3 : 20, validation })));
  const windows = Number(process.argv.find((argument) => argument.startsWith('--windows='))?.slice('--windows='.length) ?? 1);
  if (sets.has('m5')) rows.push(...(await benchmarkM5({ validation, windows })));
  for (const name of ['Monthly', 'Quarterly', 'Yearly'] as const) {
    if (sets.has(name.toLowerCase())) rows.push(...benchmarkTourism(name, { validation, windows, sample: quick ? 60 : undefined }));
  }
  if (sets.has('demo')) rows.push(...benchmarkDemo({ windows: validation ? windows : Math.max(DEMO_TEST_WINDOWS, windows), validation }));
  if (rows.length > 0) console.log(`${markdownTable(rows)}\n\n${speedRatios(rows)}\n\nCoverage of our bands:\n\n${coverageTable(rows)}`);
  if (sets.has('catalogue')) {
    const catalogue = await benchmarkCatalogue(quick ? 1_000 : 10_000);
    console.log(
      `\nCatalogue: ${catalogue.products} products × 730 days, horizon 90: ${catalogue.msPerSeriesOneCore.toFixed(2)} CPU ms/product on one core ` +
        `(${catalogue.wallMsPerSeriesOneCore.toFixed(2)} ms wall); ` +
        `${catalogue.secondsAllCores.toFixed(1)} s on ${catalogue.workers} cores; ${catalogue.errors} errors.`,
    );
  }
  console.log(`Peak RSS ${(resourceUsage().maxRSS / 1024).toFixed(0)} MiB (one process: main thread and workers). Total ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

if (import.meta.main) await main();
