// User SQL reports with charts and AI-assisted writing (spec §3 User report, §7 /api/user-reports/*).
import { z } from 'zod';
import { storableText } from './text.ts';

export const REPORT_DEFAULTS = { title: 'Untitled Report', description: '', sql_code: 'SELECT 1;', chart_config: null } as const;

export const chartTypes = ['line', 'bar', 'area', 'pie', 'scatter', 'table'] as const;
export type ChartType = (typeof chartTypes)[number];

/**
 * How a report's rows are drawn (docs/api.md "Report charts"). `x_field` is the category or time
 * axis (the slice name for a pie); every series is one numeric column drawn against it, or one per
 * value of `group_field`.
 */
export const chartConfig = z.object({
  type: z.enum(chartTypes),
  x_field: storableText().max(200).nullable(),
  series: z.array(z.object({ field: storableText().max(200), label: storableText().max(200).optional() })).max(20),
  /** Long rows (month, product, units) become one series per value of this column. */
  group_field: storableText().max(200).nullable().default(null),
  stacked: z.boolean().default(false),
  title: storableText().max(200).default(''),
  sort: z.object({ field: storableText().max(200), direction: z.enum(['asc', 'desc']) }).nullable().default(null),
});
export type ChartConfig = z.infer<typeof chartConfig>;

const title = storableText().trim().min(1, 'Title is required.').max(200);
const description = storableText().max(5000);
const sqlCode = storableText().max(100_000, 'The SQL is too long (100,000 characters at most).');

export const userReport = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  sql_code: z.string(),
  chart_config: chartConfig.nullable(),
  owner: z.number().int().nullable(),
  owner_username: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  pseudocode: z.string(),
});
export type UserReport = z.infer<typeof userReport>;
export const userReportList = z.array(userReport);

export const createReportRequest = z.object({
  title: title.default(REPORT_DEFAULTS.title),
  description: description.default(REPORT_DEFAULTS.description),
  sql_code: sqlCode.default(REPORT_DEFAULTS.sql_code),
  chart_config: chartConfig.nullable().default(null),
  pseudocode: storableText().max(20_000).default(''),
});
export type CreateReportRequest = z.input<typeof createReportRequest>;

export const updateReportRequest = z.object({
  title: title.optional(),
  description: description.optional(),
  sql_code: sqlCode.optional(),
  chart_config: chartConfig.nullable().optional(),
  pseudocode: storableText().max(20_000).optional(),
});
export type UpdateReportRequest = z.infer<typeof updateReportRequest>;

export const reportIdParams = z.object({ id: z.coerce.number().int().positive('Report id must be a positive number.') });

export const executeRequest = z.object({ sql_code: sqlCode });

/**
 * POST /api/user-reports/export/?format=xlsx: the SQL run again in the sandbox, under the same
 * limits, its rows as an Excel workbook; the title names the file and the sheet. The screen's CSV
 * is written by the browser from the rows it shows (docs/adr/0161 "Amendment: Download Excel").
 */
export const reportExportRequest = executeRequest.extend({ title: storableText().trim().max(200).default('') });
export type ReportExportRequest = z.input<typeof reportExportRequest>;
export const reportExportQuery = z.object({ format: z.enum(['xlsx'], { error: 'Format is xlsx (the CSV is written by the browser).' }).default('xlsx') });

/** Coarse kind of a result column (the chart editor proposes charts from it); `db_type` is PostgreSQL's name. */
export const columnKinds = ['number', 'text', 'date', 'datetime', 'boolean', 'json', 'other'] as const;
export type ColumnKind = (typeof columnKinds)[number];
export const resultColumn = z.object({ name: z.string(), type: z.enum(columnKinds), db_type: z.string() });
export type ResultColumn = z.infer<typeof resultColumn>;

const cell = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);
export type ResultCell = z.infer<typeof cell>;
export type ResultRow = Record<string, ResultCell>;

/** The calendar periods a result's rows may be broken down by. */
export const periodUnits = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type PeriodUnit = (typeof periodUnits)[number];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const NAMED_FOR = {
  day: /(^|_)(day|date)(_|$)/i,
  week: /(^|_)week(_|$)/i,
  quarter: /(^|_)quarter(_|$)/i,
  year: /(^|_)year(_|$)/i,
} satisfies Partial<Record<PeriodUnit, RegExp>>;
const isMonday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;

/**
 * The calendar period a column's values stand for, from its name and values (nulls left out): the
 * server reads it to name the period not finished, charts to name each value ("Q4 2026"). Days
 * (`YYYY-MM-DD`) that are all the first of a year in a column named for years (`date_trunc('year')`)
 * → year; of a quarter in one named for quarters → quarter; Mondays in one named for weeks → week;
 * all the first of a month → month; other days in a column named for days or dates (`day`,
 * `sale_date`) → day. Whole numbers of four digits in a column named for years (`extract(year)`) →
 * year. A period word alone is not enough: the first of twelve months are months, not quarters,
 * unless the column says quarters.
 */
export function periodOfValues(name: string, values: readonly unknown[]): PeriodUnit | null {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return null;
  if (present.every((value) => typeof value === 'number' && Number.isInteger(value) && value >= 1000 && value <= 9999)) return NAMED_FOR.year.test(name) ? 'year' : null;
  if (!present.every((value): value is string => typeof value === 'string' && ISO_DAY.test(value))) return null;
  if (NAMED_FOR.year.test(name) && present.every((day) => day.endsWith('-01-01'))) return 'year';
  if (NAMED_FOR.quarter.test(name) && present.every((day) => /-(01|04|07|10)-01$/.test(day))) return 'quarter';
  if (NAMED_FOR.week.test(name) && present.every(isMonday)) return 'week';
  if (present.every((day) => day.endsWith('-01'))) return 'month';
  return NAMED_FOR.day.test(name) ? 'day' : null;
}

/**
 * The period a result's rows run into that has not ended on the day the report ran — today, this
 * week, month, quarter or year — when no row is of a later one: its figures cover `from` (the
 * period's first day) to `through` (the run's day) only. `value` is the period as the rows hold it
 * (`"2026-10-01"` for a quarter, `2026` for a year from `extract`). Charts name it "Q4 2026 (to
 * date)" and say so beside it (docs/api.md "Report charts").
 */
export const unfinishedPeriod = z.object({ field: z.string(), value: z.union([z.string(), z.number()]), unit: z.enum(periodUnits), from: z.string(), through: z.string() });
export type UnfinishedPeriod = z.infer<typeof unfinishedPeriod>;

export const executeResponse = z.object({
  success: z.boolean(),
  results: z.array(z.record(z.string(), cell)),
  columns: z.array(resultColumn),
  /** More rows existed than REPORT_MAX_ROWS: `results` holds the first ones. */
  truncated: z.boolean(),
  row_count: z.number().int(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  unfinished_period: unfinishedPeriod.nullable(),
});
export type ExecuteResponse = z.infer<typeof executeResponse>;

/** A saved report run for the dashboard: its rows and how to draw them. */
export const reportDataResponse = executeResponse.extend({
  id: z.number().int(),
  title: z.string(),
  chart_config: chartConfig.nullable(),
});
export type ReportDataResponse = z.infer<typeof reportDataResponse>;

const currentFields = {
  current_title: storableText().max(200).default(''),
  current_description: storableText().max(5000).default(''),
  current_sql_code: storableText().max(100_000).default(''),
  current_chart_config: chartConfig.nullable().default(null).catch(null),
};

export const generateRequest = z.object({
  report_id: z.coerce.number().int().positive().nullable().default(null),
  change_request: storableText().trim().min(1, 'Say what the report should show or change.').max(2000),
  ...currentFields,
});
export type GenerateRequest = z.input<typeof generateRequest>;

export const generateResponse = z.object({
  success: z.boolean(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  sql_code: z.string().nullable(),
  chart_config: chartConfig.nullable(),
  pseudocode: z.string().nullable(),
  /** Which writer answered: the configured model or the built-in generator. */
  provider: z.enum(['model', 'built-in']),
  error: z.string().nullable(),
  /** A successful draft that leaves part of the request out says which words (the built-in generator's filters it cannot express). */
  notice: z.string().nullable().default(null),
});
export type GenerateResponse = z.infer<typeof generateResponse>;

export const regenerableFields = ['title', 'description', 'sql_code', 'chart_config', 'pseudocode'] as const;
export type RegenerableField = (typeof regenerableFields)[number];

export const regenerateRequest = z.object({
  field_to_regenerate: z.enum(regenerableFields),
  ...currentFields,
});
export type RegenerateRequest = z.input<typeof regenerateRequest>;

export const regenerateResponse = z.object({
  success: z.boolean(),
  generated_value: z.union([z.string(), chartConfig, z.null()]),
  provider: z.enum(['model', 'built-in']),
  error: z.string().nullable(),
});
export type RegenerateResponse = z.infer<typeof regenerateResponse>;

/** The relations a report may read, with their columns (schema browser, autocomplete, AI prompt). */
export const readableRelation = z.object({
  name: z.string(),
  kind: z.enum(['table', 'view']),
  description: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
});
export type ReadableRelation = z.infer<typeof readableRelation>;
export const reportSchemaResponse = z.object({ relations: z.array(readableRelation) });
export type ReportSchemaResponse = z.infer<typeof reportSchemaResponse>;

/** Most series a proposed chart draws (more is unreadable; the editor can add them). */
const MAX_PROPOSED_SERIES = 5;

/** A column named for a period ("month", "order_year", "week_start"): a time axis even when written as text or a number (to_char, extract). */
const PERIOD_NAME = /(^|_)(date|day|week|month|quarter|year|period)(_|$)/i;
const isTimeAxis = (column: ResultColumn) => column.type === 'date' || column.type === 'datetime' || ((column.type === 'number' || column.type === 'text') && PERIOD_NAME.test(column.name));

/**
 * A sensible chart for a result from its column types: dates (or a column named for a period) on
 * x → line; a category and numbers → bar (pie when asked); two numbers only → scatter; nothing
 * numeric, or one row (a single figure) → table.
 */
export function proposeChartConfig(columns: ResultColumn[], options: { rowCount?: number; preferredType?: ChartType | null; title?: string } = {}): ChartConfig {
  const time = columns.find(isTimeAxis);
  const numbers = columns.filter((c) => c.type === 'number' && c !== time);
  const texts = columns.filter((c) => c.type === 'text' && c !== time);
  const x = time ?? texts.find((c) => !/(^id$|_id$)/.test(c.name)) ?? texts[0] ?? null;
  // A label column beside a time axis (month, product, units) splits the series.
  const group = time && texts.length === 1 && numbers.length === 1 ? (texts[0] as ResultColumn) : null;
  const measures = numbers.filter((c) => !/(^id$|_id$)/.test(c.name) || numbers.length === 1).slice(0, MAX_PROPOSED_SERIES);
  const base = { stacked: false, title: options.title ?? '', sort: null, group_field: group?.name ?? null };
  const table: ChartConfig = { ...base, type: 'table', x_field: null, series: [], group_field: null };
  if (options.preferredType === 'table' || measures.length === 0 || options.rowCount === 1) return table;
  if (!x && measures.length >= 2) {
    return { ...base, type: options.preferredType === 'scatter' || !options.preferredType ? 'scatter' : options.preferredType, x_field: (measures[0] as ResultColumn).name, series: [{ field: (measures[1] as ResultColumn).name }] };
  }
  if (!x) return table;
  const type: ChartType = options.preferredType ?? (time ? 'line' : 'bar');
  const series = type === 'pie' ? measures.slice(0, 1) : measures;
  return { ...base, type, x_field: x.name, series: series.map((c) => ({ field: c.name })) };
}
