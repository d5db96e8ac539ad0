// The built web app is served on the API's port: client routes get index.html, files are files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('web app serving', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'stockwise-dist-'));
  let server: TestServer;
  beforeAll(async () => {
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Stockwise</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    server = await startTestServer('pglite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/app/home', '/app/datatab', '/profile', '/assets/'])('answers %s with the app', async (route) => {
    const response = await server.request(route);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('<title>Stockwise</title>');
  });

  it('serves files, and answers a missing file or API path with 404', async () => {
    expect((await server.request('/assets/app.js')).text).toBe('console.log(1)');
    expect((await server.request('/assets/gone.js')).status).toBe(404);
    const api = await server.request('/api/nothing-here/');
    expect(api.status).toBe(404);
    expect(api.json.code).toBe('not_found');
  });
});
