// QA5 #5 and #14, a garden centre in its Christmas season: a catalogue run over HTTP. Christmas trees
// whose order would arrive after the season are not ordered (not on the list, not by the assistant,
// not by "Create the recommended orders"); bedding plants between their seasons are not "no sales in
// 90 days" on the dashboard, nor in the assistant's no-sales and dead-stock answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ChatMessage, DashboardResponse, InventoryReport } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
const shiftDay = (ds: string, offset: number) => new Date(Date.parse(`${ds}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
/** Each day from `from` to `to` (offsets from today), a year and two years back as well, up to yesterday. */
const seasonDays = (from: number, to: number) => [0, 365, 730].flatMap((back) => Array.from({ length: to - from + 1 }, (_, i) => from + i - back)).filter((offset) => offset < 0);

describe.each(backends)('season-only items in a catalogue run, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const ask = async (content: string) => {
    const response = await api('/api/assistant/messages/', { context: { page: 'home', path: '/home' }, content });
    expect(response.status, response.text).toBe(200);
    const answer = (response.json.messages as ChatMessage[]).at(-1)!;
    // Its sentence, then its tables' cells.
    return `${answer.content}\n${JSON.stringify(answer.blocks.filter((block) => block.type === 'table'))}`;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    const db = server.database.db;
    const product = async (code: string, leadTimeDays: number, stock: number, sales: { offset: number; units: number }[]) => {
      const { id } = await db.insertInto('data.products').values({ product_code: code, name: code, current_stock: stock, unit_cost: 3, lead_time_days: leadTimeDays }).returning('id').executeTakeFirstOrThrow();
      if (sales.length) await db.insertInto('data.sales').values(sales.map((sale) => ({ product_id: id, date: day(sale.offset), quantity: sale.units }))).execute();
      await db.insertInto('data.stock_snapshots').values({ product_id: id, date: day(-1), stock_level: stock }).execute();
    };
    // Trees: 5 a day from 20 days ago to 20 days on, every year; 20 on hand, 28 days to deliver.
    await product('XT-TREE', 28, 20, seasonDays(-20, 20).map((offset) => ({ offset, units: 5 })));
    // Sells all year, 10 a day; 5 on hand, 14 days to deliver: an order now.
    await product('STEADY', 14, 5, Array.from({ length: 400 }, (_, i) => ({ offset: i - 400, units: 10 })));
    // Bedding plants: 3 a day from 120 to 200 days on, the last two years; 50 on hand, nothing sold since.
    for (const code of ['BED-1', 'BED-2', 'BED-3']) await product(code, 14, 50, seasonDays(120, 200).map((offset) => ({ offset, units: 3 })));
    // Sold every day until 100 days ago, never since: stock that does not sell, in or out of any season.
    await product('DEAD-1', 14, 10, Array.from({ length: 300 }, (_, i) => ({ offset: i - 400, units: 2 })));
    token = (await signUpUser(server)).access;
    client = forecastClient(server, token);
    expect((await client.run()).status).toBe('completed');
  });
  afterAll(() => server.stop());

  it('orders no trees that would arrive after the season, says when next season’s buying starts, and keeps the stockout (QA5 #5)', async () => {
    const trees = await client.forecastOf('XT-TREE');
    expect(trees.metrics.model.patterns).toContain('season_only');
    expect(trees.stockouts.some((stockout) => stockout.type === 'stockForecast' && stockout.date < day(20))).toBe(true);
    // Before: an order of the season's demand less the 20 on hand, arriving after the season's last day.
    const nextSeason = `${Number(day(-20).slice(0, 4)) + 1}${day(-20).slice(4)}`;
    expect(trees.reorder).toMatchObject({ orderQuantity: 0, orderBy: null, tooLateForSeason: { arrives: day(28), seasonFrom: day(-20), seasonTo: day(20), nextOrderFrom: shiftDay(nextSeason, -28) } });

    const report = ((await api('/api/forecasting/latest-report/?page_size=500')).json as { report: InventoryReport }).report;
    expect(report.products.map((p) => p.styleCode)).toEqual(['STEADY']);
    const advice = await ask('what should I order');
    expect(advice).toContain('STEADY');
    expect(advice).not.toContain('XT-TREE');
    const created = await api('/api/assistant/actions/', { action: 'create_recommended_orders' });
    expect(created.status, created.text).toBe(200);
    const ordered = (await sql<{ code: string }>`select p.product_code as code from data.deliveries d join data.products p on p.id = d.product_id order by 1`.execute(server.database.db)).rows.map((row) => row.code);
    expect(ordered).toEqual(['STEADY']);
  });

  it('leaves bedding plants between their seasons out of "no sales in 90 days", and says how many it left out (QA5 #14)', async () => {
    const bedding = await client.forecastOf('BED-1');
    expect(bedding.metrics.model.patterns).toContain('season_only');
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    // Before: "Review 4 products with no sales in 90 days", the three bedding plants among them.
    expect(dashboard.tasks.find((task) => task.kind === 'no_sales')?.text).toBe('Review 1 product with no sales in 90 days');
    const dead = await ask('dead stock');
    expect(dead).toMatch(/^1 product in stock had no sales in the last 90 days/);
    expect(dead).toContain('3 products that sell in their season only are out of season and left out.');
    const unsold = await ask('which products have not sold in 90 days');
    expect(unsold).toMatch(/^1 product has no sales in the last 90 days/);
    expect(unsold).toContain('3 products that sell in their season only are out of season and left out.');
  });
});
