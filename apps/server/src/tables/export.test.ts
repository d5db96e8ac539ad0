// GET /api/records/tables/{name}/export/: the rows a page query selects, every page of them, as a
// CSV a spreadsheet opens as it is (UTF-8 BOM, quoting, formula cells guarded), to viewers and up.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('table export on %s', (backend) => {
  let server: TestServer;
  let admin: string;
  let viewer: string;
  let table: { name: string; encodedName: string };
  let productId: number;
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = (await signUpUser(server)).access;
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
    const product = await server.request('/api/records/tables/products/rows/add/', { token: admin, body: { product_code: 'EXP-1', name: 'Größe Decke', current_stock: 3, unit_cost: 2.5 } });
    productId = product.json.id as number;
    const created = await server.request('/api/records/tables/create/', {
      token: admin,
      body: {
        name: 'Export été #1',
        folder: 'Tests',
        columns: [
          { key: 'title', label: 'Title', type: 'CharField', required: true },
          { key: 'qty', label: 'Qty', type: 'IntegerField', required: true },
          { key: 'price', label: 'Price', type: 'DecimalField' },
          { key: 'due', label: 'Due', type: 'DateField' },
          { key: 'active', type: 'BooleanField' },
          { key: 'product_id', label: 'Product', type: 'ForeignKey', related_table: 'products' },
          { key: 'parts', type: 'nestedTable', nested_table: 'parts' },
        ],
      },
    });
    table = created.json as typeof table;
    const rows = [
      { title: 'Plain', qty: 5, price: -1.5, due: '2026-11-02', active: true, product_id: productId },
      { title: '=HYPERLINK("http://x")', qty: 20, price: 3 },
      { title: 'Comma, "quoted"\nline', qty: 8 },
      { title: '-2+3', qty: 12 },
      { title: '@cmd', qty: 1 },
    ];
    for (const row of rows) {
      const added = await server.request(`/api/records/tables/${table.encodedName}/rows/add/`, { token: admin, body: row });
      expect(added.status, added.text).toBe(201);
    }
  });
  afterAll(() => server.stop());

  /** The answer's bytes as they are (Response.text() would drop the BOM). */
  const download = async (name: string, query = '', token = viewer) => {
    const response = await fetch(`${server.url}/api/records/tables/${encodeURIComponent(name)}/export/${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  };
  const lines = (text: string) => text.replace(/^\uFEFF/, '').split('\r\n');

  it('gives a viewer the rows as UTF-8 CSV with a BOM, labels as the header, formula cells guarded and fields quoted', async () => {
    const answer = await download(table.name, 'sort_by=qty');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="Export _t_ #1.csv"; filename*=UTF-8''Export%20%C3%A9t%C3%A9%20%231.csv`);
    expect([...answer.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines(answer.text)).toEqual([
      'ID,Title,Qty,Price,Due,Active,Product',
      `5,"'@cmd",1,,,,`,
      '1,Plain,5,-1.5,2026-11-02,true,EXP-1 — Größe Decke',
      '3,"Comma, ""quoted""\nline",8,,,,',
      `4,"'-2+3",12,,,,`,
      `2,"'=HYPERLINK(""http://x"")",20,3,,,`,
      '',
    ]);
  });

  it('selects the rows of the filters in the order asked, every page of them', async () => {
    const filters = encodeURIComponent(JSON.stringify({ qty: { gt: 1, lt: 20 } }));
    expect(lines((await download(table.encodedName, `sort_by=qty&sort_dir=desc&filters_json=${filters}`)).text).map((line) => line.split(',')[0])).toEqual(['ID', '4', '3', '1', '']);
    // A bound with more digits than the decimal column holds is still a fair question.
    const wide = encodeURIComponent(JSON.stringify({ price: '<99999999999999' }));
    expect(lines((await download(table.encodedName, `filters_json=${wide}`)).text).map((line) => line.split(',')[0])).toEqual(['ID', '1', '2', '']);

    // More rows than one batch: by a column with NULLs (read by offset) and by id (read by keyset), each row once, in order.
    const big = await server.request('/api/records/tables/create/', { token: admin, body: { name: `Many ${backend}`, columns: [{ key: 'n', type: 'IntegerField' }] } });
    const encoded = (big.json as { encodedName: string }).encodedName;
    await sql`insert into ${sql.id('data', encoded)} (n) select case when i % 7 = 0 then null else i % 100 end from generate_series(1, 2600) as i`.execute(server.database.db);
    const cases = [
      ['sort_by=n&sort_dir=desc', sql`true`, sql`n desc, id desc`],
      [`sort_dir=desc&filters_json=${encodeURIComponent('{"n":{"gte":10}}')}`, sql`n >= 10`, sql`id desc`],
    ] as const;
    for (const [query, where, order] of cases) {
      const expected = await sql<{ id: number }>`select id from ${sql.id('data', encoded)} where ${where} order by ${order}`.execute(server.database.db);
      const ids = lines((await download(encoded, query)).text).slice(1, -1).map((line) => Number(line.split(',')[0]));
      expect(expected.rows.length).toBeGreaterThan(2000);
      expect(ids).toEqual(expected.rows.map((row) => row.id));
    }
  });

  it('refuses a bad filter or sort with a 400 before any row, an unknown table with a 404, and a caller without a session with a 401', async () => {
    const badFilter = await server.request(`/api/records/tables/${table.encodedName}/export/?filters_json=${encodeURIComponent('{"qty":{"lt":"many"}}')}`, { token: viewer });
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.detail).toBe("Invalid filter for column 'qty': Expected a whole number.");
    const badSort = await server.request(`/api/records/tables/${table.encodedName}/export/?sort_by=nope`, { token: viewer });
    expect(badSort.status).toBe(400);
    expect(badSort.json.detail).toBe("Cannot sort by 'nope': no such column.");
    expect((await server.request('/api/records/tables/nope/export/', { token: viewer })).status).toBe(404);
    expect((await server.request(`/api/records/tables/${table.encodedName}/export/`)).status).toBe(401);
  });
});
