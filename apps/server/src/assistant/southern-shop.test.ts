// "Wattle & Co", a gift shop in Melbourne (QA7 F10–F12): its browser sends its time zone, and the
// assistant and the report writer read seasons of the southern hemisphere, the Australian financial
// year and Australian days — through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type ChatMessage } from '@stockwise/contract';
import { signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const MELBOURNE = 'Australia/Melbourne';
const AU = { 'accept-language': 'en-AU,en;q=0.9' };

const products = [
  { code: 'CD-01', name: 'Soy Candle', category: 'Home' },
  { code: 'TT-01', name: 'Tea Towel', category: 'Kitchen' },
];
/** Units sold per product and day: fixed days with their year, so the answers do not move with today. */
const sales: { code: string; date: string; quantity: number }[] = [
  { code: 'TT-01', date: '2025-01-26', quantity: 4 }, // Australia Day 2025
  { code: 'CD-01', date: '2025-04-25', quantity: 3 }, // Anzac Day 2025
  { code: 'CD-01', date: '2025-07-10', quantity: 12 }, // winter 2025 in Melbourne
  { code: 'TT-01', date: '2026-01-15', quantity: 5 }, // summer 2025–26 in Melbourne, winter 2025–26 in the north
  { code: 'CD-01', date: '2026-07-15', quantity: 9 }, // winter 2026 in Melbourne
];

async function loadShop(server: TestServer) {
  const db = server.database.db;
  const ids: Record<string, number> = {};
  for (const p of products) {
    ids[p.code] = (await db.insertInto('data.products').values({ product_code: p.code, name: p.name, category: p.category, current_stock: 50, unit_cost: 10, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow()).id;
  }
  await db.insertInto('data.sales').values(sales.map((s) => ({ product_id: ids[s.code] as number, date: s.date, quantity: s.quantity }))).execute();
}

/** The latest June–August that has ended in Melbourne: its winter the assistant calls "last winter". */
function lastSouthernWinter(): number {
  const [year, month] = dayInTimeZone(Date.now(), MELBOURNE).split('-').map(Number) as [number, number];
  return month >= 9 ? year : year - 1;
}

describe('a Melbourne gift shop asks the assistant and the report writer', () => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;
  const ask = async (content: string, timeZone: string | null = MELBOURNE) => {
    const response = await server.request(`/api/assistant/messages/${timeZone ? `?time_zone=${encodeURIComponent(timeZone)}` : ''}`, { token: viewer.access, headers: AU, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };
  const write = async (change: string, timeZone: string | null = MELBOURNE) => {
    const response = await server.request(`/api/user-reports/generate-from-request/${timeZone ? `?time_zone=${encodeURIComponent(timeZone)}` : ''}`, {
      token: editor.access,
      headers: AU,
      body: { report_id: null, change_request: change, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
    });
    expect(response.status, response.text).toBe(200);
    return response.json as { success: boolean; sql_code: string; title: string; notice: string | null; error: string | null };
  };
  const run = async (sql: string) => (await server.request('/api/user-reports/execute/', { token: editor.access, body: { sql_code: sql } })).json.results as Record<string, unknown>[];

  beforeAll(async () => {
    server = await startTestServer('pglite');
    viewer = await signUpUser(server, { role: 'viewer' });
    editor = await signUpUser(server, { role: 'editor' });
    await loadShop(server);
  });
  afterAll(() => server.stop());

  it('answers seasons of the southern hemisphere from a Melbourne browser, the north\'s without a zone (QA7 F10)', async () => {
    expect(await ask('sales in winter 2025')).toMatch(/^12 units were sold in winter 2025 \(1 Jun–31 Aug 2025\)/);
    expect(await ask('sales in summer 2025')).toMatch(/^5 units were sold in summer 2025–26 \(1 Dec 2025–28 Feb 2026\)/);
    const winter = lastSouthernWinter();
    expect(await ask('sales last winter')).toContain(`in winter ${winter} (1 Jun–31 Aug ${winter})`);
    expect(await ask('sales in winter 2025', null)).toMatch(/^5 units were sold in winter 2025–26 \(1 Dec 2025–28 Feb 2026\)/);
  });

  it('has the report writer read the season in the editor\'s hemisphere (QA7 F10)', async () => {
    const winter = await write('sales by category in winter 2025');
    expect(winter.success, winter.error ?? '').toBe(true);
    expect(winter.title).toContain('winter 2025');
    expect(winter.title).not.toContain('2025–26');
    expect(winter.sql_code).toContain('2025-06-01');
    expect(await run(winter.sql_code)).toEqual([expect.objectContaining({ category: 'Home' })]);
    const north = await write('sales by category in winter 2025', null);
    expect(north.sql_code).toContain('2025-12-01');
    const mars = await server.request('/api/user-reports/generate-from-request/?time_zone=Mars%2FOlympus', {
      token: editor.access,
      body: { report_id: null, change_request: 'sales last winter', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
    });
    expect(mars.status).toBe(400);
    expect(mars.text).toContain('time_zone: Mars/Olympus is not a time zone');
  });

  it('answers the Australian financial year, July to June, with its dates; the calendar year said where no other is known (QA7 F11)', async () => {
    expect(await ask('sales in FY2025-26')).toMatch(/^17 units were sold in the financial year 2025–26 \(1 Jul 2025–30 Jun 2026\)/);
    expect(await ask('how many units did we sell in FY26?')).toMatch(/^17 units were sold in the financial year 2025–26/);
    const [year, month] = dayInTimeZone(Date.now(), MELBOURNE).split('-').map(Number) as [number, number];
    const lastEnds = month >= 7 ? year : year - 1;
    expect(await ask('sales last financial year')).toContain(`in the financial year ${lastEnds - 1}–${String(lastEnds % 100).padStart(2, '0')} (1 Jul ${lastEnds - 1}–30 Jun ${lastEnds})`);
    expect(await ask('what is the meaning of life')).toContain('last financial year, FY2025-26');
    expect(await ask('sales in FY2025', 'America/New_York')).toMatch(/^19 units were sold in the financial year read as the calendar year 2025 \(1 Jan–31 Dec 2025\)/);
  });

  it('has the report writer read the financial year of the editor\'s country (QA7 F11)', async () => {
    const report = await write('sales by category for FY2025-26');
    expect(report.success, report.error ?? '').toBe(true);
    expect(report.notice).toBeNull();
    expect(report.title).toContain('financial year 2025–26');
    expect(report.sql_code).toContain('2025-07-01');
    const rows = await run(report.sql_code);
    expect(rows.map((row) => row.category).sort()).toEqual(['Home', 'Kitchen']);
    const last = await write('sales by category for the last financial year');
    expect(last.success, last.error ?? '').toBe(true);
    expect(last.title).toMatch(/financial year \d{4}–\d{2}/);
    expect(last.title).not.toContain('all time');
  });

  // "Before Boxing Day" as a deadline is asked of a catalogue with a forecast: assistant.test.ts, beside "before Christmas".
  it('answers on Anzac Day and Australia Day (QA7 F12)', async () => {
    expect(await ask('sales on Anzac Day 2025')).toMatch(/^3 units were sold on Anzac Day 2025 \(25 Apr 2025\)/);
    expect(await ask('what sold on Anzac Day 2025?')).toContain('25 Apr 2025');
    expect(await ask('sales on Australia Day 2025', null)).toMatch(/^4 units were sold on Australia Day 2025 \(26 Jan 2025\)/);
  });

  it('has the report writer read Anzac Day (QA7 F12)', async () => {
    const report = await write('sales by category on Anzac Day 2025');
    expect(report.success, report.error ?? '').toBe(true);
    expect(report.notice).toBeNull();
    expect(report.sql_code).toContain('2025-04-25');
    expect(await run(report.sql_code)).toEqual([expect.objectContaining({ category: 'Home' })]);
  });
});
