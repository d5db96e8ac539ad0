// Sales from several sources add up (ADR 0164), on PGlite and PostgreSQL: a till's file and a web
// shop's integration run (a real HTTP server on 127.0.0.1) of the same product-days add up; each
// source writing again replaces only its own part; a change typed on the Data screen stays; a
// deleted day starts afresh; a day stored before the ledger is replaced as before; replace takes
// only its own part away; and, for any sequence of writes, a day holds the sum of each source's last total.
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Integration } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const tillMapping = { entities: { sales: { field_mappings: { product_id: 'Code', date: 'Day', quantity: 'Qty' } } } };
const webMapping = { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } };

describe.each(backends)('sales from several sources on %s', (backend) => {
  const { server, source: web, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  let prefixes = 0;
  beforeAll(async () => {
    await saveMapping('web_orders', webMapping);
  });

  /** Products `<prefix>1`… stored directly, under a fresh prefix. */
  const products = async (count: number) => {
    const prefix = `SS${backend[0]}${(prefixes += 1)}-`;
    const codes = Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
    await sql`insert into data.products (product_code, name) select c, 'Product ' || c from unnest(${codes}::text[]) c`.execute(server().database.db);
    return codes;
  };
  const till = async (name: string, lines: [code: string, day: string, qty: number][]) => {
    const content = `Code,Day,Qty\n${lines.map((line) => line.join(',')).join('\n')}\n`;
    const answer = await importFile(server(), admin(), { fileName: `${name}.csv`, content, mapping: tillMapping, entityType: 'sales', extra: { mapping_name: name } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json as { message: string; replaced_sales?: unknown };
  };
  /** What the Import screen's preview of a till file under mapping `name` says it would replace. */
  const previewTill = async (name: string, lines: [code: string, day: string, qty: number][]) => {
    const content = `Code,Day,Qty\n${lines.map((line) => line.join(',')).join('\n')}\n`;
    const parts = [
      { name: 'file' as const, fileName: 'till.csv', content },
      { name: 'entity_type', value: 'sales' },
      { name: 'mapping_config', value: JSON.stringify(tillMapping) },
      { name: 'mapping_name', value: name },
    ];
    const answer = await postMultipart(server(), '/api/records/preview-file/', admin(), parts);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.replaces_sales;
  };
  /** A web-shop integration whose endpoint answers the lines `orders()` gives at each run; run() runs it and answers its summary. */
  const webShop = async (orders: () => { sku: string; day: string; qty: number }[], dataAction = 'upsert') => {
    const path = `/orders-${(prefixes += 1)}`;
    web().route(path, (_request, response) => sendJson(response, orders()));
    const { id } = await createIntegration({ endpoint: `${web().origin}${path}`, mapping_selection: 'web_orders', target_entity: 'sales', data_action: dataAction });
    return async () => {
      expect(await runNow(id)).toMatchObject({ status: 'success' });
      const listed = (await server().request('/api/integrations/scheduled/', { token: admin() })).json as unknown as Integration[];
      return listed.find((item) => item.id === id)?.last_run_summary ?? '';
    };
  };
  const sales = async (codes: string[]) =>
    (
      await sql<{ code: string; date: string; quantity: number }>`
        select p.product_code as code, s.date::text as date, s.quantity from data.sales s join data.products p on p.id = s.product_id
        where p.product_code = any(${codes}::text[]) order by 1, 2`.execute(server().database.db)
    ).rows;

  it("adds a web shop's run to a till's file of the same day; each again changes nothing; a changed till total moves the day by the difference", async () => {
    const [hammer = '', saw = ''] = await products(2);
    let webLines = [{ sku: hammer, day: '2026-12-03', qty: 2 }];
    const runWeb = await webShop(() => webLines);
    const first = await till('pos-history', [[hammer, '2026-12-03', 4], [hammer, '2026-12-03', 2], [saw, '2026-12-03', 1]]);
    expect(first.message).not.toContain('Added to');
    // HW-10280 on 3 Dec: 6 from the till, 2 from the web shop — 8, not 2.
    expect(await runWeb()).toBe("Added to the sales other sources stored for 1 of those product-days (the file import 'pos-history').");
    expect(await sales([hammer, saw])).toEqual([
      { code: hammer, date: '2026-12-03', quantity: 8 },
      { code: saw, date: '2026-12-03', quantity: 1 },
    ]);
    // The hourly run again, and the till's file again: each replaces its own part.
    await runWeb();
    const again = await till('pos-history', [[hammer, '2026-12-03', 4], [hammer, '2026-12-03', 2], [saw, '2026-12-03', 1]]);
    expect(again.message).toContain(`Added to the sales other sources stored for 1 of those product-days (the integration reading 127.0.0.1).`);
    expect((await sales([hammer]))[0]?.quantity).toBe(8);
    // A corrected till file (7 instead of 6) and a web order more (3): 10.
    await till('pos-history', [[hammer, '2026-12-03', 7]]);
    webLines = [...webLines, { sku: hammer, day: '2026-12-03', qty: 1 }];
    await runWeb();
    expect(await sales([hammer, saw])).toEqual([
      { code: hammer, date: '2026-12-03', quantity: 10 },
      { code: saw, date: '2026-12-03', quantity: 1 },
    ]);
  });

  it("says when a second till's file under the first till's mapping replaced its sales, warns of it in the preview, and adds up under a mapping of its own", async () => {
    const [cups = '', lids = ''] = await products(2);
    const firstTill: [string, string, number][] = [[cups, '2026-11-01', 3], [cups, '2026-11-02', 5], [lids, '2026-11-02', 1]];
    const secondTill: [string, string, number][] = [[cups, '2026-11-01', 4], [cups, '2026-11-02', 5], [lids, '2026-11-02', 2], [lids, '2026-11-14', 2]];
    expect(await previewTill('Till sales', secondTill)).toBeUndefined();
    await till('Till sales', firstTill);
    // Before: the preview of the second till's file under the same mapping names what it would replace.
    expect(await previewTill('Till sales', secondTill)).toEqual({
      mapping_name: 'Till sales',
      product_days: 3,
      first_day: '2026-11-01',
      last_day: '2026-11-02',
      message:
        "The mapping 'Till sales' already imported sales for 1–2 Nov 2026 (3 product-days), days this file holds too: importing it under the same mapping replaces those totals with this file's, it does not add to them. If this file is from another till, save the mapping under a new name for it, so that both tills' sales are kept.",
    });
    expect(await previewTill('Till sales (2)', secondTill)).toBeUndefined();
    // After: two product-days held other totals (cups on 1 Nov, lids on 2 Nov); cups on 2 Nov the same 5, and lids on 14 Nov new.
    const second = await till('Till sales', secondTill);
    expect(second.replaced_sales).toEqual({ mapping_name: 'Till sales', product_days: 2, first_day: '2026-11-01', last_day: '2026-11-02' });
    expect(second.message).toContain(
      "2 product-days (1–2 Nov 2026) already held sales imported under the mapping 'Till sales'; this file's totals replaced them: importing under the same mapping again replaces, it does not add. If this file is from another till, import the first till's file again under 'Till sales' to put its totals back, and this file under a mapping name of its own, so that both tills' sales are kept.",
    );
    expect((await sales([cups]))[0]).toEqual({ code: cups, date: '2026-11-01', quantity: 4 });
    // The same file again replaces nothing with another total: no word of it.
    const again = await till('Till sales', secondTill);
    expect(again.replaced_sales).toBeUndefined();
    expect(again.message).not.toContain('already held');
    // Imported under a mapping of its own from the start, the second till's file adds up, and says so.
    const [mugs = ''] = await products(1);
    await till('Till sales', [[mugs, '2026-11-01', 3]]);
    const own = await till('Till sales (2)', [[mugs, '2026-11-01', 4]]);
    expect(own.replaced_sales).toBeUndefined();
    expect(own.message).toContain("Added to the sales other sources stored for 1 of those product-days (the file import 'Till sales').");
    expect(await sales([mugs])).toEqual([{ code: mugs, date: '2026-11-01', quantity: 7 }]);
  });

  it('keeps a change typed on the Data screen when a source writes again, and says so', async () => {
    const [rake = ''] = await products(1);
    await till('garden-till', [[rake, '2026-12-01', 5]]);
    const [row] = (await sql<{ id: string }>`select s.id::text as id from data.sales s join data.products p on p.id = s.product_id where p.product_code = ${rake}`.execute(server().database.db)).rows;
    const edited = await server().request('/api/records/tables/sales/rows/edit/', { body: { id: row?.id, quantity: 7 }, token: admin() });
    expect(edited.status, edited.text).toBe(200);
    const again = await till('garden-till', [[rake, '2026-12-01', 6]]);
    expect(again.message).toContain('Added to the sales other sources stored for 1 of those product-days (changes typed on the Data screen).');
    // 5 from the till and 2 typed; the till now says 6: 8.
    expect((await sales([rake]))[0]?.quantity).toBe(8);
  });

  const partsOf = async (salesIds: string[]) =>
    (await sql<{ parts: number }>`select count(*)::int as parts from sales_sources where sales_id = any(${salesIds}::bigint[])`.execute(server().database.db)).rows[0]?.parts;

  it("starts a deleted day afresh: the next import stores its own total, and a day stored before the sources were kept is replaced as before", async () => {
    const [hose = '', can = ''] = await products(2);
    await till('till-1', [[hose, '2026-11-20', 3]]);
    await till('till-2', [[hose, '2026-11-20', 4]]);
    expect((await sales([hose]))[0]?.quantity).toBe(7);
    const [row] = (await sql<{ id: string }>`select s.id::text as id from data.sales s join data.products p on p.id = s.product_id where p.product_code = ${hose}`.execute(server().database.db)).rows;
    const deleted = await server().request('/api/records/tables/sales/rows/delete/', { body: { id: row?.id }, token: admin() });
    expect(deleted.status, deleted.text).toBe(200);
    // Its parts left with it (a trigger, not a foreign key: migration 0410).
    expect(await partsOf([row?.id ?? ''])).toBe(0);
    await till('till-1', [[hose, '2026-11-20', 3]]);
    expect((await sales([hose]))[0]?.quantity).toBe(3);
    // Stored without a source (before migration 0380, the demo's): the first writer replaces it.
    await sql`insert into data.sales (product_id, date, quantity) select id, '2026-11-20', 50 from data.products where product_code = ${can}`.execute(server().database.db);
    const replaced = await till('till-1', [[can, '2026-11-20', 2]]);
    expect(replaced.message).not.toContain('Added to');
    await till('till-2', [[can, '2026-11-20', 1]]);
    expect((await sales([can]))[0]?.quantity).toBe(3);
    // Days deleted by one statement (as replace deletes them) take their parts.
    const canDays = (await sql<{ id: string }>`select s.id::text as id from data.sales s join data.products p on p.id = s.product_id where p.product_code = ${can}`.execute(server().database.db)).rows.map((day) => day.id);
    expect(await partsOf(canDays)).toBe(2);
    await sql`delete from data.sales where id = any(${canDays}::bigint[])`.execute(server().database.db);
    expect(await partsOf(canDays)).toBe(0);
  });

  it("replace takes away only its own part of a day it no longer sends: the till's part stays", async () => {
    const [pot = ''] = await products(1);
    let webLines = [{ sku: pot, day: '2026-12-02', qty: 2 }, { sku: pot, day: '2026-12-03', qty: 5 }];
    const runWeb = await webShop(() => webLines, 'replace');
    await runWeb();
    await till('pot-till', [[pot, '2026-12-02', 4]]);
    expect(await sales([pot])).toEqual([
      { code: pot, date: '2026-12-02', quantity: 6 },
      { code: pot, date: '2026-12-03', quantity: 5 },
    ]);
    webLines = [];
    await runWeb();
    // 2 Dec keeps the till's 4; 3 Dec was the web shop's alone and goes, as replace did before.
    expect(await sales([pot])).toEqual([{ code: pot, date: '2026-12-02', quantity: 4 }]);
  });

  it("holds, per product-day, the sum of each source's last total, for any sequence of files", async () => {
    const codes = await products(2);
    const days = ['2026-10-01', '2026-10-02'];
    const write = fc.record({
      source: fc.constantFrom('till-a', 'till-b', 'till-c'),
      lines: fc.array(fc.record({ code: fc.constantFrom(...codes), day: fc.constantFrom(...days), qty: fc.integer({ min: -3, max: 20 }) }), { minLength: 1, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 5 }), async (writes) => {
        await sql`delete from data.sales where product_id in (select id from data.products where product_code = any(${codes}::text[]))`.execute(server().database.db);
        const last = new Map<string, number>();
        for (const { source, lines } of writes) {
          const totals = new Map<string, number>();
          for (const { code, day, qty } of lines) totals.set(`${code}|${day}`, (totals.get(`${code}|${day}`) ?? 0) + qty);
          for (const [key, total] of totals) last.set(`${source}|${key}`, total);
          await till(source, lines.map(({ code, day, qty }) => [code, day, qty]));
        }
        const expected = new Map<string, number>();
        for (const [key, total] of last) {
          const day = key.slice(key.indexOf('|') + 1);
          expected.set(day, (expected.get(day) ?? 0) + total);
        }
        const stored = new Map((await sales(codes)).map((row) => [`${row.code}|${row.date}`, row.quantity]));
        expect(stored).toEqual(expected);
      }),
      { numRuns: 15 },
    );
  });
});
