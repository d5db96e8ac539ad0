import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from '../testing/test-server.ts';
import { PING_JOB } from './definitions.ts';

describe.each(backends)('job queue on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.stop());

  const completed = async (id: string) => {
    let job = await server.queue.boss.getJobById<{ message: string }>(PING_JOB, id);
    const deadline = Date.now() + 30_000;
    while (job?.state !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = await server.queue.boss.getJobById<{ message: string }>(PING_JOB, id);
    }
    return job;
  };

  it('runs a job sent to the queue and keeps its output', async () => {
    const job = await completed(await server.queue.send(PING_JOB, { message: `hello ${backend}` }));
    expect(job?.state).toBe('completed');
    expect(job?.output).toMatchObject({ pong: `hello ${backend}` });
  });

  it('wakes the worker when a job is sent rather than at its next poll', async () => {
    // Each job is sent just after the worker's last fetch came back empty: polling alone (every
    // 2 s, or 30 s once notifications are on) would leave each of the last four waiting about a
    // poll's interval. The wait is the queue's own: from the job's insert to its fetch, as pg-boss
    // stamps them in the database — not the test's wall clock, which a loaded machine stretches
    // with the sending, running and completing around it.
    const POLLING_MS = 2000;
    let waited = 0;
    for (let i = 0; i < 5; i++) {
      const job = await completed(await server.queue.send(PING_JOB, { message: `ping ${i}` }));
      expect(job?.state).toBe('completed');
      waited += new Date(job!.startedOn).getTime() - new Date(job!.createdOn).getTime();
    }
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(waited).toBeLessThan(2 * POLLING_MS);
  });
});
