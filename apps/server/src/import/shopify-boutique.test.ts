// A UK clothing boutique's Shopify "Products" export (QA pass "a UK boutique's Shopify export",
// ADR 0195): one line per variant, its stock in "Variant Inventory Qty", its cost in "Cost per
// item" beside the selling price in "Variant Price". The proposal reads the stock and the cost, not
// the price, and the import stores them so.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';
import { ordersCsv, productsCsv } from '../../../../e2e/fixtures/shopify-boutique.ts';

const header =
  'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Variant Requires Shipping,Variant Taxable,Variant Barcode,Image Src,Image Position,Image Alt Text,Gift Card,SEO Title,SEO Description,Variant Image,Variant Weight Unit,Variant Tax Code,Cost per item,Included / United Kingdom,Price / United Kingdom,Compare At Price / United Kingdom,Status';
const variant = (handle: string, title: string, vendor: string, size: string, sku: string, stock: number, price: string, cost: string) =>
  `${handle},${title},<p>${title}</p>,${vendor},Apparel & Accessories > Clothing,Shirts,shirts,TRUE,Size,${size},,,,,${sku},350,shopify,${stock},deny,manual,${price},,TRUE,TRUE,,https://cdn.shopify.com/${handle}.jpg,1,,FALSE,,,,kg,,${cost},TRUE,,,active`;
const products = [
  header,
  variant('linen-shirt', 'Linen Shirt', 'Nordic Linen Co', 'M', 'LS-M-BLU', 7, '55.00', '21.00'),
  variant('tea-dress', 'Tea Dress', 'Hartley & Rowe', '12', 'TD-12', 4, '72.00', '27.00'),
].join('\n');

describe.each(backends)("a UK boutique's Shopify products export on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');

  const preview = async (content: string, entityType = 'products') => {
    const result = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: entityType }, { name: 'file', fileName: 'export.csv', content }]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return result.json as PreviewFileResponse;
  };

  it("proposes Variant Inventory Qty as the stock and Cost per item as the unit cost, not the selling price, and imports them so", async () => {
    const proposal = await preview(products);
    expect(proposal.proposed_mapping).toMatchObject({ product_code: 'Variant SKU', name: 'Title', current_stock: 'Variant Inventory Qty', unit_cost: 'Cost per item', supplier: 'Vendor' });
    const fieldMappings = Object.fromEntries(Object.entries(proposal.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null));
    const imported = await importFile(editor.server(), editor.user().access, { fileName: 'products_export_1.csv', content: products, entityType: 'products', mapping: { entities: { products: { field_mappings: fieldMappings } } } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const rows = await sql<{ code: string; stock: string; cost: string }>`select product_code as code, current_stock::text as stock, unit_cost::text as cost from data.products order by 1`.execute(editor.server().database.db);
    expect(rows.rows.map((row) => [row.code, Number(row.stock), Number(row.cost)])).toEqual([
      ['LS-M-BLU', 7, 21],
      ['TD-12', 4, 27],
    ]);
  });

  it('still proposes the price for the unit cost where the file names no cost', async () => {
    const withoutCost = products
      .split('\n')
      .map((line) => line.split(',').slice(0, 34).join(','))
      .join('\n');
    expect((await preview(withoutCost)).proposed_mapping.unit_cost).toBe('Variant Price');
  });

  it('names the first few lines without a SKU that it offers to skip — a product sold without one among the gift cards — leaving out the lines of a refunded order', async () => {
    const orders = [
      'Name,Email,Financial Status,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku,Vendor',
      '#1001,a@example.co.uk,refunded,2025-11-28 10:00:00 +0000,1,Canvas Tote Bag,18.00,,Fable Accessories',
      '#1002,b@example.co.uk,paid,2025-11-28 10:05:00 +0000,1,Linen Shirt - M / Blue,55.00,LS-M-BLU,Nordic Linen Co',
      '#1002,b@example.co.uk,,2025-11-28 10:05:00 +0000,1,Chunky Cable Cardigan - M,115.00,,Bramble Knitwear',
      '#1003,c@example.co.uk,paid,2025-11-28 11:00:00 +0000,1,Gift Card - £25,25.00,,Hartley & Rowe',
      '#1004,d@example.co.uk,paid,2025-11-28 12:00:00 +0000,1,Chunky Cable Cardigan - M,115.00,,Bramble Knitwear',
      '#1005,e@example.co.uk,paid,2025-11-28 12:30:00 +0000,1,Chunky Cable Cardigan - L,115.00,,Bramble Knitwear',
      '#1006,f@example.co.uk,paid,2025-11-28 13:00:00 +0000,1,Gift Card - £50,50.00,,Hartley & Rowe',
    ].join('\n');
    const previewed = await preview(orders, 'sales');
    expect(previewed.proposed_mapping.product_id).toBe('Lineitem sku');
    expect(previewed.blank_code_lines).toBe(5);
    expect(previewed.blank_code_names).toEqual(['Chunky Cable Cardigan - M', 'Gift Card - £25', 'Chunky Cable Cardigan - L']);
    // A products file's own names: the variants without a SKU; the image-only line (nothing mapped in it) is counted apart (F5).
    const withoutSkus = [header, variant('chunky-cable-cardigan', 'Chunky Cable Cardigan', 'Bramble Knitwear', 'M', '', 3, '115.00', '46.00'), variant('tea-dress', 'Tea Dress', 'Hartley & Rowe', '12', 'TD-12', 4, '72.00', '27.00'), 'tea-dress' + ','.repeat(25) + 'https://cdn.shopify.com/tea-dress-2.jpg,2' + ','.repeat(12)].join('\n');
    const products = await preview(withoutSkus);
    expect(products.blank_code_lines).toBe(1);
    expect(products.empty_lines).toBe(1);
    // Proposed to take its name as its code (F4): matched, so no longer named among the lines skipped.
    expect(products).toMatchObject({ blank_code_matched: 1, proposed_blank_code_by_name: true });
    expect(products.blank_code_names).toBeUndefined();
    const asGiven = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify({ entities: { products: { field_mappings: { product_code: 'Variant SKU', name: 'Title' }, skip_rows_without_code: true } } }) }, { name: 'file', fileName: 'export.csv', content: withoutSkus }]);
    // Without the option (turned off on the screen): named as before, and still offered.
    expect(asGiven.json).toMatchObject({ blank_code_lines: 1, blank_code_names: ['Chunky Cable Cardigan'], proposed_blank_code_by_name: true });
    expect((asGiven.json as PreviewFileResponse).blank_code_matched).toBeUndefined();
    expect((await preview([header, variant('tea-dress', 'Tea Dress', 'Hartley & Rowe', '12', 'TD-12', 4, '72.00', '27.00')].join('\n'))).blank_code_names).toBeUndefined();
  });

  // ADR 0195 F3: Title, Vendor, Type and Product Category on a product's first line only.
  const asMapping = (proposal: PreviewFileResponse) => ({
    field_mappings: Object.fromEntries(Object.entries(proposal.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
    ...(proposal.proposed_joined_columns ? { joined_columns: proposal.proposed_joined_columns } : {}),
    ...(proposal.proposed_fill_down_by ? { fill_down_by: proposal.proposed_fill_down_by } : {}),
    ...(proposal.proposed_skip_rows_without_code ? { skip_rows_without_code: true } : {}),
  });
  // The whole proposal as the Import screen sends it: with its row filters and the lines without a code known by their name (F4).
  const wholeProposal = (proposal: PreviewFileResponse) => ({
    ...asMapping(proposal),
    ...(proposal.proposed_row_filters ? { skip_rows_where: proposal.proposed_row_filters } : {}),
    ...(proposal.proposed_blank_code_by_name ? { blank_code_by_name: true, ...(proposal.proposed_new_products?.name ? { new_products: { name: proposal.proposed_new_products.name } } : {}) } : {}),
  });
  const stored = async () =>
    (await sql<{ code: string; name: string; supplier: string | null; category: string | null }>`select product_code as code, name, supplier::text as supplier, category from data.products order by 1`.execute(editor.server().database.db)).rows;

  it('without the fill-down the later variants are refused, and a file without a Handle is read as before', async () => {
    const file = productsCsv();
    const before = await stored();
    // As before the fill-down (name ← Title alone): 40 later variant lines without a name.
    const { fill_down_by: _fillDown, joined_columns: _joined, ...without } = asMapping(await preview(file));
    const refused = await importFile(editor.server(), editor.user().access, { fileName: 'products_export_1.csv', content: file, entityType: 'products', mapping: { entities: { products: without } } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('A value is required.');
    expect(refused.json).toMatchObject({ row_error_count: 40 });
    expect(await stored()).toEqual(before);
    // No Handle column: nothing proposed, a blank name stays blank (refused), the other lines as written.
    const lines = file.split('\n');
    const handleless = lines.map((line) => line.slice(line.indexOf(',') + 1)).join('\n');
    const proposal = await preview(handleless);
    expect(proposal.proposed_fill_down_by).toBeUndefined();
    expect(proposal.rows[1]?.problems.name).toBeDefined();
  });

  it("fills a product's blank later variant lines from its first by the Handle: the generated export imports every variant with a SKU named, its supplier and category set", async () => {
    const file = productsCsv();
    const proposal = await preview(file);
    expect(proposal.proposed_fill_down_by).toBe('Handle');
    // F5: the 11 image-only lines (a Handle and an Image Src, nothing mapped) apart from the 4 variants without a SKU (the 2 gift cards left out, F4); F6: the shop's Type.
    expect(proposal).toMatchObject({ blank_code_lines: 4, blank_code_matched: 4, empty_lines: 11, proposed_skip_rows_without_code: true, proposed_blank_code_by_name: true });
    expect(proposal.proposed_row_filters).toEqual([{ column: 'Gift Card', values: ['TRUE'], blank_means_same_as: 'Handle' }]);
    expect(proposal.proposed_mapping.category).toBe('Type');
    expect(proposal.proposed_joined_columns).toEqual({ name: ['Option1 Value', 'Option2 Value', 'Option3 Value'] });
    // The rows shown are read with it: the second line of the linen shirt is named and has its supplier.
    const second = proposal.rows[1];
    expect(second?.problems).toEqual({});
    expect(second?.values).toMatchObject({ product_code: 'LS-XS-WHT', name: 'Linen Shirt XS White', supplier: 'Nordic Linen Co' });
    // As F3 left it (the options of F4 turned off): the variants without a SKU are skipped.
    const imported = await importFile(editor.server(), editor.user().access, { fileName: 'products_export_1.csv', content: file, entityType: 'products', mapping: { entities: { products: asMapping(proposal) } } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    // The image-only lines and the variants without a SKU keep their blank code: skipped, not a second variant, and counted apart (F5).
    expect(imported.json).toMatchObject({ counts: { rows: 49, skipped: 6, empty_skipped: 11 } });
    expect((imported.json as { message: string }).message).toContain('6 lines without a product code were skipped. 11 lines with nothing to import were skipped.');
    const rows = await stored();
    expect(rows).toHaveLength(49);
    expect(rows.filter((row) => !row.name || !row.supplier || !row.category)).toEqual([]);
    // The shop's own Type, not Shopify's taxonomy the same for every product (F6).
    expect(rows.find((row) => row.code === 'MJ-M-OAT')).toMatchObject({ name: 'Merino Crew Jumper M Oatmeal', supplier: 'Bramble Knitwear', category: 'Knitwear' });
    expect(rows.find((row) => row.code === 'TD-16')).toMatchObject({ name: 'Tea Dress 16', supplier: 'Hartley & Rowe' });
    // The first test's LS-M-BLU ("Linen Shirt") is renamed as its own line names it now.
    expect(rows.find((row) => row.code === 'LS-M-BLU')?.name).toBe('Linen Shirt M Blue');
  });

  it("refuses a fill_down_by column the file lacks, naming it, and imports nothing", async () => {
    const before = await stored();
    const mapping = { field_mappings: { product_code: 'Variant SKU', name: 'Title' }, fill_down_by: 'Product Handle' };
    const imported = await importFile(editor.server(), editor.user().access, { fileName: 'products_export_1.csv', content: products, entityType: 'products', mapping: { entities: { products: mapping } } });
    expect(imported.status).toBe(400);
    expect(JSON.stringify(imported.json)).toContain("no column 'Product Handle'");
    const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify({ entities: { products: mapping } }) }, { name: 'file', fileName: 'export.csv', content: products }]);
    expect(previewed.status).toBe(400);
    expect(JSON.stringify(previewed.json)).toContain("no column 'Product Handle'");
    expect(await stored()).toEqual(before);
  });

  it('refuses a joined column the file lacks on import, naming it, previewing it as a mapped column the file lacks; a fourth joined column is a 400 in both; nothing imported', async () => {
    const before = await stored();
    const mapping = { field_mappings: { product_code: 'Variant SKU', name: 'Title' }, fill_down_by: 'Handle' };
    const send = async (joined: string[]) => {
      const config = JSON.stringify({ entities: { products: { ...mapping, joined_columns: { name: joined } } } });
      const imported = await importFile(editor.server(), editor.user().access, { fileName: 'products_export_1.csv', content: products, entityType: 'products', mapping: JSON.parse(config) as object });
      const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: config }, { name: 'file', fileName: 'export.csv', content: products }]);
      return { imported, previewed };
    };
    const absent = await send(['Option1 Value', 'Option4 Value']);
    expect(absent.imported.status).toBe(400);
    expect(JSON.stringify(absent.imported.json)).toContain("The file has no column 'Option4 Value' for name");
    // The preview reads it as it reads a mapped column the file lacks (blank), for the Import screen to show it as not in the file.
    expect(absent.previewed.status).toBe(200);
    expect((absent.previewed.json as PreviewFileResponse).rows[0]?.values['name']).toBe('Linen Shirt M');
    const fourth = await send(['Option1 Value', 'Option2 Value', 'Option3 Value', 'Vendor']);
    for (const answer of [fourth.imported, fourth.previewed]) {
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.json)).toContain('At most 3 columns joined to one field.');
    }
    expect(await stored()).toEqual(before);
  });

  // ADR 0195 F4: the variants without a SKU known by their name, in the products file and in the orders file.
  const importAs = async (entityType: string, fileName: string, content: string, mapping: object) => importFile(editor.server(), editor.user().access, { fileName, content, entityType, mapping: { entities: { [entityType]: mapping } } });

  it('imports the variants without a SKU under their name with the proposal, leaving the gift cards out, and their orders on them', async () => {
    const products = productsCsv();
    const proposal = await preview(products);
    const imported = await importAs('products', 'products_export_1.csv', products, wholeProposal(proposal));
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    // 49 variants with a SKU, the cardigan's 3 sizes and the tote bag; the gift cards' 2 lines left out by the filter, the 11 image-only lines skipped.
    expect(imported.json).toMatchObject({ counts: { rows: 53, matched_by_name: 4, empty_skipped: 11, filtered: 2 } });
    expect((imported.json as { counts: { skipped?: number } }).counts.skipped).toBeUndefined();
    expect((imported.json as { message: string }).message).toContain('4 lines without a product code were given their name as their product code. 11 lines with nothing to import were skipped.');
    const rows = await sql<{ code: string; name: string; stock: string; cost: string; supplier: string | null; category: string | null }>`
      select product_code as code, name, current_stock::text as stock, unit_cost::text as cost, supplier::text as supplier, category from data.products where product_code not like '%-%' and product_code not like 'LSJ%' order by 1`.execute(editor.server().database.db);
    const generated = products.split('\n').filter((line) => line.startsWith('chunky-cable-cardigan,') || line.startsWith('canvas-tote-bag,'));
    // A first variant line quotes its description ("<p>…, made for everyday wear.</p>"): cells read as a CSV reader does.
    const cellsOf = (line: string) => [...line.matchAll(/(?:"((?:[^"]|"")*)"|([^,]*))(?:,|$)/g)].map((match) => match[1]?.replaceAll('""', '"') ?? match[2] ?? '');
    const stockOf = (handle: string, size: string) => Number(generated.map(cellsOf).find((cells) => cells[0] === handle && cells[9] === size)?.[17]);
    expect(rows.rows.map((row) => ({ ...row, stock: Number(row.stock), cost: Number(row.cost) }))).toEqual([
      { code: 'Canvas Tote Bag', name: 'Canvas Tote Bag', stock: stockOf('canvas-tote-bag', 'Default Title'), cost: 5, supplier: 'Fable Accessories', category: 'Accessories' },
      { code: 'Chunky Cable Cardigan L', name: 'Chunky Cable Cardigan L', stock: stockOf('chunky-cable-cardigan', 'L'), cost: 46, supplier: 'Bramble Knitwear', category: 'Knitwear' },
      { code: 'Chunky Cable Cardigan M', name: 'Chunky Cable Cardigan M', stock: stockOf('chunky-cable-cardigan', 'M'), cost: 46, supplier: 'Bramble Knitwear', category: 'Knitwear' },
      { code: 'Chunky Cable Cardigan S', name: 'Chunky Cable Cardigan S', stock: stockOf('chunky-cable-cardigan', 'S'), cost: 46, supplier: 'Bramble Knitwear', category: 'Knitwear' },
    ]);
    expect((await sql<{ n: number }>`select count(*)::int as n from data.products where name ilike 'gift card%'`.execute(editor.server().database.db)).rows[0]?.n).toBe(0);

    // The orders file as Sales: what the generator wrote, refunded and voided orders left out (their status on an order's first line).
    const orders = ordersCsv();
    const [head = '', ...lines] = orders.trim().split('\n');
    expect(orders).not.toContain('"');
    const at = (column: string) => head.split(',').indexOf(column);
    const statusOf = new Map<string, string>();
    const expected = new Map<string, number>();
    let giftCardLines = 0;
    let named = 0;
    for (const line of lines) {
      const cells = line.split(',');
      const order = cells[at('Name')] as string;
      if (cells[at('Financial Status')]) statusOf.set(order, cells[at('Financial Status')] as string);
      if (['refunded', 'voided'].includes(statusOf.get(order) ?? '') || cells[at('Lineitem sku')]) continue;
      const name = cells[at('Lineitem name')] as string;
      if (name.startsWith('Gift Card')) giftCardLines += 1;
      else {
        named += 1;
        expected.set(name, (expected.get(name) ?? 0) + Number(cells[at('Lineitem quantity')]));
      }
    }
    const sales = await preview(orders, 'sales');
    expect(sales.proposed_new_products?.name).toBe('Lineitem name');
    expect(sales).toMatchObject({ proposed_blank_code_by_name: true, proposed_skip_rows_without_code: true });
    // The lines read without a SKU: those matched by name, and the gift cards still named as skipped.
    expect(sales.blank_code_matched).toBeGreaterThan(0);
    expect(sales.blank_code_names?.every((name) => name.startsWith('Gift Card'))).toBe(true);
    const written = await importAs('sales', 'orders_export_1.csv', orders, wholeProposal(sales));
    expect(written.status, JSON.stringify(written.json)).toBe(200);
    expect(written.json).toMatchObject({ counts: { matched_by_name: named, skipped: giftCardLines } });
    const message = (written.json as { message: string }).message;
    expect(message).toContain(`${named} lines without a product code were matched to products by name. ${giftCardLines} lines without a product code were skipped.`);
    const sold = await sql<{ code: string; quantity: string }>`
      select p.product_code as code, sum(s.quantity)::text as quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code not like '%-%' group by 1 order by 1`.execute(editor.server().database.db);
    expect(Object.fromEntries(sold.rows.map((row) => [row.code, Number(row.quantity)]))).toEqual({
      'Canvas Tote Bag': expected.get('Canvas Tote Bag'),
      'Chunky Cable Cardigan L': expected.get('Chunky Cable Cardigan - L'),
      'Chunky Cable Cardigan M': expected.get('Chunky Cable Cardigan - M'),
      'Chunky Cable Cardigan S': expected.get('Chunky Cable Cardigan - S'),
    });
    expect(expected.get('Chunky Cable Cardigan - M')).toBeGreaterThan(0);
  });

  it('refuses a line whose name reads as two products, naming both, and the option where no name column is mapped; nothing imported', async () => {
    const db = editor.server().database.db;
    const twins = importAs('products', 'twins.csv', 'SKU,Name\nBEANIE-1,Slouch Beanie\nBEANIE-2,Slouch-Beanie', { field_mappings: { product_code: 'SKU', name: 'Name' } });
    expect((await twins).status).toBe(200);
    const salesBefore = (await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(db)).rows[0]?.n;
    const orders = 'Name,Created at,Lineitem quantity,Lineitem name,Lineitem sku\n#9001,2026-12-01 10:00:00 +0000,1,Slouch Beanie,\n#9002,2026-12-01 11:00:00 +0000,1,Linen Shirt - M / Blue,LS-M-BLU';
    const mapping = { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, skip_rows_without_code: true, blank_code_by_name: true, new_products: { name: 'Lineitem name' } };
    const refused = await importAs('sales', 'orders.csv', orders, mapping);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('The line has no product code and its name “Slouch Beanie” reads the same as 2 products: BEANIE-1 (“Slouch Beanie”) and BEANIE-2 (“Slouch-Beanie”).');
    // The preview shows the same problem on the line.
    const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify({ entities: { sales: mapping } }) }, { name: 'file', fileName: 'orders.csv', content: orders }]);
    expect(previewed.status).toBe(200);
    expect((previewed.json as PreviewFileResponse).rows[0]?.problems['product_id']).toContain('reads the same as 2 products');
    // No name column: the contract's 400, in the import and the preview.
    const { new_products: _names, ...nameless } = mapping;
    const noName = await importAs('sales', 'orders.csv', orders, nameless);
    expect(noName.status).toBe(400);
    expect(JSON.stringify(noName.json)).toContain('blank_code_by_name matches a line without a product code by its name, but no name column is mapped');
    const noNamePreview = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify({ entities: { sales: nameless } }) }, { name: 'file', fileName: 'orders.csv', content: orders }]);
    expect(noNamePreview.status).toBe(400);
    // A name column the file lacks: a 400 naming it.
    const absent = await importAs('sales', 'orders.csv', orders, { ...mapping, new_products: { name: 'Item name' } });
    expect(absent.status).toBe(400);
    expect(JSON.stringify(absent.json)).toContain('Item name');
    expect((await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(db)).rows[0]?.n).toBe(salesBefore);
  });

  // ADR 0195 F6: among the columns named like a category, the one whose values tell the products apart in the shop's own words.
  it("proposes the column whose values group the products for the category, over a taxonomy or one value on every line", async () => {
    const categoryOf = async (content: string) => (await preview(content)).proposed_mapping.category;
    // Shopify's Product Category the same on both, Type the same on both too: nothing to choose by, the name's rank kept.
    expect(await categoryOf(products)).toBe('Product Category');
    expect(await categoryOf('SKU,Name,Product Category,Type\nA-1,Shirt,Apparel > Clothing > Shirts,Shirts\nB-1,Dress,Apparel > Clothing > Dresses,Dresses')).toBe('Type');
    // A category in the shop's own words that separates the products is kept beside a Type that does not.
    expect(await categoryOf('SKU,Name,Category,Type\nA-1,Shirt,Shirts,Online\nB-1,Dress,Dresses,Online')).toBe('Category');
    // A one-line file tells nothing: the name's rank.
    expect(await categoryOf('SKU,Name,Product Category,Type\nA-1,Shirt,Apparel > Clothing,Shirts')).toBe('Product Category');
  });

  // ADR 0195, JSON fill_down_by: a path no record has is refused as a file's missing column is, not filled nothing silently.
  const json = JSON.stringify([
    { handle: 'linen-shirt', title: 'Linen Shirt', variant: { sku: 'LSJ-M' } },
    { handle: 'linen-shirt', title: '', variant: { sku: 'LSJ-L' } },
  ]);
  const jsonMapping = (by: string) => ({ entities: { products: { field_mappings: { product_code: 'variant.sku', name: 'title' }, fill_down_by: by } } });

  it("refuses a JSON file's fill_down_by path that no record has, naming it, in the preview and the import, and fills by one they have", async () => {
    const before = await stored();
    const refusedPreview = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(jsonMapping('Handle')) }, { name: 'file', fileName: 'products.json', content: json, type: 'application/json' }]);
    expect(refusedPreview.status).toBe(400);
    expect(JSON.stringify(refusedPreview.json)).toContain("No record read has the path 'Handle' that blank cells are filled down by (fill_down_by; the first record has: 'handle', 'title', 'variant')");
    const refused = await importFile(editor.server(), editor.user().access, { fileName: 'products.json', content: json, type: 'application/json', entityType: 'products', mapping: jsonMapping('Handle') });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain("No record of the file has the path 'Handle'");
    expect(await stored()).toEqual(before);
    // The mapping given first (the file read as it arrives): refused the same.
    const arriving = await importFile(editor.server(), editor.user().access, { fileName: 'products.json', content: json, type: 'application/json', entityType: 'products', mapping: jsonMapping('Handle'), fieldsFirst: true });
    expect(arriving.status).toBe(400);
    expect(JSON.stringify(arriving.json)).toContain("No record of the file has the path 'Handle'");
    expect(await stored()).toEqual(before);
    const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(jsonMapping('handle')) }, { name: 'file', fileName: 'products.json', content: json, type: 'application/json' }]);
    expect(previewed.status, JSON.stringify(previewed.json)).toBe(200);
    expect((previewed.json as PreviewFileResponse).rows[1]?.values).toMatchObject({ product_code: 'LSJ-L', name: 'Linen Shirt' });
    const imported = await importFile(editor.server(), editor.user().access, { fileName: 'products.json', content: json, type: 'application/json', entityType: 'products', mapping: jsonMapping('handle') });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    expect((await stored()).filter((row) => row.code.startsWith('LSJ-')).map((row) => [row.code, row.name])).toEqual([
      ['LSJ-L', 'Linen Shirt'],
      ['LSJ-M', 'Linen Shirt'],
    ]);
  });
});
