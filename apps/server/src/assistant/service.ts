// The assistant (spec §2 footer bar, §3 Chat message): history per user, the quick buttons, plain
// questions answered by the intent engine or — when LLM_BASE_URL is set — by the model calling the
// same data functions as tools, and the actions a user confirms with a button.
import type { Kysely } from 'kysely';
import { roleAllows, type AssistantActionRequest, type AssistantBlock, type AssistantContext, type ChatMessage, type QuickAction, type Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import type { ChatMessage as ModelMessage, ChatModel, ToolDefinition } from '../ai/chat.ts';
import { AppError, validationError } from '../http/errors.ts';
import { insertTask } from '../dashboard/repo.ts';
import { dueWindowOf, NO_SALES_PERIOD, readPeriod, readQuietSpan, readWindow, type DueWindow, type Period } from '../plain-words/period.ts';
import { Reading } from '../plain-words/reading.ts';
import { actionAnswers, answerForWindow, answerQuick, answerText, contentOf, dataFunctions, LAST_30_DAYS, salesWindow, type Answer, type SalesWindow } from './answers.ts';
import * as repo from './repo.ts';

export type AssistantContextDeps = { db: Kysely<Database>; model: ChatModel | null; now?: () => Date };
type User = { userId: number; role: Role };

const HISTORY_LIMIT = 200;
const MODEL_ROUNDS = 4;
const quickLabels: Record<QuickAction, string> = { low_stock: 'Show low stock', reorder_report: 'Reorder report', deliveries: 'Deliveries' };

const today = (ctx: AssistantContextDeps) => (ctx.now?.() ?? new Date()).toISOString().slice(0, 10);

type StoredMessage = Awaited<ReturnType<typeof repo.insertMessage>>;
const asChatMessage = (row: StoredMessage): ChatMessage => ({ id: row.id, role: row.role, content: row.content, timestamp: row.created_at.toISOString(), blocks: row.blocks as AssistantBlock[] });

export const history = async (ctx: AssistantContextDeps, userId: number): Promise<ChatMessage[]> => (await repo.recentMessages(ctx.db, userId, HISTORY_LIMIT)).map(asChatMessage);

async function reply(ctx: AssistantContextDeps, userId: number, question: { content: string; context: AssistantContext | null }, answer: Answer): Promise<ChatMessage[]> {
  const asked = await repo.insertMessage(ctx.db, { userId, role: 'user', content: question.content, blocks: [], context: question.context });
  const answered = await repo.insertMessage(ctx.db, { userId, role: 'assistant', content: contentOf(answer), blocks: answer.blocks, context: null });
  return [asChatMessage(asked), asChatMessage(answered)];
}

export async function ask(ctx: AssistantContextDeps, user: User, request: { content: string; quick?: QuickAction | undefined; context?: AssistantContext | undefined }): Promise<ChatMessage[]> {
  const context = request.context ?? null;
  if (request.quick) return reply(ctx, user.userId, { content: quickLabels[request.quick], context }, await answerQuick(ctx.db, request.quick, today(ctx)));
  const content = request.content.trim();
  // Spec §2: blank input is ignored (nothing stored, nothing answered).
  if (!content) return [];
  const answer = ctx.model ? await askModel(ctx, ctx.model, content, context) : await answerText(ctx.db, content, today(ctx));
  return reply(ctx, user.userId, { content, context }, answer);
}

export async function act(ctx: AssistantContextDeps, user: User, request: AssistantActionRequest): Promise<ChatMessage[]> {
  if (request.action === 'add_task') {
    const task = await insertTask(ctx.db, user.userId, request.text);
    return reply(ctx, user.userId, { content: `Add the task "${task.text}"`, context: null }, { blocks: [{ type: 'text', text: `Added the task "${task.text}" to your dashboard.` }, { type: 'link', label: 'Open the dashboard', href: '/app/home' }] });
  }
  if (!roleAllows(user.role, 'editor')) throw new AppError('forbidden', 'Creating orders needs the editor role.');
  return reply(ctx, user.userId, { content: 'Create the recommended orders', context: null }, await actionAnswers.createOrders(ctx.db, today(ctx), request.orders));
}

// The model ----------------------------------------------------------------------------------

const productParameter = { type: 'object', properties: { product: { type: 'string', description: 'Product code or name' } }, required: ['product'] };
const periodParameter = {
  type: 'object',
  properties: { period: { type: 'string', description: 'The period in words, as the user said it: "last month", "October", "last quarter", "Q3 2026", "in 2025", "yesterday", "last 30 days", "since 3/11/2026" (dates day-first)' } },
  required: ['period'],
};
const noParameters = { type: 'object', properties: {} };
const windowParameter = {
  type: 'object',
  properties: {
    window: {
      type: 'string',
      description:
        'Optional: the days ahead in words, as the user said them: "in January", "January 2027", "Q1 2027", "next week", "next month", "this month", "the next 30 days", "by 24/12", "before Christmas" (dates day-first). A window that starts later keeps only what falls in it; one from today keeps what is overdue too. Omit for no window.',
    },
  },
};

/** The tools: the intent engine's data functions, by name; never SQL. */
export const assistantTools: ToolDefinition[] = [
  { name: 'stock_of_product', description: 'Units on hand of one product', parameters: productParameter },
  { name: 'sales_of_product', description: 'Units one product sold in a period', parameters: { ...productParameter, properties: { ...productParameter.properties, ...periodParameter.properties }, required: ['product', 'period'] } },
  { name: 'top_sellers', description: 'The five products that sold the most in a period', parameters: periodParameter },
  { name: 'runs_out_first', description: 'Products forecast to run out, soonest first; with a window, those whose first day out falls in it', parameters: windowParameter },
  { name: 'stock_value', description: 'Value of all stock on hand at unit cost', parameters: noParameters },
  { name: 'units_sold', description: 'Units all products sold in a period', parameters: periodParameter },
  { name: 'products_without_sales', description: 'Products with no sales in a period (default the last 90 days)', parameters: { type: 'object', properties: periodParameter.properties } },
  { name: 'low_stock', description: 'Products that need an order by the forecast (most urgent first), with the advised quantity and order-by date; with a window, those due in it', parameters: windowParameter },
  { name: 'reorder_report', description: 'The advised orders with totals; with a window, those whose order-by date falls in it', parameters: windowParameter },
  { name: 'deliveries', description: 'Upcoming and late scheduled deliveries', parameters: noParameters },
];

/** The tool's period read as the built-in engine reads one ("in 60 days" for what has not sold: the last 60); words it cannot read are refused, not guessed. */
function periodOf(args: Record<string, unknown>, today: string, fallback: Period): SalesWindow {
  const words = typeof args.period === 'string' ? args.period.trim() : '';
  if (!words) return salesWindow(fallback, today);
  const reading = Reading.of(words);
  const period = (fallback === NO_SALES_PERIOD ? readQuietSpan(reading) : null) ?? readPeriod(reading, today);
  if (!period) throw validationError(`Period '${words}' not understood: say e.g. "last month", "October 2026", "last 30 days".`);
  return salesWindow(period, today);
}

/** The tool's window read as an order or stock-out question's (`readWindow`); none when not given, refused when unreadable. */
function windowOf(args: Record<string, unknown>, today: string): DueWindow | null {
  const words = typeof args.window === 'string' ? args.window.trim() : '';
  if (!words) return null;
  const window = readWindow(Reading.of(words), today);
  if (!window) throw validationError(`Window '${words}' not understood: say e.g. "in January", "next week", "the next 30 days", "by 24/12", "Q1 2027".`);
  return dueWindowOf(window, today);
}

async function runTool(ctx: AssistantContextDeps, name: string, args: Record<string, unknown>): Promise<Answer> {
  const product = async () => {
    const found = await repo.productsNamedIn(ctx.db, String(args.product ?? ''));
    if (!found.length) throw validationError(`No product '${String(args.product ?? '')}'.`);
    return found;
  };
  switch (name) {
    case 'stock_of_product':
      return dataFunctions.stockOf(ctx.db, await product());
    case 'sales_of_product':
      return dataFunctions.salesOf(ctx.db, await product(), periodOf(args, today(ctx), LAST_30_DAYS));
    case 'top_sellers':
      return dataFunctions.topSellers(ctx.db, periodOf(args, today(ctx), LAST_30_DAYS));
    case 'units_sold':
      return dataFunctions.totalSales(ctx.db, periodOf(args, today(ctx), LAST_30_DAYS));
    case 'runs_out_first':
      return answerForWindow(windowOf(args, today(ctx)), today(ctx), (due) => dataFunctions.runsOutFirst(ctx.db, today(ctx), due));
    case 'stock_value':
      return dataFunctions.stockValue(ctx.db);
    case 'products_without_sales':
      return dataFunctions.noSales(ctx.db, periodOf(args, today(ctx), NO_SALES_PERIOD));
    case 'low_stock':
      return answerForWindow(windowOf(args, today(ctx)), today(ctx), (due) => dataFunctions.lowStock(ctx.db, today(ctx), due));
    case 'reorder_report':
      return answerForWindow(windowOf(args, today(ctx)), today(ctx), (due) => dataFunctions.reorderReport(ctx.db, today(ctx), due));
    case 'deliveries':
      return answerQuick(ctx.db, 'deliveries', today(ctx));
    default:
      throw validationError(`Unknown tool '${name}'.`);
  }
}

/**
 * The question goes to the model with the tools; each tool's answer goes back as text and its
 * tables and links are kept for the reply. A model that fails falls back to the intent engine.
 */
async function askModel(ctx: AssistantContextDeps, model: ChatModel, question: string, context: AssistantContext | null): Promise<Answer> {
  const messages: ModelMessage[] = [
    { role: 'system', content: `You answer questions about a shop's inventory using only the tools' results. Be brief. The user is on the ${context?.page ?? 'home'} page.` },
    { role: 'user', content: question },
  ];
  const kept: AssistantBlock[] = [];
  try {
    for (let round = 0; round < MODEL_ROUNDS; round += 1) {
      const completion = await model.complete({ messages, tools: assistantTools, temperature: 0 });
      if (!completion.toolCalls.length) {
        const words = completion.content?.trim();
        if (!words) break;
        return { blocks: [{ type: 'text', text: words }, ...kept.filter((b) => b.type !== 'text')] };
      }
      messages.push({ role: 'assistant', content: completion.content, toolCalls: completion.toolCalls });
      for (const call of completion.toolCalls) {
        let result: string;
        try {
          const answer = await runTool(ctx, call.name, JSON.parse(call.arguments || '{}') as Record<string, unknown>);
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
  return answerText(ctx.db, question, today(ctx));
}
