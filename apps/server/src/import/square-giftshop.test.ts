// A Galway gift shop's Square exports (QA pass "an Irish gift shop's Square exports", ADR 0201): the
// item library (SKU on most variations, Item Name beside a sentence of Description, Price beside
// Default Unit Cost, the stock per location as "Current Quantity Galway Shop" beside the Y/N "Stock
// Alert Enabled Galway Shop", Default Vendor Name) imported with the preview's proposals alone; then
// the Item Sales detail export, SKU on most lines, refunds as Event Type Refund with a negative Qty.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { asProposed, cellsOf, importScreen } from '../testing/proposed-mapping.ts';
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
    // The SKUs are kept as the codes; the name tells a Small candle from a Large one.
    expect(proposal.proposed_joined_columns).toEqual({ name: ['Variation Name'] });
    expect(proposal.rows[0]?.values).toMatchObject({ product_code: 'CAN-SEA-SMALL', name: 'Sea Salt Soy Candle Small', unit_cost: 6.3, supplier: 'Kilkenny Candle Co' });
    expect(proposal.rows.map((row) => row.problems)).toEqual(proposal.rows.map(() => ({})));

    const imported = await importAs(libraryCsv(), 'products', asProposed(proposal));
    // The seven variations without a SKU are coded by their name, each variation its own product.
    expect(imported.counts).toMatchObject({ inserted: variations().length, matched_by_name: 7 });
    const stored = await sql<{ code: string; name: string; stock: string; cost: string; supplier: string }>`
      select product_code as code, name, current_stock::text as stock, unit_cost::text as cost, supplier from data.products order by 1`.execute(db());
    const byCode = new Map(stored.rows.map((row) => [row.code, row]));
    for (const line of libraryLines()) {
      const code = line.SKU || `${line['Item Name']} ${line['Variation Name']}`;
      const row = byCode.get(code);
      expect(row, code).toBeDefined();
      expect([row?.name, Number(row?.stock), Number(row?.cost), row?.supplier]).toEqual([
        `${line['Item Name']} ${line['Variation Name']}`,
        Number(line['Current Quantity Galway Shop']),
        Number(line['Default Unit Cost']),
        line['Default Vendor Name'],
      ]);
    }
    expect(stored.rows.filter((row) => row.code.startsWith('Handmade Soap')).map((row) => row.code)).toEqual(['Handmade Soap Heather', 'Handmade Soap Lavender', 'Handmade Soap Oatmeal']);
  });

  it('never takes a stock alert for the stock, and keeps a location-less stock column first', async () => {
    const alertsOnly = ['SKU,Item Name,Stock Alert Enabled Galway Shop,Stock Alert Count Galway Shop', 'A-1,Mug,Y,3'].join('\n');
    expect((await preview(alertsOnly, 'products')).proposed_mapping.current_stock).toBeNull();
    const both = ['SKU,Item Name,Current Quantity Galway Shop,Current Stock', 'A-1,Mug,4,5'].join('\n');
    expect((await preview(both, 'products')).proposed_mapping.current_stock).toBe('Current Stock');
  });

  it('imports the sales detail under the SKUs, refunds netted, the lines without a SKU skipped and counted (F6)', async () => {
    const sales = salesCsv();
    const proposal = await preview(sales, 'sales');
    expect(proposal.proposed_mapping).toMatchObject({ product_id: 'SKU', date: 'Date', quantity: 'Qty' });
    expect(proposal.proposed_row_filters).toBeUndefined();
    const imported = await importAs(sales, 'sales', asProposed(proposal));
    const [header = '', ...lines] = sales.trim().split('\n');
    const columns = cellsOf(header);
    const at = (name: string) => columns.indexOf(name);
    const cells = lines.map(cellsOf);
    const withoutSku = cells.filter((line) => line[at('SKU')] === '');
    expect(imported.counts.skipped).toBe(withoutSku.length);
    const fileTotal = cells.filter((line) => line[at('SKU')] !== '').reduce((sum, line) => sum + Number(line[at('Qty')]), 0);
    const storedTotal = await sql<{ total: string }>`select sum(quantity)::text as total from data.sales`.execute(db());
    expect(Number(storedTotal.rows[0]?.total)).toBe(fileTotal);
  });
});
