// One saved report edited in two tabs (QA F8, ADR 0168): its version goes out in the list, in the
// report and as the single GET's ETag; a change or delete sent with a version no longer stored is a
// 409 naming who saved it since and when, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

type Report = { id: number; title: string; sql_code: string; version: string };

describe.each(backends)('report versions on %s', (backend) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof signUpUser>>;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    server = await startTestServer(backend);
    owner = await signUpUser(server, { role: 'editor' });
    admin = await signUpUser(server);
  });
  afterAll(() => server.stop());

  const create = async (title: string) => {
    const created = await server.request('/api/user-reports/', { token: owner.access, body: { title, sql_code: 'select 1 as one' } });
    expect(created.status, created.text).toBe(201);
    return created.json as unknown as Report;
  };
  const put = (who: { access: string }, id: number, body: Record<string, unknown>, version?: string) =>
    server.request(`/api/user-reports/${id}/?time_zone=Europe/London`, { token: who.access, method: 'PUT', body, ...(version === undefined ? {} : { headers: { 'if-match': `"${version}"` } }) });
  const read = async (id: number) => (await server.request(`/api/user-reports/${id}/`, { token: owner.access })).json as unknown as Report;

  it('sends the version in the list, in the report and as its ETag; a change gives a new one', async () => {
    const report = await create('Weekly pots');
    expect(report.version).toMatch(/^\d+$/);
    const single = await server.request(`/api/user-reports/${report.id}/`, { token: owner.access });
    expect(single.headers.get('etag')).toBe(`"${report.version}"`);
    const list = (await server.request('/api/user-reports/', { token: owner.access })).json as unknown as Report[];
    expect(list.find((r) => r.id === report.id)?.version).toBe(report.version);
    const changed = await put(owner, report.id, { title: 'Weekly pots and pans' }, report.version);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.version).not.toBe(report.version);
    expect(changed.headers.get('etag')).toBe(`"${changed.json.version as string}"`);
  });

  it('refuses the second of two changes made on the same version, naming who changed it and when, and keeps the first', async () => {
    const report = await create('Mugs by month');
    const first = await put(admin, report.id, { sql_code: 'select 2 as two' }, report.version);
    expect(first.status, first.text).toBe(200);
    const second = await put(owner, report.id, { sql_code: 'select 3 as three' }, report.version);
    expect(second.status, second.text).toBe(409);
    expect(second.json.code).toBe('edit_conflict');
    expect(second.json.detail).toMatch(new RegExp(`^This report was changed by ${admin.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.$`));
    expect(second.json.changed_by).toBe(admin.username);
    expect(second.json.current).toMatchObject({ id: report.id, sql_code: 'select 2 as two', version: first.json.version });
    expect(await read(report.id)).toMatchObject({ sql_code: 'select 2 as two', version: first.json.version });
  });

  it('changes a report sent without If-Match as before: the last change wins', async () => {
    const report = await create('Saucers');
    await put(admin, report.id, { title: 'Saucers, first' }, report.version);
    const unchecked = await put(owner, report.id, { title: 'Saucers, second' });
    expect(unchecked.status, unchecked.text).toBe(200);
    expect((await read(report.id)).title).toBe('Saucers, second');
  });

  it('refuses a delete of a report changed since it was read (409), deleting nothing, and deletes at the current version', async () => {
    const report = await create('Whisks');
    const changed = await put(admin, report.id, { title: 'Whisks, renamed' }, report.version);
    const stale = await server.request(`/api/user-reports/${report.id}/`, { token: owner.access, method: 'DELETE', headers: { 'if-match': `"${report.version}"` } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.detail).toMatch(/then delete it if you still mean to\.$/);
    expect((await read(report.id)).title).toBe('Whisks, renamed');
    const deleted = await server.request(`/api/user-reports/${report.id}/`, { token: owner.access, method: 'DELETE', headers: { 'if-match': `"${changed.json.version as string}"` } });
    expect(deleted.status, deleted.text).toBe(204);
  });
});
