// Band coverage of the tourism sets per validation window and per horizon step:
// `node bench/forecast/coverage-windows.ts [--windows=6] [--sets=monthly,quarterly,yearly]`.
// Training parts only (window k holds out the k-th last horizon of each training
// series, as `run.ts --validation --windows=N`): how much one window's coverage
// moves with its period, and whether the bands widen with the step as the errors do.
import { forecastSeries } from '@stockwise/forecast';
import { loadTourism, type TourismName } from './data.ts';
import { tourismValidationWindows } from './run.ts';

const windows = Number(process.argv.find((argument) => argument.startsWith('--windows='))?.slice('--windows='.length) ?? 6);
const sets = (process.argv.find((argument) => argument.startsWith('--sets='))?.slice('--sets='.length) ?? 'monthly,quarterly,yearly').split(',');
const LEVELS = [80, 95] as const;

for (const name of ['Monthly', 'Quarterly', 'Yearly'] as TourismName[]) {
  if (!sets.includes(name.toLowerCase())) continue;
  const set = loadTourism(name);
  const { train, test, window } = tourismValidationWindows(set, windows);
  const seasonalPeriods = set.period > 1 ? [set.period] : [];
  // inside[level][window or step] and the number of values scored there.
  const byWindow = LEVELS.map(() => new Float64Array(windows + 1));
  const byStep = LEVELS.map(() => new Float64Array(set.horizon));
  const windowCounts = new Float64Array(windows + 1);
  const stepCounts = new Float64Array(set.horizon);
  train.forEach((values, i) => {
    const forecast = forecastSeries(values, { horizon: set.horizon, seasonalPeriods });
    test[i]!.forEach((actual, j) => {
      LEVELS.forEach((level, l) => {
        const inside = actual >= forecast.lower[level]![j]! && actual <= forecast.upper[level]![j]! ? 1 : 0;
        byWindow[l]![window[i]!]! += inside;
        byStep[l]![j]! += inside;
      });
      windowCounts[window[i]!]! += 1;
      stepCounts[j]! += 1;
    });
  });
  const pair = (inside: Float64Array[], counts: Float64Array, index: number) => LEVELS.map((_, l) => (inside[l]![index]! / counts[index]!).toFixed(3)).join(' / ');
  const perWindow = Array.from({ length: windows }, (_, k) => k + 1).filter((k) => windowCounts[k]! > 0);
  const means = LEVELS.map((_, l) => perWindow.map((k) => byWindow[l]![k]! / windowCounts[k]!));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const sd = (values: number[]) => Math.sqrt(values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0) / Math.max(1, values.length - 1));
  console.log(`Tourism ${name}, coverage 80 / 95 per window: ${perWindow.map((k) => `w${k} ${pair(byWindow, windowCounts, k)}`).join(' | ')}`);
  console.log(`  mean of windows ${means.map((values) => mean(values).toFixed(3)).join(' / ')} (sd ${means.map((values) => sd(values).toFixed(3)).join(' / ')})`);
  const perStep = LEVELS.map((_, l) => Array.from({ length: set.horizon }, (_, j) => byStep[l]![j]! / stepCounts[j]!));
  console.log(`  across steps: sd ${perStep.map((values) => sd(values).toFixed(3)).join(' / ')}, range ${perStep.map((values) => `${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}`).join(' / ')}`);
  console.log(`  per step, windows pooled: ${Array.from({ length: set.horizon }, (_, j) => `${j + 1}: ${pair(byStep, stepCounts, j)}`).join(' | ')}`);
}
