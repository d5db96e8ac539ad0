// The assistant's answers from the data: the three quick buttons and a deterministic intent engine
// for plain questions. Each answer is structured blocks (text, table, link, action) the web renders.
import type { Kysely } from 'kysely';
import type { AssistantBlock, QuickAction } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import * as repo from './repo.ts';
import { inventoryTotals } from '../dashboard/repo.ts';
import { orderAdvice, type OrderAdvice } from '../order-advice/service.ts';

type Db = Kysely<Database>;
export type Answer = { blocks: AssistantBlock[] };

const DAY_MS = 86_400_000;
const TABLE_ROWS = 50;
const REPORT_ROWS = 500;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const round2 = (value: number) => Math.round(value * 100) / 100;
const number = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

const text = (value: string): AssistantBlock => ({ type: 'text', text: value });
const forecastLink = (code: string, name: string): AssistantBlock => ({ type: 'link', label: `Forecast for ${name}`, href: `/app/forecasting?product=${encodeURIComponent(code)}` });
const dataLink = (table: string, label: string): AssistantBlock => ({ type: 'link', label, href: `/app/datatab?table=${encodeURIComponent(table)}` });
type Cell = string | number | null;
const table = (columns: [string, string][], rows: Record<string, Cell>[], totals: Record<string, Cell> | null = null, download: string | null = null): AssistantBlock => ({
  type: 'table',
  columns: columns.map(([key, label]) => ({ key, label })),
  rows,
  totals,
  download,
});

/** The answer's readable text (what the history shows and what a model reads back). */
export const contentOf = (answer: Answer) => answer.blocks.filter((b): b is Extract<AssistantBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n');

// Quick buttons ------------------------------------------------------------------------------

const noForecastYet: Answer = {
  blocks: [text('There is no whole-catalogue forecast yet, so nothing is advised. Choose "Regenerate whole catalogue" on the Forecasting screen.'), { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' }],
};
const nothingToOrder = (advice: OrderAdvice) =>
  text(`No product needs an order: the forecast expects every product with demand in the last ${advice.inactiveDays} days to last until an order placed in time arrives.`);
const leftOut = (advice: OrderAdvice) => (advice.inactive ? ` ${advice.inactive} ${advice.inactive === 1 ? 'product' : 'products'} without demand in the last ${advice.inactiveDays} days ${advice.inactive === 1 ? 'is' : 'are'} left out.` : '');
const createOrdersAction: AssistantBlock = { type: 'action', label: 'Create these orders as scheduled deliveries', action: 'create_recommended_orders', payload: {} };

/** Low stock: the products that need an order (the forecast's advice, the Forecasting screen's list), most urgent first. */
async function lowStock(db: Db): Promise<Answer> {
  const advice = await orderAdvice(db, { page: { number: 1, size: TABLE_ROWS } });
  if (!advice) return noForecastYet;
  if (!advice.total) return { blocks: [nothingToOrder(advice)] };
  const rows = advice.products;
  return {
    blocks: [
      text(
        `${advice.total} ${advice.total === 1 ? 'product needs' : 'products need'} an order, most urgent first: ${advice.orderUnits} units, ${number.format(advice.orderCost)} in all.${advice.total > rows.length ? ` The ${rows.length} most urgent are listed.` : ''}${leftOut(advice)}`,
      ),
      table(
        [['styleCode', 'Product code'], ['name', 'Name'], ['currentStock', 'On hand'], ['stockout', 'Runs out'], ['orderBy', 'Order by'], ['quantity', 'Order'], ['cost', 'Cost']],
        rows.map((r) => ({ styleCode: r.styleCode, name: r.name, currentStock: r.currentStock, stockout: r.firstStockout, orderBy: r.orderBy, quantity: r.orderQuantity, cost: round2(r.orderQuantity * r.unitCost) })),
      ),
      { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' },
      createOrdersAction,
    ],
  };
}

async function reorderReport(db: Db): Promise<Answer> {
  const advice = await orderAdvice(db, { page: { number: 1, size: REPORT_ROWS } });
  if (!advice) return noForecastYet;
  if (!advice.total) return { blocks: [nothingToOrder(advice)] };
  const rows = advice.products;
  return {
    blocks: [
      text(`Reorder report: ${advice.total} advised ${advice.total === 1 ? 'order' : 'orders'}, ${advice.orderUnits} units, ${number.format(advice.orderCost)} in all.${advice.total > rows.length ? ` The ${rows.length} most urgent are listed.` : ''}${leftOut(advice)}`),
      table(
        [['styleCode', 'Product code'], ['name', 'Name'], ['currentStock', 'On hand'], ['orderBy', 'Order by'], ['quantity', 'Quantity'], ['cost', 'Cost']],
        rows.map((r) => ({ styleCode: r.styleCode, name: r.name, currentStock: r.currentStock, orderBy: r.orderBy, quantity: r.orderQuantity, cost: round2(r.orderQuantity * r.unitCost) })),
        { styleCode: 'Total', name: null, currentStock: null, orderBy: null, quantity: advice.orderUnits, cost: advice.orderCost },
        'reorder-report.csv',
      ),
      createOrdersAction,
    ],
  };
}

async function deliveries(db: Db, today: string): Promise<Answer> {
  const rows = await repo.scheduledDeliveries(db, REPORT_ROWS);
  if (!rows.length) return { blocks: [text('No deliveries are scheduled.'), dataLink('deliveries', 'Open the deliveries table')] };
  const late = rows.filter((r) => r.expected_date < today);
  const upcoming = rows.filter((r) => r.expected_date >= today);
  const columns: [string, string][] = [['styleCode', 'Product code'], ['name', 'Name'], ['expectedDate', 'Expected'], ['quantity', 'Quantity']];
  const asRow = (r: (typeof rows)[number]) => ({ styleCode: r.product_code, name: r.name, expectedDate: r.expected_date, quantity: r.quantity });
  const blocks: AssistantBlock[] = [text(`${upcoming.length} upcoming ${upcoming.length === 1 ? 'delivery' : 'deliveries'}; ${late.length} late (expected before ${today} and not received).`)];
  if (late.length) blocks.push(text('Late:'), table(columns, late.slice(0, TABLE_ROWS).map(asRow)));
  if (upcoming.length) blocks.push(text('Upcoming:'), table(columns, upcoming.slice(0, TABLE_ROWS).map(asRow)));
  blocks.push(dataLink('deliveries', 'Open the deliveries table'));
  return { blocks };
}

export function answerQuick(db: Db, quick: QuickAction, today: string): Promise<Answer> {
  if (quick === 'low_stock') return lowStock(db);
  if (quick === 'reorder_report') return reorderReport(db);
  return deliveries(db, today);
}

// Plain questions ----------------------------------------------------------------------------

/** The data functions, shared by the intent engine and the model's tool calls. */
export const dataFunctions = {
  async stockOf(db: Db, product: repo.ProductRow): Promise<Answer> {
    return { blocks: [text(`${product.name} (${product.product_code}) has ${product.current_stock} units on hand, worth ${number.format(product.current_stock * product.unit_cost)} at unit cost.`), forecastLink(product.product_code, product.name)] };
  },
  async salesOf(db: Db, product: repo.ProductRow, days: number): Promise<Answer> {
    const last = await repo.lastSalesDay(db);
    if (!last) return { blocks: [text('There are no sales yet: import sales first.'), dataLink('sales', 'Open the sales table')] };
    const from = addDays(last, -(days - 1));
    const units = await repo.unitsSold(db, product.id, from, last);
    return { blocks: [text(`${product.name} (${product.product_code}) sold ${units} units from ${from} to ${last}.`), forecastLink(product.product_code, product.name)] };
  },
  async topSellers(db: Db, days: number): Promise<Answer> {
    const last = await repo.lastSalesDay(db);
    if (!last) return { blocks: [text('There are no sales yet: import sales first.'), dataLink('sales', 'Open the sales table')] };
    const from = addDays(last, -(days - 1));
    const rows = await repo.topSellers(db, from, last, 5);
    if (!rows.length) return { blocks: [text(`Nothing sold from ${from} to ${last}.`)] };
    return {
      blocks: [
        text(`Top sellers from ${from} to ${last}: ${rows.map((r) => `${r.name} (${r.units})`).join(', ')}.`),
        table([['styleCode', 'Product code'], ['name', 'Name'], ['units', 'Units sold']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, units: r.units }))),
        forecastLink((rows[0] as { product_code: string }).product_code, (rows[0] as { name: string }).name),
      ],
    };
  },
  async runsOutFirst(db: Db): Promise<Answer> {
    const rows = await repo.firstStockouts(db, 5);
    if (!rows.length) return { blocks: [text('No product is forecast to run out within the forecast horizon (or no forecast has been made yet).')] };
    const first = rows[0] as (typeof rows)[number];
    return {
      blocks: [
        text(`${first.name} (${first.product_code}) runs out first, on ${first.first_stockout}.`),
        table([['styleCode', 'Product code'], ['name', 'Name'], ['currentStock', 'On hand'], ['stockout', 'Runs out']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, currentStock: r.current_stock, stockout: r.first_stockout }))),
        forecastLink(first.product_code, first.name),
      ],
    };
  },
  async stockValue(db: Db): Promise<Answer> {
    const totals = await inventoryTotals(db);
    return { blocks: [text(`The stock on hand is worth ${number.format(totals.value)} at unit cost: ${totals.units} units across ${totals.products} products.`), dataLink('products', 'Open the products table')] };
  },
  async totalStock(db: Db): Promise<Answer> {
    const totals = await inventoryTotals(db);
    return { blocks: [text(`There are ${totals.units} units on hand across ${totals.products} products.`), dataLink('products', 'Open the products table')] };
  },
  async noSales(db: Db, days: number): Promise<Answer> {
    const last = await repo.lastSalesDay(db);
    if (!last) return { blocks: [text('There are no sales yet: import sales first.'), dataLink('sales', 'Open the sales table')] };
    const { total, rows } = await repo.productsWithoutSales(db, last, days, TABLE_ROWS);
    if (!total) return { blocks: [text(`Every product sold something in the ${days} days to ${last}.`)] };
    return {
      blocks: [
        text(`${total} ${total === 1 ? 'product has' : 'products have'} no sales in the ${days} days to ${last}.`),
        table([['styleCode', 'Product code'], ['name', 'Name'], ['currentStock', 'On hand']], rows.map((r) => ({ styleCode: r.product_code, name: r.name, currentStock: r.current_stock }))),
        dataLink('sales', 'Open the sales table'),
      ],
    };
  },
};

const WEEK = /\b(week|7 days|seven days)\b/;
const HELP =
  'I can answer: the stock of a product, sales of a product last week or month, top sellers last week or month, what runs out first, the value of the stock, products with no sales, low stock, the reorder report, deliveries; and I can create the recommended orders or add a task.';

/** The deterministic intent engine: the first rule whose words match answers; otherwise it says plainly it does not know. */
export async function answerText(db: Db, question: string, today: string): Promise<Answer> {
  const q = question.toLowerCase();
  const days = WEEK.test(q) ? 7 : 30;
  const taskMatch = /^(?:please\s+)?(?:add|create|make)\s+(?:a\s+)?(?:new\s+)?(?:task|todo|to-do|reminder)\s*(?:to|:|-)?\s*(.+)$/i.exec(question.trim()) ?? /^remind me to\s+(.+)$/i.exec(question.trim());
  if (taskMatch?.[1]) {
    const taskText = taskMatch[1].trim().slice(0, 500);
    return { blocks: [text(`Add the task "${taskText}" to your dashboard?`), { type: 'action', label: 'Add task', action: 'add_task', payload: { text: taskText } }] };
  }
  if (/\b(create|place|make|raise|put in)\b.*\border/.test(q)) {
    const report = await reorderReport(db);
    return { blocks: [...report.blocks.filter((b) => b.type !== 'action'), { type: 'action', label: 'Create these orders as scheduled deliveries', action: 'create_recommended_orders', payload: {} }] };
  }
  if (/\b(no|zero|without|not any|any)\s+sales\b|\bnot (been )?sold\b|\bhaven'?t sold\b|\bdidn'?t sell\b|\bdead stock\b|\bnot selling\b/.test(q) && !/\bany sales of\b/.test(q)) {
    const span = /\b(\d{1,3})\s*days\b/.exec(q);
    return dataFunctions.noSales(db, span ? Number(span[1]) : 90);
  }
  if (/\b(top|best)[- ]?(sell|seller|product|moving)|\bsold (the )?most\b|\bbest sellers?\b|\bmost popular\b/.test(q)) return dataFunctions.topSellers(db, days);
  if (/\brun(s|ning)? out\b|\bstock ?out\b|\bsell out\b/.test(q) && !(await repo.productNamedIn(db, question))) return dataFunctions.runsOutFirst(db);
  if (/\blow stock\b|\bbelow 100\b|\brunning low\b|\bneeds? (an )?order\b/.test(q)) return lowStock(db);
  if (/\breorder\b|\brecommended orders?\b|\bwhat (should|do) i (re)?order\b/.test(q)) return reorderReport(db);
  if (/\bdeliver/.test(q)) return deliveries(db, today);
  if (/\b(value|worth)\b/.test(q) && /\b(stock|inventory|on hand)\b/.test(q) && !(await repo.productNamedIn(db, question))) return dataFunctions.stockValue(db);
  const product = await repo.productNamedIn(db, question);
  if (product) {
    if (/\b(sales|sold|sell|sells|selling|demand)\b/.test(q)) return dataFunctions.salesOf(db, product, days);
    if (/\brun(s|ning)? out\b|\bstock ?out\b/.test(q)) {
      const rows = await repo.firstStockouts(db, 10_000);
      const own = rows.find((r) => r.product_code === product.product_code);
      return { blocks: [text(own ? `${product.name} is forecast to run out on ${own.first_stockout}.` : `${product.name} is not forecast to run out within the forecast horizon.`), forecastLink(product.product_code, product.name)] };
    }
    return dataFunctions.stockOf(db, product);
  }
  if (/\b(how much|how many|total)\b.*\b(stock|inventory|units)\b|\bstock (level|on hand)\b/.test(q)) return dataFunctions.totalStock(db);
  return { blocks: [text(`I don't know how to answer that from the data. ${HELP}`)] };
}

export const actionAnswers = {
  async createOrders(db: Db, today: string): Promise<Answer> {
    const advice = await orderAdvice(db);
    if (!advice) return noForecastYet;
    const orders = advice.products.map((p) => ({ productId: p.productId, quantity: p.orderQuantity, leadTimeDays: p.leadTimeDays }));
    const { created, alreadyOrdered } = await repo.createAdvisedDeliveries(db, today, orders);
    return {
      blocks: [
        text(
          `Created ${created} scheduled ${created === 1 ? 'delivery' : 'deliveries'} of the advised quantities, each arriving after its product's lead time.${alreadyOrdered ? ` ${alreadyOrdered} ${alreadyOrdered === 1 ? 'product' : 'products'} already had a delivery on the way and ${alreadyOrdered === 1 ? 'was' : 'were'} left alone.` : ''}`,
        ),
        dataLink('deliveries', 'Open the deliveries table'),
      ],
    };
  },
};
