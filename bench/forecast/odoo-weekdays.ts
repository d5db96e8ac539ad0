// The Odoo wholesaler fixture's weekday rhythm in the forecasts (ADR 0198 F11): every product's
// last `--days` days (default 28) held out, forecast from the days before with the catalogue
// calendar the server's run would pass, and the error by weekday over all products.
//   node e2e/fixtures/odoo-wholesaler.ts /tmp/odoo && node bench/forecast/odoo-weekdays.ts /tmp/odoo [--windows=N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { CATALOGUE_PROFILE, catalogueCalendar, closedDatesBetween, dayNumber, forecastProduct, isForecastError, type DailyTotals } from '@stockwise/forecast';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { days: { type: 'string', default: '28' }, windows: { type: 'string', default: '1' } } });
const HOLDOUT = Number(args.days);
const WINDOWS = Number(args.windows);
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

function records(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

const dir = positionals[0] ?? '/tmp/odoo';
const products = records(join(dir, 'product.template.csv')).filter((row) => row['Product Type'] === 'Storable Product');
const nameOf = (row: Record<string, string>) => (row['Internal Reference'] ? `[${row['Internal Reference']}] ${row.Name}` : row.Name!);
const lines = records(join(dir, 'sale.order.line.csv')).filter((row) => row.Status === 'Sales Order');
const dayOf = (odooDate: string) => dayNumber(`${odooDate.slice(6, 10)}-${odooDate.slice(0, 2)}-${odooDate.slice(3, 5)}`);
const firstDay = Math.min(...lines.map((row) => dayOf(row['Order Date']!)));
const days = Math.max(...lines.map((row) => dayOf(row['Order Date']!))) - firstDay + 1;
const daily = new Map(products.map((row) => [nameOf(row), new Float64Array(days)]));
for (const row of lines) {
  const series = daily.get(row.Product!);
  if (series) series[dayOf(row['Order Date']!) - firstDay]! += Number(row.Quantity!.replaceAll(',', ''));
}

const absolute = new Float64Array(7);
const squared = new Float64Array(7);
const actual = new Float64Array(7);
const forecast = new Float64Array(7);
const counts = new Float64Array(7);
const paper: string[] = [];
// k = 0: the whole history, forecast from the day after it (not scored): Copier Paper's week as the server shows it.
for (let k = 0; k <= WINDOWS; k++) {
  const end = days - k * HOLDOUT;
  const categories = new Map<string | null, DailyTotals>();
  for (const row of products) {
    const group = categories.get(row['Product Category']!) ?? { firstDay, totals: new Float64Array(end) };
    daily.get(nameOf(row))!.subarray(0, end).forEach((units, t) => (group.totals[t]! += units));
    categories.set(row['Product Category']!, group);
  }
  const calendar = catalogueCalendar(categories);
  const closedDates = closedDatesBetween(calendar, formatDay(firstDay), end + HOLDOUT);
  for (const row of products) {
    const values = daily.get(nameOf(row))!;
    const category = row['Product Category']!;
    const yearlyProfile = calendar.yearlyProfiles[category] ?? calendar.yearlyProfiles[CATALOGUE_PROFILE];
    const weekdayProfile = calendar.weekdayProfiles?.[category] ?? calendar.weekdayProfiles?.[CATALOGUE_PROFILE];
    const result = forecastProduct({
      sales: { firstDay, days: Array.from({ length: end }, (_, t) => t), units: values.subarray(0, end) },
      horizon: HOLDOUT,
      today: formatDay(firstDay + end),
      soldByMeasure: row['Unit of Measure'] === 'kg',
      closedWeekdays: calendar.closedWeekdays ?? [],
      ...(closedDates.length ? { closedDates } : {}),
      ...(yearlyProfile ? { yearlyProfile } : {}),
      ...(weekdayProfile ? { weekdayProfile } : {}),
    });
    if (isForecastError(result)) throw new Error(`${nameOf(row)}: ${result.error}`);
    if (row['Internal Reference'] === 'PAP_A4_80' && k <= 1) {
      const week = result.forecast.slice(0, 7).map((day) => `${WEEKDAYS[(dayNumber(day.ds) + 4) % 7]} ${day.yhat.toFixed(1)}`);
      paper.push(`${k === 0 ? 'whole history' : 'last window'}: ${nameOf(row)}: ${result.model.name} (${result.model.patterns.join(', ')}); first week ${week.join(', ')}`);
    }
    if (k === 0) continue;
    result.forecast.forEach((day, j) => {
      const weekday = (firstDay + end + j + 4) % 7;
      const sold = values[end + j]!;
      absolute[weekday]! += Math.abs(sold - day.yhat);
      squared[weekday]! += (sold - day.yhat) ** 2;
      actual[weekday]! += sold;
      forecast[weekday]! += day.yhat;
      counts[weekday]! += 1;
    });
  }
}
console.log(`${products.length} products, ${WINDOWS} held-out window(s) of ${HOLDOUT} days, history from ${formatDay(firstDay)}`);
console.log('| weekday | MAE | RMSE | mean actual | mean forecast |\n|---|---|---|---|---|');
let total = 0;
let totalSquared = 0;
let n = 0;
for (const weekday of [1, 2, 3, 4, 5, 6, 0]) {
  if (!counts[weekday]) continue;
  total += absolute[weekday]!;
  totalSquared += squared[weekday]!;
  n += counts[weekday]!;
  console.log(`| ${WEEKDAYS[weekday]} | ${(absolute[weekday]! / counts[weekday]!).toFixed(3)} | ${Math.sqrt(squared[weekday]! / counts[weekday]!).toFixed(3)} | ${(actual[weekday]! / counts[weekday]!).toFixed(3)} | ${(forecast[weekday]! / counts[weekday]!).toFixed(3)} |`);
}
console.log(`| all | ${(total / n).toFixed(3)} | ${Math.sqrt(totalSquared / n).toFixed(3)} | | |`);
console.log(paper.join('\n'));
