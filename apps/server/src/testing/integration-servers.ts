// The set-up of tests that run integrations against a data source of their own: a real HTTP server
// on 127.0.0.1 playing the shop, till or supplier, and a test server whose outbound client may reach
// it, with an administrator signed in; and the steps those tests take as that administrator (save a
// mapping, create an integration, run it now). A run fails at its first failed fetch unless the
// test's `env` asks for retries (INTEGRATION_RETRIES), so a test of something else does not wait out
// retry delays.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Integration } from '@stockwise/contract';
import { runIntegration } from '../integrations/run.ts';
import { startEndpointServer, type EndpointServer } from './endpoint-server.ts';
import { signUpUser, startTestServer, startedInBeforeAll, type Backend, type TestServer } from './test-server.ts';

export type IntegrationServers = {
  server(): TestServer;
  /** The data source the test's integrations fetch from. */
  source(): EndpointServer;
  /** An administrator's access token. */
  admin(): string;
  /** Saves the mapping `config` (`{ entities: … }`) under `name`, as the administrator. */
  saveMapping(name: string, config: unknown): Promise<void>;
  /** Creates a scheduled integration of `settings`, as the administrator. */
  createIntegration(settings: Record<string, unknown>): Promise<Integration>;
  /** Runs the integration once, as Run now does, and says how it went. */
  runNow(id: number): ReturnType<typeof runIntegration>;
};

/**
 * For the tests of the describe block that calls this: both servers started before them (the test
 * server with `env` on top of the loopback allowance and no retries), stopped after them. A beforeAll
 * the block registers after this call runs after this one's, so its own rows and routes may use them.
 */
export function useIntegrationServers(backend: Backend, env: Record<string, string> = {}): IntegrationServers {
  let source: EndpointServer | undefined;
  let server: TestServer | undefined;
  let admin: string | undefined;
  beforeAll(async () => {
    source = await startEndpointServer();
    server = await startTestServer(backend, { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1/32', INTEGRATION_RETRIES: '0', ...env });
    admin = (await signUpUser(server)).access;
  });
  afterAll(async () => {
    await server?.stop();
    await source?.close();
  });
  const started = { server: () => startedInBeforeAll(server), source: () => startedInBeforeAll(source), admin: () => startedInBeforeAll(admin) };
  return {
    ...started,
    saveMapping: async (name, config) => {
      const saved = await started.server().request('/api/yaml/save-mapping/', { body: { name, config }, token: started.admin() });
      expect(saved.status, saved.text).toBe(200);
    },
    createIntegration: async (settings) => {
      const created = await started.server().request('/api/integrations/scheduled/', { body: settings, token: started.admin() });
      expect(created.status, created.text).toBe(201);
      return created.json as unknown as Integration;
    },
    runNow: (id) => runIntegration(started.server().integrations.runs, { integrationId: id, trigger: 'manual' }),
  };
}
