import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../demo/seed.ts';
import { forecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

/** The nice values of this process's V8 platform threads (the garbage collector's helpers; Linux /proc). */
function platformThreadsNice(): number[] {
  const values: number[] = [];
  for (const id of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim() !== 'V8Worker') continue;
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      values.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended while listing.
    }
  }
  return values;
}

// V8's platform threads serve every isolate of a process and, once lowered, stay lowered (ADR 0120):
// only a catalogue run in the process itself may lower them. Its own file, so that no other test's
// run in this process has lowered them first.
describe.each(backends)("the server's own garbage collection on %s", (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 4, today: new Date('2026-11-22T00:00:00Z') });
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  it(`keeps its priority after single-product forecasts${backend === 'postgres' ? ' and a catalogue run, which takes place in another process' : ''}`, async () => {
    const client = forecastClient(server, token);
    const products = (await server.request('/api/records/tables/products/data/?page_size=2', { token })).json.results as { product_code: string }[];
    expect(await client.run({ style_code: products[0]?.product_code })).toMatchObject({ status: 'completed' });
    // A product never forecast is forecast when read.
    await client.forecastOf(products[1]?.product_code as string);
    if (backend === 'postgres') expect(await client.run()).toMatchObject({ status: 'completed', results: { products: 4 } });
    expect(platformThreadsNice().length).toBeGreaterThan(0);
    expect(platformThreadsNice().every((nice) => nice === 0)).toBe(true);
  });
});
