// The set-up of tests that import files and run integrations through the same mapping option (value
// maps, new products): a test server whose outbound client may reach the loopback data source
// beside it, an admin and an editor, and a catalogue of products imported first.
import { afterAll, beforeAll, expect } from 'vitest';
import { runIntegration } from '../integrations/run.ts';
import { sendJson, startEndpointServer, type EndpointServer } from './endpoint-server.ts';
import { signUpUser, startTestServer, type Backend, type TestServer } from './test-server.ts';
import { importFile } from './uploads.ts';

type Started = { server: TestServer; source: EndpointServer; admin: string; editor: string };

export type ImportServer = Started & {
  /**
   * Serves `records` at `path` of the data source, creates an integration reading them through
   * `mapping_selection` into `target_entity` (as the admin) and runs it once.
   */
  runIntegrationOn(path: string, records: unknown[], settings: { mapping_selection: string; target_entity: string }): Promise<{ id: number; outcome: Awaited<ReturnType<typeof runIntegration>> }>;
};

/**
 * For the tests of the describe block that calls this: started before them (the catalogue's CSV
 * imported into products through `fieldMappings`), stopped after them.
 */
export function useImportServer(backend: Backend, catalogue: { csv: string; fieldMappings: Record<string, string> }): ImportServer {
  let started: Started | null = null;
  beforeAll(async () => {
    const source = await startEndpointServer();
    const server = await startTestServer(backend, { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1/32' });
    started = { server, source, admin: (await signUpUser(server)).access, editor: (await signUpUser(server, { role: 'editor' })).access };
    const mapping = { entities: { products: { field_mappings: catalogue.fieldMappings } } };
    const added = await importFile(server, started.editor, { fileName: 'products.csv', content: catalogue.csv, mapping, entityType: 'products' });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
  });
  afterAll(async () => {
    await started?.server.stop();
    await started?.source.close();
  });
  const get = (): Started => {
    if (!started) throw new Error('The import server starts before the tests run.');
    return started;
  };
  return {
    get server() {
      return get().server;
    },
    get source() {
      return get().source;
    },
    get admin() {
      return get().admin;
    },
    get editor() {
      return get().editor;
    },
    runIntegrationOn: async (path, records, settings) => {
      const { server, source, admin } = get();
      source.route(path, (_request, response) => sendJson(response, records));
      const created = await server.request('/api/integrations/scheduled/', { body: { endpoint: `${source.origin}${path}`, ...settings }, token: admin });
      expect(created.status, created.text).toBe(201);
      const id = created.json.id as number;
      return { id, outcome: await runIntegration(server.integrations.runs, { integrationId: id, trigger: 'manual' }) };
    },
  };
}
