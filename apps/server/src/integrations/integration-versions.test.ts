// One integration edited by two admins at once (ADR 0168's amendment), on PGlite and PostgreSQL:
// its version goes out in the list, in the integration and as the single GET's ETag; a change or
// delete sent with a version no longer stored is a 409 naming who saved it and when, changing
// nothing; a run between opening and saving is no conflict (runs write status, not configuration),
// while the pause after failed runs is one (it switches the integration off), said without a name.
import { beforeAll, describe, expect, it } from 'vitest';
import { MASKED_SECRET, type Integration } from '@stockwise/contract';
import { sendJson } from '../testing/endpoint-server.ts';
import { useIntegrationServers } from '../testing/integration-servers.ts';
import { backends, signUpUser } from '../testing/test-server.ts';

describe.each(backends)('integration versions on %s', (backend) => {
  const { server, source, runNow } = useIntegrationServers(backend, { INTEGRATION_PAUSE_AFTER_FAILURES: '2' });
  let sam: Awaited<ReturnType<typeof signUpUser>>;
  let kim: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    source().route('/items', (_request, response) => sendJson(response, [{ sku: `IV${backend[0]}-1`, title: 'Trowel', stock: { on_hand: 3 }, pricing: { unit_cost: '2.50' } }]));
    source().route('/down', (_request, response) => response.writeHead(400).end());
    sam = await signUpUser(server());
    kim = await signUpUser(server(), { role: 'admin' });
  });

  const create = async (path = '/items', body: Record<string, unknown> = {}) => {
    const created = await server().request('/api/integrations/scheduled/', { token: sam.access, body: { endpoint: `${source().origin}${path}`, mapping_selection: 'shop_export_json', target_entity: 'products', ...body } });
    expect(created.status, created.text).toBe(201);
    return created.json as unknown as Integration;
  };
  const ifMatch = (version: string | undefined) => (version === undefined ? {} : { headers: { 'if-match': `"${version}"` } });
  const put = (who: { access: string }, id: number, body: Record<string, unknown>, version?: string) =>
    server().request(`/api/integrations/scheduled/${id}/?time_zone=Europe/London`, { token: who.access, method: 'PUT', body, ...ifMatch(version) });
  const remove = (id: number, version?: string) => server().request(`/api/integrations/scheduled/${id}/`, { token: kim.access, method: 'DELETE', ...ifMatch(version) });
  const read = async (id: number) => (await server().request(`/api/integrations/scheduled/${id}/`, { token: sam.access })).json as unknown as Integration;

  it('sends the version in the list, in the integration and as its ETag; a checked change saves and gives a new one', async () => {
    const integration = await create();
    expect(integration.version).toMatch(/^\d+$/);
    const single = await server().request(`/api/integrations/scheduled/${integration.id}/`, { token: sam.access });
    expect(single.headers.get('etag')).toBe(`"${integration.version}"`);
    const list = (await server().request('/api/integrations/scheduled/', { token: sam.access })).json as unknown as Integration[];
    expect(list.find((item) => item.id === integration.id)?.version).toBe(integration.version);
    const changed = await put(sam, integration.id, { schedule_frequency: 'daily' }, integration.version);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({ schedule_frequency: 'daily' });
    expect(changed.json.version).not.toBe(integration.version);
    expect(changed.headers.get('etag')).toBe(`"${changed.json.version as string}"`);
  });

  it('refuses the second of two saves made on the same version, naming who saved and when, keeping the first and showing the secret masked', async () => {
    const integration = await create('/items', { auth_header_value: 'Bearer s3cret-token' });
    const first = await put(kim, integration.id, { schedule_frequency: 'weekly' }, integration.version);
    expect(first.status, first.text).toBe(200);
    const second = await put(sam, integration.id, { endpoint: `${source().origin}/items?page=2` }, integration.version);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^This integration was changed by ${kim.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(kim.username);
    expect(Date.parse(second.json.changed_at as string)).toBe(Date.parse(first.json.updated_at as string));
    expect(second.json.current).toMatchObject({ id: integration.id, schedule_frequency: 'weekly', endpoint: `${source().origin}/items`, version: first.json.version, auth_header_value: MASKED_SECRET });
    expect(second.text).not.toContain('s3cret');
    expect(await read(integration.id)).toMatchObject({ schedule_frequency: 'weekly', endpoint: `${source().origin}/items`, version: first.json.version });
  });

  it('saves without If-Match (or with *) as before: the last save wins', async () => {
    const integration = await create();
    await put(kim, integration.id, { rate_limit: 30 }, integration.version);
    const unchecked = await put(sam, integration.id, { rate_limit: 20 });
    expect(unchecked.status, unchecked.text).toBe(200);
    const any = await server().request(`/api/integrations/scheduled/${integration.id}/`, { token: sam.access, method: 'PUT', body: { batch_size: 50 }, headers: { 'if-match': '*' } });
    expect(any.status, any.text).toBe(200);
    expect(await read(integration.id)).toMatchObject({ rate_limit: 20, batch_size: 50 });
  });

  it('answers a malformed If-Match as a 400 naming it, changing nothing, and a missing integration as 404 whatever the version', async () => {
    const integration = await create();
    const malformed = await server().request(`/api/integrations/scheduled/${integration.id}/`, { token: sam.access, method: 'PUT', body: { rate_limit: 5 }, headers: { 'if-match': 'yesterday' } });
    expect(malformed.status, malformed.text).toBe(400);
    expect(malformed.json.errors).toHaveProperty('If-Match');
    expect(await read(integration.id)).toMatchObject({ rate_limit: 60, version: integration.version });
    expect((await put(sam, 2_000_000_000, { rate_limit: 5 }, '1')).status).toBe(404);
    expect((await remove(2_000_000_000, '1')).status).toBe(404);
  });

  it('takes no run between opening and saving for a change: runs write the status, not the configuration', async () => {
    const integration = await create();
    const outcome = await runNow(integration.id);
    expect(outcome).toMatchObject({ status: 'success' });
    const afterRun = await read(integration.id);
    expect(afterRun.last_run_time).not.toBeNull();
    expect(afterRun.version).toBe(integration.version);
    const saved = await put(sam, integration.id, { schedule_frequency: 'daily' }, integration.version);
    expect(saved.status, saved.text).toBe(200);
  });

  it('refuses a save opened before the runs paused the integration, without naming anyone: the form would have switched it back on', async () => {
    const integration = await create('/down', { enabled: true });
    const opened = await put(sam, integration.id, { rate_limit: 30 }, integration.version);
    for (let i = 0; i < 2; i += 1) await runNow(integration.id);
    const refused = await put(kim, integration.id, { enabled: true, rate_limit: 10 }, opened.json.version as string);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.detail).toBe('This integration was changed after you opened it. Reload to see the change, then edit again.');
    expect(refused.json).toMatchObject({ changed_by: null, changed_at: null, current: { enabled: false, rate_limit: 30 } });
    expect(await read(integration.id)).toMatchObject({ enabled: false, rate_limit: 30 });
  });

  it("refuses the enabled switch of a list read before the integration was switched on and paused since: the old list would switch it back on unseen", async () => {
    const integration = await create('/down', { enabled: false });
    const listed = integration.version;
    const switchedOn = await put(kim, integration.id, { enabled: true }, listed);
    expect(switchedOn.status, switchedOn.text).toBe(200);
    for (let i = 0; i < 2; i += 1) await runNow(integration.id);
    const stale = await put(sam, integration.id, { enabled: true }, listed);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json).toMatchObject({ code: 'edit_conflict', changed_by: null, current: { enabled: false } });
    expect(await read(integration.id)).toMatchObject({ enabled: false });
    const seen = await put(sam, integration.id, { enabled: true }, (stale.json.current as { version: string }).version);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.json.enabled).toBe(true);
  });

  it('refuses a delete of an integration saved since it was read (409), deleting nothing, and deletes at the current version', async () => {
    const integration = await create();
    const changed = await put(sam, integration.id, { schedule_frequency: 'daily' }, integration.version);
    const stale = await remove(integration.id, integration.version);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.detail).toMatch(new RegExp(`^This integration was changed by ${sam.username} .* then delete it if you still mean to\\.$`));
    expect(await read(integration.id)).toMatchObject({ schedule_frequency: 'daily' });
    const deleted = await remove(integration.id, changed.json.version as string);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await server().request(`/api/integrations/scheduled/${integration.id}/`, { token: sam.access })).status).toBe(404);
  });
});
