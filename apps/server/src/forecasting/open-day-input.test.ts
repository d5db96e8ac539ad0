// The open-day lookup (`GET /api/forecasting/open-day/?date=`, ADR 0182 amendments) refuses what no
// browser of ours sends but anyone can: a NUL byte, a huge query string, a day no calendar has, no
// date, two dates. Each is a 4xx in the one error shape naming `date`, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(backends)('the open-day lookup refusing a date that is none, on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const ask = (query: string) => server.request(`/api/forecasting/open-day/${query}`, { token });

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  const AS_ISO = 'Expected a date as YYYY-MM-DD.';
  it.each([
    ['a NUL byte', '?date=2026-12-24%00', AS_ISO],
    ['a NUL byte alone', '?date=%00', AS_ISO],
    ['a day February does not have', '?date=2026-02-30', '2026-02-30 is not a real date: February 2026 has 28 days.'],
    ['a month that is none', '?date=2026-13-01', '2026-13-01 is not a real date: a year has 12 months.'],
    ['no date', '', 'A day to look up is required, as YYYY-MM-DD.'],
    ['no date but other parameters', '?day=2026-12-24', 'A day to look up is required, as YYYY-MM-DD.'],
    ['an empty date', '?date=', AS_ISO],
    ['the date twice', '?date=2026-12-24&date=2026-12-25', 'Give one day only, as YYYY-MM-DD.'],
    ['a huge date (15,000 characters, under the 16 KiB Node takes for a request’s headers)', `?date=${'9'.repeat(15_000)}`, AS_ISO],
    ['a huge query string of other parameters beside a date', `?date=2026-12-24x&${'a=1&'.repeat(3_500)}`, AS_ISO],
  ])('refuses %s with a 400 naming date', async (_name, query, words) => {
    const refused = await ask(query);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'validation_error', errors: { date: [words] } });
    const { detail } = refused.json as { detail: string };
    expect(detail).toBe(`Invalid request: date: ${words}`);
    // What was sent is not said back whole.
    expect(detail.length).toBeLessThan(400);
  });

  it('answers a URL longer than the server takes with 431 before any route, not a 500', async () => {
    const refused = await ask(`?date=${'9'.repeat(20_000)}`);
    expect(refused.status).toBe(431);
  });

  it('still answers a real day, a date with spaces around it read as the day', async () => {
    expect((await ask('?date=2026-12-24')).json).toEqual({ date: '2026-12-24', closed: false, note: null, next_open: '2026-12-24' });
    expect((await ask('?date=%202026-12-24%20')).json).toMatchObject({ date: '2026-12-24', closed: false });
  });
});
