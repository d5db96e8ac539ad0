// A run that does not end must not lower sales a complete run stored (QA pass 8, F5; ADR 0139's
// amendment of 2026-12-05), on PGlite and PostgreSQL, the shop a real HTTP server on 127.0.0.1:
// a web shop's orders (records_path orders[].line_items, page parameter, a batch a line) hold one
// product-day on pages 1 and 3. A complete run stores 6; a later run whose page 2 answers 500, or
// that is cut off while it waits for page 2 (the server stopped), leaves the day at 6, keeps a day
// only it wrote, and says what it put back; two processes settling the same cut-off run put back once.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';
import { failInterruptedRun } from './repo.ts';
import { INTERRUPTED_MESSAGE } from './run.ts';

type Line = { sku: string; quantity: number };
const order = (id: number, day: string, lines: Line[]) => ({ id, created_at: `${day}T10:00:00Z`, line_items: lines });

describe.each(backends)('a run that does not end on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '20000' });
  let viewer: string;
  let prefixCounter = 0;

  beforeAll(async () => {
    viewer = (await signUpUser(server(), { role: 'viewer' })).access;
    await saveMapping('partial_lines', { entities: { sales: { field_mappings: { product_id: 'sku', quantity: 'quantity', date: 'order.created_at' } } } });
  });

  /**
   * A shop under a fresh prefix whose page 2 answers as `pageTwo` says: the orders (complete), a 500
   * (fails), or nothing until `answer` is called (waits). Page 1 of a run after the first also sells
   * a third product, a product-day no complete run wrote.
   */
  async function openShop() {
    const prefix = `RP${backend[0]}${(prefixCounter += 1)}-`;
    const code = (n: number) => `${prefix}${n}`;
    for (const n of [1, 2, 3]) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code(n), name: `Lid ${n}` }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
    let runs = 0;
    let pageTwo: 'complete' | 'fails' | 'waits' = 'complete';
    let waiting: ServerResponse | null = null;
    shop().route(`/orders-${prefix}`, (request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      if (page === 1) runs += 1;
      if (page === 2 && pageTwo === 'fails') return void response.writeHead(500).end();
      if (page === 2 && pageTwo === 'waits') return void (waiting = response);
      const pages = [
        [order(1, '2026-12-05', [{ sku: code(1), quantity: 3 }, ...(runs > 1 ? [{ sku: code(3), quantity: 4 }] : [])])],
        [order(2, '2026-12-04', [{ sku: code(2), quantity: 2 }])],
        [order(3, '2026-12-05', [{ sku: code(1), quantity: 3 }])],
      ];
      sendJson(response, { orders: pages[page - 1] ?? [] });
    });
    const integration = await createIntegration({ endpoint: `${shop().origin}/orders-${prefix}`, target_entity: 'sales', mapping_selection: 'partial_lines', records_path: 'orders[].line_items', pagination: 'page_parameter', batch_size: 1, rate_limit: 6000 });
    const sales = async () =>
      (await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like ${`${prefix}%`} order by 1, 2`.execute(server().database.db)).rows;
    return {
      code,
      integration,
      sales,
      run: () => runNow(integration.id),
      setPageTwo: (next: typeof pageTwo) => void (pageTwo = next),
      isWaiting: () => waiting !== null,
      answerWith500: () => waiting?.writeHead(500).end(),
    };
  }

  const lastLog = async (id: number) => ((await server().request(`/api/integrations/scheduled/${id}/logs/`, { token: viewer })).json as { results: Record<string, unknown>[] }).results[0];

  it('a run whose page 2 answers 500 puts back the day it had lowered, keeps the day only it wrote, and says so', async () => {
    const shopOf = await openShop();
    const { code } = shopOf;
    expect(await shopOf.run()).toMatchObject({ status: 'success' });
    const complete = [
      { code: code(1), date: '2026-12-05', quantity: 6 },
      { code: code(2), date: '2026-12-04', quantity: 2 },
    ];
    expect(await shopOf.sales()).toEqual(complete);

    shopOf.setPageTwo('fails');
    const failed = await shopOf.run();
    const message = `Page 1 was written and kept (2 records); page 2 failed: 127.0.0.1:${shop().port} answered HTTP 500 for page 2. 1 product-day of sales it had changed was put back as the last complete run left it.`;
    expect(failed).toMatchObject({ status: 'failed', message });
    expect(await shopOf.sales()).toEqual([...complete, { code: code(3), date: '2026-12-05', quantity: 4 }].sort((a, b) => a.code.localeCompare(b.code)));
    expect(await lastLog(shopOf.integration.id)).toMatchObject({ status: 'failed', error_message: message });
    expect((await server().request(`/api/integrations/scheduled/${shopOf.integration.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'failed', last_error_message: message });

    // The part is the complete run's again: the next complete run replaces it whole, as before.
    shopOf.setPageTwo('complete');
    expect(await shopOf.run()).toMatchObject({ status: 'success', message: null });
    expect((await shopOf.sales()).find((row) => row.code === code(1))).toEqual(complete[0]);
    expect((await sql<{ n: number }>`select count(*)::int as n from sales_parts_before_run`.execute(server().database.db)).rows[0]?.n).toBe(0);
  });

  it('a run cut off while it waits for page 2 is put back when it is marked interrupted, once however many processes mark it', async () => {
    const shopOf = await openShop();
    const { code } = shopOf;
    expect(await shopOf.run()).toMatchObject({ status: 'success' });
    shopOf.setPageTwo('waits');
    const running = shopOf.run();
    try {
      const deadline = Date.now() + 30_000;
      while (!shopOf.isWaiting() || (await shopOf.sales()).find((row) => row.code === code(1))?.quantity !== 3) {
        if (Date.now() > deadline) throw new Error('Timed out waiting for page 1 to be written');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // What a process that finds the run's lock free does (integrations/service.ts settleInterrupted), twice at once.
      const { current_run_id: runId } = (await sql<{ current_run_id: number }>`select current_run_id from integrations where id = ${shopOf.integration.id}`.execute(server().database.db)).rows[0] as { current_run_id: number };
      await Promise.all([1, 2].map(() => failInterruptedRun(server().database.db, shopOf.integration.id, runId, INTERRUPTED_MESSAGE)));
      expect(await shopOf.sales()).toEqual([
        { code: code(1), date: '2026-12-05', quantity: 6 },
        { code: code(2), date: '2026-12-04', quantity: 2 },
        { code: code(3), date: '2026-12-05', quantity: 4 },
      ]);
      const message = `${INTERRUPTED_MESSAGE} 1 product-day of sales it had changed was put back as the last complete run left it.`;
      expect(await lastLog(shopOf.integration.id)).toMatchObject({ status: 'failed', error_message: message });
    } finally {
      shopOf.answerWith500();
      await running;
    }
    // The cut-off run's own failure, when it comes, finds the run ended and puts nothing back again.
    expect((await shopOf.sales()).find((row) => row.code === code(1))?.quantity).toBe(6);
  });
});
