// Undo of a stock count file's import (ADR 0175), on PGlite and PostgreSQL: last week's count file
// imported as today's and undone leaves every snapshot and every product's on-hand figure exactly as
// before (counts it replaced put back, rows it created gone, a product it counted first back to not
// counted) and queues the forecasts again; a later count import over the same rows refuses the
// earlier one's undo naming it, changing nothing, until it is undone first; a count typed over or
// deleted since refuses too; on hand judged by the import's own day (its time zone); undoing twice; an import older than the last 20 stock count imports;
// a stock take through products is refused; two undos at once, and an undo beside an import.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type ImportLogEntry } from '@stockwise/contract';
import { catalogueRunsSettled } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';
import { KEPT_STOCK_IMPORTS } from './repo.ts';

/** A stock take: one line per product, the day given by the mapping (field_values). */
const countMapping = (day: string) => ({ entities: { stock_snapshots: { field_mappings: { product_id: 'Artikel', stock_level: 'Gezählt' }, field_values: { date: day } } } });
type Count = [code: string, counted: number];

describe.each(backends)('undo of a stock count import on %s', (backend) => {
  let server: TestServer;
  let editor: string;
  let prefixes = 0;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server);
    editor = (await signUpUser(server, { role: 'editor' })).access;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const products = async (count: number) => {
    const prefix = `US${backend[0]}${(prefixes += 1)}-`;
    const codes = Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
    await sql`insert into data.products (product_code, name) select c, 'Product ' || c from unnest(${codes}::text[]) c`.execute(server.database.db);
    return codes;
  };
  /** Counts stored as the Data screen would: each snapshot, and on hand following the latest (the trigger). */
  const stored = (code: string, day: string, level: number) =>
    sql`insert into data.stock_snapshots (product_id, date, stock_level) select id, ${day}::date, ${level} from data.products where product_code = ${code}`.execute(server.database.db);
  const take = async (day: string, lines: Count[], fileName = 'inventur.csv') => {
    const content = `Artikel;Gezählt\n${lines.map((line) => line.join(';')).join('\n')}\n`;
    const answer = await importFile(server, editor, { fileName, content, mapping: countMapping(day), entityType: 'stock_snapshots', extra: { mapping_name: 'Weekly count' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.import_id as string;
  };
  const undo = (id: string) => server.request(`/api/records/imports/${id}/undo/`, { method: 'POST', token: editor });
  const log = async (id: string) => (await server.request(`/api/records/imports/${id}/`, { token: editor })).json as unknown as ImportLogEntry;
  const state = async (codes: string[]) => ({
    counts: (
      await sql<{ code: string; date: string; level: number }>`
        select p.product_code as code, s.date::text as date, s.stock_level as level from data.stock_snapshots s join data.products p on p.id = s.product_id
        where p.product_code = any(${codes}::text[]) order by 1, 2`.execute(server.database.db)
    ).rows,
    onHand: (await sql<{ code: string; stock: number }>`select product_code as code, current_stock as stock from data.products where product_code = any(${codes}::text[]) order by 1`.execute(server.database.db)).rows,
  });
  const today = async () => (await sql<{ day: string }>`select current_date::text as day`.execute(server.database.db)).rows[0]?.day ?? '';

  it("puts last week's counts back exactly after a file imported as today's, removes the counts it added, and sets on hand as before", async () => {
    const [compost = '', mulch = '', bark = '', peat = ''] = await products(4);
    const day = await today();
    await stored(compost, '2026-11-28', 12);
    // Compost and bark are sold by weight (ADR 0176): their counts in kg, put back to the gram.
    await stored(compost, day, 9.5);
    await stored(mulch, day, 4);
    await stored(bark, '2026-11-28', 7.25);
    const before = await state([compost, mulch, bark, peat]);
    expect(before.onHand).toEqual([
      { code: compost, stock: 9.5 },
      { code: mulch, stock: 4 },
      { code: bark, stock: 7.25 },
      { code: peat, stock: 0 },
    ]);
    // Last week's file as today's: compost 9.5 → 12, mulch unchanged at 4, bark and peat get a count today.
    const imported = await take(day, [[compost, 12], [mulch, 4], [bark, 3], [peat, 5]], 'count-week47.csv');
    expect((await state([compost, bark, peat])).onHand).toEqual([
      { code: compost, stock: 12 },
      { code: bark, stock: 3 },
      { code: peat, stock: 5 },
    ]);
    expect(await log(imported)).toMatchObject({ undoable: true, undone: null, details: { stock_written: { counts: 4, replaced: 1, added: 2, first_day: day, last_day: day } } });

    await catalogueRunsSettled(server.database.db);
    const catalogueTasks = async () => (await server.database.db.selectFrom('forecast_tasks').select('id').where('style_code', 'is', null).execute()).length;
    const tasksBefore = await catalogueTasks();
    const answer = await undo(imported);
    expect(answer.status, answer.text).toBe(200);
    const range = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
    expect(answer.json).toEqual({
      message: `Undid 'count-week47.csv' (${range}): put back 1 count as it was before it and removed the 2 counts it added. The count it wrote unchanged stays as it is.`,
      restored: 1,
      removed: 2,
      product_days: 4,
    });
    expect(await state([compost, mulch, bark, peat])).toEqual(before);
    // Stock-out dates rest on stock: the forecasts are made again, as after an import.
    expect(await catalogueTasks()).toBe(tasksBefore + 1);
    const entry = await log(imported);
    expect(entry).toMatchObject({ undoable: false, undone: { message: answer.json.message as string } });
    const twice = await undo(imported);
    expect(twice.status).toBe(409);
    expect(twice.json.detail).toMatch(/^This import was already undone \(\d+ \w+ \d{4}, \d\d:\d\d UTC by /);
  });

  it('judges on hand by the day of the time zone the import ran in, as the import did', async () => {
    const [seeds = ''] = await products(1);
    await stored(seeds, await today(), 5);
    // Where Kiritimati's day is already tomorrow in UTC, its count made today is on hand there only.
    const zone = 'Pacific/Kiritimati';
    const content = `Artikel;Gezählt\n${seeds};8\n`;
    const answer = await importFile(server, editor, { fileName: 'kiritimati.csv', content, mapping: countMapping(dayInTimeZone(Date.now(), zone)), entityType: 'stock_snapshots', extra: { time_zone: zone } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect((await state([seeds])).onHand).toEqual([{ code: seeds, stock: 8 }]);
    expect((await undo(answer.json.import_id as string)).status).toBe(200);
    expect((await state([seeds])).onHand).toEqual([{ code: seeds, stock: 5 }]);
    expect((await state([seeds])).counts).toHaveLength(1);
  });

  it('refuses the undo of a count file a later count import wrote over, naming it and changing nothing; the later one first, then it', async () => {
    const [rakes = '', hoes = ''] = await products(2);
    await stored(rakes, '2026-11-20', 6);
    const first = await take('2026-11-20', [[rakes, 8], [hoes, 2]], 'branch-a.csv');
    // The same count again, from a later file: a later import all the same.
    const later = await take('2026-11-20', [[rakes, 8]], 'branch-a-again.csv');
    const now = await state([rakes, hoes]);
    const refused = await undo(first);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toMatch(/^1 count this file wrote was changed since by a later import, 'branch-a-again\.csv' under 'Weekly count' \(\d+ \w+ \d{4}, \d\d:\d\d UTC\): undo that import first\. Nothing was changed\.$/);
    expect(await state([rakes, hoes])).toEqual(now);
    expect((await log(first)).undoable).toBe(true);
    expect((await undo(later)).status).toBe(200);
    expect((await undo(first)).status).toBe(200);
    expect((await state([rakes, hoes])).counts).toEqual([{ code: rakes, date: '2026-11-20', level: 6 }]);
  });

  it('refuses a count typed over or deleted since, naming both; a stock take through products is refused', async () => {
    const [pins = '', tacks = '', nails = ''] = await products(3);
    const imported = await take('2026-11-15', [[pins, 3], [tacks, 4], [nails, 5]]);
    await sql`update data.stock_snapshots set stock_level = 30 where product_id = (select id from data.products where product_code = ${pins})`.execute(server.database.db);
    await sql`delete from data.stock_snapshots where product_id = (select id from data.products where product_code = ${tacks})`.execute(server.database.db);
    const now = await state([pins, tacks, nails]);
    const refused = await undo(imported);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(
      "1 count this file wrote was changed since (on the Data screen, by a product list's stock or by an integration), so it cannot be put back as before. 1 count this file wrote was deleted since (on the Data screen, or with its product), so it cannot be put back as before. Nothing was changed.",
    );
    expect(await state([pins, tacks, nails])).toEqual(now);

    const stockTake = await importFile(server, editor, { fileName: 'inventur.csv', content: `code;stock\n${nails};6\n`, mapping: { entities: { products: { field_mappings: { product_code: 'code', current_stock: 'stock' } } } }, entityType: 'products' });
    expect(stockTake.status, JSON.stringify(stockTake.json)).toBe(200);
    const notCounts = await undo(stockTake.json.import_id as string);
    expect(notCounts.status).toBe(400);
    expect(notCounts.json.detail).toBe("Only a sales file's or a stock count file's import can be undone; this one wrote products.");
  });

  it('keeps the before-images of the last 20 stock count imports: an older one can no longer be undone, and says so', async () => {
    const [washers = ''] = await products(1);
    const oldest = await take('2026-10-01', [[washers, 1]]);
    for (let day = 2; day <= KEPT_STOCK_IMPORTS + 1; day += 1) await take(`2026-10-${String(day).padStart(2, '0')}`, [[washers, day]]);
    expect((await log(oldest)).undoable).toBe(false);
    const refused = await undo(oldest);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe('The stock counts as they were before this file are no longer kept: only the last 20 stock count imports can be undone.');
    expect((await state([washers])).counts).toHaveLength(KEPT_STOCK_IMPORTS + 1);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from stock_imports_kept`.execute(server.database.db);
    expect(rows[0]?.n).toBeLessThanOrEqual(KEPT_STOCK_IMPORTS);
  });

  it('undoes once when two undos come at once, and loses nothing when an import and an undo come at once', async () => {
    const [a = '', b = ''] = await products(2);
    const first = await take('2026-09-01', [[a, 5]]);
    const answers = await Promise.all([undo(first), undo(first)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await state([a])).counts).toEqual([]);

    const kept = await take('2026-09-02', [[b, 1]]);
    const [undone, imported] = await Promise.all([
      undo(kept),
      importFile(server, editor, { fileName: 'other.csv', content: `Artikel;Gezählt\n${a};7\n`, mapping: countMapping('2026-09-03'), entityType: 'stock_snapshots' }),
    ]);
    expect(undone.status, undone.text).toBe(200);
    expect(imported.status).toBe(200);
    expect((await state([a, b])).counts).toEqual([{ code: a, date: '2026-09-03', level: 7 }]);
  });
});
