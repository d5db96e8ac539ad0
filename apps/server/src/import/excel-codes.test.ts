// Barcodes Excel damaged (QA pass 5, #23): a till export opened in Excel and saved writes EAN-13
// codes as 5.01235E+12 (digits lost) and drops the leading zero of 0501234567890. Such a code is
// never created as a product: scientific notation is refused naming row and column, and a code
// that is a stored code without its leading zeros is read as that product and said so — in CSV,
// .xlsx and an integration run's JSON, over HTTP on both databases.
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

type RowError = { row: number; field: string; column?: string; reason: string };
type Preview = { rows: { row: number; problems: Record<string, string> }[]; new_products?: { code: string }[] };

const sales = (extra: Record<string, unknown> = {}) => ({ entities: { sales: { field_mappings: { product_id: 'EAN', date: 'Datum', quantity: 'Menge' }, date_format: 'dd.mm.yyyy', ...extra } } });
const damagedReason =
  '5.01235E+12 is not a code any more: Excel turned the codes of column EAN into numbers and saved this one shortened, its last digits lost, so it cannot be matched to a product or created as one. Format column EAN as Text in Excel before saving (or import the CSV exported straight from the till).';

describe.each(backends)('barcodes Excel damaged, on %s', (backend) => {
  const { server, source: till, admin: token, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  beforeAll(async () => {
    // Two barcodes with a leading zero, one without; 0000123 and 00123 lose their zeros into one code.
    const catalogue = 'Code,Name\n0501234567890,Compost\n0401234567891,Trowel\n5012345678900,Rake\n0000123,Twine small\n00123,Twine large\n';
    const result = await importFile(server(), token(), { fileName: 'products.csv', content: catalogue, mapping: { entities: { products: { field_mappings: { product_code: 'Code', name: 'Name' } } } }, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  });

  const productCount = async () => (await sql<{ n: number }>`select count(*)::int as n from data.products`.execute(server().database.db)).rows[0]?.n;
  const soldOn = async (day: string) =>
    (await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where s.date = ${day} order by 1`.execute(server().database.db)).rows;

  it('refuses a code in scientific notation, naming its row and column, with or without creating products, and the preview says so', async () => {
    const file = 'Datum;EAN;Menge\n01.11.2026;0501234567890;2\n01.11.2026;5.01235E+12;1\n01.11.2026;5,01235E+12;1\n';
    const before = await productCount();
    for (const extra of [{}, { create_missing_products: true }]) {
      const result = await importFile(server(), token(), { fileName: 'till.csv', content: file, mapping: sales(extra), entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(400);
      const errors = (result.json as { row_errors: RowError[] }).row_errors;
      expect(errors).toEqual([
        expect.objectContaining({ row: 3, field: 'product_id', column: 'EAN', reason: damagedReason }),
        expect.objectContaining({ row: 4, field: 'product_id', column: 'EAN', reason: damagedReason.replaceAll('5.01235E+12', '5,01235E+12') }),
      ]);
    }
    expect(await productCount()).toBe(before);
    expect(await soldOn('2026-11-01')).toEqual([]);
    const preview = await postMultipart(server(), '/api/records/preview-file/', token(), [
      { name: 'entity_type', value: 'sales' },
      { name: 'mapping_config', value: JSON.stringify(sales({ create_missing_products: true }).entities.sales) },
      { name: 'file', fileName: 'till.csv', content: file },
    ]);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const previewed = preview.json as unknown as Preview;
    expect(previewed.rows.map((row) => row.problems.product_id ?? null)).toEqual([null, damagedReason, damagedReason.replaceAll('5.01235E+12', '5,01235E+12')]);
    expect(previewed.new_products ?? []).toEqual([]);
  });

  it('reads a barcode that lost its leading zero as the stored one, and says so, without creating products', async () => {
    const file = 'Datum;EAN;Menge\n02.11.2026;501234567890;2\n02.11.2026;401234567891;1\n02.11.2026;501234567890;3\n02.11.2026;5012345678900;4\n';
    const before = await productCount();
    const preview = await postMultipart(server(), '/api/records/preview-file/', token(), [
      { name: 'entity_type', value: 'sales' },
      { name: 'mapping_config', value: JSON.stringify(sales({ create_missing_products: true }).entities.sales) },
      { name: 'file', fileName: 'till.csv', content: file },
    ]);
    expect((preview.json as unknown as Preview).new_products ?? []).toEqual([]);
    const result = await importFile(server(), token(), { fileName: 'till.csv', content: file, mapping: sales({ create_missing_products: true }), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.message).toContain(
      ' 2 product codes had lost their leading zero (Excel drops it when it reads a code as a number) and were matched to the products with it: 501234567890 as 0501234567890, 401234567891 as 0401234567891.',
    );
    expect(await productCount()).toBe(before);
    expect(await soldOn('2026-11-02')).toEqual([
      { code: '0401234567891', quantity: 1 },
      { code: '0501234567890', quantity: 5 },
      { code: '5012345678900', quantity: 4 },
    ]);
  });

  it('refuses a code whose lost zeros could be two stored codes, and reads an .xlsx sheet whose barcodes are numbers', async () => {
    const refused = await importFile(server(), token(), { fileName: 'till.csv', content: 'Datum;EAN;Menge\n03.11.2026;123;1\n', mapping: sales(), entityType: 'sales' });
    expect(refused.status, JSON.stringify(refused.json)).toBe(400);
    expect((refused.json as { row_errors: RowError[] }).row_errors[0]?.reason).toMatch(/^product code 123 does not exist\./);

    // A sheet Excel saved: the barcode cells are numbers (full digits, the leading zero gone).
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Verkauf');
    sheet.addRow(['Datum', 'EAN', 'Menge']);
    sheet.addRow(['03.11.2026', 501234567890, 6]);
    sheet.addRow(['03.11.2026', 5012345678900, 1]);
    const content = new Uint8Array(await workbook.xlsx.writeBuffer());
    const result = await importFile(server(), token(), { fileName: 'till.xlsx', content, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', mapping: sales(), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.message).toContain(' 1 product code had lost its leading zero (Excel drops it when it reads a code as a number) and was matched to the product with it: 501234567890 as 0501234567890.');
    expect(await soldOn('2026-11-03')).toEqual([
      { code: '0501234567890', quantity: 6 },
      { code: '5012345678900', quantity: 1 },
    ]);

    // A stock take (code and count, no names) updates the stored product, as a sales line finds it.
    const count = await importFile(server(), token(), { fileName: 'inventur.csv', content: 'EAN;Bestand\n501234567890;7\n', mapping: { entities: { products: { field_mappings: { product_code: 'EAN', current_stock: 'Bestand' } } } }, entityType: 'products' });
    expect(count.status, JSON.stringify(count.json)).toBe(200);
    expect(count.json.message).toContain('501234567890 as 0501234567890');
    const stock = await sql<{ n: number }>`select current_stock as n from data.products where product_code = '0501234567890'`.execute(server().database.db);
    expect(stock.rows[0]?.n).toBe(7);
  });

  it("reads an integration run's numeric barcode as the stored one and rejects one in scientific notation", async () => {
    till().route('/sales', (_request, response) =>
      sendJson(response, {
        sales: [
          { ean: 501234567890, day: '2026-11-04', qty: 2 },
          { ean: '5.01235E+12', day: '2026-11-04', qty: 1 },
        ],
      }),
    );
    await saveMapping(`till_sales_${backend}`, { entities: { sales: { field_mappings: { product_id: 'ean', date: 'day', quantity: 'qty' }, create_missing_products: true } } });
    const integration = await createIntegration({ target_entity: 'sales', endpoint: `${till().origin}/sales`, mapping_selection: `till_sales_${backend}`, records_path: 'sales', rate_limit: 6000, time_zone: 'UTC' });
    const before = await productCount();
    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ counts: { inserted: 1, rejected: 1, created: 0 } });
    expect(await productCount()).toBe(before);
    expect(await soldOn('2026-11-04')).toEqual([{ code: '0501234567890', quantity: 2 }]);
    const logs = (await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: token() })).json as { results: { summary: string | null }[] };
    expect(logs.results[0]?.summary).toContain('1 product code had lost its leading zero');
  });
});
