// A UK clothing boutique's Shopify "Products" export (QA pass "a UK boutique's Shopify export",
// ADR 0195): one line per variant, its stock in "Variant Inventory Qty", its cost in "Cost per
// item" beside the selling price in "Variant Price". The proposal reads the stock and the cost, not
// the price, and the import stores them so.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

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
    // A products file's own names: the variants without a SKU, not the image-only lines (no name).
    const withoutSkus = [header, variant('chunky-cable-cardigan', 'Chunky Cable Cardigan', 'Bramble Knitwear', 'M', '', 3, '115.00', '46.00'), variant('tea-dress', 'Tea Dress', 'Hartley & Rowe', '12', 'TD-12', 4, '72.00', '27.00'), 'tea-dress' + ','.repeat(25) + 'https://cdn.shopify.com/tea-dress-2.jpg,2' + ','.repeat(12)].join('\n');
    const products = await preview(withoutSkus);
    expect(products.blank_code_lines).toBe(2);
    expect(products.blank_code_names).toEqual(['Chunky Cable Cardigan']);
    expect((await preview([header, variant('tea-dress', 'Tea Dress', 'Hartley & Rowe', '12', 'TD-12', 4, '72.00', '27.00')].join('\n'))).blank_code_names).toBeUndefined();
  });
});
