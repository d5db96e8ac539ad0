import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../testing/scratch-database.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';

const errorShape = { detail: expect.any(String), code: expect.any(String) };

/** What a 500 body may never show: SQL, the database's words, a stack trace. */
const leaks = /select |relation |data_folders|\bat .+\.ts|node_modules|stack/i;

describe.each(backends)('error answers on %s', (backend) => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'stockwise-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title>');
    server = await startTestServer(backend, { LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100', WEB_DIST_DIR: webDir, UPLOAD_MAX_BYTES: '2048' });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(webDir, { recursive: true, force: true });
  });

  it.each([
    ['malformed JSON', { body: '{"username": ', headers: { 'content-type': 'application/json' } }, 400],
    ['an unsupported content type', { body: 'username=a', headers: { 'content-type': 'text/plain' } }, 400],
    ['a body over the size limit', { body: JSON.stringify({ username: 'x', password: 'y'.repeat(2 * 1024 * 1024) }) }, 413],
    ['a wrong field type', { body: { username: 42, password: ['x'] } }, 400],
    ['extra fields on sign-in', { body: { username: 'a', password: 'b', admin: true } }, 400],
  ])('answers %s with a clear 4xx in the one error shape', async (_name, options, status) => {
    const response = await server.request('/api/token/', { method: 'POST', ...options });
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject(errorShape);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const user = await signUpUser(server);
    const response = await server.request('/api/no-such-thing/', { token: user.access });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'not_found' });
  });

  it('never answers arbitrary JSON on the public routes with a 500', async () => {
    const routes = ['/api/token/', '/api/token/refresh/', '/api/accounts/register/'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue({ maxDepth: 4 }), async (route, body) => {
        const response = await server.request(route, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(response.status).toBeLessThan(500);
        expect(response.json).toHaveProperty('code');
      }),
      { numRuns: 60, seed: 2026 },
    );
  });

  it('answers a failure nobody foresaw with a stable message and an error id, never SQL or a stack', async () => {
    const user = await signUpUser(server);
    await sql`alter table data_folders rename to data_folders_gone`.execute(server.database.db);
    try {
      const response = await server.request('/api/records/folders/', { token: user.access });
      expect(response.status).toBe(500);
      expect(response.json).toEqual({ code: 'internal_error', error_id: expect.stringMatching(/^[0-9a-f]{12}$/), detail: expect.any(String) });
      expect(response.json.detail).toBe(`Internal server error (error id ${response.json.error_id as string}); the details are in the server log.`);
      expect(response.text).not.toMatch(leaks);
    } finally {
      await sql`alter table data_folders_gone rename to data_folders`.execute(server.database.db);
    }
  });

  it.each([
    ['@fastify/static refusing a path', () => server.request('/assets/a%00.js'), 403, 'forbidden'],
    ['a multipart body with more fields than allowed', async () => {
      const user = await signUpUser(server, { role: 'editor' });
      const form = new FormData();
      for (let i = 0; i < 20; i++) form.append(`field_${i}`, 'x');
      const response = await fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${user.access}` }, body: form });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    }, 413, 'payload_too_large'],
  ] as const)('keeps the client status of %s', async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject({ code, detail: expect.any(String) });
  });
});

// The log is read from a server process's stdout; the test breaks the database from outside, which
// only a PostgreSQL server allows while the process runs.
describe.each(backends.filter((backend) => backend === 'postgres'))('internal errors in the log on %s', () => {
  let scratch: ScratchDatabase;
  let server: ServerProcess;
  let log = '';
  beforeAll(async () => {
    scratch = await createScratchDatabase('postgres', { namePrefix: 'stockwise_errors' });
    server = await startServerProcess({ ...scratch.env, DEMO_DATA: 'false', LOG_LEVEL: 'error' }, { onStdout: (text) => (log += text) });
  });
  afterAll(async () => {
    await server.stop();
    await scratch.drop();
  });

  it('logs the failure with its details under the error id the answer gives', async () => {
    const credentials = { username: 'first_admin', password: 'Correct horse 2026' };
    const post = (route: string, body: unknown, token?: string) =>
      fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    expect((await post('/api/accounts/register/', credentials)).status).toBe(201);
    const token = ((await (await post('/api/token/', credentials)).json()) as { access: string }).access;
    const outside = new pg.Client({ connectionString: scratch.env.DATABASE_URL });
    await outside.connect();
    await outside.query('alter table data_folders rename to data_folders_gone');
    await outside.end();

    const response = await fetch(`${server.url}/api/records/folders/`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { error_id: string };
    expect(response.status).toBe(500);
    await expect.poll(() => log).toContain(body.error_id);
    const entry = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { error_id?: string; err?: { message: string; stack: string } })
      .find((line) => line.error_id === body.error_id);
    expect(entry?.err?.message).toContain('data_folders');
    expect(entry?.err?.stack).toEqual(expect.any(String));
  });
});
