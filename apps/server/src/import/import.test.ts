import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { catalogueRunsSettled } from '../testing/forecast-client.ts';

const productMapping = {
  entities: { products: { field_mappings: { product_code: 'product_code', name: 'name', category: 'category', current_stock: 'current_stock', unit_cost: 'unit_cost' } } },
};
const nestedMapping = { entities: { products: { field_mappings: { product_code: 'sku', name: 'title', current_stock: 'stock.on_hand', unit_cost: 'prices.0.amount' } } } };

type Upload = { file?: { name: string; content: string | Uint8Array; type?: string }; mapping?: unknown; entityType?: string };

describe.each(backends)('file import on %s', (backend) => {
  let server: TestServer;
  let small: TestServer;
  let token: string;
  let smallToken: string;
  beforeAll(async () => {
    [server, small] = await Promise.all([startTestServer(backend), startTestServer(backend, { UPLOAD_MAX_BYTES: '2048' })]);
    [token, smallToken] = [(await signUpUser(server)).access, (await signUpUser(small)).access];
  });
  afterAll(() => Promise.all([server.stop(), small.stop()]));

  async function upload(upload: Upload, target = server, bearer = token) {
    const form = new FormData();
    if (upload.mapping !== undefined) form.append('mapping_config', typeof upload.mapping === 'string' ? upload.mapping : JSON.stringify(upload.mapping));
    form.append('mapping_name', 'test mapping');
    form.append('entity_type', upload.entityType ?? 'products');
    if (upload.file) form.append('file', new Blob([upload.file.content], { type: upload.file.type ?? 'text/csv' }), upload.file.name);
    const response = await fetch(`${target.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }
  const products = async (prefix: string) =>
    (await sql<{ product_code: string; name: string; current_stock: number; unit_cost: number }>`
      select product_code, name, current_stock, unit_cost::float8 as unit_cost from data.products where product_code like ${`${prefix}%`} order by product_code`.execute(server.database.db)).rows;

  it('imports a CSV with BOM, CRLF, quoted commas and newlines and empty lines', async () => {
    const csv = '\uFEFFproduct_code,name,category,current_stock,unit_cost\r\nCSV-1,"Hose, garden",Garden,10,2.50\r\n\r\nCSV-2,"Two\nlines",Garden,5,1\r\n';
    const result = await upload({ file: { name: 'products.csv', content: csv }, mapping: productMapping });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 2, inserted: 2, updated: 0 }, table: 'products' });
    expect(await products('CSV-')).toEqual([
      { product_code: 'CSV-1', name: 'Hose, garden', current_stock: 10, unit_cost: 2.5 },
      { product_code: 'CSV-2', name: 'Two\nlines', current_stock: 5, unit_cost: 1 },
    ]);
  });

  it('imports JSON as an array or an object holding one, through dotted paths', async () => {
    const items = [{ sku: 'JSN-1', title: 'Json one', stock: { on_hand: 3 }, prices: [{ amount: '4.20' }] }];
    expect((await upload({ file: { name: 'a.json', content: JSON.stringify(items), type: 'application/json' }, mapping: nestedMapping })).status).toBe(200);
    const wrapped = { exported_at: 'today', items: [{ sku: 'JSN-2', title: 'Json two', stock: { on_hand: 7 }, prices: [{ amount: 1 }] }] };
    expect((await upload({ file: { name: 'b.json', content: JSON.stringify(wrapped), type: 'application/json' }, mapping: nestedMapping })).status).toBe(200);
    expect(await products('JSN-')).toEqual([
      { product_code: 'JSN-1', name: 'Json one', current_stock: 3, unit_cost: 4.2 },
      { product_code: 'JSN-2', name: 'Json two', current_stock: 7, unit_cost: 1 },
    ]);
  });

  it('leaves the same data after importing the same file twice, and lets a repeated key win later', async () => {
    const csv = 'product_code,name,current_stock\nTWC-1,First,1\nTWC-2,Second,2\nTWC-1,First again,3\n';
    const first = await upload({ file: { name: 'twice.csv', content: csv }, mapping: productMapping });
    expect(first.json).toMatchObject({ counts: { rows: 3, inserted: 2, updated: 0, duplicates: 1 } });
    const before = await products('TWC-');
    const second = await upload({ file: { name: 'twice.csv', content: csv }, mapping: productMapping });
    expect(second.json).toMatchObject({ counts: { rows: 3, inserted: 0, updated: 2 } });
    expect(await products('TWC-')).toEqual(before);
    expect(before[0]).toMatchObject({ name: 'First again', current_stock: 3 });
  });

  it('counts a key repeated far apart in a large file (written in several pieces) as a duplicate whose later row wins', async () => {
    const half = 40_000;
    const lines = ['product_code,name,current_stock'];
    for (let i = 0; i < 2 * half; i++) lines.push(`FAR-${String(i % half).padStart(5, '0')},${i < half ? 'First' : 'Second'} ${i % half},${i}`);
    const result = await upload({ file: { name: 'far.csv', content: `${lines.join('\n')}\n` }, mapping: productMapping });
    expect(result.json).toMatchObject({ counts: { rows: 2 * half, inserted: half, updated: 0, duplicates: half } });
    const stored = await products('FAR-');
    expect(stored.length).toBe(half);
    expect(stored.at(-1)).toMatchObject({ product_code: `FAR-${half - 1}`, name: `Second ${half - 1}`, current_stock: 2 * half - 1 });
  });

  it('writes nothing from a file with bad rows and names each row, field and reason', async () => {
    const csv = 'product_code,name,current_stock,unit_cost\nBAD-1,Good,1,1\nBAD-2,Bad stock,lots,1\n,No key,1,1\nBAD-4,Bad cost,1,1.234\n';
    const result = await upload({ file: { name: 'bad.csv', content: csv }, mapping: productMapping });
    expect(result.status).toBe(400);
    expect(result.json.error).toBe('3 rows could not be imported; nothing was written.');
    expect(result.json.row_errors).toEqual([
      { row: 3, field: 'current_stock', column: 'current_stock', reason: 'Expected a number, found "lots".' },
      { row: 4, field: 'product_code', column: 'product_code', reason: 'A value is required.' },
      { row: 5, field: 'unit_cost', column: 'unit_cost', reason: '1.234 has more than 2 decimal places: round it to 2 in the file (the column keeps 2).' },
    ]);
    expect(await products('BAD-')).toEqual([]);
  });

  it('names the word a number column holds, quoted and cut to about 40 characters, in the file and in JSON alike', async () => {
    const long = 'twee dozen en nog wat losse stuks achter in het magazijn';
    const csv = `product_code,name,current_stock,unit_cost\nWRD-1,Twee,twee,1\nWRD-2,Cost,1,een euro\nWRD-3,Long,${long},1\n`;
    const fromCsv = await upload({ file: { name: 'words.csv', content: csv }, mapping: productMapping });
    expect(fromCsv.status).toBe(400);
    expect(fromCsv.json.row_errors).toEqual([
      { row: 2, field: 'current_stock', column: 'current_stock', reason: 'Expected a number, found "twee".' },
      { row: 3, field: 'unit_cost', column: 'unit_cost', reason: 'Expected a number, found "een euro".' },
      { row: 4, field: 'current_stock', column: 'current_stock', reason: `Expected a number, found "${long.slice(0, 39)}…".` },
    ]);
    const items = [{ sku: 'WRD-4', title: 'Json', stock: { on_hand: false }, prices: [{ amount: true }] }];
    const fromJson = await upload({ file: { name: 'words.json', content: JSON.stringify(items), type: 'application/json' }, mapping: nestedMapping });
    expect(fromJson.status).toBe(400);
    expect(fromJson.json.row_errors).toEqual([
      { row: 1, field: 'current_stock', column: 'stock.on_hand', reason: 'Expected a number, found false.' },
      { row: 1, field: 'unit_cost', column: 'prices.0.amount', reason: 'Expected a number, found true.' },
    ]);
    expect(await products('WRD-')).toEqual([]);
  });

  it.each([
    ['no file', { mapping: productMapping }, 'File, mapping, and config are required.'],
    ['no mapping config', { file: { name: 'a.csv', content: 'product_code\nX' } }, 'File, mapping, and config are required.'],
    ['a mapping without the entity', { file: { name: 'a.csv', content: 'product_code\nX' }, mapping: { entities: { sales: { field_mappings: { date: 'd' } } } } }, 'No mapping found for entity type: products'],
    ['mapping config that is not JSON', { file: { name: 'a.csv', content: 'product_code\nX' }, mapping: '{nope' }, 'mapping_config is not valid JSON.'],
    ['a mapping to an unknown column', { file: { name: 'a.csv', content: 'a\n1' }, mapping: { entities: { products: { field_mappings: { product_code: 'a', nope: 'a' } } } } }, "mapping target 'nope'"],
    ['a mapping without the key', { file: { name: 'a.csv', content: 'a\n1' }, mapping: { entities: { products: { field_mappings: { name: 'a' } } } } }, "key column 'product_code'"],
    ['an unknown entity type', { file: { name: 'a.csv', content: 'a\n1' }, mapping: productMapping, entityType: 'nope' }, 'No mapping found for entity type: nope'],
    ['a file that is neither CSV, JSON nor xlsx', { file: { name: 'a.pdf', content: '%PDF', type: 'application/pdf' }, mapping: productMapping }, 'Upload a .csv, .json or .xlsx file.'],
    ['an .xlsx that is not a workbook', { file: { name: 'a.xlsx', content: 'product_code\nX', type: 'application/octet-stream' }, mapping: productMapping }, 'The .xlsx file cannot be read: it is not an Excel workbook.'],
    ['a broken CSV', { file: { name: 'a.csv', content: 'product_code,name\n"BRK-1,unclosed\n' }, mapping: productMapping }, 'The CSV file cannot be read'],
    ['JSON cut off', { file: { name: 'a.json', content: '[{"sku": "BRK-2",', type: 'application/json' }, mapping: nestedMapping }, 'The file is not valid JSON: line 1, column 18 — it ends in the middle, as if cut off.'],
    ['an empty file', { file: { name: 'empty.csv', content: '' }, mapping: productMapping }, 'The file has no records to import.'],
    ['a CSV with a header only', { file: { name: 'header.csv', content: 'product_code,name\n' }, mapping: productMapping }, 'The file has no records to import.'],
    ['a JSON array without records', { file: { name: 'none.json', content: '[]', type: 'application/json' }, mapping: nestedMapping }, 'The file has no records to import.'],
  ])('refuses %s with a clear 400', async (_name, request, message) => {
    const result = await upload(request as Upload);
    expect(result.status).toBe(400);
    expect(String(result.json.error)).toContain(message);
  });

  it('names the line and column where a JSON file stops being JSON, far into a large file too, and writes nothing', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ sku: `POS-${i}`, title: `Position ${i}`, stock: { on_hand: i }, prices: [{ amount: 1 }] }));
    const text = JSON.stringify(items, null, 2);
    // A stray comma in record 2,500 (well past the first piece the parser reads), as a hand edit leaves it.
    const at = text.indexOf('"title": "Position 2500"');
    const broken = `${text.slice(0, at)}, ${text.slice(at)}`;
    const line = broken.slice(0, at).split('\n').length;
    const column = at - broken.lastIndexOf('\n', at - 1);
    expect(broken.length).toBeGreaterThan(256 * 1024);
    const result = await upload({ file: { name: 'hand-edited.json', content: broken, type: 'application/json' }, mapping: nestedMapping });
    expect(result.status).toBe(400);
    expect(result.json.error).toBe(`The file is not valid JSON: line ${line}, column ${column} — expected an object key, found ','.`);
    const trailing = await upload({ file: { name: 'trailing.json', content: '[{"sku": "POS-X", "title": "X"}]\n} extra', type: 'application/json' }, mapping: nestedMapping });
    expect(trailing.json.error).toBe("The file is not valid JSON: line 2, column 1 — unexpected '}'.");
    expect(await products('POS-')).toEqual([]);
  });

  it('refuses an import whose entity key is not a unique key of its table, and writes nothing', async () => {
    const entity = { table: 'products', key: ['name'], field_mappings: { product_code: 'code', name: 'name' } };
    expect((await server.request('/api/yaml/update-entity/', { token, body: { entity_name: 'by_name', config: entity } })).status).toBe(200);
    const result = await upload({ file: { name: 'n.csv', content: 'code,name\nUNQ-1,Same name\n' }, mapping: { entities: { by_name: { field_mappings: entity.field_mappings } } }, entityType: 'by_name' });
    expect(result.status).toBe(400);
    expect(result.json.error).toBe('Invalid configuration: the entity key is not a unique key of its table.');
    expect(await products('UNQ-')).toEqual([]);
  });

  it('says which defaults new rows took for blank cells, as a warning in the answer and the log', async () => {
    const mapping = { entities: { products: { field_mappings: { ...productMapping.entities.products.field_mappings, lead_time_days: 'lead_time_days' } } } };
    const header = 'product_code,name,category,current_stock,unit_cost,lead_time_days';
    expect((await upload({ file: { name: 'first.csv', content: `${header}\nDEF-STORED,Stored,Garden,4,2.00,5\n` }, mapping })).status).toBe(200);
    // Three new rows without a lead time (two also without a cost, one without a stock count); a stored product's blank keeps its 5 days.
    const csv = `${header}\nDEF-1,One,Garden,3,,\nDEF-2,Two,Garden,,,\nDEF-3,Three,Garden,7,1.50,\nDEF-4,Four,Garden,2,1.00,10\nDEF-STORED,Stored,Garden,4,2.00,\n`;
    const result = await upload({ file: { name: 'defaults.csv', content: csv }, mapping });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const expected = [
      { field: 'current_stock', rows: 1, value: '0', message: '1 row had no current stock: stored as 0, and shown as not counted until a count is imported or typed' },
      { field: 'unit_cost', rows: 2, value: '0', message: '2 rows had no unit cost: stored as 0, and left out of stock values as having no cost until one is imported or typed' },
      { field: 'lead_time_days', rows: 3, value: '14', message: '3 rows had no lead time: 14 days used (the default)' },
    ];
    expect(result.json.warnings).toEqual(expected);
    const log = await server.request(`/api/records/imports/${result.json.import_id as string}/`, { token });
    expect((log.json.details as { warnings: unknown }).warnings).toEqual(expected);
    const stored = await sql<{ product_code: string; lead_time_days: number }>`select product_code, lead_time_days from data.products where product_code like 'DEF-%' order by product_code`.execute(server.database.db);
    expect(stored.rows.map((row) => [row.product_code, row.lead_time_days])).toEqual([['DEF-1', 14], ['DEF-2', 14], ['DEF-3', 14], ['DEF-4', 10], ['DEF-STORED', 5]]);
    // Every value given: no warnings at all.
    const full = await upload({ file: { name: 'full.csv', content: `${header}\nDEF-5,Five,Garden,1,1.00,7\n` }, mapping });
    expect(full.json.warnings).toBeUndefined();
  });

  it('refuses a file over the upload cap with 413 and writes nothing', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `CAP-${i},Capped product ${i},1`).join('\n');
    const result = await upload({ file: { name: 'big.csv', content: `product_code,name,current_stock\n${rows}\n` }, mapping: productMapping }, small, smallToken);
    expect(result.status).toBe(413);
    const { rows: written } = await sql<{ n: number }>`select count(*)::int as n from data.products where product_code like 'CAP-%'`.execute(small.database.db);
    expect(written[0]?.n).toBe(0);
  });

  it('logs every import with status, counts, and the content of small files', async () => {
    const ok = await upload({ file: { name: 'logged.csv', content: 'product_code,name\nLOG-1,Logged\n' }, mapping: productMapping });
    const log = await server.request(`/api/records/imports/${ok.json.import_id as string}/`, { token });
    expect(log.json).toMatchObject({ operationType: 'import', status: 'success', fileName: 'logged.csv', mappingName: 'test mapping', errorMessage: null, fileContent: 'product_code,name\nLOG-1,Logged\n' });
    const list = await server.request('/api/records/imports/', { token });
    const entries = list.json.results as { status: string; fileName: string }[];
    expect(entries.some((e) => e.status === 'error')).toBe(true);
    expect(entries.some((e) => e.fileName === 'logged.csv')).toBe(true);
  });

  it('queues a catalogue forecast after new sales arrive, and after stock on hand, not after names alone', async () => {
    // The small server: the large files of the other tests queue long runs on the main one.
    const names = { entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } };
    const catalogueTasks = async () => (await small.database.db.selectFrom('forecast_tasks').select('id').where('style_code', 'is', null).execute()).length;
    await catalogueRunsSettled(small.database.db);
    const before = await catalogueTasks();
    await upload({ file: { name: 'p.csv', content: 'product_code,name\nSLS-1,Sold product\n' }, mapping: names }, small, smallToken);
    expect(await catalogueTasks()).toBe(before);
    const salesMapping = { entities: { sales: { field_mappings: { product_id: 'product', date: 'day', quantity: 'units' } } } };
    const result = await upload({ file: { name: 'sales.csv', content: 'product,day,units\nSLS-1,2026-11-01,4\nSLS-1,2026-11-02,0\n' }, mapping: salesMapping, entityType: 'sales' }, small, smallToken);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await catalogueTasks()).toBe(before + 1);
    await catalogueRunsSettled(small.database.db);
    // A products file with stock on hand changes what the forecasts start from (ADR 0132).
    await upload({ file: { name: 'p.csv', content: 'product_code,name,current_stock\nSLS-1,Sold product,12\n' }, mapping: productMapping }, small, smallToken);
    expect(await catalogueTasks()).toBe(before + 2);
  });

  it('never answers arbitrary CSV or mappings with a 500, and never writes part of a file', async () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('', '"', ',', '\n', '1.5', 'x"y'));
    const csv = fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }).map((rows) => `product_code,name,current_stock\n${rows.map((r) => r.join(',')).join('\n')}`);
    const mapping = fc.oneof(fc.constant(productMapping as unknown), fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map((m) => ({ entities: { products: { field_mappings: m } } })));
    await fc.assert(
      fc.asyncProperty(csv, mapping, async (content, mappingConfig) => {
        const before = (await sql<{ n: number }>`select count(*)::int as n from data.products`.execute(server.database.db)).rows[0]?.n ?? 0;
        const result = await upload({ file: { name: 'fuzz.csv', content }, mapping: mappingConfig });
        expect(result.status).toBeLessThan(500);
        const after = (await sql<{ n: number }>`select count(*)::int as n from data.products`.execute(server.database.db)).rows[0]?.n ?? 0;
        if (result.status !== 200) expect(after).toBe(before);
        else expect(after - before).toBe((result.json.counts as { inserted: number }).inserted);
      }),
      { numRuns: 60, seed: 4 },
    );
  });
});
