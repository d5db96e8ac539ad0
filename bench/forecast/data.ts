import { readFileSync } from 'node:fs';

/** A competition set: one training and one test array per series, scored with MASE at `period`. */
export type SeriesSet<Name extends string = string> = { name: Name; horizon: number; period: number; ids: string[]; train: number[][]; test: number[][] };
export type M4Set = SeriesSet<'Weekly' | 'Hourly'>;
export type TourismName = 'Monthly' | 'Quarterly' | 'Yearly';
export type TourismSet = SeriesSet<TourismName>;
export type M5Series = { id: string; start: string; train: number[]; test: number[] };

export const M5_HOLDOUT_DAYS = 28;

export function dataDirectory(): URL {
  const override = process.env.FORECAST_DATA_DIR;
  if (override) return new URL(`file://${override.endsWith('/') ? override : `${override}/`}`);
  return new URL('../../../shared/data/forecast/', import.meta.url);
}

/** The official wide CSVs: `"V1","V2",…`, one series per row, right-padded with `""`. */
function readWide(url: URL): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  const lines = readFileSync(url, 'utf8').split('\n');
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = line.split(',').map((cell) => cell.replaceAll('"', ''));
    const values = cells.slice(1).filter((cell) => cell !== '').map(Number);
    rows.set(cells[0]!, values);
  }
  return rows;
}

export function loadM4(name: 'Weekly' | 'Hourly', directory = dataDirectory()): M4Set {
  const train = readWide(new URL(`m4/${name}-train.csv`, directory));
  const test = readWide(new URL(`m4/${name}-test.csv`, directory));
  const ids = [...train.keys()];
  return {
    name,
    horizon: name === 'Weekly' ? 13 : 48,
    period: name === 'Weekly' ? 1 : 24,
    ids,
    train: ids.map((id) => train.get(id)!),
    test: ids.map((id) => test.get(id)!),
  };
}

/**
 * The M5 subset has no zero-sales rows, so missing days are filled with 0. Each
 * series starts at its first sale: the days before it are "not yet listed",
 * not demand.
 */
export function loadM5(directory = dataDirectory()): M5Series[] {
  const lines = readFileSync(new URL('m5/m5_subset.csv', directory), 'utf8').split('\n');
  const header = lines[0]!.split(',');
  const idColumn = header.indexOf('item_id');
  const dayColumn = header.indexOf('d');
  const salesColumn = header.indexOf('sales');
  const dateColumn = header.indexOf('date');
  const days = 1913;
  const byId = new Map<string, { sales: Float64Array; firstDate: string }>();
  const dateOfDay = new Map<number, string>();
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const id = cells[idColumn]!;
    const day = Number(cells[dayColumn]!.slice(2));
    dateOfDay.set(day, cells[dateColumn]!);
    let entry = byId.get(id);
    if (!entry) byId.set(id, (entry = { sales: new Float64Array(days), firstDate: '' }));
    entry.sales[day - 1] = Number(cells[salesColumn]);
  }
  const firstDay = new Date(`${dateOfDay.get(1) ?? '2011-01-29'}T00:00:00Z`).getTime();
  return [...byId.keys()].sort().map((id) => {
    const sales = byId.get(id)!.sales;
    const firstSale = sales.findIndex((value) => value > 0);
    const values = Array.from(sales.subarray(firstSale));
    return {
      id,
      start: new Date(firstDay + firstSale * 86_400_000).toISOString().slice(0, 10),
      train: values.slice(0, values.length - M5_HOLDOUT_DAYS),
      test: values.slice(values.length - M5_HOLDOUT_DAYS),
    };
  });
}

const TOURISM = {
  Monthly: { file: 'monthly', horizon: 24, period: 12, headerRows: 4 },
  Quarterly: { file: 'quarterly', horizon: 8, period: 4, headerRows: 4 },
  // The yearly files have no period row: ids, length, start year, then values.
  Yearly: { file: 'yearly', horizon: 4, period: 1, headerRows: 3 },
} as const;

/**
 * The tourism competition's column-wise files: row 1 ids, row 2 the length n,
 * then start rows, then values. Only the first n values of a column are read:
 * 79 yearly columns carry a stray number far below their series. (Y18's test
 * part starts a year later than its file says; only its start year is wrong,
 * and the benchmark uses no dates.)
 */
function readColumns(url: URL, headerRows: number): Map<string, number[]> {
  const rows = readFileSync(url, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.split(','));
  const ids = rows[0]!.map((cell) => cell.replaceAll('"', '').trim());
  const columns = new Map<string, number[]>();
  ids.forEach((id, column) => {
    if (id === '') return;
    const length = Number(rows[1]![column]);
    const values = rows.slice(headerRows, headerRows + length).map((row) => Number(row[column]));
    if (values.length !== length || values.some((value) => !Number.isFinite(value))) throw new Error(`${url.pathname}: column ${id} has fewer than its ${length} values`);
    columns.set(id, values);
  });
  return columns;
}

export function loadTourism(name: TourismName, directory = dataDirectory()): TourismSet {
  const { file, horizon, period, headerRows } = TOURISM[name];
  const train = readColumns(new URL(`tourism/${file}_in.csv`, directory), headerRows);
  const test = readColumns(new URL(`tourism/${file}_oos.csv`, directory), headerRows);
  const ids = [...train.keys()];
  return { name, horizon, period, ids, train: ids.map((id) => train.get(id)!), test: ids.map((id) => test.get(id)!) };
}
