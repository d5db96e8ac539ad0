import { sql, type Insertable, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database, ProductsTable } from '../db/schema.ts';
import type { ProductForecastResponse, RecordedOrder, TaskStatusResponse } from '@stockwise/contract';
import { signUpUser, startTestServer, type Backend, type TestServer } from './test-server.ts';
import { importFile } from './uploads.ts';

/** A signed-in user's forecasting calls: request a run, wait for a task to end, read a product's forecast, record an order. */
export function forecastClient(server: TestServer, token: string) {
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  async function completed(taskId: string): Promise<TaskStatusResponse> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = (await api(`/api/forecasting/status/${taskId}/`)).json as unknown as TaskStatusResponse;
      if (status.status === 'completed' || status.status === 'failed' || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  /** Requests a run (the catalogue's, or one product's) and waits for it to end. */
  const run = async (body: { style_code?: string; forecast_days?: number } = {}) => completed((await api('/api/forecasting/request-generation/', body)).json.task_id as string);
  async function forecastOf(code: string): Promise<ProductForecastResponse> {
    const response = await api(`/api/forecasting/forecasts/${code}`);
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as ProductForecastResponse;
  }
  /** Records an order from the list (ADR 0182), expects it written, and waits for the product's run it queued. */
  async function recordOrder(body: object): Promise<RecordedOrder> {
    const answer = await api('/api/order-advice/orders/', body);
    expect(answer.status, answer.text).toBe(201);
    const order = answer.json as unknown as RecordedOrder;
    expect(order.taskId).toEqual(expect.any(String));
    expect(await completed(order.taskId!)).toMatchObject({ status: 'completed' });
    return order;
  }
  return { run, completed, forecastOf, recordOrder };
}

export type ForecastClient = ReturnType<typeof forecastClient>;

/** A test server on `backend` and a signed-in user's forecast client for it. */
export async function startForecastServer(backend: Backend): Promise<{ server: TestServer; client: ForecastClient }> {
  const server = await startTestServer(backend);
  return { server, client: forecastClient(server, (await signUpUser(server)).access) };
}

/**
 * Waits until no whole-catalogue run, nor any list's run (ADR 0187), is queued or running. An import
 * of products, sales, stock or deliveries queues one, and a later request joins it while it waits
 * (ADR 0132): a test that counts the runs a request adds lets the earlier ones end first.
 */
export const catalogueRunsSettled = (db: Kysely<Database>): Promise<void> => runsSettled(db, null);

/** Waits until no run of this product is queued or running: a row written on the Data screen queues one (ADR 0133). */
export const productRunsSettled = (db: Kysely<Database>, styleCode: string): Promise<void> => runsSettled(db, styleCode);

/** `styleCode` null: the runs that name no product (the catalogue's and the lists'). */
async function runsSettled(db: Kysely<Database>, styleCode: string | null): Promise<void> {
  const active = async () =>
    (await db.selectFrom('forecast_tasks').select('id').where('style_code', styleCode === null ? 'is' : '=', styleCode).where('status', 'in', ['pending', 'running']).execute()).length;
  // A loop rather than expect.poll: set-up (beforeAll) waits with it too.
  for (const deadline = Date.now() + 60_000; (await active()) > 0; ) {
    if (Date.now() > deadline) throw new Error(`A forecast run of ${styleCode ?? 'the whole catalogue'} was still queued or running after a minute.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const DAY_MS = 86_400_000;

/**
 * A product that sold `soldPerDay` every day of the 120 days before today (UTC) and was counted
 * yesterday at its current stock: a steady seller whose forecast advises an order by its stock.
 */
export async function insertSteadySeller(db: Kysely<Database>, product: Insertable<ProductsTable> & { current_stock: number }, soldPerDay: number): Promise<void> {
  const day = historyUntilYesterday(120);
  const { id } = await db.insertInto('data.products').values(product).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('data.sales').values(Array.from({ length: 120 }, (_, i) => ({ product_id: id, date: day(i), quantity: soldPerDay }))).execute();
  await db.insertInto('data.stock_snapshots').values({ product_id: id, date: day(119), stock_level: product.current_stock }).execute();
}

/**
 * The ISO dates of a history of `days` days that ends yesterday (`dayOf(days)` is today): a stock
 * count dated today — the database's `current_date`, as an import of stock on hand writes it —
 * opens the forecast that starts today.
 */
export function historyUntilYesterday(days: number): (t: number) => string {
  const first = Math.floor(Date.now() / DAY_MS) * DAY_MS - days * DAY_MS;
  return (t) => new Date(first + t * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A test server on `backend` with a shop's own files imported by an admin — its products (columns
 * Item, Description and any the mapping names) and its till lines (`date,code,units`) — and every
 * catalogue run they started ended.
 */
export async function startShopServer(backend: Backend, files: { products: string; productColumns?: Record<string, string>; tillLines: string[] }): Promise<{ server: TestServer; token: string; client: ForecastClient }> {
  const server = await startTestServer(backend);
  const token = (await signUpUser(server, { role: 'admin' })).access;
  const products = await importFile(server, token, {
    fileName: 'items.csv',
    content: files.products,
    mapping: { field_mappings: { product_code: 'Item', name: 'Description', ...files.productColumns } },
    entityType: 'products',
  });
  expect(products.status, JSON.stringify(products.json)).toBe(200);
  const till = `Date,Item,Qty\n${files.tillLines.join('\n')}\n`;
  const sales = await importFile(server, token, { fileName: 'till.csv', content: till, mapping: { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' } }, entityType: 'sales' });
  expect(sales.status, JSON.stringify(sales.json)).toBe(200);
  await catalogueRunsSettled(server.database.db);
  return { server, token, client: forecastClient(server, token) };
}

/**
 * A shop closed on 25 and 26 December: `count` hardware products coded `<prefix>-1…`, each with
 * `stock` on hand and two years of daily sales (6–10 a day) up to 30 November 2026.
 */
export async function seedShopClosedAtChristmas(db: Kysely<Database>, { prefix, count, stock }: { prefix: string; count: number; stock: number }): Promise<void> {
  await sql`insert into data.products (product_code, name, category, current_stock) select ${prefix} || '-' || i, 'Item ' || i, 'Hardware', ${stock} from generate_series(1, ${count}) as i`.execute(db);
  await sql`
    insert into data.sales (product_id, date, quantity)
    select p.id, d::date, 6 + (p.id + extract(doy from d)::int) % 5
    from data.products p cross join generate_series(date '2024-12-01', date '2026-11-30', interval '1 day') as d
    where p.product_code like ${prefix} || '-%' and to_char(d, 'MM-DD') not in ('12-25', '12-26')`.execute(db);
}
