// A web shop's prices with their currency sign, through an integration run on PGlite and
// PostgreSQL (the shop a real HTTP server on 127.0.0.1): the sign is taken off as in a file import
// (ADR 0145's amendment of 2026-12-04, QA pass 5), and a record of another currency than the run's
// earlier batches is set aside naming both signs.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

describe.each(backends)('an integration reading prices with a currency sign on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  const code = (n: number) => `CUR${backend[0]}-${n}`;

  beforeAll(async () => {
    await saveMapping(`shop_products_${backend}`, { entities: { products: { field_mappings: { product_code: 'sku', name: 'title', unit_cost: 'price' } } } });
  });

  it('stores £2.00 and GBP 3.50 as numbers, and sets aside a later batch’s € price naming both signs', async () => {
    const products = [
      { sku: code(1), title: 'Compost', price: '£2.00' },
      { sku: code(2), title: 'Trowel', price: 'GBP 3.50' },
      { sku: code(3), title: 'Rake', price: '€ 4.00' },
      { sku: code(4), title: 'Hoe', price: '5.00 £' },
    ];
    shop().route('/products', (_request, response) => sendJson(response, { products }));
    const integration = await createIntegration({ target_entity: 'products', endpoint: `${shop().origin}/products`, mapping_selection: `shop_products_${backend}`, records_path: 'products', batch_size: 2, rate_limit: 6000, time_zone: 'UTC' });
    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ counts: { inserted: 3, rejected: 1 } });
    const logs = (await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: admin() })).json as { results: { rejections: unknown[] }[] };
    expect(logs.results[0]?.rejections).toEqual([
      expect.objectContaining({ record: 3, field: 'unit_cost', reason: "Expected a number, not € 4.00: it has a currency sign, € where the column's earlier figures have £: save the column as plain numbers, without the sign." }),
    ]);
    const stored = await sql<{ code: string; cost: string }>`select product_code as code, unit_cost::text as cost from data.products where product_code like ${`CUR${backend[0]}-%`} order by 1`.execute(server().database.db);
    expect(stored.rows).toEqual([
      { code: code(1), cost: '2.00' },
      { code: code(2), cost: '3.50' },
      { code: code(4), cost: '5.00' },
    ]);
  });
});
