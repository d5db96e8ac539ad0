// A shop that sells by weight or length (ADR 0176): a deli's till export of kilos, a German
// butcher's `0,25` with the decimal comma, a stock count of 12.5 m of cable. Quantities of up to 3
// decimal places are read, added up exactly (0.1 + 0.2 kg is 0.3) and stored as written; the
// figures an import cannot read for sure are refused naming the row and field; a file of only
// `1.250` and `2.450` kg is read as its chosen separator says (ADR 0176, amendment 2026-12-06).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const products = 'Item,Description\nCHE-001,Cheddar mature\nHAM-002,Serrano ham\nCAB-003,Cable 3x1.5 mm²\n';
const productsMapping = { entities: { products: { field_mappings: { product_code: 'Item', name: 'Description' } } } };
const deliHeader = 'Date,Item,Description,Qty (kg),Unit,Amount';
const deliMapping = { entities: { sales: { field_mappings: { date: 'Date', product_id: 'Item', quantity: 'Qty (kg)' } } } };
const deli = [
  deliHeader,
  '28/11/2026,HAM-002,Serrano ham,0.125,kg,4.99',
  '01/12/2026,CHE-001,Cheddar mature,0.25,kg,3.75',
  '01/12/2026,CHE-001,Cheddar mature,0.5,kg,7.50',
  '01/12/2026,CHE-001,Cheddar mature,0.2,kg,3.00',
  '01/12/2026,CHE-001,Cheddar mature,-0.2,kg,-3.00',
  '02/12/2026,CHE-001,Cheddar mature,0.1,kg,1.50',
  '02/12/2026,CHE-001,Cheddar mature,0.2,kg,3.00',
  '02/12/2026,HAM-002,Serrano ham,1,kg,39.90',
].join('\n');

type RowErrors = { row_errors: { row: number; field: string; reason: string }[] };
type RowPage = { results: Record<string, unknown>[] };

describe.each(backends)('a shop selling by weight or length on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const result = await importFile(server, token, { fileName: 'items.csv', content: products, mapping: productsMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  });
  afterAll(() => server.stop());

  /** The day totals as the database stores them: numeric text, exact. */
  const stored = async (code: string) =>
    (
      await sql<{ date: string; quantity: string }>`
        select s.date::text as date, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id where p.product_code = ${code} order by s.date`.execute(server.database.db)
    ).rows;
  const salesOverHttp = async () => {
    const page = await server.request(`/api/records/tables/sales/data/?sort_by=date&page_size=100`, { token });
    expect(page.status, JSON.stringify(page.json)).toBe(200);
    return (page.json as unknown as RowPage).results.map((row) => [row.date, row.quantity]);
  };

  it("imports a deli's till export of kilos, day-first, a return of -0.2 among them, and adds each day's lines up exactly", async () => {
    const result = await importFile(server, token, { fileName: 'till.csv', content: deli, mapping: deliMapping, entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.counts).toMatchObject({ rows: 8, inserted: 4 });
    expect(await stored('CHE-001')).toEqual([
      { date: '2026-12-01', quantity: '0.750' },
      { date: '2026-12-02', quantity: '0.300' },
    ]);
    expect(await stored('HAM-002')).toEqual([
      { date: '2026-11-28', quantity: '0.125' },
      { date: '2026-12-02', quantity: '1.000' },
    ]);
    // Over HTTP as numbers, 0.3 and not 0.30000000000000004.
    expect(await salesOverHttp()).toEqual([
      ['2026-11-28', 0.125],
      ['2026-12-01', 0.75],
      ['2026-12-02', 0.3],
      ['2026-12-02', 1],
    ]);
  });

  it("reads a German butcher's 0,25 with the decimal comma, and 1.250,5 as a thousand and more", async () => {
    const file = 'Datum;Artikelnr;Menge\n03.12.2026;CHE-001;0,25\n03.12.2026;CHE-001;1,125\n03.12.2026;CAB-003;1.250,5\n';
    const mapping = { entities: { sales: { field_mappings: { date: 'Datum', product_id: 'Artikelnr', quantity: 'Menge' }, decimal_separator: ',' } } };
    const result = await importFile(server, token, { fileName: 'Kasse.csv', content: file, mapping, entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect((await stored('CHE-001')).at(-1)).toEqual({ date: '2026-12-03', quantity: '1.375' });
    expect(await stored('CAB-003')).toEqual([{ date: '2026-12-03', quantity: '1250.500' }]);
  });

  it('refuses what it cannot read for sure, naming the row and field, and writes nothing', async () => {
    const before = await stored('CHE-001');
    const file = [deliHeader, '04/12/2026,CHE-001,Cheddar mature,0.12345,kg,1.85', '04/12/2026,CHE-001,Cheddar mature,2.450,kg,36.75', '04/12/2026,CHE-001,Cheddar mature,£3,kg,1'].join('\n');
    const dayFirst = { entities: { sales: { ...deliMapping.entities.sales, date_format: 'dd/mm/yyyy' } } };
    const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: dayFirst, entityType: 'sales' });
    expect(result.status).toBe(400);
    expect((result.json as unknown as RowErrors).row_errors.map(({ row, field, reason }) => [row, field, reason])).toEqual([
      [2, 'quantity', '0.12345 has more than 3 decimal places: round it to 3 in the file (the column keeps 3).'],
      [
        3,
        'quantity',
        "2.450 could be 2.45 or 2450: if it means 2450, the file groups thousands with points: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); if it means 2.45, the file writes decimal points: set Decimal separator to Point on the import screen (the mapping's decimal_separator).",
      ],
      [4, 'quantity', 'Expected a number, not £3: it has a currency sign: save the column as plain numbers, without the sign.'],
    ]);
    expect(await stored('CHE-001')).toEqual(before);
    // With the decimal point chosen, 2.450 is 2.45 kg.
    const chosen = { entities: { sales: { ...dayFirst.entities.sales, decimal_separator: '.' } } };
    const read = await importFile(server, token, { fileName: 'till.csv', content: [deliHeader, '04/12/2026,CHE-001,Cheddar mature,2.450,kg,36.75'].join('\n'), mapping: chosen, entityType: 'sales' });
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect((await stored('CHE-001')).at(-1)).toEqual({ date: '2026-12-04', quantity: '2.450' });
  });

  it("reads a till file of only 1.250 and 2.450 kg as its chosen separator says: refused undecided, kilos with a point, thousands with a comma; the point saved in a mapping is read back", async () => {
    const file = (day: string) => `Date,Item,Qty\n${day}/12/2026,CHE-001,1.250\n${day}/12/2026,HAM-002,2.450\n`;
    const mapping = (separator?: '.' | ',') => ({ entities: { sales: { field_mappings: { date: 'Date', product_id: 'Item', quantity: 'Qty' }, date_format: 'dd/mm/yyyy', ...(separator ? { decimal_separator: separator } : {}) } } });
    const advice = (figure: string, fraction: string, thousands: string) =>
      `${figure} could be ${fraction} or ${thousands}: if it means ${thousands}, the file groups thousands with points: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); if it means ${fraction}, the file writes decimal points: set Decimal separator to Point on the import screen (the mapping's decimal_separator).`;
    // No figure shows the separator: the preview detects none and marks both cells.
    const previewed = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'file', fileName: 'till.csv', content: file('05') }, { name: 'entity_type', value: 'sales' }]);
    expect(previewed.status, JSON.stringify(previewed.json)).toBe(200);
    const proposal = previewed.json as { decimal_separator: unknown; rows: { problems: Record<string, string> }[] };
    expect(proposal.decimal_separator).toEqual({ detected: null, used: '.' });
    expect(proposal.rows.map((row) => row.problems['quantity'])).toEqual([advice('1.250', '1.25', '1250'), advice('2.450', '2.45', '2450')]);

    const undecided = await importFile(server, token, { fileName: 'till.csv', content: file('05'), mapping: mapping(), entityType: 'sales' });
    expect(undecided.status).toBe(400);
    expect((undecided.json as unknown as { row_errors: { row: number; field: string; column: string; reason: string }[] }).row_errors).toEqual([
      { row: 2, field: 'quantity', column: 'Qty', reason: advice('1.250', '1.25', '1250') },
      { row: 3, field: 'quantity', column: 'Qty', reason: advice('2.450', '2.45', '2450') },
    ]);

    // The point, saved with the mapping and read back from the configuration, is the one the next file is read with.
    const saved = await server.request('/api/yaml/save-mapping/', { token, body: { name: 'deli_kilos', config: mapping('.') } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const config = (await server.request('/api/yaml/config/', { token })).json as { content: { mappings: Record<string, { entities: { sales: { decimal_separator?: string } } }> } };
    const reused = config.content.mappings['deli_kilos'];
    expect(reused?.entities.sales.decimal_separator).toBe('.');
    const kilos = await importFile(server, token, { fileName: 'till.csv', content: file('05'), mapping: reused, entityType: 'sales', extra: { mapping_name: 'deli_kilos' } });
    expect(kilos.status, JSON.stringify(kilos.json)).toBe(200);
    expect((await stored('CHE-001')).at(-1)).toEqual({ date: '2026-12-05', quantity: '1.250' });
    expect((await stored('HAM-002')).at(-1)).toEqual({ date: '2026-12-05', quantity: '2.450' });

    const thousands = await importFile(server, token, { fileName: 'till.csv', content: file('06'), mapping: mapping(','), entityType: 'sales' });
    expect(thousands.status, JSON.stringify(thousands.json)).toBe(200);
    expect((await stored('CHE-001')).at(-1)).toEqual({ date: '2026-12-06', quantity: '1250.000' });
    expect((await stored('HAM-002')).at(-1)).toEqual({ date: '2026-12-06', quantity: '2450.000' });
  });

  describe('quantity cells written with their unit (ADR 0178)', () => {
    const unitsMapping = { entities: { products: { field_mappings: { product_code: 'Item', name: 'Description', unit: 'Unit', current_stock: 'Stock' } } } };
    const salesMapping = (extra: Record<string, unknown> = {}) => ({ entities: { sales: { field_mappings: { date: 'Date', product_id: 'Item', quantity: 'Qty' }, date_format: 'dd/mm/yyyy', ...extra } } });
    // Days of their own, before the deli's till export's.
    const ofThatWeek = ({ date }: { date: string }) => date >= '2026-11-20' && date <= '2026-11-23';
    const rowErrors = (json: unknown) => (json as RowErrors).row_errors.map(({ row, field, reason }) => [row, field, reason]);

    it("reads a products file's stock in the row's unit, and sales in each product's unit: 0.25 kg and 250 g of a kilo product are 0.25 both", async () => {
      const catalogue = 'Item,Description,Unit,Stock\nCHE-001,Cheddar mature,kg,2.5 kg\nOIL-004,Olive oil,l,500 ml\nCAB-003,Cable 3x1.5 mm²,m,1200cm\n';
      const listed = await importFile(server, token, { fileName: 'items.csv', content: catalogue, mapping: unitsMapping, entityType: 'products' });
      expect(listed.status, JSON.stringify(listed.json)).toBe(200);
      const stock = await sql<{ code: string; current_stock: number }>`select product_code as code, current_stock from data.products where product_code in ('CAB-003', 'CHE-001', 'OIL-004') order by 1`.execute(server.database.db);
      expect(stock.rows).toEqual([
        { code: 'CAB-003', current_stock: 12 },
        { code: 'CHE-001', current_stock: 2.5 },
        { code: 'OIL-004', current_stock: 0.5 },
      ]);

      const file = ['Date,Item,Qty', '20/11/2026,CHE-001,0.25 kg', '21/11/2026,CHE-001,250 g', '20/11/2026,OIL-004,500 ML', '20/11/2026,CAB-003,50 cm', '20/11/2026,HAM-002,0.125kg', '21/11/2026,HAM-002,250 g'].join('\n');
      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: salesMapping(), entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect((await stored('CHE-001')).filter(ofThatWeek)).toEqual([
        { date: '2026-11-20', quantity: '0.250' },
        { date: '2026-11-21', quantity: '0.250' },
      ]);
      expect(await stored('OIL-004')).toEqual([{ date: '2026-11-20', quantity: '0.500' }]);
      expect((await stored('CAB-003')).filter(ofThatWeek)).toEqual([{ date: '2026-11-20', quantity: '0.500' }]);
      // Serrano ham has no unit: read in the kilos its first cell wrote, so 250 g is 0.25 and not 250; the answer says so.
      expect(result.json.message).toContain(" 2 quantities of products without a unit were read in the unit their cells wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.");
      expect((await stored('HAM-002')).filter(ofThatWeek)).toEqual([
        { date: '2026-11-20', quantity: '0.125' },
        { date: '2026-11-21', quantity: '0.250' },
      ]);

      const german = 'Datum;Artikelnr;Menge\n22.11.2026;CHE-001;1,5 kg\n';
      const comma = await importFile(server, token, { fileName: 'Kasse.csv', content: german, mapping: { entities: { sales: { field_mappings: { date: 'Datum', product_id: 'Artikelnr', quantity: 'Menge' }, decimal_separator: ',' } } }, entityType: 'sales' });
      expect(comma.status, JSON.stringify(comma.json)).toBe(200);
      expect((await stored('CHE-001')).filter(ofThatWeek).at(-1)).toEqual({ date: '2026-11-22', quantity: '1.500' });

      // A product the file creates is read in the unit its row gives it: 500 g of a new cheese in kg is 0.5.
      const created = await importFile(server, token, {
        fileName: 'till.csv',
        content: 'Date,Item,Description,Qty,Unit\n22/11/2026,BRI-005,Brie,500 g,kg\n',
        mapping: salesMapping({ create_missing_products: true, new_products: { name: 'Description', unit: 'Unit' } }),
        entityType: 'sales',
      });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      expect(await stored('BRI-005')).toEqual([{ date: '2026-11-22', quantity: '0.500' }]);
    });

    it('reads the units beyond kg, l and m with exact factors: 1500000 mg of a kilo product, 33 cl of one in l, 25 mm of one in m', async () => {
      const file = ['Date,Item,Qty', '24/11/2026,CHE-001,1500000 mg', '24/11/2026,OIL-004,33 CL', '24/11/2026,CAB-003,25mm'].join('\n');
      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: salesMapping(), entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      const onThatDay = async (code: string) => (await stored(code)).filter(({ date }) => date === '2026-11-24');
      expect(await onThatDay('CHE-001')).toEqual([{ date: '2026-11-24', quantity: '1.500' }]);
      expect(await onThatDay('OIL-004')).toEqual([{ date: '2026-11-24', quantity: '0.330' }]);
      expect(await onThatDay('CAB-003')).toEqual([{ date: '2026-11-24', quantity: '0.025' }]);
    });

    it('reads the quantity of a code that lost its leading zeros in the unit of the stored code it is restored to, in sales and a stock take', async () => {
      // 00731 in kg; 732 and 00732 both stored, so a written 732 is 732 (no unit), not 00732.
      const catalogue = 'Item,Description,Unit\n00731,Bergkäse,kg\n00732,Oliven,kg\n732,Olivenöl,\n';
      const listed = await importFile(server, token, { fileName: 'items.csv', content: catalogue, mapping: { entities: { products: { field_mappings: { product_code: 'Item', name: 'Description', unit: 'Unit' } } } }, entityType: 'products' });
      expect(listed.status, JSON.stringify(listed.json)).toBe(200);
      const file = ['Date,Item,Qty', '25/11/2026,731,250 g', '25/11/2026,0731,0.5 kg', '25/11/2026,732,250 g'].join('\n');
      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: salesMapping(), entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(await stored('00731')).toEqual([{ date: '2026-11-25', quantity: '0.750' }]);
      expect(await stored('732')).toEqual([{ date: '2026-11-25', quantity: '250.000' }]);
      expect(await stored('00732')).toEqual([]);

      const refused = await importFile(server, token, { fileName: 'till.csv', content: 'Date,Item,Qty\n26/11/2026,731,0.5 l\n', mapping: salesMapping(), entityType: 'sales' });
      expect(refused.status).toBe(400);
      expect(rowErrors(refused.json)).toEqual([[2, 'quantity', 'Expected a quantity in kg (the unit of product 00731), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.']]);

      const take = await importFile(server, token, { fileName: 'count.csv', content: 'Item,Stock\n731,1500 g\n', mapping: { entities: { products: { field_mappings: { product_code: 'Item', current_stock: 'Stock' } } } }, entityType: 'products' });
      expect(take.status, JSON.stringify(take.json)).toBe(200);
      const stock = await sql<{ current_stock: number }>`select current_stock from data.products where product_code = '00731'`.execute(server.database.db);
      expect(stock.rows).toEqual([{ current_stock: 1.5 }]);
    });

    it('reads a code in the unit of the product it names exactly, and one written in another case only when no two products differ in case alone', async () => {
      // rye-1 is a flour in kg and RYE-1 a loaf counted in pieces: each code is its own product's.
      const catalogue = 'Item,Description,Unit\nrye-1,Rye flour,kg\nRYE-1,Rye loaf,\nSPELT-7,Spelt flour,kg\n';
      const listed = await importFile(server, token, { fileName: 'items.csv', content: catalogue, mapping: { entities: { products: { field_mappings: { product_code: 'Item', name: 'Description', unit: 'Unit' } } } }, entityType: 'products' });
      expect(listed.status, JSON.stringify(listed.json)).toBe(200);
      const file = ['Date,Item,Qty', '20/11/2026,rye-1,500 g', '20/11/2026,RYE-1,2 pcs', '20/11/2026,spelt-7,250 g'].join('\n');
      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: salesMapping(), entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(await stored('rye-1')).toEqual([{ date: '2026-11-20', quantity: '0.500' }]);
      expect(await stored('RYE-1')).toEqual([{ date: '2026-11-20', quantity: '2.000' }]);
      expect(await stored('SPELT-7')).toEqual([{ date: '2026-11-20', quantity: '0.250' }]);
    });

    it("refuses a unit of another kind or a word it does not know, naming row, field and units; money does not take a unit; nothing is written", async () => {
      const before = await stored('CHE-001');
      const file = ['Date,Item,Qty', '23/11/2026,CHE-001,0.5 l', '23/11/2026,CHE-001,3 boxes', '23/11/2026,CHE-001,2 pcs', '23/11/2026,CHE-001,0.5 g', '23/11/2026,CHE-001,1 mg', '23/11/2026,CHE-001,2 in stock', '23/11/2026,HAM-002,0.125 kg', '23/11/2026,HAM-002,0.5 l'].join('\n');
      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping: salesMapping(), entityType: 'sales' });
      expect(result.status).toBe(400);
      expect(rowErrors(result.json)).toEqual([
        [2, 'quantity', 'Expected a quantity in kg (the unit of product CHE-001), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.'],
        [3, 'quantity', 'Expected a quantity in kg (the unit of product CHE-001), not 3 boxes: boxes is not a unit the import reads (kg, g, mg, t, lb, lbs, oz, l, ml, cl, dl, m, cm, mm, in, ft, yd, or pcs for pieces); write the number alone.'],
        [4, 'quantity', 'Expected a quantity in kg (the unit of product CHE-001), not 2 pcs: pcs counts pieces, kg is a weight; write the quantity in kg.'],
        [5, 'quantity', '0.5 g is 0.0005 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg in the file, rounded to 3.'],
        [6, 'quantity', '1 mg is 0.000001 kg (the unit of product CHE-001), more than 3 decimal places: write it in kg in the file, rounded to 3.'],
        // A note after the figure is not a unit, though "in" is one: only a number and one word are read so.
        [7, 'quantity', 'Expected a number, found "2 in stock".'],
        // Serrano ham has no unit: its first cell's kilos are what its later cells are read in.
        [9, 'quantity', 'Expected a quantity in kg (as row 8 wrote product HAM-002, which has no unit), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.'],
      ]);
      expect(await stored('CHE-001')).toEqual(before);

      const costs = { entities: { products: { field_mappings: { product_code: 'Item', unit_cost: 'Cost' } } } };
      const priced = await importFile(server, token, { fileName: 'costs.csv', content: 'Item,Cost\nCHE-001,3.75 kg\n', mapping: costs, entityType: 'products' });
      expect(priced.status).toBe(400);
      expect(rowErrors(priced.json)).toEqual([[2, 'unit_cost', 'Expected a number, found "3.75 kg".']]);
    });

    it('counts in the preview the quantities the import will read as written, in the words of its message, leaving out a totals line', async () => {
      // Serrano ham has no unit; Cheddar is in kg (converted, not counted); the totals line is skipped, not read.
      const file = ['Date,Item,Qty', '27/11/2026,HAM-002,0.125 kg', '27/11/2026,HAM-002,250 g', '27/11/2026,CHE-001,250 g', ',Summe,1 kg'].join('\n');
      const mapping = salesMapping();
      const preview = await postMultipart(server, '/api/records/preview-file/', token, [
        { name: 'entity_type', value: 'sales' },
        { name: 'mapping_config', value: JSON.stringify(mapping.entities.sales) },
        { name: 'file', fileName: 'till.csv', content: file },
      ]);
      expect(preview.status, JSON.stringify(preview.json)).toBe(200);
      const sentence = "quantities of products without a unit %s read in the unit their cells wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.";
      expect(preview.json.units_as_written).toEqual({ cells: 2, units: ['kg'], message: `2 ${sentence.replace('%s', 'will be')}` });

      const result = await importFile(server, token, { fileName: 'till.csv', content: file, mapping, entityType: 'sales' });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      expect(result.json.message).toContain(` 2 ${sentence.replace('%s', 'were')}`);
      expect((await stored('HAM-002')).filter(({ date }) => date === '2026-11-27')).toEqual([{ date: '2026-11-27', quantity: '0.375' }]);

      // A file of plain numbers has nothing to say.
      const plain = await postMultipart(server, '/api/records/preview-file/', token, [
        { name: 'entity_type', value: 'sales' },
        { name: 'mapping_config', value: JSON.stringify(mapping.entities.sales) },
        { name: 'file', fileName: 'till.csv', content: 'Date,Item,Qty\n27/11/2026,HAM-002,0.125\n' },
      ]);
      expect(plain.json).not.toHaveProperty('units_as_written');
    });
  });

  it('records a stock count of 12.5 m as on hand', async () => {
    const today = (await sql<{ today: string }>`select current_date::text as today`.execute(server.database.db)).rows[0]?.today as string;
    const mapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'Item', stock_level: 'Counted' }, field_values: { date: today } } } };
    const result = await importFile(server, token, { fileName: 'count.csv', content: 'Item,Counted\nCAB-003,12.5\nCHE-001,3.75\n', mapping, entityType: 'stock_snapshots' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const stock = await sql<{ code: string; current_stock: number }>`select product_code as code, current_stock from data.products where product_code in ('CAB-003', 'CHE-001') order by 1`.execute(server.database.db);
    expect(stock.rows).toEqual([
      { code: 'CAB-003', current_stock: 12.5 },
      { code: 'CHE-001', current_stock: 3.75 },
    ]);
  });
});
