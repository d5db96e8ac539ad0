// POST /api/yaml/save-mapping/: editors save import mappings under a name (their own, or new);
// replacing the configuration file's mappings or another user's needs an admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const mapping = (source: string) => ({ description: 'A shop export', entities: { sales: { field_mappings: { product_id: source, date: 'InvoiceDate', quantity: 'Quantity' }, date_format: 'dd/mm/yyyy' as const } } });

describe.each(backends)('saved import mappings on %s', (backend) => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let otherEditor: string;
  let viewer: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    [admin, editor, otherEditor, viewer] = await Promise.all([signUpUser(server), signUpUser(server, { role: 'editor' }), signUpUser(server, { role: 'editor' }), signUpUser(server, { role: 'viewer' })]).then((users) => users.map((u) => u.access));
  });
  afterAll(() => server.stop());

  const save = (token: string, name: string, config: unknown) => server.request('/api/yaml/save-mapping/', { token, body: { name, config } });
  const mappings = async () => ((await server.request('/api/yaml/config/', { token: viewer })).json.content as { mappings: Record<string, unknown> }).mappings;

  it('saves an editor mapping into the configuration, and lets its author replace it', async () => {
    expect((await save(editor, 'online retail', mapping('StockCode'))).json).toMatchObject({ success: true, name: 'online retail' });
    expect((await mappings())['online retail']).toEqual(mapping('StockCode'));
    expect((await save(editor, 'online retail', mapping('Sku'))).status).toBe(200);
    expect((await mappings())['online retail']).toEqual(mapping('Sku'));
    expect((await mappings())['product_catalogue_csv']).toBeDefined();
  });

  it("refuses to let an editor replace another user's mapping or the file's, and lets an admin", async () => {
    await save(editor, 'shared export', mapping('StockCode'));
    const other = await save(otherEditor, 'shared export', mapping('Code'));
    expect(other.status).toBe(403);
    expect(other.json.detail).toContain('belongs to another user');
    const shipped = await save(editor, 'product_catalogue_csv', mapping('Code'));
    expect(shipped.status).toBe(403);
    expect(shipped.json.detail).toContain('configuration file');
    expect((await save(admin, 'shared export', mapping('Code'))).status).toBe(200);
  });

  it("keeps a mapping's other entities when one entity is saved into it, the file's mappings included", async () => {
    const products = { field_mappings: { product_code: 'Sku', name: 'Title' } };
    await save(editor, 'two parts', mapping('StockCode'));
    const merged = await save(editor, 'two parts', { entities: { products } });
    expect(merged.json.mapping).toEqual({ ...mapping('StockCode'), entities: { ...mapping('StockCode').entities, products } });
    await save(editor, 'two parts', mapping('Sku'));
    expect((await mappings())['two parts']).toEqual({ ...mapping('Sku'), entities: { ...mapping('Sku').entities, products } });

    // The file's product mapping, given a sales part by an admin (the screen offers its name when the entity changes).
    const shipped = (await mappings())['product_catalogue_csv'] as { entities: Record<string, unknown> };
    expect((await save(admin, 'product_catalogue_csv', mapping('Code'))).status).toBe(200);
    expect((await mappings())['product_catalogue_csv']).toMatchObject({ entities: { ...shipped.entities, sales: mapping('Code').entities.sales } });
  });

  it('refuses viewers and invalid mappings', async () => {
    expect((await save(viewer, 'mine', mapping('StockCode'))).status).toBe(403);
    expect((await save(editor, 'bad', { entities: { sales: { field_mappings: {}, date_format: 'yyyy' } } })).status).toBe(400);
    expect((await save(editor, '', mapping('StockCode'))).status).toBe(400);
  });

  it('refuses a mapping whose target is no column of its table at the save, naming it, and keeps nothing', async () => {
    const refused = await save(editor, 'maker file', { entities: { products: { field_mappings: { product_code: 'Artikelcode', manufacturer: 'Fabrikant' } } } });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toContain("mapping target 'manufacturer' is not a column of 'products'");
    expect((await mappings())['maker file']).toBeUndefined();
  });
});
