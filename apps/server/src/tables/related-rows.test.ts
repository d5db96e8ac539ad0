// A ForeignKey field is filled by choosing a row, not by knowing its id: the row form's picker asks
// `related-rows` for the rows whose code or name contains what was typed, a page at most; a value
// that is no row of its table is the field's 400; and a row about to be deleted is named by its
// code and name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

type Related = { results: { id: number; label: string }[]; more: boolean };

describe.each(backends)('rows a ForeignKey refers to on %s', (backend) => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let admin: string;
  const idOf = new Map<string, number>();
  beforeAll(async () => {
    server = await startTestServer(backend);
    editor = (await signUpUser(server, { role: 'editor' })).access;
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
    const products = [
      ['RR-MUG-01', 'Enamel mug'],
      ['RR-CUP-02', 'Mug tree'],
      ['RR-PAN-03', 'Frying pan'],
      ['RR-100%', 'Percent off'],
    ];
    for (const [code, name] of products) {
      const added = await server.request('/api/records/tables/products/rows/add/', { token: editor, body: { product_code: code, name } });
      expect(added.status, added.text).toBe(201);
      idOf.set(code as string, added.json.id as number);
    }
    // Bins known by nothing but their number, and a table referring to them.
    admin = (await signUpUser(server)).access;
    await server.request('/api/records/tables/create/', { token: admin, body: { name: `Bins ${backend}`, folder: 'Tests', columns: [{ key: 'shelf', type: 'IntegerField' }] } });
    const moves = await server.request('/api/records/tables/create/', {
      token: admin,
      body: { name: `Bin moves ${backend}`, folder: 'Tests', columns: [{ key: 'bin_id', type: 'ForeignKey', related_table: `Bins ${backend}` }] },
    });
    expect(moves.status, moves.text).toBe(201);
    for (let shelf = 1; shelf <= 12; shelf += 1) await server.request(`/api/records/tables/${encodeURIComponent(`Bins ${backend}`)}/rows/add/`, { token: editor, body: { shelf } });
  });
  afterAll(() => server.stop());

  const related = async (query: Record<string, string>, table = 'sales', column = 'product_id') => {
    const answer = await server.request(`/api/records/tables/${table}/related-rows/${column}/?${new URLSearchParams(query).toString()}`, { token: viewer });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as unknown as Related;
  };

  it('finds products by part of the code or the name, ignoring case, those starting with it first', async () => {
    expect((await related({ search: 'mug' })).results).toEqual([
      // The name starting with the text comes before the name only containing it.
      { id: idOf.get('RR-CUP-02'), label: 'RR-CUP-02 — Mug tree' },
      { id: idOf.get('RR-MUG-01'), label: 'RR-MUG-01 — Enamel mug' },
    ]);
    expect((await related({ search: 'rr-mug' })).results).toEqual([{ id: idOf.get('RR-MUG-01'), label: 'RR-MUG-01 — Enamel mug' }]);
    expect((await related({ search: 'PAN' })).results.map((row) => row.label)).toEqual(['RR-PAN-03 — Frying pan']);
    // What is typed is matched as it is: `%` is no wildcard.
    expect((await related({ search: '100%' })).results.map((row) => row.label)).toEqual(['RR-100% — Percent off']);
    expect(await related({ search: 'no such product' })).toEqual({ results: [], more: false });
  });

  it('answers at most `limit` rows in code order and says when more match', async () => {
    const first = await related({ search: 'RR-', limit: '2' });
    expect(first).toEqual({ results: [expect.objectContaining({ label: 'RR-100% — Percent off' }), expect.objectContaining({ label: 'RR-CUP-02 — Mug tree' })], more: true });
    expect((await related({ search: 'RR-', limit: '4' })).more).toBe(false);
    const all = await related({});
    expect(all.results.map((row) => row.label)).toEqual(['RR-100% — Percent off', 'RR-CUP-02 — Mug tree', 'RR-MUG-01 — Enamel mug', 'RR-PAN-03 — Frying pan']);
    expect(all.more).toBe(false);
  });

  it('searches a table without a text key by id', async () => {
    const found = await related({ search: '1' }, `Bin moves ${backend}`, 'bin_id');
    expect(found.results.map((row) => row.label)).toEqual(['1', '10', '11', '12']);
    expect(found.results.map((row) => row.id)).toEqual([1, 10, 11, 12]);
  });

  it('refuses a column that is unknown or no ForeignKey, and a limit out of range, naming them', async () => {
    const unknown = await server.request('/api/records/tables/sales/related-rows/nope/', { token: viewer });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found', detail: "Column 'nope' not found in table 'sales'." });
    const notReference = await server.request('/api/records/tables/sales/related-rows/date/', { token: viewer });
    expect(notReference.status).toBe(400);
    expect(notReference.json).toMatchObject({ code: 'validation_error', detail: "Column 'date' of 'sales' does not refer to another table." });
    for (const limit of ['0', '101', 'ten']) {
      const refused = await server.request(`/api/records/tables/sales/related-rows/product_id/?limit=${limit}`, { token: viewer });
      expect({ limit, status: refused.status }).toEqual({ limit, status: 400 });
      expect(refused.json.errors).toHaveProperty('limit');
    }
  });

  it('refuses a sale or an edit naming no product as a 400 on the field, and stores the one chosen', async () => {
    const missing = 987_654_321;
    const add = await server.request('/api/records/tables/sales/rows/add/', { token: editor, body: { product_id: missing, date: '2025-10-01', quantity: 2 } });
    expect(add.status).toBe(400);
    expect(add.json).toMatchObject({
      code: 'validation_error',
      detail: `Product: No row of 'products' has the id ${missing}: choose one of its rows.`,
      errors: { product_id: [`No row of 'products' has the id ${missing}: choose one of its rows.`] },
    });
    const chosen = (await related({ search: 'enamel' })).results[0]?.id;
    const sale = await server.request('/api/records/tables/sales/rows/add/', { token: editor, body: { product_id: String(chosen), date: '2025-10-01', quantity: 2 } });
    expect(sale.status, sale.text).toBe(201);
    expect(sale.json.product_id).toBe(idOf.get('RR-MUG-01'));
    const edit = await server.request('/api/records/tables/sales/rows/edit/', { token: editor, body: { id: sale.json.id, product_id: missing } });
    expect(edit.status).toBe(400);
    expect(edit.json.errors).toEqual({ product_id: [expect.stringContaining(String(missing))] });
  });

  it('names the row asked about before a delete by its code and name, also in the 409', async () => {
    const id = idOf.get('RR-PAN-03') as number;
    // A table of the user's own (a sale or stock count would also queue the product's forecast).
    const labels = await server.request('/api/records/tables/create/', {
      token: admin,
      body: { name: `Shelf labels ${backend}`, folder: 'Tests', columns: [{ key: 'product_id', type: 'ForeignKey', related_table: 'products' }] },
    });
    await server.request(`/api/records/tables/${labels.json.encodedName as string}/rows/add/`, { token: editor, body: { product_id: id } });
    const references = await server.request(`/api/records/tables/products/rows/${id}/references/`, { token: viewer });
    expect(references.json).toEqual({ references: [{ table: `Shelf labels ${backend}`, count: 1 }], total: 1, label: 'RR-PAN-03 — Frying pan' });
    const refused = await server.request('/api/records/tables/products/rows/delete/', { token: editor, body: { id } });
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(
      `RR-PAN-03 — Frying pan (row ${id} of 'products') is referred to by 1 row of 'Shelf labels ${backend}'. Delete those first, or (as an administrator) delete it together with them.`,
    );
    // A table without a key to show: no label, the row by its number.
    const bins = (await related({ search: '' }, `Bin moves ${backend}`, 'bin_id')).results[0]?.id;
    expect((await server.request(`/api/records/tables/${encodeURIComponent(`Bins ${backend}`)}/rows/${bins}/references/`, { token: viewer })).json).toMatchObject({ label: null });
  });
});
