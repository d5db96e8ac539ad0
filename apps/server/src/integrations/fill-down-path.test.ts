// A mapping's fill_down_by (ADR 0195) read from an endpoint, on PGlite and PostgreSQL, the shop a
// real HTTP server on 127.0.0.1: a path no record has would fill nothing. Try the endpoint answers
// 400 naming it; a run whose page of records lacks it fails naming it (as a renamed field does),
// keeping the pages written before; a path the records have fills a product's later lines.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const FIELDS = { product_code: 'sku', name: 'title', supplier: 'vendor' };

describe.each(backends)('fill_down_by read from an endpoint on %s', (backend) => {
  const { server, source: shop, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  const prefix = `FD${backend[0]}`;

  beforeAll(async () => {
    for (const [name, by] of [['by_handle', 'handle'], ['by_product_handle', 'product.handle']] as const) {
      await saveMapping(name, { entities: { products: { field_mappings: FIELDS, fill_down_by: by } } });
    }
  });

  // Shopify-like variant records: the title and vendor on a product's first only.
  const variants = (product: string, sizes: string[], from = 0) =>
    sizes.map((size, at) => ({ handle: product.toLowerCase(), sku: `${prefix}-${product}-${size}`, ...(at === 0 ? { title: product, vendor: 'Nordic Linen Co' } : { title: '', vendor: null }), id: from + at }));

  async function runOf(path: string, mapping: string, pages: unknown[][]) {
    shop().route(path, (request, response) => sendJson(response, { products: pages[Number(request.url.searchParams.get('page') ?? 1) - 1] ?? [] }));
    const { id } = await createIntegration({ endpoint: `${shop().origin}${path}`, target_entity: 'products', mapping_selection: mapping, pagination: pages.length > 1 ? 'page_parameter' : 'none', rate_limit: 6000, batch_size: 3 });
    return runNow(id);
  }
  const stored = async (like: string) =>
    (await sql<{ code: string; name: string; supplier: string | null }>`select product_code as code, name, supplier::text as supplier from data.products where product_code like ${like} order by 1`.execute(server().database.db)).rows;

  it('answers Try the endpoint with a 400 naming a fill_down_by path no record read has, and reads one they have', async () => {
    shop().route('/tried', (_request, response) => sendJson(response, { products: variants('Shirt', ['S', 'M']) }));
    const tried = (by: string) => server().request('/api/integrations/try/', { body: { endpoint: `${shop().origin}/tried`, target_entity: 'products', mapping: { field_mappings: FIELDS, fill_down_by: by } }, token: admin() });
    const refused = await tried('product.handle');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("No record read has the path 'product.handle' that blank cells are filled down by (fill_down_by; the first record has: 'handle', 'sku', 'title', 'vendor', 'id')");
    const read = await tried('handle');
    expect(read.status, read.text).toBe(200);
    expect((read.json as { rows: { values: Record<string, unknown> }[] }).rows[1]?.values).toMatchObject({ product_code: `${prefix}-Shirt-M`, name: 'Shirt', supplier: 'Nordic Linen Co' });
  });

  it('fails a run whose records lack the fill_down_by path, naming it and the likely key, and writes nothing', async () => {
    const outcome = await runOf('/lacking', 'by_product_handle', [variants('Scarf', ['S', 'M', 'L', 'XL'])]);
    expect(outcome).toMatchObject({
      status: 'failed',
      message: "No record has the field 'product.handle' (that blank cells are filled down by, the mapping's fill_down_by); the records have: handle, sku, title, vendor, id. Was it renamed to 'handle'? Update the mapping 'by_product_handle'.",
    });
    expect(await stored(`${prefix}-Scarf-%`)).toEqual([]);
  });

  it('keeps the pages written before a page whose records lack it, and fills the later lines of those it has', async () => {
    const later = variants('Dress', ['8', '10'], 10).map(({ handle: _handle, ...record }) => record);
    const outcome = await runOf('/later', 'by_handle', [variants('Top', ['S', 'M', 'L']), later]);
    expect(outcome).toMatchObject({ status: 'failed', counts: { inserted: 3 } });
    expect(outcome.ran && outcome.message).toContain("page 2 failed: No record of page 2 has the field 'handle' (that blank cells are filled down by, the mapping's fill_down_by)");
    expect(await stored(`${prefix}-Top-%`)).toEqual(['L', 'M', 'S'].map((size) => ({ code: `${prefix}-Top-${size}`, name: 'Top', supplier: 'Nordic Linen Co' })));
    expect(await stored(`${prefix}-Dress-%`)).toEqual([]);
  });
});
