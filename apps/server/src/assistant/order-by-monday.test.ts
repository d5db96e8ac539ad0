// A shop closed at weekends reads its advice on Monday (ADR 0198 F12): the last sales are Friday's,
// the catalogue run's forecast starts on Saturday and most orders are due by that Saturday, a day
// gone by. The assistant's order tables mark their order-by column as order-by days — the web app
// writes one that has come "Now", as the Forecasting screen's lists do — and keep the day itself in
// the cells the CSV is written from; an order due this week counts Saturday's as due, not as missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantBlock, ChatMessage } from '@stockwise/contract';
import { upsertProductSummaries } from '../dashboard/repo.ts';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { ask, type AssistantContextDeps } from './service.ts';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
const FRIDAY = '2026-12-04';
const SATURDAY = '2026-12-05';
const WEDNESDAY = '2026-12-09';
// Monday 7 December, 9:00 in Chicago.
const MONDAY_MORNING = new Date('2026-12-07T15:00:00Z');

const PRODUCTS = [
  { code: 'PAP_A4_80', name: 'Copier Paper A4', orderQuantity: 60, orderBy: SATURDAY, stockout: '2026-12-10' },
  { code: 'FURN_7800', name: 'Desk Combination', orderQuantity: 4, orderBy: SATURDAY, stockout: '2026-12-15' },
  { code: 'PAP_NOTE', name: 'Sticky Notes 76x76', orderQuantity: 20, orderBy: WEDNESDAY, stockout: '2026-12-21' },
];

/** Four weeks of weekday sales up to Friday, counted on Friday, and the advice of a run whose forecast starts on Saturday. */
async function loadClosedAtWeekends(server: TestServer) {
  const db = server.database.db;
  const rows = await db
    .insertInto('data.products')
    .values(PRODUCTS.map((p) => ({ product_code: p.code, name: p.name, category: 'Office', current_stock: 10, unit_cost: 5, lead_time_days: 5 })))
    .returning(['id', 'product_code'])
    .execute();
  const idOf = (code: string) => rows.find((row) => row.product_code === code)?.id as number;
  const weekdays = Array.from({ length: 28 }, (_, at) => addDays(FRIDAY, -at)).filter((day) => !isWeekend(day));
  await db.insertInto('data.sales').values(PRODUCTS.flatMap((p) => weekdays.map((date) => ({ product_id: idOf(p.code), date, quantity: 2 })))).execute();
  await db.insertInto('data.stock_snapshots').values(PRODUCTS.map((p) => ({ product_id: idOf(p.code), date: FRIDAY, stock_level: 10 }))).execute();
  await storeCatalogueAdvice(
    db,
    PRODUCTS.map((p) => ({
      productId: idOf(p.code),
      forecastStart: SATURDAY,
      stockouts: [{ date: p.stockout, type: 'stockForecast' as const }],
      reorder: { reorderPoint: 12, safetyStock: 4, orderQuantity: p.orderQuantity, orderBy: p.orderBy, leadTimeDays: 5, serviceLevel: 0.95 },
    })),
  );
  await upsertProductSummaries(db, PRODUCTS.map((p) => ({ productId: idOf(p.code), forecastStart: SATURDAY, cumDemand: [0], cumVariance: [0], firstStockout: p.stockout, orderQuantity: p.orderQuantity })));
}

const tableOf = (message: ChatMessage | undefined) => message?.blocks.find((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');

describe.each(backends)('the order-by day of a shop closed at weekends, on a Monday, on %s', (backend) => {
  let server: TestServer;
  let ctx: AssistantContextDeps;
  let user: { userId: number; role: 'viewer' };
  beforeAll(async () => {
    server = await startTestServer(backend);
    user = { userId: (await signUpUser(server, { role: 'viewer' })).id, role: 'viewer' };
    ctx = { db: server.database.db, model: null, now: () => MONDAY_MORNING, timeZone: 'America/Chicago' };
    await loadClosedAtWeekends(server);
  });
  afterAll(() => server.stop());

  const answered = async (request: Parameters<typeof ask>[2]) => (await ask(ctx, user, request)).at(-1);

  it.each([
    ['the reorder report', 'reorder_report'],
    ['low stock', 'low_stock'],
  ] as const)("marks %s's order-by column as order-by days and keeps Saturday's day in its cells", async (_, quick) => {
    const answer = await answered({ content: '', quick });
    const table = tableOf(answer);
    expect(table?.columns.find((column) => column.key === 'orderBy')).toEqual({ key: 'orderBy', label: 'Order by', kind: 'order_by' });
    expect(table?.rows.map((row) => [row['styleCode'], row['orderBy']])).toEqual([
      ['FURN_7800', SATURDAY],
      ['PAP_A4_80', SATURDAY],
      ['PAP_NOTE', WEDNESDAY],
    ]);
    // The sentences name no order-by day: Saturday is nowhere written as a day to order by.
    expect(answer?.content).not.toContain('5 Dec');
  });

  it("counts Saturday's orders among those due today, and Wednesday's not yet", async () => {
    const answer = await answered({ content: 'what should I reorder today?' });
    expect(answer?.content).toContain('2 of 3 advised orders due by 7 Dec 2026 (today)');
    expect(tableOf(answer)?.rows.map((row) => row['styleCode'])).toEqual(['FURN_7800', 'PAP_A4_80']);
  });
});
