// New products named from the file (`new_products: {name: 'Lineitem name', category: 'Product
// type'}`) on the real database: a Shopify-like orders export with unknown SKUs creates products
// with the names and types its lines carry (the most frequent name per SKU; a blank name falls
// back to the code), never renames a product already stored, says in the answer what it created,
// refuses a bad option with a 400 naming it (nothing written or saved), and the preview and an
// integration's run read the same columns.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { IntegrationLogEntry, PreviewFileResponse } from '@stockwise/contract';
import { useImportServer } from '../testing/import-server.ts';
import { backends } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const shopifyMapping = (extra: Record<string, unknown> = {}) => ({
  entities: {
    sales: {
      field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' },
      create_missing_products: true,
      new_products: { name: 'Lineitem name', category: 'Product type' },
      ...extra,
    },
  },
});
const header = 'Name,Created at,Lineitem quantity,Lineitem name,Lineitem sku,Product type';

describe.each(backends)('new products named from the file on %s', (backend) => {
  const shop = useImportServer(backend, { csv: 'code,name,category\nNP-OLD,Beeswax Candle,Candles\n', fieldMappings: { product_code: 'code', name: 'name', category: 'category' } });

  const productsOf = async (prefix: string) =>
    (await sql<{ code: string; name: string; category: string | null }>`select product_code as code, name, category from data.products where product_code like ${`${prefix}%`} order by 1`.execute(shop.server.database.db)).rows;
  /** The preview of an orders export, through a mapping or the one it proposes. */
  const previewOrders = async (csv: string, mapping?: unknown) => {
    const { status, json } = await postMultipart(shop.server, '/api/records/preview-file/', shop.editor, [
      { name: 'file', fileName: 'orders_export.csv', content: csv },
      { name: 'entity_type', value: 'sales' },
      ...(mapping ? [{ name: 'mapping_config', value: JSON.stringify(mapping) }] : []),
    ]);
    expect(status, JSON.stringify(json)).toBe(200);
    return json as PreviewFileResponse;
  };
  /** A run of an integration whose saved mapping `name` creates products for unknown codes, over `records` served at `route`. */
  const runCreatingProducts = async (name: string, route: string, records: unknown[]) => {
    const mapping = { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' }, create_missing_products: true } } };
    expect((await shop.server.request('/api/yaml/save-mapping/', { body: { name, config: mapping }, token: shop.editor })).status).toBe(200);
    return (await shop.runIntegrationOn(route, records, { mapping_selection: name, target_entity: 'sales' })).outcome;
  };
  const count = async (table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`data.${table}`)}`.execute(shop.server.database.db)).rows[0]?.n);

  it('creates the unknown SKUs as products named by their lines (the most frequent name), typed by their product type; blank names fall back to the code; a stored product is not renamed', async () => {
    const csv = [
      header,
      '#1001,2026-05-02 10:00:00 +0200,2,Rose Candle - Large,NP-1,Candles',
      '#1001,2026-05-02 10:00:00 +0200,1,Pine Soap,NP-2,Soap',
      '#1002,2026-05-03 11:00:00 +0200,1,Rose Candle,NP-1,Candles',
      '#1003,2026-05-03 12:00:00 +0200,3,Rose Candle,NP-1,Candles',
      '#1003,2026-05-03 12:00:00 +0200,1,Renamed Beeswax,NP-OLD,Other',
      '#1004,2026-05-04 09:00:00 +0200,1,,NP-3,',
    ].join('\n');
    const result = await importFile(shop.server, shop.editor, { fileName: 'orders_export.csv', content: `${csv}\n`, mapping: shopifyMapping(), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.counts).toMatchObject({ rows: 6, created_references: 3 });
    expect(result.json.message).toContain('3 new products created for unknown codes: NP-1 Rose Candle, NP-2 Pine Soap and NP-3.');
    expect(result.json.new_products).toEqual([
      { code: 'NP-1', values: { name: 'Rose Candle', category: 'Candles' } },
      { code: 'NP-2', values: { name: 'Pine Soap', category: 'Soap' } },
      { code: 'NP-3', values: { name: 'NP-3', category: null } },
    ]);
    expect(await productsOf('NP-')).toEqual([
      { code: 'NP-1', name: 'Rose Candle', category: 'Candles' },
      { code: 'NP-2', name: 'Pine Soap', category: 'Soap' },
      { code: 'NP-3', name: 'NP-3', category: null },
      { code: 'NP-OLD', name: 'Beeswax Candle', category: 'Candles' },
    ]);
    const sales = await sql<{ code: string; date: string; quantity: number }>`
      select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code like 'NP-%' order by 1, 2`.execute(shop.server.database.db);
    expect(sales.rows).toEqual([
      { code: 'NP-1', date: '2026-05-02', quantity: 2 },
      { code: 'NP-1', date: '2026-05-03', quantity: 4 },
      { code: 'NP-2', date: '2026-05-02', quantity: 1 },
      { code: 'NP-3', date: '2026-05-04', quantity: 1 },
      { code: 'NP-OLD', date: '2026-05-03', quantity: 1 },
    ]);
  });

  it('takes the first line’s name when names tie, and refuses a name longer than the products column allows, naming the row and column', async () => {
    const tie = `${header}\n#2001,2026-05-05,1,Lavender Candle,NP-TIE,Candles\n#2002,2026-05-05,1,Lavender candle (old),NP-TIE,Candles\n`;
    expect((await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: tie, mapping: shopifyMapping(), entityType: 'sales' })).status).toBe(200);
    expect(await productsOf('NP-TIE')).toEqual([{ code: 'NP-TIE', name: 'Lavender Candle', category: 'Candles' }]);

    const before = await count('products');
    const long = `${header}\n#2003,2026-05-06,1,${'x'.repeat(201)},NP-LONG,Candles\n`;
    const refused = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: long, mapping: shopifyMapping(), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([{ row: 2, field: 'new_products.name', column: 'Lineitem name', reason: expect.stringContaining('200') }]);
    expect(await count('products')).toBe(before);
  });

  it('refuses a bad new_products with a 400 naming it where it is used and where it is saved; nothing is written or saved', async () => {
    const before = [await count('products'), await count('sales')];
    const csv = `${header}\n#3001,2026-05-07,1,Cedar Soap,NP-BAD,Soap\n`;
    const bad: [Record<string, unknown>, string][] = [
      [shopifyMapping({ new_products: { label: 'Lineitem name' } }), "Invalid configuration: new_products.label: products has no field 'label'."],
      [shopifyMapping({ new_products: { unit_cost: 'Lineitem name' } }), 'Invalid configuration: new_products.unit_cost: only text fields and fields with a set of allowed values of products can be taken from the file; Unit cost is not one.'],
      [shopifyMapping({ new_products: { product_code: 'Lineitem sku' } }), 'Invalid configuration: new_products.product_code: Product code is the code itself; it comes from the column mapped to product_id.'],
      [shopifyMapping({ create_missing_products: false }), 'Invalid configuration: new_products says where new products take their fields from, but create_missing_products is off: turn it on, or remove new_products.'],
    ];
    for (const [mapping, detail] of bad) {
      const used = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: csv, mapping, entityType: 'sales' });
      expect(used.status, JSON.stringify(used.json)).toBe(400);
      expect(used.json.detail).toBe(detail);
      const saved = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'np_bad', config: mapping }, token: shop.editor });
      expect(saved.status, saved.text).toBe(400);
      expect(saved.json.detail).toBe(used.json.detail);
    }
    const missingColumn = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: csv, mapping: shopifyMapping({ new_products: { name: 'Product title' } }), entityType: 'sales' });
    expect(missingColumn.status).toBe(400);
    expect(missingColumn.json.detail).toContain("The file has no column 'Product title' for new_products.name");
    expect([await count('products'), await count('sales')]).toEqual(before);
    const config = await shop.server.request('/api/yaml/config/', { token: shop.editor });
    expect(Object.keys((config.json.content as { mappings: object }).mappings)).not.toContain('np_bad');
  });

  it('previews which codes would become products and with which names, and proposes the name and type columns', async () => {
    const csv = `${header}\n#4001,2026-05-08,1,Fig Candle,NP-P1,Candles\n#4002,2026-05-08,1,Fig Candle,NP-P1,Candles\n#4003,2026-05-08,1,,NP-P2,\n#4004,2026-05-08,1,Whatever,NP-OLD,Other\n`;
    const previewOf = (mapping?: unknown) => previewOrders(csv, mapping);
    const proposed = await previewOf();
    expect(proposed.proposed_new_products).toEqual({ name: 'Lineitem name', category: 'Product type', unit: null, supplier: null });
    expect(proposed.new_products).toBeUndefined();
    const preview = await previewOf(shopifyMapping());
    expect(preview.new_product_count).toBe(2);
    expect(preview.new_products).toEqual([
      { code: 'NP-P1', values: { name: 'Fig Candle', category: 'Candles' } },
      { code: 'NP-P2', values: { name: 'NP-P2', category: null } },
    ]);
    expect(await productsOf('NP-P')).toEqual([]);

    // A German till's names, Square's (its item sales export names the product "Item"), an Australian shop's own CSV, a deli's.
    const files: [fileName: string, content: string, mapping: Record<string, string>, newProducts: Record<string, string | null>][] = [
      ['kasse.csv', 'Artikelnr;Bezeichnung;Warengruppe;Menge;Datum\nNP-K1;Gießkanne 5 l;Garten;2;03.05.2026\n', { product_id: 'Artikelnr', quantity: 'Menge', date: 'Datum' }, { name: 'Bezeichnung', category: 'Warengruppe', unit: null, supplier: null }],
      ['items.csv', 'Date,SKU,Product,Category,Qty,Price\n16/11/2026,NP-S1,Compost 20l,Garden,3,4.99\n', { product_id: 'SKU', quantity: 'Qty', date: 'Date' }, { name: 'Product', category: 'Category', unit: null, supplier: null }],
      ['item-sales.csv', 'Date,Time,Category,Item,Qty,SKU,Gross Sales\n05/12/2026,13:40,Candles,Fig Candle,2,WC-0012,$49.90\n', { product_id: 'SKU', quantity: 'Qty', date: 'Date' }, { name: 'Item', category: 'Category', unit: null, supplier: null }],
      ['wattle.csv', 'Item Code,Description,Qty Sold,Sale Date,Gross Sales (inc GST)\nWC-0012,Fig Candle,1,05/12/2026,$24.95\n', { product_id: 'Item Code', quantity: 'Qty Sold', date: 'Sale Date' }, { name: 'Description', category: null, unit: null, supplier: null }],
      // A deli's till writes each line's unit: new products take it (ADR 0177).
      ['deli.csv', 'Date,Item,Description,Qty (kg),Unit,Amount\n01/12/2026,NP-D1,Cheddar mature,0.25,kg,3.75\n', { product_id: 'Item', quantity: 'Qty (kg)', date: 'Date' }, { name: 'Description', category: null, unit: 'Unit', supplier: null }],
      // A shop system's order lines name each item's vendor: new products take it as their supplier (ADR 0184).
      ['lines.csv', 'Date,SKU,Item,Vendor,Qty\n01/12/2026,NP-V1,Fig Candle,Wattle Candles,2\n', { product_id: 'SKU', quantity: 'Qty', date: 'Date' }, { name: 'Item', category: null, unit: null, supplier: 'Vendor' }],
    ];
    for (const [fileName, content, mapping, newProducts] of files) {
      const answer = await postMultipart(shop.server, '/api/records/preview-file/', shop.editor, [
        { name: 'file', fileName, content },
        { name: 'entity_type', value: 'sales' },
      ]);
      expect(answer.json.proposed_mapping, fileName).toMatchObject(mapping);
      expect(answer.json.proposed_new_products, fileName).toEqual(newProducts);
    }
  });

  it('refuses a code differing from a stored one only in case and punctuation instead of creating it, in the import, its preview and an integration run', async () => {
    const before = [await count('products'), await count('sales')];
    // NP OLD and np.old are the stored NP-OLD mistyped; NP-TWIN-NEW is new; np-old is NP-OLD matched ignoring case.
    const csv = `${header}\n#5001,2026-05-09,1,Fir Candle,NP-TWIN-NEW,Candles\n#5002,2026-05-09,2,Beeswax,NP OLD,Candles\n#5003,2026-05-10,1,Beeswax,np-old,Candles\n#5004,2026-05-10,1,Beeswax,np.old,Candles\n`;
    const refused = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: csv, mapping: shopifyMapping(), entityType: 'sales' });
    expect(refused.status, JSON.stringify(refused.json)).toBe(400);
    expect(refused.json.row_error_count).toBe(2);
    expect(refused.json.row_errors).toEqual([
      { row: 3, field: 'product_id', column: 'Lineitem sku', reason: 'product code NP OLD does not exist: did you mean NP-OLD?' },
      { row: 5, field: 'product_id', column: 'Lineitem sku', reason: 'product code np.old does not exist: did you mean NP-OLD?' },
    ]);
    // A file import writes nothing when a row is refused: not the new product either.
    expect([await count('products'), await count('sales')]).toEqual(before);
    expect(await productsOf('NP-TWIN')).toEqual([]);

    const preview = await previewOrders(csv, shopifyMapping());
    expect(preview.new_products).toEqual([{ code: 'NP-TWIN-NEW', values: { name: 'Fir Candle', category: 'Candles' } }]);
    expect(preview.new_product_count).toBe(1);
    expect(preview.rows.map((row) => row.problems.product_id ?? null)).toEqual([null, 'product code NP OLD does not exist: did you mean NP-OLD?', null, 'product code np.old does not exist: did you mean NP-OLD?']);

    const outcome = await runCreatingProducts('np_twins', '/twins', [
      { day: '2026-06-03', sku: 'NP-TWIN-API', qty: 1 },
      { day: '2026-06-03', sku: 'NP OLD', qty: 4 },
      { day: '2026-06-04', sku: 'np-old', qty: 2 },
    ]);
    // The run sets the refused record aside and writes the others (a genuinely new code is still created).
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 1, created: 1 } });
    expect(await productsOf('NP-TWIN')).toEqual([{ code: 'NP-TWIN-API', name: 'NP-TWIN-API', category: null }]);
    expect(await productsOf('NP OLD')).toEqual([]);
    const sales = await sql<{ code: string; quantity: number }>`
      select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where s.date >= '2026-06-03' and p.product_code in ('NP-OLD', 'NP-TWIN-API') order by 1`.execute(shop.server.database.db);
    expect(sales.rows).toEqual([
      { code: 'NP-OLD', quantity: 2 },
      { code: 'NP-TWIN-API', quantity: 1 },
    ]);
  });

  it('refuses a code matching two stored codes but for punctuation, naming both, and a second spelling of a new code, naming its first row: in the import, its preview and a run', async () => {
    const stored = await importFile(shop.server, shop.editor, { fileName: 'p.csv', content: 'code,name\nNP-GAR-1018,Rake\nNP-GAR.1018,Rake (old code)\n', mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } }, entityType: 'products' });
    expect(stored.status, JSON.stringify(stored.json)).toBe(200);
    const before = [await count('products'), await count('sales')];
    // NP GAR 1018 is either stored code mistyped; np abc 1 (row 5) is row 3's new NP-ABC-1 written another way.
    const csv = `${header}\n#6001,2026-05-11,1,Rake,NP GAR 1018,Garden\n#6002,2026-05-11,1,Hose,NP-ABC-1,Garden\n#6003,2026-05-11,2,Hose reel,NP-ABC-2,Garden\n#6004,2026-05-12,1,Hose,np abc 1,Garden\n#6005,2026-05-12,1,Hose,NP-ABC-1,Garden\n`;
    const twoStored = 'product code NP GAR 1018 does not exist: did you mean NP-GAR-1018 or NP-GAR.1018?';
    const newTwin = 'product code np abc 1 does not exist: did you mean NP-ABC-1, new in row 3?';
    const refused = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: csv, mapping: shopifyMapping(), entityType: 'sales' });
    expect(refused.status, JSON.stringify(refused.json)).toBe(400);
    expect(refused.json).toMatchObject({ row_error_count: 2 });
    expect(refused.json.row_errors).toEqual([
      { row: 2, field: 'product_id', column: 'Lineitem sku', reason: twoStored },
      { row: 5, field: 'product_id', column: 'Lineitem sku', reason: newTwin },
    ]);
    expect([await count('products'), await count('sales')]).toEqual(before);
    // Without create_missing_products the code is refused all the same, with both suggestions.
    const plain = { entities: { sales: { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' } } } };
    const unknown = await importFile(shop.server, shop.editor, { fileName: 'o.csv', content: csv, mapping: plain, entityType: 'sales' });
    expect((unknown.json.row_errors as { row: number; reason: string }[])[0]).toEqual({ row: 2, field: 'product_id', column: 'Lineitem sku', reason: twoStored });

    const preview = await previewOrders(csv, shopifyMapping());
    expect(preview.new_products).toEqual([
      { code: 'NP-ABC-1', values: { name: 'Hose', category: 'Garden' } },
      { code: 'NP-ABC-2', values: { name: 'Hose reel', category: 'Garden' } },
    ]);
    expect(preview.new_product_count).toBe(2);
    expect(preview.rows.map((row) => row.problems.product_id ?? null)).toEqual([twoStored, null, null, newTwin, null]);

    const outcome = await runCreatingProducts('np_new_twins', '/new-twins', [
      { day: '2026-06-05', sku: 'NP-XYZ-1', qty: 1 },
      { day: '2026-06-05', sku: 'np.xyz.1', qty: 4 },
      { day: '2026-06-05', sku: 'NP GAR 1018', qty: 2 },
      { day: '2026-06-06', sku: 'NP-XYZ-1', qty: 2 },
    ]);
    // The run sets the two refused records aside, creates the first spelling only, and writes its lines.
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 2, created: 1 } });
    expect(await productsOf('NP-XYZ')).toEqual([{ code: 'NP-XYZ-1', name: 'NP-XYZ-1', category: null }]);
    expect(await productsOf('np.xyz')).toEqual([]);
  });

  it('an integration run through a saved mapping names its new products from the records’ fields', async () => {
    const mapping = {
      entities: {
        sales: {
          field_mappings: { product_id: 'line.sku', date: 'created_at', quantity: 'line.quantity' },
          create_missing_products: true,
          new_products: { name: 'line.title', category: 'line.product_type' },
        },
      },
    };
    const saved = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'np_orders', config: mapping }, token: shop.editor });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.mapping).toEqual(mapping);
    const { id, outcome } = await shop.runIntegrationOn(
      '/orders',
      [
        { created_at: '2026-06-01', line: { sku: 'NP-API-1', quantity: 2, title: 'Olive Oil Soap', product_type: 'Soap' } },
        { created_at: '2026-06-02', line: { sku: 'NP-API-1', quantity: 1, title: 'Olive Oil Soap', product_type: 'Soap' } },
        { created_at: '2026-06-02', line: { sku: 'NP-API-2', quantity: 1 } },
        { created_at: '2026-06-02', line: { sku: 'NP-OLD', quantity: 1, title: 'Not the stored name' } },
      ],
      { mapping_selection: 'np_orders', target_entity: 'sales' },
    );
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 4, created: 2 } });
    // The run's log says it as the import's answer does.
    const logs = await shop.server.request(`/api/integrations/scheduled/${id}/logs/`, { token: shop.editor });
    expect((logs.json.results as IntegrationLogEntry[])[0]).toMatchObject({ products_created: 2, summary: '2 new products created for unknown codes: NP-API-1 Olive Oil Soap and NP-API-2.' });
    expect(await productsOf('NP-API')).toEqual([
      { code: 'NP-API-1', name: 'Olive Oil Soap', category: 'Soap' },
      { code: 'NP-API-2', name: 'NP-API-2', category: null },
    ]);
    expect(await productsOf('NP-OLD')).toEqual([{ code: 'NP-OLD', name: 'Beeswax Candle', category: 'Candles' }]);
  });
});
