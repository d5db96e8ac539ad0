// What the supplier sells (ADR 0183): a products file's own names for the case size and the minimum
// order are proposed and imported; the catalogue run orders each product in whole cases and at least
// its minimum — the latest report (and its low-stock view), its download, the forecast read and the
// assistant's recommended orders all carry the rounded quantity, with the need beside it — where a
// twin without them, sold and stocked alike, orders the need itself. 0 or less is refused by field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { AssistantBlock, ChatMessage, InventoryReport, PreviewFileResponse, ReportProduct } from '@stockwise/contract';
import { forecastClient, productRunsSettled, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
// Each product with terms beside a twin without them; STK-MOQ has plenty on hand.
const PRODUCTS_FILE = [
  'Item code,Description,Unit,Lead time,Carton qty,Min. order',
  'HWB-00,Hot-water bottle (loose),,7,,',
  'HWB-24,Hot-water bottle,,7,24,',
  'GLV-00,Garden gloves (loose),,7,,',
  'GLV-MOQ,Garden gloves,,7,,500',
  'CHE-00,Cheddar (cut),kg,7,,',
  'CHE-WHL,Cheddar wheel,kg,7,2.5,',
  'STK-MOQ,Stocked up,,7,,50',
].join('\n');
const CODES = PRODUCTS_FILE.split('\n').slice(1).map((line) => line.split(',')[0]!);
/** The fewest whole cases holding `need`. */
const inCases = (need: number, size: number) => Math.round(Math.ceil(need / size - 1e-9) * size * 1000) / 1000;

describe.each(backends)("orders in the supplier's cases and minimum on %s", (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const listed = async () => {
    const { report } = (await api('/api/forecasting/latest-report/?page_size=500&include_inactive=true')).json as { report: InventoryReport };
    return { report, byCode: new Map(report.products.map((product) => [product.styleCode, product])) };
  };
  const upload = async (entityType: string, content: string, fieldMappings: Record<string, string>) => importFile(server, token, { fileName: `${entityType}.csv`, content, mapping: { entities: { [entityType]: { field_mappings: fieldMappings } } }, entityType });
  const productId = async (code: string) => (await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', code).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    client = forecastClient(server, token);
  });
  afterAll(() => server.stop());

  it("proposes a products file's Carton qty and Min. order columns and imports them; a blank cell is none", async () => {
    const preview = await postMultipart(server, '/api/records/preview-file/', token, [
      { name: 'file', fileName: 'price-list.csv', content: PRODUCTS_FILE },
      { name: 'entity_type', value: 'products' },
    ]);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const proposed = (preview.json as unknown as PreviewFileResponse).proposed_mapping;
    expect(proposed).toMatchObject({ product_code: 'Item code', name: 'Description', unit: 'Unit', lead_time_days: 'Lead time', order_multiple: 'Carton qty', min_order_quantity: 'Min. order' });
    const imported = await upload('products', PRODUCTS_FILE, Object.fromEntries(Object.entries(proposed).filter((entry): entry is [string, string] => entry[1] !== null)));
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const rows = await server.database.db.selectFrom('data.products').select(['product_code', 'order_multiple', 'min_order_quantity']).where('product_code', 'in', ['HWB-00', 'HWB-24', 'GLV-MOQ', 'CHE-WHL']).orderBy('product_code').execute();
    expect(rows).toEqual([
      { product_code: 'CHE-WHL', order_multiple: 2.5, min_order_quantity: null },
      { product_code: 'GLV-MOQ', order_multiple: null, min_order_quantity: 500 },
      { product_code: 'HWB-00', order_multiple: null, min_order_quantity: null },
      { product_code: 'HWB-24', order_multiple: 24, min_order_quantity: null },
    ]);
    // The Data screen's products table lists and edits them like the others, after the lead time.
    const { columns } = (await api('/api/records/tables/products/variation-columns/')).json as unknown as { columns: { key: string; label: string; type: string }[] };
    const keys = columns.map((column) => column.key);
    expect(keys.slice(keys.indexOf('lead_time_days'), keys.indexOf('lead_time_days') + 3)).toEqual(['lead_time_days', 'order_multiple', 'min_order_quantity']);
    expect(columns.filter((column) => ['order_multiple', 'min_order_quantity'].includes(column.key)).map((column) => [column.label, column.type])).toEqual([
      ['Case size', 'DecimalField'],
      ['Minimum order', 'DecimalField'],
    ]);
  });

  it('orders in whole cases and at least the minimum, on the list, its download and each forecast, with the need beside it', async () => {
    // The same sales for every product: 1–3 a day for 120 days; 4 on hand yesterday, STK-MOQ 10,000.
    const lines = CODES.flatMap((code) => Array.from({ length: 120 }, (_, t) => `${code},${daysAgo(120 - t)},${1 + ((t * 7) % 3)}`));
    expect((await upload('sales', `code,day,qty\n${lines.join('\n')}\n`, { product_id: 'code', date: 'day', quantity: 'qty' })).status).toBe(200);
    const counts = CODES.map((code) => `${code},${daysAgo(1)},${code === 'STK-MOQ' ? 10_000 : 4}`);
    expect((await upload('stock_snapshots', `code,day,count\n${counts.join('\n')}\n`, { product_id: 'code', date: 'day', stock_level: 'count' })).status).toBe(200);
    expect((await client.run()).status).toBe('completed');

    const { report, byCode } = await listed();
    const [bottles, gloves, cheese] = (['HWB', 'GLV', 'CHE'] as const).map((stem) => {
      const loose = byCode.get(`${stem}-00`)!;
      expect(loose, stem).toBeDefined();
      expect(loose.orderQuantity, stem).toBeGreaterThan(0);
      expect(loose.orderMultiple ?? loose.minOrderQuantity ?? loose.orderQuantityNeeded, `${stem}: a product without terms has none`).toBeUndefined();
      return loose;
    }) as [ReportProduct, ReportProduct, ReportProduct];
    const expected = {
      'HWB-24': { orderQuantity: inCases(bottles.orderQuantity, 24), orderMultiple: 24, need: bottles.orderQuantity },
      'GLV-MOQ': { orderQuantity: 500, minOrderQuantity: 500, need: gloves.orderQuantity },
      'CHE-WHL': { orderQuantity: inCases(cheese.orderQuantity, 2.5), orderMultiple: 2.5, need: cheese.orderQuantity },
    };
    // Sold by the kilo, its need has a tenth (ADR 0203 F3): the wheel rounds it up to whole wheels.
    expect(Number.isInteger(cheese.orderQuantity)).toBe(false);
    expect(gloves.orderQuantity).toBeLessThan(500);
    for (const [code, { need, ...advice }] of Object.entries(expected)) {
      const product = byCode.get(code)!;
      const twin = byCode.get(`${code.slice(0, 3)}-00`)!;
      expect(product, code).toMatchObject({ ...advice, orderBy: twin.orderBy, firstStockout: twin.firstStockout, reorderPoint: twin.reorderPoint, unit: twin.unit });
      // The need beside the order wherever the terms made it larger.
      expect(product.orderQuantityNeeded, code).toBe(advice.orderQuantity > need ? need : undefined);
      // The forecast read's advice is the list's.
      const forecast = await client.forecastOf(code);
      expect(forecast.reorder, code).toMatchObject({ orderQuantity: advice.orderQuantity, orderBy: twin.orderBy, ...('orderMultiple' in advice ? { orderMultiple: advice.orderMultiple } : { minOrderQuantity: advice.minOrderQuantity }) });
      expect(forecast.reorder.orderQuantityNeeded, code).toBe(product.orderQuantityNeeded);
    }
    expect(expected['HWB-24'].orderQuantity % 24).toBe(0);
    // A minimum is not an order of its own: nothing needed, nothing listed, nothing ordered.
    expect(byCode.has('STK-MOQ')).toBe(false);
    expect((await client.forecastOf('STK-MOQ')).reorder).toMatchObject({ orderQuantity: 0, orderBy: null, minOrderQuantity: 50 });
    // The list's totals and cost add the rounded quantities.
    const ordered = [...byCode.values()];
    expect(report.order_units).toBeCloseTo(ordered.reduce((sum, product) => sum + product.orderQuantity, 0), 6);
    expect(report.order_cost).toBeCloseTo(ordered.reduce((sum, product) => sum + product.orderQuantity * product.unitCost, 0), 2);
    expect(report.order_quantities.find((total) => total.unit === 'kg')?.quantity).toBeCloseTo(cheese.orderQuantity + expected['CHE-WHL'].orderQuantity, 6);
    // The download's order quantity is the rounded one.
    const csv = await fetch(`${server.url}/api/forecasting/latest-report/export/?format=csv&include_inactive=true`, { headers: { authorization: `Bearer ${token}` } });
    const [header, ...csvLines] = (await csv.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const quantityAt = header!.split(',').indexOf('order quantity');
    const downloaded = Object.fromEntries(csvLines.map((line) => [line.split(',')[0], Number(line.split(',')[quantityAt])]));
    expect(downloaded).toMatchObject({ 'HWB-24': expected['HWB-24'].orderQuantity, 'GLV-MOQ': 500, 'CHE-WHL': expected['CHE-WHL'].orderQuantity });
  });

  it("says the supplier's terms beside the order in the download, CSV and Excel, and in the assistant's order tables (ADR 0183, amendment 2026-12-06 (3))", async () => {
    const { byCode } = await listed();
    const need = (code: string) => byCode.get(code)!.orderQuantityNeeded;
    const download = (format: string) => fetch(`${server.url}/api/forecasting/latest-report/export/?format=${format}&include_inactive=true`, { headers: { authorization: `Bearer ${token}` } });
    const TERMS = ['order quantity', 'unit', 'case size', 'minimum order', 'needed', 'order by'];
    // The CSV: 48 is 2 cases of 24 for a need of 40; blank where the product has no terms.
    const [header, ...csvLines] = (await (await download('csv')).text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const headers = header!.split(',');
    expect(headers.slice(headers.indexOf('order quantity'), headers.indexOf('order by') + 1)).toEqual(TERMS);
    const csvTerms = Object.fromEntries(csvLines.map((line) => [line.split(',')[0], TERMS.slice(0, 5).map((column) => line.split(',')[headers.indexOf(column)])]));
    const text = (value: number | undefined) => (value === undefined ? '' : String(value));
    expect(csvTerms).toMatchObject({
      'HWB-00': [String(byCode.get('HWB-00')!.orderQuantity), '', '', '', ''],
      'HWB-24': [String(byCode.get('HWB-24')!.orderQuantity), '', '24', '', text(need('HWB-24'))],
      'GLV-MOQ': ['500', '', '', '500', text(need('GLV-MOQ'))],
      'CHE-WHL': [String(byCode.get('CHE-WHL')!.orderQuantity), 'kg', '2.5', '', text(need('CHE-WHL'))],
    });
    expect(need('GLV-MOQ')).toBeLessThan(500);
    // The workbook: the same cells as numbers, the kilos' with their grams, in Excel's own format (not 2 places, not whole).
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await download('xlsx')).arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const titles = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(titles.slice(titles.indexOf('order quantity'), titles.indexOf('order by') + 1)).toEqual(TERMS);
    let wheel: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(1).value === 'CHE-WHL') wheel = row;
    });
    const cell = (column: string) => wheel!.getCell(titles.indexOf(column) + 1);
    expect(TERMS.slice(0, 5).map((column) => cell(column).value)).toEqual([byCode.get('CHE-WHL')!.orderQuantity, 'kg', 2.5, null, need('CHE-WHL') ?? null]);
    expect(Number.isInteger(need('CHE-WHL'))).toBe(false);
    for (const column of ['reorder point', 'order quantity', 'case size', 'needed']) expect([undefined, 'General'], column).toContain(cell(column).numFmt);

    // The assistant's tables: the screen's words in a column after the unit.
    const tableOf = async (content: string) => {
      const response = await api('/api/assistant/messages/', { content });
      expect(response.status, response.text).toBe(200);
      return (response.json.messages as ChatMessage[]).at(-1)!.blocks.find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table')!;
    };
    for (const question of ['Show low stock', 'Reorder report']) {
      const orders = await tableOf(question);
      const keys = orders.columns.map((column) => column.key);
      expect(keys.slice(keys.indexOf('quantity'), keys.indexOf('quantity') + 3), question).toEqual(['quantity', 'unit', 'terms']);
      expect(orders.columns.find((column) => column.key === 'terms')?.label).toBe("Supplier's terms");
      const terms = Object.fromEntries(orders.rows.map((row) => [row.styleCode, row.terms]));
      const cases = (code: string, size: string) => `${byCode.get(code)!.orderQuantity / Number.parseFloat(size)} ${byCode.get(code)!.orderQuantity / Number.parseFloat(size) === 1 ? 'case' : 'cases'} of ${size}`;
      expect(terms, question).toMatchObject({
        'HWB-00': null,
        'HWB-24': need('HWB-24') === undefined ? cases('HWB-24', '24') : `${cases('HWB-24', '24')}; ${need('HWB-24')} needed`,
        'GLV-MOQ': `the supplier's minimum; ${need('GLV-MOQ')} needed`,
        'CHE-WHL': `${cases('CHE-WHL', '2.5 kg')}; ${need('CHE-WHL')} kg needed`,
      });
    }
  });

  it('refuses a case size or minimum of 0 or less by row and field, on the Data screen and in an import, and changes nothing', async () => {
    const id = await productId('HWB-24');
    for (const [field, value, label] of [['order_multiple', 0, 'Case size'], ['min_order_quantity', -5, 'Minimum order']] as const) {
      const edited = await api('/api/records/tables/products/rows/edit/', { id, [field]: value });
      expect(edited.status, edited.text).toBe(400);
      expect(edited.json.errors).toEqual({ [field]: ['Must be more than 0.'] });
      expect(edited.json.detail).toBe(`${label}: Must be more than 0.`);
    }
    const refused = await upload('products', 'Item code,Description,Carton qty,Min. order\nHWB-24,Hot-water bottle,0,\nGLV-MOQ,Garden gloves,,-5\n', {
      product_code: 'Item code',
      name: 'Description',
      order_multiple: 'Carton qty',
      min_order_quantity: 'Min. order',
    });
    expect(refused.status, JSON.stringify(refused.json)).toBe(400);
    expect(refused.json).toMatchObject({
      row_errors: [
        { row: 2, field: 'order_multiple', column: 'Carton qty', reason: 'Must be more than 0.' },
        { row: 3, field: 'min_order_quantity', column: 'Min. order', reason: 'Must be more than 0.' },
      ],
    });
    const stored = await server.database.db.selectFrom('data.products').select(['product_code', 'order_multiple', 'min_order_quantity']).where('product_code', 'in', ['HWB-24', 'GLV-MOQ']).orderBy('product_code').execute();
    expect(stored).toEqual([
      { product_code: 'GLV-MOQ', order_multiple: null, min_order_quantity: 500 },
      { product_code: 'HWB-24', order_multiple: 24, min_order_quantity: null },
    ]);
  });

  it('orders the need itself again once the case size is cleared on the Data screen', async () => {
    const loose = await client.forecastOf('HWB-00');
    expect((await client.forecastOf('HWB-24')).reorder.orderMultiple).toBe(24);
    const edited = await api('/api/records/tables/products/rows/edit/', { id: await productId('HWB-24'), order_multiple: null });
    expect(edited.status, edited.text).toBe(200);
    await productRunsSettled(server.database.db, 'HWB-24');
    const cleared = await client.forecastOf('HWB-24');
    expect(cleared.reorder.orderMultiple).toBeUndefined();
    expect(cleared.reorder.orderQuantityNeeded).toBeUndefined();
    expect(cleared.reorder).toMatchObject({ orderQuantity: loose.reorder.orderQuantity, orderBy: loose.reorder.orderBy });
  });

  it("creates the recommended orders in the supplier's quantities", async () => {
    const { byCode } = await listed();
    const response = await api('/api/assistant/actions/', { action: 'create_recommended_orders' });
    expect(response.status, response.text).toBe(200);
    expect((response.json.messages as ChatMessage[]).at(-1)!.content).toContain('scheduled deliveries of the advised quantities');
    const scheduled = await sql<{ product_code: string; quantity: number }>`select p.product_code, d.quantity from data.deliveries d join data.products p on p.id = d.product_id where d.status = 'scheduled' and p.product_code in ('GLV-MOQ', 'CHE-WHL') order by p.product_code`.execute(server.database.db);
    const wheel = byCode.get('CHE-WHL')!.orderQuantity;
    expect(wheel % 2.5).toBe(0);
    expect(scheduled.rows).toEqual([
      { product_code: 'CHE-WHL', quantity: wheel },
      { product_code: 'GLV-MOQ', quantity: 500 },
    ]);
  });
});
