// The Data screen's business keys (issue 13) on both databases: a page of sales carries each
// product's `code — name`; a ForeignKey column filters by the related key or name (a code that
// looks like an id is still a code); a date column filters by a month; from_end answers the last
// rows of the order in one read; a product code typed there is trimmed and refused when another
// product's code equals it ignoring case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

type Page = { results: Record<string, unknown>[]; count: number; references?: Record<string, Record<string, string>>; offset?: number; previous: string | null; next: string | null };

describe.each(backends)('business keys on the Data screen on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const idOf = new Map<string, number>();
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const products = await importFile(server, token, {
      fileName: 'p.csv',
      content: 'code,name\nBK-85123A,White hanging heart\nBK-22423,Regency cakestand\n',
      mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } },
      entityType: 'products',
    });
    expect(products.status).toBe(200);
    for (const row of (await server.database.db.selectFrom('data.products').select(['id', 'product_code']).where('product_code', 'like', 'BK-%').execute())) idOf.set(row.product_code, Number(row.id));
    // A product whose code is the other's id: filtering by that text finds the code, not the id.
    const numeric = String(idOf.get('BK-85123A'));
    expect((await importFile(server, token, { fileName: 'n.csv', content: `code,name\n${numeric},Numbered\n`, mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } }, entityType: 'products' })).status).toBe(200);
    idOf.set(numeric, Number((await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', numeric).executeTakeFirstOrThrow()).id));
    const lines = ['Code,Day,Qty'];
    for (let day = 1; day <= 30; day += 1) lines.push(`BK-85123A,2011-11-${String(day).padStart(2, '0')},${day}`);
    lines.push('BK-22423,2011-12-01,4', `${numeric},2011-10-31,7`);
    const sales = await importFile(server, token, { fileName: 's.csv', content: `${lines.join('\n')}\n`, mapping: { field_mappings: { product_id: 'Code', date: 'Day', quantity: 'Qty' } }, entityType: 'sales' });
    expect(sales.status, JSON.stringify(sales.json)).toBe(200);
  });
  afterAll(() => server.stop());

  const page = async (query: Record<string, string>) => {
    const answer = await server.request(`/api/records/tables/sales/data/?${new URLSearchParams({ page_size: '10', sort_by: 'date', ...query }).toString()}`, { token });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json as Page;
  };
  const ours = { product_id: { contains: 'BK-' } };

  it("shows each row's product as code — name", async () => {
    const answer = await page({ filters_json: JSON.stringify({ date: '2011-12' }) });
    const row = answer.results.find((r) => Number(r['product_id']) === idOf.get('BK-22423'));
    expect(row).toBeDefined();
    expect(answer.references?.['product_id']?.[String(idOf.get('BK-22423'))]).toBe('BK-22423 — Regency cakestand');
  });

  it('filters a reference by its code or name, never by the id a code looks like', async () => {
    const byName = await page({ filters_json: JSON.stringify({ product_id: 'cakestand' }) });
    expect(byName.results.map((r) => Number(r['product_id']))).toEqual([idOf.get('BK-22423')]);
    const numeric = String(idOf.get('BK-85123A'));
    // Text matches codes and names that contain it; `equals` with a number is the id.
    const byNumericCode = await page({ filters_json: JSON.stringify({ product_id: numeric }), page_size: '100' });
    const labels = byNumericCode.references?.['product_id'] ?? {};
    expect(Object.values(labels)).toContain(`${numeric} — Numbered`);
    expect(Object.values(labels).every((label) => label.includes(numeric))).toBe(true);
    const byId = await page({ filters_json: JSON.stringify({ product_id: { equals: idOf.get(numeric) } }) });
    expect(byId.results.map((r) => Number(r['product_id']))).toEqual([idOf.get(numeric)]);
  });

  it('filters a date column by a month and by a range', async () => {
    const november = await page({ filters_json: JSON.stringify({ ...ours, date: '2011-11' }), page_size: '100' });
    expect(november.count).toBe(30);
    const range = await page({ filters_json: JSON.stringify({ date: { gte: '2011-11-29', lte: '2011-12-01' } }) });
    expect(range.results.map((r) => r['date'])).toEqual(['2011-11-29', '2011-11-30', '2011-12-01']);
    const typed = await page({ filters_json: JSON.stringify({ date: '2011-11-29..2011-12-01' }) });
    expect(typed.results.map((r) => r['date'])).toEqual(['2011-11-29', '2011-11-30', '2011-12-01']);
    const openEnded = await page({ filters_json: JSON.stringify({ date: '2011-12-01..' }) });
    expect(openEnded.results.map((r) => r['date'])).toEqual(['2011-12-01']);
    const after = await page({ filters_json: JSON.stringify({ date: '>2011-11-29' }) });
    expect(after.results.map((r) => r['date'])).toEqual(['2011-11-30', '2011-12-01']);
    const firstDays = await page({ filters_json: JSON.stringify({ ...ours, date: { lt: '2011-11-03' } }) });
    expect(firstDays.results.map((r) => r['date'])).toEqual(['2011-11-01', '2011-11-02']);
    const refused = await server.request(`/api/records/tables/sales/data/?filters_json=${encodeURIComponent(JSON.stringify({ date: '2011-13' }))}`, { token });
    expect(refused.status).toBe(400);
    // Day first, as the shops write dates: the same rows as the ISO text.
    const dayFirst = await page({ filters_json: JSON.stringify({ date: '29.11.2011..1/12/2011' }) });
    expect(dayFirst.results.map((r) => r['date'])).toEqual(['2011-11-29', '2011-11-30', '2011-12-01']);
    const monthDayFirst = await page({ filters_json: JSON.stringify({ ...ours, date: '11.2011' }), page_size: '100' });
    expect(monthDayFirst.count).toBe(30);
    const noSuchDay = await server.request(`/api/records/tables/sales/data/?filters_json=${encodeURIComponent(JSON.stringify({ date: '31.11.2011' }))}`, { token });
    expect(noSuchDay.status).toBe(400);
    expect(noSuchDay.json).toMatchObject({ detail: "Invalid filter for column 'date': 31.11.2011 is not a real date: November 2011 has 30 days." });
  });

  // ADR 0167: the Data screen sends the viewer's order; text without it is read day first, as before.
  it("reads a filter's date typed month first when date_order says so, in its next link and export too; a bad order is a 400", async () => {
    const usRange = JSON.stringify({ date: '11/29/2011..12/1/2011' });
    const us = await page({ filters_json: usRange, date_order: 'month-first', page_size: '2' });
    expect(us.results.map((r) => r['date'])).toEqual(['2011-11-29', '2011-11-30']);
    expect(new URL(us.next as string, 'http://next.invalid').searchParams.get('date_order')).toBe('month-first');
    const second = await server.request(us.next as string, { token });
    expect((second.json as Page).results.map((r) => r['date'])).toEqual(['2011-12-01']);
    // 03/11/2011 is 11 March month first (no sale), 3 November day first (one).
    const ambiguous = JSON.stringify({ ...ours, date: '03/11/2011' });
    expect((await page({ filters_json: ambiguous, date_order: 'month-first' })).count).toBe(0);
    expect((await page({ filters_json: ambiguous, date_order: 'day-first' })).results.map((r) => r['date'])).toEqual(['2011-11-03']);
    expect((await page({ filters_json: ambiguous })).results.map((r) => r['date'])).toEqual(['2011-11-03']);
    const refused = await server.request(`/api/records/tables/sales/data/?date_order=month-first&filters_json=${encodeURIComponent(JSON.stringify({ date: '13/04/2011' }))}`, { token });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: "Invalid filter for column 'date': 13/04/2011 is not a real date: dates are read as MM/DD/YYYY (04/13/2011), and a year has 12 months." });
    const exported = await server.request(`/api/records/tables/sales/export/?sort_by=date&date_order=month-first&filters_json=${encodeURIComponent(usRange)}`, { token });
    expect(exported.status).toBe(200);
    expect(exported.text.trim().split('\r\n').slice(1).map((line) => line.split(',')[2])).toEqual(['2011-11-29', '2011-11-30', '2011-12-01']);
    for (const path of ['data', 'export']) {
      const badOrder = await server.request(`/api/records/tables/sales/${path}/?date_order=us`, { token });
      expect(badOrder.status, path).toBe(400);
      expect(badOrder.text, path).toContain('date_order is day-first or month-first.');
    }
  });

  it('reads the last rows of the order from the end, in the order asked', async () => {
    const filters = JSON.stringify({ product_id: 'BK-85123A' });
    const last = await page({ filters_json: filters, from_end: 'true', page_size: '4' });
    expect(last.results.map((r) => r['date'])).toEqual(['2011-11-27', '2011-11-28', '2011-11-29', '2011-11-30']);
    expect(last).toMatchObject({ count: 30, offset: 26 });
    expect(last.previous).not.toBeNull();
    const descending = await page({ filters_json: filters, from_end: 'true', page_size: '2', sort_dir: 'desc' });
    expect(descending.results.map((r) => r['date'])).toEqual(['2011-11-02', '2011-11-01']);
  });

  it('trims a product code typed on the Data screen and refuses one equal ignoring case to another product’s, naming the field; nothing is written', async () => {
    const codes = async () => (await server.database.db.selectFrom('data.products').select(['product_code', 'name']).where('product_code', 'ilike', 'bk-%').orderBy('product_code').execute()).map((p) => `${p.product_code} ${p.name}`);
    const stored = await codes();
    const add = (body: Record<string, unknown>) => server.request('/api/records/tables/products/rows/add/', { token, body });
    for (const code of ['bk-22423', ' BK-22423 ', 'Bk-22423']) {
      const refused = await add({ product_code: code, name: 'Second cakestand' });
      expect(refused.status, refused.text).toBe(400);
      const problem = `${code.trim()} is already used by BK-22423 — Regency cakestand; codes differing only in case are one product.`;
      expect(refused.json).toMatchObject({ detail: `Product code: ${problem}`, errors: { product_code: [problem] } });
    }
    expect((await add({ product_code: '  ', name: 'Blank' })).status).toBe(400);
    expect(await codes()).toEqual(stored);

    // A new code is added, trimmed.
    const added = await add({ product_code: ' BK-NEW-1 ', name: 'Paper lantern' });
    expect(added.status, added.text).toBe(201);
    expect(added.json.product_code).toBe('BK-NEW-1');

    // Editing: changing a code to another product's in another case is refused; keeping or re-casing one's own is not.
    const edit = (body: Record<string, unknown>) => server.request('/api/records/tables/products/rows/edit/', { token, body });
    const twin = await edit({ id: added.json.id, product_code: 'bk-85123a', name: 'Paper lantern' });
    expect(twin.status, twin.text).toBe(400);
    expect(twin.json.errors).toEqual({ product_code: ['bk-85123a is already used by BK-85123A — White hanging heart; codes differing only in case are one product.'] });
    expect(await codes()).toEqual([...stored, 'BK-NEW-1 Paper lantern'].sort());
    const own = await edit({ id: added.json.id, product_code: 'BK-NEW-1', name: 'Paper lantern, red' });
    expect(own.status, own.text).toBe(200);
    const recased = await edit({ id: added.json.id, product_code: ' bk-new-1' });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.json.product_code).toBe('bk-new-1');
  });
});
