// "Until Christmas", "till Easter", "until the end of the month", "through December", "until Black
// Friday": a window from the asker's today to that day, both included, as "by" that day's date is —
// asked over the real HTTP server by a US store (month-first dates, UTC's day) and a Melbourne shop
// (day-first dates, its own day and Anzac Day).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInTimeZone, type AssistantBlock, type ChatMessage } from '@stockwise/contract';
import { upsertProductSummaries } from '../dashboard/repo.ts';
import { signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayWords = (day: string) => `${Number(day.slice(8))} ${SHORT[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
const lastOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
const EASTER_SUNDAY: Record<number, string> = { 2026: '2026-04-05', 2027: '2027-03-28', 2028: '2028-04-16', 2029: '2029-04-01', 2030: '2030-04-21' };
/** The day after the fourth Thursday of November. */
const blackFriday = (year: number) => {
  const first = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  return `${year}-11-${String(1 + ((4 - first + 7) % 7) + 21 + 1).padStart(2, '0')}`;
};
/** The first of a yearly day (by its date in a year) on or after today. */
const next = (today: string, dayIn: (year: number) => string) => {
  const year = Number(today.slice(0, 4));
  return dayIn(year) >= today ? dayIn(year) : dayIn(year + 1);
};

const VIEWERS = [
  { name: 'a US store (en-US, no time zone: UTC)', headers: { 'accept-language': 'en-US,en;q=0.9' }, timeZone: null, written: (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8))}/${day.slice(0, 4)}` },
  { name: 'a Melbourne shop (en-AU, Australia/Melbourne)', headers: { 'accept-language': 'en-AU,en;q=0.9' }, timeZone: 'Australia/Melbourne', written: (day: string) => `${Number(day.slice(8))}/${Number(day.slice(5, 7))}/${day.slice(0, 4)}` },
];

describe('windows "until" a named day, over HTTP', () => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    viewer = await signUpUser(server, { role: 'viewer' });
    const db = server.database.db;
    // Run-outs spread over the next year and a half, from either viewer's today (the Melbourne day is at most one ahead of UTC's).
    const today = dayInTimeZone(Date.now(), 'UTC');
    const products = [3, 12, 30, 75, 150, 320, 500].map((days, at) => ({ code: `UNT-${at + 1}`, stockout: addDays(today, days) }));
    const ids = await db
      .insertInto('data.products')
      .values(products.map((p) => ({ product_code: p.code, name: `Window Product ${p.code}`, category: 'Seasonal', current_stock: 20, unit_cost: 2, lead_time_days: 7 })))
      .returning('id')
      .execute();
    await upsertProductSummaries(db, products.map((p, at) => ({ productId: ids[at]?.id as number, forecastStart: today, cumDemand: [0], cumVariance: [0], firstStockout: p.stockout, orderQuantity: 0 })));
  });
  afterAll(() => server.stop());

  describe.each(VIEWERS)('$name', ({ headers, timeZone, written }) => {
    const ask = async (content: string) => {
      const response = await server.request(`/api/assistant/messages/${timeZone ? `?time_zone=${encodeURIComponent(timeZone)}` : ''}`, { token: viewer.access, headers, body: { content } });
      expect(response.status, response.text).toBe(200);
      return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
    };
    const tableOf = (message: ChatMessage) => message.blocks.filter((block): block is Extract<AssistantBlock, { type: 'table' }> => block.type === 'table');
    const today = () => dayInTimeZone(Date.now(), timeZone ?? 'UTC');

    it('answers what runs out until Christmas, till Easter, until Black Friday, until the end of the month and through December as "by" that day', async () => {
      const day = today();
      const [year, month] = day.split('-').map(Number) as [number, number];
      const cases: [string, string, string][] = [
        ['what runs out until Christmas', next(day, (y) => `${y}-12-25`), 'until Christmas'],
        ['what runs out till Easter', next(day, (y) => EASTER_SUNDAY[y] as string), 'till Easter'],
        ['what runs out until Black Friday', next(day, blackFriday), 'until Black Friday'],
        ['what runs out until the end of the month', lastOfMonth(year, month), 'until the end of the month'],
        ['what runs out through December', `${year}-12-31`, `through December ${year}`],
      ];
      for (const [question, by, words] of cases) {
        const [answer, twin] = [await ask(question), await ask(question.replace(/ (until|till|through) .*$/, ` by ${written(by)}`))];
        expect(answer.content, question).toContain(`by ${dayWords(by)} (${words})`);
        expect(answer.content, question).not.toContain('I did not use');
        expect(answer.content, question).not.toContain("No product's code or name");
        expect(tableOf(answer), question).toEqual(tableOf(twin));
      }
    });

    it('answers what will sell until Black Friday or the end of the month as days still to come, from today', async () => {
      const day = today();
      const friday = next(day, blackFriday);
      const range = (to: string) => (day.slice(0, 4) === to.slice(0, 4) ? `${Number(day.slice(8))} ${day.slice(5, 7) === to.slice(5, 7) ? '' : `${SHORT[Number(day.slice(5, 7)) - 1]}`}`.trim() + `–${dayWords(to)}` : `${dayWords(day)}–${dayWords(to)}`);
      expect((await ask('what will I sell until Black Friday')).content).toContain(`the period asked for, until Black Friday (${range(friday)}), is still to come`);
      const [year, month] = day.split('-').map(Number) as [number, number];
      const monthEnd = lastOfMonth(year, month);
      if (monthEnd > day) expect((await ask('what will we sell until the end of the month')).content).toContain(`the period asked for, until the end of the month (${range(monthEnd)}), is still to come`);
    });
  });

  it('reads "before the next bank holiday" for a London shop as the day before the next of England\'s bank holidays', async () => {
    // gov.uk's list for England and Wales, substitute days included (Boxing Day 2026 is on Saturday: Monday 28 Dec).
    const bankHolidays = ['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31', '2026-12-25', '2026-12-28', '2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27', '2027-12-28', '2028-01-03', '2028-04-14', '2028-04-17', '2028-05-01', '2028-05-29', '2028-08-28', '2028-12-25', '2028-12-26'];
    const day = dayInTimeZone(Date.now(), 'Europe/London');
    const holiday = bankHolidays.find((date) => date > day) as string;
    const ask = async (content: string) => {
      const response = await server.request('/api/assistant/messages/?time_zone=Europe%2FLondon', { token: viewer.access, headers: { 'accept-language': 'en-GB' }, body: { content } });
      return (response.json.messages as ChatMessage[]).at(-1) as ChatMessage;
    };
    const eve = addDays(holiday, -1);
    const [answer, twin] = [await ask('what runs out before the next bank holiday'), await ask(`what runs out by ${Number(eve.slice(8))}/${Number(eve.slice(5, 7))}/${eve.slice(0, 4)}`)];
    expect(answer.content).toContain(`by ${dayWords(eve)} (before `);
    expect(answer.content).toContain(` on ${dayWords(holiday)})`);
    expect(answer.content).not.toContain('I did not use');
    expect(answer.blocks.filter((block) => block.type === 'table')).toEqual(twin.blocks.filter((block) => block.type === 'table'));
  });

  it('reads "until Anzac Day" for the Melbourne shop as its next 25 April', async () => {
    const day = dayInTimeZone(Date.now(), 'Australia/Melbourne');
    const anzac = next(day, (y) => `${y}-04-25`);
    const response = await server.request('/api/assistant/messages/?time_zone=Australia%2FMelbourne', { token: viewer.access, headers: { 'accept-language': 'en-AU' }, body: { content: 'what runs out until Anzac Day' } });
    expect((response.json.messages as ChatMessage[]).at(-1)?.content).toContain(`by ${dayWords(anzac)} (until Anzac Day)`);
  });
});
