// A deli scale's web export, through an integration run in batches on PGlite and PostgreSQL (the
// scale a real HTTP server on 127.0.0.1): a product without a unit is read in the first unit any
// batch of the run wrote for it (ADR 0178, amendment 2026-12-06 (2)), as a file is in its first
// row's — `0.125 kg` in the first batch and `250 g` in the second are 0.125 and 0.25, not 250.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

describe.each(backends)('an integration run reading quantities with their unit on %s', (backend) => {
  const { server, source: scale, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);

  beforeAll(async () => {
    // Serrano ham has no unit yet.
    const listed = await importFile(server(), admin(), { fileName: 'items.csv', content: 'Item,Description\nHAM-002,Serrano ham\n', mapping: { entities: { products: { field_mappings: { product_code: 'Item', name: 'Description' } } } }, entityType: 'products' });
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    await saveMapping('scale_sales', { entities: { sales: { field_mappings: { date: 'day', product_id: 'sku', quantity: 'weight' } } } });
  });

  it('reads a later batch’s 250 g in the kilos the first batch wrote, refuses its 0.5 l naming that record, and the summary names kg once', async () => {
    const sales = [
      { day: '2026-11-20', sku: 'HAM-002', weight: '0.125 kg' },
      { day: '2026-11-21', sku: 'HAM-002', weight: '250 g' },
      { day: '2026-11-22', sku: 'HAM-002', weight: '0.5 l' },
    ];
    scale().route('/sales', (_request, response) => sendJson(response, { sales }));
    const integration = await createIntegration({ target_entity: 'sales', endpoint: `${scale().origin}/sales`, mapping_selection: 'scale_sales', records_path: 'sales', batch_size: 1, rate_limit: 6000, time_zone: 'UTC' });
    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ counts: { inserted: 2, rejected: 1 } });

    const stored = await sql<{ date: string; quantity: string }>`
      select s.date::text as date, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code = 'HAM-002' order by s.date`.execute(server().database.db);
    expect(stored.rows).toEqual([
      { date: '2026-11-20', quantity: '0.125' },
      { date: '2026-11-21', quantity: '0.250' },
    ]);
    const logs = (await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: admin() })).json as { results: { summary: string; rejections: unknown[] }[] };
    expect(logs.results[0]?.rejections).toEqual([
      expect.objectContaining({ record: 3, field: 'quantity', reason: 'Expected a quantity in kg (as page 1, record 1 wrote product HAM-002, which has no unit), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.' }),
    ]);
    expect(logs.results[0]?.summary).toBe("2 quantities of products without a unit were read in the unit their cells wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.");
  });
});
