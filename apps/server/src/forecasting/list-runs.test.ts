// A task of a list of products (ADR 0187), on PGlite and PostgreSQL: a supplier's orders recorded
// at once (ADR 0185) start one run of those products alone — the other products' stored forecasts
// untouched — with progress and a status like any run's; a list joins a whole-catalogue run waiting
// to start, merges into a list waiting to start, gives way to a catalogue run above the limit, and
// a list's run cut off when the server stopped goes on after the products it stored; list requests
// made at the same moment (two API instances, two Data-screen edits) queue one list, not one each.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedOrders, TaskStatusResponse } from '@stockwise/contract';
import { historyUntilYesterday, startShopServer, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { createForecastingContext, refreshForecastAfterOrders, refreshForecastsAfterDeliveries, runForecastGeneration } from './service.ts';

const HISTORY_DAYS = 60;
const CODES = ['LI-1', 'LI-2', 'LI-3', 'LI-4', 'LI-5', 'LI-6'];
const dayOf = historyUntilYesterday(HISTORY_DAYS);
const inDays = (days: number) => dayOf(HISTORY_DAYS + days);

describe.each(backends)('a run of a list of products on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  let ids: Record<string, number>;
  let userId: number;
  const db = () => server.database.db;
  const context = (options: { listRunMostProducts?: number } = {}) => createForecastingContext(db(), server.queue, options);
  const idsOf = (...codes: string[]) => codes.map((code) => ids[code] as number);

  type Stored = { code: string; task_id: string | null; generated_at: string };
  const stored = async (): Promise<Record<string, Stored>> => {
    const { rows } = await sql<Stored>`select p.product_code as code, f.task_id, f.generated_at::text from forecast_results f join data.products p on p.id = f.product_id order by p.id`.execute(db());
    return Object.fromEntries(rows.map((row) => [row.code, row]));
  };
  const task = async (taskId: string) =>
    (await sql<{ style_code: string | null; product_ids: (number | string)[] | null; status: string }>`select style_code, product_ids, status from forecast_tasks where id = ${taskId}::uuid`.execute(db())).rows[0]!;
  const listOf = async (taskId: string) => (await task(taskId)).product_ids?.map(Number) ?? null;
  /** A task as one waiting to start looks (its job not yet taken): nothing runs it but the test. */
  async function waiting(productIds: number[] | null): Promise<string> {
    const id = randomUUID();
    await sql`insert into forecast_tasks (id, product_ids, forecast_days, status) values (${id}, ${productIds}::bigint[], 90, 'pending')`.execute(db());
    return id;
  }
  const runNow = async (taskId: string) => {
    await runForecastGeneration({ db: db() }, { taskId });
    return client.completed(taskId);
  };
  const orders = (codes: string[], quantity: number) => ({ orders: codes.map((styleCode, at) => ({ styleCode, quantity, expectedDate: inDays(3 + at) })) });

  beforeAll(async () => {
    const tillLines: string[] = [];
    for (let t = 0; t < HISTORY_DAYS; t++) CODES.forEach((code, at) => tillLines.push(`${dayOf(t)},${code},${4 + ((t + at) % 3)}`));
    ({ server, token, client } = await startShopServer(backend, { products: `Item,Description,On hand\n${CODES.map((code) => `${code},Tin ${code},30`).join('\n')}\n`, productColumns: { current_stock: 'On hand' }, tillLines }));
    const { rows } = await sql<{ code: string; id: string }>`select product_code as code, id from data.products`.execute(db());
    ids = Object.fromEntries(rows.map((row) => [row.code, Number(row.id)]));
    userId = Number((await db().selectFrom('users').select('id').executeTakeFirstOrThrow()).id);
  });
  afterAll(() => server?.stop());

  it('forecasts exactly the products of a batch of three orders in one list task, with progress and a status like any run', async () => {
    const before = await stored();
    const summaryBefore = (await sql<{ computed_at: string }>`select computed_at::text from dashboard_catalogue_summary`.execute(db())).rows[0]!.computed_at;
    expect(Object.values(before).map((row) => row.task_id)).toEqual(Array(6).fill(before['LI-1']!.task_id));
    const answer = await server.request('/api/order-advice/orders/batch/', { token, body: orders(['LI-1', 'LI-3', 'LI-5'], 500) });
    expect(answer.status, answer.text).toBe(201);
    const taskId = (answer.json as unknown as RecordedOrders).taskId!;
    expect(await task(taskId)).toMatchObject({ style_code: null });
    expect(await listOf(taskId)).toEqual(idsOf('LI-1', 'LI-3', 'LI-5'));

    const status = await client.completed(taskId);
    expect(status).toEqual({
      task_id: taskId,
      status: 'completed',
      progress: { done: 3, total: 3 },
      results: { style_code: null, forecast_days: 90, products: 3, failed: [], stockouts: expect.any(Number), duration_ms: expect.any(Number) },
      error: null,
      restart: null,
    } satisfies TaskStatusResponse);
    const after = await stored();
    for (const code of ['LI-1', 'LI-3', 'LI-5']) {
      expect(after[code]!.task_id, code).toBe(taskId);
      expect(after[code]!.generated_at > before[code]!.generated_at, code).toBe(true);
      // The delivery counts: the product has enough on order.
      expect((await client.forecastOf(code)).reorder, code).toMatchObject({ orderQuantity: 0, orderBy: null });
    }
    // The other products' forecasts are the catalogue run's, as they were.
    for (const code of ['LI-2', 'LI-4', 'LI-6']) expect(after[code], code).toEqual(before[code]);
    // The lists' counts and the dashboard were read again after it, as after a product's run.
    const summaryAfter = (await sql<{ computed_at: string }>`select computed_at::text from dashboard_catalogue_summary`.execute(db())).rows[0]!.computed_at;
    expect(summaryAfter > summaryBefore).toBe(true);
    // The report is still the catalogue run's.
    const report = (await server.request('/api/forecasting/latest-report/', { token })).json as { report: { id: string } };
    expect(report.report.id).toBe(before['LI-1']!.task_id);
  });

  it('joins a whole-catalogue run waiting to start, which forecasts them', async () => {
    const catalogue = await waiting(null);
    const answer = await server.request('/api/order-advice/orders/batch/', { token, body: orders(['LI-2', 'LI-4'], 1) });
    expect(answer.status, answer.text).toBe(201);
    expect((answer.json as unknown as RecordedOrders).taskId).toBe(catalogue);
    expect(await runNow(catalogue)).toMatchObject({ status: 'completed', results: { products: 6 } });
    expect(Object.values(await stored()).map((row) => row.task_id)).toEqual(Array(6).fill(catalogue));
  });

  it('merges a list into the list waiting to start, as one task of their union, while it stays within the limit', async () => {
    const list = await waiting(idsOf('LI-1', 'LI-2'));
    expect(await refreshForecastAfterOrders(context(), idsOf('LI-3', 'LI-2'), userId)).toBe(list);
    expect(await listOf(list)).toEqual(idsOf('LI-1', 'LI-2', 'LI-3'));
    // Past the limit the waiting list stays as it is and a list of its own is queued.
    const own = await refreshForecastAfterOrders(context({ listRunMostProducts: 4 }), idsOf('LI-5', 'LI-6'), userId);
    expect(own).not.toBe(list);
    expect(await listOf(list)).toEqual(idsOf('LI-1', 'LI-2', 'LI-3'));
    expect(await listOf(own)).toEqual(idsOf('LI-5', 'LI-6'));
    expect(await client.completed(own)).toMatchObject({ status: 'completed', progress: { done: 2, total: 2 } });

    const before = await stored();
    expect(await runNow(list)).toMatchObject({ status: 'completed', progress: { done: 3, total: 3 }, results: { products: 3 } });
    const after = await stored();
    expect(['LI-1', 'LI-2', 'LI-3'].map((code) => after[code]!.task_id)).toEqual([list, list, list]);
    for (const code of ['LI-4', 'LI-5', 'LI-6']) expect(after[code], code).toEqual(before[code]);
    // A running list takes no more: the next request queues its own.
    const running = await waiting(idsOf('LI-4', 'LI-5'));
    await sql`update forecast_tasks set status = 'running' where id = ${running}::uuid`.execute(db());
    const next = await refreshForecastAfterOrders(context(), idsOf('LI-4', 'LI-6'), userId);
    expect(next).not.toBe(running);
    expect(await listOf(running)).toEqual(idsOf('LI-4', 'LI-5'));
    expect(await client.completed(next)).toMatchObject({ status: 'completed', progress: { done: 2, total: 2 } });
    await sql`update forecast_tasks set status = 'completed' where id = ${running}::uuid`.execute(db());
  });

  it('forecasts one product by its own run, and more products than the limit by a whole-catalogue run', async () => {
    const one = await refreshForecastAfterOrders(context(), idsOf('LI-4'), userId);
    expect(await task(one)).toMatchObject({ style_code: 'LI-4', product_ids: null });
    expect(await client.completed(one)).toMatchObject({ status: 'completed' });
    const limited = context({ listRunMostProducts: 3 });
    // Deleted or unknown products do not count.
    const list = await refreshForecastAfterOrders(limited, [...idsOf('LI-1', 'LI-2', 'LI-3'), 987_654_321], userId);
    expect(await listOf(list)).toEqual(idsOf('LI-1', 'LI-2', 'LI-3'));
    const catalogue = await refreshForecastAfterOrders(limited, idsOf('LI-1', 'LI-2', 'LI-3', 'LI-4'), userId);
    expect(await task(catalogue)).toMatchObject({ style_code: null, product_ids: null });
    for (const taskId of [list, catalogue]) expect(await client.completed(taskId)).toMatchObject({ status: 'completed' });
    // The assistant's advised orders go the same way (nothing waiting to start that they could join).
    const queuedBefore = new Set((await sql<{ id: string }>`select id from forecast_tasks`.execute(db())).rows.map((row) => row.id));
    await refreshForecastsAfterDeliveries(context(), idsOf('LI-5', 'LI-6'));
    const added = (await sql<{ id: string }>`select id from forecast_tasks`.execute(db())).rows.filter((row) => !queuedBefore.has(row.id));
    expect(added).toHaveLength(1);
    expect(await listOf(added[0]!.id)).toEqual(idsOf('LI-5', 'LI-6'));
    expect(await client.completed(added[0]!.id)).toMatchObject({ status: 'completed', progress: { done: 2, total: 2 } });
  });

  it("goes on after the products its cut-off run stored, and says so (ADR 0170's restart, for a list)", async () => {
    // As a SIGKILL after its first chunk was stored would leave it: running, the first two of its four products stored under it.
    const list = await waiting(idsOf('LI-2', 'LI-3', 'LI-5', 'LI-6'));
    await runNow(list);
    const stoppedAt = new Date(Date.now() - 60_000);
    await sql`update forecast_tasks set status = 'running', results = null, progress_done = 2, updated_at = ${stoppedAt.toISOString()}::timestamptz where id = ${list}::uuid`.execute(db());
    await sql`update forecast_results set task_id = null where product_id in (${ids['LI-5']!}, ${ids['LI-6']!})`.execute(db());
    const before = await stored();
    const status = await runNow(list);
    expect(status).toMatchObject({ status: 'completed', progress: { done: 4, total: 4 }, results: { products: 4 } });
    expect(status.restart).toMatchObject({ stopped_at: stoppedAt.toISOString(), done_before: 2, total: 4, resumed: true });
    expect(status.restart?.message).toMatch(/; 2 of 4 products were done before and are not forecast again\.$/);
    const after = await stored();
    for (const code of ['LI-2', 'LI-3', 'LI-1', 'LI-4']) expect(after[code], code).toEqual(before[code]);
    for (const code of ['LI-5', 'LI-6']) {
      expect(after[code]!.task_id, code).toBe(list);
      expect(after[code]!.generated_at > before[code]!.generated_at, code).toBe(true);
    }
  });
});

describe.each(backends)('list requests made at the same moment on %s', (backend) => {
  let server: TestServer;
  let productIds: number[];
  let userId: number;
  beforeAll(async () => {
    // An API instance: no worker takes the lists' jobs, so each list stays waiting to start.
    server = await startTestServer(backend, { ROLE: 'api' });
    const { rows } = await sql<{ id: string }>`
      insert into data.products (product_code, name, category, current_stock) select 'AT-' || i, 'Tin ' || i, 'Tins', 10 from generate_series(1, 40) as i returning id`.execute(server.database.db);
    productIds = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    userId = (await signUpUser(server)).id;
  });
  afterAll(() => server?.stop());

  const waitingLists = async () =>
    (await sql<{ id: string; product_ids: (number | string)[] }>`select id, product_ids from forecast_tasks where product_ids is not null and status in ('pending', 'processing')`.execute(server.database.db)).rows;

  it('queues one list of their union, which every request answers', async () => {
    const context = createForecastingContext(server.database.db, server.queue);
    for (let round = 0; round < 3; round++) {
      // Twenty requests of three products each, every one overlapping the next, all at once (the pool's ten connections at work on PostgreSQL).
      const requests = Array.from({ length: 20 }, (_, at) => [0, 1, 2].map((k) => productIds[(at * 2 + k) % productIds.length]!));
      const answers = await Promise.all(requests.map((ids) => refreshForecastAfterOrders(context, ids, userId)));
      const lists = await waitingLists();
      expect(lists.map((list) => list.id), `round ${round}`).toHaveLength(1);
      expect(lists[0]!.product_ids.map(Number).sort((a, b) => a - b)).toEqual(productIds);
      expect(new Set(answers)).toEqual(new Set([lists[0]!.id]));
      // Taken by a worker: the next round starts with no list waiting.
      await sql`update forecast_tasks set status = 'completed' where id = ${lists[0]!.id}::uuid`.execute(server.database.db);
    }
  });
  it('takes a list past the oldest list’s limit into the next list waiting that has room, not a third', async () => {
    const context = createForecastingContext(server.database.db, server.queue, { listRunMostProducts: 4 });
    const [a, b, c, d, e, f, g] = productIds as [number, number, number, number, number, number, number];
    const first = await refreshForecastAfterOrders(context, [a, b, c], userId);
    const second = await refreshForecastAfterOrders(context, [d, e, f], userId);
    expect(second).not.toBe(first);
    expect(await refreshForecastAfterOrders(context, [g, f], userId)).toBe(second);
    const lists = Object.fromEntries((await waitingLists()).map((list) => [list.id, list.product_ids.map(Number)]));
    expect(lists).toEqual({ [first]: [a, b, c], [second]: [d, e, f, g] });
  });
});
