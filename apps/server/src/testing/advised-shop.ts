// Tests of what the order lists leave out (products made here, ADR 0194; not stocked, ADR 0200): a
// shop whose catalogue run has ended, without the engine, and the calls they make through the HTTP
// server — the list, the assistant's answers, the dashboard's tasks.
import type { Insertable } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { AssistantBlock, ChatMessage, DashboardResponse, InventoryReport } from '@stockwise/contract';
import { refreshCatalogueSummary } from '../dashboard/repo.ts';
import type { ProductsTable } from '../db/schema.ts';
import { storeCatalogueAdvice } from './stored-advice.ts';
import { signUpUser, startTestServer, type Backend, type TestServer } from './test-server.ts';

const DAY_MS = 86_400_000;
export const TODAY = new Date().toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * A product of the shop: `counted` 4 five days ago (else never), `order`: its advice orders
 * `orderQuantity` by today (else nothing), `runsOut`: its forecast runs out tomorrow (stored for
 * the dashboard and "what runs out first" too); `columns`: its own (made_here, not_stocked, supplier).
 */
export type AdvisedShopProduct = { code: string; counted: boolean; order: boolean; runsOut: boolean; columns: Partial<Insertable<ProductsTable>> };

/** Writes the products, a sale of 20 each three days ago, their stored advice and the dashboard's summaries; the products' ids by code. */
export async function seedAdvisedShop(server: TestServer, products: readonly AdvisedShopProduct[], orderQuantity: number): Promise<Map<string, number>> {
  const db = server.database.db;
  const rows = await db
    .insertInto('data.products')
    .values(products.map((p) => ({ product_code: p.code, name: p.code, current_stock: 0, unit_cost: 2, lead_time_days: 2, ...p.columns })))
    .returning(['id', 'product_code'])
    .execute();
  const ids = new Map(rows.map((row) => [row.product_code, Number(row.id)]));
  const id = (code: string) => ids.get(code) as number;
  await db.insertInto('data.stock_snapshots').values(products.filter((p) => p.counted).map((p) => ({ product_id: id(p.code), date: addDays(TODAY, -5), stock_level: 4 }))).execute();
  await db.insertInto('data.sales').values(products.map((p) => ({ product_id: id(p.code), date: addDays(TODAY, -3), quantity: 20 }))).execute();
  await storeCatalogueAdvice(
    db,
    products.map((p) => ({
      productId: id(p.code),
      forecastStart: TODAY,
      stockouts: p.runsOut ? [{ date: addDays(TODAY, 1), type: 'stockForecast' as const }] : [],
      reorder: { reorderPoint: 0, safetyStock: 0, orderQuantity: p.order ? orderQuantity : 0, orderBy: p.order ? TODAY : null, leadTimeDays: 14, serviceLevel: 0.95 },
    })),
  );
  await db
    .insertInto('dashboard_product_summary')
    .values(products.filter((p) => p.runsOut).map((p) => ({ product_id: id(p.code), forecast_start: TODAY, cum_demand: [20], cum_variance: [1], first_stockout: addDays(TODAY, 1), order_quantity: p.order ? orderQuantity : 0 })))
    .execute();
  await refreshCatalogueSummary(db);
  return ids;
}

/** The calls of a signed-in user: any path, the whole list (under `query`), the assistant's last answer, the dashboard's tasks. */
export function orderListCalls(server: () => TestServer, token: () => string) {
  const api = (path: string, body?: unknown) => server().request(path, { token: token(), ...(body === undefined ? {} : { body }) });
  const report = async (query = '') => ((await api(`/api/forecasting/latest-report/?page_size=500${query}`)).json as { report: InventoryReport }).report;
  const ask = async (body: { quick: string } | { content: string }) => ((await api('/api/assistant/messages/', body)).json.messages as ChatMessage[]).at(-1) as ChatMessage;
  const tasks = async () => ((await api('/api/dashboard/')).json as unknown as DashboardResponse).tasks;
  return { api, report, ask, tasks };
}

/** An answer's table. */
export const tableOf = (message: ChatMessage) => message.blocks.find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table');

/** Registers the hooks: a test server on `backend`, an administrator signed in, the shop seeded; read `server()`, `token()` and `id(code)` inside tests. */
export function useAdvisedShop(backend: Backend, products: readonly AdvisedShopProduct[], orderQuantity: number) {
  let server: TestServer;
  let token = '';
  let ids = new Map<string, number>();
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    ids = await seedAdvisedShop(server, products, orderQuantity);
  });
  afterAll(() => server.stop());
  return {
    ...orderListCalls(
      () => server,
      () => token,
    ),
    server: () => server,
    token: () => token,
    id: (code: string) => ids.get(code) as number,
  };
}
