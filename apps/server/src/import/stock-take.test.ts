// A shop's stock take (`Artikelnr;Bezeichnung;Bestand gezählt`) through a products mapping that
// does not map the name: it updates the counted stock of stored products and nothing else; a code
// no product has is refused by row, in the import's words for unknown codes, through the import and
// the preview alike. A mapping that maps the name still adds and updates products as before.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const catalogueMapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock', unit_cost: 'cost' } } } };
const stockTakeMapping = { entities: { products: { field_mappings: { product_code: 'Artikelnr', current_stock: 'Bestand gezählt' }, decimal_separator: ',' } } };

describe.each(backends)('a stock take without names on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const catalogue = 'code,name,stock,cost\nGAR-1012,Compost Small,4,3.50\nGAR-1013,Compost Large,2,6.00\n';
    const result = await importFile(server, token, { fileName: 'catalogue.csv', content: catalogue, mapping: catalogueMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  });
  afterAll(() => server.stop());

  const products = async () =>
    (
      await sql<{ product_code: string; name: string; current_stock: number; unit_cost: number }>`
        select product_code, name, current_stock, unit_cost::float8 as unit_cost from data.products where product_code like 'GAR-%' order by product_code`.execute(server.database.db)
    ).rows;

  it("updates the counted stock of GAR-1012 and leaves its name, cost and the other products as they were", async () => {
    const take = 'Artikelnr;Bezeichnung;Bestand gezählt\ngar-1012;Kompost;17\n';
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: take, mapping: stockTakeMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 1, written: 1, inserted: 0, updated: 1 } });
    expect(await products()).toEqual([
      { product_code: 'GAR-1012', name: 'Compost Small', current_stock: 17, unit_cost: 3.5 },
      { product_code: 'GAR-1013', name: 'Compost Large', current_stock: 2, unit_cost: 6 },
    ]);
    // One stock truth: the count written is today's snapshot too.
    const snapshot = await sql<{ stock_level: number }>`
      select s.stock_level from data.stock_snapshots s join data.products p on p.id = s.product_id where p.product_code = 'GAR-1012' and s.date = current_date`.execute(server.database.db);
    expect(snapshot.rows).toEqual([{ stock_level: 17 }]);
  });

  it('refuses a negative count by row in the words of the column minimums, in a stock take and in stock counts, and writes nothing', async () => {
    const before = await products();
    const take = 'Artikelnr;Bezeichnung;Bestand gezählt\nGAR-1013;Kompost groß;9\nGAR-1012;Kompost;-5\n';
    const refused = await importFile(server, token, { fileName: 'inventur.csv', content: take, mapping: stockTakeMapping, entityType: 'products' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ row_errors: [{ row: 3, field: 'current_stock', column: 'Bestand gezählt', reason: 'Must be 0 or more (negative values are not allowed here).' }] });
    expect(await products()).toEqual(before);
    const counts = { entities: { stock_snapshots: { field_mappings: { product_id: 'code', date: 'day', stock_level: 'counted' } } } };
    const negativeCount = await importFile(server, token, { fileName: 'counts.csv', content: 'code,day,counted\nGAR-1012,2026-01-05,-5\n', mapping: counts, entityType: 'stock_snapshots' });
    expect(negativeCount.status).toBe(400);
    expect(negativeCount.json).toMatchObject({ row_errors: [{ row: 2, field: 'stock_level', column: 'counted', reason: 'Must be 0 or more (negative values are not allowed here).' }] });
    const stored = await sql<{ n: number }>`select count(*)::int as n from data.stock_snapshots where stock_level < 0`.execute(server.database.db);
    expect(stored.rows).toEqual([{ n: 0 }]);
  });

  it('refuses a code no product has by row, naming the row and the code with a suggestion, and writes nothing of the file', async () => {
    const before = await products();
    const take = 'Artikelnr;Bezeichnung;Bestand gezählt\nGAR-1013;Kompost groß;9\nGAR-9999;Unbekannt;5\nGAR 1012;Kompost;3\n';
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: take, mapping: stockTakeMapping, entityType: 'products' });
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({
      row_error_count: 2,
      row_errors: [
        { row: 3, field: 'product_code', column: 'Artikelnr', reason: 'product code GAR-9999 does not exist.' },
        { row: 4, field: 'product_code', column: 'Artikelnr', reason: 'product code GAR 1012 does not exist: did you mean GAR-1012?' },
      ],
    });
    expect(await products()).toEqual(before);
    const added = await sql<{ n: number }>`select count(*)::int as n from data.products where product_code in ('GAR-9999', 'GAR 1012')`.execute(server.database.db);
    expect(added.rows).toEqual([{ n: 0 }]);
  });

  it('marks the unknown code in the preview, and offers the name as needed only for new products', async () => {
    const take = 'Artikelnr;Bezeichnung;Bestand gezählt\nGAR-1012;Kompost;8\nGAR-9999;Unbekannt;5\n';
    const result = await postMultipart(server, '/api/records/preview-file/', token, [
      { name: 'file', fileName: 'inventur.csv', content: take },
      { name: 'entity_type', value: 'products' },
      { name: 'mapping_config', value: JSON.stringify(stockTakeMapping) },
    ]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const json = result.json as { targets: { field: string; required: boolean; needed_for_new_rows?: true }[]; rows: { row: number; problems: Record<string, string> }[] };
    expect(json.targets.find((target) => target.field === 'name')).toMatchObject({ required: false, needed_for_new_rows: true });
    expect(json.targets.find((target) => target.field === 'product_code')).toMatchObject({ required: true });
    expect(json.rows.map((row) => [row.row, row.problems])).toEqual([
      [2, {}],
      [3, { product_code: 'product code GAR-9999 does not exist.' }],
    ]);
  });

  it('still refuses a mapping that fills only the code: it would write nothing', async () => {
    const take = 'Artikelnr;Bezeichnung;Bestand gezählt\nGAR-1012;Kompost;8\n';
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: take, mapping: { entities: { products: { field_mappings: { product_code: 'Artikelnr' } } } }, entityType: 'products' });
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.json)).toContain("the mapping does not fill the required column 'name'");
  });

  it('with the name mapped, adds new products and renames stored ones as before', async () => {
    const file = 'code,name,stock,cost\nGAR-1013,Compost Large 40l,5,6.00\nGAR-2001,Bark Mulch,12,4.00\n';
    const result = await importFile(server, token, { fileName: 'catalogue.csv', content: file, mapping: catalogueMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 2, inserted: 1, updated: 1 } });
    expect((await products()).filter((p) => p.product_code !== 'GAR-1012')).toEqual([
      { product_code: 'GAR-1013', name: 'Compost Large 40l', current_stock: 5, unit_cost: 6 },
      { product_code: 'GAR-2001', name: 'Bark Mulch', current_stock: 12, unit_cost: 4 },
    ]);
  });
});
