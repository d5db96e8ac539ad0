// Rows of a report as a chart draws them: sorted as the chart config says, numbers as numbers,
// and long rows (month, product, units) pivoted into one series per value of `group_field`.
import { formatDay, formatDayOfMonth, formatMonth, isIsoDay, periodOfValues, periodStartOf, proposeChartConfig, shortCategoryNames, type ChartConfig, type ResultColumn, type ResultRow, type UnfinishedPeriod } from '@stockwise/contract';

/** A drawn series: `money` when its column is one of the chart's money fields. */
export type ChartSeries = { key: string; label: string; money: boolean };
export type ChartData = { rows: Record<string, string | number | null>[]; series: ChartSeries[] };

/** Most series a pivot draws; the rest are left out (a chart with 200 lines is unreadable). */
export const MAX_PIVOT_SERIES = 12;

const asNumber = (value: unknown): number | null => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
};
const asLabel = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === 'object' ? JSON.stringify(value) : String(value));

function sorted(rows: ResultRow[], sort: ChartConfig['sort']): ResultRow[] {
  if (!sort) return rows;
  const direction = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[sort.field];
    const y = b[sort.field];
    const nx = asNumber(x);
    const ny = asNumber(y);
    if (nx !== null && ny !== null) return (nx - ny) * direction;
    return String(asLabel(x) ?? '').localeCompare(String(asLabel(y) ?? '')) * direction;
  });
}

/** The columns a chart config reads that the result does not have (its SQL changed since the chart was chosen). */
export function missingChartFields(config: ChartConfig, columns: readonly string[]): string[] {
  if (config.type === 'table') return [];
  const read = [config.x_field, ...config.series.map((s) => s.field), config.group_field, config.sort?.field].filter((field): field is string => Boolean(field));
  return [...new Set(read)].filter((field) => !columns.includes(field));
}

/**
 * The chart the editor shows for a result, and what Save stores: the one chosen; none chosen, the one
 * proposed for the result's columns; one chosen whose columns the SQL no longer gives (`missing`),
 * the proposal too — a pinned report never shows a chart of columns its SQL lost.
 */
export function chartShownFor(config: ChartConfig | null, columns: ResultColumn[], rowCount: number): { chart: ChartConfig; missing: string[] } {
  const missing = config ? missingChartFields(config, columns.map((column) => column.name)) : [];
  return { chart: config && !missing.length ? config : proposeChartConfig(columns, { rowCount }), missing };
}

export function buildChartData(config: ChartConfig, rows: ResultRow[]): ChartData {
  const x = config.x_field;
  const ordered = sorted(rows, config.sort);
  const isMoney = (field: string) => config.money_fields?.includes(field) ?? false;
  if (config.group_field && x && config.series[0]) {
    const valueField = config.series[0].field;
    const byX = new Map<string, Record<string, string | number | null>>();
    const groups: string[] = [];
    for (const row of ordered) {
      const group = asLabel(row[config.group_field]) ?? '—';
      if (!groups.includes(group)) {
        if (groups.length >= MAX_PIVOT_SERIES) continue;
        groups.push(group);
      }
      const key = asLabel(row[x]) ?? '';
      const point = byX.get(key) ?? { [x]: key };
      point[group] = asNumber(row[valueField]);
      byX.set(key, point);
    }
    // A group without a row at an x had nothing there (a SQL `group by` writes no row for a month a
    // category sold nothing in): 0, as a spreadsheet's pivot or Metabase draws it. Left empty, the
    // line ran across the gap, and December's Christmas trees seemed to sell all year.
    const points = [...byX.values()].map((point) => ({ ...Object.fromEntries(groups.map((group) => [group, 0])), ...point }));
    return { rows: points, series: groups.map((group) => ({ key: group, label: group, money: isMoney(valueField) })) };
  }
  return {
    rows: ordered.map((row) => ({
      ...(x ? { [x]: config.type === 'scatter' ? asNumber(row[x]) : asLabel(row[x]) } : {}),
      ...Object.fromEntries(config.series.map((s) => [s.field, asNumber(row[s.field])])),
    })),
    series: config.series.map((s) => ({ key: s.field, label: s.label ?? s.field, money: isMoney(s.field) })),
  };
}

const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

/** Figures on the value axis and in the tooltip as the screens show them (60,000, 1,234.5). */
export const formatFigure = (value: unknown): string => (typeof value === 'number' ? figure.format(value) : String(value ?? ''));

/**
 * The chart's figures with money in the shop's currency: the value axis when every series is money,
 * the tooltip by the series a figure belongs to (named as the tooltip names it).
 */
export function chartFigures(data: ChartData, money: Intl.NumberFormat): { axis: (value: unknown) => string; tooltip: (value: unknown, name: unknown) => string } {
  const asMoney = (value: unknown) => (typeof value === 'number' ? money.format(value) : formatFigure(value));
  const moneyNames = new Set(data.series.filter((s) => s.money).map((s) => s.label));
  const allMoney = data.series.length > 0 && data.series.every((s) => s.money);
  return { axis: allMoney ? asMoney : formatFigure, tooltip: (value, name) => (moneyNames.has(String(name)) ? asMoney(value) : formatFigure(value)) };
}

/** Recharts' own value-axis width, enough for "60,000". */
const MIN_VALUE_AXIS_WIDTH = 60;
/** Pixels per character of an axis figure at the chart's font size, and the tick's own margin. */
const AXIS_CHARACTER_WIDTH = 8;
const AXIS_TICK_MARGIN = 12;

/**
 * Width of the value axis for the series' largest figure: "1,000,000" in Recharts' fixed 60 px lost
 * its first characters. Ticks are rounded past the data, so the largest figure gets a digit's room more.
 */
export function valueAxisWidth(data: ChartData, format: (value: unknown) => string = formatFigure): number {
  let longest = 0;
  for (const row of data.rows) {
    for (const { key } of data.series) {
      const value = row[key];
      if (typeof value === 'number') longest = Math.max(longest, format(value).length);
    }
  }
  return Math.max(MIN_VALUE_AXIS_WIDTH, (longest + 1) * AXIS_CHARACTER_WIDTH + AXIS_TICK_MARGIN);
}

/**
 * The x axis's labels, by the period the column's values stand for (periodOfValues, as the server
 * reads them): months "Feb 2025", quarters "Q4 2026", years "2026", weeks and other days "3 Dec"
 * ("3 Dec 2025" when the days span more than one year); anything else as written. `values` are the
 * result's own (a year from extract() is a number there, a label on the chart); a period may be a
 * date, a timestamp at midnight or a month or quarter written as text ("2026-12", "2026 Q4").
 */
export function xLabelFormatter(x: string, values: readonly unknown[]): (value: unknown) => string {
  const unit = periodOfValues(x, values);
  const present = values.filter((value) => value !== null && value !== undefined);
  const allDays = present.length > 0 && present.every(isIsoDay);
  const startOf = (value: unknown) => (unit ? periodStartOf(value) : allDays && isIsoDay(value) ? value : null);
  const day = new Set(present.map((value) => startOf(value)?.slice(0, 4))).size > 1 ? formatDay : formatDayOfMonth;
  return (value) => {
    const text = String(value ?? '');
    if (unit === 'year') return text.slice(0, 4);
    const start = startOf(value);
    if (!start) return text;
    if (unit === 'month') return formatMonth(start);
    if (unit === 'quarter') return quarterLabel(start);
    return day(start);
  };
}

const quarterLabel = (start: string) => `Q${Math.floor((Number(start.slice(5, 7)) - 1) / 3) + 1} ${start.slice(0, 4)}`;

/**
 * A result grid's text for a date or timestamp column whose values stand for months, quarters or
 * years, as its chart names them ("Dec 2026", "Q4 2026", "2026"), and for one of days or weeks held
 * as midnight timestamps, the day alone ("2026-10-05", not "2026-10-05 00:00:00"); null for any other
 * column, which the grid writes as the server sent it.
 */
export function periodCellFormatter(column: ResultColumn, values: readonly unknown[]): ((value: unknown) => string) | null {
  if (!/^(date|timestamp)/.test(column.db_type)) return null;
  const unit = periodOfValues(column.name, values);
  if (!unit) return null;
  return (value) => {
    const start = periodStartOf(value);
    if (!start) return String(value ?? '');
    if (unit === 'year') return start.slice(0, 4);
    if (unit === 'quarter') return quarterLabel(start);
    if (unit === 'month') return formatMonth(start);
    return start;
  };
}

/** A period a chart's row holds only part of: the last one not finished (`unfinished_period`), or the first one cut by the report's start (`first_period_cut`). */
export type PartialPeriod = Pick<UnfinishedPeriod, 'field' | 'value' | 'unit' | 'from' | 'through'>;

/** A result's partial period when the chart's x axis is the column it is of (else the chart has nothing to mark). */
export const periodOnAxis = <Period extends PartialPeriod>(period: Period | null | undefined, config: ChartConfig): Period | null =>
  period && config.type !== 'scatter' && config.x_field === period.field ? period : null;

/** Whether an x value is the period's (a year from extract() is a number in the rows, a label on the chart). */
export const isPeriodValue = (period: PartialPeriod | null, value: unknown): boolean => period !== null && String(value) === String(period.value);

/** The days a partial period holds: "1–3 Dec", "30 Nov–3 Dec", "1 Jan–3 Dec", "15–31 Mar", or one day, "1 Dec". */
export function periodDays(period: PartialPeriod): string {
  if (period.from === period.through) return formatDayOfMonth(period.from);
  const start = period.from.slice(0, 7) === period.through.slice(0, 7) ? String(Number(period.from.slice(8))) : formatDayOfMonth(period.from);
  return `${start}–${formatDayOfMonth(period.through)}`;
}

type ChartRow = ChartData['rows'][number];

/**
 * What a line or an area draws dashed: a partial period's row at its end of the chart — the first
 * row cut by the report's start, the last row not finished — and the row next to it (the segment
 * into it). `partial`: those rows, which the solid line leaves out. Null when neither is at its end
 * (newest first, a period is named, not dashed).
 */
export function partialSegments(rows: ChartRow[], x: string, periods: { first: PartialPeriod | null; last: PartialPeriod | null }): { partial: Set<ChartRow>; dashed: Set<ChartRow> } | null {
  const partial = new Set<ChartRow>();
  const dashed = new Set<ChartRow>();
  const mark = (row: ChartRow | undefined, neighbour: ChartRow | undefined, period: PartialPeriod | null) => {
    if (!row || !neighbour || !isPeriodValue(period, row[x])) return;
    partial.add(row);
    dashed.add(row).add(neighbour);
  };
  mark(rows[0], rows[1], periods.first);
  mark(rows.at(-1), rows.at(-2), periods.last);
  return partial.size ? { partial, dashed } : null;
}

/** Legend entries longer than this are cut: one unbroken name pushed a dashboard card, and the page, wider than the window. */
export const LEGEND_NAME_CHARS = 40;
/**
 * A series' name as its legend entry shows it — a category path by its short name (`shortNames`,
 * chartCategoryNames) — and the whole name (on hover, and to screen readers) when it is shortened or cut.
 */
export function legendName(value: unknown, shortNames: ReadonlyMap<string, string> = new Map()): { text: string; title: string | null } {
  const name = String(value ?? '');
  const shown = shortNames.get(name) ?? name;
  const text = shown.length > LEGEND_NAME_CHARS ? `${shown.slice(0, LEGEND_NAME_CHARS - 1)}…` : shown;
  return { text, title: text === name ? null : name };
}

/** The column a product's category comes in, as the report writer names it. */
const CATEGORY_COLUMN = 'category';

/**
 * The chart's labels of its category column (the x axis, or the series of `group_field`): a path by
 * its last part, or as many as tell the chart's categories apart (ADR 0198, "F14 fixed"). Empty when
 * neither is the category; the result table and the tooltip keep the stored path.
 */
export function chartCategoryNames(config: ChartConfig, rows: readonly ResultRow[]): Map<string, string> {
  const fields = [config.x_field, config.group_field].filter((field): field is string => field?.toLowerCase() === CATEGORY_COLUMN);
  return shortCategoryNames(rows.flatMap((row) => fields.map((field) => asLabel(row[field]))));
}
