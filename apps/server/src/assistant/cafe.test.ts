// A Melbourne café-bakery asks the assistant (QA pass "an Australian café's first day", ADR 0193),
// through the real HTTP server: "how many croissants did we sell last Saturday?" answers that day,
// not the last 30 days; "what should I order from the dairy?" is Schulz Organic Dairy's list (a word
// of one supplier's name), while a word two suppliers share names neither.
import { beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type AssistantBlock, type ChatMessage } from '@stockwise/contract';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { backends, useServerWithUser } from '../testing/test-server.ts';

const MELBOURNE = 'Australia/Melbourne';
const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TODAY = dayInTimeZone(Date.now(), MELBOURNE);
/** The latest Saturday before today in Melbourne. */
const LAST_SATURDAY = addDays(TODAY, -(((new Date(`${TODAY}T00:00:00Z`).getUTCDay() - 6 + 6) % 7) + 1));
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const PRODUCTS = [
  { code: 'Croissant Regular', supplier: null },
  { code: 'Almond Croissant Regular', supplier: null },
  { code: 'Full Cream Milk 1 L', supplier: 'Schulz Organic Dairy' },
  { code: 'Oat Milk 1 L', supplier: 'Oatly Pty Ltd' },
  { code: 'House Blend Beans 250g', supplier: 'Padre Coffee' },
  { code: 'Decaf Beans 250g', supplier: 'Coffee Supreme' },
];

const tableOf = (message: ChatMessage | undefined) => message?.blocks.find((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');

describe.each(backends)("a Melbourne café's questions on %s", (backend) => {
  const viewer = useServerWithUser(backend, 'viewer');
  const ask = async (content: string) => {
    const response = await viewer.server().request(`/api/assistant/messages/?time_zone=${encodeURIComponent(MELBOURNE)}`, { token: viewer.user().access, headers: { 'accept-language': 'en-AU' }, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
  };
  beforeAll(async () => {
    const db = viewer.server().database.db;
    const rows = await db
      .insertInto('data.products')
      .values(PRODUCTS.map((p) => ({ product_code: p.code, name: p.code, supplier: p.supplier, current_stock: 5, unit_cost: 2, lead_time_days: 2 })))
      .returning(['id', 'product_code'])
      .execute();
    const idOf = (code: string) => rows.find((row) => row.product_code === code)?.id as number;
    // 40 croissants and 18 almond ones last Saturday; 35 the Friday before and 39 the Saturday a week earlier: not that day's.
    await db
      .insertInto('data.sales')
      .values([
        { product_id: idOf('Croissant Regular'), date: LAST_SATURDAY, quantity: 40 },
        { product_id: idOf('Almond Croissant Regular'), date: LAST_SATURDAY, quantity: 18 },
        { product_id: idOf('Croissant Regular'), date: addDays(LAST_SATURDAY, -1), quantity: 35 },
        { product_id: idOf('Croissant Regular'), date: addDays(LAST_SATURDAY, -7), quantity: 39 },
        // Milk and beans sell too: products with demand are the ones an order is advised for.
        ...PRODUCTS.filter((p) => p.supplier !== null).map((p) => ({ product_id: idOf(p.code), date: addDays(TODAY, -3), quantity: 2 })),
      ])
      .execute();
    await storeCatalogueAdvice(
      db,
      PRODUCTS.map((p) => ({
        productId: idOf(p.code),
        forecastStart: TODAY,
        stockouts: [{ date: addDays(TODAY, 3), type: 'stockForecast' as const }],
        reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: 12, orderBy: addDays(TODAY, 1), leadTimeDays: 2, serviceLevel: 0.95 },
      })),
    );
  });

  it('answers "last Saturday" as that day (QA café F7)', async () => {
    const answer = await ask('how many croissants did we sell last Saturday?');
    const day = `${Number(LAST_SATURDAY.slice(8))} ${SHORT[Number(LAST_SATURDAY.slice(5, 7)) - 1]} ${LAST_SATURDAY.slice(0, 4)}`;
    expect(answer.content).toMatch(/^58 units were sold of products whose name holds "Croissant"/);
    expect(answer.content).toContain(day);
    expect(answer.content).not.toContain('I did not use');
  });

  it('reads "the dairy" as the one supplier whose name holds the word; a word two suppliers share, or a company word, names none (QA café F8)', async () => {
    const dairy = await ask('what should I order from the dairy?');
    expect(dairy.content).toMatch(/^Reorder report for Schulz Organic Dairy: 1 advised order/);
    expect(tableOf(dairy)?.rows.map((row) => row.styleCode)).toEqual(['Full Cream Milk 1 L']);
    expect((await ask('what should I order from Padre?')).content).toMatch(/^Reorder report for Padre Coffee: 1 advised order/);
    // "Coffee" is in two suppliers' names, "Pty" a company's legal form: the answer lists the suppliers instead of guessing.
    expect((await ask('what should I order from coffee?')).content).toMatch(/^No product is bought from a supplier named "coffee"\. The suppliers are /);
    expect((await ask('what should I order from pty?')).content).toMatch(/^No product is bought from a supplier named "pty"/);
  });
});
