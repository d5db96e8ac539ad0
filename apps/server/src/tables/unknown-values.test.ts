// A product never counted (ADR 0149): its current_stock is stored as 0 but the Data screen's page
// says it is not a count; typing a count on the Data screen, or importing one, makes it one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowPage } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('values never recorded on %s', (backend) => {
  let server: TestServer;
  let editor: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    editor = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  const call = (path: string, body?: unknown) => server.request(path, { token: editor, ...(body === undefined ? {} : { body }) });
  const addProduct = async (row: Record<string, unknown>) => {
    const response = await call('/api/records/tables/products/rows/add/', { name: `Product ${String(row.product_code)}`, ...row });
    expect(response.status, response.text).toBe(201);
    return String(response.json.id);
  };
  const page = async (query = '') => (await call(`/api/records/tables/products/data/?page_size=50${query}`)).json as unknown as RowPage;

  it('names the products with no stock count on each page, and a count typed in the row form makes one', async () => {
    const blank = await addProduct({ product_code: 'NEVER-COUNTED' });
    const counted = await addProduct({ product_code: 'COUNTED', current_stock: 7 });
    const countedZero = await addProduct({ product_code: 'COUNTED-ZERO', current_stock: 0 });

    const first = await page();
    expect(first.results.find((row) => String(row.id) === blank)?.current_stock).toBe(0);
    expect(first.unknown_values).toEqual({ current_stock: { [blank]: 'not_counted' } });
    expect(counted in (first.unknown_values?.current_stock ?? {}) || countedZero in (first.unknown_values?.current_stock ?? {})).toBe(false);

    // A page without the uncounted product carries no marks.
    const filtered = await page(`&filters_json=${encodeURIComponent(JSON.stringify({ product_code: { equals: 'COUNTED' } }))}`);
    expect(filtered.results.map((row) => String(row.id))).toEqual([counted]);
    expect(filtered.unknown_values).toBeUndefined();

    // A name change is not a count.
    expect((await call('/api/records/tables/products/rows/edit/', { id: blank, name: 'Renamed' })).status).toBe(200);
    expect((await page()).unknown_values).toEqual({ current_stock: { [blank]: 'not_counted' } });

    // A count of 0 typed in: now a count, recorded as today's stock snapshot.
    expect((await call('/api/records/tables/products/rows/edit/', { id: blank, current_stock: 0 })).status).toBe(200);
    expect((await page()).unknown_values).toBeUndefined();
    const snapshots = await server.database.db.selectFrom('data.stock_snapshots').select(['stock_level']).where('product_id', '=', Number(blank)).execute();
    expect(snapshots).toEqual([{ stock_level: 0 }]);
  });

  it('marks nothing in a table without such a rule', async () => {
    const sales = (await call('/api/records/tables/sales/data/')).json as unknown as RowPage;
    expect(sales.unknown_values).toBeUndefined();
  });
});
