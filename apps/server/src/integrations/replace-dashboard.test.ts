// An integration's replace that deletes products: the dashboard's counts leave them at once, as a
// product deleted on the Data screen does (ADR 0150), on PGlite and PostgreSQL. The data source is a
// real HTTP server on 127.0.0.1; the dashboard is read over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, Integration } from '@stockwise/contract';
import { sendJson, startEndpointServer, type EndpointServer } from '../testing/endpoint-server.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { catalogueRunsSettled, forecastClient } from '../testing/forecast-client.ts';
import { importFile } from '../testing/uploads.ts';
import { runIntegration } from './run.ts';

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe.each(backends)('replace and the dashboard on %s', (backend) => {
  let server: TestServer;
  let source: EndpointServer;
  let admin: string;

  beforeAll(async () => {
    source = await startEndpointServer();
    server = await startTestServer(backend, { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1/32' });
    admin = (await signUpUser(server)).access;
  });
  afterAll(async () => {
    await server?.stop();
    await source?.close();
  });

  const noSalesTask = async () => {
    const dashboard = (await server.request('/api/dashboard/', { token: admin })).json as unknown as DashboardResponse;
    return dashboard.tasks.find((task) => /with no sales in 90 days/.test(task.text))?.text ?? null;
  };

  it('a replace run that deletes products takes them out of the dashboard counts at once, with no forecast run after it', async () => {
    // A product that sold yesterday: the no-sales task counts products without a sale in the 90 days up to it.
    const catalogue = await importFile(server, admin, {
      fileName: 'products.csv',
      content: 'product_code,name\nRD-SOLD,Sold item\n',
      mapping: { entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } },
      entityType: 'products',
    });
    expect(catalogue.status).toBe(200);
    const sale = await importFile(server, admin, {
      fileName: 'sales.csv',
      content: `product,date,quantity\nRD-SOLD,${yesterday()},3\n`,
      mapping: { entities: { sales: { field_mappings: { product_id: 'product', date: 'date', quantity: 'quantity' } } } },
      entityType: 'sales',
    });
    expect(sale.status).toBe(200);
    await catalogueRunsSettled(server.database.db);

    // Names only: no forecast input, so no forecast run follows either run of the integration.
    const saved = await server.request('/api/yaml/save-mapping/', { body: { name: 'names_only', config: { entities: { products: { field_mappings: { product_code: 'sku', name: 'title' } } } } }, token: admin });
    expect(saved.status, saved.text).toBe(200);
    let sent = [1, 2, 3, 4];
    source.route('/catalogue', (_request, response) => sendJson(response, sent.map((n) => ({ sku: `RD-${n}`, title: `Item ${n}` }))));
    const created = await server.request('/api/integrations/scheduled/', { body: { endpoint: `${source.origin}/catalogue`, mapping_selection: 'names_only', target_entity: 'products', data_action: 'replace' }, token: admin });
    expect(created.status, created.text).toBe(201);
    const integration = created.json as unknown as Integration;
    const run = () => runIntegration(server.integrations.runs, { integrationId: integration.id, trigger: 'manual' });
    expect(await run()).toMatchObject({ status: 'success', counts: { inserted: 4 } });
    // A run of the sold product alone brings the summary up to date: the four are counted.
    expect(await forecastClient(server, admin).run({ style_code: 'RD-SOLD' })).toMatchObject({ status: 'completed' });
    expect(await noSalesTask()).toBe('Review 4 products with no sales in 90 days');

    sent = [1, 2];
    expect(await run()).toMatchObject({ status: 'success', counts: { deleted: 2 } });
    expect(await noSalesTask()).toBe('Review 2 products with no sales in 90 days');
    expect(((await server.request('/api/dashboard/', { token: admin })).json as unknown as DashboardResponse).products).toBe(3);
  });
});
