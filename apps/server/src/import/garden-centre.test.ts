// A UK garden centre's files (QA pass 5): a product list whose costs carry the pound sign, a till
// CSV over 256 KiB previewed from its head, and a till's totals line with "Total" in the date
// column and the code blank.
import { sql } from 'kysely';
import { PREVIEW_MAX_BYTES } from '@stockwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

type RowError = { row: number; field: string; reason: string };
type Preview = { warning?: string; rows: { row: number; values: Record<string, unknown>; problems: Record<string, string> }[] };

const products = (mapping: Record<string, unknown> = {}) => ({
  entities: { products: { field_mappings: { product_code: 'Code', name: 'Description', unit_cost: 'Cost Price', current_stock: 'Stock' }, ...mapping } },
});
const tillMapping = { entities: { sales: { field_mappings: { product_id: 'Product Code', date: 'Date', quantity: 'Qty' }, date_format: 'dd/mm/yyyy' } } };

/** A till export of `lines` sales lines of ~60 bytes, a line ending (and quoted line breaks) per `line`. */
function tillExport(lines: number, line: (at: number) => string = (at) => `${String((at % 28) + 1).padStart(2, '0')}/11/2026,HGC-${at % 7},Bedding plant ${'x'.repeat(at % 13)},${(at % 5) + 1}`) {
  const body = Array.from({ length: lines }, (_, at) => line(at)).join('\n');
  return `Date,Product Code,Description,Qty\n${body}\n`;
}

describe.each(backends)("a UK garden centre's files on %s", (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const catalogue = `Code,Description,Cost Price,Stock\n${Array.from({ length: 7 }, (_, at) => `HGC-${at},Bedding ${at},1.00,10`).join('\n')}\n`;
    const result = await importFile(server, token, { fileName: 'hollins-products.csv', content: catalogue, mapping: products(), entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  });
  afterAll(() => server.stop());

  const costs = async (prefix: string) =>
    (await sql<{ code: string; cost: string | null }>`select product_code as code, unit_cost::text as cost from data.products where product_code like ${`${prefix}%`} order by 1`.execute(server.database.db)).rows;
  const preview = async (fileName: string, content: string | Uint8Array, entityType: string, extra: { name: string; value: string }[] = []) => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: entityType }, ...extra, { name: 'file', fileName, content }]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return result.json as unknown as Preview;
  };

  describe('a currency sign on a money column', () => {
    it('reads £24.00, 24.00 £, GBP 24.00 and £3 as numbers, in the preview and the import', async () => {
      const list = 'Code,Description,Cost Price,Stock\nGBP-1,Compost 50 l,£24.00,3\nGBP-2,Trowel,24.00 £,4\nGBP-3,Rose,GBP 24.00,5\nGBP-4,Voucher, £3 ,6\n';
      const previewed = await preview('hollins-products.csv', list, 'products', [{ name: 'mapping_config', value: JSON.stringify(products().entities.products) }]);
      expect(previewed.rows.map((row) => [row.values.unit_cost, row.problems])).toEqual([
        [24, {}],
        [24, {}],
        [24, {}],
        [3, {}],
      ]);
      const result = await importFile(server, token, { fileName: 'hollins-products.csv', content: list, mapping: products(), entityType: 'products' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(await costs('GBP-')).toEqual([
        { code: 'GBP-1', cost: '24.00' },
        { code: 'GBP-2', cost: '24.00' },
        { code: 'GBP-3', cost: '24.00' },
        { code: 'GBP-4', cost: '3.00' },
      ]);
    });

    it('reads € 2,00 and 1.234,50 € with the decimal comma, which the preview detects through the sign', async () => {
      const list = 'Code;Description;Cost Price;Stock\nEUR-1;Blumenerde;€ 2,00;3\nEUR-2;Gießkanne;1.234,50 €;4\n';
      const proposed = (await preview('artikel.csv', list, 'products')) as Preview & { decimal_separator: { detected: string | null } };
      expect(proposed.decimal_separator.detected).toBe(',');
      // Read without the decimal comma, the advice is about the comma, not the sign.
      const withPoint = await preview('artikel.csv', list, 'products', [{ name: 'mapping_config', value: JSON.stringify(products().entities.products) }]);
      expect(withPoint.rows[0]?.problems.unit_cost).toBe(
        "Expected a number, not 2,00: it is written with a decimal comma: set Decimal separator to Comma on the import screen (the mapping's decimal_separator).",
      );
      const result = await importFile(server, token, { fileName: 'artikel.csv', content: list, mapping: products({ decimal_separator: ',' }), entityType: 'products' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(await costs('EUR-')).toEqual([
        { code: 'EUR-1', cost: '2.00' },
        { code: 'EUR-2', cost: '1234.50' },
      ]);
    });

    it('refuses a column mixing two currencies naming both signs, and a sign on a quantity, and writes nothing', async () => {
      const mixed = 'Code,Description,Cost Price,Stock\nMIX-1,Compost,£24.00,3\nMIX-2,Trowel,€ 2.00,4\nMIX-3,Rake,$3,£3\n';
      const result = await importFile(server, token, { fileName: 'mixed.csv', content: mixed, mapping: products(), entityType: 'products' });
      expect(result.status).toBe(400);
      expect((result.json.row_errors as RowError[]).map(({ row, field, reason }) => ({ row, field, reason }))).toEqual([
        { row: 3, field: 'unit_cost', reason: "Expected a number, not € 2.00: it has a currency sign, € where the column's earlier figures have £: save the column as plain numbers, without the sign." },
        { row: 4, field: 'current_stock', reason: 'Expected a number, not £3: it has a currency sign: save the column as plain numbers, without the sign.' },
        { row: 4, field: 'unit_cost', reason: "Expected a number, not $3: it has a currency sign, $ where the column's earlier figures have £: save the column as plain numbers, without the sign." },
      ]);
      expect(await costs('MIX-')).toEqual([]);
    });
  });

  describe('the preview of a till CSV over 256 KiB', () => {
    // What the web app sends of a larger file (previewPart).
    const head = (content: string) => new Uint8Array(Buffer.from(content).subarray(0, PREVIEW_MAX_BYTES));

    it('reads no cut last line as a record, whether the server or the web app cut the file', async () => {
      const till = tillExport(8000);
      expect(till.length).toBeGreaterThan(PREVIEW_MAX_BYTES);
      // The 256 KiB cut falls inside a line: the case the preview used to warn about.
      expect(till[PREVIEW_MAX_BYTES - 1]).not.toBe('\n');
      const whole = await preview('till.csv', till, 'sales', [{ name: 'mapping_config', value: JSON.stringify(tillMapping.entities.sales) }]);
      expect(whole.warning).toBeUndefined();
      expect(whole.rows.map((row) => row.problems)).toEqual([{}, {}, {}, {}, {}]);
      const cut = await preview('till.csv', head(till), 'sales', [{ name: 'file_part', value: 'head' }]);
      expect(cut.warning).toBeUndefined();
    });

    it('reads no cut line inside a quoted field holding a line break', async () => {
      const quoted = (at: number) => `0${(at % 9) + 1}/11/2026,HGC-${at % 7},"Hanging basket\nline ${String(at).padStart(5, '0')}",1`;
      const lineLength = quoted(0).length + 1;
      // The header padded so that the cut falls just after a quoted field's own line break.
      const firstLine = 'Date,Product Code,Description,Qty\n'.length;
      const breakAt = quoted(0).indexOf('\n') + 1;
      const pad = (((PREVIEW_MAX_BYTES - firstLine - breakAt - 2) % lineLength) + lineLength) % lineLength;
      const till = tillExport(8000, quoted).replace('Qty', `Qty${' '.repeat(pad)}`);
      expect(till.slice(0, PREVIEW_MAX_BYTES).endsWith('\nli')).toBe(true);
      const previewed = await preview('till.csv', till, 'sales');
      expect(previewed.warning).toBeUndefined();
    });

    it('still warns of a real defect in the previewed rows, and refuses one before any row it could show', async () => {
      const defectAt = (row: number) => tillExport(8000, (at) => (at === row - 2 ? '05/11/2026,HGC-1,3' : `${String((at % 28) + 1).padStart(2, '0')}/11/2026,HGC-${at % 7},Bedding plant,${(at % 5) + 1}`));
      const late = defectAt(3000);
      expect(late.length).toBeGreaterThan(PREVIEW_MAX_BYTES);
      const previewed = await preview('till.csv', late, 'sales');
      expect(previewed.warning).toBe('The CSV file cannot be read: A record has 3 fields where the header has 4 (row 3000).');
      expect((await preview('till.csv', head(late), 'sales', [{ name: 'file_part', value: 'head' }])).warning).toBe(previewed.warning);
      const early = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: 'sales' }, { name: 'file', fileName: 'till.csv', content: defectAt(5) }]);
      expect(early.status).toBe(400);
      expect(early.json.detail).toBe('The CSV file cannot be read: A record has 3 fields where the header has 4 (row 5).');
    });
  });

  describe("a till's totals line", () => {
    it('skips a line with Total in the date column and the code blank, and says so', async () => {
      const till = 'Date,Product Code,Description,Qty,Value\n01/12/2026,HGC-1,Bedding,2,£4.00\n02/12/2026,HGC-1,Bedding,1,£2.00\nTotal,,,3,£6.00\n';
      const result = await importFile(server, token, { fileName: 'till.csv', content: till, mapping: tillMapping, entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(result.json.message).toBe('Imported 2 rows into sales: 2 inserted, 0 updated. 1 totals line (Total) was skipped.');
      expect(result.json.counts).toMatchObject({ rows: 2, inserted: 2, totals_skipped: 1 });
    });

    it('skips a totals line shorter than the header, as a till writes it, whatever the file\'s length', async () => {
      const lines = Array.from({ length: 8000 }, (_, at) => `${String((at % 28) + 1).padStart(2, '0')}/11/2026,HGC-${at % 7},Bedding plant,${(at % 5) + 1},£2.00,1`);
      const till = `\uFEFFDate,Product Code,Description,Qty,Value,Till\n${lines.join('\n')}\nTotal,,,17940\n`;
      expect(till.length).toBeGreaterThan(PREVIEW_MAX_BYTES);
      const previewed = await preview('till.csv', till, 'sales', [{ name: 'mapping_config', value: JSON.stringify(tillMapping.entities.sales) }]);
      expect(previewed.warning).toBeUndefined();
      const result = await importFile(server, token, { fileName: 'till.csv', content: till, mapping: tillMapping, entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(result.json.counts).toMatchObject({ totals_skipped: 1 });
      expect(result.json.message).toMatch(/ 1 totals line \(Total\) was skipped\.$/);
    });

    it('skips Grand total and Totaal lines likewise', async () => {
      const till = 'Date,Product Code,Description,Qty\n03/12/2026,HGC-2,Rose,2\nGrand total,,,2\nTotaal:,,,2\n';
      const result = await importFile(server, token, { fileName: 'till.csv', content: till, mapping: tillMapping, entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(result.json.message).toBe('Imported 1 row into sales: 1 inserted, 0 updated. 2 totals lines (Grand total, Totaal:) were skipped.');
    });
  });

  describe('quantities written with decimals', () => {
    it('reads 2.00 and -1.00 in a quantity as 2 and -1, 2.50 as two and a half (ADR 0176), and still refuses the ambiguous 2.000', async () => {
      const till = 'Date,Product Code,Description,Qty\n04/12/2026,HGC-3,Rose,2.00\n04/12/2026,HGC-4,Tulip,-1.00\n04/12/2026,HGC-5,Lily,3.0\n';
      const result = await importFile(server, token, { fileName: 'till.csv', content: till, mapping: tillMapping, entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      const stored = await sql<{ code: string; quantity: number }>`select p.product_code as code, s.quantity from data.sales s join data.products p on p.id = s.product_id where s.date = '2026-12-04' order by 1`.execute(server.database.db);
      expect(stored.rows).toEqual([
        { code: 'HGC-3', quantity: 2 },
        { code: 'HGC-4', quantity: -1 },
        { code: 'HGC-5', quantity: 3 },
      ]);
      const half = await importFile(server, token, { fileName: 'till.csv', content: 'Date,Product Code,Description,Qty\n05/12/2026,HGC-3,Rose,2.50\n', mapping: tillMapping, entityType: 'sales' });
      expect(half.status, JSON.stringify(half.json)).toBe(200);
      await sql`delete from data.sales where date = '2026-12-05'`.execute(server.database.db);
      for (const [written, reason] of [['2.000', '2.000 could be 2 or 2000: if it means 2000, the file groups thousands with points']]) {
        const refused = await importFile(server, token, { fileName: 'till.csv', content: `Date,Product Code,Description,Qty\n05/12/2026,HGC-3,Rose,${written}\n`, mapping: tillMapping, entityType: 'sales' });
        expect(refused.status).toBe(400);
        expect(((refused.json.row_errors as unknown as RowError[])[0]!).reason).toContain(reason);
      }
    });
  });
});
