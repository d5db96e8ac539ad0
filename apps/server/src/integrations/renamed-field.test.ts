// A shop's API that renamed a mapped field (QA F6; ADR 0170), on PGlite and PostgreSQL, the shop a
// real HTTP server on 127.0.0.1: the orders say `qty` where the mapping reads `quantity`. The run
// fails with one message naming the field, what the records have and the likely new name, not a
// refusal per record; a page whose records all lack it fails the same way after the pages before
// are kept; a record that alone lacks it is still refused by row; Try the endpoint warns the same.
import { beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationTryResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const MAPPING = { product_id: 'sku', quantity: 'quantity', date: 'date' };
const RENAMED = "No record has the field 'quantity' (mapped to Quantity); the records have: id, sku, qty, date. Was it renamed to 'qty'? Update the mapping 'renamed_orders'.";

describe.each(backends)('a renamed field on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  const code = `RN${backend[0]}-1`;

  beforeAll(async () => {
    await saveMapping('renamed_orders', { entities: { sales: { field_mappings: MAPPING } } });
    const added = await server().request('/api/records/tables/products/rows/add/', { body: { product_code: code, name: 'Renamed lid' }, token: admin() });
    expect(added.status, added.text).toBeLessThan(300);
  });

  const renamed = (count: number, from = 1) => Array.from({ length: count }, (_, at) => ({ id: from + at, sku: code, qty: 2, date: `2026-11-${String(from + at).padStart(2, '0')}` }));
  const named = (count: number, from = 1) => renamed(count, from).map(({ qty, ...order }) => ({ ...order, quantity: qty }));

  async function runOf(path: string, pages: unknown[][]) {
    shop().route(path, (request, response) => sendJson(response, { orders: pages[Number(request.url.searchParams.get('page') ?? 1) - 1] ?? [] }));
    const { id } = await createIntegration({ endpoint: `${shop().origin}${path}`, target_entity: 'sales', mapping_selection: 'renamed_orders', pagination: pages.length > 1 ? 'page_parameter' : 'none', rate_limit: 6000, batch_size: 3 });
    const outcome = await runNow(id);
    const log = ((await server().request(`/api/integrations/scheduled/${id}/logs/`, { token: admin() })).json as { results: Record<string, unknown>[] }).results[0];
    return { outcome, log };
  }

  it('fails a run whose records all lack a mapped field with one message naming it and the likely new name', async () => {
    const { outcome, log } = await runOf('/renamed', [renamed(30)]);
    expect(outcome).toMatchObject({ status: 'failed', message: RENAMED });
    expect(log).toMatchObject({ status: 'failed', error_message: RENAMED, rows_rejected: 0, rejections: [] });
  });

  it('keeps the pages before a page whose records all lack it, and says which page', async () => {
    const { outcome } = await runOf('/renamed-later', [named(3), renamed(4, 4)]);
    expect(outcome).toMatchObject({ status: 'failed', counts: { inserted: 3 } });
    expect(outcome.ran && outcome.message).toBe(`Page 1 was written and kept (3 records); page 2 failed: ${RENAMED.replace('No record has', 'No record of page 2 has')}`);
  });

  it('still refuses by row a record that alone lacks it', async () => {
    const [first, second] = renamed(2, 20);
    const { outcome, log } = await runOf('/one-lacks', [[...named(2, 10), first, second === undefined ? {} : { ...second, quantity: 1 }]]);
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 3, rejected: 1 } });
    expect(log?.rejections).toEqual([{ page: 1, record: 3, field: 'quantity', reason: 'A value is required.' }]);
  });

  it('warns in Try the endpoint when the mapping tried reads a field no record has', async () => {
    shop().route('/tried', (_request, response) => sendJson(response, { orders: renamed(5) }));
    const answer = await server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/tried`, target_entity: 'sales', mapping: { field_mappings: MAPPING } }, token: admin() });
    expect(answer.status, answer.text).toBe(200);
    expect((answer.json as unknown as IntegrationTryResponse).warnings).toEqual([RENAMED.replace(" 'renamed_orders'", '')]);
  });
});
