// A supplier's stock list published as CSV at a URL (QA F7; ADR 0170), on PGlite and PostgreSQL, the
// supplier a real HTTP server on 127.0.0.1: an answer of type text/csv (semicolons, a BOM, a quoted
// separator) and one that says nothing of its type are read as the file import reads a CSV, each line a
// record named by the header; Try the endpoint shows the header's names and proposes the mapping;
// a CSV that cannot be read and an HTML page say so; the saved mapping's decimal separator reads a
// scale's figures, and figures written with their unit are summed up in the run's summary.
import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationTryResponse } from '@stockwise/contract';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';

const sendText = (type: string | null, text: string) => (_request: unknown, response: ServerResponse) => {
  response.writeHead(200, type ? { 'content-type': type } : {});
  response.end(text);
};

describe.each(backends)('a CSV feed on %s', (backend) => {
  const { server, source: supplier, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);
  const prefix = `CSV${backend[0]}-`;

  beforeAll(async () => {
    // The supplier's list writes a decimal comma; a scale's, a point.
    for (const [name, decimal_separator] of [['supplier_csv', ','], ['scale_csv', '.']] as const) {
      await saveMapping(name, { entities: { products: { field_mappings: { product_code: 'Artikel', name: 'Bezeichnung', current_stock: 'Bestand' }, decimal_separator } } });
    }
  });

  const stockList = (from: number) =>
    `\uFEFFArtikel;Bezeichnung;Bestand\r\n${prefix}${from};"Pflanzkübel; groß";12\r\n${prefix}${from + 1};Gießkanne;3\r\n`;

  let lastIntegration = 0;
  async function run(path: string, mapping = 'supplier_csv') {
    lastIntegration = (await createIntegration({ endpoint: `${supplier().origin}${path}`, target_entity: 'products', mapping_selection: mapping })).id;
    return runNow(lastIntegration);
  }
  const stored = async (from: number) =>
    (await sql<{ code: string; name: string; stock: number }>`select product_code as code, name, current_stock as stock from data.products where product_code in (${`${prefix}${from}`}, ${`${prefix}${from + 1}`}) order by 1`.execute(server().database.db)).rows;

  it('reads an answer of type text/csv line by line into records named by its header', async () => {
    supplier().route('/stock.csv', sendText('text/csv; charset=utf-8', stockList(1)));
    expect(await run('/stock.csv')).toMatchObject({ status: 'success', counts: { pages: 1, inserted: 2, rejected: 0 } });
    expect(await stored(1)).toEqual([
      { code: `${prefix}1`, name: 'Pflanzkübel; groß', stock: 12 },
      { code: `${prefix}2`, name: 'Gießkanne', stock: 3 },
    ]);
  });

  it('reads an answer that does not say its type when it is no JSON but a table with a header', async () => {
    supplier().route('/export', sendText(null, stockList(3)));
    expect(await run('/export')).toMatchObject({ status: 'success', counts: { inserted: 2 } });
    expect(await stored(3)).toHaveLength(2);
  });

  // ADR 0176's amendment: a deli scale's list of only 1.250 and 2.450 kg shows no separator; the saved
  // mapping's choice decides it in a scheduled run as in an upload — a point reads kilograms, a comma
  // the same figures as thousands.
  it("reads a scale's 1.250 and 2.450 by the saved mapping's decimal separator", async () => {
    supplier().route('/scale.csv', sendText('text/csv', `Artikel;Bezeichnung;Bestand\r\n${prefix}7;Bergkäse;1.250\r\n${prefix}8;Serrano;2.450\r\n`));
    expect(await run('/scale.csv', 'scale_csv')).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0 } });
    expect((await stored(7)).map((row) => Number(row.stock))).toEqual([1.25, 2.45]);
    expect(await run('/scale.csv')).toMatchObject({ status: 'success', counts: { rejected: 0 } });
    expect((await stored(7)).map((row) => Number(row.stock))).toEqual([1250, 2450]);
  });

  // ADR 0178: a scale's list that writes its unit in the cell; the products have none, so each is read as written and the run's summary says so.
  it("reads a list's 1.5 kg and 250 g as written for products without a unit, and its summary says which units it read", async () => {
    supplier().route('/weighed.csv', sendText('text/csv', `Artikel;Bezeichnung;Bestand\r\n${prefix}9;Bergkäse;1.5 kg\r\n${prefix}10;Oliven;250 g\r\n`));
    expect(await run('/weighed.csv', 'scale_csv')).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 0 } });
    expect((await stored(9)).map((row) => [row.code, Number(row.stock)])).toEqual([[`${prefix}10`, 250], [`${prefix}9`, 1.5]]);
    const status = await server().request(`/api/integrations/scheduled/${lastIntegration}/status/`, { token: admin() });
    expect(status.json).toMatchObject({
      last_run_summary: "2 quantities of products without a unit were read in the unit their cells wrote (kg, g): set the products' Unit on the Data screen so that files in other units are converted.",
    });
  });

  // ADR 0186: a supplier's name the products already hold in another case is written in their spelling, and the run's summary says so once per spelling.
  it("writes a list's suppliers in the spelling the products already hold, else the first the run writes, and its summary says so", async () => {
    await server().database.db.insertInto('data.products').values({ product_code: `${prefix}20`, name: 'Vase', supplier: 'ACME', current_stock: 1, unit_cost: 1, lead_time_days: 7 }).execute();
    await saveMapping('suppliers_csv', { entities: { products: { field_mappings: { product_code: 'Artikel', name: 'Bezeichnung', supplier: 'Lieferant' } } } });
    supplier().route('/suppliers.csv', sendText('text/csv', `Artikel;Bezeichnung;Lieferant\r\n${prefix}21;Krug;acme\r\n${prefix}22;Topf;Neu  GmbH\r\n${prefix}23;Deckel;NEU GMBH\r\n${prefix}24;Teller;acme \r\n`));
    expect(await run('/suppliers.csv', 'suppliers_csv')).toMatchObject({ status: 'success', counts: { inserted: 4, rejected: 0 } });
    const suppliers = await sql<{ supplier: string }>`select supplier from data.products where product_code like ${`${prefix}2_`} order by product_code`.execute(server().database.db);
    expect(suppliers.rows.map((row) => row.supplier)).toEqual(['ACME', 'ACME', 'Neu GmbH', 'Neu GmbH', 'ACME']);
    const status = await server().request(`/api/integrations/scheduled/${lastIntegration}/status/`, { token: admin() });
    expect(status.json).toMatchObject({ last_run_summary: "Supplier 'acme' written as 'ACME', as 1 product already has it. Supplier 'NEU GMBH' written as 'Neu GmbH', as the run first writes it." });
  });

  it('proposes a mapping from the header in Try the endpoint and types the first lines', async () => {
    supplier().route('/tried.csv', sendText('text/csv', stockList(5)));
    const answer = await server().request('/api/integrations/try/', { body: { endpoint: `${supplier().origin}/tried.csv`, target_entity: 'products' }, token: admin() });
    expect(answer.status, answer.text).toBe(200);
    const tried = answer.json as unknown as IntegrationTryResponse;
    expect(tried.record_count).toBe(2);
    expect(tried.paths.map((p) => p.path)).toEqual(['Artikel', 'Bezeichnung', 'Bestand']);
    expect(tried.paths[1]?.samples).toEqual(['Pflanzkübel; groß', 'Gießkanne']);
  });

  it('says why a CSV cannot be read, and that an HTML page is neither JSON nor CSV', async () => {
    supplier().route('/broken.csv', sendText('text/csv', 'Artikel;Bezeichnung;Bestand\nA-1;"Kübel;3\n'));
    const broken = await run('/broken.csv');
    expect(broken).toMatchObject({ status: 'failed', message: expect.stringMatching(/^Page 1 is CSV that cannot be read: .*quote/i) });
    supplier().route('/login', sendText('text/html', '<!doctype html><title>Sign in</title>'));
    const tried = await server().request('/api/integrations/try/', { body: { endpoint: `${supplier().origin}/login`, target_entity: 'products' }, token: admin() });
    expect(tried.status).toBe(400);
    expect(tried.json).toMatchObject({ code: 'validation_error', detail: 'Page 1 is neither JSON nor CSV: the endpoint answered text/html ("<!doctype html><title>Sign in</title>").' });
  });
});
