// @vitest-environment node
// The import calls against a real loopback HTTP server: the multipart upload sends its fields
// before the file (the server streams the file through the mapping), reports upload progress and
// turns a 400 with row errors into a normalized error that keeps them; the config and log calls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { api } from './http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from '../stores/session.ts';
import { fetchConfig, fetchImportLog, fetchImportLogs, mappingsOf, uploadImport } from './import.ts';
import { isNormalizedError } from './errors.ts';

type Received = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

let loopback: Loopback;
let received: Received[] = [];
let uploadAnswer: { status: number; body: unknown } = { status: 200, body: {} };

const mapping = { description: 'flat', entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } };
const okResult = { message: 'Imported 2 rows into products: 2 inserted, 0 updated.', import_id: 'x', entity_type: 'products', table: 'products', counts: { rows: 2, inserted: 2, updated: 0, duplicates: 0 }, duration_ms: 12 };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    received.push({ method: request.method ?? '', path, headers: request.headers, body });
    if (path === '/api/records/process-file/') return sendJson(response, uploadAnswer.status, uploadAnswer.body);
    if (path === '/api/yaml/config/') return sendJson(response, 200, { success: true, content: { tables: {}, mappings: { flat: mapping }, queries: {}, inventory: { entities: [] } } });
    if (path === '/api/records/imports/') return sendJson(response, 200, { results: [{ id: 'a', status: 'success' }] });
    if (path === '/api/records/imports/a%2Fb/') return sendJson(response, 200, { id: 'a/b', status: 'running', progress: { rows_done: 3, bytes_done: 10, bytes_total: 20 } });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});

afterAll(() => loopback.close());

beforeEach(() => {
  received = [];
  uploadAnswer = { status: 200, body: okResult };
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
});

const csv = 'code,name\nP-1,One\nP-2,Two\n';

describe('uploadImport', () => {
  it('sends import_id, mapping_config, mapping_name and entity_type before the file, as multipart with the bearer token', async () => {
    const result = await uploadImport({ importId: '11111111-2222-4333-8444-555555555555', file: new File([csv], 'catalogue.csv', { type: 'text/csv' }), mappingConfig: mapping, mappingName: 'flat' });
    expect(result).toEqual(okResult);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.authorization).toBe('Bearer access');
    const body = request!.body;
    const order = ['import_id', 'mapping_config', 'mapping_name', 'entity_type', 'file'].map((name) => body.indexOf(`name="${name}"`));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(body).toContain('filename="catalogue.csv"');
    expect(body).toContain(csv);
    const field = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(body)?.[1];
    expect(field('import_id')).toBe('11111111-2222-4333-8444-555555555555');
    expect(JSON.parse(field('mapping_config') ?? 'null')).toEqual(mapping);
    expect(field('mapping_name')).toBe('flat');
    expect(field('entity_type')).toBe('products');
  });

  it('reports upload progress up to the whole body', async () => {
    const seen: { loaded: number; total: number | null }[] = [];
    await uploadImport({ importId: 'i', file: new File([csv.repeat(2000)], 'big.csv'), mappingConfig: mapping, mappingName: 'flat', onUploadProgress: (progress) => seen.push(progress) });
    expect(seen.length).toBeGreaterThan(0);
    const last = seen.at(-1)!;
    expect(last.loaded).toBeGreaterThanOrEqual(csv.length * 2000);
  });

  it('a 400 with row errors becomes a normalized error that keeps them', async () => {
    const rowErrors = [{ row: 2, field: 'current_stock', reason: 'Expected a whole number.' }];
    uploadAnswer = { status: 400, body: { detail: '1 row could not be imported; nothing was written.', code: 'validation_error', error: '1 row could not be imported; nothing was written.', import_id: 'i', row_errors: rowErrors, row_error_count: 1 } };
    const failure = await uploadImport({ importId: 'i', file: new File([csv], 'bad.csv'), mappingConfig: mapping, mappingName: 'flat' }).catch((error: unknown) => error);
    expect(isNormalizedError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'validation_error', message: '1 row could not be imported; nothing was written.', details: { status: 400, body: { row_errors: rowErrors, row_error_count: 1 } } });
  });

  it('a 413 keeps the server message', async () => {
    uploadAnswer = { status: 413, body: { detail: 'The file is larger than the upload limit.', code: 'payload_too_large', error: 'The file is larger than the upload limit.' } };
    await expect(uploadImport({ importId: 'i', file: new File([csv], 'big.csv'), mappingConfig: mapping, mappingName: 'flat' })).rejects.toMatchObject({ code: 'payload_too_large', message: 'The file is larger than the upload limit.', details: { status: 413 } });
  });
});

describe('config and log calls', () => {
  it('reads the mappings of the configuration', async () => {
    const answer = await fetchConfig();
    expect(answer.success).toBe(true);
    expect(answer.success && mappingsOf(answer.content)).toEqual({ flat: mapping });
    expect(mappingsOf({})).toEqual({});
    expect(mappingsOf({ mappings: [] })).toEqual({});
  });
  it('lists the log and reads one entry by its encoded id', async () => {
    expect(await fetchImportLogs()).toEqual([{ id: 'a', status: 'success' }]);
    expect((await fetchImportLog('a/b')).progress.rows_done).toBe(3);
  });
});
