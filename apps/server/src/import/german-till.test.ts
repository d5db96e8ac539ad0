// A German garden shop's first files (QA pass 3): a till journal whose quantities are written with
// three decimals (`1,000`) and whose price column tells the decimal comma, lines of empty cells
// (`;;`, Excel's blank row) among the records and a totals line (`Summe;;25`), and a stock count
// imported after the product list, whose stock figure is today's (ADR 0030, amended 2026-12-04).
import { sql } from 'kysely';
import { dayInTimeZone, formatDay, type ImportLogEntry } from '@stockwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const catalogue = 'Artikelnr;Bezeichnung;Bestand\nGT-1001;Gießkanne 10 l;24\nGT-1003;Rosenschere;5\nGT-1006;Rasensamen;\n';
const catalogueMapping = { entities: { products: { field_mappings: { product_code: 'Artikelnr', name: 'Bezeichnung', current_stock: 'Bestand' } } } };
const tillHeader = 'Datum;Artikelnr;Bezeichnung;Menge;Preis';
const salesMapping = (decimalComma: boolean) => ({
  entities: { sales: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', quantity: 'Menge' }, date_format: 'dd.mm.yyyy', ...(decimalComma ? { decimal_separator: ',' } : {}) } },
});

type RowErrors = { row_errors: { row: number; field: string; reason: string }[] };
type Preview = { decimal_separator: { detected: string | null; used: string }; new_products?: { code: string }[]; new_product_count?: number; rows: { row: number; values: Record<string, unknown>; problems: Record<string, string> }[] };

describe.each(backends)("a German shop's files on %s", (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const result = await importFile(server, token, { fileName: 'Artikelstamm.csv', content: catalogue, mapping: catalogueMapping, entityType: 'products' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  });
  afterAll(() => server.stop());

  const sales = async () =>
    (
      await sql<{ code: string; date: string; quantity: number }>`
        select p.product_code as code, s.date::text as date, s.quantity from data.sales s join data.products p on p.id = s.product_id order by p.product_code, s.date`.execute(server.database.db)
    ).rows;
  const preview = async (content: string, extra: { name: string; value: string }[] = []) => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: 'sales' }, { name: 'file', fileName: 'Kassenjournal.csv', content }, ...extra]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return result.json as unknown as Preview;
  };

  it('reads 1,000 / 2,000 / -1,000 in a whole-number column as 1, 2 and -1 with the decimal comma', async () => {
    const journal = `${tillHeader}\n03.11.2026;GT-1001;Gießkanne 10 l;1,000;16,50\n13.11.2026;GT-1003;Rosenschere;2,000;32,78\n14.11.2026;GT-1003;Rosenschere;-1,000;32,78\n`;
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping: salesMapping(true), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await sales()).toEqual([
      { code: 'GT-1001', date: '2026-11-03', quantity: 1 },
      { code: 'GT-1003', date: '2026-11-13', quantity: 2 },
      { code: 'GT-1003', date: '2026-11-14', quantity: -1 },
    ]);
  });

  // Whole units only until ADR 0176: a scale's 1,500 is one and a half kilos of what is sold by weight.
  it('reads 1,500 with the decimal comma as one and a half', async () => {
    const before = await sales();
    const journal = `${tillHeader}\n15.11.2026;GT-1001;Gießkanne 10 l;1,500;16,50\n`;
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping: salesMapping(true), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await sales()).toEqual([...before, { code: 'GT-1001', date: '2026-11-15', quantity: 1.5 }].sort((a, b) => a.code.localeCompare(b.code) || a.date.localeCompare(b.date)));
    await sql`delete from data.sales where date = '2026-11-15'`.execute(server.database.db);
  });

  it('without the decimal comma, offers it as the way out for 1,000', async () => {
    const journal = `${tillHeader}\n15.11.2026;GT-1001;Gießkanne 10 l;1,000;16,50\n`;
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping: salesMapping(false), entityType: 'sales' });
    expect(result.status).toBe(400);
    expect((result.json as unknown as RowErrors).row_errors[0]?.reason).toBe(
      "Expected a number, not 1,000: it is written with a decimal comma: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); or it has commas between thousands: save the column without thousands separators.",
    );
  });

  it("detects the decimal comma from the file's price column, though the sales store no price, and reads 1,000 as 1 in the proposal", async () => {
    const json = await preview(`${tillHeader}\n03.11.2026;GT-1001;Gießkanne 10 l;1,000;16,50\n04.11.2026;GT-1003;Rosenschere;2,000;32,78\n`);
    expect(json.decimal_separator).toEqual({ detected: ',', used: ',' });
    expect(json.rows.map((row) => [row.row, row.values.quantity, row.problems])).toEqual([
      [2, 1, {}],
      [3, 2, {}],
    ]);
  });

  it('skips lines of empty cells between and after the records, keeping the rows of the lines below', async () => {
    const before = await sales();
    const journal = 'Datum;Artikelnr;Menge\n01.12.2026;GT-1001;1\n;;\n02.12.2026;GT-1003;1\n;;\n';
    const json = await preview(journal, [{ name: 'mapping_config', value: JSON.stringify(salesMapping(false).entities.sales) }]);
    expect(json.rows.map((row) => [row.row, row.problems])).toEqual([
      [2, {}],
      [4, {}],
    ]);
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping: salesMapping(false), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 2, inserted: 2 } });
    expect(await sales()).toEqual([...before, { code: 'GT-1001', date: '2026-12-01', quantity: 1 }, { code: 'GT-1003', date: '2026-12-02', quantity: 1 }].sort((a, b) => a.code.localeCompare(b.code) || a.date.localeCompare(b.date)));
    // A refused line below a blank one is named by its own row, as Excel shows the file.
    const refused = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: 'Datum;Artikelnr;Menge\n;;\n03.12.2026;GT-1001;eins\n', mapping: salesMapping(false), entityType: 'sales' });
    expect((refused.json as unknown as RowErrors).row_errors).toEqual([expect.objectContaining({ row: 3, field: 'quantity' })]);
  });

  it('advises leaving a totals line out, not creating a product called Summe', async () => {
    const journal = 'Artikelnr;Datum;Menge\nGT-1001;01.12.2026;1\n;;\nSumme:;01.12.2026;25\n';
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping: salesMapping(false), entityType: 'sales' });
    expect(result.status).toBe(400);
    const reason = (result.json as unknown as RowErrors).row_errors.find((error) => error.row === 4 && error.field === 'product_id')?.reason ?? '';
    expect(reason).toBe("product code Summe: does not exist. It looks like a totals line, not a product: delete the line from the file, or leave it out with the mapping's 'Leave out lines where'.");
    expect(reason).not.toContain('Create products');
    const unknown = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: 'Datum;Artikelnr;Menge\n01.12.2026;GT-9999;1\n', mapping: salesMapping(false), entityType: 'sales' });
    expect((unknown.json as unknown as RowErrors).row_errors[0]?.reason).toContain("Tick 'Create products for unknown codes'");
  });

  it("skips a totals line when creating products for unknown codes, says so, and does not list it among the new products", async () => {
    const journal = 'Datum;Artikelnr;Menge\n20.11.2026;GT-1001;2\n20.11.2026;NEU-1;1\n20.11.2026;Summe;3\n';
    const mapping = { entities: { sales: { ...salesMapping(false).entities.sales, create_missing_products: true } } };
    const previewed = await preview(journal, [{ name: 'mapping_config', value: JSON.stringify(mapping.entities.sales) }]);
    expect(previewed).toMatchObject({ new_products: [{ code: 'NEU-1' }], new_product_count: 1 });
    const result = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: journal, mapping, entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.message).toBe('Imported 2 rows into sales: 2 inserted, 0 updated. 1 new product created for unknown codes: NEU-1. 1 totals line (Summe) was skipped.');
    expect(result.json.counts).toMatchObject({ rows: 2, inserted: 2, created_references: 1, totals_skipped: 1 });
    const products = await sql<{ code: string }>`select product_code as code from data.products where product_code in ('NEU-1', 'Summe') order by 1`.execute(server.database.db);
    expect(products.rows).toEqual([{ code: 'NEU-1' }]);
    // Every line a totals line: nothing to import, and why.
    const onlyTotals = await importFile(server, token, { fileName: 'Kassenjournal.csv', content: 'Datum;Artikelnr;Menge\n01.12.2026;Gesamt:;3\n', mapping, entityType: 'sales' });
    expect(onlyTotals.status).toBe(400);
    expect(onlyTotals.json.detail).toBe('Nothing to import: every line of the file was left out (1 as totals lines).');
  });

  it("judges counts by the shop's day, not UTC's: a product list's stock is recorded on it, an earlier count said to change nothing, a count of the shop's today on hand", async () => {
    // A zone whose day is not UTC's now (one of them always is): the shop's late evening or early morning.
    const utcDay = dayInTimeZone(Date.now(), 'UTC');
    const zone = dayInTimeZone(Date.now(), 'Pacific/Kiritimati') !== utcDay ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
    const shopDay = dayInTimeZone(Date.now(), zone);
    const dayBefore = new Date(Date.parse(`${shopDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const extra = { time_zone: zone };
    const list = await importFile(server, token, { fileName: 'Artikelstamm.csv', content: 'Artikelnr;Bezeichnung;Bestand\nTZ-1;Vogelhaus;10\nTZ-2;Futtersilo;10\n', mapping: catalogueMapping, entityType: 'products', extra });
    expect(list.status, JSON.stringify(list.json)).toBe(200);
    const snapshots = await sql<{ code: string; date: string; stock_level: number }>`
      select p.product_code as code, s.date::text as date, s.stock_level from data.stock_snapshots s join data.products p on p.id = s.product_id where p.product_code like 'TZ-%' order by 1, 2`.execute(server.database.db);
    expect(snapshots.rows).toEqual([
      { code: 'TZ-1', date: shopDay, stock_level: 10 },
      { code: 'TZ-2', date: shopDay, stock_level: 10 },
    ]);
    const countsMapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'Artikelnr', date: 'Datum', stock_level: 'Gezählt' } } } };
    const count = (code: string, day: string, level: number) => importFile(server, token, { fileName: 'Inventur.csv', content: `Artikelnr;Datum;Gezählt\n${code};${day};${level}\n`, mapping: countsMapping, entityType: 'stock_snapshots', extra });
    const earlier = await count('TZ-1', dayBefore, 7);
    expect(earlier.status, JSON.stringify(earlier.json)).toBe(200);
    expect(earlier.json.message).toBe('Imported 1 row into stock counts: 1 inserted, 0 updated.');
    expect(earlier.json.notices).toEqual([`The count is older than the stock recorded on ${formatDay(shopDay)} (from the product list or the Data screen); on hand stays as recorded then. Count again or import the counts with today's date.`]);
    const todays = await count('TZ-2', shopDay, 4);
    expect(todays.status, JSON.stringify(todays.json)).toBe(200);
    expect(todays.json.notices).toBeUndefined();
    const stock = await sql<{ code: string; current_stock: number }>`select product_code as code, current_stock from data.products where product_code like 'TZ-%' order by 1`.execute(server.database.db);
    expect(stock.rows).toEqual([
      { code: 'TZ-1', current_stock: 10 },
      { code: 'TZ-2', current_stock: 4 },
    ]);
  });

  it("says which counts older than the product list's stock do not change on hand, in the result and the import log", async () => {
    const today = (await sql<{ today: string }>`select current_date::text as today`.execute(server.database.db)).rows[0]?.today as string;
    const daysAgo = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    const counted = daysAgo(4);
    const count = 'Artikelnr;Bezeichnung;Gezählt\nGT-1001;Gießkanne 10 l;18\nGT-1003;Rosenschere;3\nGT-1006;Rasensamen;0\n';
    const mapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'Artikelnr', stock_level: 'Gezählt' }, field_values: { date: counted } } } };
    const result = await importFile(server, token, { fileName: 'Inventur.csv', content: count, mapping, entityType: 'stock_snapshots' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json.message).toBe('Imported 3 rows into stock counts: 3 inserted, 0 updated.');
    const notice = `2 of 3 counts are older than the stock recorded on ${formatDay(today)} (from the product list or the Data screen); on hand stays as recorded then. Count again or import the counts with today's date.`;
    expect(result.json.notices).toEqual([notice]);
    const stock = await sql<{ code: string; current_stock: number | null }>`select product_code as code, current_stock from data.products where product_code like 'GT-%' order by 1`.execute(server.database.db);
    expect(stock.rows).toEqual([
      { code: 'GT-1001', current_stock: 24 },
      { code: 'GT-1003', current_stock: 5 },
      { code: 'GT-1006', current_stock: 0 },
    ]);
    const log = (await server.request(`/api/records/imports/${result.json.import_id as string}/`, { token })).json as unknown as ImportLogEntry;
    expect(log.details.notices).toEqual([notice]);
    // Counts of today are on hand: nothing to say.
    const todays = await importFile(server, token, { fileName: 'Inventur.csv', content: count, mapping: { entities: { stock_snapshots: { ...mapping.entities.stock_snapshots, field_values: { date: today } } } }, entityType: 'stock_snapshots' });
    expect(todays.status, JSON.stringify(todays.json)).toBe(200);
    expect(todays.json.notices).toBeUndefined();
  });
});
