// Two administrators editing one entity's configuration (ADR 0168's amendment "the entity
// configuration, table moves and the enabled switch"), on PGlite and PostgreSQL: each entity carries
// its version in GET /api/yaml/config/ ("0": only in the file); an update sent with a version no
// longer stored is a 409 naming who saved and when, changing nothing; without If-Match it is saved
// as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

type Entity = { name: string; table: string; key: string[]; field_mappings?: Record<string, string>; description?: string; version: string };

describe.each(backends)('entity configuration versions on %s', (backend) => {
  let server: TestServer;
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let kim: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    sam = await signUpUser(server);
    kim = await signUpUser(server, { role: 'admin' });
    editor = await signUpUser(server, { role: 'editor' });
  });
  afterAll(() => server?.stop());

  const update = (who: { access: string }, entityName: string, config: object, ifMatch?: string) =>
    server.request('/api/yaml/update-entity/?time_zone=Europe/London', { token: who.access, body: { entity_name: entityName, config }, ...(ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } }) });
  const entity = async (name: string) => {
    const answer = (await server.request('/api/yaml/config/', { token: editor.access })).json as { content: { inventory: { entities: Entity[] } } };
    return answer.content.inventory.entities.find((e) => e.name === name);
  };

  it('answers "0" for an entity only in the file, and takes its first save at "0"', async () => {
    const shipped = await entity('sales');
    expect(shipped?.version).toBe('0');
    const { version: _version, ...config } = shipped as Entity;
    const first = await update(kim, 'sales', { ...config, description: 'Daily sales per product' }, '"0"');
    expect(first.status, first.text).toBe(200);
    expect(first.json.entity).toMatchObject({ name: 'sales', description: 'Daily sales per product', version: '1' });
    expect(await entity('sales')).toMatchObject({ description: 'Daily sales per product', version: '1' });
  });

  it('refuses the second of two saves made on one version, naming who saved and when, keeping the first', async () => {
    const opened = (await entity('sales')) as Entity;
    // Sent back whole, as GET gave it: the version in the body is read-only, the check is If-Match's.
    const first = await update(kim, 'sales', { ...opened, description: 'Till lines per day' }, `"${opened.version}"`);
    expect(first.status, first.text).toBe(200);
    const saved = await entity('sales');
    const second = await update(sam, 'sales', { ...opened, description: 'Sales by day (old screen)' }, `"${opened.version}"`);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^This entity's configuration was changed by ${kim.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(kim.username);
    expect(Date.parse(second.json.changed_at as string)).not.toBeNaN();
    expect(second.json.current).toEqual(saved);
    expect(await entity('sales')).toEqual(saved);
    // Reloaded, the same change goes through.
    const again = await update(sam, 'sales', { ...(saved as Entity), description: 'Sales by day' }, `"${saved?.version}"`);
    expect(again.status, again.text).toBe(200);
    expect(again.json.entity).toMatchObject({ description: 'Sales by day', version: String(Number(saved?.version) + 1) });
  });

  it('refuses a stale version before checking the configuration, and a save on "0" once the entity was saved', async () => {
    const before = await entity('sales');
    const invalidAndStale = await update(sam, 'sales', { table: 'nope', key: ['id'] }, '"1"');
    expect(invalidAndStale.status, invalidAndStale.text).toBe(409);
    const atZero = await update(sam, 'sales', { table: 'sales', key: ['product_id', 'date'] }, '"0"');
    expect(atZero.status, atZero.text).toBe(409);
    expect(await entity('sales')).toEqual(before);
  });

  it('creates a new entity at "0", and refuses the second of two creations of one name', async () => {
    const config = { table: 'products', key: ['product_code'] };
    const answers = await Promise.all([update(kim, 'supplier_view', { ...config, description: 'kim' }, '"0"'), update(sam, 'supplier_view', { ...config, description: 'sam' }, '"0"')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const created = answers.find((answer) => answer.status === 200);
    expect(await entity('supplier_view')).toMatchObject({ description: (created?.json.entity as Entity).description, version: '1' });
  });

  it('lets one of two saves sent at once on one version through, and refuses the other', async () => {
    const opened = (await entity('supplier_view')) as Entity;
    const answers = await Promise.all([
      update(kim, 'supplier_view', { table: 'products', key: ['product_code'], description: 'first' }, `"${opened.version}"`),
      update(sam, 'supplier_view', { table: 'products', key: ['product_code'], description: 'second' }, `"${opened.version}"`),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const saved = answers.find((answer) => answer.status === 200);
    expect(await entity('supplier_view')).toEqual(saved?.json.entity);
  });

  it('saves without If-Match (or with *) as before: the last save wins', async () => {
    const opened = (await entity('supplier_view')) as Entity;
    expect((await update(kim, 'supplier_view', { table: 'products', key: ['product_code'], description: 'checked' }, `"${opened.version}"`)).status).toBe(200);
    const unchecked = await update(sam, 'supplier_view', { table: 'products', key: ['product_code'], description: 'unchecked' });
    expect(unchecked.status, unchecked.text).toBe(200);
    const any = await update(sam, 'supplier_view', { table: 'products', key: ['product_code'], description: 'any' }, '*');
    expect(any.status, any.text).toBe(200);
    expect(await entity('supplier_view')).toMatchObject({ description: 'any', version: String(Number(opened.version) + 3) });
  });

  it('answers a malformed If-Match, or a version of an entity that never existed, as a 400 naming If-Match, changing nothing', async () => {
    const before = await entity('supplier_view');
    const malformed = await update(sam, 'supplier_view', { table: 'products', key: ['product_code'], description: 'malformed' }, 'yesterday');
    expect(malformed.status, malformed.text).toBe(400);
    expect(malformed.json.errors).toHaveProperty('If-Match');
    const never = await update(sam, 'never_saved', { table: 'products', key: ['product_code'] }, '"3"');
    expect(never.status, never.text).toBe(400);
    expect(never.json.errors).toHaveProperty('If-Match');
    expect(await entity('supplier_view')).toEqual(before);
    expect(await entity('never_saved')).toBeUndefined();
  });

  it('still lets no editor change the configuration, whatever the version (403), changing nothing', async () => {
    const before = (await entity('supplier_view')) as Entity;
    const refused = await update(editor, 'supplier_view', { table: 'products', key: ['product_code'], description: 'editor' }, `"${before.version}"`);
    expect(refused.status, refused.text).toBe(403);
    expect(await entity('supplier_view')).toEqual(before);
  });
});
