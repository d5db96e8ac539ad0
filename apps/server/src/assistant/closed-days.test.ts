// A sales answer for a period says how many of its days the shop was closed (ADR 0203 F6): the
// Lyon épicerie's August of congés is not read as a slump. Its closed weekdays, the closures the
// catalogue calendar learned and the days typed in Settings → Shop count; a period with only its
// weekly closed days says nothing. Through the real HTTP server, on both databases.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@stockwise/contract';
import { saveCalendar } from '../forecasting/repo.ts';
import { backends, useServerWithUser } from '../testing/test-server.ts';

const DAY_MS = 86_400_000;
const TODAY = new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The first day of the month `back` months before today's. */
const monthStart = (back: number) => {
  const date = new Date(`${TODAY.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - back);
  return date.toISOString().slice(0, 10);
};
const LAST_MONTH = monthStart(1);
const MONTH_BEFORE = monthStart(2);
const daysOf = (start: string) => Array.from({ length: 31 }, (_, i) => addDays(start, i)).filter((day) => day.slice(0, 7) === start.slice(0, 7));
const isMonday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;
// Typed: the 3rd to the 9th of last month; learned: its 20th every year, and Mondays.
const TYPED = Array.from({ length: 7 }, (_, i) => addDays(LAST_MONTH, i + 2));
const LEARNED_DAY = `${LAST_MONTH.slice(5, 7)}-20`;

describe.each(backends)('closed days in a sales answer on %s', (backend) => {
  const admin = useServerWithUser(backend, 'admin');
  const ask = async (content: string) => {
    const response = await admin.server().request('/api/assistant/messages/', { token: admin.user().access, body: { content } });
    expect(response.status, response.text).toBe(200);
    return ((response.json.messages as ChatMessage[]).at(-1) as ChatMessage).content;
  };
  beforeAll(async () => {
    const db = admin.server().database.db;
    const [mug] = await db.insertInto('data.products').values({ product_code: 'MUG', name: 'Mug', current_stock: 5, unit_cost: 2, lead_time_days: 2 }).returning('id').execute();
    await db
      .insertInto('data.sales')
      .values([LAST_MONTH, MONTH_BEFORE].map((start) => ({ product_id: mug?.id as number, date: addDays(start, 11), quantity: 4 })))
      .execute();
    await saveCalendar(db, { historyStart: addDays(MONTH_BEFORE, -400), historyEnd: addDays(LAST_MONTH, 27), calendar: { closedDates: [LEARNED_DAY], closedWeekdays: [1] } });
    const saved = await admin.server().request('/api/shop/closed-dates/', { method: 'PUT', token: admin.user().access, body: { closedDates: TYPED.map((date) => ({ date, note: 'Congés' })) } });
    expect(saved.status, saved.text).toBe(200);
  });

  it("says how many of the period's days the shop was closed — typed, learned and weekly — and nothing for a period with only its weekly closed days", async () => {
    const days = daysOf(LAST_MONTH);
    const closed = days.filter((day) => TYPED.includes(day) || day.endsWith(LEARNED_DAY) || isMonday(day)).length;
    const said = `The shop was closed on ${closed} of those ${days.length} days.`;
    const total = await ask('how many units did we sell last month?');
    expect(total).toMatch(/^4 units were sold /);
    expect(total).toContain(said);
    expect(await ask('how many mugs did we sell last month?')).toContain(said);
    const before = await ask(`how many units did we sell in ${new Date(`${MONTH_BEFORE}T00:00:00Z`).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })}?`);
    expect(before).toMatch(/^4 units were sold /);
    expect(before).not.toContain('closed');
  });
});
