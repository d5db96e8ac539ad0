// A person's own date order (ADR 0167, amendment): stored on their account, changed by them alone,
// and read by the assistant before their browser's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const US = { 'accept-language': 'en-US,en;q=0.9' };

describe.each(backends)('a person’s own date order on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await signUpUser(server); // the first account of a database is admin
    const db = server.database.db;
    const product = await db.insertInto('data.products').values({ product_code: 'UMB-1', name: 'Umbrella', category: 'Rain', current_stock: 20, unit_cost: 4, lead_time_days: 5 }).returning('id').executeTakeFirstOrThrow();
    // 03/04/2026: 3 April day first, 4 March month first.
    await db.insertInto('data.sales').values([{ product_id: product.id, date: '2026-04-03', quantity: 7 }, { product_id: product.id, date: '2026-03-04', quantity: 2 }]).execute();
  });
  afterAll(() => server.stop());

  const setDates = (access: string, body: unknown) => server.request('/api/accounts/me/preferences/', { method: 'PUT', token: access, body });
  const datesOf = async (access: string) => (await server.request('/api/accounts/me/', { token: access })).json.date_order;

  it('is `browser` until the person chooses, and holds what they chose', async () => {
    const viewer = await signUpUser(server, { role: 'viewer' });
    expect(await datesOf(viewer.access)).toBe('browser');
    const chosen = await setDates(viewer.access, { date_order: 'day-first' });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json).toMatchObject({ id: viewer.id, username: viewer.username, role: 'viewer', date_order: 'day-first' });
    expect(await datesOf(viewer.access)).toBe('day-first');
    expect((await setDates(viewer.access, { date_order: 'month-first' })).json.date_order).toBe('month-first');
    expect((await setDates(viewer.access, { date_order: 'browser' })).json.date_order).toBe('browser');
    expect(await datesOf(viewer.access)).toBe('browser');
  });

  it('refuses a bad value with 400 naming date_order, and changes nothing', async () => {
    const editor = await signUpUser(server, { role: 'editor' });
    await setDates(editor.access, { date_order: 'day-first' });
    for (const body of [{ date_order: 'year-first' }, { date_order: null }, {}, { date_order: 'day-first', user_id: 1 }]) {
      const refused = await setDates(editor.access, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.text).toMatch(/date_order|user_id/);
    }
    const refused = await setDates(editor.access, { date_order: 'year-first' });
    expect(refused.json.errors).toHaveProperty('date_order');
    expect(await datesOf(editor.access)).toBe('day-first');
  });

  it('changes only the account of the token: another person’s choice stays', async () => {
    const [first, second] = [await signUpUser(server, { role: 'viewer' }), await signUpUser(server, { role: 'admin' })];
    await setDates(first.access, { date_order: 'month-first' });
    await setDates(second.access, { date_order: 'day-first' });
    expect(await datesOf(first.access)).toBe('month-first');
    expect(await datesOf(second.access)).toBe('day-first');
  });

  it('needs a signed-in, approved account', async () => {
    expect((await setDates('', { date_order: 'day-first' })).status).toBe(401);
    const pending = await signUpUser(server, { role: 'pending' });
    const refused = await setDates(pending.access, { date_order: 'day-first' });
    expect(refused.status).toBe(403);
    expect(await datesOf(pending.access)).toBe('browser');
  });

  it('the assistant reads 03/04/2026 in the person’s own order, and in the browser’s with `browser`', async () => {
    const viewer = await signUpUser(server, { role: 'viewer' });
    const ask = async (headers: Record<string, string>) => {
      const response = await server.request('/api/assistant/messages/', { token: viewer.access, headers, body: { content: 'sales on 03/04/2026' } });
      expect(response.status, response.text).toBe(200);
      return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
    };
    expect(await ask(US)).toContain('2 units were sold on 4 Mar 2026');
    await setDates(viewer.access, { date_order: 'day-first' });
    expect(await ask(US)).toContain('7 units were sold on 3 Apr 2026');
    await setDates(viewer.access, { date_order: 'month-first' });
    expect(await ask({ 'accept-language': 'en-GB' })).toContain('2 units were sold on 4 Mar 2026');
    await setDates(viewer.access, { date_order: 'browser' });
    expect(await ask(US)).toContain('2 units were sold on 4 Mar 2026');
    expect(await ask({ 'accept-language': 'en-GB' })).toContain('7 units were sold on 3 Apr 2026');
  });

  it('the report writer reads 03/04/2026 in the editor’s own order over an en-US browser', async () => {
    const editor = await signUpUser(server, { role: 'editor' });
    const write = async () => {
      const response = await server.request('/api/user-reports/generate-from-request/', {
        token: editor.access,
        headers: US,
        body: { report_id: null, change_request: 'units sold on 03/04/2026', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
      });
      expect(response.status, response.text).toBe(200);
      return response.json.sql_code as string;
    };
    expect(await write()).toContain('2026-03-04');
    await setDates(editor.access, { date_order: 'day-first' });
    const dayFirst = await write();
    expect(dayFirst).toContain('2026-04-03');
    expect(dayFirst).not.toContain('2026-03-04');
  });
});
