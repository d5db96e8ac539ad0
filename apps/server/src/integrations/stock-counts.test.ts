// An integration that writes stock counts (a till's nightly stock take) on PGlite and PostgreSQL,
// the till a real HTTP server on 127.0.0.1: counts older than their products' stock recorded later
// change nothing on hand, and the run says so in its log and status as a file import does (ADR 0030's
// amendment of 2026-12-04), across batches; a till's totals line is left out, not made a product.
import { sql } from 'kysely';
import { dayInTimeZone, formatDay } from '@stockwise/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;

describe.each(backends)('an integration into stock counts on %s', (backend) => {
  const { server, source: till, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  let viewer: string;
  const code = (n: number) => `SC${backend[0]}-${n}`;

  beforeAll(async () => {
    viewer = (await signUpUser(server(), { role: 'viewer' })).access;
    // Stock typed on the Data screen today: the figure a count of an earlier day does not replace.
    for (const n of [1, 2, 3]) {
      const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code(n), name: `Item ${n}`, current_stock: 20 + n }, token: admin() });
      expect(added.status, added.text).toBeLessThan(300);
    }
    await saveMapping(`till_counts_${backend}`, { entities: { stock_snapshots: { field_mappings: { product_id: 'sku', date: 'counted_on', stock_level: 'counted' }, create_missing_products: true } } });
  });

  const stock = async () =>
    (await sql<{ code: string; current_stock: number }>`select product_code as code, current_stock from data.products where product_code like ${`SC${backend[0]}-%`} order by 1`.execute(server().database.db)).rows;

  it("says in the run's log and status which counts are older than the stock recorded later, over every batch, and leaves a totals line out", async () => {
    const today = dayInTimeZone(Date.now(), 'UTC');
    const fourDaysAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 4 * DAY_MS).toISOString().slice(0, 10);
    const records = [
      { sku: code(1), counted_on: fourDaysAgo, counted: 18 },
      { sku: code(2), counted_on: fourDaysAgo, counted: 3 },
      { sku: code(3), counted_on: today, counted: 7 },
      { sku: 'Summe', counted_on: today, counted: 28 },
    ];
    till().route('/counts', (_request, response) => sendJson(response, { counts: records }));
    const integration = await createIntegration({ target_entity: 'stock_snapshots', endpoint: `${till().origin}/counts`, mapping_selection: `till_counts_${backend}`, records_path: 'counts', batch_size: 2, rate_limit: 6000, time_zone: 'UTC' });

    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 2, updated: 1, rejected: 0, created: 0 } });
    const summary = `1 totals line (Summe) was skipped. 2 of 3 counts are older than the stock recorded on ${formatDay(today)} (from the product list or the Data screen); on hand stays as recorded then. Count again or import the counts with today's date.`;
    const logs = (await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: viewer })).json as { results: Record<string, unknown>[] };
    expect(logs.results[0]).toMatchObject({ status: 'success', rows_inserted: 2, rows_updated: 1, summary });
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ last_run_summary: summary });
    // The older counts changed nothing on hand; today's did. No product is called Summe.
    expect(await stock()).toEqual([
      { code: code(1), current_stock: 21 },
      { code: code(2), current_stock: 22 },
      { code: code(3), current_stock: 7 },
    ]);
    expect((await sql<{ n: number }>`select count(*)::int as n from data.products where product_code = 'Summe'`.execute(server().database.db)).rows[0]?.n).toBe(0);

    // Counts of today are on hand: nothing to say.
    records.splice(0, records.length, { sku: code(1), counted_on: today, counted: 17 });
    await runNow(integration.id);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: viewer })).json).toMatchObject({ status: 'idle', last_run_summary: null });
  });
});
