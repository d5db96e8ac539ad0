import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'stockwise-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(backends)('configuration on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  const update = (body: unknown) => server.request('/api/yaml/update-entity/', { token, body });
  const content = async () => (await server.request('/api/yaml/config/', { token })).json as { success: boolean; content: { tables: object; mappings: object; inventory: { entities: { name: string; key: string[] }[] } } };

  it('answers the shipped configuration', async () => {
    const config = await content();
    expect(config.success).toBe(true);
    expect(Object.keys(config.content.tables)).toEqual(expect.arrayContaining(['products', 'sales']));
    expect(Object.keys(config.content.mappings).length).toBeGreaterThan(0);
    expect(config.content.inventory.entities.map((e) => e.name)).toContain('products');
  });

  it('updates an entity, takes effect at once, and keeps it in the database', async () => {
    const response = await update({ entity_name: 'suppliers_view', config: { table: 'products', key: ['product_code'], field_mappings: { name: 'supplier.name' } } });
    expect(response.status, response.text).toBe(200);
    const entity = (await content()).content.inventory.entities.find((e) => e.name === 'suppliers_view');
    expect(entity).toMatchObject({ table: 'products', key: ['product_code'] });
    const stored = await server.database.db.selectFrom('config_entities').select('name').where('name', '=', 'suppliers_view').executeTakeFirst();
    expect(stored?.name).toBe('suppliers_view');
  });

  it('loses neither of two concurrent updates', async () => {
    const results = await Promise.all(
      ['alpha', 'beta', 'gamma', 'delta'].map((name) => update({ entity_name: `concurrent_${name}`, config: { table: 'sales', key: ['product_id', 'date'] } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const names = (await content()).content.inventory.entities.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['concurrent_alpha', 'concurrent_beta', 'concurrent_gamma', 'concurrent_delta']));
  });

  it.each([
    ['an unknown table', { table: 'nope', key: ['id'] }, "table 'nope' does not exist"],
    ['a key that is not a column', { table: 'products', key: ['nope'] }, "key column 'nope'"],
    ['a mapping target that is not a column', { table: 'products', key: ['product_code'], field_mappings: { nope: 'a' } }, "field_mappings target 'nope'"],
    ['a missing key', { table: 'products' }, 'key'],
    ['an unknown field', { table: 'products', key: ['product_code'], extra: 1 }, 'config'],
  ])('refuses %s with "Invalid configuration: …" and changes nothing', async (_name, config, reason) => {
    const before = await content();
    const response = await update({ entity_name: 'products', config });
    expect(response.status).toBe(400);
    expect(response.json.detail).toMatch(/^Invalid configuration: /);
    expect(response.json.detail).toContain(reason);
    expect(await content()).toEqual(before);
  });
});

describe('configuration file problems', () => {
  const startWith = (file: string) => startTestServer('pglite', { CONFIG_FILE: file });

  it("answers 'Configuration file not found' when the file is missing", async () => {
    const server = await startWith(path.join(scratch, 'missing.yaml'));
    const token = (await signUpUser(server)).access;
    expect((await server.request('/api/yaml/config/', { token })).json).toEqual({ success: false, message: 'Configuration file not found' });
    await server.stop();
  });

  it("answers 'Failed to parse configuration file' for broken YAML, and tables still work", async () => {
    const file = path.join(scratch, 'broken.yaml');
    writeFileSync(file, 'tables: [unclosed');
    const server = await startWith(file);
    const token = (await signUpUser(server)).access;
    expect((await server.request('/api/yaml/config/', { token })).json).toEqual({ success: false, message: 'Failed to parse configuration file' });
    expect((await server.request('/api/records/tables/structure/', { token })).status).toBe(200);
    await server.stop();
  });
});
