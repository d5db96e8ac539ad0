// A forecast as stored (docs/adr/0152): the engine's result, its daily rows kept as columns — the
// first day, then one array of figures per field — because the rows' days are consecutive and the
// member names of ~200 row objects were two thirds of the text that every catalogue run stringifies,
// sends, compresses and logs. A forecast read writes the rows back in the contract's shape.
import { dayLabels, dayNumber, type BacktestRow, type ForecastRow, type ProductForecast, type StockRow } from '@stockwise/forecast';

/** The fields of each daily series, in the order the contract's rows list them (ds first). */
export const FORECAST_FIELDS = ['yhat', 'yhat_lower', 'yhat_upper', 'yhat_lower_80', 'yhat_upper_80'] as const satisfies readonly (keyof ForecastRow)[];
export const STOCK_FIELDS = ['stock_level', 'stock_upper', 'stock_lower'] as const satisfies readonly (keyof StockRow)[];
export const BACKTEST_FIELDS = ['yhat', 'yhat_lower', 'yhat_upper'] as const satisfies readonly (keyof BacktestRow)[];

/** A daily series as stored: its first day (null when it has no rows) and a figure per day for each field. */
export type StoredColumns<Field extends string> = { from: string | null } & Record<Field, (number | null)[]>;

const toThousandths = (value: number) => Math.round(value * 1000) / 1000;

function columnsOf<Row extends { ds: string }, Field extends keyof Row & string>(rows: Row[], fields: readonly Field[]): StoredColumns<Field> {
  const columns: Record<string, (number | null)[] | string | null> = { from: rows[0]?.ds ?? null };
  for (const field of fields) columns[field] = rows.map((row) => toThousandths(row[field] as number));
  return columns as StoredColumns<Field>;
}

/**
 * The forecast as stored and served: its daily figures to three decimals, which is what the chart
 * shows (the engine's 17 significant digits were a fifth of the text, ADR 0112; rounding is
 * monotonic, so lower ≤ forecast ≤ upper still holds), each series as columns.
 */
export function storedForecastJson(result: ProductForecast): string {
  return JSON.stringify({
    ...result,
    forecast: columnsOf(result.forecast, FORECAST_FIELDS),
    backtest: columnsOf(result.backtest, BACKTEST_FIELDS),
    stock: columnsOf(result.stock, STOCK_FIELDS),
  });
}

/**
 * The JSON text of a stored series' rows as the contract has them (`[{"ds":…,"yhat":…},…]`), from
 * the series' stored text. Written out rather than built as objects for JSON.stringify, whose cost
 * is per member (~1,000 of them a forecast). A figure prints as JSON.stringify prints it.
 */
export function dailyRowsJson(storedText: string, fields: readonly string[]): string {
  const columns = JSON.parse(storedText) as StoredColumns<string>;
  if (columns.from === null) return '[]';
  const values = fields.map((field) => columns[field] as (number | null)[]);
  const names = fields.map((field) => `,"${field}":`);
  const count = values[0]?.length ?? 0;
  // Shared labels, maybe of a longer window from the same day: only the first `count` are this series'.
  const days = dayLabels(dayNumber(columns.from), count);
  let text = '[';
  for (let j = 0; j < count; j++) {
    text += `${j ? ',' : ''}{"ds":"${days[j]}"`;
    for (let k = 0; k < values.length; k++) text += `${names[k]}${values[k]![j]}`;
    text += '}';
  }
  return `${text}]`;
}
