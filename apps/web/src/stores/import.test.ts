// @vitest-environment node
// The import store against a real loopback HTTP server playing the config, the products columns,
// the upload and the import log: loading and error flags (spec §4), the §5/§8 messages, the
// preview after mapping, the submit guard, server progress while uploading, and success/failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { initialImportState, submitGuard, useImportStore } from './import.ts';

let loopback: Loopback;
let paths: string[] = [];
let fail: Record<string, number> = {};
let configAnswer: unknown;
let uploadAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let uploadDelayMs = 0;

const catalogue = { description: 'A flat CSV.', entities: { products: { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } } } };
const salesOnly = { entities: { sales: { field_mappings: { quantity: 'qty' } } } };
const goodConfig = { success: true, content: { tables: {}, mappings: { product_catalogue_csv: catalogue, sales_only: salesOnly }, queries: {}, inventory: { entities: [] } } };
const columns = [
  { key: 'product_code', label: 'Product code', type: 'CharField', max_length: 64, required: true, read_only: false },
  { key: 'name', label: 'Name', type: 'CharField', max_length: 200, required: true, read_only: false },
  { key: 'current_stock', label: 'Current stock', type: 'IntegerField', read_only: false },
];
const okResult = { message: 'Imported 6 rows into products: 6 inserted, 0 updated.', import_id: 'x', entity_type: 'products', table: 'products', counts: { rows: 6, inserted: 6, updated: 0, duplicates: 0 }, duration_ms: 40 };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback(async (request, _body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    paths.push(path);
    const failure = Object.entries(fail).find(([prefix]) => path.startsWith(prefix));
    if (failure) return sendJson(response, failure[1], { detail: 'server says no', code: 'nope' });
    if (path === '/api/yaml/config/') return sendJson(response, 200, configAnswer);
    if (path === '/api/records/tables/products/variation-columns/') return sendJson(response, 200, { columns });
    if (path === '/api/records/process-file/') {
      if (uploadDelayMs) await new Promise((resolve) => setTimeout(resolve, uploadDelayMs));
      return sendJson(response, uploadAnswer.status, uploadAnswer.body);
    }
    if (path === '/api/records/imports/') return sendJson(response, 200, { results: [
      { id: 'old', status: 'success', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'new', status: 'error', createdAt: '2026-02-01T00:00:00.000Z' },
    ] });
    if (path.startsWith('/api/records/imports/')) return sendJson(response, 200, { id: path.split('/')[4], status: 'running', progress: { rows_done: 42, bytes_done: 100, bytes_total: 200 } });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(() => loopback.close());

beforeEach(() => {
  paths = [];
  fail = {};
  configAnswer = goodConfig;
  uploadAnswer = { status: 200, body: okResult };
  uploadDelayMs = 0;
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useImportStore.setState(initialImportState);
});

const store = () => useImportStore.getState();
const csvFile = (text = 'product_code,name,current_stock\nP-1,One,1\nP-2,Two,x\nP-3,,3\nP-4,Four,4\nP-5,Five,5\nP-6,Six,6\n', name = 'catalogue.csv') => new File([text], name, { type: 'text/csv' });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('loading the mappings', () => {
  it('is skipped with "Authentication not ready." until the session has loaded and the user is logged in', async () => {
    useSessionStore.setState({ isLoading: true, isLoggedIn: true });
    await store().loadMappings();
    expect(store().error).toBe('Authentication not ready.');
    useSessionStore.setState({ isLoading: false, isLoggedIn: false });
    await store().loadMappings();
    expect(store().error).toBe('Authentication not ready.');
    expect(paths).toEqual([]);
  });

  it('sets loading at start, clears the error at start, selects the first mapping and its config', async () => {
    useImportStore.setState({ error: 'old' });
    const loading = store().loadMappings();
    expect(store().isLoading).toBe(true);
    expect(store().error).toBeNull();
    await loading;
    expect(store().isLoading).toBe(false);
    expect(store().availableMappings).toEqual([
      { name: 'product_catalogue_csv', description: 'A flat CSV.' },
      { name: 'sales_only', description: null },
    ]);
    expect(store().selectedMapping).toBe('product_catalogue_csv');
    expect(store().mappingConfig).toEqual(catalogue);
    expect(store().availableEntities).toEqual(['products']);
    expect(store().tableColumns.map((column) => column.key)).toEqual(['product_code', 'name', 'current_stock']);
  });

  it('fails with "Failed to load available mappings." on an error answer or success: false', async () => {
    fail = { '/api/yaml/config/': 500 };
    await store().loadMappings();
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load available mappings.', errorDetail: 'server says no' });
    fail = {};
    configAnswer = { success: false, message: 'Configuration file not found' };
    await store().loadMappings();
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load available mappings.', errorDetail: 'Configuration file not found' });
  });

  it('loading one mapping config: not found, failed, not ready', async () => {
    await store().loadMappings();
    await store().selectMapping('nope');
    expect(store()).toMatchObject({ isLoading: false, error: "Mapping config 'nope' not found.", mappingConfig: null });
    fail = { '/api/yaml/config/': 500 };
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load mapping config.' });
    fail = {};
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ error: null, mappingConfig: salesOnly, availableEntities: ['sales'] });
    useSessionStore.setState({ isLoggedIn: false });
    await store().loadMappingConfig('product_catalogue_csv');
    expect(store().error).toBe('Authentication not ready.');
  });
});

describe('preview', () => {
  it('shows the first five records after mapping, with hints', async () => {
    await store().loadMappings();
    const previewing = store().selectFile(csvFile());
    expect(store().isLoading).toBe(true);
    await previewing;
    const preview = store().previewData!;
    expect(store().isLoading).toBe(false);
    expect(preview.rows.map((row) => row.values['product_code'])).toEqual(['P-1', 'P-2', 'P-3', 'P-4', 'P-5']);
    expect(preview.rows[1]!.hints).toEqual({ current_stock: { code: 'notInteger' } });
    expect(preview.rows[2]!.hints).toEqual({ name: { code: 'required' } });
  });

  it('a mapping without the products entity: "No mapping found for entity type: products"', async () => {
    await store().loadMappings();
    await store().selectMapping('sales_only');
    await store().selectFile(csvFile());
    expect(store()).toMatchObject({ error: 'No mapping found for entity type: products', previewData: null, isLoading: false });
  });

  it('a mapping whose config is missing: "Mapping configuration for \'{name}\' not found."', async () => {
    useImportStore.setState({ selectedMapping: 'ghost', mappingConfig: null });
    await store().selectFile(csvFile());
    expect(store().error).toBe("Mapping configuration for 'ghost' not found.");
  });

  it('an unreadable file: "Failed to read file"; bad JSON: "Failed to generate preview."', async () => {
    await store().loadMappings();
    const unreadable = csvFile();
    Object.defineProperty(unreadable, 'slice', { value: () => ({ text: () => Promise.reject(new Error('NotReadableError')) }) });
    await store().selectFile(unreadable);
    expect(store().error).toBe('Failed to read file');
    await store().selectFile(new File(['{"items": ['], 'shop.json'));
    expect(store()).toMatchObject({ error: 'Failed to generate preview.', previewData: null });
    expect(store().errorDetail).toBeTruthy();
  });
});

describe('submit', () => {
  it('guards: file, mapping and config first, then the session', () => {
    const file = csvFile();
    expect(submitGuard({ file: null, mappingConfig: catalogue, mappingName: 'm', sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, mappingConfig: null, mappingName: 'm', sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, mappingConfig: catalogue, mappingName: null, sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, mappingConfig: catalogue, mappingName: 'm', sessionReady: false })).toBe('Authentication not ready. Please try again.');
    expect(submitGuard({ file, mappingConfig: catalogue, mappingName: 'm', sessionReady: true })).toBeNull();
  });

  it('refuses without a file, and when the session is not ready, without a request', async () => {
    await store().loadMappings();
    paths = [];
    await expect(store().submit()).rejects.toThrow('File, mapping, and config are required.');
    expect(store().error).toBe('File, mapping, and config are required.');
    await store().selectFile(csvFile());
    useSessionStore.setState({ isLoading: true });
    await expect(store().submit()).rejects.toThrow('Authentication not ready. Please try again.');
    expect(store().error).toBe('Authentication not ready. Please try again.');
    expect(paths.filter((path) => path === '/api/records/process-file/')).toEqual([]);
  });

  it('uploads with server progress; success clears the preview and the error and reloads the log', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadDelayMs = 1300;
    const submitting = store().submit();
    expect(store()).toMatchObject({ isUploading: true, error: null });
    await until(() => store().serverProgress?.rowsDone === 42);
    const polled = paths.find((path) => /^\/api\/records\/imports\/[0-9a-f-]{36}\/$/.test(path));
    expect(polled).toBeDefined();
    const result = await submitting;
    expect(result).toEqual(okResult);
    expect(store()).toMatchObject({ isUploading: false, result: okResult, previewData: null, error: null, selectedFile: null });
    await until(() => store().logs.length === 2);
    expect(store().logs.map((entry) => entry.id)).toEqual(['new', 'old']);
  });

  it('a 400 with row errors: "Failed to upload data.", the rows listed, the error rethrown, the log reloaded', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    const rowErrors = [{ row: 2, field: 'current_stock', reason: 'Expected a whole number.' }];
    uploadAnswer = { status: 400, body: { detail: '150 rows could not be imported; nothing was written.', code: 'validation_error', error: '150 rows could not be imported; nothing was written.', row_errors: rowErrors, row_error_count: 150 } };
    paths = [];
    await expect(store().submit()).rejects.toMatchObject({ code: 'validation_error' });
    expect(store()).toMatchObject({ isUploading: false, error: 'Failed to upload data.', errorDetail: '150 rows could not be imported; nothing was written.', rowErrors, rowErrorCount: 150 });
    expect(store().previewData).not.toBeNull();
    await until(() => paths.includes('/api/records/imports/'));
  });

  it('a 413 shows the server message', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadAnswer = { status: 413, body: { detail: 'The file is larger than the upload limit.', code: 'payload_too_large', error: 'The file is larger than the upload limit.' } };
    await expect(store().submit()).rejects.toBeTruthy();
    expect(store()).toMatchObject({ error: 'The file is larger than the upload limit.', errorDetail: null, rowErrors: [] });
  });
});

describe('mapping changes and cancelling', () => {
  it('a new mapping re-runs the preview of the chosen file; a missing one keeps its own message', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    expect(store().previewData?.rows).toHaveLength(5);
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ previewData: null, error: 'No mapping found for entity type: products' });
    await store().selectMapping('product_catalogue_csv');
    expect(store()).toMatchObject({ error: null, selectedMapping: 'product_catalogue_csv' });
    expect(store().previewData?.rows).toHaveLength(5);
    await store().selectMapping('gone');
    expect(store()).toMatchObject({ error: "Mapping config 'gone' not found.", previewData: null });
  });

  it('cancelling an upload says so and clears the busy flag', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadDelayMs = 3000;
    const submitting = store().submit();
    await until(() => paths.includes('/api/records/process-file/'));
    store().cancelUpload();
    await expect(submitting).rejects.toBeTruthy();
    expect(store()).toMatchObject({ isUploading: false, error: 'The import was cancelled.', errorDetail: null });
  });
});

describe('import log', () => {
  it('loads newest first with its flags, and one entry on selection', async () => {
    const loading = store().loadLogs();
    expect(store().isLoadingLogs).toBe(true);
    await loading;
    expect(store()).toMatchObject({ isLoadingLogs: false, logsError: null });
    await store().selectLog('new');
    expect(store().logDetail?.id).toBe('new');
    await store().selectLog(null);
    expect(store().logDetail).toBeNull();
    fail = { '/api/records/imports/': 500 };
    await store().loadLogs();
    expect(store()).toMatchObject({ isLoadingLogs: false, logsError: 'Failed to load the import log.' });
  });
});
