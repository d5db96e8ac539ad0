// A Galway gift shop's Square exports (QA pass "an Irish gift shop's Square exports", ADR 0201): the
// item library (SKU on most variations, Item Name beside a sentence of Description, Price beside
// Default Unit Cost, the stock per location as "Current Quantity Galway Shop" beside the Y/N "Stock
// Alert Enabled Galway Shop", Default Vendor Name) imported with the preview's proposals alone; then
// the Item Sales detail export, SKU on most lines, refunds as Event Type Refund with a negative Qty.
import { mappingFromProposal } from '@stockwise/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { cellsOf, importScreen } from '../testing/proposed-mapping.ts';
import { catalogueRunsSettled, forecastClient } from '../testing/forecast-client.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';
import { libraryCsv, salesCsv, variations } from '../../../../e2e/fixtures/square-giftshop.ts';

/** The library's lines by column name. */
function libraryLines(): Record<string, string>[] {
  const [header = '', ...lines] = libraryCsv().trim().split('\n');
  const columns = cellsOf(header);
  return lines.map((line) => Object.fromEntries(cellsOf(line).map((cell, at) => [columns[at], cell])));
}

describe.each(backends)("a Galway gift shop's Square exports on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const db = () => editor.server().database.db;
  const { preview, importAs } = importScreen(editor, 'square');

  it("proposes the library's name, stock on hand, unit cost and vendor, and imports them", async () => {
    const proposal = await preview(libraryCsv(), 'products');
    expect(proposal.proposed_mapping).toMatchObject({
      product_code: 'SKU',
      name: 'Item Name',
      category: 'Category',
      current_stock: 'Current Quantity Galway Shop',
      unit_cost: 'Default Unit Cost',
      supplier: 'Default Vendor Name',
    });
    // The SKUs are kept as the codes; the name tells a Small candle from a Large one, and leaves out the "Regular" of an item without options (F8).
    expect(proposal.proposed_joined_columns).toEqual({ name: ['Variation Name'] });
    expect(proposal.proposed_joined_leave_out).toEqual({ name: ['Regular'] });
    expect(proposal.rows[0]?.values).toMatchObject({ product_code: 'CAN-SEA-SMALL', name: 'Sea Salt Soy Candle Small', unit_cost: 6.3, supplier: 'Kilkenny Candle Co' });
    expect(proposal.rows.map((row) => row.problems)).toEqual(proposal.rows.map(() => ({})));

    const imported = await importAs(libraryCsv(), 'products', mappingFromProposal(proposal));
    // The seven variations without a SKU are coded by their name, each variation its own product.
    expect(imported.counts).toMatchObject({ inserted: variations().length, matched_by_name: 7 });
    const stored = await sql<{ code: string; name: string; stock: string; cost: string; supplier: string }>`
      select product_code as code, name, current_stock::text as stock, unit_cost::text as cost, supplier from data.products order by 1`.execute(db());
    const byCode = new Map(stored.rows.map((row) => [row.code, row]));
    // Named as Square's screens name them: "Advent Calendar", "Sea Salt Soy Candle Small".
    const squareName = (line: Record<string, string>) => (line['Variation Name'] === 'Regular' ? (line['Item Name'] ?? '') : `${line['Item Name']} ${line['Variation Name']}`);
    for (const line of libraryLines()) {
      const code = line.SKU || squareName(line);
      const row = byCode.get(code);
      expect(row, code).toBeDefined();
      expect([row?.name, Number(row?.stock), Number(row?.cost), row?.supplier]).toEqual([
        squareName(line),
        Number(line['Current Quantity Galway Shop']),
        Number(line['Default Unit Cost']),
        line['Default Vendor Name'],
      ]);
    }
    expect(stored.rows.filter((row) => row.code.startsWith('Handmade Soap')).map((row) => row.code)).toEqual(['Handmade Soap Heather', 'Handmade Soap Lavender', 'Handmade Soap Oatmeal']);
    // The 24 items without options are named without "Regular", those without a SKU coded so too.
    expect(stored.rows.filter((row) => /\bRegular\b/.test(row.name))).toEqual([]);
    expect(libraryLines().filter((line) => line['Variation Name'] === 'Regular')).toHaveLength(24);
    expect(stored.rows.find((row) => row.code === 'XMS-ADV')?.name).toBe('Advent Calendar');
    expect(byCode.get('Greeting Card')?.name).toBe('Greeting Card');
  });

  it('never takes a stock alert for the stock, and keeps a location-less stock column first', async () => {
    const alertsOnly = ['SKU,Item Name,Stock Alert Enabled Galway Shop,Stock Alert Count Galway Shop', 'A-1,Mug,Y,3'].join('\n');
    expect((await preview(alertsOnly, 'products')).proposed_mapping.current_stock).toBeNull();
    const both = ['SKU,Item Name,Current Quantity Galway Shop,Current Stock', 'A-1,Mug,4,5'].join('\n');
    expect((await preview(both, 'products')).proposed_mapping.current_stock).toBe('Current Stock');
  });

  it('imports the sales detail under the SKUs, refunds netted, the lines without a SKU known by Item followed by Price Point Name (F6), "Regular" left out of both names (F8)', async () => {
    const sales = salesCsv();
    const proposal = await preview(sales, 'sales');
    expect(proposal.proposed_mapping).toMatchObject({ product_id: 'SKU', date: 'Date', quantity: 'Qty' });
    expect(proposal.proposed_row_filters).toBeUndefined();
    // The line's name is its item followed by its price point: the name the library gave the SKU-less variations.
    expect(proposal.proposed_new_products?.name).toBe('Item');
    expect(proposal.proposed_joined_columns).toEqual({ 'new_products.name': ['Price Point Name'] });
    // "Regular" left out as the library's name leaves it out (F8): "Greeting Card" meets "Greeting Card".
    expect(proposal.proposed_joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    expect(proposal.proposed_blank_code_by_name).toBe(true);
    expect(proposal.blank_code_lines).toBeGreaterThan(0);
    expect(proposal.blank_code_matched).toBe(proposal.blank_code_lines);
    expect(proposal.blank_code_names ?? []).toEqual([]);
    const first = cellsOf(sales.split('\n')[1] ?? '');
    const salesColumns = cellsOf(sales.split('\n')[0] ?? '');
    const pricePoint = first[salesColumns.indexOf('Price Point Name')];
    expect(proposal.rows[0]?.values['new_products.name']).toBe(pricePoint === 'Regular' ? first[salesColumns.indexOf('Item')] : `${first[salesColumns.indexOf('Item')]} ${pricePoint}`);

    const imported = await importAs(sales, 'sales', mappingFromProposal(proposal));
    const [header = '', ...lines] = sales.trim().split('\n');
    const columns = cellsOf(header);
    const at = (name: string) => columns.indexOf(name);
    const cells = lines.map(cellsOf);
    const withoutSku = cells.filter((line) => line[at('SKU')] === '');
    expect(withoutSku.length).toBe(3277);
    // Every line names a product of the library: none is skipped now (3277 were before).
    expect([imported.counts.skipped ?? 0, imported.counts.matched_by_name]).toEqual([0, withoutSku.length]);
    expect(imported.message).toContain('3277 lines without a product code were matched to products by name.');
    const fileTotal = cells.reduce((sum, line) => sum + Number(line[at('Qty')]), 0);
    const storedTotal = await sql<{ total: string }>`select sum(quantity)::text as total from data.sales`.execute(db());
    expect(Number(storedTotal.rows[0]?.total)).toBe(fileTotal);
    // November's best seller and a Christmas item, both without a SKU, as the file sold them.
    const november = await sql<{ code: string; units: string }>`
      select p.product_code as code, sum(s.quantity)::text as units from data.sales s join data.products p on p.id = s.product_id where s.date between '2026-11-01' and '2026-11-30' group by 1`.execute(db());
    const sold = new Map(november.rows.map((row) => [row.code, Number(row.units)]));
    const inFile = (item: string) => cells.filter((line) => line[at('Item')] === item && line[at('Date')]?.startsWith('2026-11')).reduce((sum, line) => sum + Number(line[at('Qty')]), 0);
    expect([sold.get('Greeting Card'), inFile('Greeting Card')]).toEqual([162, 162]);
    expect([sold.get('Felt Robin Decoration'), inFile('Felt Robin Decoration')]).toEqual([112, 112]);
    expect(lines.length).toBe(13757);
    expect(imported.message).toContain('Imported 13757 lines into sales');

    // A given mapping reads as it says: without joined_leave_out (a mapping saved before F8) the line keeps "Regular", and is offered the rule again.
    const head = sales.split('\n').slice(0, 200).join('\n');
    const { joined_leave_out: _leftOut, ...saved } = mappingFromProposal(proposal);
    const asSaved = await preview(head, 'sales', saved);
    expect(asSaved.proposed_joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    // Only the soaps' real variations ("Handmade Soap Lavender") still meet a product.
    expect(asSaved.blank_code_matched ?? 0).toBeLessThan(asSaved.blank_code_lines ?? 0);
    expect(asSaved.blank_code_names).toContain('Greeting Card Regular');
    // Matching turned off: offered again, the line's name read as the proposal reads it.
    const { blank_code_by_name: _on, new_products: _named, joined_columns: _joined, ...unmatched } = saved;
    expect((await preview(head, 'sales', unmatched)).proposed_blank_code_by_name).toBe(true);
  });

  it("refuses a line name's joined columns without the line's name column, on the preview and the import, writing nothing", async () => {
    const sales = salesCsv().split('\n').slice(0, 50).join('\n');
    const mapping = { field_mappings: { product_id: 'SKU', date: 'Date', quantity: 'Qty' }, joined_columns: { 'new_products.name': ['Price Point Name'] }, skip_rows_without_code: true };
    const expected = 'new_products.name joins columns to the column new products take their name from, but new_products names no column for name; set new_products.name first.';
    const before = await sql<{ lines: string }>`select count(*)::text as lines from data.sales`.execute(db());
    const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [
      { name: 'entity_type', value: 'sales' },
      { name: 'mapping_config', value: JSON.stringify(mapping) },
      { name: 'file', fileName: 'sales.csv', content: sales },
    ]);
    expect(previewed.status).toBe(400);
    expect(JSON.stringify(previewed.json)).toContain(expected);
    const imported = await importFile(editor.server(), editor.user().access, { fileName: 'sales.csv', content: sales, entityType: 'sales', mapping });
    expect(imported.status).toBe(400);
    expect(JSON.stringify(imported.json)).toContain(expected);
    const after = await sql<{ lines: string }>`select count(*)::text as lines from data.sales`.execute(db());
    expect(after.rows[0]?.lines).toBe(before.rows[0]?.lines);
  });

  it("buffers a Christmas item's last order over the selling days left after it arrives, not over the lead time (F9)", async () => {
    await catalogueRunsSettled(db());
    expect((await forecastClient(editor.server(), editor.user().access).run()).status).toBe('completed');
    // Advent calendars and crackers sell to 24 December, then nothing until November; with the default
    // lead time of 14 days an order placed now arrives on 20 December, four selling days before the end.
    for (const code of ['XMS-ADV', 'XMS-CRK-BOXOF6']) {
      const answer = await editor.server().request(`/api/forecasting/forecasts/${code}`, { token: editor.user().access });
      expect(answer.status, answer.text).toBe(200);
      const { forecast, reorder } = answer.json as unknown as ProductForecastResponse;
      expect(reorder.orderBy).toBe(forecast.sales[0]?.ds);
      const arrival = new Date(Date.parse(`${reorder.orderBy}T00:00:00Z`) + reorder.leadTimeDays * 86_400_000).toISOString().slice(0, 10);
      expect(forecast.sales.filter((row) => row.ds > '2026-12-24').every((row) => row.yhat === 0)).toBe(true);
      const seasonLeft = forecast.sales.filter((row) => row.ds >= arrival).reduce((sum, row) => sum + row.yhat, 0);
      // Nothing on the shelf then: the order is the four days' demand and the safety stock (rounded up).
      expect(Math.abs(reorder.orderQuantity - (seasonLeft + reorder.safetyStock))).toBeLessThanOrEqual(1);
      // z · σ · √4, not √14: about half the four days' demand for the crackers (13 of 16.9 before), a
      // quarter for the calendars (22 of 42.5 before) — what is left unsold on 27 December.
      expect(reorder.safetyStock, code).toBeLessThan(0.5 * seasonLeft);
    }
  }, 60_000);
});
