// The set-up of tests that import files and run integrations through the same mapping option (value
// maps, new products): a test server whose outbound client may reach the loopback data source
// beside it, an admin and an editor, and a catalogue of products imported first.
import { beforeAll, expect } from 'vitest';
import type { runIntegration } from '../integrations/run.ts';
import { sendJson, type EndpointServer } from './endpoint-server.ts';
import { useIntegrationServers } from './integration-servers.ts';
import { signUpUser, startedInBeforeAll, type Backend, type TestServer } from './test-server.ts';
import { importFile } from './uploads.ts';

export type ImportServer = {
  server: TestServer;
  source: EndpointServer;
  admin: string;
  editor: string;
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
  const { server, source, admin, createIntegration, runNow } = useIntegrationServers(backend);
  let editor: string | undefined;
  beforeAll(async () => {
    editor = (await signUpUser(server(), { role: 'editor' })).access;
    const mapping = { entities: { products: { field_mappings: catalogue.fieldMappings } } };
    const added = await importFile(server(), editor, { fileName: 'products.csv', content: catalogue.csv, mapping, entityType: 'products' });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
  });
  return {
    get server() {
      return server();
    },
    get source() {
      return source();
    },
    get admin() {
      return admin();
    },
    get editor() {
      return startedInBeforeAll(editor);
    },
    runIntegrationOn: async (path, records, settings) => {
      source().route(path, (_request, response) => sendJson(response, records));
      const { id } = await createIntegration({ endpoint: `${source().origin}${path}`, ...settings });
      return { id, outcome: await runNow(id) };
    },
  };
}
