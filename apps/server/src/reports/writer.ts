// Who writes reports from plain words: the configured chat model (OpenAI-compatible, the prompt
// carries the real readable schema) or the built-in, deterministic generator. Both answer drafts;
// the service checks and test-runs every SQL in the sandbox before anything is returned.
import { z } from 'zod';
import { chartConfig, type ChartConfig, type ReadableRelation, type RegenerableField, DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import { ChatModelError, type ChatMessage, type ChatModel } from '../ai/chat.ts';
import { buildReport } from './generator/build.ts';
import { describeSql } from './generator/describe.ts';
import { noSuchProduct } from '../plain-words/reading.ts';
import { hasSubject, mergeIntents, readIntent, readQuestion, todayIso, watchedIntent, type Intent, type Vocabulary } from './generator/intent.ts';
import { dateOrderWords } from '../plain-words/date-order.ts';
import { shopCalendarWords } from '../plain-words/shop-calendar.ts';

export type CurrentReport = { title: string; description: string; sql_code: string; chart_config: ChartConfig | null };
export type ReportDraft = {
  title: string;
  description: string;
  sql_code: string;
  chart_config: ChartConfig | null;
  pseudocode: string;
  preferredChart: ChartConfig['type'] | null;
  /** Words of the request the draft does not express (the built-in generator's; a model's draft has none). */
  unusedWords?: string[];
  /** Said first when the draft measures what the request did not name (the built-in generator's). */
  assumed?: string;
};
/**
 * `dateOrder`: how the request writes a date with numbers alone; day-first when not known.
 * `timeZone`: the editor's (the browser's), whose hemisphere seasons are of; none: the north's.
 */
export type WriterContext = { schema: ReadableRelation[]; vocabulary: Vocabulary; dateOrder?: DateOrder; timeZone?: string | undefined };
export type FieldValue = string | ChartConfig | null;
/** A field written anew, and the words of the title and description its SQL does not express (the built-in generator's; a model's has none). */
export type Rewritten = { value: FieldValue; unusedWords?: string[]; assumed?: string };

/** The writer could not produce a draft; the message is for the user. */
export class WriterError extends Error {}

export interface ReportWriter {
  readonly provider: 'model' | 'built-in';
  write(request: { changeRequest: string; current: CurrentReport; context: WriterContext; problem?: string }): Promise<ReportDraft>;
  /** One field anew; null for chart_config means "propose one from the result". */
  rewrite(request: { field: RegenerableField; current: CurrentReport; context: WriterContext }): Promise<Rewritten>;
}

// ---------------------------------------------------------------------------------------------
// Built-in

/** What a report says it is: the words the generator reads to write its SQL anew or to change it. */
const currentWords = (current: CurrentReport) => `${current.title} ${current.description}`;

/**
 * A ranking, best period or comparison that names no measure the generator reads measures units
 * sold; when words of the request went unread, one of them may have been the measure meant
 * ("Gewinn", "margin"), so the note says what was measured instead and why, never silently.
 */
const assumedUnits = (measureAssumed: boolean, unused: string[]) =>
  measureAssumed && unused.length
    ? 'The built-in generator read this as units sold, because the request names no measure it knows (units sold, sales value or revenue, stock, stock value, number of products); ask for one of them to measure it instead.'
    : undefined;

const EXAMPLES = "'units sold by month in 2025', 'top 10 products by sales value in the last 30 days', 'stock value by category', 'best selling month in 2025', 'units sold this month vs last month', 'products not sold in 60 days', 'low stock', 'which products run out in the next 30 days', 'what to reorder'";

export class BuiltInReportWriter implements ReportWriter {
  readonly provider = 'built-in';

  async write(request: { changeRequest: string; current: CurrentReport; context: WriterContext }): Promise<ReportDraft> {
    const { intent: change, unusedWords, unknownProducts, salesAhead, windowOver, unusedWordsLeaving, measureAssumed } = readQuestion(request.changeRequest, request.context.vocabulary, todayIso(), request.context.dateOrder, request.context.timeZone);
    // A report of every product when the request named one that does not exist would mislead.
    if (unknownProducts.length) throw new WriterError(`${unknownProducts.map((code) => noSuchProduct(code, request.context.vocabulary.productCodes)).join(' ')} The built-in generator wrote no report.`);
    if (salesAhead) {
      throw new WriterError(`There are no sales after today: the period asked for, ${salesAhead}, is still to come. Ask for the forecast demand of that period, or for sales in a past period (last week, the last 30 days). The built-in generator wrote no report.`);
    }
    if (windowOver) {
      throw new WriterError(`The window asked for, ${windowOver}, ended before today: the forecasts look ahead from today. Ask for a window still to come, such as next month, in January or by 24/12. The built-in generator wrote no report.`);
    }
    const onlyChart = !hasSubject(change) && change.chartType !== null && !change.period && !change.dimension && !change.rank && !change.category && !change.productCode;
    if (onlyChart && request.current.sql_code.trim()) {
      return { ...request.current, chart_config: null, pseudocode: describeSql(request.current.sql_code), preferredChart: change.chartType, unusedWords };
    }
    const intent = hasSubject(change) ? change : mergeIntents(this.currentIntent(request.current, request.context), change);
    const watched = watchedIntent(intent);
    const built = hasSubject(intent) ? buildReport(watched.intent) : null;
    if (!built) {
      throw new WriterError(`The built-in generator did not understand "${request.changeRequest}". Ask for a measure and a breakdown, for example ${EXAMPLES}; or configure a language model (LLM_BASE_URL) for free-form questions.`);
    }
    // The note says what the SQL leaves out: the words nothing read, and those of a part the report did not use.
    const unused = unusedWordsLeaving(watched.leftOut(built.setAside));
    return { title: built.title, description: built.description, sql_code: built.sql, chart_config: null, pseudocode: built.pseudocode, preferredChart: built.chartType, unusedWords: unused, assumed: assumedUnits(measureAssumed, unused) };
  }

  async rewrite(request: { field: RegenerableField; current: CurrentReport; context: WriterContext }): Promise<Rewritten> {
    if (request.field === 'pseudocode') return { value: describeSql(request.current.sql_code) };
    if (request.field === 'chart_config') return { value: null };
    const read = readQuestion(currentWords(request.current), request.context.vocabulary, todayIso(), DEFAULT_DATE_ORDER, request.context.timeZone);
    const watched = watchedIntent(read.intent);
    const built = buildReport(watched.intent);
    if (!built) {
      if (request.field === 'sql_code') throw new WriterError(`The built-in generator cannot write SQL from this title and description. Describe the report with words like ${EXAMPLES}.`);
      return { value: request.field === 'title' ? `Report on ${describeSql(request.current.sql_code).match(/Read ([^.,]+)/)?.[1] ?? 'the data'}` : describeSql(request.current.sql_code).replace(/^\d+\. /gm, '').replace(/\n/g, ' ') };
    }
    if (request.field !== 'sql_code') return { value: built[request.field] };
    // Words the generator's own title and description leave unused too are its wording, not a filter dropped: only the others are said.
    const leftOut = watched.leftOut(built.setAside);
    const own = new Set(readQuestion(`${built.title} ${built.description}`, request.context.vocabulary, todayIso(), DEFAULT_DATE_ORDER, request.context.timeZone).unusedWordsLeaving(leftOut).map((word) => word.toLowerCase()));
    const unused = read.unusedWordsLeaving(leftOut).filter((word) => !own.has(word.toLowerCase()));
    return { value: built.sql, unusedWords: unused, assumed: assumedUnits(read.measureAssumed, unused) };
  }

  private currentIntent(current: CurrentReport, context: WriterContext): Intent {
    return readIntent(currentWords(current), context.vocabulary, context.timeZone);
  }
}

// ---------------------------------------------------------------------------------------------
// Chat model

const CHART_SHAPE =
  '{"type": "line"|"bar"|"area"|"pie"|"scatter"|"table", "x_field": column or null, "series": [{"field": numeric column}], "group_field": column or null, "stacked": false, "title": "", "sort": null}';

export function schemaPrompt(schema: ReadableRelation[]): string {
  return schema.map((relation) => `- ${relation.name} (${relation.kind}): ${relation.description}\n  columns: ${relation.columns.map((c) => `${c.name} ${c.type}`).join(', ')}`).join('\n');
}

function systemPrompt(schema: ReadableRelation[]): string {
  return [
    'You write SQL reports for Stockwise, an inventory and demand-forecasting app, on PostgreSQL.',
    'Rules: one read-only SELECT (WITH … SELECT or VALUES allowed); refer to tables and views only by the names below (quote names with spaces or capitals, e.g. "Supplier Notes"); no schema names; aggregate, window, math, text, date/time, array and JSON functions only; no semicolons between statements; use current_date for "today".',
    'Readable tables and views (and nothing else):',
    schemaPrompt(schema),
  ].join('\n');
}

const current = (report: CurrentReport) =>
  `Current report:\ntitle: ${report.title}\ndescription: ${report.description}\nsql_code:\n${report.sql_code}\nchart_config: ${JSON.stringify(report.chart_config)}`;

const draftAnswer = z.object({
  title: z.string().min(1).max(200),
  description: z.string().max(5000).default(''),
  sql_code: z.string().min(1).max(100_000),
  chart_config: z.unknown().optional(),
  pseudocode: z.string().max(20_000).default(''),
});

/** The first JSON object in a model's answer (models wrap it in prose or code fences). */
function jsonIn(content: string | null): unknown {
  const text = content ?? '';
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new WriterError('The language model did not answer with a JSON object.');
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    throw new WriterError('The language model answered JSON that cannot be read.');
  }
}

export class ModelReportWriter implements ReportWriter {
  readonly provider = 'model';
  private readonly model: ChatModel;
  constructor(model: ChatModel) {
    this.model = model;
  }

  private async ask(messages: ChatMessage[]): Promise<unknown> {
    try {
      return jsonIn((await this.model.complete({ messages, temperature: 0 })).content);
    } catch (error) {
      if (error instanceof ChatModelError) throw new WriterError(error.message);
      throw error;
    }
  }

  async write(request: { changeRequest: string; current: CurrentReport; context: WriterContext; problem?: string }): Promise<ReportDraft> {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(request.context.schema) },
      {
        role: 'user',
        content: [
          current(request.current),
          `Change request: ${request.changeRequest}`,
          `In the change request, ${dateOrderWords(request.context.dateOrder ?? DEFAULT_DATE_ORDER)}.`,
          shopCalendarWords(request.context.timeZone),
          request.problem ? `Your previous SQL failed: ${request.problem}\nFix it.` : null,
          `Answer with one JSON object: {"title": …, "description": one sentence, "sql_code": …, "chart_config": ${CHART_SHAPE}, "pseudocode": numbered plain-words steps}.`,
        ]
          .filter(Boolean)
          .join('\n\n'),
      },
    ];
    const parsed = draftAnswer.safeParse(await this.ask(messages));
    if (!parsed.success) throw new WriterError('The language model’s answer lacks a title or SQL.');
    const chart = chartConfig.safeParse(parsed.data.chart_config);
    return { ...parsed.data, chart_config: chart.success ? chart.data : null, preferredChart: null };
  }

  async rewrite(request: { field: RegenerableField; current: CurrentReport; context: WriterContext }): Promise<Rewritten> {
    const shape = request.field === 'chart_config' ? CHART_SHAPE : 'a string';
    const answer = await this.ask([
      { role: 'system', content: systemPrompt(request.context.schema) },
      { role: 'user', content: `${current(request.current)}\n\nWrite the report's ${request.field} anew so it fits the rest. Answer with one JSON object: {"value": ${shape}}.` },
    ]);
    const value = (answer as { value?: unknown }).value;
    if (request.field === 'chart_config') {
      const chart = chartConfig.safeParse(value);
      return { value: chart.success ? chart.data : null };
    }
    if (typeof value !== 'string' || !value.trim()) throw new WriterError(`The language model did not answer a ${request.field}.`);
    return { value };
  }
}
