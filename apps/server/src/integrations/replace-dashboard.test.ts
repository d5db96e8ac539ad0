// An integration's replace that deletes products: the dashboard's counts leave them at once, as a
// product deleted on the Data screen does (ADR 0150), and products a shop's history refers to are
// kept and named (ADR 0139's amendment), on PGlite and PostgreSQL. The data source is a real HTTP
// server on 127.0.0.1; the dashboard, the status and the log are read over HTTP.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse, IntegrationLogPage, IntegrationStatusResponse } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends } from '../testing/test-server.ts';
import { catalogueRunsSettled, forecastClient } from '../testing/forecast-client.ts';
import { importFile } from '../testing/uploads.ts';

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe.each(backends)('replace and the dashboard on %s', (backend) => {
  const { server, source, admin, saveMapping, createIntegration, runNow } = useIntegrationServers(backend);

  const dashboard = async () => (await server().request('/api/dashboard/', { token: admin() })).json as unknown as DashboardResponse;
  const noSalesTask = async () => (await dashboard()).tasks.find((task) => /with no sales in 90 days/.test(task.text))?.text ?? null;
  const noSalesCount = async () => Number(/Review (\d+) products? with no sales/.exec((await noSalesTask()) ?? '')?.[1] ?? 0);
  const importProducts = async (codes: string[]) => {
    const imported = await importFile(server(), admin(), {
      fileName: 'products.csv',
      content: `product_code,name\n${codes.map((code) => `${code},Item ${code}`).join('\n')}\n`,
      mapping: { entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } },
      entityType: 'products',
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  };
  const importSales = async (lines: string[]) => {
    const imported = await importFile(server(), admin(), {
      fileName: 'sales.csv',
      content: `product,date,quantity\n${lines.join('\n')}\n`,
      mapping: { entities: { sales: { field_mappings: { product_id: 'product', date: 'date', quantity: 'quantity' } } } },
      entityType: 'sales',
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  };
  const createReplace = async (route: string, mapping: string, entity: string) => {
    const integration = await createIntegration({ endpoint: `${source().origin}${route}`, mapping_selection: mapping, target_entity: entity, data_action: 'replace' });
    return {
      run: () => runNow(integration.id),
      status: async () => (await server().request(`/api/integrations/scheduled/${integration.id}/status/`, { token: admin() })).json as unknown as IntegrationStatusResponse,
      lastLog: async () => ((await server().request(`/api/integrations/scheduled/${integration.id}/logs/`, { token: admin() })).json as unknown as IntegrationLogPage).results[0],
    };
  };
  const productIds = async (codes: string[]) =>
    (await sql<{ product_code: string }>`select product_code from data.products where product_code = any(${codes}) order by product_code`.execute(server().database.db)).rows.map((row) => row.product_code);
  const forecastsOf = async (codes: string[]) =>
    (await sql<{ n: number }>`select count(*)::int as n from forecast_results f join data.products p on p.id = f.product_id where p.product_code = any(${codes})`.execute(server().database.db)).rows[0]?.n;

  it('a replace run that deletes products takes them out of the dashboard counts at once, with no forecast run after it', async () => {
    // A product that sold yesterday: the no-sales task counts products without a sale in the 90 days up to it.
    await importProducts(['RD-SOLD']);
    await importSales([`RD-SOLD,${yesterday()},3`]);
    await catalogueRunsSettled(server().database.db);

    // Names only: no forecast input, so no forecast run follows either run of the integration.
    await saveMapping('names_only', { entities: { products: { field_mappings: { product_code: 'sku', name: 'title' } } } });
    let sent = [1, 2, 3, 4];
    source().route('/catalogue', (_request, response) => sendJson(response, sent.map((n) => ({ sku: `RD-${n}`, title: `Item ${n}` }))));
    const { run } = await createReplace('/catalogue', 'names_only', 'products');
    expect(await run()).toMatchObject({ status: 'success', counts: { inserted: 4 } });
    // A run of the sold product alone brings the summary up to date: the four are counted.
    expect(await forecastClient(server(), admin()).run({ style_code: 'RD-SOLD' })).toMatchObject({ status: 'completed' });
    expect(await noSalesTask()).toBe('Review 4 products with no sales in 90 days');

    sent = [1, 2];
    expect(await run()).toMatchObject({ status: 'success', counts: { deleted: 2 } });
    expect(await noSalesTask()).toBe('Review 2 products with no sales in 90 days');
    expect((await dashboard()).products).toBe(3);
  });

  it("keeps the products a shop's history refers to, deletes the others with their stored forecasts, and says what it kept", async () => {
    await saveMapping('keeps_names', { entities: { products: { field_mappings: { product_code: 'sku', name: 'title' } } } });
    let sent = ['RK-A', 'RK-B', 'RK-C', 'RK-D', 'RK-E'];
    source().route('/keeps', (_request, response) => sendJson(response, sent.map((sku) => ({ sku, title: `Item ${sku}` }))));
    const integration = await createReplace('/keeps', 'keeps_names', 'products');
    expect(await integration.run()).toMatchObject({ status: 'success', counts: { inserted: 5 } });
    // B sold yesterday; C is forecast (a run over HTTP stores its forecast); a row of a user's own table points at E.
    await importSales([`RK-B,${yesterday()},2`]);
    const labels = await server().request('/api/records/tables/create/', { body: { name: 'Shelf labels', folder: 'Shop', columns: [{ key: 'product', type: 'ForeignKey', related_table: 'products' }] }, token: admin() });
    expect(labels.status, JSON.stringify(labels.json)).toBe(201);
    const [e] = (await sql<{ id: number }>`select id from data.products where product_code = 'RK-E'`.execute(server().database.db)).rows;
    const label = await server().request(`/api/records/tables/${String(labels.json.encodedName)}/rows/add/`, { body: { product: e?.id }, token: admin() });
    expect(label.status, JSON.stringify(label.json)).toBe(201);
    await catalogueRunsSettled(server().database.db);
    expect(await forecastClient(server(), admin()).run({ style_code: 'RK-C' })).toMatchObject({ status: 'completed' });
    expect(await forecastsOf(['RK-C'])).toBe(1);
    const before = { products: (await dashboard()).products, noSales: await noSalesCount() };
    expect(before.noSales).toBeGreaterThanOrEqual(3);

    // The source stops listing B, C, D and E.
    sent = ['RK-A'];
    const outcome = await integration.run();
    const kept = "Kept 2 rows of 'products' that the source no longer lists: rows of 'Shelf labels' and 'sales' refer to them (RK-B, RK-E). Replace deletes them once nothing refers to them.";
    expect(outcome).toMatchObject({ status: 'success', counts: { deleted: 2, kept: 2 }, message: kept });
    expect(await productIds(['RK-A', 'RK-B', 'RK-C', 'RK-D', 'RK-E'])).toEqual(['RK-A', 'RK-B', 'RK-E']);
    expect(await forecastsOf(['RK-C', 'RK-D'])).toBe(0);
    expect(await integration.lastLog()).toMatchObject({ status: 'success', rows_deleted: 2, rows_kept: 2, kept_message: kept, error_message: null });
    expect(await integration.status()).toMatchObject({ status: 'idle', last_error_message: null, last_run_kept_message: kept });
    // C and D leave the dashboard at once: one product fewer with no sales each; B and E still counted.
    expect(await dashboard()).toMatchObject({ products: before.products - 2 });
    expect(await noSalesCount()).toBe(before.noSales - 2);

    // Still noted as the source's: once its sales are gone, the next run deletes B (E stays, and says why).
    const [b] = (await sql<{ id: number }>`select id from data.products where product_code = 'RK-B'`.execute(server().database.db)).rows;
    const sale = (await sql<{ id: number }>`select id from data.sales where product_id = ${b?.id}`.execute(server().database.db)).rows[0];
    const deleted = await server().request('/api/records/tables/sales/rows/delete/', { body: { id: sale?.id }, token: admin() });
    expect(deleted.status, deleted.text).toBe(200);
    const keptE = "Kept 1 row of 'products' that the source no longer lists: rows of 'Shelf labels' refer to it (RK-E). Replace deletes it once nothing refers to it.";
    expect(await integration.run()).toMatchObject({ status: 'success', counts: { deleted: 1, kept: 1 }, message: keptE });
    expect(await productIds(['RK-A', 'RK-B', 'RK-E'])).toEqual(['RK-A', 'RK-E']);
    expect(await integration.status()).toMatchObject({ status: 'idle', last_run_kept_message: keptE });
    expect(await integration.lastLog()).toMatchObject({ rows_deleted: 1, rows_kept: 1, kept_message: keptE });
    // A clean run clears what the last one kept.
    sent = ['RK-A', 'RK-E'];
    expect(await integration.run()).toMatchObject({ status: 'success', counts: { deleted: 0, kept: 0 }, message: null });
    expect(await integration.status()).toMatchObject({ status: 'idle', last_run_kept_message: null });
    expect(await integration.lastLog()).toMatchObject({ rows_kept: 0, kept_message: null });
  });

  it('still deletes the sales rows a replace source no longer sends (nothing refers to them)', async () => {
    await importProducts(['RS-1']);
    await saveMapping('keeps_sales', { entities: { sales: { field_mappings: { product_id: 'sku', date: 'day', quantity: 'qty' } } } });
    let days = ['2026-05-01', '2026-05-02', '2026-05-03'];
    source().route('/keeps-sales', (_request, response) => sendJson(response, days.map((day) => ({ sku: 'RS-1', day, qty: 1 }))));
    const integration = await createReplace('/keeps-sales', 'keeps_sales', 'sales');
    expect(await integration.run()).toMatchObject({ status: 'success', counts: { inserted: 3 } });
    days = ['2026-05-02'];
    expect(await integration.run()).toMatchObject({ status: 'success', counts: { deleted: 2, kept: 0 }, message: null });
    const dates = (await sql<{ date: string }>`select s.date::text as date from data.sales s join data.products p on p.id = s.product_id where p.product_code = 'RS-1'`.execute(server().database.db)).rows;
    expect(dates).toEqual([{ date: '2026-05-02' }]);
    expect(await integration.lastLog()).toMatchObject({ status: 'success', rows_deleted: 2, rows_kept: 0, kept_message: null });
  });
});
