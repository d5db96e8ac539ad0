// User SQL reports with charts and AI-assisted writing (spec §3 User report, §7 /api/user-reports/*).
import { z } from 'zod';
import { timeZoneQuery } from './dates.ts';
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
  /** Result columns that hold money: the table, the chart's axis and its tooltip show them in the shop's currency (ADR 0166). */
  money_fields: z.array(storableText().max(200)).max(50).optional(),
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
  /** The version to send back as `If-Match` when changing or deleting the report (ADR 0168); also the single GET's ETag. */
  version: z.string(),
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
export const reportExportRequest = executeRequest.extend({
  title: storableText().trim().max(200).default(''),
  /** Result columns of money (the chart's `money_fields`): written in the shop's currency, still numbers (ADR 0166). */
  money_fields: chartConfig.shape.money_fields,
});
export type ReportExportRequest = z.input<typeof reportExportRequest>;
export const reportExportQuery = timeZoneQuery.extend({ format: z.enum(['xlsx'], { error: 'Format is xlsx (the CSV is written by the browser).' }).default('xlsx') });

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
// A timestamp at midnight, as a report's session writes date_trunc without ::date ("2026-12-01
// 00:00:00", "…+00", "…-05" in the viewer's zone) or as ISO ("2026-12-01T00:00:00.000Z"): the day it
// starts. A time of day is a moment, not a period.
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})[ T]00:00:00(?:\.0+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
// Periods written as text by to_char: a month "2026-12" ('YYYY-MM'), "Dec 2026" ('Mon YYYY'), "December 2026"
// ('Month YYYY', padded or not); a quarter "2026 Q4" ('YYYY "Q"Q'), "2026-Q4", "Q4 2026".
const MONTH_NUMBER = /^(\d{4})-(0[1-9]|1[0-2])$/;
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_NAMED = new RegExp(`^(${MONTH_NAMES.map((name) => `${name.slice(0, 3)}|${name}`).join('|')}|sept) +(\\d{4})$`, 'i');
const QUARTER_TEXT = /^(?:(\d{4})[ -]?q([1-4])|q([1-4])[ -]?(\d{4}))$/i;
const NAMED_FOR = {
  day: /(^|_)(day|date)(_|$)/i,
  week: /(^|_)week(_|$)/i,
  quarter: /(^|_)quarter(_|$)/i,
  year: /(^|_)year(_|$)/i,
} satisfies Partial<Record<PeriodUnit, RegExp>>;
const isMonday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;
const firstOfMonth = (year: string, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;

/** A cell's first day and, for a period written as text, the period the text names. */
function periodValueOf(value: unknown): { day: string; written: 'day' | 'month' | 'quarter' } | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (ISO_DAY.test(text)) return { day: text, written: 'day' };
  let match = MIDNIGHT.exec(text);
  if (match) return { day: match[1] as string, written: 'day' };
  match = MONTH_NUMBER.exec(text);
  if (match) return { day: firstOfMonth(match[1] as string, Number(match[2])), written: 'month' };
  const named = MONTH_NAMED.exec(text);
  if (named) {
    const month = (named[1] as string).slice(0, 3).toLowerCase();
    return { day: firstOfMonth(named[2] as string, MONTH_NAMES.findIndex((name) => name.startsWith(month)) + 1), written: 'month' };
  }
  match = QUARTER_TEXT.exec(text);
  if (match) return { day: firstOfMonth((match[1] ?? match[4]) as string, 3 * Number(match[2] ?? match[3]) - 2), written: 'quarter' };
  return null;
}

const isYearNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1000 && value <= 9999;

/**
 * The first day of the day, week, month, quarter or year a result's cell stands for: a date, a
 * timestamp at midnight, a month or quarter written as text ("2026-12", "Dec 2026", "2026 Q4") or a
 * year number (2026 → "2026-01-01"); null for anything else. Server and charts compare and name periods by it.
 */
export const periodStartOf = (value: unknown): string | null => (isYearNumber(value) ? `${value}-01-01` : (periodValueOf(value)?.day ?? null));

/**
 * The calendar period a column's values stand for, from its name and values (nulls left out): the
 * server reads it to name the period not finished, charts to name each value ("Q4 2026"). Days
 * (dates, or timestamps at midnight: `date_trunc` without `::date`) that are all the first of a
 * year in a column named for years (`date_trunc('year')`) → year; of a quarter in one named for
 * quarters → quarter; Mondays in one named for weeks → week; all the first of a month → month;
 * other days in a column named for days or dates (`day`, `sale_date`) → day. Whole numbers of four
 * digits in a column named for years (`extract(year)`) → year. Text that writes months ("2026-12",
 * "Dec 2026") → month, unless the column is named for weeks ("2026-05" is also to_char's week 5);
 * text that writes quarters ("2026 Q4") → quarter. A period word alone is not enough: the first of
 * twelve months are months, not quarters, unless the column says quarters.
 */
export function periodOfValues(name: string, values: readonly unknown[]): PeriodUnit | null {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return null;
  if (present.every(isYearNumber)) return NAMED_FOR.year.test(name) ? 'year' : null;
  const read = present.map(periodValueOf);
  if (!read.every((value) => value !== null)) return null;
  const written = new Set(read.map((value) => value.written));
  if (written.size > 1) return null;
  if (written.has('quarter')) return 'quarter';
  if (written.has('month')) return NAMED_FOR.week.test(name) ? null : 'month';
  const days = read.map((value) => value.day);
  if (NAMED_FOR.year.test(name) && days.every((day) => day.endsWith('-01-01'))) return 'year';
  if (NAMED_FOR.quarter.test(name) && days.every((day) => /-(01|04|07|10)-01$/.test(day))) return 'quarter';
  if (NAMED_FOR.week.test(name) && days.every(isMonday)) return 'week';
  if (days.every((day) => day.endsWith('-01'))) return 'month';
  return NAMED_FOR.day.test(name) ? 'day' : null;
}

/**
 * The period a result's rows run into that has not ended on the day the report ran — today, this
 * week, month, quarter or year — when no row is of a later one: its figures cover `from` (the
 * period's first day) to `through` (the run's day) only. `value` is the period as the rows hold it
 * (`"2026-10-01"` for a quarter, `2026` for a year from `extract`, `"2026-12-01 00:00:00"` from a
 * timestamp, `"Dec 2026"` written as text). Charts name it "Q4 2026 (to
 * date)" and say so beside it (docs/api.md "Report charts"). `ends` says why it stops at `through`:
 * `today` (the period is under way) or `report` (the report's own date filter ends inside it, as
 * "by week last month" ends in the week of 30 Nov on 30 Nov: "holds 30 Nov only", never "to date").
 */
export const unfinishedPeriod = z.object({
  field: z.string(),
  value: z.union([z.string(), z.number()]),
  unit: z.enum(periodUnits),
  from: z.string(),
  through: z.string(),
  ends: z.enum(['today', 'report']),
});
export type UnfinishedPeriod = z.infer<typeof unfinishedPeriod>;

/**
 * The first period of a breakdown when the report's own date filter starts inside it: "units sold by
 * month since 15 March" counts March from the 15th. Its figures cover `from` (the report's first
 * day) to `through` (the period's last day, or the report's, or the run's day when earlier) only.
 * `field`, `value` and `unit` as in `unfinishedPeriod` (docs/api.md "Running SQL").
 */
export const firstPeriodCut = z.object({
  field: z.string(),
  value: z.union([z.string(), z.number()]),
  unit: z.enum(periodUnits),
  from: z.string(),
  through: z.string(),
});
export type FirstPeriodCut = z.infer<typeof firstPeriodCut>;

/**
 * A report's SQL that did not run, in parts (docs/api.md "Running SQL"): the message (`error`'s
 * words), PostgreSQL's hint and detail, and where in the SQL the user wrote the mistake is —
 * 1-based line and column, the column counted in characters; null when the place is not known or
 * is not in the user's text.
 */
export const sqlErrorDetails = z.object({
  message: z.string(),
  hint: z.string().nullable(),
  detail: z.string().nullable(),
  line: z.number().int().positive().nullable(),
  column: z.number().int().positive().nullable(),
});
export type SqlErrorDetails = z.infer<typeof sqlErrorDetails>;

export const executeResponse = z.object({
  success: z.boolean(),
  results: z.array(z.record(z.string(), cell)),
  columns: z.array(resultColumn),
  /** More rows existed than REPORT_MAX_ROWS: `results` holds the first ones. */
  truncated: z.boolean(),
  row_count: z.number().int(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  /** `error` in parts, when the SQL did not run. */
  error_details: sqlErrorDetails.nullable().default(null),
  unfinished_period: unfinishedPeriod.nullable(),
  first_period_cut: firstPeriodCut.nullable().default(null),
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
  /** The report sandbox's refusal of the generated SQL in parts; no line or column (that SQL is not returned). */
  error_details: sqlErrorDetails.nullable().default(null),
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
  /** The report sandbox's refusal in parts: of the generated SQL (no line or column, that SQL is not returned), or of the current SQL when a chart is regenerated. */
  error_details: sqlErrorDetails.nullable().default(null),
  /** New SQL that leaves words of the title and description out says which, as generate's `notice` does. */
  notice: z.string().nullable().default(null),
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
/** A column named for an amount of money ("stock_value", "revenue", "unit_cost", "takings"): proposed as money, which the editor can undo. */
const MONEY_NAME = /(^|_)(value|cost|costs|revenue|price|amount|spend|margin|profit|turnover|takings)(_|$)/i;
const isTimeAxis = (column: ResultColumn) => column.type === 'date' || column.type === 'datetime' || ((column.type === 'number' || column.type === 'text') && PERIOD_NAME.test(column.name));

/**
 * A sensible chart for a result from its column types: dates (or a column named for a period) on
 * x → line; a category and numbers → bar (pie when asked); two numbers only → scatter; nothing
 * numeric, or one row (a single figure) → table. Numbers named for money are marked money.
 */
export function proposeChartConfig(columns: ResultColumn[], options: { rowCount?: number; preferredType?: ChartType | null; title?: string } = {}): ChartConfig {
  const time = columns.find(isTimeAxis);
  const numbers = columns.filter((c) => c.type === 'number' && c !== time);
  const texts = columns.filter((c) => c.type === 'text' && c !== time);
  const x = time ?? texts.find((c) => !/(^id$|_id$)/.test(c.name)) ?? texts[0] ?? null;
  // A label column beside a time axis (month, product, units) splits the series.
  const group = time && texts.length === 1 && numbers.length === 1 ? (texts[0] as ResultColumn) : null;
  const measures = numbers.filter((c) => !/(^id$|_id$)/.test(c.name) || numbers.length === 1).slice(0, MAX_PROPOSED_SERIES);
  const money = numbers.filter((c) => MONEY_NAME.test(c.name)).map((c) => c.name);
  const base = { stacked: false, title: options.title ?? '', sort: null, group_field: group?.name ?? null, ...(money.length > 0 ? { money_fields: money } : {}) };
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
