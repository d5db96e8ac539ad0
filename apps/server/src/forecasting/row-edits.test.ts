// A row written on the Data screen changes the forecasts made from it (ADR 0133): a buyer who
// corrects a stock count, adds a delivery or deletes a wrong count sees the product's forecast and
// advice follow within seconds, as after an import, instead of the next nightly run.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueRunsSettled, historyUntilYesterday, productRunsSettled, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';
import * as repo from './repo.ts';
import { createForecastingContext, refreshForecastsAfterDeliveries } from './service.ts';

const HISTORY_DAYS = 60;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const TODAY = dayOf(HISTORY_DAYS);

describe.each(backends)('rows written on the Data screen on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const productId = async (code: string) => Number((await sql<{ id: string }>`select id from data.products where product_code = ${code}`.execute(server.database.db)).rows[0]?.id);
  const taskIdsOf = async (code: string) => (await sql<{ id: string }>`select id from forecast_tasks where style_code = ${code} order by created_at`.execute(server.database.db)).rows.map((row) => row.id);
  const listTaskIds = async () => (await sql<{ id: string }>`select id from forecast_tasks where product_ids is not null order by created_at`.execute(server.database.db)).rows.map((row) => row.id);
  /** Writes through the Data screen's API and returns the single-product runs the write queued for `code`. */
  async function write(action: 'add' | 'edit' | 'delete', table: string, body: Record<string, unknown>, code: string, query = ''): Promise<{ row: Record<string, unknown>; queued: string[] }> {
    const before = new Set(await taskIdsOf(code));
    const response = await server.request(`/api/records/tables/${table}/rows/${action}/${query}`, { token, body });
    expect(response.status, response.text).toBe(action === 'add' ? 201 : 200);
    return { row: response.json as Record<string, unknown>, queued: (await taskIdsOf(code)).filter((id) => !before.has(id)) };
  }
  async function forecastAfter(queued: string[], code: string) {
    expect(queued).toHaveLength(1);
    expect(await client.completed(queued[0]!)).toMatchObject({ status: 'completed' });
    return client.forecastOf(code);
  }

  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) for (const code of ['OIL-1', 'OIL-2']) tillLines.push(`${dayOf(t)},${code},${2 + (t % 3)}`);
    ({ server, token, client } = await startShopServer(backend, { products: 'Item,Description\nOIL-1,Olive oil 1 l\nOIL-2,Olive oil 5 l\n', tillLines }));
  });
  afterAll(() => server.stop());

  it("forecasts a product again when its stock on hand is corrected, and not when only its name is", async () => {
    expect((await client.forecastOf('OIL-1')).forecast.stock).toEqual([]);
    const id = await productId('OIL-1');
    const corrected = await write('edit', 'products', { id, current_stock: 40 }, 'OIL-1');
    const forecast = await forecastAfter(corrected.queued, 'OIL-1');
    expect(forecast.forecast.stock[0]!.stock_level).toBeCloseTo(40 - forecast.forecast.sales[0]!.yhat, 2);
    expect((await write('edit', 'products', { id, name: 'Olive oil, 1 litre' }, 'OIL-1')).queued).toEqual([]);
  });

  it('forecasts a product again after a stock count is added on the Data screen and after it is deleted', async () => {
    const product_id = await productId('OIL-2');
    const counted = await write('add', 'stock_snapshots', { product_id, date: TODAY, stock_level: 3 }, 'OIL-2');
    const withCount = await forecastAfter(counted.queued, 'OIL-2');
    expect(withCount.forecast.stock[0]!.stock_level).toBeCloseTo(3 - withCount.forecast.sales[0]!.yhat, 2);
    expect(withCount.stockouts.length).toBeGreaterThan(0);
    const deleted = await write('delete', 'stock_snapshots', { id: counted.row.id }, 'OIL-2');
    const withoutCount = await forecastAfter(deleted.queued, 'OIL-2');
    expect(withoutCount.forecast.stock).toEqual([]);
    expect(withoutCount.stockouts).toEqual([]);
  });

  it('forecasts both products in one list run when a sales row is moved from one to the other (ADR 0187)', async () => {
    const [oil1, oil2] = [await productId('OIL-1'), await productId('OIL-2')];
    const day = dayOf(HISTORY_DAYS - 1);
    const { rows } = await sql<{ id: string }>`select id from data.sales where product_id = ${oil1} and date = ${day}`.execute(server.database.db);
    // OIL-2 sold that day too: the row goes to the day before its first sale.
    const listsBefore = new Set(await listTaskIds());
    const moved = await server.request('/api/records/tables/sales/rows/edit/', { token, body: { id: rows[0]!.id, product_id: oil2, date: dayOf(-1), quantity: 30 } });
    expect(moved.status, moved.text).toBe(200);
    const queued = (await listTaskIds()).filter((id) => !listsBefore.has(id));
    const [oil1Forecast, oil2Forecast] = [await forecastAfter(queued, 'OIL-1'), await client.forecastOf('OIL-2')];
    expect((await sql<{ product_ids: string[] }>`select product_ids::text[] from forecast_tasks where id = ${queued[0]!}`.execute(server.database.db)).rows[0]?.product_ids.map(Number)).toEqual([oil1, oil2].sort((a, b) => a - b));
    expect(oil1Forecast.historical.sales.find((point) => point.ds === day)?.y ?? 0).toBe(0);
    expect(oil2Forecast.historical.sales.find((point) => point.ds === dayOf(-1))?.y).toBe(30);
  });

  it("keeps the product's new forecast when a run that read it before the write stores its forecast later (ADR 0134)", async () => {
    const { db } = server.database;
    const id = await productId('OIL-2');
    const storedOf = async () =>
      (
        await sql<{ result: string; cum_demand: number[]; first_stockout: string | null }>`
          select f.result, s.cum_demand, s.first_stockout::text from forecast_results f join dashboard_product_summary s using (product_id) where product_id = ${id}`.execute(db)
      ).rows[0]!;
    // A catalogue run going on: it read OIL-2 before the write and has its forecast still to store.
    const running = randomUUID();
    await sql`insert into forecast_tasks (id, style_code, forecast_days, status, progress_total, updated_at) values (${running}, null, 90, 'running', 2, now())`.execute(db);
    const readBeforeWrite = await repo.productRowsOf(db, id, dayOf(0));
    const old = await storedOf();
    const lateWrite = (inputsReadAt: string) =>
      repo.storeForecastRows(db, [{ productId: id, resultJson: old.result, cumDemand: old.cum_demand, cumVariance: old.cum_demand, firstStockout: old.first_stockout, orderQuantity: 0 }], {
        taskId: running,
        forecastDays: 90,
        forecastStart: TODAY,
        inputsReadAt,
      });
    try {
      const corrected = await write('edit', 'products', { id, current_stock: 25 }, 'OIL-2');
      const renewed = await forecastAfter(corrected.queued, 'OIL-2');
      expect(renewed.forecast.stock[0]!.stock_level).toBeCloseTo(25 - renewed.forecast.sales[0]!.yhat, 2);
      // Its own run is the last word: no second whole-catalogue run is queued for it.
      expect((await sql`select id from forecast_tasks where style_code is null and status = 'pending'`.execute(db)).rows).toEqual([]);
      const renewedStored = await storedOf();

      // The running one stores what it read before the write: the product has a forecast (counted), not that one.
      expect(await lateWrite(readBeforeWrite.readAt!)).toBe(1);
      expect(await storedOf()).toEqual(renewedStored);
      expect((await client.forecastOf('OIL-2')).forecast.stock[0]!.stock_level).toBeCloseTo(25 - renewed.forecast.sales[0]!.yhat, 2);
      // A forecast from a read after the product's run replaces it, as any newer one does.
      expect(await lateWrite((await repo.productRowsOf(db, id, dayOf(0))).readAt!)).toBe(1);
      expect(await storedOf()).toEqual(old);
    } finally {
      await sql`update forecast_tasks set status = 'completed' where id = ${running}`.execute(db);
    }
  });

  it("forecasts a product again when the assistant creates its advised order, which then counts as on order", async () => {
    const id = await productId('OIL-1');
    const short = await forecastAfter((await write('edit', 'products', { id, current_stock: 4 }, 'OIL-1')).queued, 'OIL-1');
    expect(short.reorder.orderQuantity).toBeGreaterThan(0);
    const before = new Set(await taskIdsOf('OIL-1'));
    const created = await server.request('/api/assistant/actions/', { token, body: { action: 'create_recommended_orders' } });
    expect(created.status, created.text).toBe(200);
    expect(JSON.stringify(created.json)).toContain('being updated');
    const { rows } = await sql<{ expected_date: string; quantity: number }>`select expected_date::text, quantity from data.deliveries where product_id = ${id} and status = 'scheduled'`.execute(server.database.db);
    expect(rows).toEqual([{ expected_date: expect.any(String), quantity: short.reorder.orderQuantity }]);
    const onOrder = await forecastAfter((await taskIdsOf('OIL-1')).filter((task) => !before.has(task)), 'OIL-1');
    const arrival = onOrder.forecast.stock.findIndex((point) => point.ds === rows[0]!.expected_date);
    expect(arrival).toBeGreaterThan(0);
    expect(onOrder.forecast.stock[arrival]!.stock_level - onOrder.forecast.stock[arrival - 1]!.stock_level).toBeCloseTo(short.reorder.orderQuantity - onOrder.forecast.sales[arrival]!.yhat, 2);
  });

  it("queues one list run, not a run per product, when the assistant's advised orders give many products a delivery, and one catalogue run above the list's limit", async () => {
    const { db } = server.database;
    const codes = Array.from({ length: 21 }, (_, i) => `MANY-${i + 1}`);
    const ids: number[] = [];
    for (const code of codes) ids.push(Number((await write('add', 'products', { product_code: code, name: code }, code)).row.id));
    await productRunsSettled(db, codes.at(-1)!);
    const queuedBy = async (limit: number) => {
      const before = new Set((await sql<{ id: string }>`select id from forecast_tasks`.execute(db)).rows.map((row) => row.id));
      await refreshForecastsAfterDeliveries(createForecastingContext(db, server.queue, { listRunMostProducts: limit }), ids);
      const queued = (await sql<{ id: string; style_code: string | null; listed: number | null }>`select id, style_code, cardinality(product_ids) as listed from forecast_tasks`.execute(db)).rows.filter((row) => !before.has(row.id));
      await catalogueRunsSettled(db);
      return queued.map(({ style_code, listed }) => ({ style_code, listed }));
    };
    expect(await queuedBy(21)).toEqual([{ style_code: null, listed: 21 }]);
    expect(await queuedBy(20)).toEqual([{ style_code: null, listed: null }]);
  });

  it('queues no second run of a product while one waits to start', async () => {
    const waiting = randomUUID();
    await sql`insert into forecast_tasks (id, style_code, forecast_days, status) values (${waiting}, 'OIL-1', 90, 'pending')`.execute(server.database.db);
    try {
      const { rows } = await sql<{ id: string }>`select id from data.sales where product_id = ${await productId('OIL-1')} order by date desc limit 1`.execute(server.database.db);
      expect((await write('edit', 'sales', { id: rows[0]!.id, quantity: 9 }, 'OIL-1')).queued).toEqual([]);
    } finally {
      await sql`update forecast_tasks set status = 'completed' where id = ${waiting}`.execute(server.database.db);
    }
  });

  it("starts the projection from a stock typed by someone whose day is ahead of the shop's (ADR 0030's amendment of 2026-12-06)", async () => {
    // 25 hours apart: the writer's day is always the shop's tomorrow or the day after, the count dated after the forecast's first day.
    const [shopZone, writerZone] = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'];
    const chosen = await server.request('/api/shop/time-zone/', { token, method: 'PUT', body: { timeZone: shopZone } });
    expect(chosen.status, chosen.text).toBe(200);
    const id = await productId('OIL-1');
    const corrected = await write('edit', 'products', { id, current_stock: 25 }, 'OIL-1', `?time_zone=${encodeURIComponent(writerZone)}`);
    const forecast = await forecastAfter(corrected.queued, 'OIL-1');
    const { rows } = await sql<{ date: string }>`select date::text as date from data.stock_snapshots where product_id = ${id} order by date desc limit 1`.execute(server.database.db);
    expect(rows[0]!.date > forecast.forecast.sales[0]!.ds).toBe(true);
    expect(forecast.forecast.stock[0]!.stock_level).toBeCloseTo(25 - forecast.forecast.sales[0]!.yhat, 2);
    expect(forecast.product.onHand).toEqual({ units: 25, countedUnits: 25, countedOn: rows[0]!.date });
  });
});
