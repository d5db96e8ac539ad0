// A shop whose products each sold the same units every day of the last 10, asked in plain words
// through the real HTTP server by a viewer: the assistant's word-reading tests' catalogue.
import { expect } from 'vitest';
import type { ChatMessage } from '@stockwise/contract';
import { signUpUser, startTestServer, type Backend, type TestServer } from './test-server.ts';

const DAY_MS = 86_400_000;
/** How many days before today each product sold its `daily` units, yesterday the last. */
export const DAILY_SALES_DAYS = 10;

export type DailySeller = { code: string; name: string; category: string | null; daily: number };

/** Each product (50 on hand, unit cost 4) with `daily` units sold on each of the last DAILY_SALES_DAYS days; `ask` answers in the asker's `language`. `env`: the server's (a model to ask). */
export async function startDailySalesShop(backend: Backend, products: readonly DailySeller[], language: string, env: Record<string, string> = {}): Promise<{ server: TestServer; ask: (content: string, asked?: string) => Promise<string>; token: string }> {
  const server = await startTestServer(backend, env);
  const viewer = await signUpUser(server, { role: 'viewer' });
  const db = server.database.db;
  const rows = await db
    .insertInto('data.products')
    .values(products.map((p) => ({ product_code: p.code, name: p.name, category: p.category, current_stock: 50, unit_cost: 4, lead_time_days: 7 })))
    .returning(['id', 'product_code'])
    .execute();
  const idOf = (code: string) => rows.find((row) => row.product_code === code)?.id as number;
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const daysAgo = (days: number) => new Date(today - days * DAY_MS).toISOString().slice(0, 10);
  await db.insertInto('data.sales').values(products.flatMap((p) => Array.from({ length: DAILY_SALES_DAYS }, (_, at) => ({ product_id: idOf(p.code), date: daysAgo(at + 1), quantity: p.daily })))).execute();
  const ask = async (content: string, asked = language) => {
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, headers: { 'accept-language': asked }, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };
  return { server, ask, token: viewer.access };
}
