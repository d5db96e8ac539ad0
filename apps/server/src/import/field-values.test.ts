// A garden shop's files without a date column: a stock count (`Artikelnummer;Bezeichnung;Bestand`)
// and a till's end-of-day export (`Tagesumsatz 30.11.2026`, one line per product), imported into
// stock_snapshots and sales with the mapping's `field_values: {date: …}`: every line gets that day,
// repeated lines add up as with a date column, `today` is the shop's day, and a value that is not a
// date, lies ahead, or fights a mapped column is a 400 naming it, with nothing written.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type PreviewFileResponse } from '@stockwise/contract';
import { SERVER_ZONE } from '../testing/shop-zone.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';
import { dayOfTitleLines } from './preview.ts';

const catalogueMapping = { entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } };
const countMapping = (date: string) => ({ entities: { stock_snapshots: { field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' }, field_values: { date } } } });
const tillMapping = (date: string) => ({ entities: { sales: { field_mappings: { product_id: 'Artikel', quantity: 'Menge' }, field_values: { date } } } });
const count = 'Artikelnummer;Bezeichnung;Bestand\nFV-1;Kompost 40l;12\nFV-2;Rindenmulch;0\n';
// The till's export of one day: FV-1 sold twice (two receipts), a return of FV-2.
const till = 'Artikel;Bezeichnung;Menge\nFV-1;Kompost 40l;2\nFV-2;Rindenmulch;1\nFV-1;Kompost 40l;3\nFV-2;Rindenmulch;-1\nFV-3;Blumenerde;4\n';

describe('the day title lines name', () => {
  it.each([
    ['a German stock count', ['Inventur 30.11.2026'], '2026-11-30'],
    ['a dotted day with both parts 12 or less: day first', ['Inventur 01.02.2026'], '2026-02-01'],
    ['an ISO day beside a branch', ['Filiale Nord', 'Stand 2026-11-30'], '2026-11-30'],
    ['a slashed day whose first part is above 12', ['Stock count 30/11/2026'], '2026-11-30'],
    ['the same day twice', ['Inventur 30.11.2026', 'Gezählt am 30.11.2026'], '2026-11-30'],
    ['two days (a period)', ['Zeitraum 01.11.2026 - 30.11.2026'], null],
    ['a slashed day that could be either', ['Stock count 03/04/2026'], null],
    ['no calendar day', ['Inventur 31.11.2026'], null],
    ['no day at all', ['Lagerbestand Gartencenter Nord'], null],
  ])('%s', (_name, lines, day) => {
    expect(dayOfTitleLines(lines)).toBe(day);
  });
});

describe.each(backends)('one date for every line on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const catalogue = 'code,name\nFV-1,Kompost 40l\nFV-2,Rindenmulch\nFV-3,Blumenerde\n';
    const stored = await importFile(server, token, { fileName: 'catalogue.csv', content: catalogue, mapping: catalogueMapping, entityType: 'products' });
    expect(stored.status, JSON.stringify(stored.json)).toBe(200);
  });
  afterAll(() => server.stop());

  const rowsOf = async (table: 'sales' | 'stock_snapshots') =>
    (
      await sql<{ code: string; date: string; value: number }>`
        select p.product_code as code, t.date::text as date, ${sql.ref(table === 'sales' ? 't.quantity' : 't.stock_level')} as value
        from ${sql.table(`data.${table}`)} t join data.products p on p.id = t.product_id where p.product_code like 'FV-%' order by 2, 1`.execute(server.database.db)
    ).rows;

  it('dates every line of a stock count without a date column with the day given, read as the file arrives or from the spooled file', async () => {
    const arriving = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping('2026-11-30'), entityType: 'stock_snapshots', fieldsFirst: true });
    expect(arriving.status, JSON.stringify(arriving.json)).toBe(200);
    expect(arriving.json).toMatchObject({ counts: { rows: 2, inserted: 2, updated: 0 } });
    const spooled = await importFile(server, token, { fileName: 'inventur.csv', content: count.replace(';12', ';11'), mapping: countMapping('2026-11-29'), entityType: 'stock_snapshots' });
    expect(spooled.status, JSON.stringify(spooled.json)).toBe(200);
    expect(await rowsOf('stock_snapshots')).toEqual([
      { code: 'FV-1', date: '2026-11-29', value: 11 },
      { code: 'FV-2', date: '2026-11-29', value: 0 },
      { code: 'FV-1', date: '2026-11-30', value: 12 },
      { code: 'FV-2', date: '2026-11-30', value: 0 },
    ]);
  });

  it("proposes the day of a stock count's title line as the date of every line, reads the preview with it, and imports on the day the user keeps", async () => {
    const titled = `Inventur 30.11.2026;;\n\n${count.replace('FV-1;Kompost 40l;12', 'FV-1;Kompost 40l;9')}`;
    const preview = async (content: string, extra: { name: string; value: string }[] = []) => {
      const result = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: 'stock_snapshots' }, { name: 'file', fileName: 'inventur.csv', content }, ...extra]);
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      return result.json as unknown as PreviewFileResponse;
    };
    const proposed = await preview(titled);
    expect(proposed).toMatchObject({ header_row: 3, proposed_mapping: { product_id: 'Artikelnummer', date: null, stock_level: 'Bestand' }, proposed_field_values: { date: '2026-11-30' } });
    expect(proposed.rows).toEqual([
      { row: 4, values: { product_id: 'FV-1', stock_level: 9, date: '2026-11-30' }, problems: {} },
      { row: 5, values: { product_id: 'FV-2', stock_level: 0, date: '2026-11-30' }, problems: {} },
    ]);
    // The Import screen's draft: the proposal with its day, as "Same date for all lines" shows it.
    const mapping = { entities: { stock_snapshots: { field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' }, field_values: proposed.proposed_field_values } } };
    const imported = await importFile(server, token, { fileName: 'inventur.csv', content: titled, mapping, entityType: 'stock_snapshots' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    expect((await rowsOf('stock_snapshots')).filter((row) => row.date === '2026-11-30')).toEqual([
      { code: 'FV-1', date: '2026-11-30', value: 9 },
      { code: 'FV-2', date: '2026-11-30', value: 0 },
    ]);
    // Not proposed: a given mapping's own choice, a title naming a period, a day after today (the shop's, in its time zone).
    expect((await preview(titled, [{ name: 'mapping_config', value: JSON.stringify({ field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' } }) }])).proposed_field_values).toBeUndefined();
    expect((await preview(titled.replace('Inventur 30.11.2026', 'Zeitraum 01.11.2026 - 30.11.2026'))).proposed_field_values).toBeUndefined();
    expect((await preview(titled.replace('30.11.2026', '30.11.2099'))).proposed_field_values).toBeUndefined();
  });

  it("imports a till's end-of-day export as that day's sales, adding up a product's lines as with a date column", async () => {
    const result = await importFile(server, token, { fileName: 'Tagesumsatz 30.11.2026.csv', content: till, mapping: tillMapping('2026-11-30'), entityType: 'sales' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(result.json).toMatchObject({ counts: { rows: 5, duplicates: 2, inserted: 3 }, message: expect.stringContaining('added up into 3 rows, one per product and date') });
    expect(await rowsOf('sales')).toEqual([
      { code: 'FV-1', date: '2026-11-30', value: 5 },
      { code: 'FV-2', date: '2026-11-30', value: 0 },
      { code: 'FV-3', date: '2026-11-30', value: 4 },
    ]);
  });

  it("reads today as the day in the time zone the upload names, and in the shop's without one (the server's: none chosen)", async () => {
    // A day apart nearly all the time: Kiritimati is UTC+14, Pago Pago UTC-11.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const result = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping('today'), entityType: 'stock_snapshots', extra: { time_zone: zone } });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      const day = dayInTimeZone(Date.now(), zone);
      expect((await rowsOf('stock_snapshots')).filter((row) => row.date === day)).toHaveLength(2);
    }
    const unsent = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping('today'), entityType: 'stock_snapshots' });
    expect(unsent.status, JSON.stringify(unsent.json)).toBe(200);
    expect((await rowsOf('stock_snapshots')).filter((row) => row.date === dayInTimeZone(Date.now(), SERVER_ZONE))).toHaveLength(2);

    const unknownZone = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping('today'), entityType: 'stock_snapshots', extra: { time_zone: 'Mars/Olympus_Mons' } });
    expect(unknownZone.status).toBe(400);
    expect(unknownZone.json).toMatchObject({ detail: 'time_zone: Mars/Olympus_Mons is not a time zone (such as Europe/Berlin or America/New_York).' });
    const longZone = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping('today'), entityType: 'stock_snapshots', extra: { time_zone: 'Mars/'.repeat(20_000) } });
    expect(longZone.status).toBe(400);
    expect(longZone.json).toMatchObject({ detail: `time_zone: ${'Mars/'.repeat(20_000).slice(0, 64)}… is not a time zone (such as Europe/Berlin or America/New_York).` });
  });

  it('refuses a time zone sent after a file that was read as it arrived, writing nothing', async () => {
    const before = await rowsOf('stock_snapshots');
    const mapping = countMapping('today');
    const result = await postMultipart(server, '/api/records/process-file/', token, [
      { name: 'mapping_config', value: JSON.stringify(mapping) },
      { name: 'entity_type', value: 'stock_snapshots' },
      { name: 'file', fileName: 'inventur.csv', content: count },
      { name: 'time_zone', value: 'Pacific/Kiritimati' },
    ]);
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ code: 'validation_error', detail: expect.stringContaining('time_zone came after the file') });
    expect(await rowsOf('stock_snapshots')).toEqual(before);
    // Before the file, or with every field after it (the file is then spooled and read once all fields are in), the zone counts.
    const afterSpooled = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping, entityType: 'stock_snapshots', extra: { time_zone: 'Pacific/Kiritimati' } });
    expect(afterSpooled.status, JSON.stringify(afterSpooled.json)).toBe(200);
  });

  it('refuses an empty mapping, a date field both mapped and given a value, a value that is not a date, and a day after today, naming the field; nothing is written', async () => {
    const before = { sales: await rowsOf('sales'), counts: await rowsOf('stock_snapshots') };
    const both = { entities: { sales: { field_mappings: { product_id: 'Artikel', quantity: 'Menge', date: 'Datum' }, field_values: { date: '2026-11-30' } } } };
    const refusals: [unknown, string, string][] = [
      [both, 'sales', 'The mapping configuration is not valid (entities.sales.field_values.date: date is both mapped to a column and given one value for every line; keep one of them.).'],
      [{}, 'sales', "The mapping maps no columns: choose the file's column for each field to import."],
      [tillMapping('2026-13-01'), 'sales', 'Invalid configuration: field_values.date: 2026-13-01 is not a real date: a year has 12 months.'],
      [tillMapping('30.11.2026'), 'sales', 'Invalid configuration: field_values.date: 30.11.2026 is not a date: write it YYYY-MM-DD (2026-11-30), or today.'],
      [countMapping('2026-02-30'), 'stock_snapshots', 'Invalid configuration: field_values.date: 2026-02-30 is not a real date: February 2026 has 28 days.'],
    ];
    for (const [mapping, entityType, detail] of refusals) {
      const result = await importFile(server, token, { fileName: 'file.csv', content: entityType === 'sales' ? till : count, mapping, entityType });
      expect(result.status, detail).toBe(400);
      expect(result.json).toMatchObject({ code: 'validation_error', detail });
    }
    const tomorrow = new Date(Date.parse(`${dayInTimeZone(Date.now(), 'Europe/Berlin')}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const ahead = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: countMapping(tomorrow), entityType: 'stock_snapshots', extra: { time_zone: 'Europe/Berlin' } });
    expect(ahead.status).toBe(400);
    expect(ahead.json).toMatchObject({ detail: `Invalid configuration: field_values.date: ${tomorrow} is in the future (today is ${dayInTimeZone(Date.now(), 'Europe/Berlin')}): sales and stock counts are dated when they happened.` });
    const reference = await importFile(server, token, { fileName: 'inventur.csv', content: count, mapping: { field_mappings: { date: 'Datum', stock_level: 'Bestand' }, field_values: { product_id: 'FV-1' } }, entityType: 'stock_snapshots' });
    expect(reference.status).toBe(400);
    expect(reference.json).toMatchObject({ detail: 'Invalid configuration: field_values.product_id: Product refers to another table; its code comes from a column of the file.' });
    expect({ sales: await rowsOf('sales'), counts: await rowsOf('stock_snapshots') }).toEqual(before);
  });

  it('keeps row numbers of row errors as the spreadsheet shows them', async () => {
    const result = await importFile(server, token, { fileName: 'inventur.csv', content: 'Artikelnummer;Bezeichnung;Bestand\nFV-1;Kompost 40l;12\nFV-2;Rindenmulch;viele\n', mapping: countMapping('2026-11-28'), entityType: 'stock_snapshots' });
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ row_error_count: 1, row_errors: [{ row: 3, field: 'stock_level', column: 'Bestand' }] });
    expect((await rowsOf('stock_snapshots')).filter((row) => row.date === '2026-11-28')).toEqual([]);
  });

  it('previews the date as filled with the value on every line', async () => {
    const result = await postMultipart(server, '/api/records/preview-file/', token, [
      { name: 'file', fileName: 'inventur.csv', content: count },
      { name: 'entity_type', value: 'stock_snapshots' },
      { name: 'mapping_config', value: JSON.stringify(countMapping('2026-11-30')) },
    ]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    const json = result.json as { rows: { row: number; values: Record<string, unknown>; problems: Record<string, string> }[] };
    expect(json.rows).toEqual([
      { row: 2, values: { product_id: 'FV-1', stock_level: 12, date: '2026-11-30' }, problems: {} },
      { row: 3, values: { product_id: 'FV-2', stock_level: 0, date: '2026-11-30' }, problems: {} },
    ]);
  });

  it('saves a mapping with a date value or today, and refuses one whose value is not a date', async () => {
    const save = (name: string, date: string) => server.request('/api/yaml/save-mapping/', { body: { name, config: tillMapping(date) }, token });
    expect((await save(`till_${backend}_daily`, 'today')).status).toBe(200);
    expect((await save(`till_${backend}_day`, '2026-11-30')).status).toBe(200);
    const refused = await save(`till_${backend}_bad`, '2026-13-01');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: 'Invalid configuration: field_values.date: 2026-13-01 is not a real date: a year has 12 months.' });
  });
});
