// The assistant (spec §2 footer bar, §3 Chat message): history per user, the quick buttons, plain
// questions answered by the intent engine or — when LLM_BASE_URL is set — by the model calling the
// same data functions as tools, and the actions a user confirms with a button.
import type { Kysely } from 'kysely';
import { dayInTimeZone, MAX_SUPPLIER_LENGTH, roleAllows, type AssistantActionRequest, type AssistantBlock, type AssistantContext, type ChatMessage, type QuickAction, type Role, DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import type { ChatMessage as ModelMessage, ChatModel, ToolDefinition } from '../ai/chat.ts';
import { AppError, validationError } from '../http/errors.ts';
import { logError } from '../log.ts';
import { insertTask } from '../dashboard/repo.ts';
import { readSupplierNames } from '../suppliers/service.ts';
import { comparisonOf, describePeriod, dueWindowOf, impossibleDate, NO_SALES_DAYS, NO_SALES_PERIOD, readPeriod, readPeriodBefore, readQuietSpan, readWindow, spanTooLong, TOP_SELLERS_PERIOD, type BestPeriod, type DueWindow, type Period, type PeriodUnit } from '../plain-words/period.ts';
import { OVERSTOCK_DAYS, readCategory, readNameWord, type Rank } from '../plain-words/catalogue.ts';
import { categoryNames, productNames } from '../plain-words/vocabulary.ts';
import { Reading } from '../plain-words/reading.ts';
import { dateOrderWords, slashed } from '../plain-words/date-order.ts';
import {
  actionAnswers,
  answerForWindow,
  answerQuick,
  answerText,
  contentOf,
  dataFunctions,
  forNameWord,
  listedNames,
  LISTED_SUPPLIERS,
  nameWordScope,
  salesAhead,
  supplierNames,
  TOP_SELLERS_RANK,
  VARIANT_WORDS,
} from './answers.ts';
import { breakdownPeriod, categoryScope, EVERY_PRODUCT, LAST_12_MONTHS, LAST_30_DAYS, productScope, salesWindow, supplierScope, type Answer, type NameWordScope, type SalesWindow, type Scope } from './answer-parts.ts';
import * as repo from './repo.ts';
import { everydayAnswers, SLOW_MOVERS_LIMIT } from './everyday-answers.ts';

/** `onDeliveriesCreated`: told which products the advised orders gave a delivery (their forecasts change, ADR 0133). */
/** `timeZone`: the asking viewer's, else the shop's (the route sets it per request), whose day "today" and "this month" are; UTC without one (a caller outside a request). */
export type AssistantContextDeps = { db: Kysely<Database>; model: ChatModel | null; now?: () => Date; timeZone?: string | undefined; onDeliveriesCreated?: (productIds: number[]) => Promise<void> };
type User = { userId: number; role: Role };

const HISTORY_LIMIT = 200;
const MODEL_ROUNDS = 4;
const quickLabels: Record<QuickAction, string> = { low_stock: 'Show low stock', reorder_report: 'Reorder report', deliveries: 'Deliveries' };

const today = (ctx: AssistantContextDeps) => dayInTimeZone((ctx.now?.() ?? new Date()).getTime(), ctx.timeZone ?? 'UTC');

type StoredMessage = Awaited<ReturnType<typeof repo.insertMessage>>;
const asChatMessage = (row: StoredMessage): ChatMessage => ({ id: row.id, role: row.role, content: row.content, timestamp: row.created_at.toISOString(), blocks: row.blocks as AssistantBlock[] });

export const history = async (ctx: AssistantContextDeps, userId: number): Promise<ChatMessage[]> => (await repo.recentMessages(ctx.db, userId, HISTORY_LIMIT)).map(asChatMessage);

async function reply(ctx: AssistantContextDeps, userId: number, question: { content: string; context: AssistantContext | null }, answer: Answer): Promise<ChatMessage[]> {
  const asked = await repo.insertMessage(ctx.db, { userId, role: 'user', content: question.content, blocks: [], context: question.context });
  const answered = await repo.insertMessage(ctx.db, { userId, role: 'assistant', content: contentOf(answer), blocks: answer.blocks, context: null });
  return [asChatMessage(asked), asChatMessage(answered)];
}

/** `dateOrder`: how the asker writes a date with numbers alone, from their language (`dateOrderOf`). */
export async function ask(ctx: AssistantContextDeps, user: User, request: { content: string; quick?: QuickAction | undefined; context?: AssistantContext | undefined }, dateOrder: DateOrder = DEFAULT_DATE_ORDER): Promise<ChatMessage[]> {
  const context = request.context ?? null;
  if (request.quick) return reply(ctx, user.userId, { content: quickLabels[request.quick], context }, await answerQuick(ctx.db, request.quick, today(ctx)));
  const content = request.content.trim();
  // Spec §2: blank input is ignored (nothing stored, nothing answered).
  if (!content) return [];
  const answer = ctx.model ? await askModel(ctx, ctx.model, content, context, dateOrder) : await answerText(ctx.db, content, today(ctx), dateOrder, ctx.timeZone);
  return reply(ctx, user.userId, { content, context }, answer);
}

export async function act(ctx: AssistantContextDeps, user: User, request: AssistantActionRequest): Promise<ChatMessage[]> {
  if (request.action === 'add_task') {
    const task = await insertTask(ctx.db, user.userId, request.text);
    return reply(ctx, user.userId, { content: `Add the task "${task.text}"`, context: null }, { blocks: [{ type: 'text', text: `Added the task "${task.text}" to your dashboard.` }, { type: 'link', label: 'Open the dashboard', href: '/app/home' }] });
  }
  if (!roleAllows(user.role, 'editor')) throw new AppError('forbidden', 'Creating orders needs the editor role.');
  const { answer, createdFor } = await actionAnswers.createOrders(ctx.db, today(ctx), request.orders);
  const messages = await reply(ctx, user.userId, { content: 'Create the recommended orders', context: null }, answer);
  if (createdFor.length) await tellDeliveriesCreated(ctx, createdFor);
  return messages;
}

/** The deliveries are created and answered as done whatever the listener meets: a failure there is only logged. */
async function tellDeliveriesCreated(ctx: AssistantContextDeps, productIds: number[]): Promise<void> {
  try {
    await ctx.onDeliveriesCreated?.(productIds);
  } catch (error) {
    logError('after creating the advised orders', error, { products: productIds.length });
  }
}

// The model ----------------------------------------------------------------------------------

/** A period's words as a tool takes them, its dates in the asker's order (ADR 0148, amendment "dates in the viewer's order"). */
const periodText = (dateOrder: DateOrder) =>
  `The period in words, as the user said it: "last month", "October", "last quarter", "Q3 2026", "in 2025", "yesterday", "last 30 days", "since ${slashed(3, 11, dateOrder)}/2026", "from March to May", "until December", "last winter", "last financial year", "FY2025-26", "Black Friday 2025", "all time" (${dateOrderWords(dateOrder)})`;
const periodWords = (otherwise: string | null, dateOrder: DateOrder) => ({ type: 'string', description: otherwise ? `Optional: ${periodText(dateOrder)}. Omit for ${otherwise}.` : periodText(dateOrder) });
const productOrNameWord = { type: 'string', description: 'Product code or name, or a word of product names ("mugs")' };
const categoryWords = { type: 'string', description: 'Optional: a product category, as the user said it ("Kitchen", "garden products"); omit for all products' };
const ORDERS = ['best', 'worst'] as const;
const orderWords = (what: string) => ({ type: 'string', enum: ORDERS, description: `Optional: "best" (the default) or "worst" ${what}` });
const wholeNumber = (bounds: Bounds, description: string) => ({ type: 'integer', minimum: bounds.min, maximum: bounds.max, description: `${description} (${bounds.min}–${bounds.max}, default ${bounds.fallback})` });
type Bounds = { min: number; max: number; fallback: number };
/** How many top sellers a model may ask for: as many as an answer's table lists. */
const TOP_SELLERS_LIMIT: Bounds = { min: 1, max: 50, fallback: TOP_SELLERS_RANK.limit };
const OVERSTOCK_COVER: Bounds = { min: 1, max: 3650, fallback: OVERSTOCK_DAYS };
const DEAD_STOCK_DAYS: Bounds = { min: 1, max: 3650, fallback: NO_SALES_DAYS };
const PERIOD_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
/** What top sellers are ranked by, as the engine ranks them when a question says "revenue" or "Umsatz" (ADR 0070, amendment). */
const RANKED_BY = ['units', 'revenue'] as const;
const MEASURE_OF: Record<(typeof RANKED_BY)[number], repo.SalesMeasure> = { units: 'units', revenue: 'value' };
const noParameters = { type: 'object', properties: {} };
const windowParameter = (dateOrder: DateOrder) => ({
  type: 'object',
  properties: {
    window: {
      type: 'string',
      description: `Optional: the days ahead in words, as the user said them: "in January", "January 2027", "Q1 2027", "next week", "next month", "this month", "the next 30 days", "tomorrow", "on Friday", "next Friday", "by ${slashed(24, 12, dateOrder)}", "before Christmas", "until Black Friday", "until the end of the month", "through December" (${dateOrderWords(dateOrder)}). For what runs out and for deliveries, a window keeps what falls in it (one from today counts from today); for orders, every order due by its last day, overdue ones included. Omit for no window.`,
    },
  },
});

/** The order and stock-out tools' supplier (ADR 0184, amendment 2026-12-06). */
const supplierWords = {
  type: 'string',
  description: `Optional: a supplier's name, as the products' Supplier column holds it ("Acme Wholesale"; case aside): only the products bought from it, for one purchase order per supplier. Omit for every supplier. A name no product has is refused with the suppliers there are.`,
};
/** "No supplier", as the order list's filter says it, apart from every supplier (ADR 0189, amendment 2026-12-06). */
const withoutSupplierWords = {
  type: 'boolean',
  description: "Optional: true for only the products that have no supplier set (the order list's \"No supplier\" filter), e.g. \"what should I order that has no supplier?\". Omit (or false) for every supplier; give it or 'supplier', not both.",
};
const supplierParameters = { supplier: supplierWords, without_supplier: withoutSupplierWords };
/** A window tool's parameters with the supplier beside the window. */
const windowAndSupplier = (dateOrder: DateOrder) => {
  const window = windowParameter(dateOrder);
  return { ...window, properties: { ...window.properties, ...supplierParameters } };
};
/** The longest words of product names an order tool takes: a product's name is a line, not a page. */
const MAX_PRODUCT_WORDS_LENGTH = 200;
/** The order list narrowed to the products a question names, as the engine narrows it (ADR 0189, amendment 2026-12-06 (6)). */
const productWords = {
  type: 'string',
  description: `Optional: a product's name or code, or words of product names, as the user said them ("merino jumper", "linen shirts", "mugs"): only those products' rows of the list, e.g. "which sizes of the merino jumper should I reorder?". The answer says which products it narrowed to. Omit for every product.`,
};
/** The order tools' parameters: the window, the supplier and the products' words. */
const orderListParameters = (dateOrder: DateOrder) => {
  const parameters = windowAndSupplier(dateOrder);
  return { ...parameters, properties: { ...parameters.properties, product_words: productWords } };
};

const breakdownWords = {
  type: 'string',
  enum: PERIOD_UNITS,
  description: 'Optional: units sold per day, week, month, quarter or year (a row each, the one under way marked "to date") instead of one total. Without a period, by day covers the last 30 days and the others every sale.',
};

/** `units_sold`'s breakdown: a period unit, or "category" (ADR 0189). */
const UNITS_SOLD_BY = [...PERIOD_UNITS, 'category'] as const;
const AVERAGES = ['day', 'week'] as const;
const averageWords = { type: 'string', enum: AVERAGES, description: 'Optional: the average a day or a week over the period instead of the total: every calendar day counts, from the first sale when that is later; a period running to today ends yesterday while today has no sales yet' };

/** The tools: the intent engine's data functions, by name; never SQL. Their dates are described in the asker's order. */
const assistantToolsFor = (dateOrder: DateOrder): ToolDefinition[] => [
  {
    name: 'stock_of_product',
    description: 'Units on hand of one product; a word of product names ("mugs") gives each product whose name holds it',
    parameters: { type: 'object', properties: { product: productOrNameWord }, required: ['product'] },
  },
  {
    name: 'sales_of_product',
    description: 'Units one product sold in a period, and how many of its days the shop was closed when it was shut beyond its weekly closed days; a word of product names ("mugs") counts every product whose name holds it',
    parameters: { type: 'object', properties: { product: productOrNameWord, period: periodWords(null, dateOrder), by: breakdownWords, average: averageWords }, required: ['product'] },
  },
  {
    name: 'top_sellers',
    description: `The products that sold the most (or, with order "worst", the least) in a period, by units sold or by revenue at unit cost, ${describePeriod(TOP_SELLERS_PERIOD)} unless one is given; ${TOP_SELLERS_LIMIT.fallback} unless a limit is given`,
    parameters: {
      type: 'object',
      properties: {
        period: periodWords(describePeriod(TOP_SELLERS_PERIOD), dateOrder),
        limit: wholeNumber(TOP_SELLERS_LIMIT, 'Optional: how many products to list'),
        order: orderWords('sellers'),
        category: categoryWords,
        by: { type: 'string', enum: RANKED_BY, description: 'Optional: rank by "units" sold (the default) or by "revenue": sales valued at unit cost, as no selling prices are kept' },
        in_stock: {
          type: 'boolean',
          description: `Optional: true ranks only the products in stock now, those that sold nothing included (products not stocked (services, fees) left out, and counted), with their stock on hand, days of cover and value: with order "worst" the slow movers. Then the period defaults to ${describePeriod(NO_SALES_PERIOD)} and the limit to ${SLOW_MOVERS_LIMIT.fallback}, by units sold`,
        },
      },
    },
  },
  {
    name: 'units_sold',
    description: "Units all products (or one category's) sold in a period, in total, by day, week, month, quarter or year, or by category (each category's units and value at unit cost, the best selling first), or as an average a day or a week; a total says how many of the period's days the shop was closed when it was shut beyond its weekly closed days",
    parameters: {
      type: 'object',
      properties: {
        period: periodWords(null, dateOrder),
        category: categoryWords,
        by: { ...breakdownWords, enum: UNITS_SOLD_BY, description: `${breakdownWords.description} "category": a row per category, the best selling first.` },
        average: averageWords,
      },
    },
  },
  {
    name: 'compare_sales',
    description:
      'Units sold in two periods side by side, the earlier first, and the change from it in units and percent. While the later period is under way (this month), both count the same days from their start, up to the last day with sales.',
    parameters: {
      type: 'object',
      properties: { period: periodWords(null, dateOrder), other_period: { ...periodWords(null, dateOrder), description: `The other period, in either order, or "the week (month, quarter, year) before", "the previous month", "the one before": the one before "period". ${periodText(dateOrder)}` }, category: categoryWords, product: { ...productOrNameWord, description: 'Optional: a product code or name, or a word of product names ("mugs")' } },
      required: ['period', 'other_period'],
    },
  },
  {
    name: 'best_period',
    description: 'The best (or worst) day, week, month, quarter or year of a period by units sold, with all of them as a table; only whole ones that have ended count',
    parameters: {
      type: 'object',
      properties: { unit: { type: 'string', enum: PERIOD_UNITS, description: 'What to rank: day, week, month, quarter or year' }, order: orderWords('first'), period: periodWords(describePeriod(LAST_12_MONTHS), dateOrder), category: categoryWords },
      required: ['unit'],
    },
  },
  { name: 'runs_out_first', description: "Products forecast to run out, soonest first (products made here or not stocked left out, and counted); with a window, those whose first day out falls in it; with a supplier, that supplier's products (without_supplier: those with none)", parameters: windowAndSupplier(dateOrder) },
  {
    name: 'stock_value',
    description: 'Value of all stock on hand at unit cost; by category, each category\'s units on hand and value',
    parameters: { type: 'object', properties: { by: { type: 'string', enum: ['category'], description: 'Optional: "category" for a row per category, the most value first' } } },
  },
  {
    name: 'out_of_stock',
    description: 'The products out of stock now (counted, nothing on hand), how many, and when each is expected back (its next scheduled delivery, or none); those never counted are said apart (products not stocked (services, fees) left out, and counted)',
    parameters: { type: 'object', properties: { category: categoryWords, ...supplierParameters } },
  },
  {
    name: 'products_without_sales',
    description: `Products with no sales in a period (default ${describePeriod(NO_SALES_PERIOD)})`,
    parameters: { type: 'object', properties: { period: periodWords(describePeriod(NO_SALES_PERIOD), dateOrder), category: categoryWords } },
  },
  {
    name: 'overstock',
    description: `Products whose stock on hand covers more than N days of their forecast demand (default ${OVERSTOCK_DAYS}), with the value tied up, the most first (products not stocked (services, fees) left out, and counted)`,
    parameters: { type: 'object', properties: { days: wholeNumber(OVERSTOCK_COVER, 'Optional: days of forecast demand beyond which stock is overstock'), category: categoryWords } },
  },
  {
    name: 'dead_stock',
    description: `Products in stock with no sales in the last N days (default ${NO_SALES_DAYS}), with the value tied up, the most first (products not stocked (services, fees) left out, and counted)`,
    parameters: { type: 'object', properties: { days: wholeNumber(DEAD_STOCK_DAYS, 'Optional: the days without sales'), category: categoryWords } },
  },
  { name: 'low_stock', description: "Products that need an order by the forecast (most urgent first; products made here or not stocked (services, fees) are never ordered, and counted), with the advised quantity and order-by date; with a window, those due by its last day, overdue ones included; with a supplier, that supplier's products (without_supplier: those with none); with product_words, the products they name", parameters: orderListParameters(dateOrder) },
  { name: 'reorder_report', description: "The advised orders with totals (products made here or not stocked (services, fees) are never ordered, and counted); with a window, those whose order-by date is on or before its last day, overdue ones included; with a supplier, that supplier's orders (one purchase order; without_supplier: the products with none); with product_words, the products they name", parameters: orderListParameters(dateOrder) },
  { name: 'suppliers', description: 'The suppliers the products name, each with how many products it supplies and how many of them need an order', parameters: noParameters },
  { name: 'products_without_supplier', description: 'The products that have no supplier (code, name, category), the first 50 by code and how many there are', parameters: noParameters },
  { name: 'supplier_of_product', description: 'Who supplies a product; a word of product names ("mugs") gives each product whose name holds it', parameters: { type: 'object', properties: { product: productOrNameWord }, required: ['product'] } },
  { name: 'deliveries', description: 'Late and upcoming scheduled deliveries; with a window, those expected in it', parameters: windowParameter(dateOrder) },
  { name: 'integration_runs', description: "The latest run of each scheduled integration (imports from a web shop or another endpoint): when, how it went, rows written and rejected, and the next run", parameters: noParameters },
];

const wordsOf = (args: Record<string, unknown>, key: string) => (typeof args[key] === 'string' ? args[key].trim() : '');

/**
 * The tool's period read as the built-in engine reads one ("in 60 days" for what has not sold: the
 * last 60); a period still to come is answered as the engine answers it, words it cannot read are
 * refused, not guessed.
 */
function periodOf(ctx: AssistantContextDeps, args: Record<string, unknown>, key: string, order: DateOrder, quiet = false): { period: Period | null } | { ahead: Answer } {
  const words = wordsOf(args, key);
  if (!words) return { period: null };
  const day = today(ctx);
  const reading = Reading.of(words, order, ctx.timeZone);
  refuseImpossibleDate(reading, day);
  const quietSpan = quiet ? readQuietSpan(reading) : null;
  if (quietSpan) return { period: quietSpan };
  const ahead = salesAhead(reading, day);
  if (ahead) return { ahead };
  const period = readPeriod(reading, day);
  if (!period) throw validationError(`Period '${words}' not understood: say e.g. "last month", "October 2026", "last 30 days", "all time".`);
  return { period };
}

/** A sales answer for the tool's period, the fallback when it names none. */
async function forPeriod(ctx: AssistantContextDeps, args: Record<string, unknown>, dateOrder: DateOrder, fallback: Period, answer: (window: SalesWindow) => Promise<Answer>, quiet = false): Promise<Answer> {
  const read = periodOf(ctx, args, 'period', dateOrder, quiet);
  if ('ahead' in read) return read.ahead;
  return answer(await salesWindow(ctx.db, read.period ?? fallback, today(ctx)));
}

/** A date that is no day of the calendar ("31/11/2025") is refused with it, never read as another period (QA5 #20). */
function refuseImpossibleDate(reading: Reading, today: string): void {
  const impossible = impossibleDate(reading.text, today, reading.dateOrder) ?? spanTooLong(reading.text);
  if (impossible) throw validationError(impossible);
}

/** The tool's window read as an order or stock-out question's (`readWindow`); none when not given, refused when unreadable. */
function windowOf(args: Record<string, unknown>, today: string, dateOrder: DateOrder): DueWindow | null {
  const words = wordsOf(args, 'window');
  if (!words) return null;
  const reading = Reading.of(words, dateOrder);
  refuseImpossibleDate(reading, today);
  const window = readWindow(reading, today);
  if (!window) throw validationError(`Window '${words}' not understood: say e.g. "in January", "next week", "the next 30 days", "by 24/12", "Q1 2027".`);
  return dueWindowOf(window, today);
}

/** The unit the tool breaks sales down by; none when not given, refused when not one of the units. */
const breakdownOf = (args: Record<string, unknown>): PeriodUnit | null => (wordsOf(args, 'by') ? choiceOf(args, 'by', PERIOD_UNITS) : null);

/** The average a day or a week the tool asks for instead of a total; none when not given, refused when not one of them. */
const averageOf = (args: Record<string, unknown>): (typeof AVERAGES)[number] | null => {
  if (!wordsOf(args, 'average')) return null;
  if (wordsOf(args, 'by')) throw validationError("Give 'average' or 'by', not both.");
  return choiceOf(args, 'average', AVERAGES);
};

/** A yes or no the tool was given (true, false, or the words "true", "false"); false when none, refused otherwise. */
function flagOf(args: Record<string, unknown>, key: string): boolean {
  const given = args[key];
  if (given === undefined || given === null || given === false || given === 'false') return false;
  if (given === true || given === 'true') return true;
  throw validationError(`'${key}' must be true or false; got ${JSON.stringify(given).slice(0, 40)}.`);
}

/** A whole number the tool was given within its bounds, its default when none; refused otherwise, saying the bounds. */
function numberOf(args: Record<string, unknown>, key: string, bounds: Bounds): number {
  const given = args[key];
  if (given === undefined || given === null || given === '') return bounds.fallback;
  const value = typeof given === 'string' && /^\s*\d+\s*$/.test(given) ? Number(given) : given;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw validationError(`'${key}' must be a whole number from ${bounds.min} to ${bounds.max} (default ${bounds.fallback}); got ${JSON.stringify(given)}.`);
  }
  return value;
}

/** One of the tool's words from a fixed list, the first when none is given. */
function choiceOf<T extends string>(args: Record<string, unknown>, key: string, choices: readonly T[]): T {
  const words = wordsOf(args, key).toLowerCase();
  if (!words) return choices[0] as T;
  const found = choices.find((choice) => choice === words);
  if (!found) throw validationError(`'${key}' must be one of ${choices.map((choice) => `"${choice}"`).join(', ')}; got "${words}".`);
  return found;
}

/** How many categories a refusal names. */
const LISTED_CATEGORIES = 20;

/** The products the tool counts: a category it names, read as a question's (any case or number), or every product; one that is no category is refused with the categories there are. */
async function categoryOf(ctx: AssistantContextDeps, args: Record<string, unknown>): Promise<Scope> {
  const words = wordsOf(args, 'category');
  if (!words) return EVERY_PRODUCT;
  const categories = await categoryNames(ctx.db);
  const category = readCategory(Reading.of(words), categories);
  if (category) return categoryScope(category, categories);
  throw validationError(`No category '${words}'${categories.length ? `: the categories are ${listedNames(categories, LISTED_CATEGORIES)}` : ': the products have no categories'}.`);
}

/**
 * The supplier the tool narrows to, a known one's name (case aside, as the engine reads one), or null
 * for the products with no supplier (`without_supplier`, the list's own "No supplier"); none (every
 * supplier) when neither is given; refused when no product names it, it is no name, or both are given.
 */
async function supplierOf(ctx: AssistantContextDeps, args: Record<string, unknown>): Promise<string | null | undefined> {
  const named = await supplierNamed(ctx, args);
  if (!flagOf(args, 'without_supplier')) return named;
  if (named !== undefined) throw validationError("Give 'supplier' or 'without_supplier', not both.");
  return null;
}

/** The supplier the tool names, a known one's name; none when not given or blank. */
async function supplierNamed(ctx: AssistantContextDeps, args: Record<string, unknown>): Promise<string | undefined> {
  const given = args.supplier;
  if (given === undefined || given === null) return undefined;
  if (typeof given !== 'string' || given.length > MAX_SUPPLIER_LENGTH) throw validationError(`'supplier' must be a supplier's name of up to ${MAX_SUPPLIER_LENGTH} characters; got ${JSON.stringify(given).slice(0, 80)}.`);
  const words = given.trim();
  if (!words) return undefined;
  // Any of its spellings, case and white space aside, is the supplier (ADR 0186).
  const found = (await readSupplierNames(ctx.db)).find(words);
  if (found) return found.name;
  const known = await supplierNames(ctx.db);
  throw validationError(`No supplier '${words}'${known.length ? `: the suppliers are ${listedNames(known, LISTED_SUPPLIERS)}` : ': no product has a supplier'}.`);
}

/**
 * The products the tool names: by code or name, else by a word of their names ("mugs": every product
 * whose name holds Mug, as the engine reads "how many mugs did we sell"); refused when neither.
 */
async function productsOf(ctx: AssistantContextDeps, args: Record<string, unknown>): Promise<{ products: repo.ProductRow[] } | { word: NameWordScope }> {
  const words = wordsOf(args, 'product');
  const products = await repo.productsNamedIn(ctx.db, words);
  if (products.length) return { products };
  const names = await productNames(ctx.db);
  const word = readNameWord(Reading.of(words), names.words, names.phrases);
  if (!word) throw validationError(`No product '${words}', and no product's name holds it.`);
  return { word: await nameWordScope(ctx.db, word) };
}

/**
 * The products an order tool's `product_words` name, as the engine reads an order question's (ADR
 * 0189, amendment 2026-12-06 (6)): products named by code or whole name, else those a word or phrase
 * of their names selects; `unread`: the words that selected none, said after the answer rather than
 * refused, as the engine says the words it did not use. None when not given or blank; refused when
 * it is no text or names no product.
 */
async function productWordsOf(ctx: AssistantContextDeps, args: Record<string, unknown>): Promise<{ within: NameWordScope; unread: string | null } | undefined> {
  const given = args.product_words;
  if (given === undefined || given === null) return undefined;
  if (typeof given !== 'string' || given.length > MAX_PRODUCT_WORDS_LENGTH) throw validationError(`'product_words' must be words of product names of up to ${MAX_PRODUCT_WORDS_LENGTH} characters; got ${JSON.stringify(given).slice(0, 80)}.`);
  const words = given.trim();
  if (!words) return undefined;
  const products = await repo.productsNamedIn(ctx.db, words);
  if (products.length) return { within: { ...productScope(products), word: null, products, heading: '' }, unread: null };
  const names = await productNames(ctx.db);
  const reading = Reading.of(words);
  const word = readNameWord(reading, names.words, names.phrases);
  if (!word) throw validationError(`No product is named '${words}', and no product's name holds it.`);
  // "Sizes of the merino jumper": each product is a row of the list already.
  reading.test(VARIANT_WORDS);
  const unread = reading.unusedWords();
  return { within: await nameWordScope(ctx.db, word), unread: unread.length ? `Not narrowed by "${unread.join(' ')}": no product's name holds ${unread.length === 1 ? 'it' : 'them'}.` : null };
}

async function runTool(ctx: AssistantContextDeps, name: string, args: Record<string, unknown>, dateOrder: DateOrder): Promise<Answer> {
  const day = today(ctx);
  switch (name) {
    case 'stock_of_product': {
      const named = await productsOf(ctx, args);
      return 'products' in named ? dataFunctions.stockOf(ctx.db, named.products) : forNameWord(named.word, (listed, all) => dataFunctions.stockOf(ctx.db, all, listed.length));
    }
    case 'sales_of_product': {
      const named = await productsOf(ctx, args);
      const average = averageOf(args);
      if (average) return forPeriod(ctx, args, dateOrder, LAST_30_DAYS, (window) => ('products' in named ? everydayAnswers.averageOf(ctx.db, day, window, average, named.products) : everydayAnswers.averageSales(ctx.db, day, window, average, named.word)));
      const by = breakdownOf(args);
      if (by) return forPeriod(ctx, args, dateOrder, breakdownPeriod(by), (window) => dataFunctions.salesByPeriod(ctx.db, day, window, by, 'products' in named ? productScope(named.products) : named.word));
      return forPeriod(ctx, args, dateOrder, LAST_30_DAYS, (window) => ('products' in named ? dataFunctions.salesOf(ctx.db, named.products, window) : dataFunctions.totalSales(ctx.db, window, named.word)));
    }
    case 'top_sellers': {
      const inStock = flagOf(args, 'in_stock');
      const rank: Rank = { direction: choiceOf(args, 'order', ORDERS) === 'worst' ? 'asc' : 'desc', limit: numberOf(args, 'limit', inStock ? SLOW_MOVERS_LIMIT : TOP_SELLERS_LIMIT) };
      const scope = await categoryOf(ctx, args);
      if (inStock) {
        if (choiceOf(args, 'by', RANKED_BY) !== 'units') throw validationError("'in_stock' ranks by units sold: leave out 'by' or give \"units\".");
        return forPeriod(ctx, args, dateOrder, NO_SALES_PERIOD, (window) => everydayAnswers.slowMovers(ctx.db, window, rank, scope));
      }
      const measure = MEASURE_OF[choiceOf(args, 'by', RANKED_BY)];
      return forPeriod(ctx, args, dateOrder, TOP_SELLERS_PERIOD, (window) => dataFunctions.topSellers(ctx.db, window, rank, scope, measure));
    }
    case 'units_sold': {
      const scope = await categoryOf(ctx, args);
      const average = averageOf(args);
      if (average) return forPeriod(ctx, args, dateOrder, LAST_30_DAYS, (window) => everydayAnswers.averageSales(ctx.db, day, window, average, scope));
      if (wordsOf(args, 'by').toLowerCase() === 'category') return forPeriod(ctx, args, dateOrder, TOP_SELLERS_PERIOD, (window) => everydayAnswers.salesByCategory(ctx.db, window, { direction: 'desc', limit: null }, scope));
      const by = breakdownOf(args);
      if (by) return forPeriod(ctx, args, dateOrder, breakdownPeriod(by), (window) => dataFunctions.salesByPeriod(ctx.db, day, window, by, scope));
      return forPeriod(ctx, args, dateOrder, LAST_30_DAYS, (window) => dataFunctions.totalSales(ctx.db, window, scope));
    }
    case 'compare_sales': {
      if (wordsOf(args, 'product') && wordsOf(args, 'category')) throw validationError('Give a product or a category, not both.');
      const named = wordsOf(args, 'product') ? await productsOf(ctx, args) : null;
      const scope = !named ? await categoryOf(ctx, args) : 'products' in named ? productScope(named.products) : named.word;
      const first = periodOf(ctx, args, 'period', dateOrder);
      if ('ahead' in first) return first.ahead;
      // "The week before", "the previous month": the one before the first period (ADR 0189).
      const before = first.period && readPeriodBefore(Reading.of(wordsOf(args, 'other_period')), first.period, day);
      const second = before ? { period: before } : periodOf(ctx, args, 'other_period', dateOrder);
      if ('ahead' in second) return second.ahead;
      if (!first.period || !second.period) throw validationError('Two periods are needed: "period" and "other_period".');
      return dataFunctions.comparePeriods(ctx.db, day, comparisonOf(first.period, second.period, day), scope);
    }
    case 'best_period': {
      if (!wordsOf(args, 'unit')) throw validationError(`'unit' is needed: one of ${PERIOD_UNITS.map((unit) => `"${unit}"`).join(', ')}.`);
      const best: BestPeriod = { unit: choiceOf(args, 'unit', PERIOD_UNITS), direction: choiceOf(args, 'order', ORDERS) === 'worst' ? 'asc' : 'desc' };
      const scope = await categoryOf(ctx, args);
      return forPeriod(ctx, args, dateOrder, LAST_12_MONTHS, (window) => dataFunctions.bestPeriods(ctx.db, day, window, best, scope));
    }
    case 'runs_out_first': {
      const supplier = await supplierOf(ctx, args);
      const scope = supplier === undefined ? undefined : await supplierScope(ctx.db, supplier);
      return answerForWindow(windowOf(args, day, dateOrder), day, (due) => dataFunctions.runsOutFirst(ctx.db, day, due, scope));
    }
    case 'stock_value':
      // One breakdown so far: a word other than "category" is refused naming it.
      return wordsOf(args, 'by') && choiceOf(args, 'by', ['category'] as const) ? everydayAnswers.stockByCategory(ctx.db) : dataFunctions.stockValue(ctx.db);
    case 'out_of_stock': {
      const supplier = await supplierOf(ctx, args);
      if (supplier !== undefined && wordsOf(args, 'category')) throw validationError('Give a category or a supplier, not both.');
      return everydayAnswers.outOfStock(ctx.db, day, supplier === undefined ? await categoryOf(ctx, args) : await supplierScope(ctx.db, supplier));
    }
    case 'products_without_sales': {
      const scope = await categoryOf(ctx, args);
      return forPeriod(ctx, args, dateOrder, NO_SALES_PERIOD, (window) => dataFunctions.noSales(ctx.db, window, scope), true);
    }
    case 'overstock':
      return dataFunctions.overstock(ctx.db, day, numberOf(args, 'days', OVERSTOCK_COVER), await categoryOf(ctx, args));
    case 'dead_stock': {
      const days = numberOf(args, 'days', DEAD_STOCK_DAYS);
      return dataFunctions.deadStock(ctx.db, await salesWindow(ctx.db, { kind: 'last_days', days }, day), await categoryOf(ctx, args));
    }
    case 'low_stock':
    case 'reorder_report': {
      const supplier = await supplierOf(ctx, args);
      const named = await productWordsOf(ctx, args);
      const answer = name === 'low_stock' ? dataFunctions.lowStock : dataFunctions.reorderReport;
      const answered = await answerForWindow(windowOf(args, day, dateOrder), day, (due) => answer(ctx.db, due, supplier, named?.within));
      return named?.unread ? { blocks: [...answered.blocks, { type: 'text', text: named.unread }] } : answered;
    }
    case 'suppliers':
      return dataFunctions.suppliers(ctx.db);
    case 'products_without_supplier':
      return dataFunctions.productsWithoutSupplier(ctx.db);
    case 'supplier_of_product': {
      const named = await productsOf(ctx, args);
      return 'products' in named ? dataFunctions.supplierOf(ctx.db, named.products) : forNameWord(named.word, (listed) => dataFunctions.supplierOf(ctx.db, listed));
    }
    case 'deliveries':
      return answerForWindow(windowOf(args, day, dateOrder), day, (due) => dataFunctions.deliveries(ctx.db, day, due));
    case 'integration_runs':
      return dataFunctions.integrationRuns(ctx.db, ctx.now?.() ?? new Date());
    default:
      throw validationError(`Unknown tool '${name}'.`);
  }
}

/**
 * The question goes to the model with the tools; each tool's answer goes back as text and its
 * tables and links are kept for the reply. A model that fails falls back to the intent engine.
 */
async function askModel(ctx: AssistantContextDeps, model: ChatModel, question: string, context: AssistantContext | null, dateOrder: DateOrder): Promise<Answer> {
  const messages: ModelMessage[] = [
    { role: 'system', content: `You answer questions about a shop's inventory using only the tools' results. Be brief. The user is on the ${context?.page ?? 'home'} page.` },
    { role: 'user', content: question },
  ];
  const kept: AssistantBlock[] = [];
  try {
    for (let round = 0; round < MODEL_ROUNDS; round += 1) {
      const completion = await model.complete({ messages, tools: assistantToolsFor(dateOrder), temperature: 0 });
      if (!completion.toolCalls.length) {
        const words = completion.content?.trim();
        if (!words) break;
        return { blocks: [{ type: 'text', text: words }, ...kept.filter((b) => b.type !== 'text')] };
      }
      messages.push({ role: 'assistant', content: completion.content, toolCalls: completion.toolCalls });
      for (const call of completion.toolCalls) {
        let result: string;
        try {
          const answer = await runTool(ctx, call.name, JSON.parse(call.arguments || '{}') as Record<string, unknown>, dateOrder);
          kept.push(...answer.blocks.filter((b) => b.type !== 'action'));
          result = JSON.stringify(answer.blocks.filter((b) => b.type !== 'action'));
        } catch (error) {
          result = `Error: ${error instanceof Error ? error.message : String(error)}`;
        }
        messages.push({ role: 'tool', toolCallId: call.id, content: result });
      }
    }
  } catch {
    // The model is unreachable or answered nonsense: the built-in engine still answers.
  }
  return answerText(ctx.db, question, today(ctx), dateOrder, ctx.timeZone);
}
