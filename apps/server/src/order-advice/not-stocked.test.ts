// Products not stocked (ADR 0200): a wholesaler's delivery charge and a gift card are services or
// fees sold on the orders, with no stock, so the order list, its counts and "no stock count", the
// supplier filter's counts, the download, the assistant's order and runs-out answers, the report
// writer's "what to reorder", the dashboard's tasks and its projection leave them out — and say how
// many, apart from the products made here — while their forecast is kept; a products file's kind
// column (Odoo's Product Type) is proposed for the column with a value map of its words, read
// through it, and a shop's own word is said in the map (ADR 0200's amendment). Through the real
// HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, PreviewFileResponse } from '@stockwise/contract';
import { addDays, tableOf, TODAY, useAdvisedShop } from '../testing/advised-shop.ts';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

// Not stocked: the delivery charge (never counted, as Odoo leaves a service) and a gift card that is
// also marked made here (counted once, as not stocked). Made here: the croissant. Stocked: paper
// with an order, toner that sells but was never counted. Each runs out tomorrow but the toner (the
// delivery charge's 0 on hand too).
const PRODUCTS = [
  { code: 'SERV_DEL', notStocked: true, madeHere: null, counted: false, order: true, supplier: 'Acme' },
  { code: 'GIFT-CARD', notStocked: true, madeHere: true, counted: true, order: true, supplier: null },
  { code: 'CROISSANT', notStocked: null, madeHere: true, counted: true, order: true, supplier: null },
  { code: 'PAPER-A4', notStocked: false, madeHere: null, counted: true, order: true, supplier: 'Acme' },
  { code: 'TONER', notStocked: null, madeHere: null, counted: false, order: false, supplier: 'Acme' },
].map((p) => ({ ...p, runsOut: p.counted || p.notStocked === true, columns: { supplier: p.supplier, made_here: p.madeHere, not_stocked: p.notStocked } }));

describe.each(backends)('products not stocked on %s', (backend) => {
  const { api, report, ask, tasks, id } = useAdvisedShop(backend, PRODUCTS, 30);

  it('leaves them out of the order list, its totals, "no stock count" and the download, counted apart from those made here, whatever the filters', async () => {
    const listed = await report();
    expect(listed.products.map((p) => p.styleCode)).toEqual(['PAPER-A4']);
    expect(listed).toMatchObject({ total: 1, made_here: 1, not_stocked: 2, inactive: 0, order_units: 30, order_cost: 60, unknown_stock: { count: 1, codes: ['TONER'] } });
    // Showing the products made here shows the croissant, never a service: it has no order to place.
    const shown = await report('&include_made_here=true');
    expect(shown.products.map((p) => p.styleCode)).toEqual(['CROISSANT', 'PAPER-A4']);
    expect(shown).toMatchObject({ made_here: 0, not_stocked: 2 });
    expect((await report('&include_inactive=true')).not_stocked).toBe(2);
    // Of one supplier: its service alone is counted, and the supplier choices count no service.
    const ofAcme = await report('&supplier=Acme');
    expect(ofAcme).toMatchObject({ total: 1, made_here: 0, not_stocked: 1 });
    expect(listed.suppliers).toEqual([{ supplier: 'Acme', count: 1 }]);
    const csv = (await api('/api/forecasting/latest-report/export/?format=csv&include_made_here=true')).text;
    expect(csv).toContain('PAPER-A4');
    expect(csv).not.toContain('SERV_DEL');
    expect(csv).not.toContain('GIFT-CARD');
  });

  it("the assistant's order and runs-out answers leave them out and say so, apart from those made here", async () => {
    const lowStock = await ask({ quick: 'low_stock' });
    expect(tableOf(lowStock)?.rows.map((r) => r.styleCode)).toEqual(['PAPER-A4']);
    expect(lowStock.content).toContain('1 product made here is not on the order list: nothing is bought for it.');
    expect(lowStock.content).toContain('2 products not stocked (services or fees) are not on the order list: no stock is kept of them.');
    expect(lowStock.content).toContain('has no stock count, so no order can be advised for it: TONER.');
    const reorder = await ask({ quick: 'reorder_report' });
    expect(tableOf(reorder)?.rows.map((r) => r.styleCode)).toEqual(['PAPER-A4']);
    expect(reorder.content).toContain('2 products not stocked (services or fees) are not on the order list');
    const runsOut = await ask({ content: 'what runs out first?' });
    expect(runsOut.content).toMatch(/^PAPER-A4 \(PAPER-A4\) runs out first, on /);
    expect(tableOf(runsOut)?.rows.map((r) => r.styleCode)).toEqual(['PAPER-A4']);
    expect(runsOut.content).toContain('1 product made here is not on this list: nothing is bought for it.');
    expect(runsOut.content).toContain('2 products not stocked (services or fees) are not on this list: no stock is kept of them.');
    // Named, a service is said to keep no stock, not given a day it runs out; a stocked product keeps its day.
    expect((await ask({ content: 'when does SERV_DEL run out?' })).content).toBe('SERV_DEL (SERV_DEL) is not stocked (a service or fee): no stock is kept of it, so it does not run out.');
    expect((await ask({ content: 'when does PAPER-A4 run out?' })).content).toMatch(/^PAPER-A4 \(PAPER-A4\) is forecast to run out on /);
  });

  it('the report writer\'s "what to reorder" lists the order list\'s, and its schema says how', async () => {
    const generated = await api('/api/user-reports/generate-from-request/', { report_id: null, change_request: 'what to reorder', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null });
    const answer = generated.json as { success: boolean; sql_code: string };
    expect(answer.success, generated.text).toBe(true);
    expect(answer.sql_code).toContain('not coalesce(p.not_stocked, false)');
    const run = await api('/api/user-reports/execute/', { sql_code: answer.sql_code });
    expect(run.status, run.text).toBe(200);
    expect((run.json as { results: Record<string, unknown>[] }).results.map((row) => row.product_code)).toEqual(['PAPER-A4']);
    const schema = (await api('/api/user-reports/schema/')).json as { relations: { name: string; description: string }[] };
    expect(schema.relations.find((relation) => relation.name === 'products')?.description).toContain('not_stocked (true: a service or a fee');
    expect(schema.relations.find((relation) => relation.name === 'reorder_advice')?.description).toContain('not_stocked is true');
  });

  it("the dashboard's projection leaves them out and counts them apart; its tasks count the list without them and follow a Data screen edit at once", async () => {
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    expect(dashboard).toMatchObject({ projectionMadeHere: 1, projectionNotStocked: 2 });
    // Paper and toner.
    expect(dashboard.stockProjectionByUnit.map((projection) => [projection.unit, projection.products])).toEqual([[null, 2]]);
    const before = await tasks();
    expect(before.find((task) => task.kind === 'count_stock')?.text).toBe('Count the stock of 1 product that sells but has no stock count');
    expect(before.find((task) => task.kind === 'reorder')?.text).toMatch(/^Order 1 product due in the next 7 days, by .* \(1 on the reorder list\)$/);
    // The toner is marked on the Data screen.
    const edited = await api('/api/records/tables/products/rows/edit/', { id: id('TONER'), not_stocked: 'yes' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.not_stocked).toBe(true);
    expect((await tasks()).find((task) => task.kind === 'count_stock')).toMatchObject({ completed: true });
    expect((await report()).unknown_stock).toEqual({ count: 0, codes: [], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    // The field reads yes or no as every yes-or-no column does: a kind word is a file's, said in its mapping's value map.
    const refused = await api('/api/records/tables/products/rows/edit/', { id: id('PAPER-A4'), not_stocked: 'Service' });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ not_stocked: ['Expected true or false (yes or no, 1 or 0), found "Service".'] });
    expect((await report()).products.map((p) => p.styleCode)).toEqual(['PAPER-A4']);
  });
});

describe.each(backends)("a products file's kind column on %s", (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
  });
  afterAll(() => server.stop());

  // As Odoo writes its product list: the kind in Product Type, the shop's own grouping in Product Category.
  const FILE = [
    'Internal Reference,Name,Product Category,Product Type,Cost',
    'SERV_DEL,Delivery Charge,All / Saleable / Services,Service,0',
    'PAP_A4,Copier Paper A4,All / Saleable / Paper,Storable Product,3',
    'PEN_BLU,Ballpoint Pen Blue,All / Saleable / Office,Consumable,0.2',
    'QB_FEE,Setup fee,All / Saleable / Services,Non-Inventory,0',
    'WOO_GC,Gift card,All / Saleable / Services,"simple, virtual",0',
    'DESK,Desk,All / Saleable / Furniture,,120',
  ].join('\n');
  const mapping = { product_code: 'Internal Reference', name: 'Name', category: 'Product Category', not_stocked: 'Product Type', unit_cost: 'Cost' };

  // The map the preview proposes with Product Type: the file's own words, as written.
  const kindMap = { Service: 'true', 'Storable Product': 'false', Consumable: 'false', 'Non-Inventory': 'true', 'simple, virtual': 'true' };

  it('proposes Product Type for not_stocked with a value map of its words and Product Category for the category, reads the kinds through the map, and says the lead time only of the stocked rows', async () => {
    const preview = await postMultipart(server, '/api/records/preview-file/', token, [
      { name: 'file', fileName: 'product.template.csv', content: FILE },
      { name: 'entity_type', value: 'products' },
    ]);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const proposal = preview.json as unknown as PreviewFileResponse;
    expect(proposal.proposed_mapping).toMatchObject(mapping);
    expect(proposal.proposed_value_maps).toEqual({ not_stocked: kindMap });
    // The proposal's rows are read through it.
    expect(proposal.rows.map((row) => [row.values['not_stocked'], row.problems])).toEqual([[true, {}], [false, {}], [false, {}], [true, {}], [true, {}]]);
    const imported = await importFile(server, token, { fileName: 'products.csv', content: FILE, mapping: { entities: { products: { field_mappings: mapping, value_maps: { not_stocked: kindMap } } } }, entityType: 'products' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const stored = await server.database.db.selectFrom('data.products').select(['product_code', 'not_stocked', 'category']).orderBy('product_code').execute();
    expect(stored.map((row) => [row.product_code, row.not_stocked])).toEqual([
      ['DESK', null],
      ['PAP_A4', false],
      ['PEN_BLU', false],
      ['QB_FEE', true],
      ['SERV_DEL', true],
      ['WOO_GC', true],
    ]);
    expect(stored.find((row) => row.product_code === 'SERV_DEL')?.category).toBe('All / Saleable / Services');
    expect((imported.json.warnings as { field: string; message: string }[]).find((w) => w.field === 'lead_time_days')?.message).toBe('3 rows had no lead time: 14 days used (the default)');
  });

  const kitFile = 'Internal Reference,Name,Product Type\nKIT_1,Office kit,Bundle\nSERV_INS,Installation,Service\n';
  const kitMapping = (valueMap: Record<string, string>) => ({ entities: { products: { field_mappings: { product_code: 'Internal Reference', name: 'Name', not_stocked: 'Product Type' }, value_maps: { not_stocked: valueMap } } } });

  it("refuses a word its map does not name, naming the row and the field and listing it to be said as true or false, and writes nothing; said in the map, the shop's own word imports", async () => {
    const bad = await importFile(server, token, { fileName: 'bad.csv', content: kitFile, mapping: kitMapping(kindMap), entityType: 'products' });
    expect(bad.status).toBe(400);
    expect(bad.json.row_errors).toEqual([
      { row: 2, field: 'not_stocked', column: 'Product Type', reason: 'Expected true or false (yes or no, 1 or 0), found "Bundle". Change the values in the file, or say in the mapping what Bundle means (Bundle → true or false).' },
    ]);
    expect(bad.json.refused_choices).toEqual([{ field: 'not_stocked', values: ['Bundle'], choices: ['true', 'false'] }]);
    expect(await server.database.db.selectFrom('data.products').select('id').where('product_code', 'in', ['KIT_1', 'SERV_INS']).execute()).toEqual([]);

    const good = await importFile(server, token, { fileName: 'kits.csv', content: kitFile, mapping: kitMapping({ ...kindMap, bundle: 'false' }), entityType: 'products' });
    expect(good.status, JSON.stringify(good.json)).toBe(200);
    const stored = await server.database.db.selectFrom('data.products').select(['product_code', 'not_stocked']).where('product_code', 'in', ['KIT_1', 'SERV_INS']).orderBy('product_code').execute();
    expect(stored).toEqual([
      { product_code: 'KIT_1', not_stocked: false },
      { product_code: 'SERV_INS', not_stocked: true },
    ]);
  });

  it("keeps a service's forecast: its read says it is not stocked", async () => {
    const db = server.database.db;
    const service = await db.selectFrom('data.products').select('id').where('product_code', '=', 'SERV_DEL').executeTakeFirstOrThrow();
    await db.insertInto('data.sales').values(Array.from({ length: 60 }, (_, i) => ({ product_id: service.id, date: addDays(TODAY, -60 + i), quantity: 3 + (i % 3) }))).execute();
    const client = forecastClient(server, token);
    expect(await client.run({ style_code: 'SERV_DEL' })).toMatchObject({ status: 'completed' });
    const forecast = await client.forecastOf('SERV_DEL');
    expect(forecast.product.notStocked).toBe(true);
    expect(forecast.product.madeHere).toBeUndefined();
    expect(forecast.forecast.sales.length).toBeGreaterThan(0);
  });
});
