// Products made here (ADR 0194): a café's flat whites, croissants and banana bread are not bought, so
// the order list, its counts and "no stock count", the assistant's order and runs-out answers and the
// dashboard's tasks leave them out — and say how many — while the list's filter shows them; a
// products file fills the column (yes/no, 1/0, true/false, blank) and its rows made here are not
// said to have used the default lead time. Through the real HTTP server, on both databases.
import { describe, expect, it } from 'vitest';
import type { DashboardResponse, PreviewFileResponse } from '@stockwise/contract';
import { tableOf, useAdvisedShop } from '../testing/advised-shop.ts';
import { backends } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

// Made here: two with an order advised (counted stock), one that sells but was never counted. Bought:
// milk with an order, beans that sell but were never counted. The counted ones run out tomorrow.
const PRODUCTS = [
  { code: 'CROISSANT', madeHere: true, counted: true, order: true },
  { code: 'BANANA-BREAD', madeHere: true, counted: true, order: true },
  { code: 'FLAT-WHITE', madeHere: true, counted: false, order: false },
  { code: 'MILK-2L', madeHere: null, counted: true, order: true },
  { code: 'BEANS-1KG', madeHere: false, counted: false, order: false },
].map((p) => ({ ...p, runsOut: p.counted, columns: { made_here: p.madeHere } }));

describe.each(backends)('products made here on %s', (backend) => {
  const { api, report, ask, tasks, server, token, id } = useAdvisedShop(backend, PRODUCTS, 40);

  it('leaves them out of the order list, its totals and "no stock count", says how many, and shows them under the filter; the counts agree', async () => {
    const listed = await report();
    expect(listed.products.map((p) => p.styleCode)).toEqual(['MILK-2L']);
    expect(listed).toMatchObject({ total: 1, made_here: 2, inactive: 0, order_units: 40, order_cost: 80, unknown_stock: { count: 1, codes: ['BEANS-1KG'] } });
    const shown = await report('&include_made_here=true');
    expect(shown.products.map((p) => [p.styleCode, p.madeHere ?? false]).sort()).toEqual([
      ['BANANA-BREAD', true],
      ['CROISSANT', true],
      ['MILK-2L', false],
    ]);
    expect(shown).toMatchObject({ total: listed.total + listed.made_here!, made_here: 0, order_units: 120 });
    // Never counted, made here or not shown: a flat white is not counted as stock.
    expect(shown.unknown_stock).toEqual({ count: 1, codes: ['BEANS-1KG'], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    // The download is the list as shown.
    const csv = (await api('/api/forecasting/latest-report/export/?format=csv')).text;
    expect(csv).toContain('MILK-2L');
    expect(csv).not.toContain('CROISSANT');
    expect((await api('/api/forecasting/latest-report/export/?format=csv&include_made_here=true')).text).toContain('CROISSANT');
    expect((await api('/api/forecasting/latest-report/?include_made_here=maybe')).status).toBe(400);
  });

  it("the assistant's order and runs-out answers leave them out and say so", async () => {
    const lowStock = await ask({ quick: 'low_stock' });
    expect(tableOf(lowStock)?.rows.map((r) => r.styleCode)).toEqual(['MILK-2L']);
    expect(lowStock.content).toContain('1 product needs an order');
    expect(lowStock.content).toContain('2 products made here are not on the order list: nothing is bought for them.');
    expect(lowStock.content).toContain('1 product that sold in the last 90 days has no stock count, so no order can be advised for it: BEANS-1KG.');
    const reorder = await ask({ quick: 'reorder_report' });
    expect(tableOf(reorder)?.rows.map((r) => r.styleCode)).toEqual(['MILK-2L']);
    expect(reorder.content).toContain('2 products made here are not on the order list');
    const runsOut = await ask({ content: 'what runs out first?' });
    expect(runsOut.content).toMatch(/^MILK-2L \(MILK-2L\) runs out first, on /);
    expect(tableOf(runsOut)?.rows.map((r) => r.styleCode)).toEqual(['MILK-2L']);
    expect(runsOut.content).toContain('2 products made here are not on this list: nothing is bought for them.');
  });

  it("the report writer's reorder_advice says which are made here, and its generated \"what to reorder\" lists the order list's", async () => {
    const run = async (sqlCode: string) => {
      const response = await api('/api/user-reports/execute/', { sql_code: sqlCode });
      expect(response.status, response.text).toBe(200);
      return response.json as { error: string | null; results: Record<string, unknown>[] };
    };
    // Every stored advice is a row (a report's stock figures read each product's forecast start there), marked.
    expect((await run('select product_code, made_here from reorder_advice order by product_code')).results).toEqual([
      { product_code: 'BANANA-BREAD', made_here: true },
      { product_code: 'BEANS-1KG', made_here: false },
      { product_code: 'CROISSANT', made_here: true },
      { product_code: 'FLAT-WHITE', made_here: true },
      { product_code: 'MILK-2L', made_here: false },
    ]);
    const generated = await api('/api/user-reports/generate-from-request/', { report_id: null, change_request: 'what to reorder', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null });
    const answer = generated.json as { success: boolean; sql_code: string };
    expect(answer.success, generated.text).toBe(true);
    expect(answer.sql_code).toContain('not ra.made_here');
    expect((await run(answer.sql_code)).results.map((row) => row.product_code)).toEqual(['MILK-2L']);
    // What the editor's hints and the report writer's model read of the view.
    const schema = (await api('/api/user-reports/schema/')).json as { relations: { name: string; description: string; columns: { name: string; type: string }[] }[] };
    const view = schema.relations.find((relation) => relation.name === 'reorder_advice');
    expect(view?.columns.at(-1)).toEqual({ name: 'made_here', type: 'boolean' });
    expect(view?.description).toContain('where not made_here');
  });

  it("the dashboard's six-month projection is of the stock bought: it leaves them out and says how many", async () => {
    const dashboard = (await api('/api/dashboard/')).json as unknown as DashboardResponse;
    expect(dashboard.projectionMadeHere).toBe(3);
    // Milk and the beans; the croissants' and banana bread's 4 on hand are not projected.
    expect(dashboard.stockProjectionByUnit.map((projection) => [projection.unit, projection.products])).toEqual([[null, 2]]);
    // After the first month's demand (20 against 4 on hand), the fixture's summaries hold no more demand: each counted product keeps its 4.
    expect(dashboard.stockProjection.map((point) => point.medium)).toEqual([0, 4, 4, 4, 4, 4]);
    // What is on hand counts every product still: the projection is of what is bought, the total of what is here.
    expect(dashboard.inventoryStats?.totalInventory).toBe(12);
  });

  it("the dashboard's tasks count the list without them, and follow a product marked made here on the Data screen at once", async () => {
    const before = await tasks();
    expect(before.find((task) => task.kind === 'count_stock')?.text).toBe('Count the stock of 1 product that sells but has no stock count');
    expect(before.find((task) => task.kind === 'reorder')?.text).toMatch(/^Order 1 product due in the next 7 days, by .* \(1 on the reorder list\)$/);
    const edited = await api('/api/records/tables/products/rows/edit/', { id: id('BEANS-1KG'), made_here: 'yes' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.made_here).toBe(true);
    const after = await tasks();
    expect(after.find((task) => task.kind === 'count_stock')).toMatchObject({ completed: true });
    expect((await report()).unknown_stock).toEqual({ count: 0, codes: [], counted_after_sales: { count: 0, codes: [], sales_end: null } });
    // Not a yes or no: refused, naming the field, nothing changed.
    const refused = await api('/api/records/tables/products/rows/edit/', { id: id('MILK-2L'), made_here: 'sometimes' });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ made_here: ['Expected true or false (yes or no, 1 or 0), found "sometimes".'] });
    expect((await report()).products.map((p) => p.styleCode)).toEqual(['MILK-2L']);
  });

  it('a products file fills the column (yes/no, 1/0, true/false, blank) and its rows made here used no default lead time', async () => {
    const file = ['Code,Name,Made here', 'CAFE-1,Latte,yes', 'CAFE-2,Scone,1', 'CAFE-3,Muffin,TRUE', 'CAFE-4,Tea bags,no', 'CAFE-5,Sugar,0', 'CAFE-6,Cups,', 'CAFE-7,Lids,False'].join('\n');
    const preview = await postMultipart(server(), '/api/records/preview-file/', token(), [
      { name: 'file', fileName: 'cafe.csv', content: file },
      { name: 'entity_type', value: 'products' },
    ]);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect((preview.json as unknown as PreviewFileResponse).proposed_mapping).toMatchObject({ product_code: 'Code', name: 'Name', made_here: 'Made here' });
    const imported = await importFile(server(), token(), { fileName: 'products.csv', content: file, mapping: { entities: { products: { field_mappings: { product_code: 'Code', name: 'Name', made_here: 'Made here' } } } }, entityType: 'products' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const stored = await server().database.db.selectFrom('data.products').select(['product_code', 'made_here', 'lead_time_days']).where('product_code', 'like', 'CAFE-%').orderBy('product_code').execute();
    expect(stored.map((row) => [row.product_code, row.made_here])).toEqual([
      ['CAFE-1', true],
      ['CAFE-2', true],
      ['CAFE-3', true],
      ['CAFE-4', false],
      ['CAFE-5', false],
      ['CAFE-6', null],
      ['CAFE-7', false],
    ]);
    // Every row took the default lead time; only the four bought ones are said to have used it.
    expect(stored.every((row) => row.lead_time_days === 14)).toBe(true);
    expect((imported.json.warnings as { field: string; message: string }[]).find((w) => w.field === 'lead_time_days')?.message).toBe('4 rows had no lead time: 14 days used (the default)');
    const bad = await importFile(server(), token(), { fileName: 'bad.csv', content: 'Code,Name,Made here\nCAFE-9,Chai,perhaps', mapping: { entities: { products: { field_mappings: { product_code: 'Code', name: 'Name', made_here: 'Made here' } } } }, entityType: 'products' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('Expected true or false (yes or no, 1 or 0)');
    expect(await server().database.db.selectFrom('data.products').select('id').where('product_code', '=', 'CAFE-9').executeTakeFirst()).toBeUndefined();
  });
});
