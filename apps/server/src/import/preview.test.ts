// POST /api/records/preview-file/: what the mapping builder reads of a file — through the
// import's own parsing — and that it writes nothing.
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_MAX_BYTES, type PreviewFileResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart, type UploadPart } from '../testing/uploads.ts';
import { CREATE_PRODUCTS_OPTION, fileImportWayOut } from './target.ts';

describe.each(backends)('file preview on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const products = { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } };
    await importFile(server, token, { fileName: 'p.csv', content: 'code,name\n85123A,White hanging heart\n22423,Cake stand\n', mapping: products, entityType: 'products' });
  });
  afterAll(() => server.stop());

  const preview = async (parts: UploadPart[]) => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, parts);
    return { status: result.status, json: result.json as PreviewFileResponse & { error?: string } };
  };
  const file = (fileName: string, content: string | Uint8Array, type?: string): UploadPart => ({ name: 'file', fileName, content, ...(type ? { type } : {}) });

  it("reads a shop's own sales file: header, raw rows, targets, a proposed mapping, the date format, problems per cell", async () => {
    const csv = 'InvoiceNo;StockCode;Description;Quantity;InvoiceDate;UnitPrice\n536365;85123A;WHITE HANGING HEART;6;01/12/2010 08:26;2,55\n536366;22423;CAKE STAND;x;13/12/2010 08:28;1,85\n536367;99999X;UNKNOWN;-1;14/12/2010 09:00;1\n';
    const salesCountBefore = (await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(server.database.db)).rows[0]?.n;
    const { status, json } = await preview([file('online-retail.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({
      format: 'csv',
      separator: ';',
      header: ['InvoiceNo', 'StockCode', 'Description', 'Quantity', 'InvoiceDate', 'UnitPrice'],
      raw_rows: [['536365', '85123A', 'WHITE HANGING HEART', '6', '01/12/2010 08:26', '2,55'], expect.any(Array), expect.any(Array)],
      proposed_mapping: { product_id: 'StockCode', date: 'InvoiceDate', quantity: 'Quantity' },
      date_format: { detected: 'dd/mm/yyyy', ambiguous: false, candidates: ['dd/mm/yyyy'] },
    });
    expect(json.targets).toEqual([
      { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
      { field: 'date', label: 'Date', type: 'DateField', required: true },
      { field: 'quantity', label: 'Quantity', type: 'DecimalField', decimal_places: 3, required: true },
    ]);
    expect(json.rows).toEqual([
      { row: 2, values: { product_id: '85123A', date: '2010-12-01', quantity: 6 }, problems: {} },
      { row: 3, values: { product_id: '22423', date: '2010-12-13', quantity: 'x' }, problems: { quantity: 'Expected a number, found "x".' } },
      { row: 4, values: { product_id: '99999X', date: '2010-12-14', quantity: -1 }, problems: { product_id: "product code 99999X does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." } },
    ]);
    expect((await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(server.database.db)).rows[0]?.n).toBe(salesCountBefore);
  });

  it.each([
    ['a German sales export', 'sales', 'Belegnr;Artikelnr.;Bezeichnung;Menge;Datum;VK-Preis\n1;85123A;Herz;6;01.12.2010;2,55\n', { product_id: 'Artikelnr.', date: 'Datum', quantity: 'Menge' }],
    ['a French product list', 'products', 'Référence;Désignation;Famille;Quantité en stock;Prix d\'achat;Délai de livraison\n85123A;Cœur;Déco;4;2,10;7\n', { product_code: 'Référence', name: 'Désignation', category: 'Famille', current_stock: 'Quantité en stock', unit: null, unit_cost: "Prix d'achat", supplier: null, lead_time_days: 'Délai de livraison' , order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    // A deli's list: the unit of measure by its own name, never by the first word of "Unit cost" (ADR 0177).
    ['a deli product list with a unit', 'products', 'SKU,Name,Unit,Unit cost\nCHE-001,Cheddar,kg,9.80\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: null, unit: 'Unit', unit_cost: 'Unit cost', supplier: null, lead_time_days: null , order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a product list with a unit price and no unit', 'products', 'SKU,Name,Cost,Unit price\nCHE-001,Cheddar,9.80,14.50\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: null, unit: null, unit_cost: 'Cost', supplier: null, lead_time_days: null , order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a German product list with Mengeneinheit', 'products', 'Artikelnr.;Bezeichnung;ME;EK-Preis\n85123A;Käse;kg;9,80\n', { product_code: 'Artikelnr.', name: 'Bezeichnung', category: null, current_stock: null, unit: 'ME', unit_cost: 'EK-Preis', supplier: null, lead_time_days: null , order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    // What the supplier sells (ADR 0183), by the names price lists give them; "Units" and a "Pack" description are neither.
    ['a supplier price list with a case size and a minimum order', 'products', 'SKU,Name,Units,Pack,Case size,MOQ,Cost price\nHWB-24,Hot-water bottle,12,Single,24,48,3.10\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: null, unit: null, unit_cost: 'Cost price', supplier: null, lead_time_days: null, order_multiple: 'Case size', min_order_quantity: 'MOQ', made_here: null, not_stocked: null }],
    ['a German supplier list with VPE and Mindestbestellmenge', 'products', 'Artikelnr.;Bezeichnung;VPE;Mindestbestellmenge;EK-Preis\n85123A;Wärmflasche;24;48;3,10\n', { product_code: 'Artikelnr.', name: 'Bezeichnung', category: null, current_stock: null, unit: null, unit_cost: 'EK-Preis', supplier: null, lead_time_days: null, order_multiple: 'VPE', min_order_quantity: 'Mindestbestellmenge', made_here: null, not_stocked: null }],
    ['a French product list naming its Fournisseur', 'products', 'Référence;Désignation;Fournisseur;Code fournisseur\n85123A;Bouillotte;Grossiste Martin;GM-99\n', { product_code: 'Référence', name: 'Désignation', category: null, current_stock: null, unit: null, unit_cost: null, supplier: 'Fournisseur', lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a Spanish product list naming its Proveedor', 'products', 'Código;Nombre;Proveedor\n85123A;Bolsa de agua;Mayorista Sol\n', { product_code: 'Código', name: 'Nombre', category: null, current_stock: null, unit: null, unit_cost: null, supplier: 'Proveedor', lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['an Italian product list naming its Fornitore', 'products', 'Codice;Descrizione;Fornitore\n85123A;Borsa;Grossista Rossi\n', { product_code: 'Codice', name: 'Descrizione', category: null, current_stock: null, unit: null, unit_cost: null, supplier: 'Fornitore', lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a French supplier list with its colisage', 'products', 'Référence;Désignation;Colisage;Quantité minimum de commande\n85123A;Bouillotte;24;48\n', { product_code: 'Référence', name: 'Désignation', category: null, current_stock: null, unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: 'Colisage', min_order_quantity: 'Quantité minimum de commande', made_here: null, not_stocked: null }],
    // A Dutch garden centre's ERP: the case size is its Colli, the minimum its Minimale afname (QA garden centre F4).
    ['a Dutch product list with Colli and Minimale afname', 'products', 'Artikelcode;Omschrijving;Groep;Leverancier;Eenheid;Inkoopprijs;Voorraad;Levertijd;Colli;Minimale afname\nPERK-101;Geranium rood;Perkplanten;Floralia BV;stuk;0,85;16;3;12;24\n', { product_code: 'Artikelcode', name: 'Omschrijving', category: 'Groep', current_stock: 'Voorraad', unit: 'Eenheid', unit_cost: 'Inkoopprijs', supplier: 'Leverancier', lead_time_days: 'Levertijd', order_multiple: 'Colli', min_order_quantity: 'Minimale afname', made_here: null, not_stocked: null }],
    // Of an inner and an outer pack the inner; "Min. order qty" by its whole name.
    ['a wholesale list with inner and outer packs', 'products', 'Item code,Description,Outer pack,Inner pack,Min. order qty\nHWB-24,Hot-water bottle,48,12,24\n', { product_code: 'Item code', name: 'Description', category: null, current_stock: null, unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: 'Inner pack', min_order_quantity: 'Min. order qty', made_here: null, not_stocked: null }],
    // A level to keep is not the stock on hand, nor a quantity: "Minimum stock" beside no stock column proposes none.
    ['a product list with minimum and safety stock levels', 'products', 'SKU,Name,Minimum stock,Safety_stock,ReorderQty\nHWB-24,Hot-water bottle,20,10,48\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: null, unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    // A café's own baking and coffee (ADR 0194), by a whole name only: "House blend" is no column of it.
    ['a café product list with a Made in house column', 'products', 'SKU,Name,House blend,Supplier,Made in house\nCRO-1,Croissant,no,,yes\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: null, unit: null, unit_cost: null, supplier: 'Supplier', lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: 'Made in house', not_stocked: null }],
    // An ERP's product kind (ADR 0200): Odoo's Product Type beside its Product Category; a kind column alone is the kind, never the category.
    ['an Odoo product list with Product Type', 'products', 'Internal Reference,Name,Product Category,Product Type,Cost\nSERV_DEL,Delivery Charge,All / Saleable / Services,Service,0\nPAP_A4,Copier Paper,All / Saleable / Paper,Storable Product,3\n', { product_code: 'Internal Reference', name: 'Name', category: 'Product Category', current_stock: null, unit: null, unit_cost: 'Cost', supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: 'Product Type' }],
    ['a QuickBooks item list with Type and no category', 'products', 'Item,Description,Type,Cost\nDEL,Delivery,Non-inventory,0\nWID,Widget,Inventory,2\n', { product_code: 'Item', name: 'Description', category: null, current_stock: null, unit: null, unit_cost: 'Cost', supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: 'Type' }],
    ['a German product list with Produkttyp', 'products', 'Artikelnr.;Bezeichnung;Warengruppe;Produkttyp\nVERS;Versand;Dienste;Dienstleistung\nK-1;Käse;Feinkost;Lagerartikel\n', { product_code: 'Artikelnr.', name: 'Bezeichnung', category: 'Warengruppe', current_stock: null, unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: 'Produkttyp' }],
    // A shop's own Type (Shopify's Shirts, Knitwear) is its category, not a kind.
    ['a product list whose Type is its own grouping', 'products', 'SKU,Name,Type\nSH-1,Linen shirt,Shirts\nKN-1,Jumper,Knitwear\n', { product_code: 'SKU', name: 'Name', category: 'Type', current_stock: null, unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a product list with stock on hand beside its minimum', 'products', 'SKU,Name,Min stock,Stock on hand\nHWB-24,Hot-water bottle,20,35\n', { product_code: 'SKU', name: 'Name', category: null, current_stock: 'Stock on hand', unit: null, unit_cost: null, supplier: null, lead_time_days: null, order_multiple: null, min_order_quantity: null, made_here: null, not_stocked: null }],
    ['a Spanish stock count', 'stock_snapshots', 'Código,Fecha,Existencias\n85123A,31/01/2011,12\n', { product_id: 'Código', date: 'Fecha', stock_level: 'Existencias' }],
    ['a German stock count', 'stock_snapshots', 'Zähldatum;Artikelnr.;Gezählt\n30.11.2026;85123A;12\n', { product_id: 'Artikelnr.', date: 'Zähldatum', stock_level: 'Gezählt' }],
    ['a Dutch delivery list', 'deliveries', 'Artikelcode;Leverdatum;Aantal;Status\n85123A;31-01-2011;12;scheduled\n', { product_id: 'Artikelcode', expected_date: 'Leverdatum', quantity: 'Aantal', status: 'Status' }],
    // Web shops qualify their names: the name's last or first word is read after every whole name.
    [
      "a Shopify orders export",
      'sales',
      'Name,Email,Financial Status,Paid at,Currency,Subtotal,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku\n#1001,a@example.com,paid,2010-12-01 09:15:02 -0500,USD,25.00,2010-12-01 09:15:02 -0500,2,Heart,12.50,85123A\n',
      { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' },
    ],
    // Square's and Lightspeed's item sales: the code is the SKU, "Product" the item's name (product_id's label is "Product").
    ['a British till export with SKU and Product', 'sales', 'Date,SKU,Product,Qty,Price\n16/11/2026,GS-1002,Compost 20l,3,4.99\n', { product_id: 'SKU', date: 'Date', quantity: 'Qty' }],
    ['a sales file naming the product by code in Product', 'sales', 'Date,Product,Qty\n16/11/2026,GS-1002,3\n', { product_id: 'Product', date: 'Date', quantity: 'Qty' }],
    ['an Amazon order report', 'sales', 'amazon-order-id\tpurchase-date\tsku\tquantity-purchased\n1\t2010-12-01T09:15:02+00:00\t85123A\t2\n', { product_id: 'sku', date: 'purchase-date', quantity: 'quantity-purchased' }],
  ] as [string, string, string, Record<string, string | null>][])("proposes the columns of %s by their own names", async (_name, entity, csv, proposed) => {
    const { status, json } = await preview([file('shop.csv', csv), { name: 'entity_type', value: entity }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.proposed_mapping).toEqual(proposed);
  });

  // ADR 0200's amendment: the column reads yes or no only; the kind words come with the proposal as its value map.
  it.each([
    ['an Odoo product list', 'Internal Reference,Name,Product Type\nSERV_DEL,Delivery Charge,Service\nPAP_A4,Copier Paper,Storable Product\nPEN,Pen,Consumable\nDEL2,Delivery,service\n', { Service: 'true', 'Storable Product': 'false', Consumable: 'false' }],
    ['a QuickBooks item list', 'Item,Description,Type\nDEL,Delivery,Non-inventory\nWID,Widget,Inventory\n', { 'Non-inventory': 'true', Inventory: 'false' }],
    ['a German product list', 'Artikelnr.;Bezeichnung;Produkttyp\nVERS;Versand;Dienstleistung\nK-1;Käse;Lagerartikel\n', { Dienstleistung: 'true', Lagerartikel: 'false' }],
    ['a list whose Non-stock column says yes or no', 'SKU,Name,Non-stock\nDEL,Delivery,yes\nWID,Widget,no\n', undefined],
  ])("proposes a value map of the kind words of %s, and reads the rows through it", async (_name, csv, kindMap) => {
    const { status, json } = await preview([file('products.csv', csv), { name: 'entity_type', value: 'products' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.proposed_value_maps).toEqual(kindMap && { not_stocked: kindMap });
    expect(json.rows.map((row) => row.problems)).toEqual(json.rows.map(() => ({})));
    expect(json.rows[0]?.values['not_stocked']).toBe(true);
    // A given mapping is read as it says: no map proposed, and the kind words are the column's refusals to be said as true or false.
    const given = { field_mappings: Object.fromEntries(Object.entries(json.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)) };
    const read = await preview([file('products.csv', csv), { name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(given) }]);
    expect(read.json.proposed_value_maps).toBeUndefined();
    expect(read.json.refused_choices).toEqual(kindMap && [{ field: 'not_stocked', values: Object.keys(kindMap), choices: ['true', 'false'] }]);
  });

  it('says which stored code an unknown one was meant to be, as the import does', async () => {
    const csv = 'Artikelnr;Datum;Menge\n85123 a;01.12.2010;1\n85123-A;13.12.2010;2\n99999X;13.12.2010;1\n';
    const mapping = { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' } };
    const { status, json } = await preview([file('kasse.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.rows.map((row) => row.problems)).toEqual([
      { product_id: 'product code 85123 a does not exist: did you mean 85123A?' },
      { product_id: 'product code 85123-A does not exist: did you mean 85123A?' },
      { product_id: "product code 99999X does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
    ]);
    const imported = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping: { entities: { sales: mapping } }, entityType: 'sales' });
    expect((imported.json.row_errors as { reason: string }[]).map((error) => error.reason)).toEqual(json.rows.map((row) => row.problems.product_id));
  });

  it("reads a proposal's decimal numbers the way the file writes them, and a given mapping as it says", async () => {
    const csv = 'Artikelnr;Bezeichnung;EK-Preis\nDC-1;Kerze;1,25\nDC-2;Lichterkette;1.234,50\n';
    const proposal = await preview([file('artikel.csv', csv), { name: 'entity_type', value: 'products' }]);
    expect(proposal.json.decimal_separator).toEqual({ detected: ',', used: ',' });
    expect(proposal.json.rows.map((r) => [r.values.unit_cost, r.problems])).toEqual([[1.25, {}], [1234.5, {}]]);
    // The web writes them with the column's places (1.50), as the Data grid does; a quantity's 3 as far as the figure needs them (ADR 0176).
    expect(proposal.json.targets.filter((t) => t.type === 'DecimalField' || t.field === 'current_stock').map((t) => [t.field, t.decimal_places])).toEqual([
      ['current_stock', 3],
      ['unit_cost', 2],
      ['order_multiple', 3],
      ['min_order_quantity', 3],
    ]);

    const mapping = { field_mappings: { product_code: 'Artikelnr', name: 'Bezeichnung', unit_cost: 'EK-Preis' } };
    const given = await preview([file('artikel.csv', csv), { name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(given.json.decimal_separator).toEqual({ detected: ',', used: '.' });
    expect(given.json.rows[0]?.problems.unit_cost).toContain('decimal comma');

    const points = await preview([file('items.csv', 'sku,name,cost\nDP-1,Candle,1.25\n'), { name: 'entity_type', value: 'products' }]);
    expect(points.json.decimal_separator).toEqual({ detected: '.', used: '.' });
  });

  it('says when dates are ambiguous, and reads them with a chosen format', async () => {
    const csv = 'sku,date,qty\n85123A,01/02/2011,1\n85123A,03/04/2011,2\n';
    const ambiguous = await preview([file('a.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(ambiguous.json.date_format).toEqual({ detected: null, ambiguous: true, candidates: ['dd/mm/yyyy', 'mm/dd/yyyy'] });
    expect(ambiguous.json.rows[0]?.problems.date).toContain('every day in the file is 12 or less');
    // Of the file's head only (the web sends its first 256 KiB), the words say so, and what the import will do (QA8 F22).
    const head = await preview([file('a.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'file_part', value: 'head' }, { name: 'locale', value: 'en-GB' }]);
    // Undecided in the lines read is not a refusal (the import decides over the whole file): said with the date format, not on the rows (ADR 0193's amendment, F3).
    expect(head.json.rows.map((r) => r.problems)).toEqual([{}, {}]);
    expect(head.json.date_format.undecided_in_lines_read).toBe(
      'dates like 01/02/2011 could be day-first (dd/mm/yyyy) or month-first (mm/dd/yyyy): every day in the 2 lines read is 12 or less. The import reads the whole file and takes the order from its first day past the 12th; shown here day-first, as your browser writes dates. To be sure, choose the date format in the mapping.',
    );
    const chosen = await preview([file('a.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'date_format', value: 'mm/dd/yyyy' }]);
    expect(chosen.json.date_format).toMatchObject({ detected: 'mm/dd/yyyy', ambiguous: false });
    expect(chosen.json.rows.map((r) => r.values.date)).toEqual(['2011-01-02', '2011-03-04']);
  });

  it("shows a month-first till's dates as the import stores them, though its first slashed dates could be either", async () => {
    // A US till (Mill Street Hardware's POS export): 12/05/2024 decided only by a later 12/13/2024.
    const csv = 'Date,SKU,Qty,Type\n2024-12-05,85123A,9,SALE\n12/05/2024,85123A,2,SALE\n12/5/24,22423,1,SALE\n12/13/2024,22423,4,SALE\n';
    const { status, json } = await preview([file('pos-history.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.date_format).toMatchObject({ detected: 'mm/dd/yyyy', ambiguous: false });
    expect(json.rows.map((r) => r.values.date)).toEqual(['2024-12-05', '2024-12-05', '2024-12-05', '2024-12-13']);
  });

  it("shows an undecided file's dates month-first for a US shop, still asking for the format", async () => {
    const csv = 'Date,SKU,Qty\n12/03/2026,85123A,2\n11/02/2026,22423,1\n12/01/2026,85123A,4\n';
    const asRead = (parts: UploadPart[]) => preview([file('ambig.csv', csv), { name: 'entity_type', value: 'sales' }, ...parts]);
    const newYork = await asRead([{ name: 'time_zone', value: 'America/New_York' }]);
    expect(newYork.json.date_format).toEqual({ detected: null, ambiguous: true, candidates: ['dd/mm/yyyy', 'mm/dd/yyyy'] });
    expect(newYork.json.rows.map((r) => r.values.date)).toEqual(['2026-12-03', '2026-11-02', '2026-12-01']);
    expect(newYork.json.rows[0]?.problems.date).toContain('Choose the date format in the mapping.');
    const usBrowser = await asRead([{ name: 'time_zone', value: 'Europe/Berlin' }, { name: 'locale', value: 'en-US' }]);
    expect(usBrowser.json.rows.map((r) => r.values.date)).toEqual(['2026-12-03', '2026-11-02', '2026-12-01']);
    // The language says more than the zone: a British browser in New York, and a Canadian shop, read day-first.
    const britishBrowser = await asRead([{ name: 'time_zone', value: 'America/New_York' }, { name: 'locale', value: 'en-GB' }]);
    expect(britishBrowser.json.rows.map((r) => r.values.date)).toEqual(['2026-03-12', '2026-02-11', '2026-01-12']);
    const toronto = await asRead([{ name: 'time_zone', value: 'America/Toronto' }, { name: 'locale', value: 'en-CA' }]);
    expect(toronto.json.rows.map((r) => r.values.date)).toEqual(['2026-03-12', '2026-02-11', '2026-01-12']);
    // A person who chose "Day first" in Profile on a US laptop (ADR 0167's amendment): their choice, not the browser's.
    const choose = async (date_order: string) => expect((await server.request('/api/accounts/me/preferences/', { method: 'PUT', token, body: { date_order } })).status).toBe(200);
    await choose('day-first');
    try {
      const chosen = await asRead([{ name: 'time_zone', value: 'America/New_York' }, { name: 'locale', value: 'en-US' }, { name: 'file_part', value: 'head' }]);
      expect(chosen.json.rows.map((r) => r.values.date)).toEqual(['2026-03-12', '2026-02-11', '2026-01-12']);
      expect(chosen.json.date_format.undecided_in_lines_read).toContain('shown here day-first, as you chose in Profile.');
    } finally {
      await choose('browser');
    }
    expect((await asRead([{ name: 'locale', value: 'en-US' }, { name: 'file_part', value: 'head' }])).json.date_format.undecided_in_lines_read).toContain('shown here month-first, as your browser writes dates.');
  });

  it('follows a given mapping, lists dotted keys of JSON records, and previews the head of a large file', async () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({ item: { sku: '85123A' }, sold: { on: '2011-01-05', units: i } }));
    const json = JSON.stringify(records);
    expect(json.length).toBeGreaterThan(PREVIEW_MAX_BYTES);
    const mapping = { field_mappings: { product_id: 'item.sku', date: 'sold.on', quantity: 'sold.units' } };
    const answer = await preview([{ name: 'mapping_config', value: JSON.stringify(mapping) }, { name: 'entity_type', value: 'sales' }, file('export.json', json, 'application/json')]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ format: 'json', header: ['item.sku', 'sold.on', 'sold.units'], raw_rows: [['85123A', '2011-01-05', 0], expect.any(Array), expect.any(Array), expect.any(Array), expect.any(Array)] });
    expect(answer.json.rows[4]).toEqual({ row: 5, values: { product_id: '85123A', date: '2011-01-05', quantity: 4 }, problems: {} });
    expect(answer.json.warning).toContain('JSON');
  });
  it("proposes a web shop's nested JSON by the last part of each path, and takes a code in another case as the stored one", async () => {
    const orders = JSON.stringify([{ id: 7, created_at: '2011-01-31T10:00:00Z', item: { sku: '85123a', title: 'Herz' }, qty: 2 }]);
    const { status, json } = await preview([file('orders.json', orders, 'application/json'), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.proposed_mapping).toEqual({ product_id: 'item.sku', date: 'created_at', quantity: 'qty' });
    expect(json.rows).toEqual([{ row: 1, values: { product_id: '85123a', date: '2011-01-31', quantity: 2 }, problems: {} }]);
  });

  it('shows the lines the import will skip for a blank product code, when the mapping skips them', async () => {
    const csv = 'Lineitem sku,Created at,Lineitem quantity\n85123A,2011-01-31 10:00:00 -0500,2\n,2011-01-31 10:05:00 -0500,1\n';
    const mapping = { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, skip_rows_without_code: true };
    const { status, json } = await preview([file('orders.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.rows).toEqual([
      { row: 2, values: { product_id: '85123A', date: '2011-01-31', quantity: 2 }, problems: {} },
      // Read as the other lines are (ADR 0167 amendment 2026-12-06): its date the day, its quantity a number; the blank code as found.
      { row: 3, values: { product_id: '', date: '2011-01-31', quantity: 1 }, problems: {}, skipped: true },
    ]);
  });

  it("proposes skipping a shop file's lines without a product code (gift cards, discounts, shipping), and the import counts them as skipped, not refused", async () => {
    const csv = [
      'Name,Created at,Lineitem quantity,Lineitem name,Lineitem sku',
      '#1001,2011-01-31 10:00:00 -0500,2,Heart,85123A',
      '#1001,2011-01-31 10:00:00 -0500,1,Gift card,',
      '#1002,2011-01-31 11:00:00 -0500,1,Discount,',
      '#1002,2011-01-31 11:00:00 -0500,3,Cake stand,22423',
      '#1003,2011-01-31 12:00:00 -0500,1,Shipping,  ',
      '',
    ].join('\n');
    const proposal = await preview([file('orders_export.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(proposal.status, JSON.stringify(proposal.json)).toBe(200);
    expect(proposal.json).toMatchObject({ blank_code_lines: 3, proposed_skip_rows_without_code: true });
    expect(proposal.json.rows.filter((row) => row.skipped).map((row) => row.row)).toEqual([3, 4, 6]);
    expect(proposal.json.rows.every((row) => !Object.keys(row.problems).length)).toBe(true);

    // A mapping given (the user switched it off, or a saved one without it): counted, not proposed, and the lines read as the mapping says.
    const mapping = { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' } };
    const switchedOff = await preview([file('orders_export.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(switchedOff.json.blank_code_lines).toBe(3);
    expect(switchedOff.json.proposed_skip_rows_without_code).toBeUndefined();
    expect(switchedOff.json.rows.filter((row) => row.problems.product_id).map((row) => row.row)).toEqual([3, 4, 6]);

    // The import with the proposed mapping, as the screen saves it: the lines skipped and counted, nothing refused.
    const proposed = { ...mapping, skip_rows_without_code: true };
    const imported = await importFile(server, token, { fileName: 'orders_export.csv', content: csv, mapping: { entities: { sales: proposed } }, entityType: 'sales' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    expect(imported.json.counts).toMatchObject({ rows: 2, skipped: 3 });
    expect(imported.json.message).toContain('3 lines without a product code were skipped.');
    await sql`delete from data.sales where date = '2011-01-31'`.execute(server.database.db);

    // Every line without a code is no shop file's extra lines but a code mapped wrong: nothing proposed.
    const noCodes = await preview([file('orders_export.csv', 'Lineitem sku,Created at,Lineitem quantity\n,2011-01-31,1\n,2011-01-31,2\n'), { name: 'entity_type', value: 'sales' }]);
    expect(noCodes.json.blank_code_lines).toBeUndefined();
    expect(noCodes.json.proposed_skip_rows_without_code).toBeUndefined();
  });

  it("proposes leaving out refunded orders whose status sits beside each line as order.financial_status (a nested feed's lines, QA feed F3)", async () => {
    const lines = JSON.stringify([
      { sku: '85123A', quantity: 2, order: { id: 1001, created_at: '2011-01-31T10:00:00-06:00', financial_status: 'paid' } },
      { sku: '71053', quantity: 5, order: { id: 1003, created_at: '2011-01-31T12:00:00-06:00', financial_status: 'refunded' } },
    ]);
    const { status, json } = await preview([file('lines.json', lines, 'application/json'), { name: 'entity_type', value: 'sales' }]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.proposed_row_filters).toEqual([{ column: 'order.financial_status', values: ['refunded'] }]);
    expect(json.rows.map((row) => row.left_out ?? null)).toEqual([null, { column: 'order.financial_status', value: 'refunded' }]);
  });

  it("proposes leaving out a web shop's refunded and voided orders, lists a column's values, and marks the lines it leaves out", async () => {
    const csv = [
      'Name,Financial Status,Created at,Lineitem quantity,Lineitem sku',
      '#1001,paid,2011-01-31 10:00:00 -0500,2,85123A',
      '#1002,refunded,2011-01-31 11:00:00 -0500,1,85123A',
      '#1002,,2011-01-31 11:00:00 -0500,3,71053',
      '#1003,voided,2011-01-31 12:00:00 -0500,1,71053',
      '#1004,partially_refunded,2011-01-31 13:00:00 -0500,1,71053',
      '#1001,,2011-01-31 10:00:00 -0500,1,71053',
    ].join('\n');
    const proposal = await preview([file('orders_export.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(proposal.status, JSON.stringify(proposal.json)).toBe(200);
    const refunds = { column: 'Financial Status', values: ['refunded', 'voided'], blank_means_same_as: 'Name' };
    expect(proposal.json.proposed_row_filters).toEqual([refunds]);
    expect(proposal.json.column_values?.['Financial Status']).toEqual([
      { value: 'paid', lines: 1 },
      { value: 'refunded', lines: 1 },
      { value: 'voided', lines: 1 },
      { value: 'partially_refunded', lines: 1 },
    ]);
    expect(proposal.json.column_values?.['Name']).toEqual([
      { value: '#1001', lines: 2 },
      { value: '#1002', lines: 2 },
      { value: '#1003', lines: 1 },
      { value: '#1004', lines: 1 },
    ]);
    // The proposal's rows are read with the filter proposed: #1002's second line inherits its first line's status.
    expect(proposal.json.rows.map((row: { row: number; left_out?: unknown }) => [row.row, row.left_out ?? null])).toEqual([
      [2, null],
      [3, { column: 'Financial Status', value: 'refunded' }],
      [4, { column: 'Financial Status', value: 'refunded' }],
      [5, { column: 'Financial Status', value: 'voided' }],
      [6, null],
    ]);
    expect(proposal.json.rows[1]).toEqual({ row: 3, values: { product_id: '85123A', date: '2011-01-31', quantity: 1 }, problems: {}, left_out: { column: 'Financial Status', value: 'refunded' } });

    // A given mapping is read with its own filters only: none here.
    const mapping = { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' } };
    const given = await preview([file('orders_export.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify(mapping) }]);
    expect(given.json.rows.filter((row: { left_out?: unknown }) => row.left_out)).toEqual([]);
    expect(given.json.proposed_row_filters).toEqual([refunds]);
    // A filter on a column the file lacks is shown, not refused: the screen lets it be removed.
    const elsewhere = await preview([file('orders_export.csv', csv), { name: 'entity_type', value: 'sales' }, { name: 'mapping_config', value: JSON.stringify({ ...mapping, skip_rows_where: [{ column: 'Status', values: ['refunded'] }] }) }]);
    expect(elsewhere.status, JSON.stringify(elsewhere.json)).toBe(200);
    expect(elsewhere.json.rows.filter((row: { left_out?: unknown }) => row.left_out)).toEqual([]);
  });

  it('proposes no filter for a status column a field reads, nor for values that do not undo a sale', async () => {
    const csv = 'Name,Status,Date,Quantity,SKU\n#1,paid,2011-01-31,2,85123A\n#2,partially_refunded,2011-01-31,1,85123A\n';
    const { json } = await preview([file('orders.csv', csv), { name: 'entity_type', value: 'sales' }]);
    expect(json.proposed_row_filters).toBeUndefined();
    const deliveries = await preview([file('lieferungen.csv', 'Artikel;Liefertermin;Menge;Status\n85123A;14.06.2027;10;storniert\n'), { name: 'entity_type', value: 'deliveries' }]);
    expect(deliveries.json.proposed_mapping.status).toBe('Status');
    expect(deliveries.json.proposed_row_filters).toBeUndefined();
  });

  it("lists an .xlsx workbook's sheets and reads the chosen one", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Summary').addRow(['Totals']);
    const counts = workbook.addWorksheet('Counts');
    counts.addRow(['Product code', 'Counted on', 'Stock']);
    counts.addRow(['85123A', new Date(Date.UTC(2011, 0, 31)), 12]);
    const content = new Uint8Array(await workbook.xlsx.writeBuffer());
    const answer = await preview([file('counts.xlsx', content, 'application/octet-stream'), { name: 'entity_type', value: 'stock_snapshots' }, { name: 'sheet', value: 'Counts' }]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({
      format: 'xlsx',
      sheets: ['Summary', 'Counts'],
      header: ['Product code', 'Counted on', 'Stock'],
      proposed_mapping: { product_id: 'Product code', date: 'Counted on', stock_level: 'Stock' },
      rows: [{ row: 2, values: { product_id: '85123A', date: '2011-01-31', stock_level: 12 }, problems: {} }],
    });
  });

  it.each([
    ['no file', [{ name: 'entity_type', value: 'sales' }], 'Choose a file to preview.'],
    ['an unknown entity', [file('a.csv', 'a\n1\n'), { name: 'entity_type', value: 'nope' }], 'No mapping found for entity type: nope'],
    ['a bad date format', [file('a.csv', 'a\n1\n'), { name: 'entity_type', value: 'sales' }, { name: 'date_format', value: 'yyyy' }], 'date_format must be one of'],
    ['a compressed file', [file('a.csv', new Uint8Array([0x1f, 0x8b, 8, 0])), { name: 'entity_type', value: 'sales' }], 'compressed files are not supported'],
  ] as [string, UploadPart[], string][])('refuses %s with a 400', async (_name, parts, message) => {
    const answer = await preview(parts);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain(message);
  });
});

it("names the Import screen's option for unknown codes in the words its label shows", async () => {
  const locale = JSON.parse(await readFile(new URL('../../../web/public/locales/en/common.json', import.meta.url), 'utf8')) as { import: { builder: { createMissing: string } } };
  expect(locale.import.builder.createMissing).toBe(CREATE_PRODUCTS_OPTION);
  expect(fileImportWayOut).toContain(`'${locale.import.builder.createMissing}'`);
});
