// A small wholesaler's Odoo exports (QA pass "an Odoo wholesaler's first day", ADR 0198): the
// product list (Internal Reference, Product Category as a path beside Product Type, Quantity On
// Hand, Vendors) and the sales order lines, whose Product cell is "[FURN_7800] Desk Combination",
// with quotations and cancelled lines among them, and the stock count by location (a product on
// several shelves, which add up). Imported with the preview's proposals alone (and the count's day); the two products
// without an Internal Reference known by their name in all three files (ADR 0198 F10).
import { mappingFromProposal } from '@stockwise/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { cellsOf, importScreen } from '../testing/proposed-mapping.ts';
import { onHand, orderLinesCsv, productsCsv, stockCountCsv } from '../../../../e2e/fixtures/odoo-wholesaler.ts';

describe.each(backends)("a wholesaler's Odoo exports on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const db = () => editor.server().database.db;

  const { preview, importAs } = importScreen(editor, 'odoo');

  it('proposes the product list’s category, stock on hand and vendor, and imports them', async () => {
    const proposal = await preview(productsCsv(), 'products');
    expect(proposal.proposed_mapping).toMatchObject({ product_code: 'Internal Reference', name: 'Name', category: 'Product Category', current_stock: 'Quantity On Hand', unit: 'Unit of Measure', unit_cost: 'Cost', supplier: 'Vendors' });
    const imported = await importAs(productsCsv(), 'products', mappingFromProposal(proposal));
    // Two products have no Internal Reference: their name is their code (ADR 0195 F4), all 40 are in.
    expect(proposal.proposed_blank_code_by_name).toBe(true);
    expect(imported.counts).toMatchObject({ inserted: 40, matched_by_name: 2 });
    expect(imported.counts.skipped).toBeUndefined();
    const rows = await sql<{ code: string; category: string; stock: string; cost: string; supplier: string }>`select product_code as code, category, current_stock::text as stock, unit_cost::text as cost, supplier from data.products where product_code in ('FURN_8220', 'PAP_KRAFT') order by 1`.execute(db());
    expect(rows.rows.map((row) => [row.code, row.category, Number(row.stock) > 0, Number(row.cost), row.supplier])).toEqual([
      ['FURN_8220', 'All / Saleable / Office Furniture', true, 1400, 'Wood Corner'],
      ['PAP_KRAFT', 'All / Saleable / Paper', true, 2.1, 'Nordic Paper Mills'],
    ]);
  });

  it('reads the code in the brackets of "[FURN_7800] Desk Combination", leaves quotations and cancelled lines out, and imports the order lines as proposed', async () => {
    await importAs(productsCsv(), 'products', mappingFromProposal(await preview(productsCsv(), 'products')));
    const lines = orderLinesCsv();
    const proposal = await preview(lines, 'sales');
    expect(proposal.proposed_code_in_brackets).toBe(true);
    expect(proposal.proposed_mapping).toMatchObject({ product_id: 'Product', date: 'Order Date', quantity: 'Quantity' });
    expect(proposal.proposed_row_filters).toEqual([{ column: 'Status', values: expect.arrayContaining(['Quotation', 'Cancelled']) }]);
    // The products without an Internal Reference are written by their name alone: lines without a code, matched
    // by that name — the Product cell's own, as a new product's name is read (ADR 0198 F10).
    expect(proposal).toMatchObject({ proposed_skip_rows_without_code: true, proposed_blank_code_by_name: true, proposed_new_products: { name: 'Product' } });
    expect(proposal.blank_code_matched).toBe(proposal.blank_code_lines);
    expect(proposal.blank_code_names).toBeUndefined();
    const shown = proposal.rows.find((row) => !row.skipped && !row.left_out);
    expect(shown?.problems).toEqual({});
    expect(String(shown?.values.product_id)).toMatch(/^[A-Z][A-Z0-9_-]+$/);

    const imported = await importAs(lines, 'sales', mappingFromProposal(proposal));
    const [, ...body] = lines.trim().split('\n');
    const sold = new Map<string, number>();
    let withoutCode = 0;
    for (const cells of body.map(cellsOf)) {
      const [, date, , , product, , quantity, , , , , status] = cells as string[];
      if (status !== 'Sales Order') continue;
      // A product without an Internal Reference: its name, its code since the product list.
      const code = /^\[([^\]]+)\]/.exec(product as string)?.[1] ?? (withoutCode++, product as string);
      const [month, day, year] = (date as string).slice(0, 10).split('/');
      const key = `${code} ${year}-${month}-${day}`;
      sold.set(key, (sold.get(key) ?? 0) + Number(quantity));
    }
    expect(withoutCode).toBe(127);
    expect(imported.counts).toMatchObject({ matched_by_name: withoutCode });
    expect(imported.counts.skipped).toBeUndefined();
    const stored = await sql<{ code: string; day: string; quantity: string }>`select p.product_code as code, s.date::text as day, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id`.execute(db());
    expect(new Map(stored.rows.map((row) => [`${row.code} ${row.day}`, Number(row.quantity)]))).toEqual(sold);
  });

  it("adds up a stock count's locations of one product, as proposed, and reads its codes from the brackets", async () => {
    await importAs(productsCsv(), 'products', mappingFromProposal(await preview(productsCsv(), 'products')));
    const proposal = await preview(stockCountCsv(), 'stock_snapshots');
    expect(proposal).toMatchObject({ proposed_code_in_brackets: true, counted_by_location: 'Location', proposed_mapping: { product_id: 'Product', stock_level: 'Quantity' }, proposed_blank_code_by_name: true, blank_code_matched: 3 });
    // No date column: the user chooses "Same date for all lines", today.
    const imported = await importAs(stockCountCsv(), 'stock_snapshots', { ...mappingFromProposal(proposal), field_values: { date: 'today' } });
    expect(imported.counts.skipped).toBeUndefined();
    // Written: 37 products with a reference and the 2 without (matched by name: Printer Toner Black, Desk Organiser Mesh).
    expect(imported.counts).toMatchObject({ written: 39, matched_by_name: 3 });
    const stored = await sql<{ code: string; stock: string }>`select product_code as code, current_stock::text as stock from data.products`.execute(db());
    // The delivery charge, a service, is counted nowhere: its 0 from the product list stays.
    const expected = new Map([...[...onHand()].map(([product, stock]) => [product.code || product.name, stock] as const), ['SERV_DEL', 0] as const]);
    expect(new Map(stored.rows.map((row) => [row.code, Number(row.stock)]))).toEqual(expected);
    // Without the sum (the entity's "keep the last"), a product on three shelves would be its last shelf's count.
    const oneLocation = ['Product,Location,Quantity', '[FURN_7800] Desk Combination,WH/Stock,4.00', '[FURN_7800] Desk Combination,WH/Stock,5.00'].join('\n');
    expect((await preview(oneLocation, 'stock_snapshots')).counted_by_location).toBeUndefined();
  });

  it('names a product created from "[FURN_4100] Standing Desk" without the brackets, from the Product column proposed or a Description', async () => {
    const lines = [
      'Order Reference,Order Date,Product,Description,Quantity',
      'S00001,11/30/2026 09:00:00,[FURN_4100] Standing Desk,[FURN_4100] Standing Desk,2.00',
      'S00002,12/01/2026 09:00:00,[FURN_4200] Monitor Arm,[Promo] Monitor Arm,1.00',
    ].join('\n');
    const proposal = await preview(lines, 'sales');
    expect(proposal.proposed_new_products?.name).toBe('Product');
    // "Create products for unknown codes" ticked (codes the product list has not), new products named from the column proposed.
    const creating = { ...mappingFromProposal(proposal), create_missing_products: true, new_products: { name: 'Product' } };
    const shown = await preview(lines, 'sales', creating);
    expect(shown.new_products?.map((product) => [product.code, product.values.name])).toEqual([
      ['FURN_4100', 'Standing Desk'],
      ['FURN_4200', 'Monitor Arm'],
    ]);
    await importAs(lines, 'sales', { ...creating, new_products: { name: 'Description' } });
    const named = await sql<{ code: string; name: string }>`select product_code as code, name from data.products where product_code in ('FURN_4100', 'FURN_4200') order by 1`.execute(db());
    // From the Description: the line's own [CODE] dropped, another bracketed text kept as written.
    expect(named.rows.map((row) => [row.code, row.name])).toEqual([
      ['FURN_4100', 'Standing Desk'],
      ['FURN_4200', '[Promo] Monitor Arm'],
    ]);
  });

  it('proposes no brackets for a column of plain codes, and reads "[CODE] Name" as written when the mapping says nothing of brackets', async () => {
    const plain = ['Order Reference,Order Date,Product,Quantity', 'S00001,12/01/2026 09:00:00,FURN_7800,2.00', 'S00002,12/02/2026 09:00:00,[FURN_7800],1.00', 'S00003,12/03/2026 09:00:00,FURN_6666,1.00'].join('\n');
    expect((await preview(plain, 'sales')).proposed_code_in_brackets).toBeUndefined();
    const bracketed = ['Order Reference,Order Date,Product,Quantity', 'S00001,12/01/2026 09:00:00,[FURN_7800] Desk Combination,2.00', 'S00002,12/02/2026 09:00:00,[FURN_6666] Acoustic Bloc Screens,1.00'].join('\n');
    const given = await preview(bracketed, 'sales', { field_mappings: { product_id: 'Product', date: 'Order Date', quantity: 'Quantity' } });
    // Offered again for the screen, but a given mapping is read as it says.
    expect(given.proposed_code_in_brackets).toBe(true);
    expect(given.rows[0]?.values.product_id).toBe('[FURN_7800] Desk Combination');
  });
});
