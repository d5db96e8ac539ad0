// The records writer as integrations call it: mapped records per batch, in their own transaction,
// with the data actions upsert, insert (stored keys refused and counted) and replace (what an
// earlier run of the same source wrote and this run did not is deleted).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type EntityMapping } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';
import { applyMapping } from './mapping.ts';
import { inImportTransaction } from './repo.ts';
import { resolveWriteTarget } from './target.ts';
import { listRowReferences } from '../tables/service.ts';
import { removeRowsOfEarlierRuns, writeRecords, type WriteOptions } from './writer.ts';
import { currentProductConfig } from '../config/service.ts';

const mapping: EntityMapping = { field_mappings: { product_id: 'item.sku', date: 'day', quantity: 'units' } };

describe.each(backends)('records writer on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    const token = (await signUpUser(server)).access;
    await importFile(server, token, { fileName: 'p.csv', content: 'code,name\nWRT-1,One\nWRT-2,Two\n', mapping: { field_mappings: { product_code: 'code', name: 'name' } }, entityType: 'products' });
  });
  afterAll(() => server.stop());

  const write = async (records: unknown[], options: Omit<WriteOptions, 'mapping'>) => {
    const config = await currentProductConfig({ db: server.database.db, configFile: server.config.configFile });
    const target = await resolveWriteTarget(server.database.db, config, 'sales', mapping);
    const batch = records.map((record, at) => ({ row: at + 1, fields: applyMapping(record, mapping.field_mappings) }));
    return inImportTransaction(server.database, (session) => writeRecords(session, target, [batch], { mapping, ...options }));
  };
  const stored = async () =>
    (
      await sql<{ code: string; date: string; quantity: number }>`
        select p.product_code as code, s.date, s.quantity from data.sales s join data.products p on p.id = s.product_id
        where p.product_code like 'WRT-%' order by 1, 2`.execute(server.database.db)
    ).rows;
  const line = (sku: string, day: string, units: number) => ({ item: { sku }, day, units });

  it('upserts a batch by product code, summing lines of a day', async () => {
    const outcome = await write([line('WRT-1', '2026-02-01', 2), line('WRT-1', '2026-02-01', 3), line('WRT-2', '2026-02-01', 1)], {});
    expect(outcome).toMatchObject({ rowErrorCount: 0, repeatedKeys: 'sum', counts: { rows: 3, written: 2, inserted: 2 } });
    expect(await stored()).toEqual([
      { code: 'WRT-1', date: '2026-02-01', quantity: 5 },
      { code: 'WRT-2', date: '2026-02-01', quantity: 1 },
    ]);
  });

  it('inserts only new keys with data action insert, counting the refused ones', async () => {
    const outcome = await write([line('WRT-1', '2026-02-01', 9), line('WRT-1', '2026-02-02', 4)], { dataAction: 'insert' });
    expect(outcome.counts).toMatchObject({ rows: 2, inserted: 1, refused: 1 });
    expect((await stored()).find((r) => r.date === '2026-02-01' && r.code === 'WRT-1')?.quantity).toBe(5);
  });

  it('replaces what an earlier run of the same source wrote and this run did not, once its last batch is in', async () => {
    const source = (run: string) => ({ source: { tag: 'integration:test', run } });
    await write([line('WRT-2', '2026-03-01', 1), line('WRT-2', '2026-03-02', 2), line('WRT-2', '2026-03-03', 3)], { dataAction: 'replace', ...source('run-1') });
    await write([line('WRT-2', '2026-03-02', 7)], { dataAction: 'replace', ...source('run-2') });
    await write([line('WRT-2', '2026-03-03', 8)], { dataAction: 'replace', ...source('run-2') });
    expect((await stored()).filter((r) => r.date.startsWith('2026-03')).length).toBe(3);
    const target = await resolveWriteTarget(server.database.db, await currentProductConfig({ db: server.database.db, configFile: server.config.configFile }), 'sales', mapping);
    const references = await listRowReferences(server.database.db, target.encodedName);
    const removed = await inImportTransaction(server.database, (session) => removeRowsOfEarlierRuns(session, target, { tag: 'integration:test', run: 'run-2' }, references));
    expect(removed).toEqual({ deleted: 1, kept: { count: 0, keys: [], tables: [] } });
    const march = (await stored()).filter((r) => r.date.startsWith('2026-03'));
    expect(march).toEqual([
      { code: 'WRT-2', date: '2026-03-02', quantity: 7 },
      { code: 'WRT-2', date: '2026-03-03', quantity: 8 },
    ]);
    expect((await stored()).some((r) => r.date === '2026-02-01')).toBe(true);
  });

  it("sets aside a batch's lines of a product and day that add up beyond what the column holds, naming them, and writes the others", async () => {
    const outcome = await write([line('WRT-1', '2026-05-01', 60_000_000_000), line('WRT-2', '2026-05-01', 4), line('WRT-1', '2026-05-01', 50_000_000_000)], { setAsideRefused: true });
    expect(outcome).toMatchObject({ rowErrorCount: 2, setAside: 2, counts: { rows: 3, written: 1 } });
    expect(outcome.rowErrors).toEqual([
      {
        row: 3,
        field: 'quantity',
        column: 'units',
        reason: 'Rows 1 and 3 (the same product and date): 60,000,000,000 + 50,000,000,000 = 110,000,000,000 is more than the Quantity column holds (at most 99,999,999,999.999).',
        lines: 2,
      },
    ]);
    expect((await stored()).filter((r) => r.date === '2026-05-01')).toEqual([{ code: 'WRT-2', date: '2026-05-01', quantity: 4 }]);
  });

  it('answers refused rows, naming field and source path, and writes nothing of that batch', async () => {
    const before = await stored();
    const outcome = await write([line('WRT-1', '2026-04-01', 1), line('NOPE', '2026-04-01', 1), { item: {}, day: 'soon', units: 'x' }], {});
    // Row 2's unknown code is reported beside row 3's own errors: a batch is mended once.
    expect(outcome.rowErrorCount).toBe(2);
    expect(outcome.rowErrors).toEqual([
      { row: 2, field: 'product_id', column: 'item.sku', reason: "product code NOPE does not exist. Tick 'Create products for unknown codes' to create it, or add it on the Data screen." },
      { row: 3, field: 'product_id', column: 'item.sku', reason: 'A value is required.' },
      { row: 3, field: 'date', column: 'day', reason: expect.stringContaining('Expected a date') },
      { row: 3, field: 'quantity', column: 'units', reason: 'Expected a number, found "x".' },
    ]);
    expect(await stored()).toEqual(before);
  });
  it("runs its transaction in the shop's time zone, whose day current_date is; a zone the database does not know leaves the database's day", async () => {
    const day = (timeZone?: string) => inImportTransaction(server.database, async (session) => (await session.run(sql<{ today: string }>`select current_date::text as today`))[0]?.today, { timeZone });
    const databaseDay = await day();
    expect(await day('Pacific/Kiritimati')).toBe(dayInTimeZone(Date.now(), 'Pacific/Kiritimati'));
    expect(await day('Etc/GMT+12')).toBe(dayInTimeZone(Date.now(), 'Etc/GMT+12'));
    expect(await day('Nowhere/Atlantis')).toBe(databaseDay);
    // SET LOCAL: the next transaction is back in the database's zone.
    expect(await day()).toBe(databaseDay);
  });
});
