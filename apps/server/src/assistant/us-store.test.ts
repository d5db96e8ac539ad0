// A US hardware store's questions (QA6 #5, #6, #12, #13): slashed dates in the asker's order, a
// product phrase of two words, "what's low", and the US retail days — through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@stockwise/contract';
import { signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';

const products = [
  { code: 'SS-18', name: 'Snow Shovel 18in' },
  { code: 'SS-24', name: 'Snow Shovel 24in Poly' },
  { code: 'SB-01', name: 'Snow Brush' },
  { code: 'IM-20', name: 'Ice Melt 20lb' },
  { code: 'BT-AA', name: 'AA Batteries 4pk' },
  // Phrases of three words whose first two other products' names hold too.
  { code: 'PT-24', name: 'Pressure Treated Lumber 2x4' },
  { code: 'PT-44', name: 'Pressure Treated Post 4x4' },
  { code: 'SC-50', name: 'Stainless Steel Screws 50pk' },
  { code: 'SH-01', name: 'Stainless Steel Hinge' },
];
/** Units sold per product and day: fixed days with their year, so the answers do not move with today. */
const sales: { code: string; date: string; quantity: number }[] = [
  // 3/11/2025 is 11 March month-first, 3 November day-first.
  { code: 'SB-01', date: '2025-03-11', quantity: 7 },
  { code: 'SB-01', date: '2025-11-03', quantity: 5 },
  { code: 'SS-18', date: '2025-12-05', quantity: 10 },
  { code: 'SS-24', date: '2025-12-10', quantity: 6 },
  { code: 'SB-01', date: '2025-12-06', quantity: 20 },
  { code: 'BT-AA', date: '2025-12-06', quantity: 3 },
  { code: 'PT-24', date: '2025-12-12', quantity: 12 },
  { code: 'PT-44', date: '2025-12-12', quantity: 5 },
  { code: 'SC-50', date: '2025-12-13', quantity: 30 },
  { code: 'SH-01', date: '2025-12-13', quantity: 4 },
  { code: 'IM-20', date: '2024-11-29', quantity: 11 }, // Black Friday 2024
  { code: 'IM-20', date: '2025-11-27', quantity: 1 }, // Thanksgiving 2025
  { code: 'IM-20', date: '2025-11-28', quantity: 9 }, // Black Friday 2025
  { code: 'IM-20', date: '2025-12-01', quantity: 4 }, // Cyber Monday 2025
  { code: 'IM-20', date: '2026-05-25', quantity: 3 }, // Memorial Day 2026
  { code: 'IM-20', date: '2026-07-04', quantity: 2 }, // Independence Day 2026
  { code: 'IM-20', date: '2026-09-07', quantity: 8 }, // Labor Day 2026
];

async function loadStore(server: TestServer) {
  const db = server.database.db;
  const ids: Record<string, number> = {};
  for (const p of products) {
    ids[p.code] = (await db.insertInto('data.products').values({ product_code: p.code, name: p.name, category: 'Seasonal', current_stock: 50, unit_cost: 10, lead_time_days: 7 }).returning('id').executeTakeFirstOrThrow()).id;
  }
  await db.insertInto('data.sales').values(sales.map((s) => ({ product_id: ids[s.code] as number, date: s.date, quantity: s.quantity }))).execute();
}

const US = { 'accept-language': 'en-US,en;q=0.9' };
const UK = { 'accept-language': 'en-GB,en;q=0.8' };

describe('a US store asks the assistant', () => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;
  const ask = async (content: string, headers: Record<string, string> = US) => {
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, headers, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };

  beforeAll(async () => {
    server = await startTestServer('pglite');
    viewer = await signUpUser(server, { role: 'viewer' });
    editor = await signUpUser(server, { role: 'editor' });
    await loadStore(server);
  });
  afterAll(() => server.stop());

  it('reads a slashed date month-first for an en-US browser and day-first for en-GB or none; a date only one order makes reads either way (QA6 #5)', async () => {
    expect(await ask('sales on 3/11/2025')).toContain('7 units were sold on 11 Mar 2025');
    expect(await ask('sales on 3/11/2025', UK)).toContain('5 units were sold on 3 Nov 2025');
    expect(await ask('sales on 3/11/2025', {})).toContain('5 units were sold on 3 Nov 2025');
    expect(await ask('sales on 3/11/2025', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' })).toContain('5 units were sold on 3 Nov 2025');
    // A language no calendar is known for, or a header that is no language, leaves dates day-first.
    expect(await ask('sales on 3/11/2025', { 'accept-language': 'qq-ZZ, ;q=abc, *' })).toContain('5 units were sold on 3 Nov 2025');
    expect(await ask('sales on 11/27/2025', UK)).toContain('1 unit');
    expect(await ask('sales on 27/11/2025')).toContain('on 27 Nov 2025');
    expect(await ask('sales from 12/1/2025 to 12/31/2025')).toContain('from 1 Dec 2025 to 31 Dec 2025');
    // A date no calendar has is named in the same order: 31 November, not "month 31".
    expect(await ask('sales on 11/31/2025')).toBe('There is no 31 November 2025. November has 30 days. Ask again with a day of the calendar.');
    expect(await ask('sales on 31/11/2025', UK)).toBe('There is no 31 November 2025. November has 30 days. Ask again with a day of the calendar.');
    // The help says dates in the asker's order.
    const help = await ask('what is the meaning of life');
    expect(help).toContain('since 11/3, by 11/30');
    expect(help).toContain('I read dates month-first (11/30 is 30 November).');
    expect(await ask('what is the meaning of life', UK)).toContain('since 3/11, by 30/11');
  });

  it('reads two words side by side that product names hold together as that phrase; one word alone only when the phrase matches nothing, said first (QA6 #6)', async () => {
    const shovels = await ask('how many snow shovels did we sell in December 2025');
    expect(shovels).toMatch(/^16 units were sold of products whose name holds "Snow Shovel" \(2 products in the Seasonal category: SS-18, SS-24\) in December 2025 \(1–31 Dec 2025\)/);
    expect(shovels).not.toContain('I did not use');
    expect(await ask('how many snow shovel did we sell in December 2025')).toMatch(/^16 units were sold of products whose name holds "Snow Shovel"/);
    const blowers = await ask('how many snow blowers did we sell in December 2025');
    expect(blowers).toMatch(/^No product's name holds "snow blowers": this counts every product whose name holds "Snow"\.\n36 units were sold of products whose name holds "Snow" \(3 products in the Seasonal category: SB-01, SS-18, SS-24\)/);
    expect(blowers).not.toContain('I did not use');
    expect(await ask('how many batteries did we sell in December 2025')).toMatch(/^3 units were sold of products whose name holds "Batteries" \(1 product in the Seasonal category: BT-AA\)/);
  });

  it('reads three words that product names hold together as that phrase before its first two; two alone when no name holds the three, said first', async () => {
    const lumber = await ask('how much pressure treated lumber did we sell in December 2025');
    expect(lumber).toMatch(/^12 units were sold of products whose name holds "Pressure Treated Lumber" \(1 product in the Seasonal category: PT-24\) in December 2025/);
    expect(lumber).not.toContain('I did not use');
    const screws = await ask('how many stainless steel screws did we sell in December 2025');
    expect(screws).toMatch(/^30 units were sold of products whose name holds "Stainless Steel Screws" \(1 product in the Seasonal category: SC-50\)/);
    expect(screws).not.toContain('I did not use');
    expect(await ask('how many stainless steel screw did we sell in December 2025')).toMatch(/^30 units were sold of products whose name holds "Stainless Steel Screws"/);
    const decking = await ask('how much pressure treated decking did we sell in December 2025');
    expect(decking).toMatch(/^No product's name holds "pressure treated decking": this counts every product whose name holds "Pressure Treated"\.\n17 units were sold of products whose name holds "Pressure Treated" \(2 products in the Seasonal category: PT-24, PT-44\)/);
    expect(decking).not.toContain('I did not use');
  });

  it('answers "what\'s low" and its kin with the low-stock list the button gives, and not "slow sellers" or "lowest" (QA6 #12)', async () => {
    const quick = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content: '', quick: 'low_stock' } });
    const button = (quick.json.messages as ChatMessage[]).at(-1)?.content;
    expect(button).toBeTruthy();
    for (const question of ["what's low", 'what is low', 'low on what', 'anything low?', 'what are we low on', 'Are we low on anything?']) expect(await ask(question), question).toBe(button);
    expect(await ask('slow sellers last month')).not.toBe(button);
    expect(await ask('what is the lowest price')).not.toBe(button);
  });

  it('reads the US retail days as their day, and compares one with the same day a year before (QA6 #13)', async () => {
    expect(await ask('sales on Black Friday 2025')).toMatch(/^9 units were sold on Black Friday 2025 \(28 Nov 2025\)/);
    expect(await ask('sales on Thanksgiving 2025')).toMatch(/^1 unit was sold on Thanksgiving 2025 \(27 Nov 2025\)|^1 units? were sold on Thanksgiving 2025/);
    expect(await ask('how many units did we sell on Cyber Monday 2025')).toMatch(/^4 units were sold on Cyber Monday 2025 \(1 Dec 2025\)/);
    expect(await ask('sales on Memorial Day 2026')).toMatch(/^3 units were sold on Memorial Day 2026/);
    expect(await ask('sales on July 4th 2026')).toMatch(/^2 units were sold on Independence Day 2026 \(4 Jul 2026\)/);
    expect(await ask('sales on Labor Day 2026')).toMatch(/^8 units were sold on Labor Day 2026/);
    // A range with named days, as with plain dates.
    for (const question of ['sales from Black Friday to Cyber Monday 2025', 'how many units did we sell between Black Friday 2025 and Cyber Monday']) {
      const answer = await ask(question);
      expect(answer, question).toMatch(/^13 units were sold from 28 Nov 2025 to 1 Dec 2025/);
      expect(answer, question).not.toContain('I did not use');
    }
    expect(await ask('sales between Thanksgiving and Christmas 2025')).toMatch(/^104 units were sold from 27 Nov 2025 to 25 Dec 2025/);
    expect(await ask('sales from Easter to the end of May 2026')).toMatch(/^3 units were sold from 5 Apr 2026 to 31 May 2026/);
    const compared = await ask('sales on Black Friday 2025 compared to last year');
    expect(compared).toContain('28 Nov 2025');
    expect(compared).toContain('29 Nov 2024');
    expect(compared).not.toContain('I did not use');
  });

  it('reads the report writer\'s slashed dates in the editor\'s order too (QA6 #5)', async () => {
    const write = async (headers: Record<string, string>) =>
      (
        await server.request('/api/user-reports/generate-from-request/', {
          token: editor.access,
          headers,
          body: { report_id: null, change_request: 'units sold on 3/11/2025', current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
        })
      ).json as { success: boolean; sql_code: string; title: string };
    const us = await write(US);
    expect(us.success).toBe(true);
    expect(us.sql_code).toContain('2025-03-11');
    expect((await write(UK)).sql_code).toContain('2025-11-03');
  });

  it('has the report writer read the US retail days, and say the words it did not use, never dropping them silently (QA6 #13)', async () => {
    const write = async (change: string) =>
      (
        await server.request('/api/user-reports/generate-from-request/', {
          token: editor.access,
          headers: US,
          body: { report_id: null, change_request: change, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
        })
      ).json as { success: boolean; sql_code: string; title: string; notice: string | null };
    const blackFriday = await write('units sold on Black Friday 2025 compared to last year');
    expect(blackFriday.success).toBe(true);
    expect(blackFriday.notice).toBeNull();
    expect(blackFriday.sql_code).toContain('2025-11-28');
    expect(blackFriday.sql_code).toContain('2024-11-29');
    // A phrase of product names, as the assistant reads it (QA6 #6).
    const shovels = await write('units sold of snow shovels in December 2025');
    expect(shovels.notice).toBeNull();
    const rows = (await server.request('/api/user-reports/execute/', { token: editor.access, body: { sql_code: shovels.sql_code } })).json.results;
    expect(rows).toEqual([{ units_sold: 16 }]);
    const screws = await write('units sold of stainless steel screws in December 2025');
    expect(screws.notice).toBeNull();
    expect((await server.request('/api/user-reports/execute/', { token: editor.access, body: { sql_code: screws.sql_code } })).json.results).toEqual([{ units_sold: 30 }]);
    const weekend = await write('units sold from Black Friday to Cyber Monday 2025');
    expect(weekend.notice).toBeNull();
    expect(weekend.sql_code).toContain('2025-11-28');
    expect((await server.request('/api/user-reports/execute/', { token: editor.access, body: { sql_code: weekend.sql_code } })).json.results).toEqual([{ units_sold: 13 }]);
    const unknown = await write('units sold on Small Business Saturday compared to last year');
    expect(unknown.success).toBe(true);
    expect(unknown.notice).toContain('did not use "Small Business Saturday compared"');
  });
});

describe('a US store asks the model', () => {
  let model: FakeChatModel;
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    model = await startFakeChatModel();
    server = await startTestServer('pglite', { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' });
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadStore(server);
  });
  afterAll(async () => {
    await server.stop();
    await model.close();
  });

  it("describes the tools' dates in the asker's order and reads the model's dates so (QA6 #5)", async () => {
    model.script([{ toolCalls: [{ id: 'call_1', name: 'units_sold', arguments: JSON.stringify({ period: 'on 3/11/2025' }) }] }, { content: 'Done.' }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, headers: US, body: { content: 'how did we do?' } });
    expect(response.status).toBe(200);
    const [asked, answered] = model.requests.slice(-2);
    const tools = (asked?.body.tools ?? []) as { function: { name: string; parameters: { properties: Record<string, { description: string }> } } }[];
    const period = tools.find((tool) => tool.function.name === 'units_sold')?.function.parameters.properties.period?.description;
    expect(period).toContain('"since 11/3/2026"');
    expect(period).toContain('dates month-first (11/30 is 30 November)');
    expect(period).not.toContain('day-first');
    expect(answered?.body.messages.find((m) => m.role === 'tool')?.content).toContain('7 units were sold on 11 Mar 2025');
  });

  it('reads a range of named days the model gives as the built-in answers do', async () => {
    model.script([{ toolCalls: [{ id: 'call_1', name: 'units_sold', arguments: JSON.stringify({ period: 'from Black Friday to Cyber Monday 2025' }) }] }, { content: 'Done.' }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, headers: US, body: { content: 'how did the long weekend go?' } });
    expect(response.status).toBe(200);
    expect(model.requests.at(-1)?.body.messages.find((m) => m.role === 'tool')?.content).toContain('13 units were sold from 28 Nov 2025 to 1 Dec 2025');
  });
});
