// Undo of a sales file's import (ADR 0174), on PGlite and PostgreSQL: till 2's file imported under
// till 1's mapping and undone leaves exactly till 1's totals (the days only till 2 held too, which
// importing till 1's file again could not put back); a day stored before the ledger gets its total
// back, a change typed since stays; a first-ever import undone leaves no sales; a
// later import over the same days refuses the earlier one's undo, changing nothing; a day one file
// created (kept as a range of ids) and a second mapping added to, undone in either order; an import older
// than the last 20 sales imports can no longer be undone; undoing twice,
// a products import, a viewer are refused; two undos at once: one succeeds; an import and an undo
// at once both land.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportLogEntry } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';
import { KEPT_SALES_IMPORTS } from './repo.ts';

const tillMapping = { entities: { sales: { field_mappings: { product_id: 'Code', date: 'Day', quantity: 'Qty' } } } };
type Line = [code: string, day: string, qty: number];

describe.each(backends)('undo of a sales import on %s', (backend) => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let prefixes = 0;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server);
    editor = (await signUpUser(server, { role: 'editor' })).access;
    viewer = (await signUpUser(server, { role: 'viewer' })).access;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const products = async (count: number) => {
    const prefix = `UN${backend[0]}${(prefixes += 1)}-`;
    const codes = Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
    await sql`insert into data.products (product_code, name) select c, 'Product ' || c from unnest(${codes}::text[]) c`.execute(server.database.db);
    return codes;
  };
  const till = async (mappingName: string, lines: Line[], fileName = 'till.csv') => {
    const content = `Code,Day,Qty\n${lines.map((line) => line.join(',')).join('\n')}\n`;
    const answer = await importFile(server, editor, { fileName, content, mapping: tillMapping, entityType: 'sales', extra: { mapping_name: mappingName } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.import_id as string;
  };
  const undo = (id: string, token = editor) => server.request(`/api/records/imports/${id}/undo/`, { method: 'POST', token });
  const log = async (id: string) => (await server.request(`/api/records/imports/${id}/`, { token: editor })).json as unknown as ImportLogEntry;
  const sales = async (codes: string[]) =>
    (
      await sql<{ code: string; date: string; quantity: number }>`
        select p.product_code as code, s.date::text as date, s.quantity from data.sales s join data.products p on p.id = s.product_id
        where p.product_code = any(${codes}::text[]) order by 1, 2`.execute(server.database.db)
    ).rows;
  const parts = async (codes: string[]) =>
    (
      await sql<{ code: string; date: string; source: string; quantity: number }>`
        select p.product_code as code, s.date::text as date, l.source, l.quantity from sales_sources l join data.sales s on s.id = l.sales_id
        join data.products p on p.id = s.product_id where p.product_code = any(${codes}::text[]) order by 1, 2, 3`.execute(server.database.db)
    ).rows;

  it("puts till 1's totals back exactly after till 2's file under the same mapping, the days only till 2 held included, beside another source's", async () => {
    const [cups = '', lids = '', straws = ''] = await products(3);
    const till1: Line[] = [[cups, '2026-11-01', 3], [cups, '2026-11-02', 5], [lids, '2026-11-02', 1]];
    const till2: Line[] = [[cups, '2026-11-01', 4], [cups, '2026-11-02', 5], [lids, '2026-11-02', 2], [lids, '2026-11-14', 2], [straws, '2026-11-03', 6]];
    await till('Till sales', till1, 'till1.csv');
    await till('Web shop export', [[cups, '2026-11-01', 10]], 'web.csv');
    const before = { sales: await sales([cups, lids, straws]), parts: await parts([cups, lids, straws]) };
    const second = await till('Till sales', till2, 'till2.csv');
    expect((await sales([cups]))[0]).toEqual({ code: cups, date: '2026-11-01', quantity: 14 });
    expect(await log(second)).toMatchObject({ undoable: true, undone: null, details: { sales_written: { product_days: 5, first_day: '2026-11-01', last_day: '2026-11-14' } } });

    const answer = await undo(second);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({
      message: "Put back the sales of 5 product-days (1–14 Nov 2026) as they were before 'till2.csv'; 2 product-days only this file held are gone.",
      restored: 4,
      removed: 2,
      product_days: 5,
    });
    expect(await sales([cups, lids, straws])).toEqual(before.sales);
    expect(await parts([cups, lids, straws])).toEqual(before.parts);
    const entry = await log(second);
    expect(entry).toMatchObject({ undoable: false, undone: { by: expect.any(String) as string, message: answer.json.message as string } });
    expect(Date.parse(entry.undone?.at ?? '')).toBeGreaterThan(Date.parse(entry.finishedAt ?? ''));
    // Undone twice: refused, saying when.
    const twice = await undo(second);
    expect(twice.status).toBe(409);
    expect(twice.json.detail).toMatch(/^This import was already undone \(\d+ \w+ \d{4}, \d\d:\d\d UTC by /);
  });

  it('gives a day stored before the ledger its whole total back, and keeps a change typed since by its difference', async () => {
    const [rakes = '', hoes = ''] = await products(2);
    await sql`insert into data.sales (product_id, date, quantity) select id, '2026-06-01', 9 from data.products where product_code = ${rakes}`.execute(server.database.db);
    const imported = await till('Garden till', [[rakes, '2026-06-01', 4], [hoes, '2026-06-01', 2]]);
    expect(await sales([rakes, hoes])).toEqual([
      { code: rakes, date: '2026-06-01', quantity: 4 },
      { code: hoes, date: '2026-06-01', quantity: 2 },
    ]);
    // Typed on the Data screen since: 2 → 5 (no part is written for it).
    await sql`update data.sales set quantity = 5 where product_id = (select id from data.products where product_code = ${hoes})`.execute(server.database.db);
    expect((await undo(imported)).status).toBe(200);
    expect(await sales([rakes, hoes])).toEqual([
      { code: rakes, date: '2026-06-01', quantity: 9 },
      { code: hoes, date: '2026-06-01', quantity: 3 },
    ]);
    expect(await parts([rakes, hoes])).toEqual([]);
  });

  it('leaves no sales after undoing a first-ever import, and keeps the products it created', async () => {
    const prefix = `UNNEW${backend[0]}-`;
    const content = `Code,Day,Qty\n${prefix}1,2026-10-01,2\n${prefix}2,2026-10-02,3\n`;
    const mapping = { entities: { sales: { field_mappings: { product_id: 'Code', date: 'Day', quantity: 'Qty' }, create_missing_products: true } } };
    const imported = await importFile(server, editor, { fileName: 'first.csv', content, mapping, entityType: 'sales', extra: { mapping_name: 'First till' } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const answer = await undo(imported.json.import_id as string);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.message).toBe("Put back the sales of 2 product-days (1–2 Oct 2026) as they were before 'first.csv'; 2 product-days only this file held are gone. The 2 products it created are kept.");
    expect(await sales([`${prefix}1`, `${prefix}2`])).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from data.products where product_code like ${`${prefix}%`}`.execute(server.database.db);
    expect(rows[0]?.n).toBe(2);
  });

  it('undoes either source of a day one file created and a second mapping added to later, exactly, the first file having kept its created days as ranges', async () => {
    const [forks = '', spoons = '', knives = '', ladles = ''] = await products(4);
    const first = await till('Cutlery till', [[forks, '2026-04-01', 3], [spoons, '2026-04-01', 2]]);
    // A first write of its days keeps no before-image per day, only the ranges of their ids (migration 0600).
    const kept = async (id: string) =>
      (
        await sql<{ images: number; ranges: number }>`
          select (select count(*)::int from sales_parts_before_import where import_id = ${id}) as images,
            (select count(*)::int from sales_days_created_by_import where import_id = ${id}) as ranges`.execute(server.database.db)
      ).rows[0];
    expect(await kept(first)).toEqual({ images: 0, ranges: 1 });
    const second = await till('Cutlery web', [[forks, '2026-04-01', 4]], 'web.csv');
    expect(await kept(second)).toEqual({ images: 1, ranges: 0 });
    expect(await sales([forks, spoons])).toEqual([
      { code: forks, date: '2026-04-01', quantity: 7 },
      { code: spoons, date: '2026-04-01', quantity: 2 },
    ]);
    // The earlier source undone first: the day keeps the later source's part; the day only it held goes.
    const undone = await undo(first);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.json).toMatchObject({ restored: 2, removed: 1, product_days: 2 });
    expect(await sales([forks, spoons])).toEqual([{ code: forks, date: '2026-04-01', quantity: 4 }]);
    expect(await parts([forks, spoons])).toEqual([{ code: forks, date: '2026-04-01', source: 'file:Cutlery web', quantity: 4 }]);
    expect(await kept(first)).toEqual({ images: 0, ranges: 0 });
    // The later import found the day stored (the first file's), so its undo leaves the day, now holding nothing.
    expect((await undo(second)).status).toBe(200);
    expect(await sales([forks, spoons])).toEqual([{ code: forks, date: '2026-04-01', quantity: 0 }]);
    expect(await parts([forks, spoons])).toEqual([]);

    // The other order: the later source undone first leaves the first file's days as it wrote them, then that goes too.
    const third = await till('Cutlery till', [[knives, '2026-04-02', 5], [ladles, '2026-04-02', 1]]);
    const fourth = await till('Cutlery web', [[knives, '2026-04-02', 2]], 'web.csv');
    expect((await undo(fourth)).status).toBe(200);
    expect(await sales([knives, ladles])).toEqual([
      { code: knives, date: '2026-04-02', quantity: 5 },
      { code: ladles, date: '2026-04-02', quantity: 1 },
    ]);
    expect(await parts([knives, ladles])).toEqual([
      { code: knives, date: '2026-04-02', source: 'file:Cutlery till', quantity: 5 },
      { code: ladles, date: '2026-04-02', source: 'file:Cutlery till', quantity: 1 },
    ]);
    const last = await undo(third);
    expect(last.status, last.text).toBe(200);
    expect(last.json).toMatchObject({ restored: 2, removed: 2 });
    expect(await sales([knives, ladles])).toEqual([]);
  });

  it('refuses the undo of an import a later import under the same mapping wrote over, changing nothing; the later one first, then it', async () => {
    const [bolts = '', nuts = ''] = await products(2);
    const first = await till('Hardware till', [[bolts, '2026-09-01', 3], [nuts, '2026-09-01', 1]]);
    // The same total again: a later import all the same.
    const later = await till('Hardware till', [[bolts, '2026-09-01', 3]], 'again.csv');
    const stored = await sales([bolts, nuts]);
    const refused = await undo(first);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toMatch(/^1 product-day this file wrote was changed since by a later import, 'again\.csv' under 'Hardware till' \(\d+ \w+ \d{4}, \d\d:\d\d UTC\): undo that import first\. Nothing was changed\.$/);
    expect(await sales([bolts, nuts])).toEqual(stored);
    expect((await log(first)).undoable).toBe(true);
    expect((await undo(later)).status).toBe(200);
    expect((await undo(first)).status).toBe(200);
    expect(await sales([bolts, nuts])).toEqual([]);
  });

  it('refuses a day deleted since, naming it; a products import and a viewer are refused', async () => {
    const [pins = ''] = await products(1);
    const imported = await till('Pins till', [[pins, '2026-08-01', 2], [pins, '2026-08-02', 2]]);
    await sql`delete from data.sales where date = '2026-08-01' and product_id = (select id from data.products where product_code = ${pins})`.execute(server.database.db);
    const gone = await undo(imported);
    expect(gone.status).toBe(409);
    expect(gone.json.detail).toBe('1 product-day this file wrote was deleted since (on the Data screen, or with its product), so it cannot be put back as before. Nothing was changed.');

    const productsFile = await importFile(server, editor, { fileName: 'products.csv', content: 'product_code,name\nUNP-1,Pin\n', mapping: { entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } }, entityType: 'products' });
    expect(productsFile.status).toBe(200);
    const notSales = await undo(productsFile.json.import_id as string);
    expect(notSales.status).toBe(400);
    expect(notSales.json.detail).toBe("Only a sales file's or a stock count file's import can be undone; this one wrote products.");
    expect((await log(productsFile.json.import_id as string)).undoable).toBe(false);

    const [tacks = ''] = await products(1);
    const other = await till('Tacks till', [[tacks, '2026-08-03', 1]]);
    expect((await undo(other, viewer)).status).toBe(403);
    expect((await undo('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await sales([tacks])).toEqual([{ code: tacks, date: '2026-08-03', quantity: 1 }]);
  });

  it('keeps the before-images of the last 20 sales imports: an older one can no longer be undone, and says so', async () => {
    const [washers = ''] = await products(1);
    const oldest = await till('Washers till', [[washers, '2026-05-01', 1]]);
    for (let day = 2; day <= KEPT_SALES_IMPORTS + 1; day += 1) await till(`Washers till ${day}`, [[washers, `2026-05-${String(day).padStart(2, '0')}`, 1]]);
    expect((await log(oldest)).undoable).toBe(false);
    const refused = await undo(oldest);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe('The sales as they were before this file are no longer kept: only the last 20 sales imports can be undone.');
    expect((await sales([washers])).length).toBe(KEPT_SALES_IMPORTS + 1);
  });

  it('undoes once when two undos come at once, and loses nothing when an import and an undo come at once', async () => {
    const [a = '', b = ''] = await products(2);
    const first = await till('Race till', [[a, '2026-07-01', 5]]);
    const answers = await Promise.all([undo(first), undo(first)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await sales([a])).toEqual([]);

    const kept = await till('Race till B', [[b, '2026-07-02', 1]]);
    const [undone, imported] = await Promise.all([
      undo(kept),
      importFile(server, editor, { fileName: 'other.csv', content: `Code,Day,Qty\n${a},2026-07-03,7\n`, mapping: tillMapping, entityType: 'sales', extra: { mapping_name: 'Race till C' } }),
    ]);
    expect(undone.status, undone.text).toBe(200);
    expect(imported.status).toBe(200);
    expect(await sales([a, b])).toEqual([{ code: a, date: '2026-07-03', quantity: 7 }]);
  });
});
