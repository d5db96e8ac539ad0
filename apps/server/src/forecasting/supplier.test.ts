// Who each product is bought from (ADR 0184): a products file's Supplier (or Lieferant) column is
// proposed and imported, the order list's rows carry it, the list is filtered by it — one supplier,
// or those with none — its counts, totals and pages those of the filtered list, and the download
// carries a supplier column and honours the filter, so a buyer has one supplier's order list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport, PreviewFileResponse } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const ACME = 'Acme Wholesale';
const PRODUCTS_FILE = ['SKU,Name,Supplier,Lead time', `ACM-1,Hot-water bottle,${ACME},7`, `ACM-2,Tea towel,  ${ACME} ,7`, 'BRT-1,Garden gloves,Brightside,7', 'NON-1,Candle,,7'].join('\n');
const GERMAN_FILE = ['Artikelnr.;Bezeichnung;Lieferant;Lieferzeit', 'DE-1;Wärmflasche;Großhandel Müller;5', 'DE-2;Kerze;;5'].join('\n');
const CODES = ['ACM-1', 'ACM-2', 'BRT-1', 'NON-1'];

describe.each(backends)('the order list by supplier on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string) => server.request(path, { token });
  const report = async (query = '') => {
    const response = await api(`/api/forecasting/latest-report/?page_size=500${query}`);
    expect(response.status, response.text).toBe(200);
    return (response.json as { report: InventoryReport }).report;
  };
  const codes = (listed: InventoryReport) => listed.products.map((product) => product.styleCode).sort();
  const proposal = async (fileName: string, content: string) => {
    const preview = await postMultipart(server, '/api/records/preview-file/', token, [
      { name: 'file', fileName, content },
      { name: 'entity_type', value: 'products' },
    ]);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    return Object.fromEntries(Object.entries((preview.json as unknown as PreviewFileResponse).proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null));
  };
  const upload = async (entityType: string, fileName: string, content: string, fieldMappings: Record<string, string>) => {
    const imported = await importFile(server, token, { fileName, content, mapping: { entities: { [entityType]: { field_mappings: fieldMappings } } }, entityType });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  };
  const download = (query: string) => fetch(`${server.url}/api/forecasting/latest-report/export/?${query}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    client = forecastClient(server, token);
  });
  afterAll(() => server.stop());

  it("proposes a products file's Supplier or Lieferant column and imports it, trimmed; a blank cell is none", async () => {
    const english = await proposal('products.csv', PRODUCTS_FILE);
    expect(english).toMatchObject({ product_code: 'SKU', name: 'Name', supplier: 'Supplier', lead_time_days: 'Lead time' });
    await upload('products', 'products.csv', PRODUCTS_FILE, english);
    const german = await proposal('artikel.csv', GERMAN_FILE);
    expect(german).toMatchObject({ product_code: 'Artikelnr.', name: 'Bezeichnung', supplier: 'Lieferant', lead_time_days: 'Lieferzeit' });
    await upload('products', 'artikel.csv', GERMAN_FILE, german);
    const stored = await server.database.db.selectFrom('data.products').select(['product_code', 'supplier']).orderBy('product_code').execute();
    expect(stored.map((row) => [row.product_code, row.supplier?.trim() || null])).toEqual([
      ['ACM-1', ACME],
      ['ACM-2', ACME],
      ['BRT-1', 'Brightside'],
      ['DE-1', 'Großhandel Müller'],
      ['DE-2', null],
      ['NON-1', null],
    ]);
    // A supplier's own code for the item is no supplier: never proposed by a word of its name.
    expect(await proposal('codes.csv', 'SKU,Name,Supplier SKU\nA-1,Bottle,X-99\n')).not.toHaveProperty('supplier');
    // The Data screen's products table lists and edits it, before the lead time.
    const { columns } = (await api('/api/records/tables/products/variation-columns/')).json as unknown as { columns: { key: string; label: string; type: string }[] };
    const keys = columns.map((column) => column.key);
    expect(keys.slice(keys.indexOf('supplier'), keys.indexOf('supplier') + 2)).toEqual(['supplier', 'lead_time_days']);
    expect(columns.find((column) => column.key === 'supplier')).toMatchObject({ label: 'Supplier', type: 'CharField' });
  });

  it("filters the list by one supplier, or those with none: its rows, counts, totals and pages are the filtered list's", async () => {
    const lines = CODES.flatMap((code) => Array.from({ length: 120 }, (_, t) => `${code},${daysAgo(120 - t)},${1 + ((t * 7) % 3)}`));
    await upload('sales', 'sales.csv', `code,day,qty\n${lines.join('\n')}\n`, { product_id: 'code', date: 'day', quantity: 'qty' });
    await upload('stock_snapshots', 'counts.csv', `code,day,count\n${CODES.map((code) => `${code},${daysAgo(1)},4`).join('\n')}\n`, { product_id: 'code', date: 'day', stock_level: 'count' });
    expect((await client.run()).status).toBe('completed');

    const whole = await report();
    expect(codes(whole)).toEqual(CODES);
    expect(Object.fromEntries(whole.products.map((product) => [product.styleCode, product.supplier]))).toEqual({ 'ACM-1': ACME, 'ACM-2': ACME, 'BRT-1': 'Brightside', 'NON-1': null });
    expect(whole.suppliers).toEqual([
      { supplier: ACME, count: 2 },
      { supplier: 'Brightside', count: 1 },
      { supplier: null, count: 1 },
    ]);
    expect(whole).not.toHaveProperty('supplier');
    // A product's forecast read names its supplier too, for its Record order dialog.
    expect((await client.forecastOf('ACM-2')).product.supplier).toBe(ACME);
    expect((await client.forecastOf('NON-1')).product.supplier).toBeNull();

    const acme = await report(`&supplier=${encodeURIComponent(ACME)}`);
    expect(codes(acme)).toEqual(['ACM-1', 'ACM-2']);
    const acmeRows = whole.products.filter((product) => product.supplier === ACME);
    expect(acme).toMatchObject({ total: 2, supplier: ACME, suppliers: whole.suppliers, inactive: 0, on_order_late: 0 });
    expect(acme.order_units).toBeCloseTo(acmeRows.reduce((sum, product) => sum + product.orderQuantity, 0), 6);
    expect(acme.order_cost).toBeCloseTo(acmeRows.reduce((sum, product) => sum + product.orderQuantity * product.unitCost, 0), 2);
    // Its pages are the filtered list's.
    const firstPage = (await api(`/api/forecasting/latest-report/?page_size=1&page=2&supplier=${encodeURIComponent(ACME)}`)).json as { report: InventoryReport };
    expect(firstPage.report).toMatchObject({ total: 2, page: 2 });
    expect(firstPage.report.products.map((product) => product.supplier)).toEqual([ACME]);
    // A name matches as stored, trimmed: the padded query is the same supplier.
    expect(codes(await report(`&supplier=${encodeURIComponent(`  ${ACME} `)}`))).toEqual(['ACM-1', 'ACM-2']);

    const none = await report('&supplier=');
    expect(none).toMatchObject({ total: 1, supplier: null });
    expect(codes(none)).toEqual(['NON-1']);
    // Every supplier's list, added up, is the whole list.
    const totals = await Promise.all(whole.suppliers.map(async ({ supplier }) => (await report(`&supplier=${encodeURIComponent(supplier ?? '')}`)).total));
    expect(totals).toEqual(whole.suppliers.map(({ count }) => count));
    expect(totals.reduce((sum, count) => sum + count, 0)).toBe(whole.total);

    // A supplier with nothing to order: an empty list, and the filter still among the choices.
    const nobody = await report('&supplier=Nobody%20Ltd');
    expect(nobody).toMatchObject({ total: 0, products: [], order_units: 0, first_order_by: null });
    expect(nobody.suppliers).toContainEqual({ supplier: 'Nobody Ltd', count: 0 });
  });

  it('refuses a supplier filter that is no name, naming the parameter, for the list and its download', async () => {
    for (const query of [`supplier=${'x'.repeat(201)}`, 'supplier=Acme&supplier=Brightside', 'supplier=Ac%00me']) {
      for (const path of ['/api/forecasting/latest-report/?', '/api/forecasting/latest-report/export/?format=csv&']) {
        const refused = await api(`${path}${query}`);
        expect(refused.status, `${path}${query.slice(0, 40)}`).toBe(400);
        expect(refused.json.detail, query.slice(0, 40)).toMatch(/\bsupplier: /);
      }
    }
  });

  it("downloads one supplier's order list, with a supplier column after the name", async () => {
    const whole = await download('format=csv&page_size=500');
    const [header, ...lines] = (await whole.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const columns = header!.split(',');
    expect(columns.slice(0, 3)).toEqual(['product code', 'name', 'supplier']);
    expect(Object.fromEntries(lines.map((line) => [line.split(',')[0], line.split(',')[2]]))).toEqual({ 'ACM-1': ACME, 'ACM-2': ACME, 'BRT-1': 'Brightside', 'NON-1': '' });

    const brightside = await download('format=csv&supplier=Brightside');
    expect(brightside.headers.get('content-disposition')).toContain('-brightside.csv');
    expect((await brightside.text()).trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[0])).toEqual(['BRT-1']);
    const none = await download('format=xlsx&supplier=');
    expect(none.status).toBe(200);
    expect(none.headers.get('content-disposition')).toContain('-no-supplier.xlsx');
    expect((await none.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
