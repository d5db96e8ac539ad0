// A run retrying a failing endpoint says why it waits while it waits (QA2: "RUNNING for two minutes
// with no sign of why"): the source is a real HTTP server on 127.0.0.1 that refuses or keeps silent
// for its first tries, and the run's log entry and the integration's status are read over HTTP
// during the back-off, as the web's polls read them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationLogPage, IntegrationStatusResponse, RetryProgress } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';

describe.each(backends)('retry progress of integration runs on %s', (backend) => {
  const { server, source, createIntegration, runNow } = useIntegrationServers(backend, { OUTBOUND_READ_TIMEOUT_MS: '600', INTEGRATION_RETRIES: '3', INTEGRATION_RETRY_DELAY_MS: '1000' });
  let viewer: string;

  beforeAll(async () => {
    viewer = (await signUpUser(server(), { role: 'viewer' })).access;
  });

  const records = (prefix: string) => [{ sku: `${prefix}1`, title: 'Rake', stock: { on_hand: 3 }, pricing: { unit_cost: '2.50' } }];
  const createReading = async (path: string) => (await createIntegration({ endpoint: `${source().origin}${path}`, mapping_selection: 'shop_export_json', target_entity: 'products', rate_limit: 6000 })).id;
  const runLog = async (id: number) => ((await server().request(`/api/integrations/scheduled/${id}/logs/`, { token: viewer })).json as unknown as IntegrationLogPage).results[0];
  const status = async (id: number) => (await server().request(`/api/integrations/scheduled/${id}/status/`, { token: viewer })).json as unknown as IntegrationStatusResponse;

  /** Runs integration `id` while reading its log entry and status over HTTP; the distinct progress each showed, in order. */
  async function runWatched(id: number) {
    const seen: { log: RetryProgress[]; status: RetryProgress[] } = { log: [], status: [] };
    const note = (list: RetryProgress[], progress: RetryProgress | null | undefined) => {
      if (progress && JSON.stringify(list.at(-1)) !== JSON.stringify(progress)) list.push(progress);
    };
    let done = false;
    const outcome = runNow(id).finally(() => (done = true));
    while (!done) {
      const [entry, current] = await Promise.all([runLog(id), status(id)]);
      if (entry?.status === 'running') note(seen.log, entry.progress);
      if (current.status === 'running') note(seen.status, current.run_progress);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { outcome: await outcome, seen };
  }

  it('says which try comes, when and why while it waits on an endpoint answering 503, and clears it once the page arrives', { timeout: 30_000 }, async () => {
    let calls = 0;
    source().route(`/busy-${backend}`, (_request, response) => ((calls += 1) <= 2 ? response.writeHead(503).end('busy') : sendJson(response, records(`RP${backend[0]}B`))));
    const id = await createReading(`/busy-${backend}`);
    const { outcome, seen } = await runWatched(id);
    expect(outcome).toMatchObject({ status: 'success', counts: { requests: 3, inserted: 1 } });

    const refused = `127.0.0.1:${source().port} answered HTTP 503 for page 1.`;
    const waits = seen.log.filter((progress) => progress.retry_at !== null);
    expect(waits.map(({ try: next, tries, reason }) => ({ next, tries, reason }))).toEqual([
      { next: 2, tries: 4, reason: refused },
      { next: 3, tries: 4, reason: refused },
    ]);
    expect(waits[0]?.message).toMatch(/^Try 2 of 4 in [12] s: 127\.0\.0\.1:\d+ answered HTTP 503 for page 1\.$/);
    expect(waits[1]?.message).toMatch(/^Try 3 of 4 in [2-4] s: /);
    // The status the web polls reads the same row.
    expect(seen.status).toContainEqual(waits[0]);
    expect(await runLog(id)).toMatchObject({ status: 'success', progress: null });
    expect(await status(id)).toMatchObject({ status: 'idle', run_progress: null });
  });

  it('names the silence of an endpoint that does not answer in time, and ends without progress when every try failed', { timeout: 30_000 }, async () => {
    source().route(`/silent-${backend}`, async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      sendJson(response, []);
    });
    const id = await createReading(`/silent-${backend}`);
    const { outcome, seen } = await runWatched(id);
    expect(outcome).toMatchObject({ status: 'failed', counts: { requests: 4 }, message: expect.stringMatching(/within 0.6 seconds \(after 4 tries\)\.$/) });
    expect(seen.log.filter((progress) => progress.retry_at !== null).map((progress) => progress.try)).toEqual([2, 3, 4]);
    const silence = `127.0.0.1:${source().port} did not send its whole answer within 0.6 seconds`;
    expect(seen.log[0]?.message).toMatch(/^Try 2 of 4 in [12] s: /);
    expect(seen.log[0]?.message.endsWith(`: ${silence}.`)).toBe(true);
    // While a try is under way (it waits the read timeout out), it says which one failed before it.
    expect(seen.log).toContainEqual(expect.objectContaining({ try: 2, retry_at: null, message: `Try 2 of 4 under way; try 1 failed: ${silence}.` }));
    expect(await runLog(id)).toMatchObject({ status: 'failed', progress: null });
    expect(await status(id)).toMatchObject({ status: 'failed', run_progress: null });
  });
});
