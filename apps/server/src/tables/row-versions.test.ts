// Two people editing one row (QA F8, ADR 0168): a row's version goes out with it, comes back as
// If-Match, and a save or delete of a version no longer stored is a 409 that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('row versions on %s', (backend) => {
  let server: TestServer;
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let alex: Awaited<ReturnType<typeof signUpUser>>;
  let tableName: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    sam = await signUpUser(server, { role: 'editor' });
    alex = await signUpUser(server, { role: 'editor' });
    const admin = await signUpUser(server);
    // A table a user made: its rows have a version as the built-in ones do.
    const created = await server.request('/api/records/tables/create/', {
      token: admin.access,
      body: { name: `Suppliers ${backend}`, folder: 'Tests', columns: [{ key: 'name', type: 'CharField', max_length: 50, required: true }, { key: 'phone', type: 'CharField', max_length: 30 }] },
    });
    expect(created.status, created.text).toBe(201);
    tableName = created.json.encodedName as string;
  });
  afterAll(() => server.stop());

  const rowsPath = () => `/api/records/tables/${tableName}/rows`;
  const addRow = async (name: string) => {
    const added = await server.request(`${rowsPath()}/add/`, { token: sam.access, body: { name, phone: '0161 000' } });
    expect(added.status, added.text).toBe(201);
    return added.json as { id: number; name: string; phone: string; _version: string };
  };
  const edit = (who: { access: string }, body: Record<string, unknown>, version?: string) =>
    server.request(`${rowsPath()}/edit/?time_zone=Europe/London`, { token: who.access, body, ...(version === undefined ? {} : { headers: { 'if-match': `"${version}"` } }) });
  const remove = (who: { access: string }, id: number, version?: string) =>
    server.request(`${rowsPath()}/delete/?time_zone=Europe/London`, { token: who.access, body: { id }, ...(version === undefined ? {} : { headers: { 'if-match': `"${version}"` } }) });
  const stored = async (id: number) => {
    const page = await server.request(`/api/records/tables/${tableName}/data/?page=1&page_size=50&filters_json=${encodeURIComponent(JSON.stringify({ id: { equals: id } }))}`, { token: sam.access });
    return (page.json.results as Record<string, unknown>[])[0];
  };

  it('gives each row its version in pages and in the answer to a save, and a save changes it', async () => {
    const row = await addRow('Pennine Pots');
    expect(row._version).toMatch(/^\d+$/);
    expect((await stored(row.id))?._version).toBe(row._version);
    const saved = await edit(sam, { id: row.id, phone: '0161 111' }, row._version);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json._version).not.toBe(row._version);
    expect((await stored(row.id))?._version).toBe(saved.json._version);
  });

  it("answers a product's stock edit (which also records today's count) with the version the row is left at", async () => {
    const added = await server.request('/api/records/tables/products/rows/add/?time_zone=Europe/London', { token: sam.access, body: { product_code: `ROCH-${backend}`, name: 'Rochdale Ramekin', current_stock: 5, unit_cost: 1 } });
    expect(added.status, added.text).toBe(201);
    const product = added.json as { id: number; _version: string };
    const edited = await server.request('/api/records/tables/products/rows/edit/?time_zone=Europe/London', { token: sam.access, body: { id: product.id, current_stock: 9 }, headers: { 'if-match': `"${product._version}"` } });
    expect(edited.status, edited.text).toBe(200);
    const again = await server.request('/api/records/tables/products/rows/edit/?time_zone=Europe/London', { token: sam.access, body: { id: product.id, current_stock: 11 }, headers: { 'if-match': `"${edited.json._version as string}"` } });
    expect(again.status, again.text).toBe(200);
  });

  it('refuses the second of two saves made on the same version with a 409 naming who saved first, and keeps the first', async () => {
    const row = await addRow('Mersey Mugs');
    const first = await edit(sam, { id: row.id, phone: '0161 222' }, row._version);
    expect(first.status, first.text).toBe(200);
    const second = await edit(alex, { id: row.id, phone: '0161 333' }, row._version);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^This row was changed by ${sam.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(sam.username);
    expect(Date.parse(second.json.changed_at as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(second.json.current).toMatchObject({ id: row.id, phone: '0161 222', _version: first.json._version });
    expect(await stored(row.id)).toMatchObject({ phone: '0161 222', _version: first.json._version });
    // With the version the 409 gave, the save goes through.
    const again = await edit(alex, { id: row.id, phone: '0161 333' }, (second.json.current as { _version: string })._version);
    expect(again.status, again.text).toBe(200);
  });

  it('saves without If-Match (or with *) as before: the last save wins', async () => {
    const row = await addRow('Salford Saucers');
    await edit(sam, { id: row.id, phone: '0161 444' }, row._version);
    const unchecked = await edit(alex, { id: row.id, phone: '0161 555' });
    expect(unchecked.status, unchecked.text).toBe(200);
    const anyVersion = await server.request(`${rowsPath()}/edit/`, { token: alex.access, body: { id: row.id, phone: '0161 666' }, headers: { 'if-match': '*' } });
    expect(anyVersion.status, anyVersion.text).toBe(200);
    expect(await stored(row.id)).toMatchObject({ phone: '0161 666' });
  });

  it('takes a row sent back as it was read (its _version in the body) as the fields, not as a column, nor as the version', async () => {
    const row = await addRow('Bolton Bowls');
    // The version checked is the header's: a body's _version (here a stale one) is neither a field nor checked.
    const saved = await edit(sam, { ...row, _version: '1', phone: '0161 777' }, row._version);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.phone).toBe('0161 777');
  });

  it('refuses a delete of a row changed since it was read (409), deleting nothing, and deletes at the current version', async () => {
    const row = await addRow('Wigan Whisks');
    await edit(sam, { id: row.id, phone: '0161 888' }, row._version);
    const stale = await remove(alex, row.id, row._version);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.code).toBe('edit_conflict');
    expect(stale.json.detail).toMatch(/^This row was changed by .+ at \d\d:\d\d after you opened it\. Reload to see their change, then delete it if you still mean to\.$/);
    expect(await stored(row.id)).toMatchObject({ phone: '0161 888' });
    const current = (await stored(row.id))?._version as string;
    const deleted = await remove(alex, row.id, current);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await stored(row.id)).toBeUndefined();
  });

  it('says a row changed by no one it knows (an import) was changed, without a name', async () => {
    const row = await addRow('Oldham Oven Gloves');
    await server.database.db.updateTable(`data.${tableName}` as 'data.products').set({ name: 'Changed by an import' }).where('id', '=', row.id).execute();
    const refused = await edit(sam, { id: row.id, phone: '0161 999' }, row._version);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.detail).toBe('This row was changed after you opened it. Reload to see the change, then edit again.');
    expect(refused.json.changed_by).toBeNull();
    expect(refused.json.current).toMatchObject({ name: 'Changed by an import', phone: '0161 000' });
  });

  it('answers a missing row as 404 whatever the version, and a malformed If-Match as a 400 naming it', async () => {
    const row = await addRow('Stockport Spoons');
    expect((await remove(sam, row.id)).status).toBe(200);
    const gone = await edit(alex, { id: row.id, phone: '1' }, row._version);
    expect(gone.status, gone.text).toBe(404);
    const other = await addRow('Bury Bakeware');
    const malformed = await server.request(`${rowsPath()}/edit/`, { token: sam.access, body: { id: other.id, phone: '2' }, headers: { 'if-match': 'yesterday' } });
    expect(malformed.status, malformed.text).toBe(400);
    expect(malformed.json.errors).toHaveProperty('If-Match');
    expect(await stored(other.id)).toMatchObject({ phone: '0161 000' });
  });
});
