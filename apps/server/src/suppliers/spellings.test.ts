// One supplier, one spelling (ADR 0186), over the real HTTP server: spellings written before the
// rule ("ACME", "Acme", " acme  ") are one supplier for the order list's choices, its filter, its
// download and the assistant, by the spelling most products hold; the Data screen, a products file
// and a sales file's new products write a name in the spelling already used — else the one the file
// wrote first — and say so once per spelling; a name spelled otherwise than by case and white space
// stays a supplier of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantBlock, ChatMessage, ImportLogEntry, ImportResult, InventoryReport, SupplierList } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

/** Written before the rule, straight into the table, in this order (ids ascending). UNK-1 sells but was never counted. */
const STORED = [
  ['TW-1', 'ACME'],
  ['TW-2', 'ACME'],
  ['TW-3', 'Acme'],
  ['TW-4', ' acme  '],
  ['LTD-1', 'Acme Ltd'],
  ['LTD-2', 'ACME   LTD'],
  ['NON-1', null],
  ['NON-2', '  '],
  ['UNK-1', 'ACME'],
] as const;
const COUNTED = STORED.map(([code]) => code).filter((code) => code !== 'UNK-1');

const tableOf = (message: ChatMessage) => message.blocks.find((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');

describe.each(backends)('one supplier, one spelling on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const report = async (query = '') => {
    const response = await api(`/api/forecasting/latest-report/?page_size=500${query}`);
    expect(response.status, response.text).toBe(200);
    return (response.json as { report: InventoryReport }).report;
  };
  const codes = (listed: { products: { styleCode: string }[] }) => listed.products.map((product) => product.styleCode).sort();
  const supplierOf = async (code: string) => (await server.database.db.selectFrom('data.products').select('supplier').where('product_code', '=', code).executeTakeFirstOrThrow()).supplier;
  const upload = async (entityType: string, content: string, mapping: object) => {
    const imported = await importFile(server, token, { fileName: `${entityType}.csv`, content, mapping: { entities: { [entityType]: mapping } }, entityType });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    return imported.json as unknown as ImportResult;
  };
  const ask = async (content: string) => {
    const response = await api('/api/assistant/messages/', { content });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
  };
  const addProduct = async (values: Record<string, unknown>) => {
    const added = await api('/api/records/tables/products/rows/add/', { name: 'Product', current_stock: 1, unit_cost: 1, ...values });
    expect(added.status, added.text).toBe(201);
    return added.json;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    client = forecastClient(server, token);
    await server.database.db
      .insertInto('data.products')
      .values(STORED.map(([code, supplier]) => ({ product_code: code, name: `Product ${code}`, supplier, current_stock: 4, unit_cost: 2, lead_time_days: 7 })))
      .execute();
    const lines = STORED.flatMap(([code]) => Array.from({ length: 120 }, (_, t) => `${code},${daysAgo(120 - t)},${1 + ((t * 7) % 3)}`));
    await upload('sales', `code,day,qty\n${lines.join('\n')}\n`, { field_mappings: { product_id: 'code', date: 'day', quantity: 'qty' } });
    await upload('stock_snapshots', `code,day,count\n${COUNTED.map((code) => `${code},${daysAgo(1)},4`).join('\n')}\n`, { field_mappings: { product_id: 'code', date: 'day', stock_level: 'count' } });
    expect((await client.run()).status).toBe('completed');
  });
  afterAll(() => server.stop());

  it('lists the suppliers one spelling each: the one most products hold, of as many the earliest', async () => {
    const listed = await api('/api/suppliers/');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as unknown as SupplierList).suppliers).toEqual([
      { supplier: 'ACME', products: 5 },
      // One product each: the spelling of the one written first.
      { supplier: 'Acme Ltd', products: 2 },
    ]);
  });

  it("groups the order list's choices by supplier and filters by any of its spellings: rows, counts, unknown stock and the download", async () => {
    const whole = await report();
    expect(whole.suppliers).toEqual([
      { supplier: 'ACME', count: 4 },
      { supplier: 'Acme Ltd', count: 2 },
      { supplier: null, count: 2 },
    ]);
    expect(Object.fromEntries(whole.products.map((product) => [product.styleCode, product.supplier]))).toEqual({
      'TW-1': 'ACME',
      'TW-2': 'ACME',
      'TW-3': 'ACME',
      'TW-4': 'ACME',
      'LTD-1': 'Acme Ltd',
      'LTD-2': 'Acme Ltd',
      'NON-1': null,
      'NON-2': null,
    });
    for (const asked of ['ACME', 'acme', ' Acme ']) {
      const acme = await report(`&supplier=${encodeURIComponent(asked)}`);
      expect(codes(acme), asked).toEqual(['TW-1', 'TW-2', 'TW-3', 'TW-4']);
      // The filter is answered in the supplier's spelling, its never-counted product among its unknown stock.
      expect(acme, asked).toMatchObject({ total: 4, supplier: 'ACME', suppliers: whole.suppliers, unknown_stock: { count: 1, codes: ['UNK-1'] } });
    }
    expect(codes(await report(`&supplier=${encodeURIComponent('acme  ltd')}`))).toEqual(['LTD-1', 'LTD-2']);
    // A blank supplier is none, as null is; "Acme Ltd" is not ACME's (no guessing).
    expect(await report('&supplier=')).toMatchObject({ total: 2, supplier: null, unknown_stock: { count: 0 } });
    expect(codes(await report('&supplier='))).toEqual(['NON-1', 'NON-2']);

    const download = await fetch(`${server.url}/api/forecasting/latest-report/export/?format=csv&supplier=acme`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/inventory-report-\d{4}-\d{2}-\d{2}-acme\.csv/);
    const lines = (await download.text()).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    const supplierAt = lines[0]!.split(',').indexOf('supplier');
    expect(lines.slice(1).map((line) => line.split(',')[supplierAt])).toEqual(['ACME', 'ACME', 'ACME', 'ACME']);

    // A product's own forecast names its supplier as the list does (its own spellings read alone,
    // amendment 2026-12-06): each of ACME's twins, Acme Ltd's, and none for a null or blank one.
    const forecastNames: Record<string, string | null | undefined> = {};
    for (const { styleCode } of whole.products) forecastNames[styleCode] = (await client.forecastOf(styleCode)).product.supplier;
    expect(forecastNames).toEqual(Object.fromEntries(whole.products.map((product) => [product.styleCode, product.supplier])));
    expect(forecastNames).toMatchObject({ 'TW-1': 'ACME', 'TW-3': 'ACME', 'TW-4': 'ACME', 'LTD-2': 'Acme Ltd', 'NON-1': null, 'NON-2': null });
  });

  it("answers the assistant's suppliers, their orders and who supplies a product with one supplier for its spellings", async () => {
    const suppliers = await ask('which suppliers do we use?');
    expect(suppliers.content).toMatch(/^2 suppliers supply 7 products; 2 products have no supplier\./);
    expect(tableOf(suppliers)?.rows.map((row) => [row.supplier, row.products])).toEqual([
      ['ACME', 5],
      ['Acme Ltd', 2],
      ['No supplier', 2],
    ]);
    const orders = await ask('what should I order from acme?');
    expect(orders.content).toMatch(/^Reorder report for ACME: 4 advised orders/);
    expect(tableOf(orders)?.rows.map((row) => row.styleCode).sort()).toEqual(['TW-1', 'TW-2', 'TW-3', 'TW-4']);
    expect((await ask('who supplies TW-3?')).content).toContain('Product TW-3 (TW-3) is supplied by ACME.');
    // A blank supplier is none, as null is.
    const without = await ask('which products have no supplier?');
    expect(without.content).toMatch(/^2 of the 9 products have no supplier\./);
    expect(tableOf(without)?.rows.map((row) => row.styleCode)).toEqual(['NON-1', 'NON-2']);
  });

  it('stores a Data screen supplier in the spelling the other products hold, white space made one space; the only product of a supplier can change its case', async () => {
    expect(await addProduct({ product_code: 'NEW-1', supplier: '  acme ' })).toMatchObject({ supplier: 'ACME' });
    expect(await addProduct({ product_code: 'NEW-2', supplier: 'Zeta   Trading' })).toMatchObject({ supplier: 'Zeta Trading' });
    const edited = await api('/api/records/tables/products/rows/edit/', { id: (await addProduct({ product_code: 'NEW-3', supplier: 'Brightside' })).id, supplier: 'ZETA TRADING' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json).toMatchObject({ product_code: 'NEW-3', supplier: 'Zeta Trading' });
    // Not the same supplier: kept as written.
    expect(await addProduct({ product_code: 'NEW-4', supplier: 'Acme Ltd.' })).toMatchObject({ supplier: 'Acme Ltd.' });
    // NEW-4 is Acme Ltd.'s only product: its own spelling is no other product's.
    const recased = await api('/api/records/tables/products/rows/edit/', { id: (await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', 'NEW-4').executeTakeFirstOrThrow()).id, supplier: 'ACME LTD.' });
    expect(recased.json).toMatchObject({ supplier: 'ACME LTD.' });
    expect(await supplierOf('NEW-1')).toBe('ACME');
  });

  it('imports a products file in the spelling already used, else the one the file writes first, and says so once per spelling', async () => {
    const file = [
      'SKU,Name,Supplier',
      'IMP-1,Bottle,acme',
      'IMP-2,Towel,acme',
      'IMP-3,Gloves,Nova Trade',
      'IMP-4,Candle,NOVA  TRADE',
      'IMP-5,Lamp,nova trade',
      'IMP-6,Mug,Acme Ltd Group',
      'IMP-7,Hat,zeta trading',
    ].join('\n');
    const imported = await upload('products', file, { field_mappings: { product_code: 'SKU', name: 'Name', supplier: 'Supplier' } });
    const notices = [
      "Supplier 'acme' written as 'ACME', as 4 products already have it.",
      "Supplier 'NOVA TRADE' written as 'Nova Trade', as the file first writes it.",
      "Supplier 'nova trade' written as 'Nova Trade', as the file first writes it.",
      "Supplier 'zeta trading' written as 'Zeta Trading', as 2 products already have it.",
    ];
    expect(imported.notices).toEqual(notices);
    expect(Object.fromEntries(await Promise.all(['IMP-1', 'IMP-2', 'IMP-3', 'IMP-4', 'IMP-5', 'IMP-6', 'IMP-7'].map(async (code) => [code, await supplierOf(code)])))).toEqual({
      'IMP-1': 'ACME',
      'IMP-2': 'ACME',
      'IMP-3': 'Nova Trade',
      'IMP-4': 'Nova Trade',
      'IMP-5': 'Nova Trade',
      'IMP-6': 'Acme Ltd Group',
      'IMP-7': 'Zeta Trading',
    });
    // The import log keeps them.
    const logged = await api(`/api/records/imports/${imported.import_id}/`);
    expect((logged.json as unknown as ImportLogEntry).details.notices).toEqual(notices);

    // A file giving every product of a supplier another case renames it: they are not "other products".
    const renamed = await upload('products', 'SKU,Name,Supplier\nIMP-3,Gloves,NOVA TRADE\nIMP-4,Candle,NOVA TRADE\nIMP-5,Lamp,Nova trade\n', { field_mappings: { product_code: 'SKU', name: 'Name', supplier: 'Supplier' } });
    expect(renamed.notices).toEqual(["Supplier 'Nova trade' written as 'NOVA TRADE', as the file first writes it."]);
    expect([await supplierOf('IMP-3'), await supplierOf('IMP-4'), await supplierOf('IMP-5')]).toEqual(['NOVA TRADE', 'NOVA TRADE', 'NOVA TRADE']);
  });

  it("gives the products a sales file creates the supplier's spelling already used", async () => {
    const imported = await upload('sales', `code,day,qty,item,vendor\nNP-1,${daysAgo(2)},1,Kettle,Acme\nNP-2,${daysAgo(2)},1,Teapot,nova trade\n`, {
      field_mappings: { product_id: 'code', date: 'day', quantity: 'qty' },
      create_missing_products: true,
      new_products: { name: 'item', supplier: 'vendor' },
    });
    expect(imported.counts.created_references).toBe(2);
    expect(imported.notices).toEqual(["Supplier 'Acme' written as 'ACME', as 6 products already have it.", "Supplier 'nova trade' written as 'NOVA TRADE', as 3 products already have it."]);
    expect([await supplierOf('NP-1'), await supplierOf('NP-2')]).toEqual(['ACME', 'NOVA TRADE']);
  });
});
