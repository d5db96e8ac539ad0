// A US hardware store's files (QA pass 6, Mill Street Hardware, America/New_York): a product list
// whose costs are written as US money (`"$1,119.63"`, `"1,179.69"`), and a POS export with
// month-first dates, SALE / RETURN / VOID lines and Subtotal / Grand Total lines at its end.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportLogEntry, PreviewFileResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

type RowError = { row: number; field: string; reason: string };

const productList = [
  'SKU,UPC,Description,Department,On Hand,Unit Cost,Retail Price,Lead Time (days)',
  'HW-10000,012345000003,"Snow Shovel 18in",Snow & Ice,103,"$699.77","$1,119.63",18',
  'HW-10001,012345000072,"Propane Grill 3-Burner",Grilling,150,"1,179.69","$68.67",10',
  'HW-10002,012345000140,"Mulch 2 cu ft",Lawn & Garden,30,"$1,234,567.89","$51.63",16',
  'HW-10003,012345000218,"Christmas Lights LED 100ct",Holiday,57,"$14.58","$23.33",11',
].join('\n');
const products = (extra: Record<string, unknown> = {}) => ({
  entities: { products: { field_mappings: { product_code: 'SKU', name: 'Description', current_stock: 'On Hand', unit_cost: 'Unit Cost', lead_time_days: 'Lead Time (days)' }, ...extra } },
});

const posExport = [
  'Date,Time,Trans #,Register,SKU,Description,Qty,Ext Price,Type',
  '2024-12-05,1:14 PM,100001,R1,HW-10000,"Snow Shovel 18in",9,"$717.84",SALE',
  '12/05/2024,10:44 AM,100002,R1,HW-10001,"Propane Grill 3-Burner",2,"$22.12",SALE',
  '12/5/24,1:31 PM,100003,R1,HW-10002,"Mulch 2 cu ft",1,"$58.75",SALE',
  '12/05/2024,9:02 PM,100004,R1,HW-10001,"Propane Grill 3-Burner",-1,"-$11.06",RETURN',
  '12/06/2024,9:05 AM,100005,R1,HW-10003,"Christmas Lights LED 100ct",5,"$116.65",VOID',
  '12/07/2024,9:07 AM,100006,R1,,,,,No Sale',
  '12/13/2024,4:20 PM,100007,R2,HW-10003,"Christmas Lights LED 100ct",3,"$69.99",SALE',
  ',,,,Subtotal,,,"$123,456.78",',
  ',,,,Grand Total,,,"$130,000.00",',
].join('\n');
const sales = (extra: Record<string, unknown> = {}) => ({ entities: { sales: { field_mappings: { product_id: 'SKU', date: 'Date', quantity: 'Qty' }, ...extra } } });

describe.each(backends)("a US hardware store's files on %s", (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  const costs = async () => (await sql<{ code: string; cost: string | null }>`select product_code as code, unit_cost::text as cost from data.products where product_code like 'HW-%' order by 1`.execute(server.database.db)).rows;
  const preview = async (fileName: string, content: string, entityType: string) => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: entityType }, { name: 'time_zone', value: 'America/New_York' }, { name: 'file', fileName, content }]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return result.json as PreviewFileResponse;
  };

  it('proposes a catalogue\'s "Item #" as the product code and "Case Pack" as the order multiple (QA feed F1)', async () => {
    const catalogue = 'Item #,Description,Vendor,Case Pack,Cost,On Hand,Lead Days\nHW-101,Wood screws,Fastenal,12,$4.25,40,7\n';
    const previewed = await preview('products.csv', catalogue, 'products');
    expect(previewed.proposed_mapping).toMatchObject({ product_code: 'Item #', name: 'Description', supplier: 'Vendor', order_multiple: 'Case Pack', unit_cost: 'Cost', current_stock: 'On Hand', lead_time_days: 'Lead Days' });
  });

  it('reads US money with thousands commas and a dollar sign, as the preview shows it', async () => {
    const previewed = await preview('products.csv', productList, 'products');
    expect(previewed.decimal_separator).toEqual({ detected: '.', used: '.' });
    expect(previewed.rows.map((row) => [row.values.unit_cost, row.problems])).toEqual([
      [699.77, {}],
      [1179.69, {}],
      [1234567.89, {}],
      [14.58, {}],
    ]);
    const result = await importFile(server, token, { fileName: 'products.csv', content: productList, mapping: products(), entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await costs()).toEqual([
      { code: 'HW-10000', cost: '699.77' },
      { code: 'HW-10001', cost: '1179.69' },
      { code: 'HW-10002', cost: '1234567.89' },
      { code: 'HW-10003', cost: '14.58' },
    ]);
  });

  it('refuses 1,234 without a decimal part while the decimal point is not chosen, and reads it once it is; 1.234,56 with the decimal comma', async () => {
    const undecided = 'SKU,Description,Unit Cost\nHW-10000,Snow Shovel 18in,"1,234"\n';
    const refused = await importFile(server, token, { fileName: 'p.csv', content: undecided, mapping: products({ field_mappings: { product_code: 'SKU', name: 'Description', unit_cost: 'Unit Cost' } }), entityType: 'products' });
    expect(refused.status).toBe(400);
    expect((refused.json.row_errors as RowError[])[0]?.reason).toBe(
      "Expected a number, not 1,234: it is written with a decimal comma: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); or it has commas between thousands: save the column without thousands separators.",
    );
    const point = await importFile(server, token, { fileName: 'p.csv', content: undecided, mapping: products({ field_mappings: { product_code: 'SKU', name: 'Description', unit_cost: 'Unit Cost' }, decimal_separator: '.' }), entityType: 'products' });
    expect(point.status, JSON.stringify(point.json)).toBe(200);
    expect((await costs())[0]).toEqual({ code: 'HW-10000', cost: '1234.00' });
    const comma = await importFile(server, token, { fileName: 'p.csv', content: 'SKU;Description;Unit Cost\nHW-10000;Snow Shovel 18in;1.234,56\n', mapping: products({ field_mappings: { product_code: 'SKU', name: 'Description', unit_cost: 'Unit Cost' }, decimal_separator: ',' }), entityType: 'products' });
    expect(comma.status, JSON.stringify(comma.json)).toBe(200);
    expect((await costs())[0]).toEqual({ code: 'HW-10000', cost: '1234.56' });
  });

  it("proposes leaving out a till's VOID and No Sale lines, never its RETURN lines, and skips its Subtotal and Grand Total lines", async () => {
    const previewed = await preview('pos-history.csv', posExport, 'sales');
    expect(previewed.proposed_row_filters).toEqual([{ column: 'Type', values: ['VOID', 'No Sale'] }]);
    expect(previewed.date_format).toMatchObject({ detected: 'mm/dd/yyyy', ambiguous: false });
    expect(previewed.rows.map((row) => [row.row, row.values.date ?? null, row.left_out?.value ?? null])).toEqual([
      [2, '2024-12-05', null],
      [3, '2024-12-05', null],
      [4, '2024-12-05', null],
      [5, '2024-12-05', null],
      // A line left out reads its date as the others (ADR 0167 amendment 2026-12-06): month first, as the file's order is.
      [6, '2024-12-06', 'VOID'],
    ]);
    const totalsLines = await preview('pos-end.csv', 'Date,SKU,Qty,Ext Price\n12/13/2024,HW-10003,3,$69.99\n,Subtotal,,"$123,456.78"\n,Grand Total,,"$130,000.00"\n', 'sales');
    expect(totalsLines.rows.map((row) => [row.row, row.totals_line ?? null, row.problems])).toEqual([
      [2, null, {}],
      [3, 'Subtotal', {}],
      [4, 'Grand Total', {}],
    ]);

    const result = await importFile(server, token, { fileName: 'pos-history.csv', content: posExport, mapping: sales({ skip_rows_where: previewed.proposed_row_filters }), entityType: 'sales', extra: { time_zone: 'America/New_York' } });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.message).toBe(
      'Imported 5 lines into sales, added up into 4 rows, one per product and date: 4 inserted, 0 updated. 2 totals lines (Subtotal, Grand Total) were skipped. 2 lines whose Type is VOID or No Sale were left out. Dates were read month-first (mm/dd/yyyy).',
    );
    const stored = await sql<{ code: string; date: string; quantity: number }>`select p.product_code as code, s.date::text as date, s.quantity from data.sales s join data.products p on p.id = s.product_id order by 2, 1`.execute(server.database.db);
    // The RETURN line nets HW-10001's sale of the day.
    expect(stored.rows).toEqual([
      { code: 'HW-10000', date: '2024-12-05', quantity: 9 },
      { code: 'HW-10001', date: '2024-12-05', quantity: 1 },
      { code: 'HW-10002', date: '2024-12-05', quantity: 1 },
      { code: 'HW-10003', date: '2024-12-13', quantity: 3 },
    ]);
    const log = await server.request(`/api/records/imports/${result.json.import_id as string}/`, { token });
    // Said on its own: the notices are what the import did not change (QA garden centre F15).
    expect((log.json as ImportLogEntry).details.dates_read).toBe('Dates were read month-first (mm/dd/yyyy).');
    expect((log.json as ImportLogEntry).details.notices).toBeUndefined();
  });
});
