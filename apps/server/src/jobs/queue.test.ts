import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from '../testing/test-server.ts';
import { PING_JOB } from './definitions.ts';

describe.each(backends)('job queue on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.stop());

  it('runs a job sent to the queue and keeps its output', async () => {
    const id = await server.queue.send(PING_JOB, { message: `hello ${backend}` });
    let job = await server.queue.boss.getJobById<{ message: string }>(PING_JOB, id);
    const deadline = Date.now() + 30_000;
    while (job?.state !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await server.queue.boss.getJobById<{ message: string }>(PING_JOB, id);
    }
    expect(job?.state).toBe('completed');
    expect(job?.output).toMatchObject({ pong: `hello ${backend}` });
  });
});
