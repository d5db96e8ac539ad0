// The report writer's stock lists (low, out of, over and dead stock) through the real server after a
// real catalogue run: they list what each product has on hand now as the Forecasting screen's header
// shows it — its count less the sales since, plus the deliveries since — not the stored count, so a
// report and the dashboard give the same figures on the same data (ADR 0154, amendment 2026-12-04).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@stockwise/contract';
import { importFile } from '../testing/uploads.ts';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, type TestServer } from '../testing/test-server.ts';

const HISTORY_DAYS = 120;
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const COUNTED_ON = dayOf(HISTORY_DAYS - 10);
// TAPE-3 is counted at 3 and sells on: below nothing now. TAPE-400 holds far more than it sells.
const COUNTS = { 'TAPE-50': 50, 'TAPE-3': 3, 'TAPE-400': 400, 'TAPE-IDLE': 20 } as const;
const SELLING = ['TAPE-50', 'TAPE-3', 'TAPE-400', 'TAPE-NONE', 'TAPE-0'];

type Row = Record<string, unknown>;

describe.each(backends)("the report writer's stock lists on %s", (backend) => {
  let server: TestServer;
  let client: ForecastClient;
  let token: string;
  /** What the Forecasting screen's header shows on hand now, by product (null: never counted). */
  const header = new Map<string, number | null>();
  const write = async (question: string) => {
    const response = await server.request('/api/user-reports/generate-from-request/', {
      token,
      body: { report_id: null, change_request: question, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
    });
    expect(response.status, response.text).toBe(200);
    return response.json as { success: boolean; sql_code: string; pseudocode: string };
  };
  const rowsOf = async (question: string): Promise<Row[]> => {
    const report = await write(question);
    expect(report.success, question).toBe(true);
    const response = await server.request('/api/user-reports/execute/', { token, body: { sql_code: report.sql_code } });
    expect(response.json.success, response.text).toBe(true);
    return response.json.results as Row[];
  };
  const onHandOf = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.product_code as string, Number(row.on_hand)]));
  /** The products whose header figure passes `keep`, with that figure. */
  const headerWhere = (keep: (units: number) => boolean) => Object.fromEntries([...header].filter((entry): entry is [string, number] => entry[1] !== null && keep(entry[1])));

  beforeAll(async () => {
    // One or two units a day of each selling tape; TAPE-IDLE sold only long ago. TAPE-0 is counted 0 today
    // (the list's stock column); the others come with a blank stock cell and are counted ten days ago.
    const tillLines = Array.from({ length: HISTORY_DAYS }, (_, t) => SELLING.map((code) => `${dayOf(t)},${code},${1 + (t % 2)}`)).flat();
    tillLines.push(`${dayOf(0)},TAPE-IDLE,4`);
    ({ server, token, client } = await startShopServer(backend, {
      products: `Item,Description,On hand\n${[...Object.keys(COUNTS), 'TAPE-NONE'].map((code) => `${code},Tape ${code},`).join('\n')}\nTAPE-0,Tape TAPE-0,0\n`,
      productColumns: { current_stock: 'On hand' },
      tillLines,
    }));
    const counts = await importFile(server, token, {
      fileName: 'counts.csv',
      content: `Item,Day,Counted\n${Object.entries(COUNTS).map(([code, units]) => `${code},${COUNTED_ON},${units}`).join('\n')}\n`,
      mapping: { field_mappings: { product_id: 'Item', date: 'Day', stock_level: 'Counted' } },
      entityType: 'stock_snapshots',
    });
    expect(counts.status, JSON.stringify(counts.json)).toBe(200);
    // A delivery received after TAPE-IDLE's count: 30 more on the shelf than counted, none sold.
    const db = server.database.db;
    const idle = await db.selectFrom('data.products').select('id').where('product_code', '=', 'TAPE-IDLE').executeTakeFirstOrThrow();
    await db.insertInto('data.deliveries').values({ product_id: idle.id, expected_date: dayOf(HISTORY_DAYS - 5), quantity: 30, status: 'received' }).execute();
    expect(await client.run()).toMatchObject({ status: 'completed', results: { failed: [] } });
    for (const code of [...Object.keys(COUNTS), 'TAPE-NONE', 'TAPE-0']) header.set(code, (await client.forecastOf(code)).product.onHand?.units ?? null);
    // Added since the run, not forecast yet: the lists and the dashboard count its stored figure.
    await db.insertInto('data.products').values({ product_code: 'TAPE-NEW', name: 'Tape TAPE-NEW', current_stock: 7, unit_cost: 2, lead_time_days: 7 }).execute();
    header.set('TAPE-NEW', 7);
  });
  afterAll(() => server.stop());

  it('the set-up moved stock away from the counts: the header differs from the stored count', () => {
    expect(header.get('TAPE-50')).toBeLessThan(50);
    expect(header.get('TAPE-3')).toBeLessThan(0);
    expect(header.get('TAPE-IDLE')).toBe(50);
    expect(header.get('TAPE-NONE')).toBeNull();
    expect(header.get('TAPE-0')).toBe(0);
  });

  it("low stock lists the products with fewer units on hand now than asked, with the header's figure, lowest first; never counted is not low", async () => {
    const rows = await rowsOf('products with stock below 45');
    expect(onHandOf(rows)).toEqual(headerWhere((units) => units < 45));
    expect(rows.map((row) => Number(row.on_hand))).toEqual([...rows.map((row) => Number(row.on_hand))].sort((a, b) => a - b));
    expect(rows.map((row) => row.product_code)).toContain('TAPE-50');
    expect(rows.map((row) => row.product_code)).not.toContain('TAPE-NONE');
  });

  it('out of stock lists the products with nothing on hand now, as the Forecasting screen says "out of stock now"', async () => {
    const rows = await rowsOf('which products are out of stock');
    expect(onHandOf(rows)).toEqual(headerWhere((units) => units <= 0));
    expect(Object.keys(onHandOf(rows)).sort()).toEqual(['TAPE-0', 'TAPE-3']);
  });

  it("the dashboard's stock total is the sum of what the report lists on hand (below nothing counts 0)", async () => {
    const rows = await rowsOf('products with stock below 1000000');
    expect(rows).toHaveLength([...header.values()].filter((units) => units !== null).length);
    const dashboard = (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
    expect(dashboard.inventoryStats?.totalInventory).toBeCloseTo(rows.reduce((sum, row) => sum + Math.max(Number(row.on_hand), 0), 0), 6);
  });

  it("stock and stock value by product, by category and in total count what is on hand now: the header's figures, and the dashboard's totals", async () => {
    // A price on every tape, so the value counts each one's units.
    await server.database.db.updateTable('data.products').set({ unit_cost: 3 }).where('product_code', '!=', 'TAPE-NEW').execute();
    // Sold below its count: 0, as the dashboard counts it; never counted: no figure, not listed.
    const floored = Object.fromEntries([...header].filter((entry): entry is [string, number] => entry[1] !== null).map(([code, units]) => [code, Math.max(units, 0)]));
    const byProduct = await rowsOf('stock by product');
    expect(Object.fromEntries(byProduct.map((row) => [row.product_code, Number(row.on_hand)]))).toEqual(floored);
    const dashboard = (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
    const [total] = await rowsOf('how much stock do we have');
    expect(Number(total?.on_hand)).toBeCloseTo(dashboard.inventoryStats?.totalInventory ?? NaN, 6);
    expect(Number(total?.on_hand)).toBeCloseTo(Object.values(floored).reduce((sum, units) => sum + units, 0), 6);
    const byCategory = await rowsOf('stock by category');
    expect(byCategory.reduce((sum, row) => sum + Number(row.on_hand), 0)).toBeCloseTo(dashboard.inventoryStats?.totalInventory ?? NaN, 6);
    const [value] = await rowsOf('total stock value');
    expect(Number(value?.stock_value)).toBeCloseTo(dashboard.inventoryStats?.totalValue ?? NaN, 2);
    const valueByCategory = await rowsOf('stock value by category');
    expect(valueByCategory.reduce((sum, row) => sum + Number(row.stock_value), 0)).toBeCloseTo(dashboard.inventoryStats?.totalValue ?? NaN, 2);
  });

  it('overstock and dead stock measure what is on hand now: the delivery since the count is on the shelf', async () => {
    const dead = await rowsOf('dead stock');
    expect(onHandOf(dead)).toEqual({ 'TAPE-IDLE': 50, 'TAPE-NEW': 7 });
    const over = onHandOf(await rowsOf('overstock'));
    expect(over['TAPE-IDLE']).toBe(50);
    expect(over['TAPE-400']).toBe(header.get('TAPE-400'));
    expect(over['TAPE-400']).toBeLessThan(400);
  });

  it("what to reorder lists as many products as the dashboard's reorder task counts on the reorder list", async () => {
    const rows = await rowsOf('what should we reorder?');
    const dashboard = (await server.request('/api/dashboard/', { token })).json as unknown as DashboardResponse;
    const task = dashboard.tasks.find((candidate) => candidate.kind === 'reorder');
    expect(task?.text).toContain(`(${rows.length} on the reorder list)`);
  });
});
