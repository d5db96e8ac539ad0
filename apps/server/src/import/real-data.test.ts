// Issue "Real data in" (server side): a shop's own files — sales lines by product code with
// timestamps and returns, stock counts, deliveries — in the shapes spreadsheets produce, imported
// into any entity; every refusal names its row and column in words.
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const salesMapping = (extra: Record<string, unknown> = {}) => ({ entities: { sales: { field_mappings: { product_id: 'StockCode', date: 'InvoiceDate', quantity: 'Quantity' }, ...extra } } });
const productMapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name', category: 'category', unit_cost: 'cost', current_stock: 'stock' } } } };

describe.each(backends)('real data in on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(() => server.stop());

  const addProducts = async (codes: string[]) => {
    const csv = `code,name,category,cost,stock\n${codes.map((code) => `${code},Product ${code},,,`).join('\n')}\n`;
    const result = await importFile(server, token, { fileName: 'products.csv', content: csv, mapping: productMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  };
  const salesOf = async (prefix: string) =>
    (
      await sql<{ product_code: string; date: string; quantity: number }>`
        select p.product_code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id
        where p.product_code like ${`${prefix}%`} order by p.product_code, s.date`.execute(server.database.db)
    ).rows;
  const idOf = async (code: string) => (await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', code).executeTakeFirstOrThrow()).id;

  it('looks products up by code: a numeric code equal to another product id lands on the product with that code', async () => {
    await addProducts(['RDI-A']);
    const otherId = await idOf('RDI-A');
    const numericCode = String(otherId);
    await addProducts([numericCode]);
    const result = await importFile(server, token, { fileName: 'sales.csv', content: `StockCode,InvoiceDate,Quantity\n${numericCode},2026-03-02,5\n`, mapping: salesMapping(), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const { rows } = await sql<{ product_id: number; quantity: number }>`select product_id, quantity from data.sales where date = '2026-03-02'`.execute(server.database.db);
    expect(rows).toEqual([{ product_id: await idOf(numericCode), quantity: 5 }]);
    expect(rows[0]?.product_id).not.toBe(otherId);
  });

  it('sums 102 transaction lines (timestamps, returns) into 16 product-days, and a re-import leaves the same data', async () => {
    const codes = ['RDS-1', 'RDS-2', 'RDS-3', 'RDS-4'];
    await addProducts(codes);
    const days = ['14/01/2026', '15/01/2026', '16/01/2026', '17/01/2026'];
    const lines: string[] = [];
    const expected = new Map<string, number>();
    for (let i = 0; i < 102; i++) {
      const code = codes[i % 4] as string;
      const day = days[Math.floor(i / 4) % 4] as string;
      const quantity = i % 17 === 0 ? -2 : (i % 5) + 1;
      lines.push(`${code},${day} ${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${quantity}`);
      const iso = `${day.slice(6)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
      expected.set(`${code} ${iso}`, (expected.get(`${code} ${iso}`) ?? 0) + quantity);
    }
    const csv = `StockCode,InvoiceDate,Quantity\n${lines.join('\n')}\n`;
    const first = await importFile(server, token, { fileName: 'lines.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ repeated_keys: 'sum', counts: { rows: 102, written: 16, inserted: 16, updated: 0, duplicates: 86 } });
    expect(first.json.message).toContain('Imported 102 lines into sales, added up into 16 rows, one per product and date: 16 inserted, 0 updated.');
    const stored = await salesOf('RDS-');
    expect(stored.length).toBe(16);
    expect(new Map(stored.map((r) => [`${r.product_code} ${r.date}`, r.quantity]))).toEqual(expected);
    const again = await importFile(server, token, { fileName: 'lines.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(again.json).toMatchObject({ counts: { rows: 102, written: 16, inserted: 0, updated: 16 } });
    // The same file again replaces its own totals (ADR 0164): nothing added, nothing to say.
    expect(again.json.message).not.toContain('Added to');
    expect(await salesOf('RDS-')).toEqual(stored);
    // One line more: the file's own total of that day changes, and no other source's is there to add to.
    const changed = await importFile(server, token, { fileName: 'lines.csv', content: `${csv}${lines[0]}\n`, mapping: salesMapping(), entityType: 'sales' });
    expect(changed.json).toMatchObject({ counts: { rows: 103, written: 16, inserted: 0, updated: 16 } });
    expect(changed.json.message).not.toContain('Added to');
  });

  it('refuses dates that could be day-first or month-first, and reads them with the mapping date format', async () => {
    await addProducts(['RDD-1']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDD-1,01/02/2026,1\nRDD-1,03/04/2026,2\n';
    const refused = await importFile(server, token, { fileName: 'ambiguous.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([{ row: 2, field: 'date', column: 'InvoiceDate', reason: expect.stringContaining('could be day-first (dd/mm/yyyy) or month-first (mm/dd/yyyy)') }]);
    expect(await salesOf('RDD-')).toEqual([]);
    const monthFirst = await importFile(server, token, { fileName: 'us.csv', content: csv, mapping: salesMapping({ date_format: 'mm/dd/yyyy' }), entityType: 'sales' });
    expect(monthFirst.status, JSON.stringify(monthFirst.json)).toBe(200);
    expect((await salesOf('RDD-')).map((r) => r.date)).toEqual(['2026-01-02', '2026-03-04']);
  });

  it('detects month-first from a later date and reads the earlier, ambiguous ones the same way', async () => {
    await addProducts(['RDM-1']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDM-1,2026-01-05,8\nRDM-1,2/3/2026 9:15,1\nRDM-1,2/25/2026 10:00 AM,2\nRDM-1,12/01/2026,4\n';
    const result = await importFile(server, token, { fileName: 'm.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect((await salesOf('RDM-')).map((r) => [r.date, r.quantity])).toEqual([
      ['2026-01-05', 8],
      ['2026-02-03', 1],
      ['2026-02-25', 2],
      ['2026-12-01', 4],
    ]);
  });

  it('refuses unknown codes naming row and code, or creates the products when asked', async () => {
    await addProducts(['RDU-1']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDU-1,2026-05-01,1\nRDU-NEW,2026-05-01T10:00:00Z,2\nRDU-NEW,2026-05-02,3\n';
    const refused = await importFile(server, token, { fileName: 'u.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      row_error_count: 2,
      row_errors: [
        { row: 3, field: 'product_id', column: 'StockCode', reason: "product code RDU-NEW does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
        { row: 4, field: 'product_id', column: 'StockCode', reason: "product code RDU-NEW does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
      ],
    });
    const created = await importFile(server, token, { fileName: 'u.csv', content: csv, mapping: salesMapping({ create_missing_products: true }), entityType: 'sales' });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({ counts: { created_references: 1, written: 3 } });
    const product = await server.database.db.selectFrom('data.products').select(['name']).where('product_code', '=', 'RDU-NEW').executeTakeFirstOrThrow();
    expect(product.name).toBe('RDU-NEW');
  });

  it("reports a row's own errors and unknown codes after it in one answer, in the file's row order", async () => {
    await addProducts(['RDB-1']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDB-1,2026-05-01,\nRDB-GONE,2026-05-01,2\nRDB-1,2026-05-02,x\nRDB-GONE,2026-05-03,1\n';
    const refused = await importFile(server, token, { fileName: 'b.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      row_error_count: 4,
      row_errors: [
        { row: 2, field: 'quantity', column: 'Quantity', reason: 'A value is required.' },
        { row: 3, field: 'product_id', column: 'StockCode', reason: "product code RDB-GONE does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
        { row: 4, field: 'quantity', column: 'Quantity', reason: 'Expected a number, found "x".' },
        { row: 5, field: 'product_id', column: 'StockCode', reason: "product code RDB-GONE does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
      ],
    });
    expect(await salesOf('RDB-')).toEqual([]);
  });

  it('names row and column for every refusal, never PostgreSQL text; negative quantities only where allowed', async () => {
    await addProducts(['RDE-1']);
    const deliveries = { entities: { deliveries: { field_mappings: { product_id: 'Item', expected_date: 'Due', quantity: 'Qty', status: 'Status' } } } };
    const csv = 'Item,Due,Qty,Status\nRDE-1,2026-06-01,10,scheduled\nRDE-1,2026-06-02,-3,scheduled\nRDE-1,2026-06-03,x,scheduled\nRDE-1,2026-06-31,1,scheduled\nRDE-1,2026-06-04,1,lost\n,2026-06-05,1,\n';
    const result = await importFile(server, token, { fileName: 'd.csv', content: csv, mapping: deliveries, entityType: 'deliveries' });
    expect(result.status).toBe(400);
    expect(result.json.row_errors).toEqual([
      { row: 3, field: 'quantity', column: 'Qty', reason: 'Must be more than 0.' },
      { row: 4, field: 'quantity', column: 'Qty', reason: 'Expected a number, found "x".' },
      { row: 5, field: 'expected_date', column: 'Due', reason: expect.stringContaining('not a real date') },
      {
        row: 6,
        field: 'status',
        column: 'Status',
        reason: 'lost is not one of the allowed values: scheduled, received, cancelled. Change the values in the file, say in the mapping what lost means (lost → one of those values), or leave Status unmapped: every row then gets scheduled (the default).',
      },
      { row: 7, field: 'product_id', column: 'Item', reason: 'A value is required.' },
    ]);
    expect(JSON.stringify(result.json)).not.toContain('Failing row');
    const returns = await importFile(server, token, { fileName: 'r.csv', content: 'StockCode,InvoiceDate,Quantity\nRDE-1,2026-06-01,-4\n', mapping: salesMapping(), entityType: 'sales' });
    expect(returns.status, JSON.stringify(returns.json)).toBe(200);
    expect(await salesOf('RDE-')).toEqual([{ product_code: 'RDE-1', date: '2026-06-01', quantity: -4 }]);
  });

  it("reads a German till's cells: two-digit years, codes in another case, 2,5 as two and a half (ADR 0176); an unknown code is refused in words", async () => {
    await addProducts(['RDT-0003', 'RDT-0004']);
    const mapping = { entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' }, decimal_separator: ',' } } };
    const good = 'Artikelnr;Datum;Menge\nrdt-0003;2.12.25;2\n RDT-0003 ;02.12.2025;1\nRdt-0004;3.12.25;4\n';
    const read = await importFile(server, token, { fileName: 'kasse.csv', content: good, mapping, entityType: 'sales' });
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect(read.json).toMatchObject({ counts: { rows: 3, written: 2 } });
    expect(await salesOf('RDT-')).toEqual([
      { product_code: 'RDT-0003', date: '2025-12-02', quantity: 3 },
      { product_code: 'RDT-0004', date: '2025-12-03', quantity: 4 },
    ]);
    const bad = 'Artikelnr;Datum;Menge\nRDT-0003;4.12.25;2,5\nrdt0004;4.12.25;1\nRDT-9999;4.12.25;1\n';
    const fraction = await importFile(server, token, { fileName: 'kasse-halb.csv', content: 'Artikelnr;Datum;Menge\nRDT-0003;5.12.25;2,5\n', mapping, entityType: 'sales' });
    expect(fraction.status, JSON.stringify(fraction.json)).toBe(200);
    expect((await salesOf('RDT-')).find((sale) => sale.date === '2025-12-05')).toEqual({ product_code: 'RDT-0003', date: '2025-12-05', quantity: 2.5 });
    const refused = await importFile(server, token, { fileName: 'kasse-bad.csv', content: bad, mapping, entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([
      { row: 3, field: 'product_id', column: 'Artikelnr', reason: 'product code rdt0004 does not exist: did you mean RDT-0004?' },
      { row: 4, field: 'product_id', column: 'Artikelnr', reason: "product code RDT-9999 does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
    ]);
  });

  it("reads back the Data screen's download of sales, whose Product column names each product `code — name`: corrected in a spreadsheet, it updates the same products' days", async () => {
    await addProducts(['RDL-1', 'RDL-2']);
    const first = await importFile(server, token, { fileName: 'kasse.csv', content: 'StockCode,InvoiceDate,Quantity\nRDL-1,2026-11-02,5\nRDL-2,2026-11-02,3\n', mapping: salesMapping(), entityType: 'sales' });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const filter = encodeURIComponent(JSON.stringify({ date: { gte: '2026-11-02', lte: '2026-11-02' } }));
    const download = await fetch(`${server.url}/api/records/tables/sales/export/?filters_json=${filter}`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    const csv = (await download.text()).replace(/^\uFEFF/, '');
    expect(csv).toContain('RDL-1 — Product RDL-1');
    const corrected = csv.replace(/(RDL-1 — Product RDL-1,2026-11-02,)5/, '$17');
    expect(corrected).not.toBe(csv);
    const mapping = { entities: { sales: { field_mappings: { product_id: 'Product', date: 'Date', quantity: 'Quantity' }, create_missing_products: true } } };
    const back = await importFile(server, token, { fileName: 'sales.csv', content: corrected, mapping, entityType: 'sales' });
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(back.json).toMatchObject({ counts: { rows: 2, inserted: 0, updated: 2, created_references: 0 } });
    expect(await salesOf('RDL-')).toEqual([
      { product_code: 'RDL-1', date: '2026-11-02', quantity: 7 },
      { product_code: 'RDL-2', date: '2026-11-02', quantity: 3 },
    ]);
    expect(await sql`select 1 from data.products where product_code like 'RDL-% — %'`.execute(server.database.db).then((r) => r.rows)).toEqual([]);
  });

  it("names the other lines of an unknown code's day, so the refused rows add up to the count", async () => {
    const csv = 'Datum;Artikelnr;Menge\n13.11.2026;RDQ-1;1\n13.11.2026;RDQ-1;2\n13.11.2026;RDQ-2;2\n13.11.2026;RDQ-1;-1\n';
    const refused = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping: { entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' } } } }, entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: '4 rows could not be imported; nothing was written.', row_error_count: 4 });
    expect(refused.json.row_errors).toEqual([
      { row: 2, field: 'product_id', column: 'Artikelnr', reason: "product code RDQ-1 does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen. The same goes for 2 more lines below with the same product and date.", lines: 3 },
      { row: 4, field: 'product_id', column: 'Artikelnr', reason: "product code RDQ-2 does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
    ]);
  });

  it("says a German till's 2.450 may be thousands grouped with points, and reads it as 2450 with a decimal comma", async () => {
    await addProducts(['RDG-1000']);
    const mapping = (extra: Record<string, unknown>) => ({ entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' }, ...extra } } });
    const csv = 'Datum;Artikelnr;Menge\n01.12.2026;RDG-1000;2.450\n02.12.2026;RDG-1000;12\n';
    const refused = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping: mapping({}), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([
      {
        row: 2,
        field: 'quantity',
        column: 'Menge',
        reason: "2.450 could be 2.45 or 2450: if it means 2450, the file groups thousands with points: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); if it means 2.45, the file writes decimal points: set Decimal separator to Point on the import screen (the mapping's decimal_separator).",
      },
    ]);
    const read = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping: mapping({ decimal_separator: ',' }), entityType: 'sales' });
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect(await salesOf('RDG-')).toEqual([
      { product_code: 'RDG-1000', date: '2026-12-01', quantity: 2450 },
      { product_code: 'RDG-1000', date: '2026-12-02', quantity: 12 },
    ]);
  });

  it("names the lines of a product and day that add up beyond what the column holds, beside the file's other errors, and writes nothing", async () => {
    await addProducts(['RDO-1000', 'RDO-1001']);
    const mapping = { entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' }, decimal_separator: ',' } } };
    const csv = 'Datum;Artikelnr;Menge\n01.12.2026;RDO-1000;60000000000\n01.12.2026;RDO-1001;5\n01.12.2026;RDO-9999;1\n01.12.2026;RDO-1001;2,5x\n01.12.2026;RDO-1000;50000000000\n02.12.2026;RDO-1000;3\n';
    const refused = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping, entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: '4 rows could not be imported; nothing was written.', row_error_count: 4 });
    expect(refused.json.row_errors).toEqual([
      { row: 4, field: 'product_id', column: 'Artikelnr', reason: "product code RDO-9999 does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
      { row: 5, field: 'quantity', column: 'Menge', reason: 'Expected a number, not 2,5x: x is not a unit the import reads (kg, g, mg, t, lb, lbs, oz, l, ml, cl, dl, m, cm, mm, in, ft, yd, or pcs for pieces); write the number alone.' },
      {
        row: 6,
        field: 'quantity',
        column: 'Menge',
        reason: 'Rows 2 and 6 (the same product and date): 60,000,000,000 + 50,000,000,000 = 110,000,000,000 is more than the Quantity column holds (at most 99,999,999,999.999).',
        lines: 2,
      },
    ]);
    expect(await salesOf('RDO-')).toEqual([]);
  });

  it('counts the lines added up beyond what the column holds when more than two share the day, and refuses returns below it too', async () => {
    await addProducts(['RDP-1', 'RDP-2']);
    const mapping = (extra: Record<string, unknown>) => ({ entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' }, ...extra } } });
    const lines = ['01.12.2026;RDP-1;60000000000', '01.12.2026;RDP-1;1', '01.12.2026;RDP-2;-60000000000', '01.12.2026;RDP-1;50000000000', '01.12.2026;RDP-2;-50000000000', '01.12.2026;RDP-1;7'];
    const csv = `Datum;Artikelnr;Menge;Bezeichnung\n${lines.map((line) => `${line};Gartenschere`).join('\n')}\n`;
    const returns = [6, 'Rows 4 and 6 (the same product and date): -60,000,000,000 - 50,000,000,000 = -110,000,000,000 is less than the Quantity column holds (at least -99,999,999,999.999).'];
    const beyond = ', which is more than the Quantity column holds (at most 99,999,999,999.999).';
    // Row 5 takes each sum beyond. Lines of a day are added up while the file is read (rows 3 and 7
    // into row 2); with new products' names riding along (create_missing_products), each line is staged and the database adds them up.
    for (const [extra, sales] of [
      [{}, [5, `Rows 2, 5 and 2 more lines of the same product and date add up to 110,000,000,008${beyond}`]],
      [{ create_missing_products: true, new_products: { name: 'Bezeichnung' } }, [5, `Rows 2, 3, 5 and 7 (the same product and date): 60,000,000,000 + 1 + 50,000,000,000 + 7 = 110,000,000,008 is more than the Quantity column holds (at most 99,999,999,999.999).`]],
    ] as const) {
      const refused = await importFile(server, token, { fileName: 'kasse.csv', content: csv, mapping: mapping(extra), entityType: 'sales' });
      expect(refused.status, JSON.stringify(refused.json)).toBe(400);
      expect(refused.json).toMatchObject({ row_error_count: 6 });
      expect((refused.json.row_errors as { row: number; reason: string }[]).map(({ row, reason }) => [row, reason])).toEqual([sales, returns]);
    }
    expect(await salesOf('RDP-')).toEqual([]);
  });

  it('matches a code in another case only when one stored code does, and then only if none matches exactly', async () => {
    await addProducts(['RDC-a', 'RDC-A', 'RDC-B']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDC-a,2026-03-02,1\nRDC-A,2026-03-02,2\nrdc-b,2026-03-02,3\n';
    const read = await importFile(server, token, { fileName: 'cases.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect(await salesOf('RDC-')).toEqual([
      { product_code: 'RDC-A', date: '2026-03-02', quantity: 2 },
      { product_code: 'RDC-B', date: '2026-03-02', quantity: 3 },
      { product_code: 'RDC-a', date: '2026-03-02', quantity: 1 },
    ]);
    const ambiguous = await importFile(server, token, { fileName: 'ambiguous.csv', content: 'StockCode,InvoiceDate,Quantity\nrdc-A,2026-03-03,1\n', mapping: salesMapping(), entityType: 'sales' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.row_errors).toEqual([{ row: 2, field: 'product_id', column: 'StockCode', reason: 'product code rdc-A does not exist: did you mean RDC-A or RDC-a?' }]);
  });

  it("updates the stored product when a stock take writes its code in another case or with spaces around it, never adding a second one; a code stored in two cases takes the exact one", async () => {
    await addProducts(['RDK-1012', 'RDK-1006', 'RDK-b', 'RDK-B']);
    const take = 'code,name,stock\nrdk-1012,Handschuhe Pro,960\n  RDK-1006 ,Saatmischung,7\nRDK-b,Lower b,3\nRDK-NEW,New one,5\n';
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: take, mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' } } } }, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 4, inserted: 1, updated: 3 } });
    const { rows } = await sql<{ product_code: string; current_stock: number }>`
      select product_code, current_stock from data.products where lower(product_code) like 'rdk-%' order by product_code collate "C"`.execute(server.database.db);
    expect(rows).toEqual([
      { product_code: 'RDK-1006', current_stock: 7 },
      { product_code: 'RDK-1012', current_stock: 960 },
      { product_code: 'RDK-B', current_stock: 0 },
      { product_code: 'RDK-NEW', current_stock: 5 },
      { product_code: 'RDK-b', current_stock: 3 },
    ]);
  });

  it('refuses sales and stock counts dated in the future or before 1970, naming the row; deliveries may be planned ahead', async () => {
    await addProducts(['RDF-1']);
    const nextYear = new Date().getUTCFullYear() + 1;
    const csv = `StockCode,InvoiceDate,Quantity\nRDF-1,2026-06-01,2\nRDF-1,31/12/2099,1\nRDF-1,3,4\nRDF-1,01/01/0001,1\n`;
    const sales = await importFile(server, token, { fileName: 's.csv', content: csv, mapping: salesMapping(), entityType: 'sales' });
    expect(sales.status).toBe(400);
    expect(sales.json.row_errors).toEqual([
      { row: 3, field: 'date', column: 'InvoiceDate', reason: expect.stringContaining('2099-12-31 is in the future') },
      // A small number in a date column reads as an Excel serial (3 January 1900): the wrong column, most likely.
      { row: 4, field: 'date', column: 'InvoiceDate', reason: expect.stringContaining('1900-01-03 is before 1970-01-01') },
      { row: 5, field: 'date', column: 'InvoiceDate', reason: expect.stringContaining('is before 1970-01-01') },
    ]);
    expect(await salesOf('RDF-')).toEqual([]);
    const counted = await importFile(server, token, {
      fileName: 'c.csv',
      content: `code,day,counted\nRDF-1,${nextYear}-01-15,7\n`,
      mapping: { entities: { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } } } },
      entityType: 'stock_snapshots',
    });
    expect(counted.json.row_errors).toEqual([{ row: 2, field: 'date', column: 'day', reason: expect.stringContaining('is in the future') }]);
    const today = new Date().toISOString().slice(0, 10);
    const planned = await importFile(server, token, {
      fileName: 'd.csv',
      content: `Item,Due,Qty\nRDF-1,${nextYear}-01-15,10\n`,
      mapping: { entities: { deliveries: { field_mappings: { product_id: 'Item', expected_date: 'Due', quantity: 'Qty' } } } },
      entityType: 'deliveries',
    });
    expect(planned.status, JSON.stringify(planned.json)).toBe(200);
    const todays = await importFile(server, token, { fileName: 't.csv', content: `StockCode,InvoiceDate,Quantity\nRDF-1,${today},3\n`, mapping: salesMapping(), entityType: 'sales' });
    expect(todays.status, JSON.stringify(todays.json)).toBe(200);
  });

  it('sums delivery lines of a product and day, and keeps the last of two stock counts of a day', async () => {
    await addProducts(['RDK-1']);
    const deliveries = { entities: { deliveries: { field_mappings: { product_id: 'Item', expected_date: 'Due', quantity: 'Qty' } } } };
    const delivered = await importFile(server, token, { fileName: 'd.csv', content: 'Item,Due,Qty\nRDK-1,2026-07-01,10\nRDK-1,2026-07-01,5\n', mapping: deliveries, entityType: 'deliveries' });
    expect(delivered.json).toMatchObject({ counts: { rows: 2, written: 1 } });
    const counted = await importFile(server, token, {
      fileName: 's.csv',
      content: 'code,day,counted\nRDK-1,2026-07-02,7\nRDK-1,2026-07-02,9\n',
      mapping: { entities: { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } } } },
      entityType: 'stock_snapshots',
    });
    expect(counted.json).toMatchObject({ repeated_keys: 'last', counts: { rows: 2, written: 1, duplicates: 1 } });
    const id = await idOf('RDK-1');
    const delivery = await server.database.db.selectFrom('data.deliveries').select(['quantity', 'status']).where('product_id', '=', id).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ quantity: 15, status: 'scheduled' });
    const snapshot = await server.database.db.selectFrom('data.stock_snapshots').select('stock_level').where('product_id', '=', id).executeTakeFirstOrThrow();
    expect(snapshot.stock_level).toBe(9);
  });

  it('refuses repeated keys when the entity says refuse', async () => {
    await addProducts(['RDR-1']);
    const entity = { table: 'stock_snapshots', key: ['product_id', 'date'], repeated_keys: 'refuse' };
    const admin = (await signUpUser(server)).access;
    expect((await server.request('/api/yaml/update-entity/', { token: admin, body: { entity_name: 'strict_counts', config: entity } })).status).toBe(200);
    const result = await importFile(server, token, {
      fileName: 's.csv',
      content: 'code,day,counted\nRDR-1,2026-08-01,1\nRDR-1,2026-08-02,2\nRDR-1,2026-08-01,3\n',
      mapping: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } },
      entityType: 'strict_counts',
    });
    expect(result.status).toBe(400);
    expect(result.json.row_errors).toEqual([{ row: 4, field: 'product_id, date', reason: expect.stringContaining('already appears in row 2') }]);
  });

  it('a mapping may say what to do with repeated keys instead of the entity', async () => {
    await addProducts(['RDM-1']);
    const result = await importFile(server, token, {
      fileName: 's.csv',
      content: 'code,day,counted\nRDM-1,2026-08-01,1\nRDM-1,2026-08-01,3\n',
      mapping: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' }, repeated_keys: 'refuse' },
      entityType: 'stock_snapshots',
    });
    expect(result.status).toBe(400);
    expect(result.json.row_errors).toEqual([{ row: 3, field: 'product_id, date', reason: expect.stringContaining('already appears in row 2') }]);
  });

  it('reads what spreadsheets write: blank cells, decimal commas, ; and tab separators, UTF-8 and UTF-16 BOMs, Excel serial dates', async () => {
    const semicolons = '\uFEFFcode;name;category;cost;stock\nRDW-1;Semi colon;;1.234,50;\nRDW-2;"Two; parts";Garden;0,75;3\n';
    // Without the mapping's decimal comma, the refusal says how the figure is written and what to choose.
    const plain = await importFile(server, token, { fileName: 'semi.csv', content: semicolons, mapping: productMapping, entityType: 'products' });
    expect(plain.status).toBe(400);
    expect(plain.json.row_errors).toEqual([2, 3].map((row) => ({ row, field: 'unit_cost', column: 'cost', reason: expect.stringContaining('decimal comma: set Decimal separator to Comma on the import screen') })));
    const commaMapping = { entities: { products: { ...productMapping.entities.products, decimal_separator: ',' } } };
    expect((await importFile(server, token, { fileName: 'semi.csv', content: semicolons, mapping: commaMapping, entityType: 'products' })).status).toBe(200);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('code\tname\tcategory\tcost\tstock\r\nRDW-3\tCafé crème\tDrinks\t2.5\t7\r\n', 'utf16le')]);
    const result16 = await importFile(server, token, { fileName: 'tab.csv', content: utf16, mapping: productMapping, entityType: 'products' });
    expect(result16.status, JSON.stringify(result16.json)).toBe(200);
    const { rows } = await sql<{ product_code: string; name: string; category: string | null; unit_cost: number; current_stock: number }>`
      select product_code, name, category, unit_cost, current_stock from data.products where product_code like 'RDW-%' order by product_code`.execute(server.database.db);
    expect(rows).toEqual([
      { product_code: 'RDW-1', name: 'Semi colon', category: null, unit_cost: 1234.5, current_stock: 0 },
      { product_code: 'RDW-2', name: 'Two; parts', category: 'Garden', unit_cost: 0.75, current_stock: 3 },
      { product_code: 'RDW-3', name: 'Café crème', category: 'Drinks', unit_cost: 2.5, current_stock: 7 },
    ]);
    const serial = await importFile(server, token, { fileName: 'serial.csv', content: 'StockCode,InvoiceDate,Quantity\nRDW-1,46023,2\n', mapping: salesMapping(), entityType: 'sales' });
    expect(serial.status, JSON.stringify(serial.json)).toBe(200);
    expect(await salesOf('RDW-1')).toEqual([{ product_code: 'RDW-1', date: '2026-01-01', quantity: 2 }]);
  });

  it('refuses a file with two columns of the name a field is mapped to, naming both, and changes nothing', async () => {
    await addProducts(['RDD-1']);
    const twice = 'code;name;name;stock\nRDD-1;a;b;5\n';
    const refused = await importFile(server, token, { fileName: 'dubbele-kop.csv', content: twice, mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' } } } }, entityType: 'products' });
    expect(refused.status).toBe(400);
    expect(String(refused.json.error)).toContain("The file has 2 columns named 'name' (columns 2 and 3), and name is mapped to it: rename one of them in the file");
    const { rows } = await sql<{ name: string; current_stock: number }>`select name, current_stock from data.products where product_code = 'RDD-1'`.execute(server.database.db);
    expect(rows).toEqual([{ name: 'Product RDD-1', current_stock: 0 }]);
    // A repeated column the mapping does not use is no one's business.
    const unused = await importFile(server, token, { fileName: 'notes.csv', content: 'code;name;stock;note;note\nRDD-1;Renamed;5;x;y\n', mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock' } } } }, entityType: 'products' });
    expect(unused.status, JSON.stringify(unused.json)).toBe(200);
  });

  it('names a header line inside the file and a currency sign in a quantity, and changes nothing', async () => {
    await addProducts(['RDH-1']);
    const pasted = 'code,name,cost,stock\nRDH-1,Whisk,2.5,1\ncode,name,cost,stock\nRDH-1,Whisk,\u20ac 2.00,\u20ac 2\n';
    const mapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name', unit_cost: 'cost', current_stock: 'stock' } } } };
    const refused = await importFile(server, token, { fileName: 'twee-bestanden.csv', content: pasted, mapping, entityType: 'products' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([
      { row: 3, field: 'product_code', column: 'code', reason: 'This line repeats the column names (a header line inside the file, as where two files were pasted into one): delete it from the file.' },
      { row: 4, field: 'current_stock', column: 'stock', reason: 'Expected a number, not \u20ac 2: it has a currency sign: save the column as plain numbers, without the sign.' },
    ]);
    const { rows } = await sql<{ name: string }>`select name from data.products where product_code = 'RDH-1'`.execute(server.database.db);
    expect(rows).toEqual([{ name: 'Product RDH-1' }]);
  });

  it("reads a web shop's numeric SKUs in JSON as the codes they show", async () => {
    const records = JSON.stringify([{ code: 4006381333931, name: 'Garlic press' }, { code: 12, name: 'Whisk' }]);
    const result = await importFile(server, token, { fileName: 'shop.json', content: records, type: 'application/json', mapping: { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } }, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const { rows } = await sql<{ product_code: string }>`select product_code from data.products where product_code in ('4006381333931', '12') order by product_code`.execute(server.database.db);
    expect(rows.map((row) => row.product_code)).toEqual(['12', '4006381333931']);
  });

  it('imports the first sheet of an .xlsx workbook, or the one the mapping names', async () => {
    await addProducts(['RDX-1']);
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['This sheet is not data']);
    const sales = workbook.addWorksheet('Sales');
    sales.addRow(['StockCode', 'InvoiceDate', 'Quantity']);
    sales.addRow(['RDX-1', new Date(Date.UTC(2026, 8, 1, 9, 30)), 3]);
    sales.addRow(['RDX-1', new Date(Date.UTC(2026, 8, 1, 15, 0)), { formula: '1+1', result: 2 }]);
    sales.addRow([{ richText: [{ text: 'RDX-' }, { text: '1' }] }, 46266, 1]);
    const content = new Uint8Array(await workbook.xlsx.writeBuffer());
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const first = await importFile(server, token, { fileName: 'book.xlsx', content, type, mapping: salesMapping(), entityType: 'sales' });
    expect(first.status).toBe(400);
    expect(String(first.json.error)).toContain("The file has no column 'StockCode' for product_id (its columns: 'This sheet is not data')");
    const chosen = await importFile(server, token, { fileName: 'book.xlsx', content, type, mapping: salesMapping({ sheet: 'Sales' }), entityType: 'sales' });
    expect(chosen.status, JSON.stringify(chosen.json)).toBe(200);
    expect(await salesOf('RDX-')).toEqual([{ product_code: 'RDX-1', date: '2026-09-01', quantity: 6 }]);
  });

  it("names an .xlsx cell holding an error (#N/A, a formula whose #DIV/0! result is not saved), not 'A value is required'", async () => {
    await addProducts(['RDV-1']);
    const workbook = new ExcelJS.Workbook();
    const sales = workbook.addWorksheet('Sales');
    sales.addRow(['StockCode', 'InvoiceDate', 'Quantity']);
    sales.addRow(['RDV-1', '2026-09-01', { formula: 'B2/0', result: { error: '#DIV/0!' } }]);
    sales.addRow(['RDV-1', '2026-09-02', { error: '#N/A' }]);
    const content = new Uint8Array(await workbook.xlsx.writeBuffer());
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const result = await importFile(server, token, { fileName: 'errors.xlsx', content, type, mapping: salesMapping(), entityType: 'sales' });
    expect(result.status).toBe(400);
    expect(result.json.row_errors).toEqual([
      { row: 2, field: 'quantity', column: 'Quantity', reason: expect.stringContaining('The cell holds the formula =B2/0 with no result saved in the file') },
      { row: 3, field: 'quantity', column: 'Quantity', reason: 'The cell holds the spreadsheet error #N/A: correct it, or leave the cell blank.' },
    ]);
    expect(await salesOf('RDV-')).toEqual([]);
  });

  it("imports into a user table's entity, its product column fed by code", async () => {
    await addProducts(['RDT-1']);
    const admin = (await signUpUser(server)).access;
    const columns = [
      { key: 'ref', type: 'CharField', max_length: 40, required: true, unique: true },
      { key: 'product', type: 'ForeignKey', related_table: 'products', required: true },
      { key: 'price', type: 'DecimalField', max_digits: 10, decimal_places: 2 },
    ];
    expect((await server.request('/api/records/tables/create/', { token: admin, body: { name: 'supplier prices', folder: 'Purchasing', columns } })).status).toBe(201);
    expect((await server.request('/api/yaml/update-entity/', { token: admin, body: { entity_name: 'supplier_prices', config: { table: 'supplier prices', key: ['ref'] } } })).status).toBe(200);
    const result = await importFile(server, token, {
      fileName: 'prices.csv',
      content: 'Ref;Item;Price\nSP-1;RDT-1;3,20\nSP-2;RDT-1;\n',
      mapping: { field_mappings: { ref: 'Ref', product: 'Item', price: 'Price' }, decimal_separator: ',' },
      entityType: 'supplier_prices',
    });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const rows = await server.request('/api/records/tables/supplier prices/data/?sort_by=ref', { token });
    const id = await idOf('RDT-1');
    expect((rows.json.results as Record<string, unknown>[]).map(({ ref, product, price }) => ({ ref, product, price }))).toEqual([
      { ref: 'SP-1', product: id, price: 3.2 },
      { ref: 'SP-2', product: id, price: null },
    ]);
  });

  it("skips a web shop's lines without a product code only when the mapping says so, and counts them", async () => {
    await addProducts(['RDSH-1', 'RDSH-2']);
    // A Shopify orders export: the zone after the time, a gift card and a tip without a SKU.
    const csv = [
      'Name,Created at,Lineitem quantity,Lineitem name,Lineitem sku',
      '#1001,2026-11-28 09:15:02 -0500,2,Hose,RDSH-1',
      '#1001,2026-11-28 09:15:02 -0500,1,Gift card,',
      '#1002,2026-11-29 23:45:10 -0500,3,Heater,rdsh-2',
      '#1003,2026-11-29 23:50:00 -0500,1,Tip,  ',
      '',
    ].join('\n');
    const mapping = (extra: Record<string, unknown>) => ({ entities: { sales: { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, ...extra } } });
    const refused = await importFile(server, token, { fileName: 'orders.csv', content: csv, mapping: mapping({}), entityType: 'sales' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_errors).toEqual([
      { row: 3, field: 'product_id', column: 'Lineitem sku', reason: 'A value is required.' },
      { row: 5, field: 'product_id', column: 'Lineitem sku', reason: 'A value is required.' },
    ]);
    expect(await salesOf('RDSH-')).toEqual([]);

    const skipped = await importFile(server, token, { fileName: 'orders.csv', content: csv, mapping: mapping({ skip_rows_without_code: true }), entityType: 'sales' });
    expect(skipped.status, JSON.stringify(skipped.json)).toBe(200);
    expect(skipped.json.counts).toMatchObject({ rows: 2, written: 2, skipped: 2 });
    expect(skipped.json.message).toBe('Imported 2 rows into sales: 2 inserted, 0 updated. 2 lines without a product code were skipped.');
    expect(await salesOf('RDSH-')).toEqual([
      { product_code: 'RDSH-1', date: '2026-11-28', quantity: 2 },
      { product_code: 'RDSH-2', date: '2026-11-29', quantity: 3 },
    ]);
  });

  it("leaves out a web shop's refunded and voided orders, every line of them, though only an order's first line says so", async () => {
    await addProducts(['RDRF-1', 'RDRF-2']);
    // Shopify writes Financial Status (and Paid at, …) on an order's first line only. #2002's last
    // line comes after another order's; #2004 was partly refunded: the export does not say which line.
    const csv = [
      'Name,Email,Financial Status,Paid at,Created at,Lineitem quantity,Lineitem name,Lineitem sku',
      '#2001,anna@example.com,paid,2026-11-20 10:01:00 -0500,2026-11-20 10:00:00 -0500,2,Hose,RDRF-1',
      '#2001,,,,2026-11-20 10:00:00 -0500,1,Heater,RDRF-2',
      '#2001,,,,2026-11-20 10:00:00 -0500,1,Gift card,',
      '#2002,ben@example.com,refunded,2026-11-20 11:01:00 -0500,2026-11-20 11:00:00 -0500,5,Hose,RDRF-1',
      '#2002,,,,2026-11-20 11:00:00 -0500,4,Heater,RDRF-2',
      '#2002,,,,2026-11-20 11:00:00 -0500,1,Gift card,',
      '#2003,cleo@example.com,Voided ,,2026-11-21 09:00:00 -0500,3,Hose,RDRF-1',
      '#2002,,,,2026-11-20 11:00:00 -0500,2,Hose,RDRF-1',
      '#2004,dan@example.com,partially_refunded,2026-11-21 12:01:00 -0500,2026-11-21 12:00:00 -0500,1,Heater,RDRF-2',
      '#2004,,,,2026-11-21 12:00:00 -0500,1,Hose,RDRF-1',
      '',
    ].join('\n');
    const refunds = { column: 'Financial Status', values: ['refunded', 'voided'], blank_means_same_as: 'Name' };
    const mapping = (filters: unknown) => ({ entities: { sales: { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, skip_rows_without_code: true, skip_rows_where: filters } } });
    const expected = [
      { product_code: 'RDRF-1', date: '2026-11-20', quantity: 2 },
      { product_code: 'RDRF-1', date: '2026-11-21', quantity: 1 },
      { product_code: 'RDRF-2', date: '2026-11-20', quantity: 1 },
      { product_code: 'RDRF-2', date: '2026-11-21', quantity: 1 },
    ];
    // Read as the file arrives, and spooled first: the same filter on both paths.
    for (const fieldsFirst of [true, false]) {
      const answer = await importFile(server, token, { fileName: 'orders_export.csv', content: csv, mapping: mapping([refunds]), entityType: 'sales', fieldsFirst });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      expect(answer.json.counts).toMatchObject({ rows: 4, written: 4, skipped: 1, filtered: 5, filtered_by: [{ column: 'Financial Status', values: ['refunded', 'voided'], lines: 5 }] });
      expect(answer.json.message).toMatch(/ 1 line without a product code was skipped\. 5 lines of orders whose Financial Status is refunded or voided were left out\.$/);
      expect(await salesOf('RDRF-')).toEqual(expected);
    }
    const logged = await server.database.db.selectFrom('import_logs').select('details').where('file_name', '=', 'orders_export.csv').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect((logged.details as { counts: unknown }).counts).toMatchObject({ filtered: 5, filtered_by: [{ column: 'Financial Status', lines: 5 }] });

    // Without the order column, only the lines that say refunded are left out.
    await sql`delete from data.sales where product_id in (select id from data.products where product_code like 'RDRF-%')`.execute(server.database.db);
    const firstLines = await importFile(server, token, { fileName: 'orders_export.csv', content: csv, mapping: mapping([{ column: 'Financial Status', values: ['refunded', 'voided'] }]), entityType: 'sales' });
    expect(firstLines.json.counts).toMatchObject({ rows: 6, skipped: 2, filtered: 2 });
    expect(firstLines.json.message).toMatch(/ 2 lines whose Financial Status is refunded or voided were left out\.$/);
  });

  it.each([
    ['a column the file lacks', [{ column: 'Financial state', values: ['refunded'] }], "The file has no column 'Financial state' for the mapping's \"leave out lines where\""],
    ['an order column the file lacks', [{ column: 'Financial Status', values: ['refunded'], blank_means_same_as: 'Order' }], "The file has no column 'Order'"],
    ['an empty list of values', [{ column: 'Financial Status', values: [] }], 'skip_rows_where.0.values: List at least one value to leave out.'],
    ['a NUL in a value', [{ column: 'Financial Status', values: ['re\u0000funded'] }], 'skip_rows_where.0.values.0: Text may not contain NUL'],
  ])('refuses a row filter with %s with a 400 naming it, and writes nothing', async (_name, filters, message) => {
    await addProducts(['RDRB-1']);
    const csv = 'Name,Financial Status,Created at,Lineitem quantity,Lineitem sku\n#1,paid,2026-11-20 10:00:00 -0500,2,RDRB-1\n';
    for (const fieldsFirst of [true, false]) {
      const answer = await importFile(server, token, { fileName: 'orders.csv', content: csv, mapping: { entities: { sales: { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, skip_rows_where: filters } } }, entityType: 'sales', fieldsFirst });
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect(answer.json.error).toContain(message);
    }
    expect(await salesOf('RDRB-')).toEqual([]);
  });

  it('saves a mapping with its row filter, refuses a bad one at save naming the path, and says when every line was left out', async () => {
    const filter = { column: 'Financial Status', values: ['refunded'], blank_means_same_as: 'Name' };
    const sales = (filters: unknown) => ({ entities: { sales: { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, skip_rows_where: filters } } });
    const saved = await server.request('/api/yaml/save-mapping/', { body: { name: 'rd_shopify', config: sales([filter]) }, token });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.json.mapping as { entities: { sales: { skip_rows_where: unknown } } }).entities.sales.skip_rows_where).toEqual([filter]);
    const refused = await server.request('/api/yaml/save-mapping/', { body: { name: 'rd_shopify_bad', config: sales([{ column: 'Financial Status', values: [] }]) }, token });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('skip_rows_where');
    expect(refused.text).toContain('List at least one value to leave out.');

    await addProducts(['RDRA-1']);
    const csv = 'Name,Financial Status,Created at,Lineitem quantity,Lineitem sku\n#1,refunded,2026-11-20 10:00:00 -0500,2,RDRA-1\n#1,,2026-11-20 10:00:00 -0500,1,RDRA-1\n';
    const all = await importFile(server, token, { fileName: 'orders.csv', content: csv, mapping: sales([filter]), entityType: 'sales' });
    expect(all.status).toBe(400);
    expect(all.json.error).toBe('Nothing to import: every line of the file was left out (2 by the mapping\'s "leave out lines where").');
    expect(await salesOf('RDRA-')).toEqual([]);
  });

  it('takes the multipart fields before or after the file', async () => {
    await addProducts(['RDF-1']);
    const csv = 'StockCode,InvoiceDate,Quantity\nRDF-1,2026-10-01,1\n';
    expect((await importFile(server, token, { fileName: 'after.csv', content: csv, mapping: salesMapping(), entityType: 'sales' })).status).toBe(200);
    expect((await importFile(server, token, { fileName: 'before.csv', content: csv, mapping: salesMapping(), entityType: 'sales', fieldsFirst: true })).status).toBe(200);
  });
});
