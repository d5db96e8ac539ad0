// Arbitrary input thrown at every /api/records input: never a 500, never a change outside the
// target table, and no way to reach SQL with a run-time identifier.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const injections = [
  `x"; drop table users; --`,
  `products; drop table data.sales`,
  `id desc; delete from users`,
  `' or 1=1 --`,
  `(select password_hash from users limit 1)`,
  `"); alter table users add column pwned int; --`,
];
const hostile = fc.oneof(fc.constantFrom(...injections), fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 30 }));

describe.each(backends)('records API under arbitrary input on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let fingerprint: () => Promise<unknown>;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    await server.request('/api/records/tables/create/', { token, body: { name: 'target', folder: 'Fuzz', columns: [{ key: 'title', type: 'CharField', max_length: 40 }, { key: 'n', type: 'IntegerField' }] } });
    await server.request('/api/records/tables/products/rows/add/', { token, body: { product_code: 'SENTINEL', name: 'Sentinel', current_stock: 1 } });
    fingerprint = async () =>
      (
        await sql`select (select count(*)::int from users) as users,
                         (select count(*)::int from data.products) as products,
                         (select count(*)::int from data_tables) as tables,
                         (select count(*)::int from information_schema.columns where table_name = 'users') as user_columns,
                         (select count(*)::int from information_schema.tables where table_schema = 'data') as data_tables`.execute(server.database.db)
      ).rows[0];
  });
  afterAll(() => server.stop());

  const expectNoServerError = (response: { status: number; text: string }) => expect(response.status, response.text).toBeLessThan(500);

  it('reading pages: table name, sort_by, sort_dir, filters_json, page sizes', async () => {
    const before = await fingerprint();
    const filters = fc.oneof(
      hostile,
      fc.dictionary(fc.oneof(hostile, fc.constantFrom('title', 'n', 'id')), fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostile)).map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant('target'), hostile), hostile, fc.oneof(fc.constantFrom('asc', 'desc'), hostile), filters, fc.oneof(fc.integer(), hostile), async (table, sortBy, sortDir, filtersJson, size) => {
        const params = new URLSearchParams({ sort_by: sortBy, sort_dir: sortDir, filters_json: filtersJson, page_size: String(size) });
        const response = await server.request(`/api/records/tables/${encodeURIComponent(table)}/data/?${params.toString()}`, { token });
        expectNoServerError(response);
      }),
      { numRuns: 150, seed: 11 },
    );
    expect(await fingerprint()).toEqual(before);
  });

  it('row payloads: never a 500, and only the target table changes', async () => {
    const before = await fingerprint();
    const payload = fc.dictionary(fc.oneof(fc.constantFrom('title', 'n', 'id'), hostile), fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostile), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('add', 'edit', 'delete'), payload, async (action, body) => {
        expectNoServerError(await server.request(`/api/records/tables/target/rows/${action}/`, { token, body }));
      }),
      { numRuns: 150, seed: 12 },
    );
    expect(await fingerprint()).toEqual(before);
  });

  it('table and folder names: creating, moving, deleting and variations never reach SQL unquoted', async () => {
    const before = (await fingerprint()) as { users: number; products: number; user_columns: number };
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (name, folder) => {
        expectNoServerError(await server.request(`/api/records/tables/${encodeURIComponent(name)}/update-folder/`, { token, body: { folder } }));
        expectNoServerError(await server.request(`/api/records/tables/${encodeURIComponent(name)}/delete/`, { token, method: 'POST' }));
        expectNoServerError(await server.request('/api/records/tables/create-variation/', { token, body: { base_table: name, parent_id: 1 } }));
        expectNoServerError(await server.request('/api/records/encode/', { token, body: { text: name } }));
        expectNoServerError(await server.request('/api/records/decode/', { token, body: { texts: [name, folder] } }));
        const created = await server.request('/api/records/tables/create/', { token, body: { name, folder, columns: [{ key: 'x', type: 'TextField' }] } });
        expectNoServerError(created);
        if (created.status === 201) {
          const page = await server.request(`/api/records/tables/${created.json.encodedName as string}/data/`, { token });
          expect(page.status).toBe(200);
          expect((await server.request(`/api/records/tables/${created.json.encodedName as string}/delete/`, { token, method: 'POST' })).status).toBe(200);
        }
      }),
      { numRuns: 80, seed: 13 },
    );
    const after = (await fingerprint()) as typeof before;
    expect({ users: after.users, products: after.products, user_columns: after.user_columns }).toEqual({ users: before.users, products: before.products, user_columns: before.user_columns });
  });
});
