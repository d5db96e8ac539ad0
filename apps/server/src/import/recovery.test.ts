// The server is killed (SIGKILL) in the middle of a large import: after a restart the table holds
// none of the file, and the import log says the import was interrupted.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportLogEntry } from '@stockwise/contract';
import { backends } from '../testing/test-server.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';

const ROWS = 300_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function environment(backend: (typeof backends)[number]): Promise<Record<string, string>> {
  const database = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-disk', { namePrefix: 'stockwise-import-kill' });
  cleanups.push(database.drop);
  return { DEMO_DATA: 'false', ...database.env };
}

const json = async (server: ServerProcess, route: string, token: string | null, body?: unknown) =>
  (await (
    await fetch(`${server.url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  ).json()) as Record<string, unknown>;

describe.each(backends)('import interrupted by SIGKILL on %s', (backend) => {
  it('keeps all or nothing of the file and logs the interruption', { timeout: 240_000 }, async () => {
    const env = await environment(backend);
    let server = await startServerProcess(env);
    cleanups.push(() => server.kill());
    const credentials = { username: 'importer', password: 'import password 2026' };
    await json(server, '/api/accounts/register/', null, credentials);
    let token = (await json(server, '/api/token/', null, credentials)).access as string;

    const lines = ['product_code,name,current_stock'];
    for (let i = 0; i < ROWS; i++) lines.push(`KILL-${i},Killed import ${i},${i % 500}`);
    const importId = randomUUID();
    const form = new FormData();
    form.append('import_id', importId);
    form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } } } }));
    form.append('entity_type', 'products');
    form.append('file', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'large.csv');
    const upload = fetch(`${server.url}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }).catch(() => null);

    let rowsSeen: number;
    for (;;) {
      const log = (await json(server, `/api/records/imports/${importId}/`, token)) as unknown as ImportLogEntry & { code?: string };
      if (log.status === 'running' && log.progress.rows_done > 20_000) {
        rowsSeen = log.progress.rows_done;
        await server.kill();
        break;
      }
      expect(log.status === undefined || log.status === 'running').toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await upload;
    expect(rowsSeen).toBeLessThan(ROWS);

    server = await startServerProcess(env);
    token = (await json(server, '/api/token/', null, credentials)).access as string;
    const log = (await json(server, `/api/records/imports/${importId}/`, token)) as unknown as ImportLogEntry;
    expect(log).toMatchObject({ status: 'error', fileName: 'large.csv', errorMessage: expect.stringContaining('Interrupted') });
    const page = await json(server, `/api/records/tables/products/data/?filters_json=${encodeURIComponent(JSON.stringify({ product_code: 'KILL-' }))}`, token);
    expect(page.count).toBe(0);
    await server.stop();
  });
});
