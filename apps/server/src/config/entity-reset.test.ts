// An import entity set back to the configuration file's version (ADR 0181), over HTTP on PGlite and
// PostgreSQL: GET /api/yaml/config/ gives each entity the file's version of it (`file_config`);
// POST /api/yaml/reset-entity/ (admin) clears the entity's saved configuration at the version read
// (If-Match, as update-entity: a save by someone else since is a 409 that changes nothing), after
// which the entity follows the file, a later edit of it included, and its version counts on. An
// entity the file does not have, an unknown one, a malformed or foreign version: a 4xx naming it.
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

type Entity = { name: string; table: string; key: string[]; repeated_keys?: string; field_mappings?: Record<string, string>; description?: string; version: string; file_config: Omit<Entity, 'name' | 'version' | 'file_config'> | null };

/** The shipped file's sales entity, as config/stockwise.yaml has it. */
const SHIPPED_SALES = {
  table: 'sales',
  key: ['product_id', 'date'],
  repeated_keys: 'sum',
  description: 'Daily unit sales per product; transaction lines of one product and day are added up (returns are negative).',
  field_mappings: { product_id: 'product_code', date: 'date', quantity: 'quantity' },
};
const BROKEN_SALES = { table: 'sales', key: ['product_id', 'date'], repeated_keys: 'last', description: 'Broken by hand', field_mappings: { product_id: 'Artikel', date: 'date' } };

describe.each(backends)('setting an entity back to the configuration file on %s', (backend) => {
  let server: TestServer;
  let scratch: string;
  let configFile: string;
  let kim: Awaited<ReturnType<typeof signUpUser>>;
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    // A copy of the shipped file: one test edits it.
    scratch = mkdtempSync(path.join(tmpdir(), 'stockwise-entity-reset-'));
    configFile = path.join(scratch, 'stockwise.yaml');
    copyFileSync(path.resolve(import.meta.dirname, '../../../../config/stockwise.yaml'), configFile);
    server = await startTestServer(backend, { CONFIG_FILE: configFile });
    kim = await signUpUser(server, { role: 'admin' });
    sam = await signUpUser(server, { role: 'admin' });
    editor = await signUpUser(server, { role: 'editor' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const withIfMatch = (ifMatch: string | undefined) => (ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } });
  const update = (who: { access: string }, entityName: string, config: object, ifMatch?: string) =>
    server.request('/api/yaml/update-entity/?time_zone=Europe/London', { token: who.access, body: { entity_name: entityName, config }, ...withIfMatch(ifMatch) });
  const reset = (who: { access: string }, body: unknown, ifMatch?: string) => server.request('/api/yaml/reset-entity/?time_zone=Europe/London', { token: who.access, body, ...withIfMatch(ifMatch) });
  const entity = async (name: string) => {
    const answer = (await server.request('/api/yaml/config/', { token: editor.access })).json as { content: { inventory: { entities: Entity[] } } };
    return answer.content.inventory.entities.find((e) => e.name === name);
  };
  const storedRow = (name: string) => server.database.db.selectFrom('config_entities').select(['config', 'updated_by', 'updated_at']).where('name', '=', name).executeTakeFirst();

  it("gives every entity the file's version of it, and null to one only saved through the API", async () => {
    expect(await entity('sales')).toEqual({ name: 'sales', ...SHIPPED_SALES, version: '0', file_config: SHIPPED_SALES });
    const added = await update(kim, 'returns_view', { table: 'products', key: ['product_code'] }, '"0"');
    expect(added.status, added.text).toBe(200);
    expect(added.json.entity).toEqual({ name: 'returns_view', table: 'products', key: ['product_code'], version: '1', file_config: null });
    expect(await entity('returns_view')).toEqual(added.json.entity);
  });

  it("sets a changed entity back to the file's version at the version read, recording who; the next save goes on from the version it gave", async () => {
    const changed = await update(kim, 'sales', BROKEN_SALES, '"0"');
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.entity).toEqual({ name: 'sales', ...BROKEN_SALES, version: '1', file_config: SHIPPED_SALES });

    const answer = await reset(sam, { entity_name: 'sales' }, '"1"');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ success: true, message: "Entity 'sales' set back to the configuration file's version.", entity: { name: 'sales', ...SHIPPED_SALES, version: '2', file_config: SHIPPED_SALES } });
    expect(await entity('sales')).toEqual(answer.json.entity);
    // The row stays, without a configuration of its own, naming who set it back.
    expect(await storedRow('sales')).toMatchObject({ config: null, updated_by: sam.id });

    const next = await update(kim, 'sales', { ...SHIPPED_SALES, description: 'Till lines per day' }, '"2"');
    expect(next.status, next.text).toBe(200);
    expect(next.json.entity).toMatchObject({ description: 'Till lines per day', version: '3' });
  });

  it('refuses a reset over a save made since it was read, naming who and when, changing nothing', async () => {
    const opened = (await entity('sales')) as Entity;
    expect((await update(kim, 'sales', { ...BROKEN_SALES, description: 'Saved meanwhile' }, `"${opened.version}"`)).status).toBe(200);
    const saved = await entity('sales');
    const refused = await reset(sam, { entity_name: 'sales' }, `"${opened.version}"`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.code).toBe('edit_conflict');
    expect(refused.json.detail).toMatch(new RegExp(`^This entity's configuration was changed by ${kim.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then reset it if you still mean to\\.$`));
    expect(refused.json.changed_by).toBe(kim.username);
    expect(refused.json.current).toEqual(saved);
    expect(await entity('sales')).toEqual(saved);
  });

  it('lets one of two resets sent at once on one version through, and refuses the other', async () => {
    const opened = (await entity('sales')) as Entity;
    const answers = await Promise.all([reset(kim, { entity_name: 'sales' }, `"${opened.version}"`), reset(sam, { entity_name: 'sales' }, `"${opened.version}"`)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await entity('sales')).toEqual({ name: 'sales', ...SHIPPED_SALES, version: String(Number(opened.version) + 1), file_config: SHIPPED_SALES });
  });

  it('refuses a save from a form opened before the reset, though saves after the reset have numbered on', async () => {
    const first = await update(kim, 'stock_snapshots', { table: 'stock_snapshots', key: ['product_id', 'date'], description: 'First' }, '"0"');
    expect(first.json.entity).toMatchObject({ version: '1' });
    // Sam's form is opened at "1"; kim sets the entity back ("2") and saves again ("3").
    expect((await reset(kim, { entity_name: 'stock_snapshots' }, '"1"')).status).toBe(200);
    expect((await update(kim, 'stock_snapshots', { table: 'stock_snapshots', key: ['product_id', 'date'], description: 'After the reset' }, '"2"')).status).toBe(200);
    const stale = await update(sam, 'stock_snapshots', { table: 'stock_snapshots', key: ['product_id', 'date'], description: 'From the old form' }, '"1"');
    expect(stale.status, stale.text).toBe(409);
    expect(await entity('stock_snapshots')).toMatchObject({ description: 'After the reset', version: '3' });
  });

  it('leaves an entity already as in the file as it is: the same version, nothing written', async () => {
    const never = await reset(kim, { entity_name: 'deliveries' }, '"0"');
    expect(never.status, never.text).toBe(200);
    expect(never.json.entity).toMatchObject({ name: 'deliveries', version: '0' });
    expect(await storedRow('deliveries')).toBeUndefined();

    const opened = (await entity('sales')) as Entity;
    expect(opened.version).not.toBe('0');
    const before = await storedRow('sales');
    const again = await reset(sam, { entity_name: 'sales' }, `"${opened.version}"`);
    expect(again.status, again.text).toBe(200);
    expect(again.json.entity).toEqual(opened);
    expect(await storedRow('sales')).toEqual(before);
  });

  it('resets without If-Match (or with *) whatever the version', async () => {
    expect((await update(kim, 'sales', BROKEN_SALES)).status).toBe(200);
    const unchecked = await reset(sam, { entity_name: 'sales' });
    expect(unchecked.status, unchecked.text).toBe(200);
    expect(unchecked.json.entity).toMatchObject(SHIPPED_SALES);
    expect((await update(kim, 'sales', BROKEN_SALES)).status).toBe(200);
    const any = await reset(sam, { entity_name: 'sales' }, '*');
    expect(any.status, any.text).toBe(200);
    expect(await entity('sales')).toMatchObject(SHIPPED_SALES);
  });

  it('takes an entity sent back whole, as GET gave it, to update-entity: the version and the file version are read-only', async () => {
    const opened = (await entity('sales')) as Entity;
    const saved = await update(kim, 'sales', { ...opened, description: 'Sent back whole' }, `"${opened.version}"`);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.entity).toEqual({ ...opened, description: 'Sent back whole', version: String(Number(opened.version) + 1) });
  });

  it('follows the file once set back to it, an edit of the file included', async () => {
    const opened = (await entity('sales')) as Entity;
    expect((await reset(kim, { entity_name: 'sales' }, `"${opened.version}"`)).status).toBe(200);
    const edited = readFileSync(configFile, 'utf8').replace(SHIPPED_SALES.description, 'Daily sales, as the new release ships them.');
    expect(edited).not.toBe(readFileSync(configFile, 'utf8'));
    writeFileSync(configFile, edited);
    // The configuration cache looks at the file again within a second (FILE_RECHECK_MS).
    await expect.poll(async () => (await entity('sales'))?.description, { timeout: 5000 }).toBe('Daily sales, as the new release ships them.');
    expect((await entity('sales'))?.file_config?.description).toBe('Daily sales, as the new release ships them.');
  });

  it('answers a reset while the configuration file cannot be read with a 409 that says so, changing nothing', async () => {
    expect((await update(kim, 'sales', BROKEN_SALES)).status).toBe(200);
    const before = await storedRow('sales');
    renameSync(configFile, `${configFile}.away`);
    try {
      const answer = await reset(kim, { entity_name: 'sales' });
      expect(answer.status, answer.text).toBe(409);
      expect(answer.json.detail).toBe("The configuration file cannot be read, so 'sales' has no file version to go back to; GET /api/yaml/config/ says why.");
    } finally {
      renameSync(`${configFile}.away`, configFile);
    }
    expect(await storedRow('sales')).toEqual(before);
  });

  it.each([
    ['an entity only saved through the API', () => reset(kim, { entity_name: 'returns_view' }), 400, "The entity 'returns_view' is not in the configuration file (it was added through the API): there is no file version to go back to."],
    ['an entity nobody has', () => reset(kim, { entity_name: 'no_such_entity' }), 404, "No entity named 'no_such_entity'."],
    ['a version of an entity nobody has', () => reset(kim, { entity_name: 'no_such_entity' }, '"4"'), 400, 'If-Match: there is no entity \'no_such_entity\'; its version is "0" (or send no If-Match).'],
    ['a malformed If-Match', () => reset(kim, { entity_name: 'sales' }, 'yesterday'), 400, /^If-Match must be the one version you read/],
    ['no entity name', () => reset(kim, { entity_name: '  ' }), 400, /Entity name is required/],
    ['a body that is not an object', () => reset(kim, '[1]'), 400, /.+/],
    ['another field besides the name', () => reset(kim, { entity_name: 'sales', config: {} }), 400, /.+/],
    ['an editor', () => reset(editor, { entity_name: 'sales' }), 403, /.+/],
  ] as const)('answers %s with a 4xx that says so, changing nothing', async (_name, call, status, detail) => {
    expect((await update(kim, 'sales', BROKEN_SALES)).status).toBe(200);
    const [before, rows] = [await entity('sales'), await server.database.db.selectFrom('config_entities').selectAll().orderBy('name').execute()];
    const answer = await call();
    expect(answer.status, answer.text).toBe(status);
    if (typeof detail === 'string') expect(answer.json.detail).toBe(detail);
    else expect(answer.json.detail).toMatch(detail);
    expect(await entity('sales')).toEqual(before);
    expect(await server.database.db.selectFrom('config_entities').selectAll().orderBy('name').execute()).toEqual(rows);
  });
});
