// The assistant on a known dataset: every expected answer is computed here from the dataset itself,
// independently of the server's SQL. Free-text questions are scored (the issue asks ≥ 17 of 20+).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantBlock, ChatMessage, Task } from '@stockwise/contract';
import { storeIntegration } from '../testing/stored-integration.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';
import { modelToolResults } from '../testing/model-tool-results.ts';
import { refreshCatalogueSummary, upsertProductSummaries } from '../dashboard/repo.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { catalogueRunsSettled } from '../testing/forecast-client.ts';
import { sql } from 'kysely';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TODAY = new Date().toISOString().slice(0, 10);
/** Days before today (1 = yesterday). */
const back = (day: string) => Math.round((Date.parse(`${TODAY}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY_MS);

const FORECAST_START = TODAY;
/** `order`: the forecast's advice (quantity and order-by date), null where it advises none. */
const products = [
  { code: 'MUG-01', name: 'Blue Mug', category: 'Kitchen', stock: 40, cost: 2.5, lead: 10, stockout: addDays(TODAY, 9), order: { quantity: 30, by: TODAY } },
  { code: 'MUG-02', name: 'Red Mug', category: 'Kitchen', stock: 250, cost: 3, lead: 14, stockout: null, order: null },
  { code: 'TEE-01', name: 'Plain Tee', category: 'Clothing', stock: 90, cost: 8, lead: 7, stockout: addDays(TODAY, 19), order: { quantity: 40, by: addDays(TODAY, 12) } },
  // Advised an order, but it sold nothing in the last 90 days: left out of the advice.
  { code: 'CAP-01', name: 'Sun Cap', category: 'Clothing', stock: 500, cost: 5, lead: 20, stockout: null, order: { quantity: 15, by: addDays(TODAY, 31) } },
  { code: 'BAG-01', name: 'Tote Bag', category: 'Clothing', stock: 10, cost: 4, lead: 5, stockout: addDays(TODAY, 2), order: { quantity: 20, by: TODAY } },
  // Three days of history.
  { code: 'NEW-01', name: 'Enamel Jug', category: 'Kitchen', stock: 12, cost: 6, lead: 9, stockout: null, order: null },
  // A name that holds a month's name, and no sales.
  { code: 'MAY-01', name: 'May Flower', category: 'Garden', stock: 7, cost: 1, lead: 5, stockout: null, order: null },
  // Sold only over the turn of 2025 into 2026.
  { code: 'OLD-01', name: 'Advent Candle', category: 'Kitchen', stock: 3, cost: 1.5, lead: 30, stockout: null, order: null },
];
const FIRST_SALE = addDays(TODAY, -150);
/** Units sold per product and day, from 150 days ago to yesterday (and over the turn of 2025). */
function unitsOn(code: string, day: string): number {
  const ago = back(day);
  if (code === 'OLD-01') return day >= '2025-12-20' && day <= '2026-01-10' ? 1 : 0;
  if (ago < 1 || ago > 150) return 0;
  if (code === 'MUG-01') return ago <= 120 ? 3 : 0;
  if (code === 'MUG-02') return ago >= 11 && ago <= 30 ? 1 : 0;
  if (code === 'TEE-01') return ago <= 7 ? 5 : 0;
  if (code === 'CAP-01') return ago === 150 ? 10 : 0;
  if (code === 'NEW-01') return ago <= 3 ? 4 : 0;
  if (code === 'BAG-01') return ago <= 30 ? 2 : 0;
  return 0;
}
const days = (from: string, to: string) => {
  const list: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) list.push(day);
  return list;
};
const SALE_DAYS = [...new Set([...days('2025-12-20', '2026-01-10'), ...days(FIRST_SALE, addDays(TODAY, -1))])];
type Range = { from: string; to: string };
const soldIn = (code: string, range: Range) => days(range.from, range.to).reduce((sum, day) => sum + unitsOn(code, day), 0);
/** The N whole days before today. */
const lastDays = (n: number): Range => ({ from: addDays(TODAY, -n), to: addDays(TODAY, -1) });
const sold = (code: string, span: number) => soldIn(code, lastDays(span));
const monthStart = (offset: number) => new Date(Date.UTC(Number(TODAY.slice(0, 4)), Number(TODAY.slice(5, 7)) - 1 + offset, 1)).toISOString().slice(0, 10);
const previousMonth: Range = { from: monthStart(-1), to: addDays(monthStart(0), -1) };
const thisMonth: Range = { from: monthStart(0), to: TODAY };
const monday = addDays(TODAY, -((new Date(`${TODAY}T00:00:00Z`).getUTCDay() + 6) % 7));
const previousWeek: Range = { from: addDays(monday, -7), to: addDays(monday, -1) };
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const dayWords = (day: string) => `${Number(day.slice(8))} ${SHORT[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
/** "1–31 Oct 2026", "30 Nov–6 Dec 2026", "28 Dec 2025–3 Jan 2026", as the answers name a period. */
function rangeWords({ from, to }: Range): string {
  if (from === to) return dayWords(from);
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${dayWords(from)}–${dayWords(to)}`;
  if (from.slice(0, 7) !== to.slice(0, 7)) return `${Number(from.slice(8))} ${SHORT[Number(from.slice(5, 7)) - 1]}–${dayWords(to)}`;
  return `${Number(from.slice(8))}–${dayWords(to)}`;
}
/** When the stock-outs before a later window fall: one day, one month (its year said when not this one's), or from the first to the last. */
function whenBefore(days: string[]): string {
  const [first, last] = [days[0] as string, days.at(-1) as string];
  if (first === last) return `on ${dayWords(first)}`;
  if (first.slice(0, 7) !== last.slice(0, 7)) return `from ${dayWords(first)} to ${dayWords(last)}`;
  return `in ${LONG[Number(first.slice(5, 7)) - 1]}${first.slice(0, 4) === TODAY.slice(0, 4) ? '' : ` ${first.slice(0, 4)}`}`;
}
/** A stock-out answer's first words for a window that starts after today: what runs out in it, then how many before it. */
function runOutWithin(stockouts: string[], window: Range, words: string): string {
  const inside = stockouts.filter((day) => day >= window.from && day <= window.to).length;
  const earlier = stockouts.filter((day) => day < window.from).sort();
  const before = earlier.length ? `; ${earlier.length} ${earlier.length === 1 ? 'runs' : 'run'} out before it, ${whenBefore(earlier)}` : '';
  return inside ? `${inside} ${inside === 1 ? 'product is' : 'products are'} forecast to run out ${words}${before}. ` : `No product is forecast to run out ${words}${before}.`;
}
/**
 * A reorder report's first words for a window ahead: every order due by its last day, those due
 * before a later start and overdue ones included — what to order next week is all that must be
 * ordered by next Sunday (the dashboard's task and the report writer count the same).
 */
function ordersBy(last: string, words: string): string {
  const due = advised.filter((p) => (p.order?.by as string) <= last);
  if (!due.length) return `No advised order is due by ${dayWords(last)} (${words}); ${advised.length} are due later`;
  const units = due.reduce((sum, p) => sum + (p.order?.quantity ?? 0), 0);
  const cost = due.reduce((sum, p) => sum + (p.order?.quantity ?? 0) * p.cost, 0);
  return `Reorder report: ${due.length} of ${advised.length} advised orders due by ${dayWords(last)} (${words}), ${fmt(units)} units, ${money(cost)} in all.`;
}
const top = (range: Range) =>
  [...products].map((p) => ({ ...p, units: soldIn(p.code, range) })).filter((p) => p.units > 0).sort((a, b) => b.units - a.units || a.code.localeCompare(b.code));
const value = products.reduce((sum, p) => sum + p.stock * p.cost, 0);
const units = products.reduce((sum, p) => sum + p.stock, 0);
const noSales90 = products.filter((p) => sold(p.code, 90) === 0);
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
/** Days left to order in time: to the stockout less the lead time, or to the order-by date when sooner. */
const urgency = (p: (typeof products)[number]) =>
  Math.min(p.stockout ? dayNumber(p.stockout) - dayNumber(FORECAST_START) - p.lead : Infinity, dayNumber(p.order?.by as string) - dayNumber(FORECAST_START));
const advised = products.filter((p) => p.order && sold(p.code, 90) > 0).sort((a, b) => urgency(a) - urgency(b));
const advisedUnits = advised.reduce((sum, p) => sum + (p.order?.quantity ?? 0), 0);
const advisedCost = advised.reduce((sum, p) => sum + (p.order?.quantity ?? 0) * p.cost, 0);
const firstOut = [...products].filter((p) => p.stockout).sort((a, b) => (a.stockout as string).localeCompare(b.stockout as string))[0] as (typeof products)[number];
const fmt = (n: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(n);
/** Money with its pence, as answers write it (QA5 #11): "40,003.80". */
const money = (n: number) => new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const byCode = (code: string) => products.find((p) => p.code === code) as (typeof products)[number];

const textOf = (message: ChatMessage | undefined) => message?.content ?? '';
const blocksOf = <T extends AssistantBlock['type']>(message: ChatMessage | undefined, type: T) => (message?.blocks ?? []).filter((b): b is Extract<AssistantBlock, { type: T }> => b.type === type);

/** A web shop's nightly sales import in Tokyo time (no summer time) and its run at midnight there today: 118 rows inserted, 2 updated, 3 refused. */
async function addShopIntegration(server: TestServer): Promise<{ id: number }> {
  const integration = await storeIntegration(server.database.db, { enabled: true, time_zone: 'Asia/Tokyo' });
  // Midnight in Tokyo: 15:00 UTC the day before.
  await server.database.db.insertInto('integration_logs').values({ integration_id: integration.id, trigger: 'schedule', status: 'success', started_at: `${addDays(TODAY, -1)}T15:00:00Z`, rows_inserted: 118, rows_updated: 2, rows_rejected: 3, rows_skipped: 2, rows_filtered: 5, products_created: 1 }).execute();
  return integration;
}

/**
 * Each product's stock as a count taken today, as the Data screen and imports record a typed figure
 * (ADR 0030): a stored figure without a count row is no count (its amendment 2026-12-04).
 */
const countToday = (db: TestServer['database']['db'], counts: { id: number; stock: number }[]) =>
  db
    .insertInto('data.stock_snapshots')
    .values(counts.map((count) => ({ product_id: count.id, date: TODAY, stock_level: count.stock })))
    .onConflict((oc) => oc.columns(['product_id', 'date']).doUpdateSet((eb) => ({ stock_level: eb.ref('excluded.stock_level') })))
    .execute();

type AddedProduct = { code: string; name: string; category?: string; stock?: number; cost?: number };

/**
 * Products one test adds beside the dataset (stock 10, unit cost 1, lead time 5 unless given), counted
 * today at their stock when `counted`; `remove` takes them out again with their sales and counts.
 */
async function addProducts(db: TestServer['database']['db'], added: AddedProduct[], options: { counted: boolean }) {
  const inserted = await db
    .insertInto('data.products')
    .values(added.map((p) => ({ product_code: p.code, name: p.name, category: p.category ?? null, current_stock: p.stock ?? 10, unit_cost: p.cost ?? 1, lead_time_days: 5 })))
    .returning(['id', 'product_code'])
    .execute();
  const idOf = (code: string) => inserted.find((row) => row.product_code === code)?.id as number;
  if (options.counted) await countToday(db, added.map((p) => ({ id: idOf(p.code), stock: p.stock ?? 10 })));
  const ids = inserted.map((row) => row.id);
  const remove = async () => {
    await db.deleteFrom('data.sales').where('product_id', 'in', ids).execute();
    await db.deleteFrom('data.stock_snapshots').where('product_id', 'in', ids).execute();
    await db.deleteFrom('data.products').where('id', 'in', ids).execute();
  };
  return { inserted, idOf, remove };
}

async function loadDataset(server: TestServer) {
  const db = server.database.db;
  const ids: Record<string, number> = {};
  for (const p of products) {
    ids[p.code] = (await db.insertInto('data.products').values({ product_code: p.code, name: p.name, category: p.category, current_stock: p.stock, unit_cost: p.cost, lead_time_days: p.lead }).returning('id').executeTakeFirstOrThrow()).id;
  }
  await countToday(db, products.map((p) => ({ id: ids[p.code] as number, stock: p.stock })));
  const sales = products.flatMap((p) => SALE_DAYS.map((day) => ({ product_id: ids[p.code] as number, date: day, quantity: unitsOn(p.code, day) })).filter((s) => s.quantity > 0));
  await db.insertInto('data.sales').values(sales).execute();
  await storeCatalogueAdvice(
    db,
    products.map((p) => ({
      productId: ids[p.code] as number,
      forecastStart: FORECAST_START,
      stockouts: p.stockout ? [{ date: p.stockout, type: 'stockForecast' as const }] : [],
      reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: p.order?.quantity ?? 0, orderBy: p.order?.by ?? null, leadTimeDays: p.lead, serviceLevel: 0.95 },
    })),
  );
  await upsertProductSummaries(
    db,
    products.map((p) => ({ productId: ids[p.code] as number, forecastStart: FORECAST_START, cumDemand: [0, 0, 0, 0, 0, 0], cumVariance: [0, 0, 0, 0, 0, 0], firstStockout: p.stockout, orderQuantity: 30 })),
  );
  await db.insertInto('data.deliveries').values([
    { product_id: ids['MUG-02'] as number, expected_date: addDays(TODAY, 5), quantity: 50 },
    { product_id: ids['CAP-01'] as number, expected_date: addDays(TODAY, -3), quantity: 20 },
    { product_id: ids['CAP-01'] as number, expected_date: addDays(TODAY, -30), quantity: 20, status: 'received' },
  ]).execute();
  return ids;
}

describe.each(backends)('assistant on %s', (backend) => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;
  let ids: Record<string, number>;
  const ask = async (body: Record<string, unknown>, token = viewer.access) => {
    const response = await server.request('/api/assistant/messages/', { token, body: { context: { page: 'home', path: '/home' }, ...body } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    viewer = await signUpUser(server, { role: 'viewer' });
    editor = await signUpUser(server, { role: 'editor' });
    ids = await loadDataset(server);
  });
  afterAll(() => server.stop());
  /** A forecast run since the dataset's changed one product's advised order; the dataset's is `byCode(code).order`. */
  const storeOrder = (code: string, order: { quantity: number; by: string | null }) => {
    const product = byCode(code);
    return storeCatalogueAdvice(server.database.db, [
      {
        productId: ids[code] as number,
        forecastStart: FORECAST_START,
        stockouts: product.stockout ? [{ date: product.stockout, type: 'stockForecast' }] : [],
        reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: order.quantity, orderBy: order.by, leadTimeDays: product.lead, serviceLevel: 0.95 },
      },
    ]);
  };

  it("writes money in the shop's currency once an administrator picks one, bare figures before and after it is cleared", async () => {
    const admin = (await signUpUser(server)).access;
    const pick = async (currency: string | null) => expect((await server.request('/api/shop/', { method: 'PUT', token: admin, body: { currency } })).status).toBe(200);
    const inCurrency = (currency: string | null, n: number) => (currency ? new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }) : new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(n);
    const dead = products.filter((p) => sold(p.code, 90) === 0 && p.stock > 0);
    const tee = byCode('TEE-01');
    const sentences = (currency: string | null) => [
      [{ content: 'What is the value of our stock?' }, `The stock on hand is worth ${inCurrency(currency, value)} at unit cost`],
      [{ quick: 'low_stock' }, `most urgent first: ${fmt(advisedUnits)} units, ${inCurrency(currency, advisedCost)} in all.`],
      [{ quick: 'reorder_report' }, `Reorder report: ${advised.length} advised orders, ${fmt(advisedUnits)} units, ${inCurrency(currency, advisedCost)} in all.`],
      [{ content: 'stock of TEE-01' }, `worth ${inCurrency(currency, tee.stock * tee.cost)} at unit cost.`],
      [{ content: 'dead stock' }, `${fmt(dead.reduce((sum, p) => sum + p.stock, 0))} units, ${inCurrency(currency, dead.reduce((sum, p) => sum + p.stock * p.cost, 0))} tied up at unit cost.`],
    ] as const;
    const expectSentences = async (currency: string | null) => {
      for (const [question, said] of sentences(currency)) expect(textOf(await ask(question)), JSON.stringify(question)).toContain(said);
    };
    try {
      await expectSentences(null);
      expect(inCurrency(null, value)).not.toMatch(/[$£€¥]/);
      await pick('USD');
      await expectSentences('USD');
      expect(textOf(await ask({ content: 'What is the value of our stock?' }))).toContain(`worth $${inCurrency(null, value)} at unit cost`);
      // The currency's own places: yen have none.
      await pick('JPY');
      await expectSentences('JPY');
      expect(textOf(await ask({ quick: 'reorder_report' }))).toContain(`, ¥${fmt(Math.round(advisedCost))} in all.`);
      // Revenue ranked by value: the table's value column is money too, for the screen to write in the currency.
      const ranked = await ask({ content: 'revenue of the top 10 products' });
      expect(blocksOf(ranked, 'table')[0]?.columns.find((c) => c.key === 'value')?.kind).toBe('money');
      expect(textOf(ranked)).toMatch(/ \(¥[\d,]+; \d+ units\)/);
    } finally {
      await pick(null);
    }
    await expectSentences(null);
  });

  it('answers at least 17 of the free-text questions right', async () => {
    const [week, month, previous] = [top(previousWeek), top(thisMonth), top(previousMonth)];
    const topAnswer = (list: ReturnType<typeof top>, words: string) => (a: ChatMessage | undefined) => (list[0] ? textOf(a).includes(`Top sellers ${words} by units sold: ${list[0].name} (${list[0].units} units)`) : textOf(a).includes(`Nothing sold ${words}`));
    const cases: [string, (answer: ChatMessage | undefined) => boolean][] = [
      ['How much stock of Blue Mug do we have?', (a) => textOf(a).includes(`${byCode('MUG-01').stock} units on hand`)],
      ['stock of MUG-02', (a) => textOf(a).includes(`${byCode('MUG-02').stock} units on hand`)],
      ['How many Plain Tee are on hand?', (a) => textOf(a).includes(`${byCode('TEE-01').stock} units on hand`)],
      ['What were the top sellers last week?', topAnswer(week, `last week (${rangeWords(previousWeek)})`)],
      ['best sellers this month', topAnswer(month, `this month (${rangeWords(thisMonth)})`)],
      ['Which product sold the most last month?', topAnswer(previous, `last month (${rangeWords(previousMonth)})`)],
      ['What runs out first?', (a) => textOf(a).includes(`${firstOut.name} (${firstOut.code}) runs out first, on ${dayWords(firstOut.stockout as string)}`)],
      ['Which products will run out soonest?', (a) => textOf(a).includes(`${firstOut.name} (${firstOut.code})`)],
      ['What is the value of our stock?', (a) => textOf(a).includes(money(value))],
      ['How much is the inventory worth?', (a) => textOf(a).includes(money(value))],
      ['Sales of Blue Mug last month', (a) => textOf(a).includes(`sold ${soldIn('MUG-01', previousMonth)} units last month (${rangeWords(previousMonth)})`)],
      ['How many Red Mug did we sell last month?', (a) => textOf(a).includes(`sold ${soldIn('MUG-02', previousMonth)} units last month`)],
      ['How many units of Tote Bag sold last week?', (a) => textOf(a).includes(`sold ${soldIn('BAG-01', previousWeek)} units last week (${rangeWords(previousWeek)})`)],
      ['Sales of Sun Cap in the last 30 days', (a) => textOf(a).includes(`sold ${sold('CAP-01', 30)} units in the last 30 days (${rangeWords(lastDays(30))})`)],
      ['Which products have no sales?', (a) => textOf(a).includes(`${noSales90.length} products have no sales in the last 90 days`) && blocksOf(a, 'table')[0]?.rows.map((r) => r.styleCode).join() === noSales90.map((p) => p.code).join()],
      ['Show me products that have not sold', (a) => textOf(a).includes(`${noSales90.length} products have no sales`)],
      ['Show low stock', (a) => textOf(a).includes(`${advised.length} products need an order`)],
      ['What should I reorder?', (a) => blocksOf(a, 'table')[0]?.totals?.cost === advisedCost],
      ['Any deliveries coming?', (a) => textOf(a).includes('1 upcoming delivery; 1 late')],
      ['How much stock do we have in total?', (a) => textOf(a).includes(`${units} units on hand`)],
      ['When will Blue Mug run out?', (a) => textOf(a).includes(`forecast to run out on ${dayWords(byCode('MUG-01').stockout as string)}.`)],
      ["What's the weather tomorrow?", (a) => textOf(a).startsWith("I don't know")],
      ['Add a task to call the mug supplier', (a) => blocksOf(a, 'action')[0]?.payload.text === 'call the mug supplier'],
      ['Create the recommended orders', (a) => blocksOf(a, 'action')[0]?.action === 'create_recommended_orders'],
    ];
    const wrong: string[] = [];
    const noted: string[] = [];
    for (const [question, check] of cases) {
      const answer = await ask({ content: question });
      if (!check(answer)) wrong.push(`${question} -> ${textOf(answer)}`);
      if (textOf(answer).includes('I did not use')) noted.push(`${question} -> ${textOf(answer)}`);
    }
    // Every word of these questions is used: no note about ignored words.
    expect(noted).toEqual([]);
    const score = cases.length - wrong.length;
    console.info(`assistant free-text score on ${backend}: ${score}/${cases.length}${wrong.length ? `; wrong: ${wrong.join(' | ')}` : ''}`);
    expect(score).toBeGreaterThanOrEqual(17);
  });

  it('links product answers to the product forecast', async () => {
    const answer = await ask({ content: 'stock of Blue Mug' });
    expect(blocksOf(answer, 'link')).toEqual([{ type: 'link', label: 'Forecast for Blue Mug', href: '/app/forecasting?product=MUG-01' }]);
  });

  it('answers sales for the period the question names, with its dates', async () => {
    // A named month without a year is its latest occurrence that has started.
    const month = Number(TODAY.slice(5, 7));
    const october: Range = month >= 10 ? { from: `${TODAY.slice(0, 4)}-10-01`, to: `${TODAY.slice(0, 4)}-10-31` } : { from: `${Number(TODAY.slice(0, 4)) - 1}-10-01`, to: `${Number(TODAY.slice(0, 4)) - 1}-10-31` };
    const upToToday = (range: Range): Range => ({ from: range.from, to: range.to > TODAY ? TODAY : range.to });
    const yesterday: Range = { from: addDays(TODAY, -1), to: addDays(TODAY, -1) };
    const since = addDays(TODAY, -20);
    const dayFirst = (day: string, withYear: boolean) => `${Number(day.slice(8))}/${Number(day.slice(5, 7))}${withYear ? `/${day.slice(0, 4)}` : ''}`;
    const quietMonth = monthStart(-8);
    const quiet: Range = { from: quietMonth, to: addDays(monthStart(-7), -1) };
    const cases: [string, string][] = [
      ['how much did MUG-01 sell in October', `Blue Mug (MUG-01) sold ${soldIn('MUG-01', upToToday(october))} units in October ${october.from.slice(0, 4)} (${rangeWords(upToToday(october))}).`],
      ['how much did Blue Mug sell in 2025', `sold ${soldIn('MUG-01', { from: '2025-01-01', to: '2025-12-31' })} units in 2025 (1 Jan–31 Dec 2025).`],
      ['how much did Blue Mug sell yesterday', `sold ${soldIn('MUG-01', yesterday)} units yesterday (${rangeWords(yesterday)}).`],
      ['how much did Blue Mug sell last week', `sold ${soldIn('MUG-01', previousWeek)} units last week (${rangeWords(previousWeek)}).`],
      ['how much did Blue Mug sell last month', `sold ${soldIn('MUG-01', previousMonth)} units last month (${rangeWords(previousMonth)}).`],
      ['how much did Blue Mug sell in the last 30 days', `sold ${sold('MUG-01', 30)} units in the last 30 days (${rangeWords(lastDays(30))}).`],
      ['how much did Blue Mug sell in the last 2 weeks', `sold ${sold('MUG-01', 14)} units in the last 14 days (${rangeWords(lastDays(14))}).`],
      [`how much did Blue Mug sell since ${dayFirst(since, true)}`, `sold ${soldIn('MUG-01', { from: since, to: TODAY })} units since ${dayWords(since)} (${rangeWords({ from: since, to: TODAY })}).`],
      // Day-first without a year: the latest such day.
      [`Blue Mug sales since ${dayFirst(since, false)}`, `sold ${soldIn('MUG-01', { from: since, to: TODAY })} units since ${dayWords(since)}`],
      // Over a year end, dates day-first as the shop writes them.
      ['how much did OLD-01 sell from 28/12/2025 to 3/1/2026', `Advent Candle (OLD-01) sold 7 units from 28 Dec 2025 to 3 Jan 2026.`],
      // A month without sales answers 0 for that month, not "no data".
      [`how much did Blue Mug sell in ${LONG[Number(quietMonth.slice(5, 7)) - 1]} ${quietMonth.slice(0, 4)}`, `sold 0 units in ${LONG[Number(quietMonth.slice(5, 7)) - 1]} ${quietMonth.slice(0, 4)} (${rangeWords(quiet)}).`],
      // A product's name is not read as a period.
      ['sales of May Flower', `May Flower (MAY-01) sold 0 units in the last 30 days (${rangeWords(lastDays(30))}). It has no sales recorded.`],
      // Three days of history: the answer says when its sales start.
      ['how much did the Enamel Jug sell in the last 30 days', `Enamel Jug (NEW-01) sold 12 units in the last 30 days (${rangeWords(lastDays(30))}). Its sales start on ${dayWords(addDays(TODAY, -3))}.`],
    ];
    for (const [question, expected] of cases) expect(textOf(await ask({ content: question })), question).toContain(expected);
  });

  it('answers units sold, not units on hand, when asked how many units were sold', async () => {
    const answer = await ask({ content: 'how many units did we sell last month' });
    const total = products.reduce((sum, p) => sum + soldIn(p.code, previousMonth), 0);
    const sellers = products.filter((p) => soldIn(p.code, previousMonth) > 0).length;
    expect(textOf(answer)).toContain(`${fmt(total)} units were sold last month (${rangeWords(previousMonth)}), by ${sellers} products.`);
    expect(textOf(answer)).not.toContain('on hand');
  });

  it('answers each product a question names', async () => {
    const sales = await ask({ content: 'how much did MUG-01 and TEE-01 sell in the last 7 days' });
    expect(textOf(sales)).toContain(`Blue Mug (MUG-01) sold ${sold('MUG-01', 7)} units in the last 7 days`);
    expect(textOf(sales)).toContain(`Plain Tee (TEE-01) sold ${sold('TEE-01', 7)} units in the last 7 days`);
    expect(blocksOf(sales, 'table')[0]?.rows).toEqual([
      { styleCode: 'MUG-01', name: 'Blue Mug', units: sold('MUG-01', 7), unit: null },
      { styleCode: 'TEE-01', name: 'Plain Tee', units: sold('TEE-01', 7), unit: null },
    ]);
    const stock = await ask({ content: 'stock of Blue Mug and Red Mug' });
    expect(textOf(stock)).toContain(`Blue Mug (MUG-01) has ${byCode('MUG-01').stock} units on hand`);
    expect(textOf(stock)).toContain(`Red Mug (MUG-02) has ${byCode('MUG-02').stock} units on hand`);
  });

  it('keeps the orders due in the window a reorder question names', async () => {
    const sunday = addDays(monday, 6);
    const dueThisWeek = advised.filter((p) => (p.order?.by as string) <= sunday);
    const week = await ask({ content: 'reorder this week' });
    expect(textOf(week)).toContain(`Reorder report: ${dueThisWeek.length} of ${advised.length} advised orders due by ${dayWords(sunday)} (this week)`);
    expect(blocksOf(week, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(dueThisWeek.map((p) => p.code));
    const fortnight = await ask({ content: 'what needs ordering in the next 14 days' });
    const dueFortnight = advised.filter((p) => (p.order?.by as string) <= addDays(TODAY, 13));
    expect(textOf(fortnight)).toContain(`${dueFortnight.length} of the ${advised.length} products that need an order must be ordered by ${dayWords(addDays(TODAY, 13))} (the next 14 days)`);
    expect(blocksOf(fortnight, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(dueFortnight.map((p) => p.code));
  });

  it('reads calendar quarters', async () => {
    const quarterStart = (offset: number) => monthStart(offset - ((Number(TODAY.slice(5, 7)) - 1) % 3));
    const lastQuarter: Range = { from: quarterStart(-3), to: addDays(quarterStart(0), -1) };
    const thisQuarter: Range = { from: quarterStart(0), to: TODAY };
    const last = await ask({ content: 'how much did Blue Mug sell last quarter' });
    expect(textOf(last)).toContain(`Blue Mug (MUG-01) sold ${soldIn('MUG-01', lastQuarter)} units last quarter (${rangeWords(lastQuarter)}).`);
    expect(textOf(last)).not.toContain('I did not use');
    const current = await ask({ content: 'how many units did we sell this quarter' });
    const total = products.reduce((sum, p) => sum + soldIn(p.code, thisQuarter), 0);
    expect(textOf(current)).toContain(`${fmt(total)} units were sold this quarter (${rangeWords(thisQuarter)})`);
    // Q4 2025 holds the Advent Candle's sales from 20 to 31 December.
    expect(textOf(await ask({ content: 'how much did OLD-01 sell in Q4 2025' }))).toContain('Advent Candle (OLD-01) sold 12 units in Q4 2025 (1 Oct–31 Dec 2025).');
    expect(textOf(await ask({ content: 'how much did OLD-01 sell in the first quarter of 2026' }))).toContain('Advent Candle (OLD-01) sold 10 units in Q1 2026 (1 Jan–31 Mar 2026).');
  });

  it('reads windows ahead on order and stock-out questions, and says a sales period ahead has no sales yet', async () => {
    const nextMonday = addDays(monday, 7);
    const nextSunday = addDays(nextMonday, 6);
    // Next week starts after today: every order due by its Sunday, those due sooner (overdue too) included.
    const dueByNextWeek = advised.filter((p) => (p.order?.by as string) <= nextSunday);
    const week = await ask({ content: 'what needs ordering next week' });
    expect(textOf(week)).toContain(
      dueByNextWeek.length ? `${dueByNextWeek.length} of the ${advised.length} products that need an order must be ordered by ${dayWords(nextSunday)} (next week)` : `No advised order is due by ${dayWords(nextSunday)} (next week)`,
    );
    expect(textOf(week)).not.toContain('before it');
    expect(blocksOf(week, 'table')[0]?.rows.map((r) => r.styleCode) ?? []).toEqual(dueByNextWeek.map((p) => p.code));
    expect(textOf(week)).not.toContain('I did not use');
    const nextWeekWords = rangeWords({ from: nextMonday, to: nextSunday });
    // A date without a year, day-first, ahead: its next occurrence.
    const by = addDays(TODAY, 10);
    const runOut = products.filter((p) => p.stockout && p.stockout <= by).sort((a, b) => (a.stockout as string).localeCompare(b.stockout as string));
    const out = await ask({ content: `which products run out by ${Number(by.slice(8))}/${Number(by.slice(5, 7))}` });
    // The window's words are its last day: said once.
    expect(textOf(out)).toContain(`${runOut.length} products are forecast to run out by ${dayWords(by)}. `);
    expect(textOf(out)).not.toContain(`(by ${dayWords(by)})`);
    expect(blocksOf(out, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(runOut.map((p) => p.code));
    const before = addDays(TODAY, 13);
    const dueBefore = advised.filter((p) => (p.order?.by as string) < before);
    const ordered = await ask({ content: `which products must be ordered before ${Number(before.slice(8))} ${LONG[Number(before.slice(5, 7)) - 1]}` });
    expect(textOf(ordered)).toContain(`Reorder report: ${dueBefore.length} of ${advised.length} advised orders due by ${dayWords(addDays(before, -1))} (before ${dayWords(before)})`);
    expect(textOf(ordered)).not.toContain('I did not use');

    const future = await ask({ content: 'how many units will we sell next week' });
    expect(textOf(future)).toContain(`There are no sales after today (${dayWords(TODAY)}): the period asked for, next week (${nextWeekWords}), is still to come.`);
    expect(blocksOf(future, 'link')[0]?.href).toBe('/app/forecasting');
    expect(textOf(await ask({ content: 'top sellers in the next 30 days' }))).toContain(`the period asked for, the next 30 days (${rangeWords({ from: TODAY, to: addDays(TODAY, 29) })}), is still to come.`);
    const nextYear = Number(TODAY.slice(0, 4)) + 1;
    expect(textOf(await ask({ content: `how much did Blue Mug sell in Q1 ${nextYear}` }))).toContain(`the period asked for, Q1 ${nextYear} (1 Jan–31 Mar ${nextYear}), is still to come.`);
  });

  it('reads a month or quarter named on a stock-out or order question as a window ahead: its next occurrence, this one from today', async () => {
    const forecastEnd = addDays(FORECAST_START, 89);
    const named = (start: string) => `${LONG[Number(start.slice(5, 7)) - 1]} ${start.slice(0, 4)}`;
    const monthName = (start: string) => LONG[Number(start.slice(5, 7)) - 1] as string;
    const stockouts = products.flatMap((p) => (p.stockout ? [p.stockout] : []));
    /** The answer's first line for a window under way: what runs out from today by `last`, the window's last day, named `words` once. */
    const runOut = (last: string, words: string) => {
      const count = stockouts.filter((day) => day <= last).length;
      if (!count) return `No product is forecast to run out by ${dayWords(last)} (${words}).`;
      return `${count} ${count === 1 ? 'product is' : 'products are'} forecast to run out by ${dayWords(last)} (${words}).`;
    };
    const thisMonthEnd = addDays(monthStart(1), -1);
    const current = textOf(await ask({ content: `which products run out in ${monthName(monthStart(0))}?` }));
    expect(current).toContain(runOut(thisMonthEnd, named(monthStart(0))));
    expect(current).not.toContain('I did not use');
    // Next month starts after today: what runs out in it, and how many before it.
    const nextMonthEnd = addDays(monthStart(2), -1);
    const nextMonth: Range = { from: monthStart(1), to: nextMonthEnd };
    expect(textOf(await ask({ content: `what will run out in ${monthName(monthStart(1))}` }))).toContain(runOutWithin(stockouts, nextMonth, `in ${named(monthStart(1))}`));
    // Last month's name without a year is its next occurrence, eleven months on: past the forecasts, and said so.
    const coming = monthStart(11);
    const lastMonthsName = textOf(await ask({ content: `what runs out in ${monthName(coming)}` }));
    expect(lastMonthsName).toContain(runOutWithin(stockouts, { from: coming, to: addDays(monthStart(12), -1) }, `in ${named(coming)}`));
    expect(lastMonthsName).toContain(`The forecasts reach to ${dayWords(forecastEnd)}: a product running out after that is not known yet.`);
    // A quarter: this one from today to its end; with a year, that one.
    const quarterEnd = addDays(monthStart(3 - ((Number(TODAY.slice(5, 7)) - 1) % 3)), -1);
    const quarter = Math.ceil(Number(TODAY.slice(5, 7)) / 3);
    expect(textOf(await ask({ content: `what runs out in Q${quarter}` }))).toContain(runOut(quarterEnd, `Q${quarter} ${TODAY.slice(0, 4)}`));
    const nextYear = Number(TODAY.slice(0, 4)) + 1;
    expect(textOf(await ask({ content: `what runs out in Q1 ${nextYear}?` }))).toContain(runOutWithin(stockouts, { from: `${nextYear}-01-01`, to: `${nextYear}-03-31` }, `in Q1 ${nextYear}`));
    // A month with a year that has ended: said to be over, not answered with none.
    const past = monthStart(-1);
    expect(textOf(await ask({ content: `which products run out in ${named(past)}` }))).toBe(
      `The window asked for, by ${dayWords(addDays(monthStart(0), -1))} (${named(past)}), ended before today (${dayWords(TODAY)}): the forecasts look ahead from today. Ask for a window still to come, such as next month, in January or by 24/12.`,
    );
    // Orders in next month's name: all due by its last day, the ones due sooner and overdue too.
    const orders = textOf(await ask({ content: `which products must be ordered in ${monthName(monthStart(1))}` }));
    expect(orders).toContain(ordersBy(nextMonthEnd, named(monthStart(1))));
    expect(orders).not.toContain('I did not use');
    // A sales question keeps the month named without a year as its latest that has started: next month's name is last year's.
    const lastYears: Range = { from: monthStart(-11), to: addDays(monthStart(-10), -1) };
    const total = products.reduce((sum, p) => sum + soldIn(p.code, lastYears), 0);
    const sold = textOf(await ask({ content: `how many units did we sell in ${monthName(monthStart(1))}` }));
    expect(sold).toContain(total ? `${fmt(total)} units were sold in ${named(lastYears.from)} (${rangeWords(lastYears)})` : `No units were sold in ${named(lastYears.from)} (${rangeWords(lastYears)}).`);
    // A month that does not exist is said back, under the answer without a window.
    const smarch = textOf(await ask({ content: 'what runs out in Smarch' }));
    expect(smarch).toContain(`${firstOut.name} (${firstOut.code}) runs out first, on ${dayWords(firstOut.stockout as string)}.`);
    expect(smarch).toContain('I did not use "Smarch"');
  });

  it('counts a window that starts later within it, saying what runs out or is due before it; a window from today counts what is already out', async () => {
    const db = server.database.db;
    const named = (start: string) => `${LONG[Number(start.slice(5, 7)) - 1]} ${start.slice(0, 4)}`;
    const monthName = (start: string) => LONG[Number(start.slice(5, 7)) - 1] as string;
    /** A forecast run since the dataset's: these products' first stock-out days. */
    const storeStockouts = (days: Record<string, string | null>) =>
      upsertProductSummaries(
        db,
        Object.entries(days).map(([code, firstStockout]) => ({ productId: ids[code] as number, forecastStart: FORECAST_START, cumDemand: [0, 0, 0, 0, 0, 0], cumVariance: [0, 0, 0, 0, 0, 0], firstStockout, orderQuantity: 30 })),
      );
    // Tote Bag is out today; Blue Mug and Plain Tee run out early next month.
    const moved = { 'BAG-01': TODAY, 'MUG-01': monthStart(1), 'TEE-01': addDays(monthStart(1), 1) };
    await storeStockouts(moved);
    try {
      // The month after next holds none of them: said so, with the three that run out before it.
      const later = monthStart(2);
      expect(textOf(await ask({ content: `which products run out in ${monthName(later)}?` }))).toContain(
        `No product is forecast to run out in ${named(later)}; 3 run out before it, from ${dayWords(TODAY)} to ${dayWords(addDays(monthStart(1), 1))}.`,
      );
      // Next month holds two; the one out today is not "running out next month", but it is said.
      const nextMonth = await ask({ content: 'which products run out next month' });
      const nextMonthWords = rangeWords({ from: monthStart(1), to: addDays(monthStart(2), -1) });
      expect(textOf(nextMonth)).toContain(`2 products are forecast to run out next month (${nextMonthWords}); 1 runs out before it, on ${dayWords(TODAY)}. The first of them is Blue Mug (MUG-01), on ${dayWords(monthStart(1))}.`);
      expect(blocksOf(nextMonth, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(['MUG-01', 'TEE-01']);
      // A window from today counts from today, the product already out included.
      const week = await ask({ content: 'what runs out in the next 7 days' });
      const inWeek = Object.entries(moved).filter(([, day]) => day <= addDays(TODAY, 6)).map(([code]) => code);
      expect(textOf(week)).toContain(`${inWeek.length} ${inWeek.length === 1 ? 'product is' : 'products are'} forecast to run out by ${dayWords(addDays(TODAY, 6))} (the next 7 days). Tote Bag (BAG-01) runs out first, on ${dayWords(TODAY)}.`);
      expect(blocksOf(week, 'table')[0]?.rows.map((r) => r.styleCode)).toContain('BAG-01');
      expect(textOf(await ask({ content: 'what runs out this month' }))).toContain(`1 product is forecast to run out by ${dayWords(addDays(monthStart(1), -1))} (this month). Tote Bag (BAG-01) runs out first`);
      // Orders, unlike stock-outs: all due by the window's last day, today's and overdue ones among them.
      const nextSunday = addDays(monday, 13);
      const orders = await ask({ content: 'what must I order next week?' });
      expect(textOf(orders)).toContain(ordersBy(nextSunday, 'next week'));
      expect(blocksOf(orders, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(expect.arrayContaining(advised.filter((p) => (p.order?.by as string) <= TODAY).map((p) => p.code)));
      expect(textOf(orders)).not.toContain('I did not use');
    } finally {
      await storeStockouts(Object.fromEntries(Object.keys(moved).map((code) => [code, byCode(code).stockout])));
    }
  });

  it('reads "by D" on a sales question as the year to date up to D, and D still to come as having no sales yet', async () => {
    const day = addDays(TODAY, -10);
    const yearToDay: Range = { from: `${day.slice(0, 4)}-01-01`, to: day };
    const total = products.reduce((sum, p) => sum + soldIn(p.code, yearToDay), 0);
    const sellers = products.filter((p) => soldIn(p.code, yearToDay) > 0).length;
    const all = textOf(await ask({ content: `how many units did we sell by ${Number(day.slice(8))}/${Number(day.slice(5, 7))}` }));
    expect(all).toContain(`${fmt(total)} units were sold up to ${dayWords(day)} (${rangeWords(yearToDay)}), by ${sellers} products.`);
    expect(all).not.toContain('I did not use');
    // Day-first ending in a dot, as "24.12.".
    expect(textOf(await ask({ content: `how much did Blue Mug sell by ${Number(day.slice(8))}.${Number(day.slice(5, 7))}.` }))).toContain(
      `Blue Mug (MUG-01) sold ${fmt(soldIn('MUG-01', yearToDay))} units up to ${dayWords(day)} (${rangeWords(yearToDay)}).`,
    );
    const later = addDays(TODAY, 10);
    const ahead = await ask({ content: `units sold by ${Number(later.slice(8))}.${Number(later.slice(5, 7))}.` });
    expect(textOf(ahead)).toContain(`There are no sales after today (${dayWords(TODAY)}): the period asked for, up to ${dayWords(later)}, is still to come.`);
    expect(blocksOf(ahead, 'link')[0]?.href).toBe('/app/forecasting');
    // No such day: said back, under the answer for the last 30 days.
    // No such day: said, not another period answered (QA5 #20).
    expect(textOf(await ask({ content: 'how many units did we sell by 31/02' }))).toBe('There is no 31 February. February has at most 29 days. Ask again with a day of the calendar.');
  });

  it('says where the forecasts end when a window ahead reaches past them', async () => {
    // The stored forecasts run 90 days from their start, that day the first.
    const forecastEnd = addDays(FORECAST_START, 89);
    const quarterStart = (offset: number) => monthStart(offset - ((Number(TODAY.slice(5, 7)) - 1) % 3));
    // Next quarter ends at least 90 days after today: past the forecasts.
    const nextQuarterEnd = addDays(quarterStart(6), -1);
    const nextQuarter: Range = { from: quarterStart(3), to: nextQuarterEnd };
    const stockouts = products.flatMap((p) => (p.stockout ? [p.stockout] : []));
    const quarter = textOf(await ask({ content: 'which products run out next quarter' }));
    expect(quarter).toContain(runOutWithin(stockouts, nextQuarter, `next quarter (${rangeWords(nextQuarter)})`));
    expect(quarter).toContain(`The forecasts reach to ${dayWords(forecastEnd)}: a product running out after that is not known yet.`);
    const orders = textOf(await ask({ content: 'reorder next quarter' }));
    expect(orders).toContain(ordersBy(nextQuarterEnd, 'next quarter'));
    expect(orders).toContain(`The forecasts reach to ${dayWords(forecastEnd)}: an order due after that is not known yet.`);
    // A window inside the forecasts: nothing to add.
    expect(textOf(await ask({ content: 'which products run out next week' }))).not.toContain('The forecasts reach');
    expect(textOf(await ask({ content: 'reorder in the next 14 days' }))).not.toContain('The forecasts reach');
  });

  it('writes numbers with thousands separators in every answer, and says plainly when nothing sold', async () => {
    const db = server.database.db;
    const bag = byCode('BAG-01');
    await storeOrder('BAG-01', { quantity: 12_000, by: bag.order?.by ?? null });
    const orderUnits = advisedUnits - (bag.order?.quantity ?? 0) + 12_000;
    const orderCost = advisedCost + (12_000 - (bag.order?.quantity ?? 0)) * bag.cost;
    expect(textOf(await ask({ quick: 'low_stock' }))).toContain(`${advised.length} products need an order, most urgent first: ${fmt(orderUnits)} units, ${money(orderCost)} in all.`);
    expect(textOf(await ask({ quick: 'reorder_report' }))).toContain(`Reorder report: ${advised.length} advised orders, ${fmt(orderUnits)} units, ${money(orderCost)} in all.`);
    await storeOrder('BAG-01', bag.order as { quantity: number; by: string });

    // A count re-forecasts its product (ADR 0133), which stores what is on hand with the forecast.
    const recountMug = async (stock: number) => {
      await countToday(db, [{ id: ids['MUG-02'] as number, stock }]);
      await storeOrder('MUG-02', { quantity: 0, by: null });
    };
    await recountMug(12_345);
    expect(textOf(await ask({ content: 'stock of MUG-02' }))).toContain('Red Mug (MUG-02) has 12,345 units on hand');
    expect(textOf(await ask({ content: 'How much stock do we have in total?' }))).toContain(`There are ${fmt(units - byCode('MUG-02').stock + 12_345)} units on hand`);
    await recountMug(byCode('MUG-02').stock);

    const yesterday = addDays(TODAY, -1);
    const sale = await db.insertInto('data.sales').values({ product_id: ids['MAY-01'] as number, date: yesterday, quantity: 2_500 }).returning('id').executeTakeFirstOrThrow();
    expect(textOf(await ask({ content: 'top sellers yesterday' }))).toContain(`Top sellers yesterday (${dayWords(yesterday)}) by units sold: May Flower (2,500 units)`);
    await db.deleteFrom('data.sales').where('id', '=', sale.id).execute();

    // The dataset's sales end yesterday: none today, said without zeros.
    const today = textOf(await ask({ content: 'how many units did we sell today' }));
    expect(today).toContain(`No units were sold today (${dayWords(TODAY)}).`);
    expect(today).not.toMatch(/\b0 (units|products)\b/);
  });

  it('reads "the next 7 days" as the dashboard reorder task does, which names their last day', async () => {
    const db = server.database.db;
    // TEE-01's order due on the 8th day from today (today the 1st): in neither.
    await storeOrder('TEE-01', { quantity: byCode('TEE-01').order?.quantity as number, by: addDays(TODAY, 7) });
    await refreshCatalogueSummary(db);
    const lastDay = addDays(TODAY, 6);
    const due = advised.filter((p) => p.code !== 'TEE-01' && (p.order?.by as string) <= lastDay);
    expect(textOf(await ask({ content: 'what should I order in the next 7 days' }))).toContain(`Reorder report: ${due.length} of ${advised.length} advised orders due by ${dayWords(lastDay)} (the next 7 days)`);
    const tasks = (await server.request('/api/dashboard/tasks/', { token: viewer.access })).json as unknown as Task[];
    expect(tasks.find((t) => t.kind === 'reorder')?.text).toBe(`Order ${due.length} products due in the next 7 days, by ${dayWords(lastDay).slice(0, -5)} (${advised.length} on the reorder list)`);
    await storeOrder('TEE-01', byCode('TEE-01').order as { quantity: number; by: string });
    await refreshCatalogueSummary(db);
  });

  it('gives the same orders to place in the next 7 days, this week and next week on the dashboard, in the assistant and in the report writer', async () => {
    const db = server.database.db;
    // Blue Mug's order overdue by three days, Plain Tee's due on the 8th day from today: the windows differ by them.
    await storeOrder('MUG-01', { quantity: 30, by: addDays(TODAY, -3) });
    await storeOrder('TEE-01', { quantity: 40, by: addDays(TODAY, 7) });
    await refreshCatalogueSummary(db);
    const orderBy: Record<string, string> = { ...Object.fromEntries(advised.map((p) => [p.code, p.order?.by as string])), 'MUG-01': addDays(TODAY, -3), 'TEE-01': addDays(TODAY, 7) };
    const dueBy = (last: string) => advised.filter((p) => (orderBy[p.code] as string) <= last).map((p) => p.code).sort();
    try {
      const windows: [string, string][] = [
        ['in the next 7 days', addDays(TODAY, 6)],
        ['this week', addDays(monday, 6)],
        ['next week', addDays(monday, 13)],
      ];
      for (const [window, last] of windows) {
        const expected = dueBy(last);
        expect(expected, window).toContain('MUG-01');
        const answer = await ask({ content: `What do I need to order ${window}?` });
        expect(textOf(answer), window).toContain(`${expected.length} of ${advised.length} advised orders due by ${dayWords(last)}`);
        expect(textOf(answer), window).not.toContain('I did not use');
        expect((blocksOf(answer, 'table')[0]?.rows ?? []).flatMap((r) => (r.styleCode === 'Total' ? [] : [r.styleCode])).sort(), window).toEqual(expected);
        const written = (
          await server.request('/api/user-reports/generate-from-request/', {
            token: editor.access,
            body: { report_id: null, change_request: `what to reorder ${window}`, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
          })
        ).json as { sql_code: string; notice: string | null };
        expect(written.notice, window).toBeNull();
        const run = (await server.request('/api/user-reports/execute/', { token: viewer.access, body: { sql_code: written.sql_code } })).json as { results: { product_code: string }[] };
        expect(run.results.map((r) => r.product_code).sort(), `${window}\n${written.sql_code}`).toEqual(expected);
      }
      const tasks = (await server.request('/api/dashboard/tasks/', { token: viewer.access })).json as unknown as Task[];
      expect(tasks.find((t) => t.kind === 'reorder')?.text).toBe(`Order ${dueBy(addDays(TODAY, 6)).length} products due in the next 7 days, by ${dayWords(addDays(TODAY, 6)).slice(0, -5)} (${advised.length} on the reorder list)`);
    } finally {
      await storeOrder('MUG-01', byCode('MUG-01').order as { quantity: number; by: string });
      await storeOrder('TEE-01', byCode('TEE-01').order as { quantity: number; by: string });
      await refreshCatalogueSummary(db);
    }
  });

  it('says which words of the question it did not use', async () => {
    const answer = await ask({ content: 'how much did Blue Mug sell last month from supplier Acme' });
    expect(textOf(answer)).toContain(`sold ${soldIn('MUG-01', previousMonth)} units last month`);
    expect(textOf(answer)).toContain('I did not use "supplier Acme": this answer does not filter or break down by it.');
    const orders = await ask({ content: 'Create the recommended orders for supplier Acme' });
    expect(blocksOf(orders, 'action')[0]?.action).toBe('create_recommended_orders');
    expect(textOf(orders)).toContain('I did not use "supplier Acme"');
  });

  it('says how suppliers are recorded when asked which products have none and no product has any', async () => {
    const answer = await ask({ content: 'which products have no supplier?' });
    expect(textOf(answer)).toBe("No product has a supplier yet: set each product's Supplier on the Data screen, or import the products again with a Supplier column.");
    expect(blocksOf(answer, 'table')).toEqual([]);
    expect(blocksOf(answer, 'link')[0]?.href).toBe('/app/datatab?table=products');
  });

  it('reads "not sold in N days" as the last N days, and uses the number said', async () => {
    const quiet = (span: number) => products.filter((p) => sold(p.code, span) === 0).map((p) => p.code);
    for (const [question, span] of [['which products have not sold in 60 days?', 60], ['products with no sales for 8 weeks', 56], ["what haven't we sold in 100 days", 100]] as const) {
      const answer = await ask({ content: question });
      expect(textOf(answer), question).toContain(`${quiet(span).length} products have no sales in the last ${span} days (${rangeWords(lastDays(span))}).`);
      expect(blocksOf(answer, 'table')[0]?.rows.map((r) => r.styleCode), question).toEqual(quiet(span));
    }
    // "Top 3" lists three, not the five listed when no number is said.
    const three = await ask({ content: 'top 3 sellers in the last 30 days' });
    expect(blocksOf(three, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(top(lastDays(30)).slice(0, 3).map((p) => p.code));
  });

  it('narrows sales answers to a category named in any case or number', async () => {
    const kitchen = (range: Range) => top(range).filter((p) => p.category === 'Kitchen');
    const best = await ask({ content: 'what sells best in the kitchen category?' });
    expect(textOf(best)).toContain(`Top sellers in the Kitchen category in the last 30 days (${rangeWords(lastDays(30))}) by units sold: ${kitchen(lastDays(30)).map((p) => `${p.name} (${p.units} units)`).join(', ')}.`);
    expect(textOf(best)).not.toContain('I did not use');
    const month = await ask({ content: 'best selling Kitchen products last month' });
    expect(blocksOf(month, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(kitchen(previousMonth).slice(0, 5).map((p) => p.code));
    const units = await ask({ content: 'how many units did we sell in clothing last month' });
    const clothing = products.filter((p) => p.category === 'Clothing').reduce((sum, p) => sum + soldIn(p.code, previousMonth), 0);
    expect(textOf(units)).toContain(`${fmt(clothing)} units were sold in the Clothing category last month (${rangeWords(previousMonth)})`);
    const none = await ask({ content: 'which kitchen products have not sold in 60 days?' });
    expect(blocksOf(none, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(products.filter((p) => p.category === 'Kitchen' && sold(p.code, 60) === 0).map((p) => p.code));
  });

  it('names the best month (worst week) of a period, with the months as a table', async () => {
    const year = TODAY.slice(0, 4);
    // The whole months of this year that have ended: this month is still under way.
    const months = Array.from({ length: Number(TODAY.slice(5, 7)) - 1 }, (_, i) => {
      const range: Range = { from: `${year}-${String(i + 1).padStart(2, '0')}-01`, to: addDays(new Date(Date.UTC(Number(year), i + 1, 1)).toISOString().slice(0, 10), -1) };
      return { name: `${LONG[i]} ${year}`, start: range.from, units: products.reduce((sum, p) => sum + soldIn(p.code, range), 0) };
    }).sort((a, b) => b.units - a.units || a.start.localeCompare(b.start));
    const answer = await ask({ content: 'what was the best month this year?' });
    const first = months[0];
    if (!first) {
      expect(textOf(answer)).toContain('No whole month this year');
      return;
    }
    expect(textOf(answer)).toContain(`The best month this year (${rangeWords({ from: `${year}-01-01`, to: TODAY })}) was ${first.name}: ${fmt(first.units)} units sold.`);
    expect(textOf(answer)).not.toContain('I did not use');
    expect(blocksOf(answer, 'table')[0]?.rows.map((r) => r.units)).toEqual(months.map((m) => m.units));
    const worst = await ask({ content: 'worst selling month this year' });
    expect(textOf(worst)).toContain(`The worst month this year`);
    expect(blocksOf(worst, 'table')[0]?.rows[0]?.units).toBe(Math.min(...months.map((m) => m.units)));
  });

  it('compares two periods: both figures and the change, a month under way with the same days of the other', async () => {
    const total = (range: Range) => products.reduce((sum, p) => sum + soldIn(p.code, range), 0);
    // This month is under way: it runs to the last day with sales (yesterday), and last month counts as many days from its start.
    const yesterday = addDays(TODAY, -1);
    const soFar: Range = { from: thisMonth.from, to: yesterday < thisMonth.from ? thisMonth.from : yesterday };
    const sameDaysTo = addDays(previousMonth.from, back(thisMonth.from) - back(soFar.to));
    const sameDays: Range = { from: previousMonth.from, to: sameDaysTo < previousMonth.to ? sameDaysTo : previousMonth.to };
    const [before, after] = [total(sameDays), total(soFar)];
    const answer = await ask({ content: 'sales this month vs last month' });
    const change = after - before;
    const percent = before ? ` (${change >= 0 ? '+' : ''}${fmt(Math.round((1000 * change) / before) / 10)}%)` : '';
    expect(textOf(answer)).toContain(
      `Units sold in the same days of last month (${rangeWords(sameDays)}): ${fmt(before)}; this month so far (${rangeWords(soFar)}): ${fmt(after)}. That is ${change === 0 ? 'no change' : `${change > 0 ? 'up' : 'down'} ${fmt(Math.abs(change))} units${percent}`}.`,
    );
    expect(textOf(answer)).not.toContain('I did not use');
    expect(blocksOf(answer, 'table')[0]?.rows.map((r) => r.units)).toEqual([before, after]);
    const mug = await ask({ content: 'compare sales of Blue Mug last month with this month' });
    expect(textOf(mug)).toContain(`Units sold of Blue Mug (MUG-01) in the same days of last month (${rangeWords(sameDays)}): ${fmt(soldIn('MUG-01', sameDays))}; this month`);
    const years = await ask({ content: 'December 2025 against December 2024 sales' });
    expect(textOf(years)).toContain(`Units sold in December 2024 (1–31 Dec 2024): 0; in December 2025 (1–31 Dec 2025): ${fmt(soldIn('OLD-01', { from: '2025-12-01', to: '2025-12-31' }) + products.filter((p) => p.code !== 'OLD-01').reduce((sum, p) => sum + soldIn(p.code, { from: '2025-12-01', to: '2025-12-31' }), 0))}.`);
  });

  it('says overstock needs a forecast with demand, and lists dead stock with the value tied up', async () => {
    expect(textOf(await ask({ content: 'which products are overstocked?' }))).toMatch(/^There is no forecast yet, so overstock cannot be measured against demand\./);
    const dead = products.filter((p) => p.stock > 0 && sold(p.code, 90) === 0).sort((a, b) => b.stock * b.cost - a.stock * a.cost || a.code.localeCompare(b.code));
    const answer = await ask({ content: 'show me the dead stock' });
    const value = dead.reduce((sum, p) => sum + p.stock * p.cost, 0);
    expect(textOf(answer)).toContain(`${dead.length} products in stock had no sales in the last 90 days (${rangeWords(lastDays(90))}): ${fmt(dead.reduce((sum, p) => sum + p.stock, 0))} units, ${money(value)} tied up at unit cost.`);
    expect(blocksOf(answer, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(dead.map((p) => p.code));
  });

  it('shows "On hand now" — the figure stored with the forecast, 0 below empty, "Not counted yet" without a count — in what runs out, no sales, overstock and dead stock', async () => {
    const db = server.database.db;
    // As a run stores them: counted, then sold since (Tote Bag 10 → 4, Sun Cap 500 → 480, Red Mug 250 → 200), more sold than counted (Advent Candle), never counted (May Flower).
    const onHand: Record<string, { units: number; counted: number } | null> = { 'BAG-01': { units: 4, counted: 10 }, 'CAP-01': { units: 480, counted: 500 }, 'MUG-02': { units: 200, counted: 250 }, 'OLD-01': { units: -2, counted: 3 }, 'MAY-01': null };
    const codes = Object.keys(onHand);
    const stored = await db.selectFrom('forecast_results').select(['product_id', 'result', 'on_hand', 'on_hand_counted', 'on_hand_counted_on']).where('product_id', 'in', codes.map((code) => ids[code] as number)).execute();
    const countedOn = addDays(TODAY, -10);
    for (const [code, figure] of Object.entries(onHand)) {
      await db.updateTable('forecast_results').set({ on_hand: figure?.units ?? null, on_hand_counted: figure?.counted ?? null, on_hand_counted_on: figure ? countedOn : null }).where('product_id', '=', ids[code] as number).execute();
    }
    // Red Mug's forecast sells 1 a day from today: 200 on hand is 200 days of cover (its stored 250 would be 250).
    const redMug = stored.find((r) => r.product_id === ids['MUG-02']) as (typeof stored)[number];
    await db.updateTable('forecast_results').set({ result: JSON.stringify({ ...(JSON.parse(redMug.result) as object), forecast: { from: TODAY, yhat: Array.from({ length: 90 }, () => 1) } }) }).where('product_id', '=', redMug.product_id).execute();
    const onHandColumn = (answer: ChatMessage | undefined) => {
      const [table] = blocksOf(answer, 'table');
      expect(table?.columns.map((c) => c.label)).toContain('On hand now');
      return Object.fromEntries((table?.rows ?? []).map((r) => [r.styleCode, r.onHand]));
    };
    try {
      const runsOut = onHandColumn(await ask({ content: 'What runs out first?' }));
      expect(runsOut).toMatchObject({ 'BAG-01': 4, 'MUG-01': byCode('MUG-01').stock });
      const noSales = onHandColumn(await ask({ content: 'Which products have no sales?' }));
      expect(noSales).toEqual({ 'CAP-01': 480, 'MAY-01': 'Not counted yet', 'OLD-01': 0 });
      const overstock = await ask({ content: 'which products are overstocked?' });
      expect(textOf(overstock)).toContain('1 product has more than 180 days of stock at the forecast demand: 600.00 tied up at unit cost.');
      expect(blocksOf(overstock, 'table')[0]?.rows).toEqual([{ styleCode: 'MUG-02', name: 'Red Mug', onHand: 200, daily: 1, cover: 200, excess: 20, unit: null, value: 600 }]);
      // Never counted and sold below empty are not in stock: only Sun Cap's 480 is dead stock.
      const dead = await ask({ content: 'show me the dead stock' });
      expect(textOf(dead)).toContain(`1 product in stock had no sales in the last 90 days (${rangeWords(lastDays(90))}): 480 units, ${money(480 * byCode('CAP-01').cost)} tied up at unit cost.`);
      expect(onHandColumn(dead)).toEqual({ 'CAP-01': 480 });
    } finally {
      for (const row of stored) await db.updateTable('forecast_results').set({ result: row.result, on_hand: row.on_hand, on_hand_counted: row.on_hand_counted, on_hand_counted_on: row.on_hand_counted_on }).where('product_id', '=', row.product_id).execute();
    }
  });

  it('reads seasons, and a word of product names as those products, saying which were counted', async () => {
    // Last winter: the latest December–February that has ended.
    const year = Number(TODAY.slice(0, 4));
    const winterOf = (start: number): Range => ({ from: `${start}-12-01`, to: addDays(`${start + 1}-03-01`, -1) });
    const winter = [year, year - 1, year - 2].map(winterOf).find((range) => range.to < TODAY) as Range;
    const start = Number(winter.from.slice(0, 4));
    const candles = soldIn('OLD-01', winter);
    const answer = await ask({ content: 'how many candles did we sell last winter?' });
    expect(textOf(answer)).toContain(
      `${candles ? `${fmt(candles)} units were sold` : 'No units were sold'} of products whose name holds "Candle" (1 product in the Kitchen category: OLD-01) in winter ${start}–${String((start + 1) % 100).padStart(2, '0')} (${rangeWords(winter)})`,
    );
    expect(textOf(answer)).not.toContain('I did not use');
    // A word of names asks for those products' stock, as it does for their sales.
    expect(textOf(await ask({ content: 'how much stock of candles in total' }))).toBe(`Advent Candle (OLD-01) has ${byCode('OLD-01').stock} units on hand, worth ${money(byCode('OLD-01').stock * byCode('OLD-01').cost)} at unit cost.`);
  });

  it('reads short words of product names and their plurals, and no common short word as a product', async () => {
    const db = server.database.db;
    // Names with short words ("Box", "Tie") and with common short words ("Top", "Day"), each sold two days ago.
    const added = [
      { code: 'BOX-01', name: 'Gift Box', units: 7 },
      { code: 'TIE-01', name: 'Silk Tie', units: 4 },
      { code: 'TOP-01', name: 'Tank Top', units: 9 },
      { code: 'DAY-01', name: 'Day Pack', units: 6 },
    ];
    const { inserted, remove } = await addProducts(db, added.map((p) => ({ ...p, category: 'Gifts' })), { counted: false });
    const twoDaysAgo = addDays(TODAY, -2);
    await db.insertInto('data.sales').values(inserted.map((row) => ({ product_id: row.id, date: twoDaysAgo, quantity: added.find((p) => p.code === row.product_code)?.units as number }))).execute();
    const week = lastDays(7);
    try {
      const named = (word: string, codes: string[], units: number, words: string, category = 'Gifts') => `${fmt(units)} units were sold of products whose name holds "${word}" (${codes.length} ${codes.length === 1 ? 'product' : 'products'} in the ${category} category: ${codes.join(', ')}) ${words}, by ${codes.length} ${codes.length === 1 ? 'product' : 'products'}.`;
      const mugs = textOf(await ask({ content: 'how many mugs did we sell' }));
      expect(mugs).toContain(named('Mug', ['MUG-01', 'MUG-02'], sold('MUG-01', 30) + sold('MUG-02', 30), `in the last 30 days (${rangeWords(lastDays(30))})`, 'Kitchen'));
      expect(mugs).not.toContain('I did not use');
      expect(textOf(await ask({ content: 'how many boxes did we sell in the last 7 days' }))).toContain(named('Box', ['BOX-01'], 7, `in the last 7 days (${rangeWords(week)})`));
      expect(textOf(await ask({ content: 'ties sold in the last 7 days' }))).toContain(named('Tie', ['TIE-01'], 4, `in the last 7 days (${rangeWords(week)})`));
      expect(textOf(await ask({ content: 'how many tees did we sell last week' }))).toContain(`units were sold of products whose name holds "Tee" (1 product in the Clothing category: TEE-01) last week`);
      // "Top", "day", "the", "all" are what the question asks, not the products whose names hold them.
      const topSellers = top(week);
      const sellers = textOf(await ask({ content: 'top sellers in the last 7 days' }));
      expect(sellers).toContain(`Top sellers in the last 7 days (${rangeWords(week)}) by units sold: ${topSellers[0]?.name} (${topSellers[0]?.units} units)`);
      expect(sellers).toContain('Tank Top (9 units)');
      expect(textOf(await ask({ content: 'what was the best day last month' }))).toMatch(/^The best day last month \(/);
      // "Per day" breaks the sales down by day, as the report writer does: "day" is no product's word.
      const perDayAnswer = await ask({ content: 'how many units did we sell per day in the last 7 days' });
      const perDay = textOf(perDayAnswer);
      const total = products.reduce((sum, p) => sum + sold(p.code, 7), 0) + added.reduce((sum, p) => sum + p.units, 0);
      expect(perDay).toContain(`${fmt(total)} units were sold in the last 7 days (${rangeWords(week)}). By day:`);
      expect(perDay).not.toContain('I did not use');
      const days = blocksOf(perDayAnswer, 'table')[0];
      expect(days?.rows).toHaveLength(7);
      expect(days?.totals).toEqual({ period: 'Total', units: total });
      expect(textOf(await ask({ content: 'how many units did we sell of all the products in the last 7 days' }))).toContain(`${fmt(total)} units were sold in the last 7 days`);
    } finally {
      await remove();
    }
  });

  it('reads a garden centre\'s words (QA5 #7–#11): Christmas as a period, "this month vs last year" as the same month a year before, a category or a word of its products\' names for stock, British phrasing, money with pence', async () => {
    const db = server.database.db;
    const garden = [
      { code: 'XT-180', name: 'Christmas Tree 180cm', category: 'Christmas', stock: 40, cost: 20 },
      { code: 'XT-150', name: 'Christmas Tree 150cm', category: 'Christmas', stock: 30, cost: 15 },
      { code: 'WR-01', name: 'Holly Wreath', category: 'Christmas', stock: 25, cost: 8 },
      { code: 'CP-50', name: 'Multipurpose Compost 50L', category: 'Compost', stock: 100, cost: 4.5 },
      { code: 'CP-40', name: 'Peat-free Compost 40L', category: 'Compost', stock: 60, cost: 5.25 },
      { code: 'TB-01', name: 'Tulip Bulbs Red', category: 'Bulbs', stock: 200, cost: 0.35 },
      { code: 'TB-02', name: 'Daffodil Bulbs', category: 'Bulbs', stock: 150, cost: 0.3 },
    ];
    const { idOf, remove } = await addProducts(db, garden, { counted: true });
    // Christmas 2025: trees and a wreath before the 24th, trees on the Eve and after Boxing Day.
    const christmasSales = [
      { code: 'XT-180', date: '2025-12-10', quantity: 5 },
      { code: 'XT-180', date: '2025-12-24', quantity: 3 },
      { code: 'XT-180', date: '2025-12-28', quantity: 2 },
      { code: 'XT-150', date: '2025-12-12', quantity: 4 },
      { code: 'WR-01', date: '2025-12-15', quantity: 6 },
    ];
    await db.insertInto('data.sales').values(christmasSales.map((sale) => ({ product_id: idOf(sale.code), date: sale.date, quantity: sale.quantity }))).execute();
    const soldOn = (range: Range, codes?: string[]) =>
      christmasSales.filter((sale) => sale.date >= range.from && sale.date <= range.to && (!codes || codes.includes(sale.code))).reduce((sum, sale) => sum + sale.quantity, 0) + (codes ? 0 : soldIn('OLD-01', range));
    try {
      // The season is 1–24 December; "last Christmas" the latest that has ended, its dates said back; the category "Christmas" is not read from the period's words.
      const season: Range = { from: '2025-12-01', to: '2025-12-24' };
      const christmas = await ask({ content: 'what did we sell at Christmas 2025' });
      expect(textOf(christmas)).toContain(`${fmt(soldOn(season))} units were sold at Christmas 2025 (1–24 Dec 2025), by 4 products.`);
      expect(textOf(christmas)).not.toContain('I did not use');
      const lastSeason = TODAY > `${TODAY.slice(0, 4)}-12-24` ? Number(TODAY.slice(0, 4)) : Number(TODAY.slice(0, 4)) - 1;
      const last = await ask({ content: 'what did we sell last Christmas' });
      expect(textOf(last)).toContain(`units were sold at Christmas ${lastSeason} (1–24 Dec ${lastSeason})`);
      expect(textOf(last)).not.toContain('category');
      // A word left after the category narrows to the products whose name holds it, and an explicit year is never dropped.
      const trees = await ask({ content: 'how many christmas trees did we sell at Christmas 2025' });
      expect(textOf(trees)).toContain(`${fmt(soldOn(season, ['XT-180', 'XT-150']))} units were sold of products in the Christmas category whose name holds "Tree" (2 products: XT-150, XT-180) at Christmas 2025 (1–24 Dec 2025), by 2 products.`);
      expect(textOf(trees)).not.toContain('I did not use');
      const eve = await ask({ content: 'what did we sell on Christmas Eve 2025' });
      expect(textOf(eve)).toContain(`${fmt(soldOn({ from: '2025-12-24', to: '2025-12-24' }))} units were sold on 24 Dec 2025, by 2 products.`);
      const lastYear = Number(TODAY.slice(0, 4)) - 1;
      const eveLastYear = await ask({ content: 'what did we sell on Christmas Eve (last year)' });
      expect(textOf(eveLastYear)).toContain(`units were sold on 24 Dec ${lastYear}`);
      expect(textOf(eveLastYear)).not.toContain('I did not use');
      const boxingDay = textOf(await ask({ content: 'boxing day sales 2025' }));
      // "1 unit was sold", "3 units were sold": the data decides.
      expect(boxingDay).toMatch(/ (unit was|units were) sold on 26 Dec 2025, by/);
      expect(boxingDay).not.toContain('I did not use');
      // "This month compared with last year": the same month a year before, its same days.
      const compared = await ask({ content: 'how are sales this month compared with last year' });
      const month = `${LONG[Number(TODAY.slice(5, 7)) - 1]} ${lastYear}`;
      expect(textOf(compared)).toContain(`Units sold in the same days of ${month} (`);
      expect(textOf(compared)).not.toContain('I did not use');
      expect(textOf(await ask({ content: 'units sold this month vs the same month last year' }))).toContain(`Units sold in the same days of ${month} (`);
      // A category named for stock: its products' stock, never the whole shop's; money with its pence.
      const compost = ['Peat-free Compost 40L (CP-40) has 60 units on hand', 'worth 315.00 at unit cost.', 'Multipurpose Compost 50L (CP-50) has 100 units on hand', 'worth 450.00 at unit cost.', 'Together: 160 units on hand, worth 765.00.'];
      for (const question of ['stock of compost', 'how much compost is in stock', 'stock in the compost category', 'how much compost have we got in']) {
        const answer = textOf(await ask({ content: question }));
        expect(answer, question).toMatch(/^2 products are in the Compost category:\n/);
        for (const line of compost) expect(answer, question).toContain(line);
        expect(answer, question).not.toContain('across');
        expect(answer, question).not.toContain('I did not use');
      }
      const tulips = textOf(await ask({ content: 'how many tulip bulbs have we got' }));
      expect(tulips).toContain('Tulip Bulbs Red (TB-01) has 200 units on hand');
      expect(tulips).toContain('worth 70.00 at unit cost.');
      expect(tulips).not.toContain('I did not use');
      // "What's" is how a question starts, never a word it did not use.
      for (const question of ["what's the stock value", 'whats running low', 'what is the stock value']) expect(textOf(await ask({ content: question })), question).not.toContain('I did not use');
    } finally {
      await remove();
    }
  });

  it('reads a category\'s word inside a product\'s name when the category holds no such product (QA8 F13: "gingerbread syrup" sits in Seasonal syrups, not Syrups)', async () => {
    const db = server.database.db;
    const cafe = [
      { code: 'SYR-VAN-1L', name: 'Vanilla syrup 1L', category: 'Syrups', stock: 12, cost: 3.8 },
      { code: 'SYR-GINGER-1L', name: 'Gingerbread syrup 1L', category: 'Seasonal syrups', stock: 40, cost: 4.2 },
    ];
    const { idOf, remove } = await addProducts(db, cafe, { counted: true });
    const lastSeason = TODAY > `${TODAY.slice(0, 4)}-12-24` ? Number(TODAY.slice(0, 4)) : Number(TODAY.slice(0, 4)) - 1;
    await db.insertInto('data.sales').values([{ product_id: idOf('SYR-GINGER-1L'), date: `${lastSeason}-12-10`, quantity: 142 }, { product_id: idOf('SYR-VAN-1L'), date: `${lastSeason}-12-11`, quantity: 9 }]).execute();
    try {
      const sold = textOf(await ask({ content: 'How much gingerbread syrup did we shift last Christmas?' }));
      expect(sold).toContain(`142 units were sold of products whose name holds "Gingerbread syrup" (1 product in the Seasonal syrups category: SYR-GINGER-1L) at Christmas ${lastSeason}`);
      expect(sold).not.toContain("I did not use");
      expect(sold).not.toContain('0 products');
      const stock = textOf(await ask({ content: 'How much stock of gingerbread syrup is left and when will it run out?' }));
      expect(stock).toMatch(/^Gingerbread syrup 1L \(SYR-GINGER-1L\) /);
      expect(stock).not.toContain('0 products');
      expect(textOf(await ask({ content: 'how much gingerbread syrup have we got' }))).toContain('Gingerbread syrup 1L (SYR-GINGER-1L) has 40 units on hand');
      // The category still narrows where it holds the named products.
      expect(textOf(await ask({ content: 'stock of vanilla syrups' }))).toContain('Vanilla syrup 1L (SYR-VAN-1L) has 12 units on hand');
      // A British shop's bank holidays (F14): by name, and "bank holiday Monday" as the latest that has come.
      const august = textOf(await ask({ content: 'how much vanilla syrup did we sell on the August bank holiday 2025' }));
      expect(august).toContain('on the summer bank holiday 2025 (25 Aug 2025)');
      expect(august).not.toContain('I did not use');
      expect(textOf(await ask({ content: 'what did we sell on bank holiday Monday' }))).not.toContain('I did not use');
    } finally {
      await remove();
    }
  });

  it("answers for the shop's day in the time zone the question sends (the server's here without one: no shop zone chosen); a zone that is none is refused", async () => {
    // Kiritimati (UTC+14) is a day ahead of UTC from 10:00 UTC, Pago Pago (UTC−11) a day behind until 11:00: one of them always differs.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/London']) {
      const zoneToday = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
      const asked = await server.request(`/api/assistant/messages/?time_zone=${encodeURIComponent(zone)}`, { token: viewer.access, body: { content: 'how many units did we sell yesterday' } });
      const answer = textOf((asked.json.messages as ChatMessage[]).at(-1));
      expect(answer, zone).toContain(`units were sold yesterday (${dayWords(addDays(zoneToday, -1))})`);
    }
    expect(textOf(await ask({ content: 'how many units did we sell yesterday' }))).toContain(`yesterday (${dayWords(addDays(TODAY, -1))})`);
    const refused = await server.request('/api/assistant/messages/?time_zone=Mars%2FOlympus_Mons', { token: viewer.access, body: { content: 'sales yesterday' } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('time_zone: Mars/Olympus_Mons is not a time zone');
  });

  it('reads what is due in, weekends, Easter and deadlines, and says an impossible date (QA5 #16, #20, #25)', async () => {
    const db = server.database.db;
    const sunday = addDays(monday, 6);
    const expectedIn = (range: Range) => (addDays(TODAY, 5) >= range.from && addDays(TODAY, 5) <= range.to ? 1 : 0);
    const expectations = (count: number) => `${count} ${count === 1 ? 'delivery is' : 'deliveries are'} expected`;
    // "Due in" is what the orders placed bring: the scheduled deliveries of the week, the late one beside them.
    const thisWeek = `${expectations(expectedIn({ from: TODAY, to: sunday }))} by ${dayWords(sunday)} (this week); 1 late`;
    const nextWeek: Range = { from: addDays(monday, 7), to: addDays(monday, 13) };
    const nextWeekWords = `${expectations(expectedIn(nextWeek))} next week (${rangeWords(nextWeek)}); 1 late`;
    for (const [question, expected] of [
      ["what's due in this week", thisWeek],
      ['what is due in next week?', nextWeekWords],
      ["what's coming in next week", nextWeekWords],
      ['Was kommt diese Woche an?', thisWeek],
      ['Wat komt er volgende week binnen?', nextWeekWords],
    ]) {
      const answer = textOf(await ask({ content: question }));
      expect(answer, question).toContain(expected);
      expect(answer, question).not.toContain('I did not use');
    }
    // Last weekend: Saturday and Sunday of last week, whoever asks and in which language.
    const lastWeekend: Range = { from: addDays(monday, -2), to: addDays(monday, -1) };
    const soldThen = products.reduce((sum, p) => sum + soldIn(p.code, lastWeekend), 0);
    for (const question of ['sales last weekend', "last weekend's sales", 'how many units did we sell over the last weekend', 'Wie viel haben wir letztes Wochenende verkauft?', 'verkoop afgelopen weekend']) {
      const answer = textOf(await ask({ content: question }));
      expect(answer, question).toContain(`${fmt(soldThen)} units were sold last weekend (${rangeWords(lastWeekend)})`);
      expect(answer, question).not.toContain('I did not use');
    }
    const thisWeekend = textOf(await ask({ content: 'sales this weekend' }));
    expect(thisWeekend).toContain(addDays(monday, 5) > TODAY ? `this weekend (${rangeWords({ from: addDays(monday, 5), to: sunday })}), is still to come` : 'units were sold this weekend (');
    expect(textOf(await ask({ content: 'sales next weekend' }))).toContain(`next weekend (${rangeWords({ from: addDays(monday, 12), to: addDays(monday, 13) })}), is still to come`);
    // No such day: said, and no figures for another period.
    for (const [question, said] of [
      ['sales on 31/11/2025', 'There is no 31 November 2025. November has 30 days.'],
      ['how many did we sell on 29/02/2025', 'There is no 29 February 2025. February 2025 has 28 days.'],
      ['sales on 32/01', 'There is no 32 January. January has 31 days.'],
      ['sales on 31/13/2025', 'There is no month 13 (31/13/2025). A year has 12 months.'],
      ['what runs out by 31 November', 'There is no 31 November. November has 30 days.'],
    ]) {
      const answer = await ask({ content: question });
      expect(textOf(answer), question).toBe(`${said} Ask again with a day of the calendar.`);
      expect(blocksOf(answer, 'table'), question).toEqual([]);
    }
    expect(textOf(await ask({ content: 'sales on 30/11/2025' }))).toContain('units were sold on 30 Nov 2025');
    // A span reaching back before year 1 was a database error (400 "time zone displacement out of range"): said, answered 200.
    for (const question of ['slow movers in the last 99999999 days', 'top sellers in the last 99999 weeks', 'what runs out in the next 99999999 days']) {
      const answer = await ask({ content: question });
      expect(textOf(answer), question).toMatch(/^".+" is more than a century: ask about at most the last or next 100 years \(1,200 months, 36,500 days\)\.$/);
      expect(blocksOf(answer, 'table'), question).toEqual([]);
    }

    // Easter: Good Friday to Easter Monday, Easter Sunday by the computus; a category named Easter or Christmas is not read from a date's words.
    const garden = [
      { code: 'EG-01', name: 'Easter Egg Basket', category: 'Easter' },
      { code: 'XT-200', name: 'Christmas Tree 200cm', category: 'Christmas' },
    ];
    const { idOf, remove } = await addProducts(db, garden.map((p) => ({ ...p, cost: 2 })), { counted: false });
    const EASTER_SUNDAY: Record<number, string> = { 2025: '2025-04-20', 2026: '2026-04-05', 2027: '2027-03-28', 2028: '2028-04-16', 2029: '2029-04-01', 2030: '2030-04-21' };
    const easterSales = [
      { date: '2025-04-17', quantity: 100 },
      { date: '2025-04-18', quantity: 3 },
      { date: '2025-04-20', quantity: 4 },
      { date: '2025-04-21', quantity: 5 },
      { date: '2025-04-22', quantity: 100 },
      { date: '2026-04-04', quantity: 7 },
    ];
    await db.insertInto('data.sales').values(easterSales.map((sale) => ({ product_id: idOf('EG-01'), date: sale.date, quantity: sale.quantity }))).execute();
    try {
      for (const question of ['what did we sell at Easter 2025', 'Easter weekend 2025 sales', 'sales over Easter 2025']) {
        const answer = textOf(await ask({ content: question }));
        expect(answer, question).toContain('12 units were sold at Easter 2025 (18–21 Apr 2025), by 1 product.');
        expect(answer, question).not.toContain('I did not use');
        expect(answer, question).not.toContain('category');
      }
      expect(textOf(await ask({ content: 'sales on Good Friday 2025' }))).toContain('3 units were sold on 18 Apr 2025');
      const year = Number(TODAY.slice(0, 4));
      const lastEaster = addDays(EASTER_SUNDAY[year] as string, 1) < TODAY ? year : year - 1;
      const weekend = { from: addDays(EASTER_SUNDAY[lastEaster] as string, -2), to: addDays(EASTER_SUNDAY[lastEaster] as string, 1) };
      expect(textOf(await ask({ content: 'what did we sell last Easter' }))).toContain(`units were sold at Easter ${lastEaster} (${rangeWords(weekend)})`);
      // A deadline is no category: "before Christmas" is every product that runs out by Christmas Eve, "by Easter" by Easter Sunday, "before Boxing Day" by Christmas Day (QA7 F12).
      const christmasEve = TODAY <= `${year}-12-24` ? `${year}-12-24` : `${year + 1}-12-24`;
      const christmasDay = addDays(TODAY <= `${year}-12-26` ? `${year}-12-26` : `${year + 1}-12-26`, -1);
      const easterAhead = (EASTER_SUNDAY[year] as string) >= TODAY ? (EASTER_SUNDAY[year] as string) : (EASTER_SUNDAY[year + 1] as string);
      const dayFirst = (day: string) => `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
      for (const [question, twin] of [
        ['what runs out before Christmas', `what runs out by ${dayFirst(christmasEve)}`],
        ['what runs out by Easter', `what runs out by ${dayFirst(easterAhead)}`],
        ['what runs out before Boxing Day', `what runs out by ${dayFirst(christmasDay)}`],
        ['what should I reorder before Boxing Day?', `what should I reorder by ${dayFirst(christmasDay)}?`],
      ]) {
        const [answer, expected] = [await ask({ content: question }), await ask({ content: twin })];
        expect(blocksOf(answer, 'table'), question).toEqual(blocksOf(expected, 'table'));
        expect(textOf(answer), question).not.toContain('category');
        expect(textOf(answer), question).not.toContain('I did not use');
      }
      // Christmas trees are still a category's products, whatever the deadline.
      expect(textOf(await ask({ content: 'which christmas trees run out before Christmas' }))).toContain('Christmas category');
    } finally {
      await remove();
    }
  });

  it('answers what runs out, the stock and the sales of the products a word of their names selects, and never another product for it', async () => {
    const db = server.database.db;
    // A garden centre's products, named as a clerk writes them; Weihnachtsstern runs out before Blumenerde.
    // Eleven pots: more than an answer lists one by one.
    const pots = Array.from({ length: 11 }, (_, i) => ({ code: `GS-${2001 + i}`, name: `Topf ${String.fromCharCode(65 + i)}`, stock: 2, cost: 1, stockout: null }));
    const added = [
      { code: 'GS-1002', name: 'Blumenerde 20 l', stock: 60, cost: 3.5, stockout: addDays(TODAY, 23) },
      { code: 'GS-1004', name: 'Weihnachtsstern rot', stock: 15, cost: 4, stockout: addDays(TODAY, 7) },
      ...pots,
    ];
    const { idOf, remove } = await addProducts(db, added.map((p) => ({ ...p, category: 'Garten' })), { counted: true });
    await upsertProductSummaries(db, added.map((p) => ({ productId: idOf(p.code), forecastStart: FORECAST_START, cumDemand: [0], cumVariance: [0], firstStockout: p.stockout, orderQuantity: 0 })));
    await db.insertInto('data.sales').values({ product_id: idOf('GS-1004'), date: previousMonth.from, quantity: 85 }).execute();
    const unrelated = [firstOut, ...added.slice(0, 2)].map((p) => p.name);
    /** The answer names none of the products but `named`. */
    const namesOnly = (answer: string, named: string[]) => expect(unrelated.filter((name) => !named.includes(name) && answer.includes(name)), answer).toEqual([]);
    try {
      const runsOut = textOf(await ask({ content: 'When does Blumenerde run out?' }));
      expect(runsOut).toBe(`Blumenerde 20 l (GS-1002) is forecast to run out on ${dayWords(addDays(TODAY, 23))}.`);
      namesOnly(runsOut, ['Blumenerde 20 l']);
      const stock = textOf(await ask({ content: 'stock of Blumenerde' }));
      // Not forecast yet: the count is said with its day.
      expect(stock).toBe(`Blumenerde 20 l (GS-1002) has 60 units on hand (counted on ${dayWords(TODAY)}), worth 210.00 at unit cost.`);
      const sold = textOf(await ask({ content: 'how many Weihnachtsstern did we sell last month?' }));
      expect(sold).toContain(`85 units were sold of products whose name holds "Weihnachtsstern" (1 product in the Garten category: GS-1004) last month (${rangeWords(previousMonth)}), by 1 product.`);
      namesOnly(sold, []);
      // A word several products hold: each of them, said as such.
      const mugs = textOf(await ask({ content: 'when do the mugs run out?' }));
      expect(mugs).toBe(`2 products' names hold "Mug" (in the Kitchen category):\nBlue Mug (MUG-01) is forecast to run out on ${dayWords(byCode('MUG-01').stockout as string)}.\nRed Mug (MUG-02) is not forecast to run out within the forecast horizon.`);
      const mugStock = textOf(await ask({ content: 'how much stock of mugs' }));
      expect(mugStock).toContain(`Blue Mug (MUG-01) has ${byCode('MUG-01').stock} units on hand`);
      expect(mugStock).toContain(`Red Mug (MUG-02) has ${byCode('MUG-02').stock} units on hand`);
      expect(mugStock).toContain(`Together: ${fmt(byCode('MUG-01').stock + byCode('MUG-02').stock)} units on hand, worth ${money(byCode('MUG-01').stock * byCode('MUG-01').cost + byCode('MUG-02').stock * byCode('MUG-02').cost)}.`);
      // With a window, those of them that run out in it.
      const mugsSoon = textOf(await ask({ content: 'which mugs run out in the next 14 days?' }));
      expect(mugsSoon).toBe(`Of products whose name holds "Mug" (2 products in the Kitchen category: MUG-01, MUG-02), 1 is forecast to run out by ${dayWords(addDays(TODAY, 13))} (the next 14 days). Blue Mug (MUG-01) runs out first, on ${dayWords(byCode('MUG-01').stockout as string)}.`);
      // A category narrows what runs out first as it narrows sales.
      expect(textOf(await ask({ content: 'what runs out first in the kitchen category?' }))).toBe(`Blue Mug (MUG-01) runs out first in the Kitchen category, on ${dayWords(byCode('MUG-01').stockout as string)}.`);
      const manyPots = textOf(await ask({ content: 'stock of Topf' }));
      expect(manyPots).toMatch(/^11 products' names hold "Topf" \(in the Garten category\); the first 10 by code are listed — name one by its code or full name to ask for it alone:\nTopf A \(GS-2001\) has 2 units on hand/);
      expect(manyPots).toContain('Topf J (GS-2010)');
      expect(manyPots).not.toContain('GS-2011');
      // A word no product's name holds is said plainly, with no headline about another product.
      for (const question of ['When does Gartenschlauch run out?', 'stock of Gartenschlauch']) {
        const answer = textOf(await ask({ content: question }));
        expect(answer, question).toMatch(/^No product's code or name holds "Gartenschlauch", so I cannot say (when it runs out|its stock)\./);
        expect(answer, question).not.toContain('I did not use');
        namesOnly(answer, []);
      }
    } finally {
      await remove();
    }
  });

  it("answers a German shop's questions as their English twins answer them, and never another measure without saying so (QA3 #5)", async () => {
    const db = server.database.db;
    const [soil] = await db.insertInto('data.products').values({ product_code: 'GS-1002', name: 'Blumenerde 20 l', category: 'Garten', current_stock: 60, unit_cost: 3.5, lead_time_days: 5 }).returning(['id']).execute();
    const soilId = soil?.id as number;
    await countToday(db, [{ id: soilId, stock: 60 }]);
    await upsertProductSummaries(db, [{ productId: soilId, forecastStart: FORECAST_START, cumDemand: [0], cumVariance: [0], firstStockout: addDays(TODAY, 23), orderQuantity: 0 }]);
    try {
      expect(textOf(await ask({ content: 'Wann ist die Blumenerde aus?' }))).toBe(`Blumenerde 20 l (GS-1002) is forecast to run out on ${dayWords(addDays(TODAY, 23))}.`);
      expect(textOf(await ask({ content: 'Bestand von Blumenerde' }))).toBe(`Blumenerde 20 l (GS-1002) has 60 units on hand (counted on ${dayWords(TODAY)}), worth 210.00 at unit cost.`);
      const twins: [string, string, string][] = [
        ['Was muss ich diese Woche bestellen?', 'What must I order this week?', ordersBy(addDays(monday, 6), 'this week')],
        ['Wie viel haben wir im November verkauft?', 'How many units did we sell in November?', 'units were sold in November'],
        // German month names that differ from the English ones, a short form, and "seit".
        ['Wie viel haben wir im Oktober verkauft?', 'How many units did we sell in October?', 'units were sold in October'],
        ['Top seller Juli', 'top sellers in July', 'in July'],
        ['Wie viel haben wir im Dez. verkauft?', 'How many units did we sell in December?', 'in December'],
        ['Wie viel haben wir seit März verkauft?', 'How many units did we sell since 1 March?', `since ${dayWords(`${Number(TODAY.slice(0, 4)) - (TODAY.slice(5, 7) < '03' ? 1 : 0)}-03-01`)}`],
        ['Welche Produkte laufen in den nächsten 30 Tagen aus?', 'Which products run out in the next 30 days?', `forecast to run out by ${dayWords(addDays(TODAY, 29))} (the next 30 days)`],
        ['Wie viel ist unser Lager wert?', 'What is the value of our stock?', 'The stock on hand is worth'],
        ['Lagerwert', 'stock value', 'The stock on hand is worth'],
        ['Top seller letzten Monat?', 'top sellers last month', `Top sellers last month (${rangeWords(previousMonth)}) by units sold: ${top(previousMonth)[0]?.name}`],
        ['Was wurde am meisten verkauft?', 'What sold the most?', `Top sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold`],
        ['Was wurde am wenigsten verkauft?', 'What sold the least?', `Worst sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold`],
      ];
      for (const [german, english, said] of twins) {
        const answer = textOf(await ask({ content: german }));
        expect(answer, german).toBe(textOf(await ask({ content: english })));
        expect(answer, german).toContain(said);
        expect(answer, german).not.toContain('I did not use');
      }
      // Revenue is the sales value at unit cost, as the report writer counts it (no selling prices are kept).
      const worth = (range: Range) => products.map((p) => ({ ...p, value: soldIn(p.code, range) * p.cost })).filter((p) => p.value > 0);
      const byValue = worth(lastDays(30)).sort((a, b) => b.value - a.value || a.code.localeCompare(b.code));
      const ranked = await ask({ content: 'revenue of the top 10 products' });
      expect(textOf(ranked)).toMatch(new RegExp(`^Top sellers in the last 30 days \\(${rangeWords(lastDays(30))}\\) by sales value at unit cost \\(no selling prices are kept, so revenue is counted at unit cost\\): ${byValue[0]?.name} \\(${money(byValue[0]?.value ?? 0)}; `));
      expect(blocksOf(ranked, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(byValue.map((p) => p.code));
      expect(textOf(ranked)).not.toContain('I did not use');
      const lastMonthWorth = worth(previousMonth).reduce((sum, p) => sum + p.value, 0);
      expect(textOf(await ask({ content: 'Umsatz letzten Monat' }))).toContain(`Sales last month (${rangeWords(previousMonth)}) are worth ${money(lastMonthWorth)} at unit cost`);
      // A measure the answer cannot give is said first, never swapped in silently.
      const compared = await ask({ content: 'compare revenue this month vs last month' });
      expect(blocksOf(compared, 'text')[0]?.text).toBe('Counted in units sold: I cannot count revenue for this question yet (I can for top sellers and total sales).');
      expect(textOf(compared)).not.toContain('I did not use');
      expect(textOf(await ask({ content: 'Wie wird das Wetter morgen?' }))).toMatch(/^I don't know how to answer that from the data\. I read questions in English, common German shop words \(.*\) and common Dutch ones \(/);
    } finally {
      await db.deleteFrom('data.stock_snapshots').where('product_id', '=', soilId).execute();
      await db.deleteFrom('data.products').where('id', '=', soilId).execute();
    }
  });

  it("answers a Dutch shop's questions as their English twins answer them, and never a product a short Dutch word grew into (QA4 #3)", async () => {
    const db = server.database.db;
    // The demo data's names: "wat" ("what") was read as "Water" (a German plural −er) and answered for these.
    const waters = await db.insertInto('data.products').values([
      { product_code: 'DW-1', name: 'Sparkling Water Small', category: 'Beverages', current_stock: 9, unit_cost: 1, lead_time_days: 3 },
      { product_code: 'DW-2', name: 'Hot Water Bottle Eco', category: 'Heating', current_stock: 4, unit_cost: 6, lead_time_days: 3 },
    ]).returning(['id']).execute();
    try {
      const year = Number(TODAY.slice(0, 4)) - (TODAY.slice(5, 7) < '03' ? 1 : 0);
      const twins: [string, string, string][] = [
        ['Wat raakt op?', 'What runs out?', `${byCode('BAG-01').name} (BAG-01) runs out first, on ${dayWords(byCode('BAG-01').stockout as string)}`],
        ['wat is op?', 'What runs out?', `${byCode('BAG-01').name} (BAG-01) runs out first`],
        ['Wanneer is BAG-01 op?', 'When does BAG-01 run out?', `Tote Bag (BAG-01) is forecast to run out on ${dayWords(byCode('BAG-01').stockout as string)}`],
        ['Wanneer raakt de Tote Bag op?', 'When does the Tote Bag run out?', `Tote Bag (BAG-01) is forecast to run out on`],
        ['Hoeveel BAG-01 verkocht?', 'How many BAG-01 sold?', `Tote Bag (BAG-01) sold ${sold('BAG-01', 30)} units in the last 30 days`],
        ['hoeveel verkocht vorige week?', 'How many units sold last week?', `${fmt(products.reduce((sum, p) => sum + soldIn(p.code, previousWeek), 0))} units were sold last week (${rangeWords(previousWeek)})`],
        ['omzet vorige maand', 'revenue last month', `Sales last month (${rangeWords(previousMonth)}) are worth`],
        ['verkocht in november', 'sold in November', 'in November'],
        ['Hoeveel hebben we verkocht sinds mrt?', 'How many units did we sell since 1 March?', `since ${dayWords(`${year}-03-01`)}`],
        ['verkocht in de afgelopen 30 dagen', 'sold in the last 30 days', `in the last 30 days (${rangeWords(lastDays(30))})`],
        ['verkocht deze maand', 'sold this month', `this month (${rangeWords(thisMonth)})`],
        ['Verkoop per maand', 'sales by month', 'By month:'],
        ['Wat moet ik deze week bestellen?', 'What must I order this week?', ordersBy(addDays(monday, 6), 'this week')],
        ['Welke producten raken op in de komende 30 dagen?', 'Which products run out in the next 30 days?', `forecast to run out by ${dayWords(addDays(TODAY, 29))} (the next 30 days)`],
        ['Leveringen volgende week', 'deliveries next week', 'next week'],
        ['Voorraadwaarde', 'stock value', 'The stock on hand is worth'],
        ['Wat is onze voorraad waard?', 'What is the value of our stock?', 'The stock on hand is worth'],
        ['Voorraad van BAG-01', 'stock of BAG-01', 'Tote Bag (BAG-01) has'],
        ['Top 5 vorige maand', 'top 5 products last month', `Top sellers last month (${rangeWords(previousMonth)}) by units sold: ${top(previousMonth)[0]?.name}`],
        ['Wat werd het meest verkocht?', 'What sold the most?', `Top sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold`],
        ['Wat werd het minst verkocht?', 'What sold the least?', `Worst sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold`],
        // "top 5 last month" reads as "top 5 products last month" (QA4 #15).
        ['top 5 last month', 'top 5 products last month', `Top sellers last month (${rangeWords(previousMonth)})`],
      ];
      for (const [dutch, english, said] of twins) {
        const answer = textOf(await ask({ content: dutch }));
        expect(answer, dutch).toBe(textOf(await ask({ content: english })));
        expect(answer, dutch).toContain(said);
        expect(answer, dutch).not.toContain('I did not use');
        expect(answer, dutch).not.toContain('Water');
      }
      expect(textOf(await ask({ content: 'Hoe wordt het weer morgen?' }))).toMatch(/^I don't know how to answer that from the data\. .* and common Dutch ones \(voorraad, /);
    } finally {
      await db.deleteFrom('data.products').where('id', 'in', waters.map((row) => row.id)).execute();
    }
  });

  it('gives the forecast for a named product over days still to come, and says returns as returns, not minus units sold (QA4 #15, #16)', async () => {
    const db = server.database.db;
    const stored = await db.selectFrom('forecast_results').select(['product_id', 'result']).where('product_id', '=', ids['BAG-01'] as number).executeTakeFirstOrThrow();
    // Two a day on average from today for 20 days: next week lies wholly in them, the next 30 days only partly.
    const daily = (i: number) => (i % 2 ? 2.5 : 1.5);
    await db.updateTable('forecast_results').set({ result: JSON.stringify({ ...(JSON.parse(stored.result) as object), forecast: { from: TODAY, yhat: Array.from({ length: 20 }, (_, i) => daily(i)) } }) }).where('product_id', '=', stored.product_id).execute();
    const [returned] = await db.insertInto('data.products').values({ product_code: 'RET-1', name: 'Springvorm 260', category: 'Kitchen', current_stock: 5, unit_cost: 4, lead_time_days: 3 }).returning(['id']).execute();
    const returnedId = returned?.id as number;
    try {
      const nextMonday = addDays(monday, 7);
      const nextWeekUnits = Array.from({ length: 7 }, (_, i) => daily(-back(addDays(nextMonday, i)))).reduce((sum, u) => sum + u, 0);
      const nextWeek = `next week (${rangeWords({ from: nextMonday, to: addDays(nextMonday, 6) })})`;
      for (const question of ['How much of BAG-01 will we sell next week?', 'Hoeveel BAG-01 verkopen we volgende week?']) {
        expect(textOf(await ask({ content: question })), question).toBe(`Tote Bag (BAG-01) is forecast to sell about ${fmt(nextWeekUnits)} units over ${nextWeek}.`);
      }
      const within = textOf(await ask({ content: 'How many BAG-01 will we sell in the next 30 days?' }));
      expect(within).toBe(`Tote Bag (BAG-01) is forecast to sell about 40 units over the next 30 days (${rangeWords({ from: TODAY, to: addDays(TODAY, 29) })}); its forecast reaches only ${rangeWords({ from: TODAY, to: addDays(TODAY, 19) })} of it.`);
      // Named with a product that has one, a product without a forecast is said so; alone, the days are said to be still to come.
      expect(textOf(await ask({ content: 'How much of BAG-01 and RET-1 will we sell next week?' }))).toBe(
        `Tote Bag (BAG-01) is forecast to sell about ${fmt(nextWeekUnits)} units over ${nextWeek}.\nSpringvorm 260 (RET-1) has no forecast for ${nextWeek}: make one on the Forecasting screen.`,
      );
      expect(textOf(await ask({ content: 'How much of RET-1 will we sell next week?' }))).toContain(`the period asked for, ${nextWeek}, is still to come.`);

      await db.insertInto('data.sales').values([
        { product_id: returnedId, date: addDays(TODAY, -1), quantity: -1 },
        { product_id: returnedId, date: addDays(TODAY, -3), quantity: 5 },
        { product_id: returnedId, date: addDays(TODAY, -4), quantity: -2 },
      ]).execute();
      expect(textOf(await ask({ content: 'sales of RET-1 yesterday' }))).toBe(`Springvorm 260 (RET-1) had 1 unit returned and none sold yesterday (${dayWords(addDays(TODAY, -1))}).`);
      expect(textOf(await ask({ content: 'sales of RET-1 in the last 7 days' }))).toBe(`Springvorm 260 (RET-1) sold 5 units and had 3 returned (2 net) in the last 7 days (${rangeWords(lastDays(7))}). Its sales start on ${dayWords(addDays(TODAY, -4))}.`);
      expect(textOf(await ask({ content: `sales of RET-1 on ${addDays(TODAY, -3)}` }))).toBe(`Springvorm 260 (RET-1) sold 5 units on ${dayWords(addDays(TODAY, -3))}.`);
    } finally {
      await db.updateTable('forecast_results').set({ result: stored.result }).where('product_id', '=', stored.product_id).execute();
      await db.deleteFrom('data.sales').where('product_id', '=', returnedId).execute();
      await db.deleteFrom('data.products').where('id', '=', returnedId).execute();
    }
  });

  it("gives a named product's forecast from the forecast's first day with the 80 % range of the sum, from the stored band of its summed demand; none for days that start later", async () => {
    const db = server.database.db;
    const stored = await db.selectFrom('forecast_results').select(['product_id', 'result']).where('product_id', '=', ids['BAG-01'] as number).executeTakeFirstOrThrow();
    const daily = (i: number) => (i % 2 ? 2.5 : 1.5);
    const days = 20;
    const summed = (through: number) => Array.from({ length: through + 1 }, (_, i) => daily(i)).reduce((sum, u) => sum + u, 0);
    // The stock band as the engine stores it: its half-width on each day is the 95 % range of the demand summed from the first day (figures made up here).
    const halfWidth95 = (i: number) => 2.2 * Math.sqrt(i + 1) + 0.1 * i;
    const level = (i: number) => 40 - summed(i);
    const stock = {
      from: TODAY,
      stock_level: Array.from({ length: days }, (_, i) => level(i)),
      stock_upper: Array.from({ length: days }, (_, i) => level(i) + Math.min(summed(i), halfWidth95(i))),
      stock_lower: Array.from({ length: days }, (_, i) => level(i) - halfWidth95(i)),
    };
    await db
      .updateTable('forecast_results')
      .set({ result: JSON.stringify({ ...(JSON.parse(stored.result) as object), forecast: { from: TODAY, yhat: Array.from({ length: days }, (_, i) => daily(i)) }, stock }) })
      .where('product_id', '=', stored.product_id)
      .execute();
    try {
      // The 80 % range of a normal sum is z(0.9) / z(0.975) of its 95 % range.
      const likely = (through: number) => {
        const half = (halfWidth95(through) * 1.2815516) / 1.959964;
        return `likely between ${Math.max(0, Math.round(summed(through) - half))} and ${Math.round(summed(through) + half)} (80 % range)`;
      };
      const week = `the next 7 days (${rangeWords({ from: TODAY, to: addDays(TODAY, 6) })})`;
      for (const question of ['How many BAG-01 will we sell in the next 7 days?', 'Hoeveel BAG-01 verkopen we de komende 7 dagen?', 'Wie viel BAG-01 verkaufen wir in den nächsten 7 Tagen?']) {
        expect(textOf(await ask({ content: question })), question).toBe(`Tote Bag (BAG-01) is forecast to sell about ${fmt(summed(6))} units over ${week}, ${likely(6)}.`);
      }
      // Beyond the forecast's days: the range is of the days it reaches, as the sum is.
      expect(textOf(await ask({ content: 'How many BAG-01 will we sell in the next 30 days?' }))).toBe(
        `Tote Bag (BAG-01) is forecast to sell about ${fmt(summed(19))} units over the next 30 days (${rangeWords({ from: TODAY, to: addDays(TODAY, 29) })}), ${likely(19)}; its forecast reaches only ${rangeWords({ from: TODAY, to: addDays(TODAY, 19) })} of it.`,
      );
      // Next week starts after the forecast's first day: no band of its sum is stored, and the days' bands do not add up to one.
      const nextMonday = addDays(monday, 7);
      const nextWeek = Array.from({ length: 7 }, (_, i) => daily(-back(addDays(nextMonday, i)))).reduce((sum, u) => sum + u, 0);
      expect(textOf(await ask({ content: 'How much of BAG-01 will we sell next week?' }))).toBe(
        `Tote Bag (BAG-01) is forecast to sell about ${fmt(nextWeek)} units over next week (${rangeWords({ from: nextMonday, to: addDays(nextMonday, 6) })}).`,
      );
    } finally {
      await db.updateTable('forecast_results').set({ result: stored.result }).where('product_id', '=', stored.product_id).execute();
    }
  });

  it('reads a range of months, both included, in English, German and Dutch; "until" a month is the year up to its end; a range into the future ends today', async () => {
    const GERMAN = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
    const DUTCH = ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'];
    const monthOf = (day: string) => Number(day.slice(5, 7)) - 1;
    const soldBetween = (range: Range) => {
      const units = products.reduce((sum, p) => sum + soldIn(p.code, range), 0);
      const sellers = products.filter((p) => soldIn(p.code, range) > 0).length;
      return `${fmt(units)} units were sold from ${dayWords(range.from)} to ${dayWords(range.to)}, by ${sellers} products.`;
    };
    // The three whole months before this one (over a year end in January to March).
    const [first, last] = [monthOf(monthStart(-3)), monthOf(previousMonth.from)];
    const threeMonths: Range = { from: monthStart(-3), to: previousMonth.to };
    // Last month to next month: under way, so up to today.
    const [before, after] = [monthOf(previousMonth.from), monthOf(monthStart(1))];
    const yearStart = (day: string) => `${day.slice(0, 4)}-01-01`;
    const cases: [string, string][] = [
      [`How many units did we sell from ${LONG[first]} to ${LONG[last]}?`, soldBetween(threeMonths)],
      [`Wie viel haben wir von ${GERMAN[first]} bis ${GERMAN[last]} verkauft?`, soldBetween(threeMonths)],
      [`Hoeveel hebben we verkocht van ${DUTCH[first]} tot ${DUTCH[last]}?`, soldBetween(threeMonths)],
      [`units sold between ${LONG[first]} and ${LONG[last]}`, soldBetween(threeMonths)],
      [`How many units did we sell from ${LONG[before]} to ${LONG[after]}?`, soldBetween({ from: previousMonth.from, to: TODAY })],
      [`How many units did we sell until ${LONG[monthOf(TODAY)]}?`, soldBetween({ from: yearStart(TODAY), to: TODAY })],
      [`Wie viel haben wir bis ${GERMAN[monthOf(TODAY)]} verkauft?`, soldBetween({ from: yearStart(TODAY), to: TODAY })],
      [`Hoeveel hebben we verkocht tot ${DUTCH[monthOf(TODAY)]}?`, soldBetween({ from: yearStart(TODAY), to: TODAY })],
      // Last month's year up to its end (in January, last year's December: the nearer one).
      [`units sold up to ${LONG[last]}`, soldBetween({ from: yearStart(previousMonth.to), to: previousMonth.to })],
      [`how much did Blue Mug sell from ${LONG[first]} to ${LONG[last]}`, `Blue Mug (MUG-01) sold ${fmt(soldIn('MUG-01', threeMonths))} units from ${dayWords(threeMonths.from)} to ${dayWords(threeMonths.to)}.`],
    ];
    for (const [question, expected] of cases) {
      const answer = textOf(await ask({ content: question }));
      expect(answer, question).toContain(expected);
      expect(answer, question).not.toContain('I did not use');
    }
  });

  it('says a product with no unit cost has no value, not that its stock is worth 0, as the stock value does', async () => {
    const db = server.database.db;
    const jars = await db.insertInto('data.products').values([
      { product_code: 'NC-1', name: 'Glass Jar', category: 'Kitchen', current_stock: 8, unit_cost: 0, lead_time_days: 3 },
      { product_code: 'NC-2', name: 'Jam Jar', category: 'Kitchen', current_stock: 5, unit_cost: 2, lead_time_days: 3 },
    ]).returning(['id']).execute();
    await countToday(db, [{ id: jars[0]?.id as number, stock: 8 }, { id: jars[1]?.id as number, stock: 5 }]);
    try {
      const counted = `(counted on ${dayWords(TODAY)})`;
      expect(textOf(await ask({ content: 'stock of NC-1' }))).toBe(`Glass Jar (NC-1) has 8 units on hand ${counted}, no unit cost, so no value: add its cost on the Data screen.`);
      expect(textOf(await ask({ content: 'stock of NC-1 and NC-2' }))).toBe(
        [
          `Glass Jar (NC-1) has 8 units on hand ${counted}, no unit cost, so no value: add its cost on the Data screen.`,
          `Jam Jar (NC-2) has 5 units on hand ${counted}, worth 10.00 at unit cost.`,
          'Together: 13 units on hand, worth 10.00; 1 of them has no unit cost, so its stock is not in that value.',
        ].join('\n'),
      );
    } finally {
      await db.deleteFrom('data.stock_snapshots').where('product_id', 'in', jars.map((row) => row.id)).execute();
      await db.deleteFrom('data.products').where('id', 'in', jars.map((row) => row.id)).execute();
    }
  });

  it('reads "sold best", "bestsellers", "most sold" as the top sellers, and says sales by day of the week are not counted', async () => {
    const ranked = (range: Range, words: string) => `Top sellers ${words} by units sold: ${top(range).slice(0, 5).map((p) => `${p.name} (${fmt(p.units)} units)`).join(', ')}.`;
    const lastMonth = ranked(previousMonth, `last month (${rangeWords(previousMonth)})`);
    for (const question of ['What sold best last month?', 'best sellers last month', 'bestsellers last month', 'best-selling products last month', 'most sold products last month', 'which products sold the most last month']) {
      const answer = textOf(await ask({ content: question }));
      expect(answer, question).toContain(lastMonth);
      expect(answer, question).not.toContain('I did not use');
    }
    for (const question of ['which products sell most?', 'Bestseller', 'meistverkauft']) expect(textOf(await ask({ content: question })), question).toContain(ranked(lastDays(30), `in the last 30 days (${rangeWords(lastDays(30))})`));
    const least = textOf(await ask({ content: 'what sold least last month?' }));
    const worst = top(previousMonth).sort((a, b) => a.units - b.units || a.code.localeCompare(b.code))[0];
    expect(least).toContain(`Worst sellers last month (${rangeWords(previousMonth)}) by units sold: ${worst?.name} (${fmt(worst?.units ?? 0)} units)`);
    for (const question of ['which products sell on Sundays?', 'how much do we sell at weekends?']) {
      expect(textOf(await ask({ content: question })), question).toBe('I cannot count sales by day of the week: I count them by day, week, month, quarter or year. Ask for "daily sales last week" to see each day, or "top sellers last month".');
    }
  });

  it('lists top sellers of the last 30 days unless a period or "all time" is said', async () => {
    const recent = top(lastDays(30));
    expect(textOf(await ask({ content: 'What are our top sellers?' }))).toContain(`Top sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold: ${recent.slice(0, 5).map((p) => `${p.name} (${fmt(p.units)} units)`).join(', ')}.`);
    const firstSale = SALE_DAYS.reduce((first, day) => (day < first ? day : first));
    const ever = top({ from: firstSale, to: TODAY });
    const allTime = await ask({ content: 'top sellers of all time' });
    expect(textOf(allTime)).toContain(`Top sellers of all time (${rangeWords({ from: firstSale, to: TODAY })}) by units sold: ${ever.slice(0, 5).map((p) => `${p.name} (${fmt(p.units)} units)`).join(', ')}.`);
    expect(textOf(allTime)).not.toContain('I did not use');
    expect(textOf(await ask({ content: 'what was the best month ever?' }))).toMatch(/^The best month of all time \(/);
  });

  it('says there is no such product, with close codes', async () => {
    const unknown = await ask({ content: 'how much did NOPE-999 sell' });
    expect(textOf(unknown)).toBe('There is no product NOPE-999.');
    const close = await ask({ content: 'stock of MUG-03' });
    expect(textOf(close)).toBe('There is no product MUG-03. Did you mean MUG-01, MUG-02?');
    const mixed = await ask({ content: 'stock of MUG-01 and MUG-9' });
    expect(textOf(mixed)).toContain(`Blue Mug (MUG-01) has ${byCode('MUG-01').stock} units on hand`);
    expect(textOf(mixed)).toContain('There is no product MUG-9.');
  });

  it('answers every question the pages suggest', async () => {
    const locale = JSON.parse(await readFile(new URL('../../../web/public/locales/en/common.json', import.meta.url), 'utf8')) as { assistant: { prompts: Record<string, string> } };
    const prompts = Object.entries(locale.assistant.prompts);
    expect(prompts.length).toBeGreaterThanOrEqual(6);
    for (const [page, prompt] of prompts) {
      const answer = textOf(await ask({ content: prompt, context: { page, path: `/${page}` } }));
      expect(answer, `${page}: ${prompt}`).not.toMatch(/^I don't know|I did not use|There is no product/);
    }
  });

  it('answers each quick button from the data', async () => {
    const lowStock = await ask({ quick: 'low_stock' });
    const lowTable = blocksOf(lowStock, 'table')[0];
    // The forecast's advice, most urgent first; the product without recent demand is left out.
    expect(textOf(lowStock)).toContain(`${advised.length} products need an order, most urgent first: ${advisedUnits} units, ${money(advisedCost)} in all. 1 product without demand in the last 90 days is left out.`);
    expect(lowTable?.rows).toEqual(
      advised.map((p) => ({
        styleCode: p.code, name: p.name, onHand: p.stock, stockout: p.stockout, orderBy: p.order?.by, quantity: p.order?.quantity, unit: null, terms: null, cost: (p.order?.quantity ?? 0) * p.cost,
        // The lists' mark: even ordered today, it arrives after it runs out.
        note: urgency(p) < 0 ? 'Too late: arrives after it runs out' : null,
      })),
    );
    expect(lowTable?.rows.filter((r) => r.note !== null).length).toBeGreaterThan(0);
    const report = await ask({ quick: 'reorder_report' });
    const reportTable = blocksOf(report, 'table')[0];
    expect(reportTable?.rows.map((r) => r.styleCode)).toEqual(advised.map((p) => p.code));
    // One unit (pieces) on the whole list: the Total row's figure and its unit cell, blank.
    expect(reportTable?.totals).toMatchObject({ quantity: advisedUnits, unit: null, cost: advisedCost });
    expect(reportTable?.download).toBe('reorder-report.csv');
    const deliveries = await ask({ quick: 'deliveries' });
    const [late, upcoming] = blocksOf(deliveries, 'table');
    expect(late?.rows).toEqual([{ styleCode: 'CAP-01', name: 'Sun Cap', expectedDate: addDays(TODAY, -3), quantity: 20 }]);
    expect(upcoming?.rows).toEqual([{ styleCode: 'MUG-02', name: 'Red Mug', expectedDate: addDays(TODAY, 5), quantity: 50 }]);
  });

  it('says how each scheduled integration last ran, what it wrote and refused, and when it runs next', async () => {
    const db = server.database.db;
    expect(textOf(await ask({ content: "Did last night's import run?" }))).toContain('No scheduled integrations are set up');
    const integration = await addShopIntegration(server);
    // The next midnight in Tokyo: tomorrow there, which is today's UTC date + 2 from 15:00 UTC on.
    const tokyoToday = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
    const [lastRun, nextRun] = [`${dayWords(TODAY)}, 00:00 (Asia/Tokyo)`, `${dayWords(addDays(tokyoToday, 1))}, 00:00 (Asia/Tokyo)`];
    try {
      for (const question of ["Did last night's import run?", 'When did the web shop last sync?', 'How did the web shop import go last night?']) {
        const answer = await ask({ content: question });
        expect(textOf(answer), question).toContain(`sales from shop.example.com: the last run, ${lastRun}, succeeded — 120 rows written, 3 rejected, 2 lines without a product code skipped, 5 lines left out by the mapping's row filters, 1 product created for unknown codes; next run ${nextRun}.`);
        expect(textOf(answer), question).not.toContain('I did not use');
        expect(blocksOf(answer, 'table')[0]?.rows).toEqual([{ integration: 'sales from shop.example.com', lastRun, status: 'succeeded', written: 120, rejected: 3, skipped: 2, filtered: 5, created: 1, nextRun }]);
        expect(blocksOf(answer, 'link')[0]?.href).toBe('/app/settings');
      }
      // A run that left nothing out and created nothing says only what it wrote and refused.
      await db.updateTable('integration_logs').set({ rows_skipped: 0, rows_filtered: 0, products_created: 0 }).where('integration_id', '=', integration.id).execute();
      expect(textOf(await ask({ content: "Did last night's import run?" }))).toContain(`succeeded — 120 rows written, 3 rejected; next run ${nextRun}.`);
      await db.updateTable('integration_logs').set({ rows_inserted: 1, rows_updated: 0 }).where('integration_id', '=', integration.id).execute();
      expect(textOf(await ask({ content: "Did last night's import run?" }))).toContain(`succeeded — 1 row written, 3 rejected; next run ${nextRun}.`);
    } finally {
      await db.deleteFrom('integration_logs').where('integration_id', '=', integration.id).execute();
      await db.deleteFrom('integrations').where('id', '=', integration.id).execute();
    }
  });

  it('lists the deliveries expected in the window a question names, with the late ones', async () => {
    const db = server.database.db;
    const nextTuesday = addDays(monday, 8);
    const added = await db.insertInto('data.deliveries').values({ product_id: ids['TEE-01'] as number, expected_date: nextTuesday, quantity: 60 }).returning('id').executeTakeFirstOrThrow();
    try {
      const nextWeek = { from: addDays(monday, 7), to: addDays(monday, 13) };
      const answer = await ask({ content: 'Which deliveries arrive next week?' });
      // The Red Mug's delivery, in five days, is next week's too from a Wednesday on.
      const expected = [
        { styleCode: 'MUG-02', name: 'Red Mug', expectedDate: addDays(TODAY, 5), quantity: 50 },
        { styleCode: 'TEE-01', name: 'Plain Tee', expectedDate: nextTuesday, quantity: 60 },
      ]
        .filter((row) => row.expectedDate >= nextWeek.from && row.expectedDate <= nextWeek.to)
        // As the answer lists them: by day, then product code (from a Friday on the Red Mug's comes after the Tee's).
        .sort((a, b) => a.expectedDate.localeCompare(b.expectedDate) || a.styleCode.localeCompare(b.styleCode));
      const count = expected.length === 1 ? '1 delivery is' : `${expected.length} deliveries are`;
      expect(textOf(answer)).toContain(`${count} expected next week (${rangeWords(nextWeek)}); 1 late (expected before ${dayWords(TODAY)} and not received).`);
      expect(textOf(answer)).not.toContain('I did not use');
      const [late, upcoming] = blocksOf(answer, 'table');
      expect(late?.rows.map((r) => r.styleCode)).toEqual(['CAP-01']);
      expect(upcoming?.rows).toEqual(expected);
      // A window from today counts from today: the Red Mug's in five days, and the Plain Tee's when it falls in the 14 days.
      const fortnight = textOf(await ask({ content: 'deliveries coming in the next 14 days' }));
      expect(fortnight).toContain(`2 deliveries are expected by ${dayWords(addDays(TODAY, 13))} (the next 14 days); 1 late`);
      // Without a window, every delivery still to come.
      expect(textOf(await ask({ content: 'Any deliveries coming?' }))).toContain('2 upcoming deliveries; 1 late');
    } finally {
      await db.deleteFrom('data.deliveries').where('id', '=', added.id).execute();
    }
  });

  it('ignores blank input and keeps each user’s history to themselves', async () => {
    const before = (await server.request('/api/assistant/messages/', { token: viewer.access })).json as unknown as ChatMessage[];
    const blank = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content: '   ' } });
    expect(blank.json.messages).toEqual([]);
    const after = (await server.request('/api/assistant/messages/', { token: viewer.access })).json as unknown as ChatMessage[];
    expect(after.length).toBe(before.length);
    expect(after.at(-1)).toMatchObject({ role: 'assistant' });
    expect(Date.parse(after.at(-1)?.timestamp ?? '')).not.toBeNaN();
    const others = (await server.request('/api/assistant/messages/', { token: editor.access })).json as unknown as ChatMessage[];
    expect(others).toEqual([]);
  });

  it('creates exactly the orders an answer showed, and nothing when the advice changed since', async () => {
    const db = server.database.db;
    const week = await ask({ content: 'what needs ordering in the next 7 days' });
    const shown = blocksOf(week, 'action')[0]?.payload['orders'] as { styleCode: string; quantity: number }[];
    // Most urgent first; TEE-01's order is due in 12 days, outside the window.
    expect(shown).toEqual([{ styleCode: 'BAG-01', quantity: 20 }, { styleCode: 'MUG-01', quantity: 30 }]);
    const last = Number((await db.selectFrom('data.deliveries').select((eb) => eb.fn.max('id').as('last')).executeTakeFirstOrThrow()).last);
    const newDeliveries = () => db.selectFrom('data.deliveries').select(['product_id', 'quantity']).where('id', '>', last).orderBy('product_id').execute();
    const storeBagOrder = (quantity: number) => storeOrder('BAG-01', { quantity, by: byCode('BAG-01').order?.by ?? null });
    const createShown = async () => (await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders', orders: shown } })).json.messages as ChatMessage[];

    // A forecast run since the answer raised BAG-01's order: nothing is created, and the answer says why.
    await storeBagOrder(26);
    const refused = await createShown();
    expect(textOf(refused[1])).toContain("Nothing was created: the advice changed since that list was made (a forecast ran since). BAG-01's advised order is now 26 (was 20).");
    expect(await newDeliveries()).toEqual([]);

    await storeBagOrder(20);
    expect(textOf((await createShown())[1])).toContain('Created 2 scheduled deliveries of the advised quantities');
    expect((await newDeliveries()).map((d) => [d.product_id, d.quantity])).toEqual([[ids['MUG-01'], 30], [ids['BAG-01'], 20]].sort((a, b) => (a[0] as number) - (b[0] as number)));

    const bad = await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders', orders: [{ styleCode: 'BAG-01', quantity: 0 }] } });
    expect(bad.status).toBe(400);
    // A NUL byte is refused by the request's contract, naming the field, before any database sees it.
    const nul = await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders', orders: [{ styleCode: 'BAG\u000001', quantity: 20 }] } });
    expect(nul.status).toBe(400);
    expect(nul.json.errors).toEqual({ 'orders.0.styleCode': ['Text may not contain NUL (\\u0000) characters.'] });
    expect(await newDeliveries()).toHaveLength(2);
    await db.deleteFrom('data.deliveries').where('id', '>', last).execute();
    // The two products' forecasts were queued again, in one list's run (ADR 0133, 0187); the dataset's advice comes back after it.
    const queued = await db.selectFrom('forecast_tasks').select('product_ids').where('product_ids', 'is not', null).execute();
    expect(queued.map((task) => task.product_ids?.map(Number))).toEqual([[ids['BAG-01'], ids['MUG-01']].sort((a, b) => (a as number) - (b as number))]);
    await catalogueRunsSettled(db);
    for (const code of ['BAG-01', 'MUG-01']) await storeOrder(code, byCode(code).order as { quantity: number; by: string });
  });

  it('creates the recommended orders as scheduled deliveries for an editor, once', async () => {
    const refused = await server.request('/api/assistant/actions/', { token: viewer.access, body: { action: 'create_recommended_orders' } });
    expect(refused.status).toBe(403);
    // An unknown key is refused, naming it, and nothing is created (it was ignored, creating the whole list: QA4 #22).
    const advisedIds = advised.map((p) => ids[p.code] as number);
    const delivered = () => server.database.db.selectFrom('data.deliveries').select('id').where('product_id', 'in', advisedIds).execute();
    const before = (await delivered()).length;
    for (const body of [{ action: 'create_recommended_orders', codes: 'x' }, { action: 'create_recommended_orders', orders: [{ styleCode: 'BAG-01', quantity: 20, code: 'x' }] }, { action: 'add_task', text: 'Call', due: 'x' }]) {
      const unknown = await server.request('/api/assistant/actions/', { token: editor.access, body });
      expect(unknown.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(unknown.json), JSON.stringify(body)).toMatch(/"(codes|code|due)"/);
    }
    expect(await delivered()).toHaveLength(before);
    const created = await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders' } });
    expect(created.status).toBe(200);
    expect(textOf((created.json.messages as ChatMessage[])[1])).toContain(`Created ${advised.length} scheduled deliveries of the advised quantities`);
    const rows = await server.database.db.selectFrom('data.deliveries').select(['product_id', 'expected_date', 'quantity', 'status']).where('product_id', 'in', advisedIds).orderBy('product_id').execute();
    expect(rows).toEqual(
      advised.map((p) => ({ product_id: ids[p.code], expected_date: addDays(TODAY, p.lead), quantity: p.order?.quantity, status: 'scheduled' })).sort((a, b) => (a.product_id as number) - (b.product_id as number)),
    );
    const again = await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders' } });
    expect(textOf((again.json.messages as ChatMessage[])[1])).toContain(`Created 0 scheduled deliveries`);
  });

  it("dates a created delivery on the next day the shop is open when its lead time ends on a closed day", async () => {
    const { db } = server.database;
    const first = advised[0]!;
    const firstId = ids[first.code] as number;
    const leadEnds = addDays(TODAY, first.lead);
    const closedWeekday = new Date(`${leadEnds}T00:00:00Z`).getUTCDay();
    const stored = (await sql<{ history_start: string; history_end: string; calendar: object }>`select history_start::text, history_end::text, calendar from forecast_calendar where id = 1`.execute(db)).rows[0];
    const closed = { closedDates: [], closedHolidays: [], closedWeekdays: [closedWeekday], yearlyProfiles: {}, newItemRates: {} };
    await sql`insert into forecast_calendar (id, history_start, history_end, calendar) values (1, ${TODAY}, ${TODAY}, ${JSON.stringify(closed)})
      on conflict (id) do update set calendar = excluded.calendar`.execute(db);
    try {
      await db.deleteFrom('data.deliveries').where('product_id', '=', firstId).execute();
      const created = await server.request('/api/assistant/actions/', { token: editor.access, body: { action: 'create_recommended_orders' } });
      expect(textOf((created.json.messages as ChatMessage[])[1])).toContain('Created 1 scheduled delivery');
      const row = await db.selectFrom('data.deliveries').select(['expected_date']).where('product_id', '=', firstId).executeTakeFirstOrThrow();
      expect(row.expected_date).toBe(addDays(leadEnds, 1));
    } finally {
      if (stored) await sql`update forecast_calendar set history_start = ${stored.history_start}, history_end = ${stored.history_end}, calendar = ${JSON.stringify(stored.calendar)} where id = 1`.execute(db);
      else await sql`delete from forecast_calendar where id = 1`.execute(db);
    }
  });

  it('adds a task when confirmed', async () => {
    const added = await server.request('/api/assistant/actions/', { token: viewer.access, body: { action: 'add_task', text: 'Call the mug supplier' } });
    expect(added.status).toBe(200);
    const tasks = (await server.request('/api/dashboard/tasks/', { token: viewer.access })).json as unknown as { text: string }[];
    expect(tasks.map((t) => t.text)).toContain('Call the mug supplier');
  });
});

describe.each(backends)('assistant with a model on %s', (backend) => {
  let server: TestServer;
  let model: FakeChatModel;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  let ids: Record<string, number>;
  beforeAll(async () => {
    model = await startFakeChatModel();
    server = await startTestServer(backend, { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' });
    viewer = await signUpUser(server, { role: 'viewer' });
    ids = await loadDataset(server);
  });
  /** The model calls these tools in one round; each call's result as the model reads it: the answer's text, or the refusal. */
  const toolResults = (calls: { name: string; args: Record<string, unknown> }[]) => modelToolResults(server, model, viewer.access, calls);
  afterAll(async () => {
    await server.stop();
    await model.close();
  });

  it('routes a question to the model, which answers through the data tools', async () => {
    model.script([{ toolCalls: [{ id: 'call_1', name: 'stock_of_product', arguments: JSON.stringify({ product: 'Blue Mug' }) }] }, { content: 'Blue Mug: 40 on hand.' }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content: 'how are the blue mugs doing?', context: { page: 'forecasting', path: '/forecasting' } } });
    const answer = (response.json.messages as ChatMessage[])[1];
    expect(answer?.content).toBe('Blue Mug: 40 on hand.');
    expect(blocksOf(answer, 'link')[0]?.href).toBe('/app/forecasting?product=MUG-01');
    const [first, second] = model.requests.slice(-2);
    expect(first?.body.tools?.length).toBeGreaterThan(5);
    expect(first?.body.messages[0]?.content).toContain('forecasting page');
    const toolMessage = second?.body.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('40 units on hand');
  });

  it('gives the model the stock of the products a word of their names selects, as the engine answers "stock of mugs"', async () => {
    const { results, tools } = await toolResults([
      { name: 'stock_of_product', args: { product: 'mugs' } },
      { name: 'stock_of_product', args: { product: 'Gartenschlauch' } },
    ]);
    expect(results[0]?.text).toContain(`2 products' names hold "Mug" (in the Kitchen category):\nBlue Mug (MUG-01) has ${byCode('MUG-01').stock} units on hand`);
    expect(results[0]?.text).toContain(`Red Mug (MUG-02) has ${byCode('MUG-02').stock} units on hand`);
    expect(results[1]?.text).toBe("Error: No product 'Gartenschlauch', and no product's name holds it.");
    expect(tools.find((tool) => tool.function.name === 'stock_of_product')?.function.description).toContain('a word of product names');
  });

  it('gives the model the last run of each scheduled integration, as the engine answers it', async () => {
    expect((await toolResults([{ name: 'integration_runs', args: {} }])).results[0]?.text).toContain('No scheduled integrations are set up');
    const integration = await addShopIntegration(server);
    try {
      const { results, tools } = await toolResults([{ name: 'integration_runs', args: {} }]);
      expect(tools.map((tool) => tool.function.name)).toContain('integration_runs');
      expect(results[0]?.text).toContain(`sales from shop.example.com: the last run, ${dayWords(TODAY)}, 00:00 (Asia/Tokyo), succeeded — 120 rows written, 3 rejected, 2 lines without a product code skipped, 5 lines left out by the mapping's row filters, 1 product created for unknown codes`);
      expect(results[0]?.tables[0]?.rows[0]).toMatchObject({ integration: 'sales from shop.example.com', written: 120, rejected: 3, filtered: 5, created: 1 });
    } finally {
      await server.database.db.deleteFrom('integration_logs').where('integration_id', '=', integration.id).execute();
      await server.database.db.deleteFrom('integrations').where('id', '=', integration.id).execute();
    }
  });

  it('gives the model a window on what runs out and what must be ordered, read as the engine reads a question', async () => {
    const nextMonday = addDays(monday, 7);
    const nextWeek: Range = { from: nextMonday, to: addDays(nextMonday, 6) };
    const stockouts = products.flatMap((p) => (p.stockout ? [p.stockout] : []));
    const lastMonth = monthStart(-1);
    const lastMonthWords = `${LONG[Number(lastMonth.slice(5, 7)) - 1]} ${lastMonth.slice(0, 4)}`;
    const calls = [
      { name: 'runs_out_first', window: 'next week' },
      { name: 'reorder_report', window: 'next week' },
      { name: 'deliveries', window: 'next week' },
      { name: 'low_stock', window: 'the next 14 days' },
      { name: 'runs_out_first', window: 'Smarch' },
      { name: 'runs_out_first', window: lastMonthWords },
      { name: 'runs_out_first', window: undefined },
    ];
    model.script([{ toolCalls: calls.map((call, i) => ({ id: `call_${i}`, name: call.name, arguments: JSON.stringify(call.window === undefined ? {} : { window: call.window }) })) }, { content: 'Here is what runs out and what to order.' }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content: 'what runs out next week, and what must I order?' } });
    expect(response.status).toBe(200);
    const [asked, answered] = model.requests.slice(-2);
    // The tools that take a window say so in their parameters.
    const tools = (asked?.body.tools ?? []) as { function: { name: string; parameters: { properties: Record<string, { type: string }> } } }[];
    for (const name of ['runs_out_first', 'low_stock', 'reorder_report', 'deliveries']) expect(tools.find((t) => t.function.name === name)?.function.parameters.properties.window?.type, name).toBe('string');
    const results = (answered?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => {
      const content = m.content ?? '';
      return content.startsWith('Error: ') ? content : (JSON.parse(content) as AssistantBlock[]).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    });
    expect(results).toHaveLength(calls.length);
    // A window that starts later: stock-outs within it, what runs out before said apart; orders due by its end, as a question to the engine reads them.
    expect(results[0]).toContain(runOutWithin(stockouts, nextWeek, `next week (${rangeWords(nextWeek)})`));
    expect(results[1]).toContain(ordersBy(nextWeek.to, 'next week'));
    // Deliveries in the window only (the Red Mug's, in five days, when that is next week), the late one said.
    const deliveriesNextWeek = addDays(TODAY, 5) >= nextWeek.from ? 1 : 0;
    expect(results[2]).toContain(`${deliveriesNextWeek} ${deliveriesNextWeek === 1 ? 'delivery is' : 'deliveries are'} expected next week (${rangeWords(nextWeek)}); 1 late`);
    const dueFortnight = advised.filter((p) => (p.order?.by as string) <= addDays(TODAY, 13));
    expect(results[3]).toContain(`${dueFortnight.length} of the ${advised.length} products that need an order must be ordered by ${dayWords(addDays(TODAY, 13))} (the next 14 days)`);
    expect(results[4]).toBe(`Error: Window 'Smarch' not understood: say e.g. "in January", "next week", "the next 30 days", "by 24/12", "Q1 2027".`);
    expect(results[5]).toBe(`The window asked for, by ${dayWords(addDays(monthStart(0), -1))} (${lastMonthWords}), ended before today (${dayWords(TODAY)}): the forecasts look ahead from today. Ask for a window still to come, such as next month, in January or by 24/12.`);
    expect(results[6]).toContain(`${firstOut.name} (${firstOut.code}) runs out first, on ${dayWords(firstOut.stockout as string)}.`);
    // The reply keeps the tools' tables: the first is what runs out next week.
    const reply = (response.json.messages as ChatMessage[])[1];
    expect(reply?.content).toBe('Here is what runs out and what to order.');
    const runOutNextWeek = products.filter((p) => p.stockout && p.stockout >= nextWeek.from && p.stockout <= nextWeek.to).map((p) => p.code);
    expect(runOutNextWeek.length).toBeGreaterThan(0);
    expect(blocksOf(reply, 'table')[0]?.rows.map((r) => r.styleCode)).toEqual(runOutNextWeek);
  });

  it('gives the model top N sellers, best or worst, of a category, for the last 30 days unless a period is given; a limit out of range and an unknown category refused', async () => {
    const recent = top(lastDays(30));
    const listed = (list: ReturnType<typeof top>) => list.map((p) => `${p.name} (${fmt(p.units)} units)`).join(', ');
    const kitchen = top(previousMonth).filter((p) => p.category === 'Kitchen').slice(0, 3);
    const worst = [...recent].sort((a, b) => a.units - b.units || a.code.localeCompare(b.code)).slice(0, 2);
    const firstSale = SALE_DAYS.reduce((first, day) => (day < first ? day : first));
    const { results, tools } = await toolResults([
      { name: 'top_sellers', args: {} },
      { name: 'top_sellers', args: { limit: 3, category: 'kitchen', period: 'last month' } },
      { name: 'top_sellers', args: { limit: 2, order: 'worst' } },
      { name: 'top_sellers', args: { limit: 0 } },
      { name: 'top_sellers', args: { limit: 51 } },
      { name: 'top_sellers', args: { limit: 'lots' } },
      { name: 'top_sellers', args: { category: 'Toys' } },
      { name: 'top_sellers', args: { period: 'all time', limit: '3' } },
    ]);
    const topSellers = tools.find((t) => t.function.name === 'top_sellers')?.function;
    expect(topSellers?.description).not.toContain('five');
    expect(topSellers?.parameters.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(topSellers?.parameters.required ?? []).toEqual([]);
    expect(results[0]?.text).toBe(`Top sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold: ${listed(recent.slice(0, 5))}.`);
    expect(results[0]?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(recent.slice(0, 5).map((p) => p.code));
    expect(results[1]?.text).toBe(kitchen.length ? `Top sellers in the Kitchen category last month (${rangeWords(previousMonth)}) by units sold: ${listed(kitchen)}.` : `Nothing sold in the Kitchen category last month (${rangeWords(previousMonth)}).`);
    expect(results[2]?.text).toBe(`Worst sellers in the last 30 days (${rangeWords(lastDays(30))}) by units sold: ${listed(worst)}.`);
    expect(results.slice(3, 6).map((r) => r.text)).toEqual([
      "Error: 'limit' must be a whole number from 1 to 50 (default 5); got 0.",
      "Error: 'limit' must be a whole number from 1 to 50 (default 5); got 51.",
      'Error: \'limit\' must be a whole number from 1 to 50 (default 5); got "lots".',
    ]);
    expect(results[6]?.text).toBe("Error: No category 'Toys': the categories are Clothing, Garden, Kitchen.");
    expect(results[7]?.text).toBe(`Top sellers of all time (${rangeWords({ from: firstSale, to: TODAY })}) by units sold: ${listed(top({ from: firstSale, to: TODAY }).slice(0, 3))}.`);
  });

  it('gives the model top sellers by revenue at unit cost, as the engine ranks them when asked for revenue; by units unless it says so', async () => {
    const recent = top(lastDays(30));
    const byValue = recent.map((p) => ({ ...p, value: p.units * p.cost })).sort((a, b) => b.value - a.value || a.code.localeCompare(b.code));
    // The fixture's two rankings differ, so a tool that ignored the parameter would fail here.
    expect(byValue.map((p) => p.code)).not.toEqual(recent.map((p) => p.code));
    const { results, tools } = await toolResults([
      { name: 'top_sellers', args: { by: 'revenue' } },
      { name: 'top_sellers', args: { by: 'revenue', limit: 1, order: 'worst' } },
      { name: 'top_sellers', args: { by: 'units', limit: 2 } },
      { name: 'top_sellers', args: { by: 'profit' } },
    ]);
    expect(tools.find((t) => t.function.name === 'top_sellers')?.function.parameters.properties.by).toMatchObject({ type: 'string', enum: ['units', 'revenue'] });
    const window = `in the last 30 days (${rangeWords(lastDays(30))})`;
    const atCost = 'by sales value at unit cost (no selling prices are kept, so revenue is counted at unit cost)';
    expect(results[0]?.text).toBe(`Top sellers ${window} ${atCost}: ${byValue.slice(0, 5).map((p) => `${p.name} (${money(p.value)}; ${fmt(p.units)} units)`).join(', ')}.`);
    expect(results[0]?.tables[0]?.rows).toEqual(byValue.slice(0, 5).map((p) => ({ styleCode: p.code, name: p.name, value: p.value, units: p.units, unit: null })));
    const last = byValue.at(-1) as (typeof byValue)[number];
    expect(results[1]?.text).toBe(`Worst sellers ${window} ${atCost}: ${last.name} (${money(last.value)}; ${fmt(last.units)} units).`);
    expect(results[2]?.text).toBe(`Top sellers ${window} by units sold: ${recent.slice(0, 2).map((p) => `${p.name} (${fmt(p.units)} units)`).join(', ')}.`);
    expect(results[3]?.text).toBe(`Error: 'by' must be one of "units", "revenue"; got "profit".`);
  });

  it('gives the model sales of a category or of a word of product names, two periods compared like for like, and the best or worst month or week', async () => {
    const total = (range: Range, codes: string[]) => codes.reduce((sum, code) => sum + soldIn(code, range), 0);
    const clothing = products.filter((p) => p.category === 'Clothing').map((p) => p.code);
    const mugs = ['MUG-01', 'MUG-02'];
    // This month under way: up to the last day with sales (yesterday), and the same days of last month (as the engine's test has it).
    const yesterday = addDays(TODAY, -1);
    const soFar: Range = { from: thisMonth.from, to: yesterday < thisMonth.from ? thisMonth.from : yesterday };
    const sameDaysTo = addDays(previousMonth.from, back(thisMonth.from) - back(soFar.to));
    const sameDays: Range = { from: previousMonth.from, to: sameDaysTo < previousMonth.to ? sameDaysTo : previousMonth.to };
    const changed = (before: number, after: number) => {
      const change = after - before;
      const percent = before ? ` (${change >= 0 ? '+' : ''}${fmt(Math.round((1000 * change) / before) / 10)}%)` : '';
      return change === 0 ? 'no change' : `${change > 0 ? 'up' : 'down'} ${fmt(Math.abs(change))} units${percent}${before ? '' : ' (no sales in the first period, so no percentage)'}`;
    };
    const all = products.map((p) => p.code);
    // The whole weeks of the last 12 months that have ended, Kitchen's units in each, worst first.
    const [year, month, day] = TODAY.split('-').map(Number) as [number, number, number];
    const yearAgo = `${year - 1}-${String(month).padStart(2, '0')}-${String(Math.min(day, new Date(Date.UTC(year - 1, month, 0)).getUTCDate())).padStart(2, '0')}`;
    const twelveMonths: Range = { from: yearAgo, to: yesterday };
    const kitchen = products.filter((p) => p.category === 'Kitchen').map((p) => p.code);
    let monday = addDays(yearAgo, (8 - new Date(`${yearAgo}T00:00:00Z`).getUTCDay()) % 7);
    const weeks: { start: string; units: number }[] = [];
    for (; addDays(monday, 6) <= yesterday; monday = addDays(monday, 7)) weeks.push({ start: monday, units: total({ from: monday, to: addDays(monday, 6) }, kitchen) });
    const worstWeek = [...weeks].sort((a, b) => a.units - b.units || a.start.localeCompare(b.start))[0] as { start: string; units: number };
    const thisYear = TODAY.slice(0, 4);
    const months = Array.from({ length: month - 1 }, (_, i) => {
      const range: Range = { from: `${thisYear}-${String(i + 1).padStart(2, '0')}-01`, to: addDays(new Date(Date.UTC(year, i + 1, 1)).toISOString().slice(0, 10), -1) };
      return { name: `${LONG[i]} ${thisYear}`, units: total(range, all) };
    }).sort((a, b) => b.units - a.units);

    const { results, tools } = await toolResults([
      { name: 'units_sold', args: { period: 'last month', category: 'Clothing' } },
      { name: 'sales_of_product', args: { product: 'mugs', period: 'last month' } },
      { name: 'compare_sales', args: { period: 'this month', other_period: 'last month' } },
      { name: 'compare_sales', args: { period: 'last month', other_period: 'this month', product: 'mugs' } },
      { name: 'compare_sales', args: { period: 'this month', other_period: 'next month' } },
      { name: 'best_period', args: { unit: 'month', period: 'this year' } },
      { name: 'best_period', args: { unit: 'week', order: 'worst', category: 'Kitchen' } },
      { name: 'best_period', args: { unit: 'fortnight' } },
      { name: 'units_sold', args: { period: 'next week' } },
      { name: 'sales_of_product', args: { product: 'Smarch', period: 'last month' } },
      { name: 'compare_sales', args: { period: 'this month', other_period: 'Smarch' } },
      { name: 'units_sold', args: { period: 'this year', by: 'month', category: 'Clothing' } },
      { name: 'sales_of_product', args: { product: 'mugs', by: 'quarter' } },
      { name: 'units_sold', args: { by: 'fortnight' } },
    ]);
    expect(tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['top_sellers', 'units_sold', 'compare_sales', 'best_period', 'overstock', 'dead_stock']));
    expect(tools.find((t) => t.function.name === 'best_period')?.function.parameters.properties.unit?.enum).toEqual(['day', 'week', 'month', 'quarter', 'year']);
    const clothingUnits = total(previousMonth, clothing);
    expect(results[0]?.text).toContain(clothingUnits ? `${fmt(clothingUnits)} units were sold in the Clothing category last month (${rangeWords(previousMonth)})` : `No units were sold in the Clothing category last month (${rangeWords(previousMonth)}).`);
    expect(results[1]?.text).toContain(`${fmt(total(previousMonth, mugs))} units were sold of products whose name holds "Mug" (2 products in the Kitchen category: MUG-01, MUG-02) last month (${rangeWords(previousMonth)})`);
    // The engine's like-for-like comparison, whichever period the model names first.
    const [before, after] = [total(sameDays, all), total(soFar, all)];
    expect(results[2]?.text).toBe(`Units sold in the same days of last month (${rangeWords(sameDays)}): ${fmt(before)}; this month so far (${rangeWords(soFar)}): ${fmt(after)}. That is ${changed(before, after)}.`);
    expect(results[2]?.tables[0]?.rows.map((r) => r.units)).toEqual([before, after]);
    const [mugsBefore, mugsAfter] = [total(sameDays, mugs), total(soFar, mugs)];
    expect(results[3]?.text).toBe(
      `Units sold of products whose name holds "Mug" (2 products in the Kitchen category: MUG-01, MUG-02) in the same days of last month (${rangeWords(sameDays)}): ${fmt(mugsBefore)}; this month so far (${rangeWords(soFar)}): ${fmt(mugsAfter)}. That is ${changed(mugsBefore, mugsAfter)}.`,
    );
    expect(results[4]?.text).toMatch(new RegExp(`^There are no sales after today \\(${dayWords(TODAY)}\\): the period asked for, next month \\(`));
    const best = months[0];
    expect(results[5]?.text).toContain(best ? `The best month this year (${rangeWords({ from: `${thisYear}-01-01`, to: TODAY })}) was ${best.name}: ${fmt(best.units)} units sold.` : 'No whole month this year');
    expect(results[6]?.text).toContain(`The worst week in the Kitchen category in the last 12 months (${rangeWords(twelveMonths)}) was the week of ${dayWords(worstWeek.start)}: ${fmt(worstWeek.units)} units sold.`);
    expect(results[6]?.tables[0]?.rows).toHaveLength(weeks.length);
    expect(results[7]?.text).toBe('Error: \'unit\' must be one of "day", "week", "month", "quarter", "year"; got "fortnight".');
    expect(results[8]?.text).toMatch(new RegExp(`^There are no sales after today \\(${dayWords(TODAY)}\\): the period asked for, next week \\(`));
    expect(results[9]?.text).toBe("Error: No product 'Smarch', and no product's name holds it.");
    expect(results[10]?.text).toBe('Error: Period \'Smarch\' not understood: say e.g. "last month", "October 2026", "last 30 days", "all time".');
    // A breakdown, as the engine answers "clothing sales by month this year": a row per month, the one under way "to date".
    const clothingThisYear = total({ from: `${thisYear}-01-01`, to: TODAY }, clothing);
    expect(results[11]?.text).toContain(`${fmt(clothingThisYear)} units were sold in the Clothing category this year`);
    expect(results[11]?.text).toMatch(/By month/);
    const monthRows = results[11]?.tables[0]?.rows ?? [];
    expect(monthRows.length).toBeGreaterThan(0);
    for (const row of monthRows) expect(String(row.period)).toMatch(new RegExp(`^(${LONG.join('|')}|${LONG.map((name) => name.slice(0, 3)).join('|')})`));
    expect(monthRows.reduce((sum, r) => sum + Number(r.units), 0)).toBe(clothingThisYear);
    // No period with a breakdown by quarter: every sale of the mugs.
    const mugsAll = total({ from: SALE_DAYS.reduce((first, day) => (day < first ? day : first)), to: TODAY }, mugs);
    expect(results[12]?.text).toContain(`${fmt(mugsAll)} units were sold of products whose name holds "Mug" (2 products in the Kitchen category: MUG-01, MUG-02)`);
    expect(results[12]?.text).toMatch(/By quarter/);
    expect((results[12]?.tables[0]?.rows ?? []).reduce((sum, r) => sum + Number(r.units), 0)).toBe(mugsAll);
    expect(results[13]?.text).toBe('Error: \'by\' must be one of "day", "week", "month", "quarter", "year"; got "fortnight".');
  });

  it('gives the model overstock against the forecast demand and dead stock, for the days it gives, with the value tied up', async () => {
    const db = server.database.db;
    // Forecast demand per day from today: Red Mug 1 (250 days of cover), Sun Cap 5 (100 days).
    const demand = { 'MUG-02': 1, 'CAP-01': 5 };
    const stored = await db.selectFrom('forecast_results').select(['product_id', 'result']).where('product_id', 'in', Object.keys(demand).map((code) => ids[code] as number)).execute();
    for (const [code, daily] of Object.entries(demand)) {
      const row = stored.find((r) => r.product_id === ids[code]) as (typeof stored)[number];
      const result = JSON.stringify({ ...(JSON.parse(row.result) as object), forecast: { from: TODAY, yhat: Array.from({ length: 90 }, () => daily) } });
      await db.updateTable('forecast_results').set({ result }).where('product_id', '=', row.product_id).execute();
    }
    try {
      const dead = (span: number, category: string | null) =>
        products.filter((p) => p.stock > 0 && sold(p.code, span) === 0 && (!category || p.category === category)).sort((a, b) => b.stock * b.cost - a.stock * a.cost || a.code.localeCompare(b.code));
      const deadWords = (list: typeof products, scope: string, span: number) =>
        `${list.length} ${list.length === 1 ? 'product' : 'products'}${scope} in stock had no sales in the last ${span} days (${rangeWords(lastDays(span))}): ${fmt(list.reduce((sum, p) => sum + p.stock, 0))} units, ${money(list.reduce((sum, p) => sum + p.stock * p.cost, 0))} tied up at unit cost.`;
      const { results, tools } = await toolResults([
        { name: 'overstock', args: {} },
        { name: 'overstock', args: { days: 90, category: 'clothing' } },
        { name: 'overstock', args: { days: 5000 } },
        { name: 'dead_stock', args: {} },
        { name: 'dead_stock', args: { days: 7, category: 'Kitchen' } },
        { name: 'dead_stock', args: { days: -1 } },
      ]);
      expect(tools.find((t) => t.function.name === 'overstock')?.function.parameters.properties.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 3650 });
      expect(results[0]?.text).toBe('1 product has more than 180 days of stock at the forecast demand: 750.00 tied up at unit cost. The most value first:');
      expect(results[0]?.tables[0]?.rows).toEqual([{ styleCode: 'MUG-02', name: 'Red Mug', onHand: 250, daily: 1, cover: 250, excess: 70, unit: null, value: 750 }]);
      expect(results[1]?.text).toBe('1 product in the Clothing category has more than 90 days of stock at the forecast demand: 2,500.00 tied up at unit cost. The most value first:');
      expect(results[1]?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['CAP-01']);
      expect(results[2]?.text).toBe("Error: 'days' must be a whole number from 1 to 3650 (default 180); got 5000.");
      // The engine's dead stock: the last 90 days unless the model gives the days.
      expect(results[3]?.text).toBe(deadWords(dead(90, null), '', 90));
      expect(results[3]?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(dead(90, null).map((p) => p.code));
      expect(results[4]?.text).toBe(deadWords(dead(7, 'Kitchen'), ' in the Kitchen category', 7));
      expect(results[4]?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(dead(7, 'Kitchen').map((p) => p.code));
      expect(results[5]?.text).toBe("Error: 'days' must be a whole number from 1 to 3650 (default 90); got -1.");
    } finally {
      for (const row of stored) await db.updateTable('forecast_results').set({ result: row.result }).where('product_id', '=', row.product_id).execute();
    }
  });

  it('falls back to the intent engine when the model fails', async () => {
    model.script([{ status: 500, body: { error: 'down' } }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content: 'stock of Blue Mug' } });
    expect((response.json.messages as ChatMessage[])[1]?.content).toContain('40 units on hand');
  });
});
